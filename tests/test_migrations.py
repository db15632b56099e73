"""Each service's migrations build exactly the schema its tables declare (the outbox's columns
included), and processes that migrate at once (every pod's init container) do not trip over each
other."""

from __future__ import annotations

import importlib
import threading
import uuid

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from shared.database import make_engine, upgrade

SERVICES = ("registration", "pairing", "clocks", "standings")


def drift(name: str, url: str) -> list[object]:
    bootstrap = importlib.import_module(f"services.{name}.bootstrap")
    orm = importlib.import_module(f"services.{name}.adapters.orm")
    engine = make_engine(url)
    try:
        upgrade(bootstrap.MIGRATIONS, engine)
        with engine.connect() as conn:
            return list(compare_metadata(MigrationContext.configure(conn), orm.metadata))
    finally:
        engine.dispose()


@pytest.mark.parametrize("name", SERVICES)
def test_migrations_build_the_declared_schema_on_sqlite(name, tmp_path):
    assert drift(name, f"sqlite:///{tmp_path / 'schema.sqlite'}") == []


@pytest.mark.integration
@pytest.mark.parametrize("name", SERVICES)
def test_migrations_build_the_declared_schema_on_postgresql(name, servers):
    assert drift(name, servers.create_database(f"schema_{name}")) == []


@pytest.mark.integration
def test_processes_that_migrate_at_once_all_succeed(servers):
    bootstrap = importlib.import_module("services.clocks.bootstrap")
    url = servers.create_database(f"race_{uuid.uuid4().hex[:6]}")
    engines = [make_engine(url) for _ in range(4)]
    start = threading.Barrier(len(engines))
    failures: list[BaseException] = []

    def migrate(engine: sa.Engine) -> None:
        start.wait()
        try:
            upgrade(bootstrap.MIGRATIONS, engine)
        except BaseException as exc:
            failures.append(exc)

    threads = [threading.Thread(target=migrate, args=(e,)) for e in engines]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    with engines[0].connect() as conn:
        versions = conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalars().all()
    for engine in engines:
        engine.dispose()
    assert failures == []
    assert len(versions) == 1
