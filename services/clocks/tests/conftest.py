from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from services.clocks.adapters.deadlines import InMemoryDeadlineStore
from services.clocks.adapters.memory import (
    MemoryClocksUnitOfWork,
    game_table,
    presence_table,
    tournament_table,
)
from services.clocks.bootstrap import Clocks, bootstrap, subscriptions
from services.clocks.config import ClocksSettings
from services.clocks.entrypoints.app import create_app
from services.clocks.service_layer.handlers import Handlers
from services.clocks.service_layer.ports import DeadlineStore
from shared import events
from shared.events import Envelope
from shared.http.auth import issue_token
from shared.messagebus import MessageBus
from shared.messaging.inprocess import InProcessBroker
from shared.settings import DEV_JWT_SECRET
from shared.timesource import FakeClock

NOW = dt.datetime(2026, 6, 1, 12, 0, tzinfo=dt.UTC)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(NOW)


@pytest.fixture
def deadlines() -> InMemoryDeadlineStore:
    return InMemoryDeadlineStore()


@pytest.fixture
def svc(sql_svc: Clocks) -> Clocks:
    """The service with the embedded adapters: SQLite, the in-process broker, in-memory deadlines."""
    return sql_svc


@pytest.fixture
def sql_svc(tmp_path, clock, deadlines) -> Iterator[Clocks]:
    settings = ClocksSettings(ARBITER_CLOCKS_DATABASE_URL=f"sqlite:///{tmp_path / 'clocks.sqlite'}")
    service = bootstrap(
        settings,
        broker=InProcessBroker(),
        clock=clock,
        deadlines=deadlines,
        migrate=True,
        relay_on_commit=True,
    )
    service.broker.subscribe(service.subscriptions)
    yield service
    service.engine.dispose()


class MemoryClocks:
    """The clocks service's bus and consumers on the in-memory fakes, with no database: what the
    handler tests need of a service (``bus``, ``broker``, ``uow()``, ``deadlines``)."""

    def __init__(self, clock: FakeClock, deadlines: DeadlineStore) -> None:
        self.clock = clock
        self.deadlines = deadlines
        self.games = game_table()
        self.tournaments = tournament_table()
        self.presence = presence_table()
        self.broker = InProcessBroker()
        self.handlers = Handlers(clock)
        self.bus = MessageBus(self.uow, self.handlers.table())
        self.subscriptions = subscriptions(self.handlers, self.uow)
        self.broker.subscribe(self.subscriptions)

    def uow(self) -> MemoryClocksUnitOfWork:
        return MemoryClocksUnitOfWork(
            self.games,
            self.tournaments,
            self.deadlines,
            on_commit=self.broker.publish,
            presence=self.presence,
        )


@pytest.fixture
def memory_svc(clock, deadlines) -> MemoryClocks:
    return MemoryClocks(clock, deadlines)


@pytest.fixture
def client(svc):
    return create_app(svc).test_client()


def token(subject: uuid.UUID, *roles: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {issue_token(DEV_JWT_SECRET, subject, set(roles) or {'player'})}"}


@dataclass(frozen=True)
class Pairing:
    """A round as the pairing service announces it."""

    tournament_id: uuid.UUID
    organiser_id: uuid.UUID
    round: int
    games: list[events.PairedGame]
    time_control: events.TimeControl

    def envelope(self) -> Envelope:
        event = events.RoundPaired(
            tournament_id=self.tournament_id,
            organiser_id=self.organiser_id,
            round=self.round,
            total_rounds=5,
            system="swiss",
            games=self.games,
            time_control=self.time_control,
        )
        return events.wrap(event, self.tournament_id)

    def game(self, board: int = 1) -> events.PairedGame:
        return self.games[board - 1]


def a_round(
    boards: int = 1,
    *,
    base: int = 180,
    increment: int = 2,
    days: int | None = None,
    round: int = 1,
    tournament_id: uuid.UUID | None = None,
    organiser_id: uuid.UUID | None = None,
) -> Pairing:
    games = [
        events.PairedGame(game_id=uuid.uuid4(), board=b, white=uuid.uuid4(), black=uuid.uuid4())
        for b in range(1, boards + 1)
    ]
    return Pairing(
        tournament_id or uuid.uuid4(),
        organiser_id or uuid.uuid4(),
        round,
        games,
        events.TimeControl(base_seconds=base, increment_seconds=increment, days_per_move=days),
    )


OPENING = events.GameOpening(moves=["e4"], fen="rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
"""1. e4: a drawn opening both legs of a pairing start from."""


def double_round(boards: int = 2, *, base: int = 60, increment: int = 0, opening: bool = False) -> Pairing:
    """A round as pairing announces it with double rounds: each board's leg 1, then its leg 2 with the
    colours swapped on the same opening."""
    games = []
    for board in range(1, boards + 1):
        white, black = uuid.uuid4(), uuid.uuid4()
        drawn = OPENING if opening else None
        games.append(
            events.PairedGame(
                game_id=uuid.uuid4(), board=board, leg=1, white=white, black=black, opening=drawn
            )
        )
        games.append(
            events.PairedGame(
                game_id=uuid.uuid4(), board=board, leg=2, white=black, black=white, opening=drawn
            )
        )
    return Pairing(
        uuid.uuid4(),
        uuid.uuid4(),
        1,
        games,
        events.TimeControl(base_seconds=base, increment_seconds=increment),
    )


def legs(pairing: Pairing, board: int = 1) -> tuple[events.PairedGame, events.PairedGame]:
    mine = {g.leg: g for g in pairing.games if g.board == board}
    return mine[1], mine[2]


def announce(svc: Clocks, pairing: Pairing | Envelope) -> Envelope:
    """Publish ``round.paired`` on the in-process broker and let the consumer handle it."""
    envelope = pairing.envelope() if isinstance(pairing, Pairing) else pairing
    svc.broker.publish([envelope])
    svc.broker.run_until_idle()
    return envelope


def published(svc: Clocks, kind: str) -> list[Envelope]:
    return [e for e in svc.broker.published if e.type == kind]
