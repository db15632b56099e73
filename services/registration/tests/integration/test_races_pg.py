"""Two requests racing on PostgreSQL: the loser of a duplicate registration or of a second running
competition gets the domain error (409), not a driver error. The second insert waits on the first
one's unique index until that commits, then fails: the repository translates it."""

from __future__ import annotations

import datetime as dt
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import sqlalchemy as sa

from services.registration.bootstrap import MIGRATIONS, Registration, bootstrap
from services.registration.config import RegistrationSettings
from services.registration.domain import errors, rulesets
from services.registration.domain.account import Account, AccountKind
from services.registration.domain.tournament import RateOfPlay, Settings
from services.registration.service_layer import commands
from services.registration.tests.helpers import NOW
from shared.commands import Actor
from shared.messaging.inprocess import InProcessBroker
from shared.timesource import FakeClock

pytestmark = pytest.mark.integration


@pytest.fixture
def pg(servers) -> Iterator[Registration]:
    url = servers.create_database(f"registration_{uuid.uuid4().hex[:8]}", MIGRATIONS)
    svc = bootstrap(
        RegistrationSettings(ARBITER_REGISTRATION_DATABASE_URL=url),
        broker=InProcessBroker(),
        clock=FakeClock(NOW),
        migrate=True,
    )
    yield svc
    svc.engine.dispose()


def wait_until_blocked(
    engine: sa.Engine, thread: threading.Thread, outcome: list, deadline_s: float = 30
) -> None:
    """Poll until another session of this database waits on a lock (the racing insert). Each poll is
    its own transaction: PostgreSQL keeps one snapshot of pg_stat_activity per transaction."""
    query = sa.text(
        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
    )
    deadline = time.monotonic() + deadline_s
    with engine.connect() as conn:
        while True:
            waiting = conn.execute(query).scalar()
            conn.rollback()
            if waiting:
                return
            assert thread.is_alive(), f"the racing command ended without waiting: {outcome}"
            assert time.monotonic() < deadline, "the racing insert never waited on the first one"
            time.sleep(0.01)


def race(svc: Registration, first: Callable[[Any], None], second: object) -> BaseException | None:
    """``first`` writes in an open unit of work; ``second`` (a command) runs meanwhile and blocks on it;
    then the first commits. What the second raised."""
    outcome: list[BaseException | None] = []

    def run_second() -> None:
        try:
            svc.bus.handle(second)
            outcome.append(None)
        except BaseException as exc:
            outcome.append(exc)

    with svc.bus.uow_factory() as uow:
        first(uow)
        thread = threading.Thread(target=run_second)
        thread.start()
        wait_until_blocked(svc.engine, thread, outcome)
        uow.commit()
    thread.join(timeout=30)
    assert not thread.is_alive()
    return outcome[0]


def test_a_concurrent_duplicate_account_is_account_exists(pg: Registration) -> None:
    account_id = uuid.uuid4()
    lost = race(
        pg,
        lambda uow: uow.accounts.add(
            Account.register(account_id, "Ann", AccountKind.REGISTERED, {}, now=NOW)
        ),
        commands.RegisterAccount(account_id, "Ann again"),
    )
    assert isinstance(lost, errors.AccountExists)


def test_a_concurrent_second_competition_is_organiser_busy(pg: Registration) -> None:
    organiser = pg.bus.handle(commands.RegisterAccount(uuid.uuid4(), "Org"))
    settings = Settings("Blitz", NOW + dt.timedelta(hours=1), RateOfPlay(180, 2))
    lost = race(
        pg,
        lambda uow: uow.tournaments.add(rulesets.create(organiser, settings, now=NOW)),
        commands.CreateTournament(Actor(organiser.id), settings),
    )
    assert isinstance(lost, errors.OrganiserBusy)
