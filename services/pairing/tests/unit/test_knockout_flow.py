"""The pairing service running knockouts: from tournament.started to tournament.completed, with
unpublished rounds, tie-break stages and cancelled games; on SQLite with its HTTP API, and the flows on
the in-memory fakes too."""

from __future__ import annotations

import uuid

import pytest

from services.pairing.entrypoints.app import create_app
from services.pairing.tests.helpers import NOW, appointed, deliver, knockout_started, published, started
from shared import events
from shared.events import GameOutcome
from shared.http.auth import issue_token
from shared.seed_draw import draw_order
from shared.settings import DEV_JWT_SECRET

W, D, B = GameOutcome.WHITE_WIN, GameOutcome.DRAW, GameOutcome.BLACK_WIN


class Run:
    """A knockout told as the events the pairing service receives."""

    def __init__(self, svc, started: events.TournamentStarted) -> None:
        self.svc, self.started = svc, started
        self.tid = started.tournament_id
        self.seed = {r.player_id: r.seed for r in started.roster}
        deliver(svc, started, self.tid)

    def rounds(self) -> list[events.RoundPaired]:
        return [events.RoundPaired.model_validate(e.payload) for e in published(self.svc, "round.paired")]

    def latest(self, number: int) -> events.RoundPaired:
        return [r for r in self.rounds() if r.round == number][-1]

    def decided(self) -> list[events.MatchDecided]:
        return [events.MatchDecided.model_validate(e.payload) for e in published(self.svc, "match.decided")]

    def result(self, number: int, game: events.PairedGame, outcome: GameOutcome) -> None:
        finished = events.GameFinished(
            tournament_id=self.tid,
            game_id=game.game_id,
            round=number,
            white=game.white,
            black=game.black,
            outcome=outcome,
            reason="reported",
            finished_at=NOW,
        )
        deliver(self.svc, finished, self.tid)

    def open_games(self, number: int) -> list[events.PairedGame]:
        rp = self.latest(number)
        done = {
            uuid.UUID(e.payload["game_id"]) for e in self.svc.broker.published if e.type == "game.finished"
        }
        cancelled = {g for d in self.decided() for g in d.games_cancelled}
        return [g for g in rp.games if g.game_id not in done | cancelled]

    def play_round(self, number: int, winner=min) -> None:
        """Every match of the round won by ``winner`` of its two seeds, every game won by them."""
        while games := self.open_games(number):
            game = games[0]
            w, b = self.seed[game.white], self.seed[game.black]
            self.result(number, game, W if winner((w, b)) == w else B)


def token(subject: uuid.UUID, *roles: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {issue_token(DEV_JWT_SECRET, subject, set(roles) or {'player'})}"}


def test_round_one_is_paired_unpublished_with_its_matches_games_and_byes(service):
    svc = service
    run = Run(svc, knockout_started(6, third_place=True))
    first = run.latest(1)
    assert (first.system, first.total_rounds, first.published) == ("knockout", 3, False)
    assert [(m.match_id, m.board, [run.seed.get(p) for p in m.players]) for m in first.matches] == [
        ("winners:1:2", 1, [4, 5]),
        ("winners:1:4", 2, [3, 6]),
        ("winners:1:1", None, [1, None]),
        ("winners:1:3", None, [2, None]),
    ]
    assert [run.seed[b.player_id] for b in first.byes] == [1, 2]
    games = [(g.match_id, g.number, g.label, g.board) for g in first.games]
    assert games == [
        ("winners:1:2", 1, "Game 1", 1),
        ("winners:1:2", 2, "Game 2", 1),
        ("winners:1:4", 1, "Game 1", 2),
        ("winners:1:4", 2, "Game 2", 2),
    ]
    for m in first.matches[:2]:
        one, two = [g for g in first.games if g.match_id == m.match_id]
        assert one.white == m.first_white and (two.white, two.black) == (one.black, one.white)
    assert {g.time_control.base_seconds for g in first.games} == {600}


def test_only_the_organiser_sees_and_publishes_an_unpublished_round(svc):
    run = Run(svc, knockout_started(4))
    client = create_app(svc).test_client()
    organiser = run.started.organiser_id
    url = f"/tournaments/{run.tid}"
    anonymous = client.get(f"{url}/rounds/1").json
    assert (anonymous["published"], anonymous["games"], anonymous["matches"]) == (False, [], [])
    mine = client.get(f"{url}/rounds/1", headers=token(organiser)).json
    assert len(mine["games"]) == 4 and [m["players"] for m in mine["matches"]] == [[1, 4], [2, 3]]
    # the arbiter role alone shows nothing; an appointed arbiter and the game server see the pairings
    arbiter = uuid.uuid4()
    assert client.get(url, headers=token(arbiter, "arbiter")).json["rounds"][0]["games"] == []
    deliver(svc, appointed(run.started, arbiter, games=[uuid.uuid4()]), run.tid)
    assert client.get(url, headers=token(arbiter, "arbiter")).json["rounds"][0]["games"]
    assert client.get(url, headers=token(uuid.uuid4(), "service")).json["rounds"][0]["games"]
    assert client.get(url).json["knockout"] == {
        "format": "knockout",
        "games_per_match": 2,
        "seeding": "rating",
        "draw_seed": None,
        "options": {"third_place": False},
        "finished": False,
    }

    def problem(r, status, slug):
        assert r.status_code == status, r.json
        assert r.mimetype == "application/problem+json" and r.json["type"] == f"/problems/{slug}"

    problem(client.post(f"{url}/rounds/1/publish", headers=token(uuid.uuid4())), 403, "not-organiser")
    problem(client.post(f"{url}/rounds/1/publish"), 401, "unauthorized")
    problem(client.get(url, headers={"Authorization": "Bearer nope"}), 401, "unauthorized")
    problem(client.post(f"{url}/rounds/2/publish", headers=token(organiser)), 404, "round-not-found")
    problem(client.post(f"/tournaments/{uuid.uuid4()}/rounds/1/publish", headers=token(organiser)), 404,
            "tournament-not-found")  # fmt: skip
    r = client.post(f"{url}/rounds/1/publish", headers=token(organiser))
    assert r.status_code == 200 and r.json["published"] is True
    again = client.post(f"{url}/rounds/1/publish", headers=token(organiser))
    assert again.status_code == 200
    assert [e.payload["round"] for e in published(svc, "round.published")] == [1]  # once
    assert len(client.get(f"{url}/rounds/1").json["games"]) == 4  # public now

    platform = started(6)
    deliver(svc, platform, platform.tournament_id)
    problem(
        client.post(f"/tournaments/{platform.tournament_id}/rounds/1/publish", headers=token(platform.organiser_id)),
        409,
        "published-when-paired",
    )  # fmt: skip


def test_a_level_match_plays_its_tie_break_stage_and_the_round_moves_on(service):
    svc = service
    run = Run(svc, knockout_started(4))
    first = run.latest(1)
    one_four = [g for g in first.games if g.match_id == "winners:1:1"]
    # 1 v 4: each wins with White: 1-1
    for g in one_four:
        run.result(1, g, W)
    again = run.latest(1)
    assert len(run.rounds()) == 2 and again.round == 1 and len(again.games) == 6
    added = [g for g in again.games if g.match_id == "winners:1:1" and g.number > 2]
    assert [(g.number, g.label, g.time_control.base_seconds) for g in added] == [
        (3, "Tie-break 1 (15+10), game 1", 900),
        (4, "Tie-break 1 (15+10), game 2", 900),
    ]
    assert (added[0].white, added[1].white) == (one_four[0].white, one_four[0].black)
    assert run.decided() == []
    run.result(1, added[0], D)
    run.result(1, added[1], W if run.seed[added[1].white] == 4 else B)  # seed 4 wins the stage
    first_decided = run.decided()[0]
    assert (first_decided.match_id, run.seed[first_decided.winner], first_decided.how) == (
        "winners:1:1",
        4,
        "tiebreak",
    )
    assert published(svc, "round.completed") == []
    run.play_round(1)  # 2 v 3: seed 2 wins both
    assert [e.payload["round"] for e in published(svc, "round.completed")] == [1]
    final = run.latest(2)
    assert [[run.seed[p] for p in m.players] for m in final.matches] == [[4, 2]]
    assert final.published is False


def test_a_decided_match_cancels_the_games_it_no_longer_needs(svc):
    run = Run(svc, knockout_started(4, games=4))
    games = [g for g in run.latest(1).games if g.match_id == "winners:1:1"]
    for g in games[:3]:
        run.result(1, g, W if run.seed[g.white] == 1 else B)  # seed 1 wins three: 3-0
    decided = run.decided()[0]
    assert (run.seed[decided.winner], decided.how, decided.games_cancelled) == (
        1,
        "regular",
        [games[3].game_id],
    )
    client = create_app(svc).test_client()
    body = client.get(f"/tournaments/{run.tid}/rounds/1", headers=token(run.started.organiser_id)).json
    assert [g["cancelled"] for g in body["games"][:4]] == [False, False, False, True]
    assert body["matches"][0]["winner"] == 1 and body["matches"][0]["how"] == "regular"
    # the cancelled game played anyway: kept, changes nothing
    run.result(1, games[3], B)
    assert len(run.decided()) == 1


def test_a_second_result_for_a_game_changes_nothing(service):
    svc = service
    run = Run(svc, knockout_started(4, games=1))
    game = run.latest(1).games[0]
    run.result(1, game, W)
    run.result(1, game, B)
    decided = run.decided()
    assert len(decided) == 1 and decided[0].winner == game.white


def test_a_six_player_knockout_to_its_final_placing(service):
    svc = service
    run = Run(svc, knockout_started(6, third_place=True))
    for number in (1, 2, 3):
        run.play_round(number)  # the better seed always wins
    assert [r.round for r in run.rounds()] == [1, 2, 3]
    assert [[run.seed[p] for p in m.players] for m in run.latest(3).matches] == [[1, 2], [4, 3]]
    done = published(svc, "tournament.completed")
    assert len(done) == 1
    completed = events.TournamentCompleted.model_validate(done[0].payload)
    assert completed.rounds == 3
    assert [(p.seed, p.rank, p.places, p.matches_won) for p in completed.placing] == [
        (1, 1, [1, 1], 2),
        (2, 2, [2, 2], 1),
        (3, 3, [3, 3], 2),
        (4, 4, [4, 4], 1),
        (5, 5, [5, 6], 0),
        (6, 5, [5, 6], 0),
    ]
    assert all(run.seed[p.player_id] == p.seed for p in completed.placing)
    assert len(published(svc, "round.completed")) == 3


@pytest.mark.parametrize("second_final", [True, False])
def test_a_double_knockout_where_the_losers_bracket_winner_takes_the_first_final(service, second_final):
    svc = service
    run = Run(svc, knockout_started(4, fmt="double_knockout", games=1, second_final=second_final))
    number = 1
    while not published(svc, "tournament.completed"):
        rp = run.latest(number)
        gf = next((m for m in rp.matches if m.match_id == "grand_final:1:1"), None)
        # the better seed wins everything, except the first grand final: seed 2 (from the losers' bracket)
        run.play_round(number, winner=(lambda seeds: 2) if gf else min)
        number += 1
    completed = events.TournamentCompleted.model_validate(published(svc, "tournament.completed")[0].payload)
    champion = completed.placing[0]
    assert (champion.seed, champion.rank) == ((1 if second_final else 2), 1)
    # winners round 1; winners' final and losers round 1; losers' final; grand final; the second final
    assert completed.rounds == run.latest(number - 1).total_rounds == (5 if second_final else 4)
    assert run.latest(1).total_rounds == 4


def test_a_round_number_beyond_what_the_database_holds_is_a_422(svc):
    run = Run(svc, knockout_started(4))
    client = create_app(svc).test_client()
    organiser = token(run.started.organiser_id)
    url = f"/tournaments/{run.tid}/rounds"
    for method, path in (("POST", f"{url}/2147483648/publish"), ("GET", f"{url}/2147483648")):
        r = client.open(path, method=method, headers=organiser)
        assert r.status_code == 422 and r.json["type"] == "/problems/validation-error", r.json
    assert client.post(f"{url}/2147483647/publish", headers=organiser).status_code == 404


def test_a_drawn_seed_list_is_checked_kept_and_shown_as_a_draw(svc):
    ids = [uuid.UUID(int=i) for i in range(1, 6)]
    order = [uuid.UUID(p) for p in draw_order([str(i) for i in ids], 424242)]
    run = Run(svc, knockout_started(5, seeding="random", draw_seed=424242, player_ids=order))
    assert [run.seed[p] for m in run.latest(1).matches for p in m.players if p] == [4, 5, 1, 2, 3]
    shown = create_app(svc).test_client().get(f"/tournaments/{run.tid}").json["knockout"]
    assert (shown["seeding"], shown["draw_seed"]) == ("draw", 424242)


def test_a_seed_list_that_is_not_its_draw_is_refused(service):
    ids = [uuid.UUID(int=i) for i in range(1, 6)]
    order = [uuid.UUID(p) for p in draw_order([str(i) for i in ids], 424242)]
    wrong = knockout_started(5, seeding="random", draw_seed=424242, player_ids=order[::-1])
    deliver(service, wrong, wrong.tournament_id)
    assert published(service, "round.paired") == []
    [dead] = service.broker.dead_letters("pairing.tournament_started")
    assert "not the draw of its draw seed" in dead.reason
