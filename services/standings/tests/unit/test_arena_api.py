"""An arena's standings from its events (RULES.md §3): the table after every game with streak, fire and
boost marks, the games in progress, each player's games, the page updating itself, the final ranking
frozen at completion (``standings.final``), on the SQL adapters (SQLite) behind the HTTP API."""

from __future__ import annotations

import datetime as dt
import uuid

from services.standings.tests.helpers import deliver, problem, published
from shared import events

NOW = dt.datetime(2026, 6, 1, 12, 0, tzinfo=dt.UTC)
TC = events.TimeControl(base_seconds=180, increment_seconds=2)


class Arena:
    def __init__(self, svc, names=("Ann", "Bob", "Cyd")) -> None:
        self.svc = svc
        self.id = uuid.uuid4()
        self.players = {name: uuid.uuid4() for name in names}
        self.clock = NOW
        deliver(
            svc,
            events.TournamentStarted(
                tournament_id=self.id,
                organiser_id=uuid.uuid4(),
                name="Friday arena",
                started_at=NOW,
                settings=events.TournamentSettings(
                    ruleset="arena", time_control=TC, arena=events.ArenaSettings(duration_minutes=60)
                ),
                roster=[
                    events.RosterEntry(seed=i, player_id=pid, name=name, rating=2000 - i)
                    for i, (name, pid) in enumerate(self.players.items(), start=1)
                ],
            ),
        )

    def pair(self, white: str, black: str) -> events.ArenaGame:
        game = events.ArenaGame(game_id=uuid.uuid4(), white=self.players[white], black=self.players[black])
        deliver(
            self.svc,
            events.ArenaPaired(
                tournament_id=self.id,
                organiser_id=uuid.uuid4(),
                games=[game],
                time_control=TC,
                paired_at=self.clock,
            ),
        )
        return game

    def finish(self, game: events.ArenaGame, outcome: str, *, boost=(False, False), minutes: int = 3) -> None:
        self.clock += dt.timedelta(minutes=minutes)
        deliver(
            self.svc,
            events.GameFinished(
                tournament_id=self.id,
                game_id=game.game_id,
                round=0,
                white=game.white,
                black=game.black,
                outcome=outcome,
                reason="resignation",
                finished_at=self.clock,
                boost=events.Sides(white=boost[0], black=boost[1]),
            ),
        )

    def play(self, white: str, black: str, outcome: str, **kw) -> None:
        self.finish(self.pair(white, black), outcome, **kw)


def test_the_table_after_every_game_with_its_marks(client, svc):
    arena = Arena(svc)
    body = client.get(f"/tournaments/{arena.id}/arena").json
    assert [(r["name"], r["points"], r["games"]) for r in body["ranking"]] == [
        ("Ann", 0, 0),
        ("Bob", 0, 0),
        ("Cyd", 0, 0),
    ]
    running = arena.pair("Ann", "Bob")
    body = client.get(f"/tournaments/{arena.id}/arena").json
    assert [g["game_id"] for g in body["in_progress"]] == [str(running.game_id)]
    arena.finish(running, "1-0")
    arena.play("Cyd", "Ann", "0-1")
    arena.play("Ann", "Bob", "1-0", boost=(True, False))  # a third win in a row, boosted: 3 × 2
    arena.play("Bob", "Cyd", "1/2-1/2")
    body = client.get(f"/tournaments/{arena.id}/arena").json
    assert body["in_progress"] == [] and body["final"] is False
    ann = body["ranking"][0]
    assert (
        ann["name"],
        ann["points"],
        ann["wins"],
        ann["games"],
        ann["streak"],
        ann["on_fire"],
        ann["boosts"],
    ) == (
        "Ann",
        10,
        3,
        3,
        3,
        True,
        1,
    )
    # Cyd's point came from fewer games (2 against Bob's 3): ahead
    assert [(r["name"], r["rank"], r["points"]) for r in body["ranking"][1:]] == [
        ("Cyd", 2, 1),
        ("Bob", 3, 1),
    ]
    third = body["games"][2]
    assert third["points"] == {"white": 6, "black": 0} and third["streak"] == {"white": True, "black": False}
    assert third["boost"] == {"white": True, "black": False}


def test_players_who_join_later_are_listed(client, svc):
    arena = Arena(svc, names=("Ann", "Bob"))
    late = uuid.uuid4()
    deliver(svc, events.PlayerJoined(tournament_id=arena.id, player_id=late, name="Late", rating=1500))
    names = [r["name"] for r in client.get(f"/tournaments/{arena.id}/arena").json["ranking"]]
    assert names == ["Ann", "Bob", "Late"]
    # a platform tournament's entries are not an arena's
    other = uuid.uuid4()
    deliver(svc, events.PlayerJoined(tournament_id=other, player_id=uuid.uuid4(), name="X"))
    problem(client.get(f"/tournaments/{other}/arena"), 404, "tournament-not-found")


def test_the_final_ranking_is_frozen(client, svc):
    arena = Arena(svc, names=("Ann", "Bob"))
    arena.play("Ann", "Bob", "0-1")
    completed = events.TournamentCompleted(
        tournament_id=arena.id, organiser_id=uuid.uuid4(), rounds=0, completed_at=arena.clock
    )
    deliver(svc, completed)
    deliver(svc, completed)  # again: nothing new
    (final,) = published(svc, "standings.final")
    rows = final.payload["rows"]
    assert [(r["name"], r["rank"], r["points"], r["tiebreaks"]) for r in rows] == [
        ("Bob", 1, 2, {"wins": 1, "games": 1}),
        ("Ann", 2, 0, {"wins": 0, "games": 1}),
    ]
    arena.play("Ann", "Bob", "1-0")  # a stray result after the end changes nothing
    body = client.get(f"/tournaments/{arena.id}/arena").json
    assert body["final"] is True and [r["points"] for r in body["ranking"]] == [2, 0]


def test_the_page_shows_the_ranking_and_a_players_games(client, svc):
    arena = Arena(svc)
    arena.play("Ann", "Bob", "1-0", boost=(True, False))
    arena.pair("Cyd", "Bob")
    page = client.get(f"/t/{arena.id}").get_data(as_text=True)
    assert "Friday arena" in page and 'id="ranking"' in page and 'id="in-progress"' in page
    assert "⚡1" in page and "fetch(url)" in page  # boost mark, and it polls
    ann = arena.players["Ann"]
    page = client.get(f"/t/{arena.id}/arena?player={ann}").get_data(as_text=True)
    assert "Ann's games" in page and 'id="player-games"' in page
    fragment = client.get(f"/t/{arena.id}/arena?fragment=1").get_data(as_text=True)
    assert fragment.lstrip().startswith('<p class="status"') and "<html" not in fragment
    assert client.get(f"/t/{uuid.uuid4()}/arena").status_code == 404
