"""Knockout games on the clocks service (RULES.md §4), with the embedded adapters: a round's games wait
until it is published, a match's games are played one after the other, tie-break games come with their
own time control, and the games a decided match no longer needs are cancelled."""

from __future__ import annotations

import uuid

import pytest

from services.clocks.domain.endings import GameStatus
from services.clocks.tests.conftest import NOW, announce, published, token
from shared import events

TC = events.TimeControl(base_seconds=600, increment_seconds=5)
TIE_BREAK = events.TimeControl(base_seconds=900, increment_seconds=10)


class Knockout:
    """A knockout round of two matches of two games, as pairing announces it."""

    def __init__(self) -> None:
        self.tid, self.organiser = uuid.uuid4(), uuid.uuid4()
        self.players = {name: uuid.uuid4() for name in "ABCD"}
        self.games: list[events.PairedGame] = []
        for board, (a, b) in enumerate((("A", "D"), ("B", "C")), start=1):
            for number, (white, black) in enumerate(((a, b), (b, a)), start=1):
                self.add(board, number, white, black, f"Game {number}", TC)

    def add(self, board: int, number: int, white: str, black: str, label: str, tc) -> events.PairedGame:
        game = events.PairedGame(
            game_id=uuid.uuid4(),
            board=board,
            white=self.players[white],
            black=self.players[black],
            match_id=f"winners:1:{board}",
            number=number,
            label=label,
            time_control=tc,
        )
        self.games.append(game)
        return game

    def paired(self, published: bool, cancelled: list[uuid.UUID] | None = None) -> events.Envelope:
        event = events.RoundPaired(
            tournament_id=self.tid,
            organiser_id=self.organiser,
            round=1,
            total_rounds=2,
            system="knockout",
            games=self.games,
            time_control=TC,
            published=published,
            games_cancelled=cancelled or [],
        )
        return events.wrap(event, self.tid)

    def repaired(self, board: int, white: str, black: str) -> tuple[events.Envelope, list[events.PairedGame]]:
        """A correction changed who plays match ``board`` before it had a result: pairing announces the
        round again with the match's new games, naming its old ones as cancelled. That announcement,
        and the new games."""
        old = [g for g in self.games if g.board == board]
        self.games = [g for g in self.games if g.board != board]
        new = [
            self.add(board, number, w, b, f"Game {number - len(old)}", TC)
            for number, (w, b) in enumerate(((white, black), (black, white)), start=len(old) + 1)
        ]
        return self.paired(published=True, cancelled=[g.game_id for g in old]), new

    def published(self) -> events.Envelope:
        return events.wrap(events.RoundPublished(tournament_id=self.tid, round=1, published_at=NOW), self.tid)

    def decided(self, board: int, winner: str, cancelled: list[events.PairedGame]) -> events.Envelope:
        players = next(g for g in self.games if g.board == board)
        event = events.MatchDecided(
            tournament_id=self.tid,
            match_id=f"winners:1:{board}",
            round=1,
            section="winners",
            players=[players.white, players.black],
            winner=self.players[winner],
            how="regular",
            games_cancelled=[g.game_id for g in cancelled],
            decided_at=NOW,
        )
        return events.wrap(event, self.tid)


def status(svc, game: events.PairedGame) -> GameStatus:
    with svc.uow() as uow:
        found = uow.games.get(game.game_id)
    assert found is not None
    return found.status


def started(svc) -> list[uuid.UUID]:
    return [uuid.UUID(e.payload["game_id"]) for e in published(svc, "game.started")]


def problem(response, status_code: int, slug: str) -> None:
    assert response.status_code == status_code, response.json
    assert response.json["type"] == f"/problems/{slug}"


def report(client, game: events.PairedGame, outcome: str, who: uuid.UUID):
    return client.post(
        f"/games/{game.game_id}/result",
        json={"outcome": outcome, "reason": "resignation"},
        headers=token(who),
    )


@pytest.fixture
def ko(svc) -> Knockout:
    k = Knockout()
    announce(svc, k.paired(published=False))
    return k


def test_an_unpublished_rounds_games_wait_and_only_its_organiser_sees_them(svc, client, ko):
    assert started(svc) == []
    assert {status(svc, g) for g in ko.games} == {GameStatus.PENDING}
    url = f"/tournaments/{ko.tid}/games"
    assert client.get(url).json["games"] == []
    problem(client.get(f"/games/{ko.games[0].game_id}"), 404, "game-not-found")
    mine = client.get(url, headers=token(ko.organiser)).json["games"]
    assert [(g["match_id"], g["number"], g["label"], g["published"]) for g in mine] == [
        ("winners:1:1", 1, "Game 1", False),
        ("winners:1:1", 2, "Game 2", False),
        ("winners:1:2", 1, "Game 1", False),
        ("winners:1:2", 2, "Game 2", False),
    ]
    problem(report(client, ko.games[0], "1-0", ko.organiser), 409, "round-not-published")
    problem(
        client.post(f"/games/{ko.games[0].game_id}/moves", headers=token(ko.players["A"])),
        409,
        "game-not-started",
    )


def test_publishing_starts_each_matchs_first_game_and_the_next_follows(svc, client, ko):
    envelope = ko.published()
    announce(svc, envelope)
    announce(svc, envelope)  # redelivered: nothing twice
    first, second, third, fourth = ko.games
    assert started(svc) == [first.game_id, third.game_id]
    assert (status(svc, second), status(svc, fourth)) == (GameStatus.PENDING, GameStatus.PENDING)
    assert len(client.get(f"/tournaments/{ko.tid}/games").json["games"]) == 4  # public now
    assert report(client, first, "1-0", ko.players["D"]).status_code == 200  # D resigns
    assert started(svc) == [first.game_id, third.game_id, second.game_id]
    game = client.get(f"/games/{second.game_id}").json
    assert game["status"] == "running" and game["clock"]["time_control"]["base_seconds"] == 600


def test_tie_break_games_come_later_with_their_own_time_control(svc, client, ko):
    announce(svc, ko.published())
    first, second = ko.games[:2]
    report(client, first, "1-0", ko.players["D"])
    report(client, second, "1-0", ko.players["A"])  # 1-1: pairing adds tie-break stage 1
    one = ko.add(1, 3, "A", "D", "Tie-break 1 (15+10), game 1", TIE_BREAK)
    two = ko.add(1, 4, "D", "A", "Tie-break 1 (15+10), game 2", TIE_BREAK)
    announce(svc, ko.paired(published=True))
    assert started(svc)[-1] == one.game_id and status(svc, two) is GameStatus.PENDING
    game = client.get(f"/games/{one.game_id}").json
    assert (game["label"], game["clock"]["white_ms"]) == ("Tie-break 1 (15+10), game 1", 900_000)
    # each game started once: the regular games announced again were left alone
    assert started(svc) == [first.game_id, ko.games[2].game_id, second.game_id, one.game_id]


def test_a_decided_match_cancels_what_it_no_longer_needs(svc, client, ko, deadlines):
    announce(svc, ko.published())
    third, fourth = ko.games[2:]
    # match 2 is decided while its first game is still running, its second waiting
    announce(svc, ko.decided(2, "B", [third, fourth]))
    cancelled = [e.payload for e in published(svc, "game.cancelled")]
    assert [(c["game_id"], c["reason"], c["round"]) for c in cancelled] == [
        (str(third.game_id), "match_decided", 1),
        (str(fourth.game_id), "match_decided", 1),
    ]
    # version 2 names the players, so the in-game marker of the running game can go
    assert {e.version for e in published(svc, "game.cancelled")} == {2}
    assert [(c["white"], c["black"]) for c in cancelled] == [
        (str(g.white), str(g.black)) for g in (third, fourth)
    ]
    assert (status(svc, third), status(svc, fourth)) == (GameStatus.CANCELLED, GameStatus.CANCELLED)
    assert deadlines.deadline_of(third.game_id) is None
    game = client.get(f"/games/{third.game_id}").json
    assert (game["status"], game["result"], game["clock"]["state"]) == ("cancelled", None, "stopped")
    problem(report(client, fourth, "1-0", ko.players["B"]), 409, "game-cancelled")
    problem(
        client.post(f"/games/{third.game_id}/moves", headers=token(ko.players["B"])), 409, "game-cancelled"
    )
    announce(svc, ko.decided(2, "B", [third, fourth]))  # the same decision again changes nothing
    assert len(published(svc, "game.cancelled")) == 2
    # a finished game is never cancelled
    first = ko.games[0]
    report(client, first, "1-0", ko.players["D"])
    announce(svc, ko.decided(1, "A", [first]))
    assert status(svc, first) is GameStatus.FINISHED and len(published(svc, "game.cancelled")) == 2


def test_a_completed_knockout_cancels_a_game_left_open(svc, client, ko):
    """Its match was decided (match.decided may arrive after tournament.completed, on its own queue)."""
    announce(svc, ko.published())
    completed = events.TournamentCompleted(
        tournament_id=ko.tid, organiser_id=ko.organiser, rounds=1, completed_at=NOW
    )
    announce(svc, events.wrap(completed, ko.tid))
    assert {status(svc, g) for g in ko.games} == {GameStatus.CANCELLED}
    assert len(published(svc, "game.cancelled")) == 4 and published(svc, "game.finished") == []


def test_a_match_paired_again_cancels_its_old_games_and_plays_its_new_ones(svc, client, ko):
    """A correction gave match 2 another player (RULES.md §4: allowed while it has no result): its
    running first game and its waiting second are cancelled, and its new first game starts."""
    announce(svc, ko.published())
    third, fourth = ko.games[2:]
    assert status(svc, third) is GameStatus.RUNNING
    again, (new_first, new_second) = ko.repaired(2, "B", "A")
    announce(svc, again)
    cancelled = [e.payload for e in published(svc, "game.cancelled")]
    assert [(c["game_id"], c["reason"], c["white"], c["black"]) for c in cancelled] == [
        (str(g.game_id), "match_repaired", str(g.white), str(g.black)) for g in (third, fourth)
    ]
    assert (status(svc, third), status(svc, fourth)) == (GameStatus.CANCELLED, GameStatus.CANCELLED)
    assert started(svc)[-1] == new_first.game_id and status(svc, new_second) is GameStatus.PENDING
    problem(report(client, third, "1-0", ko.players["C"]), 409, "game-cancelled")
    announce(svc, again)  # redelivered: nothing twice
    assert len(published(svc, "game.cancelled")) == 2
