"""Registration's schema on PostgreSQL: the migrations build exactly the tables the code declares; the
arbiters / withdrawals / audit migration (0004) upgrades a database that already holds tournaments: their
entries are active, they take no requested byes, and they gain arbiters and an audit log; the fide-rapid
migration (0005) leaves them without fide settings, their entries made by accounts with no FIDE data, and
holds one player per FIDE id in an event."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from services.registration.adapters import orm
from services.registration.adapters.unit_of_work import SqlRegistrationUnitOfWork
from services.registration.bootstrap import MIGRATIONS, bootstrap
from services.registration.config import RegistrationSettings
from services.registration.domain import rulesets
from services.registration.domain.account import Account, AccountKind
from services.registration.domain.entries import Standing
from services.registration.domain.fide import FideFormat
from services.registration.domain.players import Person, Profile
from services.registration.domain.rulesets import fide_rapid
from services.registration.domain.tournament import RateOfPlay, Settings
from services.registration.tests.helpers import NOW
from shared.database import make_engine, upgrade
from shared.messaging.inprocess import InProcessBroker
from shared.vocabulary import Ruleset

pytestmark = pytest.mark.integration


def test_the_migrations_build_the_declared_schema(servers) -> None:
    engine = make_engine(servers.create_database(f"registration_{uuid.uuid4().hex[:8]}"))
    try:
        upgrade(MIGRATIONS, engine)
        with engine.connect() as conn:
            differences = compare_metadata(MigrationContext.configure(conn), orm.metadata)
        assert differences == []
    finally:
        engine.dispose()


def test_0004_upgrades_a_database_with_tournaments(servers) -> None:
    url = servers.create_database(f"registration_{uuid.uuid4().hex[:8]}")
    engine = make_engine(url)
    tid, org, ann = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    try:
        upgrade(MIGRATIONS, engine, "0003")
        with engine.begin() as conn:
            conn.execute(
                sa.text(
                    "INSERT INTO tournaments (id, organiser_id, name, starts_at, base_seconds, increment_seconds,"
                    " seats, minimum, threshold, ruleset, variant, double_rounds, extra_round, rated, status,"
                    " created_at) VALUES (:id, :org, 'Old', :at, 180, 2, 200, 4, 7, 'platform', 'chess',"
                    " false, false, true, 'started', :at)"
                ),
                {"id": tid, "org": org, "at": NOW},
            )
            conn.execute(
                sa.text(
                    "INSERT INTO entries (tournament_id, player_id, name, rating, joined_at)"
                    " VALUES (:tid, :ann, 'Ann', 1500, :at)"
                ),
                {"tid": tid, "ann": ann, "at": NOW},
            )
        upgrade(MIGRATIONS, engine)
    finally:
        engine.dispose()

    svc = bootstrap(RegistrationSettings(ARBITER_REGISTRATION_DATABASE_URL=url), broker=InProcessBroker())
    try:
        with svc.bus.uow_factory() as uow:
            assert isinstance(uow, SqlRegistrationUnitOfWork)
            t = uow.tournaments.get(tid, lock=True)
            assert t is not None
            assert (t.byes_on_request, t.arbiters, [e.standing for e in t.entries]) == (
                False,
                {},
                [Standing.ACTIVE],
            )
            arbiter = Account.register(uuid.uuid4(), "Arb", AccountKind.REGISTERED, {}, now=NOW)
            uow.accounts.add(arbiter)
            t.appoint(org, arbiter, None, now=NOW + dt.timedelta(minutes=1))
            t.withdraw(org, ann, reason="cheating", exclude=True, now=NOW + dt.timedelta(minutes=2))
            uow.tournaments.save(t)
            uow.commit()
        with svc.bus.uow_factory() as uow:
            t = uow.tournaments.get(tid)
            assert t is not None and set(t.arbiters) == {arbiter.id}
            assert t.entries[0].standing is Standing.EXCLUDED
            assert [e.kind.value for e in uow.audit.of(tid)] == ["arbiter_appointed", "player_excluded"]
    finally:
        svc.engine.dispose()


def test_0006_upgrades_a_database_with_tournaments_and_holds_fide_ids_unique(servers) -> None:
    url = servers.create_database(f"registration_{uuid.uuid4().hex[:8]}")
    engine = make_engine(url)
    tid, org, ann = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    try:
        upgrade(MIGRATIONS, engine, "0005")
        with engine.begin() as conn:
            conn.execute(
                sa.text(
                    "INSERT INTO tournaments (id, organiser_id, name, starts_at, base_seconds, increment_seconds,"
                    " seats, minimum, threshold, ruleset, variant, double_rounds, extra_round, rated, status,"
                    " created_at, byes_on_request) VALUES (:id, :org, 'Old', :at, 180, 2, 200, 4, 7, 'platform',"
                    " 'chess', false, false, true, 'scheduled', :at, false)"
                ),
                {"id": tid, "org": org, "at": NOW},
            )
            conn.execute(
                sa.text(
                    "INSERT INTO entries (tournament_id, player_id, name, rating, joined_at)"
                    " VALUES (:tid, :ann, 'Ann', 1500, :at)"
                ),
                {"tid": tid, "ann": ann, "at": NOW},
            )
        upgrade(MIGRATIONS, engine)
        with engine.connect() as conn:
            row = conn.execute(sa.text("SELECT fide, rounds_paired FROM tournaments")).one()
            entry = conn.execute(sa.text("SELECT standing, by_hand, fide_id, from_round FROM entries")).one()
        assert tuple(row) == (None, 0)
        assert tuple(entry) == ("active", False, None, None)
    finally:
        engine.dispose()

    svc = bootstrap(RegistrationSettings(ARBITER_REGISTRATION_DATABASE_URL=url), broker=InProcessBroker())
    try:
        with svc.bus.uow_factory() as uow:
            old = uow.tournaments.get(tid)
            assert old is not None and old.fide is None and old.entries[0].profile is None
            organiser = Account.register(org, "Org", AccountKind.REGISTERED, {}, now=NOW)
            uow.accounts.add(organiser)
            settings = Settings(
                "Rapid", None, RateOfPlay(900, 10), ruleset=Ruleset.FIDE_RAPID, fide=FideFormat(rounds=5)
            )
            event = rulesets.create(organiser, settings, now=NOW)
            fide_rapid.add_person(
                event, org, Person("Carlsen", Profile(fide_id=1503014)), uuid.uuid4(), now=NOW
            )
            uow.tournaments.add(event)
            uow.commit()
        # the index holds one player per FIDE id in an event, and none across events
        with svc.engine.begin() as conn:
            conn.execute(
                sa.text(
                    "INSERT INTO entries (tournament_id, player_id, name, joined_at, fide_id)"
                    " VALUES (:tid, :p, 'Carlsen elsewhere', :at, 1503014)"
                ),
                {"tid": tid, "p": uuid.uuid4(), "at": NOW},
            )
        with pytest.raises(sa.exc.IntegrityError), svc.engine.begin() as conn:
            conn.execute(
                sa.text(
                    "INSERT INTO entries (tournament_id, player_id, name, joined_at, fide_id)"
                    " VALUES (:tid, :p, 'Impostor', :at, 1503014)"
                ),
                {"tid": event.id, "p": uuid.uuid4(), "at": NOW},
            )
    finally:
        svc.engine.dispose()
