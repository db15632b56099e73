"""``arbiter result | absent | penalty`` against the clocks service served over real HTTP (the embedded
adapters: SQLite, an in-process broker), as the arbiters of an over-the-board rapid event use them."""

from __future__ import annotations

import datetime as dt
import json
import uuid
from collections.abc import Iterator

import pytest
from click.testing import CliRunner, Result

from cli.boards import clock_ms
from cli.main import build_cli
from cli.tests.served import serving
from services.clocks.adapters.deadlines import InMemoryDeadlineStore
from services.clocks.bootstrap import Clocks, bootstrap
from services.clocks.config import ClocksSettings
from services.clocks.entrypoints.app import create_app
from shared import events
from shared.http.auth import issue_token
from shared.messaging.inprocess import InProcessBroker
from shared.settings import DEV_JWT_SECRET
from shared.timesource import FakeClock
from shared.vocabulary import Ruleset

NOW = dt.datetime(2026, 6, 1, 12, 0, tzinfo=dt.UTC)


class Event:
    """A served clocks service with a board-clock rapid event: round 1 on three boards (board 3 played
    twice, as double rounds would), one arbiter appointed for the whole tournament."""

    def __init__(self, svc: Clocks, url: str) -> None:
        self.svc, self.url = svc, url
        self.tournament, self.organiser, self.arbiter = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
        self.games = [
            events.PairedGame(game_id=uuid.uuid4(), board=b, leg=leg, white=uuid.uuid4(), black=uuid.uuid4())
            for b, leg in ((1, 1), (2, 1), (3, 1), (3, 2))
        ]
        tc = events.TimeControl(base_seconds=900, increment_seconds=10)
        decision = events.DecisionBy(by=self.organiser, role="organiser", at=NOW)
        for event in (
            events.TournamentStarted(
                tournament_id=self.tournament,
                organiser_id=self.organiser,
                name="Rapid open",
                started_at=NOW,
                settings=events.TournamentSettings(
                    ruleset=Ruleset.FIDE_RAPID, time_control=tc, fide=events.FideSettings(rounds=5)
                ),
                roster=[],
            ),
            events.ArbiterAppointed(
                tournament_id=self.tournament, arbiter_id=self.arbiter, decision=decision
            ),
            events.RoundPaired(
                tournament_id=self.tournament,
                organiser_id=self.organiser,
                round=1,
                total_rounds=5,
                system="swiss",
                games=self.games,
                time_control=tc,
            ),
        ):
            svc.broker.publish([events.wrap(event, self.tournament)])
            svc.broker.run_until_idle()

    def game(self, board: int, leg: int = 1) -> events.PairedGame:
        return next(g for g in self.games if (g.board, g.leg) == (board, leg))

    def run(self, who: uuid.UUID | None, *args: str, roles: set[str] | None = None) -> Result:
        options = ["--clocks-url", self.url]
        if who is not None:
            options += ["--token", issue_token(DEV_JWT_SECRET, who, roles or {"arbiter"})]
        return CliRunner().invoke(build_cli(), [*args, *options], env={"COLUMNS": "400"})


@pytest.fixture
def event(tmp_path) -> Iterator[Event]:
    settings = ClocksSettings(ARBITER_CLOCKS_DATABASE_URL=f"sqlite:///{tmp_path / 'clocks.sqlite'}")
    svc = bootstrap(
        settings,
        broker=InProcessBroker(),
        clock=FakeClock(NOW),
        deadlines=InMemoryDeadlineStore(),
        migrate=True,
        relay_on_commit=True,
    )
    svc.broker.subscribe(svc.subscriptions)
    try:
        with serving(create_app(svc)) as url:
            yield Event(svc, url)
    finally:
        svc.engine.dispose()


def finished(event: Event) -> dict[str, dict]:
    return {e.payload["game_id"]: e.payload for e in event.svc.broker.published if e.type == "game.finished"}


def test_an_arbiter_enters_results_by_board(event: Event) -> None:
    t = str(event.tournament)
    out = event.run(event.arbiter, "result", t, "1", "1", "1-0")
    assert out.exit_code == 0, out.output
    assert out.output == f"round 1, board 1 (game {event.game(1).game_id}): 1-0 (reported)\n"
    out = event.run(event.organiser, "result", t, "1", "2", "-/+", roles={"player"})
    assert out.output == f"round 1, board 2 (game {event.game(2).game_id}): -/+ (forfeit)\n"
    out = event.run(event.arbiter, "result", t, "1", "3", "1/2-1/2", "--leg", "2", "--reason", "agreement")
    assert out.exit_code == 0, out.output
    done = finished(event)
    assert {(g["outcome"], g["reason"], g["decision"]["role"]) for g in done.values()} == {
        ("1-0", "reported", "arbiter"),
        ("-/+", "forfeit", "organiser"),
        ("1/2-1/2", "agreement", "arbiter"),
    }
    assert str(event.game(3, 2).game_id) in done and str(event.game(3, 1).game_id) not in done


def test_result_says_what_is_wrong_with_the_board(event: Event) -> None:
    t = str(event.tournament)
    two = event.run(event.arbiter, "result", t, "1", "3", "1-0")
    assert two.exit_code == 2 and "board 3 has 2 games (legs 1, 2): say which with --leg" in two.output
    none = event.run(event.arbiter, "result", t, "1", "9", "1-0")
    assert none.exit_code == 2 and "round 1 has no board 9 (boards 1–3)" in none.output
    unpaired = event.run(event.arbiter, "result", t, "2", "1", "1-0")
    assert unpaired.exit_code == 2 and "round 2" in unpaired.output and "no games" in unpaired.output
    bad = event.run(event.arbiter, "result", t, "1", "1", "2-0")
    assert bad.exit_code == 2 and "'2-0' is not one of" in bad.output
    typo = event.run(event.arbiter, "result", t, "1", "3", "1-0", "--lag", "2")
    assert typo.exit_code == 2 and "unexpected extra arguments" in typo.output
    no_token = event.run(None, "result", t, "1", "1", "1-0")
    assert no_token.exit_code == 2 and "this needs a token" in no_token.output
    assert finished(event) == {}


def test_a_result_refused_by_the_service_prints_its_problem(event: Event) -> None:
    t = str(event.tournament)
    assert event.run(event.arbiter, "result", t, "1", "1", "1-0").exit_code == 0
    again = event.run(event.arbiter, "result", t, "1", "1", "0-1")
    assert again.exit_code == 1 and "409 Conflict" in again.output and "already finished" in again.output
    stranger = event.run(uuid.uuid4(), "result", t, "1", "2", "0-1")
    assert stranger.exit_code == 1 and "403 Forbidden" in stranger.output


def test_an_arbiter_records_absences(event: Event) -> None:
    one, two = event.game(1), event.game(2)
    out = event.run(event.arbiter, "absent", str(one.game_id), str(one.black))
    assert out.exit_code == 0, out.output
    assert out.output == f"game {one.game_id}: +/- (default_time)\n"
    out = event.run(event.arbiter, "absent", str(two.game_id), str(two.white), "--opponent-too", "--json")
    assert out.exit_code == 0 and json.loads(out.output)["result"]["outcome"] == "-/-"
    late = event.run(event.arbiter, "absent", str(one.game_id), str(one.white))
    assert late.exit_code == 1 and "409 Conflict" in late.output
    service = event.run(uuid.uuid4(), "absent", str(event.game(3).game_id), str(one.white), roles={"service"})
    assert service.exit_code == 1 and "403 Forbidden" in service.output


def test_an_arbiter_imposes_penalties(event: Event) -> None:
    g = event.game(1)
    game, player = str(g.game_id), str(g.white)
    out = event.run(event.arbiter, "penalty", game, player, "displaced-pieces", "--times", "4:30", "2:05")
    assert out.exit_code == 0, out.output
    assert out.output == f"game {game}: displaced-pieces by {player}, occurrence 1: warning\n"
    out = event.run(event.arbiter, "penalty", game, player, "illegal-move", "--reason", "castled into check")
    assert out.output == f"game {game}: illegal-move by {player}, occurrence 1: extra minute\n"
    out = event.run(event.arbiter, "penalty", game, player, "displaced-pieces", "--times", "3:00", "0:45")
    assert out.exit_code == 0, out.output
    assert out.output == (
        f"game {game}: displaced-pieces by {player}, occurrence 2: loss — 0-1 (illegal_move)\n"
    )
    over = event.run(event.arbiter, "penalty", game, player, "illegal-move")
    assert over.exit_code == 1 and "409 Conflict: the game is already finished" in over.output
    incidents = [e.payload for e in event.svc.broker.published if e.type == "game.penalised"]
    assert [(i["kind"], i["consequence"]) for i in incidents] == [
        ("displaced_pieces", "warning"),
        ("illegal_move", "extra_minute"),
        ("displaced_pieces", "loss"),
    ]
    assert incidents[1]["decision"]["reason"] == "castled into check"


def test_penalty_says_what_it_needs(event: Event) -> None:
    g = event.game(2)
    game, player = str(g.game_id), str(g.white)
    no_times = event.run(event.arbiter, "penalty", game, player, "displaced-pieces")
    assert no_times.exit_code == 1 and "422" in no_times.output and "remaining times" in no_times.output
    bad_time = event.run(
        event.arbiter, "penalty", game, player, "displaced-pieces", "--times", "4:3x", "1:00"
    )
    assert bad_time.exit_code == 2 and "'4:3x' is not a clock time" in bad_time.output
    kind = event.run(event.arbiter, "penalty", game, player, "touch-move")
    assert kind.exit_code == 2 and "'touch-move' is not one of" in kind.output
    blank = event.run(event.arbiter, "penalty", game, player, "illegal-move", "--reason", " ")
    assert blank.exit_code == 2 and "say what happened" in blank.output


@pytest.mark.parametrize(
    ("text", "ms"),
    [
        ("45", 45_000),
        ("7.5", 7_500),
        ("0:45", 45_000),
        ("4:30", 270_000),
        ("1:05:00", 3_900_000),
        ("12:00", 720_000),
    ],
)
def test_clock_times(text: str, ms: int) -> None:
    assert clock_ms(text) == ms
