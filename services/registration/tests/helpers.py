"""What registration's tests share: the test clock's start, tokens, the story steps over HTTP, and the
service over its in-memory fakes."""

from __future__ import annotations

import copy
import datetime as dt
import uuid
from typing import Any

import sqlalchemy as sa

from services.registration.adapters import orm
from services.registration.adapters.memory import MemoryDatabase
from services.registration.bootstrap import subscriptions
from services.registration.domain.account import AccountKind
from services.registration.domain.fide import FideFormat
from services.registration.domain.group_playoff import GroupFormat
from services.registration.domain.knockout import KnockoutFormat
from services.registration.domain.players import Person, profile
from services.registration.domain.tournament import RateOfPlay, Settings
from services.registration.service_layer import commands
from services.registration.service_layer.handlers import Handlers
from shared import events
from shared.commands import Actor
from shared.http.auth import issue_token
from shared.messagebus import MessageBus
from shared.messaging.inprocess import topic_matches
from shared.messaging.port import Subscription
from shared.settings import DEV_JWT_SECRET
from shared.testing.routing import AsRegistration, as_clocks
from shared.timesource import FakeClock
from shared.vocabulary import Ruleset

NOW = dt.datetime(2026, 6, 1, 12, 0, tzinfo=dt.UTC)
STAFF = uuid.uuid4()


def token(subject: uuid.UUID, *roles: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {issue_token(DEV_JWT_SECRET, subject, set(roles) or {'player'})}"}


def register(client, name="Ann", kind="registered", rating=None) -> uuid.UUID:
    body = {"name": name, "kind": kind, "ratings": {"chess:blitz": rating} if rating else {}}
    r = client.post("/accounts", json=body, headers=token(STAFF, "service"))
    assert r.status_code == 201, r.json
    return uuid.UUID(r.json["id"])


def create_fide(client, organiser, **kw):
    """POST a fide-rapid event (15+10, a 5-round Swiss unless ``kw`` says otherwise); the response."""
    body = {
        "name": "Rapid open",
        "ruleset": "fide-rapid",
        "time_control": {"base_seconds": 900, "increment_seconds": 10},
        "fide": {"rounds": 5},
    }
    body.update(kw)
    return client.post("/tournaments", json=body, headers=token(organiser))


def create(client, organiser, **kw):
    body = {
        "name": "Sunday blitz",
        "starts_at": (NOW + dt.timedelta(minutes=30)).isoformat(),
        "time_control": {"base_seconds": 180, "increment_seconds": 2},
    }
    body.update(kw)
    return client.post("/tournaments", json=body, headers=token(organiser))


def published(svc, kind) -> list[Any]:
    return [e for e in svc.broker.published if e.type == kind]


def problem(r, status, slug) -> dict[str, Any]:
    assert r.status_code == status, r.json
    assert r.content_type == "application/problem+json"
    assert r.json["type"] == f"/problems/{slug}"
    assert "Traceback" not in r.get_data(as_text=True)
    return r.json


AS_REGISTRATION = AsRegistration()


class InMemoryRegistration:
    """The service over one in-memory database, as bootstrap wires it over SQL."""

    DRAW_SEED = 99

    def __init__(self) -> None:
        self.clock = FakeClock(NOW)
        self.db = MemoryDatabase()
        self.handlers = Handlers(self.clock, dt.timedelta(minutes=5), draw_seed=lambda: self.DRAW_SEED)
        self.bus = MessageBus(self.db.uow, self.handlers.table())

    def account(
        self, name: str, ratings: dict[str, int] | None = None, kind=AccountKind.REGISTERED
    ) -> uuid.UUID:
        return self.bus.handle(commands.RegisterAccount(uuid.uuid4(), name, kind, ratings or {})).id

    def platform(self, organiser: uuid.UUID, **kw) -> uuid.UUID:
        settings = Settings("Blitz", self.clock.now() + dt.timedelta(minutes=30), RateOfPlay(180, 2), **kw)
        return self.bus.handle(commands.CreateTournament(Actor(organiser), settings)).id

    def knockout(self, organiser: uuid.UUID, players: list[uuid.UUID], **fmt) -> uuid.UUID:
        """A knockout draft of these players (not started)."""
        settings = Settings(
            "Cup", None, RateOfPlay(600), ruleset=Ruleset.KNOCKOUT, knockout=KnockoutFormat(**fmt)
        )
        tid = self.bus.handle(commands.CreateTournament(Actor(organiser), settings)).id
        for p in players:
            self.join(tid, p, by=organiser)
        return tid

    def fide(self, organiser: uuid.UUID, **fmt: Any) -> uuid.UUID:
        """A fide-rapid event, 15+10, a 5-round Swiss unless ``fmt`` says otherwise (not started)."""
        settings = Settings(
            "Rapid open",
            None,
            RateOfPlay(900, 10),
            ruleset=Ruleset.FIDE_RAPID,
            fide=FideFormat(**{"rounds": 5, **fmt}),
        )
        return self.bus.handle(commands.CreateTournament(Actor(organiser), settings)).id

    def group_playoff(self, organiser: uuid.UUID) -> uuid.UUID:
        """A group-playoff event, two days a move, open for entries for two weeks (not started)."""
        settings = Settings(
            "4T1",
            None,
            RateOfPlay(0, 0, 2),
            ruleset=Ruleset.GROUP_PLAYOFF,
            group_playoff=GroupFormat(self.clock.now() + dt.timedelta(days=14)),
        )
        return self.bus.handle(commands.CreateTournament(Actor(organiser), settings)).id

    def add(self, tournament_id: uuid.UUID, by: uuid.UUID, name: str, **data: Any) -> uuid.UUID:
        """Enter a person by hand (``data``: their FIDE data); their player id."""
        person = Person(name, profile(**data))
        return self.bus.handle(commands.AddPlayer(Actor(by), tournament_id, person)).player_id

    def join(self, tournament_id: uuid.UUID, player: uuid.UUID, by: uuid.UUID | None = None) -> None:
        self.bus.handle(commands.JoinTournament(Actor(by or player), tournament_id, player))

    def tournament(self, tournament_id: uuid.UUID):
        with self.db.uow() as uow:
            return uow.tournaments.get(tournament_id)

    def audit(self, tournament_id: uuid.UUID):
        with self.db.uow() as uow:
            return uow.audit.of(tournament_id)

    def published(self, kind: str | None = None) -> list[events.Envelope]:
        return [e for e in self.db.outbox if kind is None or e.type == kind]

    def subscriptions(self) -> dict[str, Subscription]:
        """The consumed events' subscriptions, as bootstrap builds them, over the fakes."""
        return {s.queue: s for s in subscriptions(self.handlers, self.db.uow)}

    def hear(self, event: events.Event) -> events.Envelope:
        """Deliver a consumed event to each subscription that takes it; its envelope."""
        envelope = AS_REGISTRATION(as_clocks(events.wrap(event, getattr(event, "tournament_id", None))))
        taking = [
            s
            for s in self.subscriptions().values()
            if any(topic_matches(b, envelope.routing_key) for b in events.bindings(s.routing_keys))
        ]
        assert taking, f"nobody in registration consumes {event.TYPE}"
        for subscription in taking:  # game.finished: the ratings (and the audit log: a decision)
            subscription.handler(envelope, event)
        return envelope

    def state(self) -> tuple[Any, ...]:
        """Everything stored (committed and staged rows, outbox, inbox): a refusal leaves it as it was."""
        tables = (self.db.accounts, self.db.tournaments, self.db.audit)
        return copy.deepcopy(
            (
                [(t.committed, t.staged) for t in tables],
                [(e.type, e.payload) for e in self.db.outbox],
                set(self.db.inbox),
            )
        )


def tables(svc) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table registration writes, on SQL (the idempotency keys aside: a refused
    request releases its key)."""
    with svc.engine.connect() as conn:
        return {
            table.name: sorted((tuple(row) for row in conn.execute(sa.select(table))), key=repr)
            for table in orm.metadata.sorted_tables
            if table.name != "idempotency_keys"
        }
