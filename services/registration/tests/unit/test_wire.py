"""The events registration publishes, byte for byte: a representative season (a `platform` tournament
started, one cancelled for too few players, one cancelled by its organiser, a double knockout seeded by a
random draw, a knockout seeded in a custom order) must publish exactly the payloads in
``wire_events.json``. That file was written by the code before the domain recorded its own events, so
it pins the wire contract across the refactoring; the settings' additive ``byes_on_request`` (the
results-authority issue) was added to it since, and each roster change's ``roster_revision`` (issue 25),
counted per tournament from 1."""

from __future__ import annotations

import datetime as dt
import json
import uuid
from pathlib import Path

import sqlalchemy as sa

from services.registration.adapters import orm
from services.registration.adapters.memory import MemoryDatabase
from services.registration.bootstrap import bootstrap
from services.registration.config import RegistrationSettings
from services.registration.domain.account import AccountKind
from services.registration.domain.knockout import FormatChange, KnockoutFormat
from services.registration.domain.tournament import Changes, RateOfPlay, Settings
from services.registration.service_layer import commands
from services.registration.service_layer.handlers import Handlers
from services.registration.tests.helpers import NOW
from shared.commands import Actor
from shared.messagebus import MessageBus
from shared.messaging.inprocess import InProcessBroker
from shared.time_control import Stage, TieBreakSchedule
from shared.timesource import FakeClock
from shared.vocabulary import Ruleset, Seeding

GOLDEN = Path(__file__).with_name("wire_events.json")
DRAW_SEED = 4_271_009


def ids(prefix: int, n: int) -> list[uuid.UUID]:
    return [uuid.UUID(int=prefix * 1000 + i) for i in range(1, n + 1)]


ORGANISERS = ids(1, 3)
PLAYERS = ids(2, 8)
PLATFORM, TOO_FEW, CANCELLED, DOUBLE, SINGLE = ids(3, 5)


def season(bus: MessageBus, clock: FakeClock) -> None:
    for i, oid in enumerate(ORGANISERS):
        bus.handle(commands.RegisterAccount(oid, f"Organiser {i}"))
    for i, pid in enumerate(PLAYERS):
        ratings = {"chess:blitz": 1500 + 37 * i, "chess:rapid": 1900 - 41 * i}
        if i == 6:
            ratings = {}  # unrated: seeded last
        bus.handle(commands.RegisterAccount(pid, f"Player {i}", AccountKind.REGISTERED, ratings))

    org = [Actor(o) for o in ORGANISERS]
    starts = NOW + dt.timedelta(minutes=30)
    platform = Settings(
        name=" Friday blitz ",
        starts_at=starts,
        time_control=RateOfPlay(180, 2),
        seats=12,
        minimum=4,
        threshold=9,
        double_rounds=True,
        extra_round=True,
        min_rating=None,
    )
    bus.handle(commands.CreateTournament(org[0], platform, PLATFORM))
    for pid in PLAYERS[:6]:
        bus.handle(commands.JoinTournament(Actor(pid), PLATFORM, pid))
    bus.handle(commands.LeaveTournament(Actor(PLAYERS[2]), PLATFORM, PLAYERS[2]))

    too_few = Settings(name="Quiet rapid", starts_at=starts, time_control=RateOfPlay(600, 5), rated=False)
    bus.handle(commands.CreateTournament(org[1], too_few, TOO_FEW))
    for pid in PLAYERS[:3]:
        bus.handle(commands.JoinTournament(Actor(pid), TOO_FEW, pid))

    correspondence = Settings(
        name="Slow", starts_at=starts + dt.timedelta(days=1), time_control=RateOfPlay(0, 0, 3)
    )
    bus.handle(commands.CreateTournament(org[2], correspondence, CANCELLED))
    bus.handle(commands.JoinTournament(Actor(PLAYERS[7]), CANCELLED, PLAYERS[7]))
    bus.handle(commands.CancelTournament(org[2], CANCELLED))

    plan = TieBreakSchedule((Stage(1, RateOfPlay(300, 2)),), RateOfPlay(120, 1))
    double = Settings(
        name="Club double knockout",
        starts_at=None,
        time_control=RateOfPlay(600),
        ruleset=Ruleset.DOUBLE_KNOCKOUT,
        knockout=KnockoutFormat(games_per_match=1, seeding=Seeding.RANDOM, tiebreak_plan=plan),
    )
    bus.handle(commands.CreateTournament(org[0], double, DOUBLE))
    for pid in PLAYERS[:6]:
        bus.handle(commands.JoinTournament(org[0], DOUBLE, pid))
    bus.handle(commands.LeaveTournament(org[0], DOUBLE, PLAYERS[5]))
    bus.handle(
        commands.ChangeTournament(
            org[0], DOUBLE, Changes(name="Club double KO", time_control=RateOfPlay(900, 10))
        )
    )

    single = Settings(
        name="Cup", starts_at=None, time_control=RateOfPlay(300, 3), ruleset=Ruleset.KNOCKOUT, rated=False
    )
    bus.handle(commands.CreateTournament(org[1], single, SINGLE))
    entered = [PLAYERS[6], PLAYERS[1], PLAYERS[4], PLAYERS[3], PLAYERS[0]]
    for pid in entered:
        bus.handle(commands.JoinTournament(org[1], SINGLE, pid))
    order = (PLAYERS[3], PLAYERS[6], PLAYERS[0], PLAYERS[4], PLAYERS[1])
    bus.handle(
        commands.ChangeTournament(
            org[1],
            SINGLE,
            Changes(
                format=FormatChange(
                    games_per_match=4, seeding=Seeding.CUSTOM, custom_order=order, third_place=True
                )
            ),
        )
    )

    clock.advance(10 * 60)
    bus.handle(commands.StartTournament(org[0], DOUBLE))
    bus.handle(commands.StartTournament(org[1], SINGLE))
    clock.advance(20 * 60)
    assert bus.handle(commands.StartDueTournaments()) == 2


def compact(payload: object) -> str:
    """A payload as the outbox stores it: compact JSON, keys in the model's order."""
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False)


def expected() -> list[dict]:
    return json.loads(GOLDEN.read_text())


def assert_published(published: list[dict]) -> None:
    want = expected()
    assert [p["type"] for p in published] == [e["type"] for e in want]
    for got, golden in zip(published, want, strict=True):
        assert (got["type"], got["version"]) == (golden["type"], golden["version"])
        assert compact(got["payload"]) == compact(golden["payload"])


def test_the_outbox_holds_the_same_payloads(tmp_path):
    """On SQL, through the outbox rows exactly as stored."""
    clock = FakeClock(NOW)
    settings = RegistrationSettings(ARBITER_REGISTRATION_DATABASE_URL=f"sqlite:///{tmp_path / 'reg.sqlite'}")
    svc = bootstrap(
        settings, broker=InProcessBroker(), clock=clock, migrate=True, draw_seed=lambda: DRAW_SEED
    )
    try:
        season(svc.bus, clock)
        with svc.engine.connect() as conn:
            bodies = conn.execute(sa.select(orm.outbox.c.body).order_by(orm.outbox.c.id)).scalars().all()
    finally:
        svc.engine.dispose()
    assert_published([json.loads(body) for body in bodies])


def test_the_fakes_publish_the_same_payloads():
    """The in-memory unit of work the handler tests use maps the same events the same way."""
    clock = FakeClock(NOW)
    db = MemoryDatabase()
    handlers = Handlers(clock, dt.timedelta(minutes=5), draw_seed=lambda: DRAW_SEED)
    season(MessageBus(db.uow, handlers.table()), clock)
    assert_published([e.model_dump(mode="json") for e in db.outbox])
