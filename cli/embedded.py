"""The embedded mode: all four services in one process, with the in-process broker, a SQLite
database per service, in-process clock deadlines and a simulated clock. The same service code
runs as in production; only the adapters differ. Used by `arbiter demo`."""

from __future__ import annotations

import datetime as dt
import random
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient

from services.clocks.adapters.deadlines import InMemoryDeadlineStore
from services.clocks.bootstrap import Clocks
from services.clocks.bootstrap import bootstrap as clocks_bootstrap
from services.clocks.config import ClocksSettings
from services.clocks.entrypoints.app import create_app as clocks_app
from services.clocks.service_layer.commands import CheckFlags
from services.pairing.adapters.arena_pool import InMemoryArenaPool
from services.pairing.bootstrap import Pairing
from services.pairing.bootstrap import bootstrap as pairing_bootstrap
from services.pairing.config import PairingSettings
from services.pairing.entrypoints.app import create_app as pairing_app
from services.pairing.service_layer.flows.elimination import draw_white
from services.registration.bootstrap import Registration
from services.registration.bootstrap import bootstrap as registration_bootstrap
from services.registration.config import RegistrationSettings
from services.registration.entrypoints.app import create_app as registration_app
from services.registration.service_layer.commands import StartDueTournaments
from services.standings.bootstrap import StandingsService
from services.standings.bootstrap import bootstrap as standings_bootstrap
from services.standings.config import StandingsSettings
from services.standings.entrypoints.app import create_app as standings_app
from shared.events import Envelope, Event
from shared.http.auth import issue_token
from shared.messaging.inprocess import InProcessBroker
from shared.messaging.port import Subscription
from shared.seed_draw import new_draw_seed
from shared.settings import DEV_JWT_SECRET
from shared.timesource import FakeClock

SCHEDULER_SECONDS = 5.0
ARENA_WORKER = "embedded"  # the lease token of the one pairing worker in this process


def random_id(rng: random.Random) -> uuid.UUID:
    """An id drawn from ``rng`` (a version-4 UUID): the same for the same seed."""
    return uuid.UUID(int=rng.getrandbits(128), version=4)


@dataclass(frozen=True)
class Draws:
    """Everything the services draw at random, in one place: the ids registration gives new tournaments
    and players entered by hand (a tournament's id draws the first colour of a Swiss or a round robin,
    FIDE C.04.3's lot), the seed of a knockout's random seeding and of a group-playoff event's groups'
    lot (registration), and the colours of a knockout match's first game (pairing). The services' own
    draws are random; a demo gives :meth:`seeded` ones so that the same seed gives the same run."""

    new_id: Callable[[], uuid.UUID] = uuid.uuid4
    draw_seed: Callable[[], int] = new_draw_seed
    draw_white: Callable[[], int] = draw_white

    @classmethod
    def seeded(cls, rng: random.Random) -> Draws:
        """Draws from a generator of their own, seeded from ``rng`` (which the caller goes on using)."""
        own = random.Random(rng.getrandbits(64))
        return cls(
            new_id=lambda: random_id(own),
            draw_seed=lambda: own.getrandbits(63),
            draw_white=lambda: own.randrange(2),
        )


class ApiError(RuntimeError):
    def __init__(self, status: int, problem: dict[str, Any]) -> None:
        super().__init__(f"{status} {problem.get('title')}: {problem.get('detail')}")
        self.status = status
        self.problem = problem


class Client:
    """JSON over a Flask test client, raising ApiError on problem responses."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        response = self.client.open(path, method=method, json=body, headers=headers)
        if response.status_code >= 400:
            raise ApiError(response.status_code, response.get_json(silent=True) or {})
        return response.get_json(silent=True)


@dataclass
class EmbeddedStack:
    clock: FakeClock
    broker: InProcessBroker
    registration: Registration
    pairing: Pairing
    clocks: Clocks
    standings: StandingsService
    api: dict[str, Client]
    _scheduled_at: dt.datetime | None = None

    @classmethod
    def create(
        cls,
        workdir: Path,
        *,
        start: dt.datetime | None = None,
        draws: Draws | None = None,
    ) -> EmbeddedStack:
        """``draws``: where the services' random draws come from (None: random); a demo that must repeat
        itself draws them from its seed (:meth:`Draws.seeded`)."""
        draws = draws or Draws()
        clock = FakeClock(start or dt.datetime.now(dt.UTC).replace(microsecond=0))
        broker = InProcessBroker()

        def sqlite(name: str) -> str:
            return f"sqlite:///{workdir / f'{name}.sqlite'}"

        common: dict[str, Any] = {"broker": broker, "clock": clock, "migrate": True, "relay_on_commit": True}
        registration = registration_bootstrap(
            RegistrationSettings(ARBITER_REGISTRATION_DATABASE_URL=sqlite("registration")),
            **common,
            new_id=draws.new_id,
            draw_seed=draws.draw_seed,
        )
        pairing = pairing_bootstrap(
            PairingSettings(ARBITER_PAIRING_DATABASE_URL=sqlite("pairing")),
            arena_pool=InMemoryArenaPool(),  # the arena's waiting pool in this process (Redis in production)
            draw_white=draws.draw_white,
            **common,
        )
        clocks = clocks_bootstrap(
            ClocksSettings(ARBITER_CLOCKS_DATABASE_URL=sqlite("clocks")),
            deadlines=InMemoryDeadlineStore(),
            **common,
        )
        standings = standings_bootstrap(
            StandingsSettings(ARBITER_STANDINGS_DATABASE_URL=sqlite("standings")), **common
        )
        broker.subscribe(
            registration.subscriptions
            + pairing.subscriptions
            + pairing.worker_subscriptions
            + clocks.subscriptions
            + standings.subscriptions
        )
        api = {
            "registration": Client(registration_app(registration).test_client()),
            "pairing": Client(pairing_app(pairing).test_client()),
            "clocks": Client(clocks_app(clocks).test_client()),
            "standings": Client(standings_app(standings).test_client()),
        }
        return cls(clock, broker, registration, pairing, clocks, standings, api)

    def listen(self, name: str, routing_keys: tuple[str, ...], handler: Any) -> None:
        """Watch events (the demo prints rounds as they are paired)."""

        def on_message(envelope: Envelope, event: Event) -> None:
            handler(envelope, event)

        self.broker.subscribe([Subscription(f"embedded.{name}", routing_keys, on_message)])

    def settle(self) -> int:
        """Run every process's work that is due now: the scheduler (every few simulated seconds, as
        the real one polls), the clock ticker, then every message until nothing is left to do."""
        now = self.clock.now()
        if self._scheduled_at is None or (now - self._scheduled_at).total_seconds() >= SCHEDULER_SECONDS:
            self.registration.bus.handle(StartDueTournaments())
            self._scheduled_at = now
        self.clocks.bus.handle(CheckFlags(sweep=False))  # the in-process deadline store loses nothing
        handled = self.broker.run_until_idle()
        if self.pairing.run_arena_passes(ARENA_WORKER):  # the pairing worker's arena tick
            handled += self.broker.run_until_idle()
        return handled

    def advance(self, seconds: float) -> None:
        self.clock.advance(seconds)
        self.settle()

    def token(self, subject: uuid.UUID, *roles: str) -> str:
        return issue_token(DEV_JWT_SECRET, subject, set(roles) or {"player"})

    def close(self) -> None:
        for svc in (self.registration, self.pairing, self.clocks, self.standings):
            svc.engine.dispose()
