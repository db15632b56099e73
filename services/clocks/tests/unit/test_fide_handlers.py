"""The fide-rapid ruleset through the bus and the consumers, on the in-memory fakes and on SQLite: who
keeps the time (from ``tournament.started``, also when it arrives after the round), the deadline store
over the board and with the default time, absences and penalties with who may impose them, and
displaced pieces counted across the rounds of one tournament (and only of that one)."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest

from services.clocks.domain import errors
from services.clocks.domain.clock import Side
from services.clocks.domain.endings import GameStatus
from services.clocks.domain.game import Outcome
from services.clocks.domain.penalties import Consequence, PenaltyKind
from services.clocks.service_layer.commands import (
    Actor,
    CheckFlags,
    MakeMove,
    Penalise,
    RecordAbsence,
    ReportResult,
)
from services.clocks.tests.conftest import NOW, Pairing, a_round, announce, published
from shared import events
from shared.authority import Role
from shared.events import Envelope, wrap
from shared.vocabulary import Ruleset

ILLEGAL, DISPLACED = PenaltyKind.ILLEGAL_MOVE, PenaltyKind.DISPLACED_PIECES


@pytest.fixture(params=["memory", "sqlite"])
def svc(request):
    return request.getfixturevalue(f"{'memory' if request.param == 'memory' else 'sql'}_svc")


def at(seconds: float) -> dt.datetime:
    return NOW + dt.timedelta(seconds=seconds)


def started(p: Pairing, clocks: str = "board", default_time_minutes: int = 10) -> Envelope:
    settings = events.TournamentSettings(
        ruleset=Ruleset.FIDE_RAPID,
        time_control=p.time_control,
        fide=events.FideSettings(rounds=7, clocks=clocks, default_time_minutes=default_time_minutes),
    )
    event = events.TournamentStarted(
        tournament_id=p.tournament_id,
        organiser_id=p.organiser_id,
        name="Rapid open",
        started_at=NOW,
        settings=settings,
        roster=[],
    )
    return wrap(event, p.tournament_id)


def appointed(p: Pairing, arbiter: uuid.UUID) -> Envelope:
    decision = events.DecisionBy(by=p.organiser_id, role="organiser", at=NOW)
    event = events.ArbiterAppointed(tournament_id=p.tournament_id, arbiter_id=arbiter, decision=decision)
    return wrap(event, p.tournament_id)


def rapid(boards: int = 1, **kwargs) -> Pairing:
    return a_round(boards, base=900, increment=10, **kwargs)


def game_of(svc, game_id: uuid.UUID):
    with svc.uow() as uow:
        return uow.games.get(game_id)


def payloads(svc, kind: str) -> list[dict]:
    return [e.payload for e in published(svc, kind)]


# -- who keeps the time --------------------------------------------------------------------------------
def test_over_the_board_the_games_run_with_no_clock_and_no_deadline(svc):
    p = rapid(2)
    announce(svc, started(p))
    announce(svc, p)
    for paired in p.games:
        game = game_of(svc, paired.game_id)
        assert game.status is GameStatus.RUNNING and not game.server_clock and game.deadline is None
        assert svc.deadlines.deadline_of(paired.game_id) is None
    assert len(published(svc, "game.started")) == 2
    svc.clock.advance(3 * 3600)
    assert svc.bus.handle(CheckFlags()) == 0
    with pytest.raises(errors.BoardClock):
        svc.bus.handle(MakeMove(p.game(1).game_id, p.game(1).white))


def test_with_server_clocks_the_default_time_is_a_deadline(svc):
    p = rapid(2)
    announce(svc, started(p, "server", 10))
    announce(svc, p)
    first, second = p.game(1), p.game(2)
    assert svc.deadlines.deadline_of(first.game_id) == at(600)
    svc.clock.advance(5)
    svc.bus.handle(MakeMove(second.game_id, second.white))
    assert svc.deadlines.deadline_of(second.game_id) == at(600)  # now Black's first move
    svc.clock.advance(595)
    assert svc.bus.handle(CheckFlags()) == 2
    done = {e["game_id"]: e for e in payloads(svc, "game.finished")}
    assert (
        done[str(first.game_id)]["outcome"] == "-/+" and done[str(first.game_id)]["reason"] == "default_time"
    )
    assert done[str(second.game_id)]["outcome"] == "+/-"
    assert done[str(first.game_id)]["decision"] is None and done[str(first.game_id)]["both_moved"] is False
    assert svc.deadlines.deadline_of(first.game_id) is None


def test_no_default_time_with_zero_minutes(svc):
    p = rapid()
    announce(svc, started(p, "server", 0))
    announce(svc, p)
    assert svc.deadlines.deadline_of(p.game(1).game_id) == at(900)  # only White's flag


def test_a_round_paired_before_the_tournament_started_takes_its_timing(svc):
    board, server = rapid(), rapid()
    for p in (board, server):
        announce(svc, p)  # tournament.started is late, on its own queue
        assert svc.deadlines.deadline_of(p.game(1).game_id) == at(900)
    svc.clock.advance(2)
    announce(svc, started(board))
    announce(svc, started(server, "server", 10))
    on_board = game_of(svc, board.game(1).game_id)
    assert not on_board.server_clock and on_board.deadline is None
    assert svc.deadlines.deadline_of(board.game(1).game_id) is None
    assert svc.deadlines.deadline_of(server.game(1).game_id) == at(600)
    svc.clock.advance(3600)
    assert svc.bus.handle(CheckFlags()) == 1  # the server game's default time; the board game runs on
    assert game_of(svc, board.game(1).game_id).status is GameStatus.RUNNING


def test_tournament_started_again_changes_no_game(svc):
    p = rapid()
    announce(svc, started(p))
    announce(svc, p)
    announce(svc, started(p))  # a republished copy: a new event id, the same news
    assert not game_of(svc, p.game(1).game_id).server_clock


# -- results, absences and penalties: who may --------------------------------------------------------
@pytest.fixture
def board(svc) -> tuple[Pairing, uuid.UUID]:
    p = rapid(2)
    arbiter = uuid.uuid4()
    for envelope in (started(p), appointed(p, arbiter), p.envelope()):
        announce(svc, envelope)
    return p, arbiter


def test_results_of_board_games_come_from_arbiters_the_organiser_and_the_service(svc, board):
    p, arbiter = board
    one, two = p.game(1), p.game(2)
    svc.bus.handle(ReportResult(one.game_id, Outcome.WHITE_WIN, "reported", Actor(arbiter)))
    svc.bus.handle(
        ReportResult(two.game_id, Outcome.DRAW, "reported", Actor(uuid.uuid4(), roles=frozenset({"service"})))
    )
    roles = {e["game_id"]: e["decision"]["role"] for e in payloads(svc, "game.finished")}
    assert roles == {str(one.game_id): "arbiter", str(two.game_id): "service"}
    assert {e["both_moved"] for e in payloads(svc, "game.finished")} == {None}


def test_an_absence_is_a_forfeit_recorded_by_an_arbiter(svc, board):
    p, arbiter = board
    one, two = p.game(1), p.game(2)
    svc.clock.advance(600)
    done = svc.bus.handle(RecordAbsence(one.game_id, one.white, Actor(arbiter)))
    assert done.flag_fall is None and done.game.outcome is Outcome.BLACK_FORFEIT_WIN
    svc.bus.handle(RecordAbsence(two.game_id, two.black, Actor(p.organiser_id), opponent_absent=True))
    finished = {e["game_id"]: e for e in payloads(svc, "game.finished")}
    assert finished[str(one.game_id)]["outcome"] == "-/+" and finished[str(two.game_id)]["outcome"] == "-/-"
    assert {e["reason"] for e in finished.values()} == {"default_time"}
    assert finished[str(one.game_id)]["decision"]["role"] == "arbiter"
    assert finished[str(two.game_id)]["decision"]["role"] == "organiser"
    with pytest.raises(errors.GameOver):
        svc.bus.handle(RecordAbsence(one.game_id, one.black, Actor(arbiter)))


@pytest.mark.parametrize(
    ("who", "refusal"),
    [
        (lambda p, g, a: Actor(uuid.uuid4(), roles=frozenset({"service"})), errors.NotOrganiser),
        (lambda p, g, a: Actor(uuid.uuid4(), roles=frozenset({"arbiter"})), errors.NotAnArbiterHere),
        (lambda p, g, a: Actor(uuid.uuid4()), errors.NotOrganiser),
        (lambda p, g, a: Actor(g.black), errors.OwnGame),
    ],
    ids=["service", "arbiter-elsewhere", "stranger", "player"],
)
def test_absences_and_penalties_only_by_the_organiser_or_an_arbiter_in_scope(svc, board, who, refusal):
    p, arbiter = board
    game = p.game(1)
    actor = who(p, game, arbiter)
    before = game_of(svc, game.game_id)
    with pytest.raises(refusal):
        svc.bus.handle(RecordAbsence(game.game_id, game.white, actor))
    with pytest.raises(refusal):
        svc.bus.handle(Penalise(game.game_id, game.white, ILLEGAL, actor))
    assert game_of(svc, game.game_id) == before
    assert published(svc, "game.penalised") == [] and published(svc, "game.finished") == []


def test_an_unknown_game(svc, board):
    _, arbiter = board
    with pytest.raises(errors.GameNotFound):
        svc.bus.handle(Penalise(uuid.uuid4(), uuid.uuid4(), ILLEGAL, Actor(arbiter)))
    with pytest.raises(errors.GameNotFound):
        svc.bus.handle(RecordAbsence(uuid.uuid4(), uuid.uuid4(), Actor(arbiter)))


# -- penalties -----------------------------------------------------------------------------------------
def test_a_second_illegal_move_ends_the_board_game(svc, board):
    p, arbiter = board
    game = p.game(1)
    first = svc.bus.handle(
        Penalise(game.game_id, game.black, ILLEGAL, Actor(arbiter), reason="castled through check")
    )
    assert first.game.status is GameStatus.RUNNING
    second = svc.bus.handle(Penalise(game.game_id, game.black, ILLEGAL, Actor(arbiter)))
    assert second.game.outcome is Outcome.WHITE_WIN and second.game.reason == "illegal_move"
    penalised = payloads(svc, "game.penalised")
    assert [(e["occurrence"], e["consequence"]) for e in penalised] == [(1, "extra_minute"), (2, "loss")]
    assert penalised[0]["decision"]["reason"] == "castled through check"
    assert penalised[0]["player_id"] == str(game.black) and penalised[0]["round"] == 1
    [finished] = payloads(svc, "game.finished")
    assert (finished["outcome"], finished["reason"], finished["decision"]["role"]) == (
        "1-0",
        "illegal_move",
        "arbiter",
    )
    kinds = [e.type for e in svc.broker.published if e.type in ("game.penalised", "game.finished")]
    assert kinds == ["game.penalised", "game.penalised", "game.finished"]  # the penalty, then its loss
    stored = game_of(svc, game.game_id)
    assert [(i.occurrence, i.consequence) for i in stored.incidents] == [
        (1, Consequence.EXTRA_MINUTE),
        (2, Consequence.LOSS),
    ]
    assert stored.incidents[0].decision.role is Role.ARBITER


def test_the_extra_minute_on_the_servers_clock_is_kept(svc):
    p = rapid()
    arbiter = uuid.uuid4()
    for envelope in (started(p, "server"), appointed(p, arbiter), p.envelope()):
        announce(svc, envelope)
    game = p.game(1)
    svc.clock.advance(20)
    svc.bus.handle(Penalise(game.game_id, game.white, ILLEGAL, Actor(arbiter)))
    stored = game_of(svc, game.game_id)
    assert stored.clock.remaining_ms(Side.BLACK, at(20)) == 960_000
    assert (stored.incidents[0].white_ms, stored.incidents[0].black_ms) == (880_000, 900_000)
    with pytest.raises(errors.TimesFromTheClock):
        svc.bus.handle(Penalise(game.game_id, game.white, DISPLACED, Actor(arbiter), white_ms=1, black_ms=1))


def test_displaced_pieces_count_across_the_rounds_of_the_tournament(svc):
    arbiter = uuid.uuid4()
    r1 = rapid()
    tid, organiser, player = r1.tournament_id, r1.organiser_id, r1.game(1).white
    for envelope in (started(r1), appointed(r1, arbiter), r1.envelope()):
        announce(svc, envelope)
    rounds = [r1]
    for n in (2, 3):
        nxt = rapid(round=n, tournament_id=tid, organiser_id=organiser)
        nxt.games[0] = nxt.games[0].model_copy(update={"black": player})  # Black in round 2 and 3
        announce(svc, nxt)
        rounds.append(nxt)
    elsewhere = rapid()  # another tournament: the same player's displaced pieces there do not count
    elsewhere.games[0] = elsewhere.games[0].model_copy(update={"white": player})
    other_arbiter = uuid.uuid4()
    for envelope in (started(elsewhere), appointed(elsewhere, other_arbiter), elsewhere.envelope()):
        announce(svc, envelope)
    times = {"white_ms": 300_000, "black_ms": 300_000}
    svc.bus.handle(Penalise(elsewhere.game(1).game_id, player, DISPLACED, Actor(other_arbiter), **times))
    svc.bus.handle(Penalise(elsewhere.game(1).game_id, player, DISPLACED, Actor(other_arbiter), **times))

    results = []
    for p in rounds:
        done = svc.bus.handle(Penalise(p.game(1).game_id, player, DISPLACED, Actor(arbiter), **times))
        incident = done.game.incidents[-1]
        results.append((incident.occurrence, incident.consequence, done.game.outcome))
    assert results == [
        (1, Consequence.WARNING, None),
        (2, Consequence.EXTRA_MINUTE, None),
        (3, Consequence.LOSS, Outcome.WHITE_WIN),  # Black in round 3
    ]


def test_a_refused_penalty_changes_nothing(svc, board):
    p, arbiter = board
    game = p.game(1)
    before = game_of(svc, game.game_id)
    with pytest.raises(errors.TimesRequired):
        svc.bus.handle(Penalise(game.game_id, game.white, DISPLACED, Actor(arbiter)))
    with pytest.raises(errors.PlayerNotInGame):
        svc.bus.handle(Penalise(game.game_id, uuid.uuid4(), ILLEGAL, Actor(arbiter)))
    assert game_of(svc, game.game_id) == before and published(svc, "game.penalised") == []
    svc.bus.handle(ReportResult(game.game_id, Outcome.DRAW, "reported", Actor(arbiter)))
    with pytest.raises(errors.GameOver):
        svc.bus.handle(Penalise(game.game_id, game.white, ILLEGAL, Actor(arbiter)))


def test_a_withdrawal_and_the_close_end_board_games_too(svc, board):
    p, arbiter = board
    one, two = p.game(1), p.game(2)
    decision = events.DecisionBy(by=arbiter, role="arbiter", at=NOW, reason="left")
    withdrawn = events.PlayerWithdrawn(
        tournament_id=p.tournament_id, player_id=one.black, reason="left", decision=decision
    )
    announce(svc, wrap(withdrawn, p.tournament_id))
    completed = events.TournamentCompleted(
        tournament_id=p.tournament_id, organiser_id=p.organiser_id, rounds=1, completed_at=NOW
    )
    announce(svc, wrap(completed, p.tournament_id))
    done = {e["game_id"]: (e["outcome"], e["reason"]) for e in payloads(svc, "game.finished")}
    assert done == {
        str(one.game_id): ("+/-", "withdrawal"),
        str(two.game_id): ("1/2-1/2", "tournament_closed"),
    }
