"""What pairing's tests share: the events a tournament story is told with, and the service on fakes.

Two ways to run the service, with the same surface (``broker``, ``uow()``, ``bus``): :func:`on_sqlite`
is the real composition root on SQLite with the in-process broker (the embedded mode);
:func:`in_memory` is the same handlers and flows on the in-memory unit of work, held to the same
contract as the SQL one (``tests/contract``)."""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import sqlalchemy as sa

from services.pairing.adapters.arena_pool import InMemoryArenaPool
from services.pairing.adapters.memory import MemoryPairingStore, MemoryPairingUnitOfWork
from services.pairing.adapters.orm import metadata
from services.pairing.bootstrap import Pairing, bootstrap, flows, subscriptions
from services.pairing.config import PairingSettings
from services.pairing.entrypoints.app import create_app
from services.pairing.service_layer.arena import ArenaHandlers
from services.pairing.service_layer.handlers import Handlers
from services.pairing.service_layer.ports import PairingUnitOfWork
from shared import events
from shared.events import GameOutcome
from shared.http.auth import issue_token
from shared.messagebus import MessageBus
from shared.messaging.inprocess import InProcessBroker
from shared.messaging.port import Subscription
from shared.settings import DEV_JWT_SECRET
from shared.testing.routing import AsRegistration
from shared.timesource import FakeClock

NOW = dt.datetime(2026, 6, 1, 12, 0, tzinfo=dt.UTC)


def on_sqlite(tmp_path: Path) -> Pairing:
    broker = InProcessBroker()
    settings = PairingSettings(ARBITER_PAIRING_DATABASE_URL=f"sqlite:///{tmp_path / 'pairing.sqlite'}")
    service = bootstrap(settings, broker=broker, clock=FakeClock(NOW), migrate=True, relay_on_commit=True)
    broker.subscribe(service.subscriptions + service.worker_subscriptions)
    broker.declare([_everything()])
    return service


@dataclass
class InMemory:
    """The pairing service's handlers and flows on the in-memory unit of work."""

    broker: InProcessBroker
    store: MemoryPairingStore
    bus: MessageBus[PairingUnitOfWork]
    handlers: Handlers
    pool: InMemoryArenaPool
    clock: FakeClock

    def uow(self) -> PairingUnitOfWork:
        return self.bus.uow_factory()


def in_memory() -> InMemory:
    broker = InProcessBroker()
    store = MemoryPairingStore()

    def uow_factory() -> PairingUnitOfWork:
        return MemoryPairingUnitOfWork(store, after_commit=broker.publish)

    clock = FakeClock(NOW)
    pool = InMemoryArenaPool()
    handlers = Handlers(flows(clock), ArenaHandlers(pool, clock))
    consumer, worker = subscriptions(handlers, uow_factory)
    broker.subscribe(consumer + worker)
    broker.declare([_everything()])
    return InMemory(broker, store, MessageBus(uow_factory, handlers.table()), handlers, pool, clock)


def _everything() -> Subscription:
    return Subscription("test.everything", ("#",), lambda env, ev: None)


# -- the story ------------------------------------------------------------------------------------------
def started(
    n: int,
    *,
    threshold: int = 7,
    double_rounds: bool = False,
    extra_round: bool = False,
    ruleset: str = "platform",
    byes_on_request: bool = False,
    variant: str = "chess",
    opening: str = "free",
    duration_minutes: int | None = None,
):
    tid = uuid.uuid4()
    roster = [
        events.RosterEntry(seed=i, player_id=uuid.uuid4(), name=f"P{i}", rating=2000 - 10 * i)
        for i in range(1, n + 1)
    ]
    return events.TournamentStarted(
        tournament_id=tid,
        organiser_id=uuid.uuid4(),
        name="Test",
        started_at=NOW,
        settings=events.TournamentSettings(
            ruleset=ruleset,
            threshold=threshold,
            double_rounds=double_rounds,
            extra_round=extra_round,
            byes_on_request=byes_on_request,
            time_control=events.TimeControl(base_seconds=180, increment_seconds=2),
            variant=variant,
            opening=opening,
            duration_minutes=duration_minutes,
        ),
        roster=roster,
    )


def fide_started(
    n: int = 8, *, rounds: int = 5, acceleration: bool = False, field: list[tuple[str, int]] | None = None
) -> events.TournamentStarted:
    """A `fide-rapid` Swiss started with ``n`` players (or ``field``: names and ratings) in rank order."""
    field = field or [(f"P{i}", 2400 - 10 * i) for i in range(1, n + 1)]
    return events.TournamentStarted(
        tournament_id=uuid.uuid4(),
        organiser_id=uuid.uuid4(),
        name="Weekend rapid",
        started_at=NOW,
        settings=events.TournamentSettings(
            ruleset="fide-rapid",
            byes_on_request=True,
            time_control=events.TimeControl(base_seconds=900, increment_seconds=10),
            fide=events.FideSettings(rounds=rounds, acceleration=acceleration),
        ),
        roster=[
            events.RosterEntry(seed=i, player_id=uuid.uuid4(), name=name, rating=rating)
            for i, (name, rating) in enumerate(field, start=1)
        ],
    )


PLAN = events.TieBreakPlan(
    stages=[
        events.TieBreakStage(games=2, time_control=events.TimeControl(base_seconds=900, increment_seconds=10))
    ],
    sudden_death=events.TimeControl(base_seconds=180, increment_seconds=2),
)


def knockout_started(
    n: int,
    *,
    fmt: str = "knockout",
    games: int = 2,
    third_place: bool = False,
    second_final: bool = True,
    seeding: str = "rating",
    draw_seed: int | None = None,
    player_ids: list[uuid.UUID] | None = None,
) -> events.TournamentStarted:
    tc = events.TimeControl(base_seconds=600, increment_seconds=5)
    ids = player_ids or [uuid.uuid4() for _ in range(n)]
    return events.TournamentStarted(
        tournament_id=uuid.uuid4(),
        organiser_id=uuid.uuid4(),
        name="Club knockout",
        started_at=NOW,
        settings=events.TournamentSettings(
            ruleset="knockout" if fmt == "knockout" else "double-knockout",
            time_control=tc,
            knockout=events.KnockoutSettings(
                format=fmt,
                games_per_match=games,
                seeding=seeding,
                draw_seed=draw_seed,
                third_place=third_place,
                second_final=second_final,
                tiebreak_plan=PLAN,
            ),
        ),
        roster=[
            events.RosterEntry(seed=i, player_id=ids[i - 1], name=f"P{i}", rating=2000 - 10 * i)
            for i in range(1, n + 1)
        ],
    )


def decision(by: uuid.UUID, role: str = "organiser", at: dt.datetime = NOW, reason: str | None = None):
    return events.DecisionBy(by=by, role=role, at=at, reason=reason)


def appointed(
    started: events.TournamentStarted,
    arbiter_id: uuid.UUID,
    games: list[uuid.UUID] | None = None,
    *,
    at: dt.datetime = NOW,
) -> events.ArbiterAppointed:
    """The organiser of ``started`` appointed ``arbiter_id`` (for ``games``; None: the whole event)."""
    return events.ArbiterAppointed(
        tournament_id=started.tournament_id,
        arbiter_id=arbiter_id,
        games=games,
        decision=decision(started.organiser_id, at=at),
    )


def revoked(
    started: events.TournamentStarted, arbiter_id: uuid.UUID, *, at: dt.datetime = NOW
) -> events.ArbiterRevoked:
    return events.ArbiterRevoked(
        tournament_id=started.tournament_id,
        arbiter_id=arbiter_id,
        decision=decision(started.organiser_id, at=at),
    )


def withdrawn(
    started: events.TournamentStarted, player_id: uuid.UUID, *, excluded: bool = False, reason: str = "ill"
) -> events.PlayerWithdrawn:
    return events.PlayerWithdrawn(
        tournament_id=started.tournament_id,
        player_id=player_id,
        reason=reason,
        excluded=excluded,
        decision=decision(started.organiser_id, reason=reason),
    )


AS_REGISTRATION = AsRegistration()  # an arena's start and entries routed as registration routes them


def deliver(svc, event: events.Event, tournament_id: uuid.UUID) -> events.Envelope:
    env = AS_REGISTRATION(events.wrap(event, tournament_id))
    svc.broker.publish([env])
    svc.broker.run_until_idle()
    return env


def published(svc, kind: str) -> list[events.Envelope]:
    return [e for e in svc.broker.published if e.type == kind]


def game_finished(
    rp: events.RoundPaired, game: events.PairedGame, outcome: GameOutcome, reason: str = "reported"
) -> events.GameFinished:
    """``game`` of round ``rp`` ended with ``outcome`` (``default_time``: an absence)."""
    return events.GameFinished(
        tournament_id=rp.tournament_id,
        game_id=game.game_id,
        round=rp.round,
        white=game.white,
        black=game.black,
        outcome=outcome,
        reason=reason,
        finished_at=NOW,
    )


def finish(
    round_event: events.Envelope,
    outcome_for: Callable[[events.PairedGame], GameOutcome] = lambda game: GameOutcome.WHITE_WIN,
) -> list[events.GameFinished]:
    rp = events.RoundPaired.model_validate(round_event.payload)
    return [
        events.GameFinished(
            tournament_id=rp.tournament_id,
            game_id=g.game_id,
            round=rp.round,
            white=g.white,
            black=g.black,
            outcome=outcome_for(g),
            reason="reported",
            moves=30,
            finished_at=NOW,
        )
        for g in rp.games
    ]


# -- the HTTP API -----------------------------------------------------------------------------------------
def token(subject: uuid.UUID, *roles: str, ttl: dt.timedelta = dt.timedelta(hours=1)) -> dict[str, str]:
    jwt = issue_token(DEV_JWT_SECRET, subject, set(roles) or {"player"}, ttl=ttl)
    return {"Authorization": f"Bearer {jwt}"}


def snapshot(svc) -> dict[str, list[tuple]]:
    """Every row of every table of pairing's database (outbox and inbox included)."""
    with svc.engine.connect() as conn:
        return {
            name: sorted((tuple(str(v) for v in row) for row in conn.execute(sa.select(table))), key=repr)
            for name, table in metadata.tables.items()
        }


class Api:
    def __init__(self, svc) -> None:
        self.svc = svc
        self.client = create_app(svc).test_client()

    def call(self, method: str, path: str, headers=None, json=None):
        return self.client.open(path, method=method, headers=headers or {}, json=json)

    def refused(self, status: int, slug: str, method: str, path: str, headers=None, json=None):
        """The call is refused with ``status`` and problem ``slug``, and nothing in the database moved."""
        before = snapshot(self.svc)
        r = self.call(method, path, headers, json)
        assert r.status_code == status, (r.status_code, r.json)
        assert r.mimetype == "application/problem+json" and r.json["type"] == f"/problems/{slug}", r.json
        assert snapshot(self.svc) == before
        return r.json

    def ok(self, status: int, method: str, path: str, headers=None, json=None):
        r = self.call(method, path, headers, json)
        assert r.status_code == status, r.json
        return r.json


ORGANISER = uuid.UUID("00000000-0000-0000-0000-0000000000aa")
"""The organiser of :func:`group_playoff_started`."""


def group_playoff_started(lot_seed: int = 11) -> events.TournamentStarted:
    return events.TournamentStarted(
        tournament_id=uuid.uuid4(),
        organiser_id=ORGANISER,
        name="4T1 correspondence",
        started_at=NOW,
        settings=events.TournamentSettings(
            ruleset="group-playoff",
            time_control=events.TimeControl(base_seconds=0, increment_seconds=0, days_per_move=2),
            group_playoff=events.GroupPlayoffSettings(lot_seed=lot_seed, drawn_by=ORGANISER),
        ),
        roster=[
            events.RosterEntry(seed=i, player_id=uuid.uuid4(), name=f"P{i}", rating=2000 - 10 * i)
            for i in range(1, 9)
        ],
    )
