"""The repositories' contract for what the fide-rapid ruleset stores: whether the server keeps a game's
clock and its default time, a game's incidents (penalties), a player's incidents across a tournament's
games, and a tournament's timing. The SQL repositories (SQLite, PostgreSQL) and the in-memory fakes pass
the same tests."""

from __future__ import annotations

import datetime as dt
import uuid

from services.clocks.domain.clock import ClockRate, ClockState
from services.clocks.domain.game import Game
from services.clocks.domain.penalties import Consequence, Incident, PenaltyKind
from services.clocks.domain.tournament import ONLINE, Timekeeping, Timing
from services.clocks.tests.conftest import NOW
from services.clocks.tests.contract.conftest import Backend, at, stored
from shared.authority import Decided, Role
from shared.vocabulary import Ruleset

ARBITER = uuid.uuid4()


def rapid_game(
    tournament_id: uuid.UUID,
    white: uuid.UUID | None = None,
    black: uuid.UUID | None = None,
    *,
    round: int = 1,
    server_clock: bool = False,
    default_time: dt.timedelta | None = None,
) -> Game:
    game = Game.pair(
        game_id=uuid.uuid4(),
        tournament_id=tournament_id,
        organiser_id=uuid.uuid4(),
        round=round,
        board=1,
        white=white or uuid.uuid4(),
        black=black or uuid.uuid4(),
        control=ClockRate(900, 10),
        at=NOW,
        server_clock=server_clock,
        default_time=default_time,
    )
    game.start(NOW)
    game.collect_events()
    return game


def penalise(backend: Backend, game: Game, player: uuid.UUID, kind: PenaltyKind, seconds: float) -> Game:
    with backend.uow() as uow:
        mine = uow.games.get(game.id, lock=True)
        mine.penalise(
            player,
            kind,
            at(seconds),
            Decided(ARBITER, Role.ARBITER, at(seconds), "seen"),
            white_ms=100_000,
            black_ms=50_000,
        )
        uow.games.save(mine)
        uow.commit()
    return mine


def loaded(backend: Backend, game_id: uuid.UUID) -> Game:
    with backend.uow() as uow:
        found = uow.games.get(game_id)
    assert found is not None
    return found


def test_a_board_game_and_a_default_time_round_trip(backend: Backend):
    tid = uuid.uuid4()
    on_board = rapid_game(tid)
    on_server = rapid_game(tid, server_clock=True, default_time=dt.timedelta(minutes=10))
    stored(backend, on_board, on_server)
    board, server = loaded(backend, on_board.id), loaded(backend, on_server.id)
    assert board == on_board and not board.server_clock and board.clock.state is ClockState.PENDING
    assert server == on_server and server.default_time == dt.timedelta(minutes=10)
    assert server.deadline == at(600)
    assert backend.deadlines.deadline_of(on_board.id) is None
    assert backend.deadlines.deadline_of(on_server.id) == at(600)


def test_the_timing_arriving_late_is_saved(backend: Backend):
    game = rapid_game(uuid.uuid4(), server_clock=True)
    stored(backend, game)
    with backend.uow() as uow:
        mine = uow.games.get(game.id, lock=True)
        assert mine.keep_time(False, None, at(2))
        uow.games.save(mine)
        uow.commit()
    found = loaded(backend, game.id)
    assert found == mine and not found.server_clock and found.deadline is None
    assert backend.deadlines.deadline_of(game.id) is None


def test_incidents_round_trip(backend: Backend):
    tid, white, black = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    game = rapid_game(tid, white, black)
    stored(backend, game)
    penalise(backend, game, black, PenaltyKind.DISPLACED_PIECES, 30)
    mine = penalise(backend, game, black, PenaltyKind.ILLEGAL_MOVE, 40)
    found = loaded(backend, game.id)
    assert found == mine
    assert found.incidents == [
        Incident(
            at(30),
            PenaltyKind.DISPLACED_PIECES,
            black,
            1,
            Consequence.EXTRA_MINUTE,  # Black had under a minute: no warning
            Decided(ARBITER, Role.ARBITER, at(30), "seen"),
            100_000,
            50_000,
        ),
        Incident(
            at(40),
            PenaltyKind.ILLEGAL_MOVE,
            black,
            2,
            Consequence.LOSS,
            Decided(ARBITER, Role.ARBITER, at(40), "seen"),
            100_000,
            50_000,
        ),
    ]
    assert [kind for kind, _ in backend.published()] == ["game.penalised", "game.penalised", "game.finished"]


def test_a_players_incidents_across_the_tournament(backend: Backend):
    tid, player, opponent = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    first = rapid_game(tid, player, opponent, round=1)
    second = rapid_game(tid, opponent, player, round=2)
    quiet = rapid_game(tid, player, round=3)
    elsewhere = rapid_game(uuid.uuid4(), player)
    stored(backend, first, second, quiet, elsewhere)
    penalise(backend, second, player, PenaltyKind.ILLEGAL_MOVE, 50)
    penalise(backend, first, player, PenaltyKind.ILLEGAL_MOVE, 10)
    penalise(backend, first, opponent, PenaltyKind.ILLEGAL_MOVE, 20)
    penalise(backend, elsewhere, player, PenaltyKind.ILLEGAL_MOVE, 5)
    with backend.uow() as uow:
        everywhere = uow.games.incidents_of(tid, player)
        assert [(i.at, i.player_id) for i in everywhere] == [(at(10), player), (at(50), player)]
        assert [i.at for i in uow.games.incidents_of(tid, player, other_than=first.id)] == [at(50)]
        assert [i.at for i in uow.games.incidents_of(tid, opponent)] == [at(20)]
        assert uow.games.incidents_of(tid, uuid.uuid4()) == []
        assert uow.games.incidents_of(uuid.uuid4(), player) == []


def test_incidents_not_committed_are_not_seen(backend: Backend):
    tid, player = uuid.uuid4(), uuid.uuid4()
    game = rapid_game(tid, player)
    stored(backend, game)
    with backend.uow() as uow:
        mine = uow.games.get(game.id, lock=True)
        mine.penalise(player, PenaltyKind.ILLEGAL_MOVE, at(1), Decided(ARBITER, Role.ARBITER, at(1)))
        uow.games.save(mine)
    with backend.uow() as uow:
        assert uow.games.incidents_of(tid, player) == []
    assert loaded(backend, game.id).incidents == []


def test_a_tournaments_timing_round_trips(backend: Backend):
    board, server, online = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    organiser = uuid.uuid4()
    timings = {
        board: Timing(Timekeeping.BOARD, 10),
        server: Timing(Timekeeping.SERVER, 15),
        online: ONLINE,
    }
    with backend.uow() as uow:
        for tid, timing in timings.items():
            t = uow.tournaments.lock(tid)
            t.start(organiser, Ruleset.FIDE_RAPID, timing)
            uow.tournaments.save(t)
        uow.commit()
    with backend.uow() as uow:
        assert {tid: uow.tournaments.get(tid).timing for tid in timings} == timings
