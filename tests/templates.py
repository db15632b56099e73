"""Migrations once per database template, not once per test.

Most tests build a service on a fresh database with ``bootstrap(..., migrate=True)``: some 0.2 s of
Alembic on SQLite and 0.6 s on PostgreSQL, thousands of times a run. Here each service's migrations
run once per test process into a template, named by a hash of the migrations directory (a changed
migration builds a new one), and a fresh database is a copy of it:

- SQLite: :func:`upgrade` replaces ``shared.composition``'s during the tests (the root conftest
  installs it). A database with no table yet, migrated to head, receives the template's pages through
  SQLite's backup API; anything else (a partly migrated database, another revision) is migrated by
  Alembic as before.
- PostgreSQL: ``Servers.create_database(name, migrations=...)`` creates the database with
  ``CREATE DATABASE ... TEMPLATE``; the service's own upgrade then finds it at head.

The migrations themselves stay tested as they were: the template is built by them, and the migration
tests (tests/test_migrations.py, services/*/tests/integration/test_migrations*.py) call
``shared.database.upgrade`` on empty databases directly, on both engines.
"""

from __future__ import annotations

import hashlib
import sqlite3
import tempfile
import threading
from pathlib import Path

import sqlalchemy as sa

from shared import database

_lock = threading.Lock()
_sqlite: dict[Path, Path] = {}
_workdir: Path | None = None


def fingerprint(migrations: Path) -> str:
    """A short hash of every migration file's name and text: a new or changed migration, a new name."""
    digest = hashlib.sha256()
    for path in sorted(migrations.rglob("*.py")):
        digest.update(str(path.relative_to(migrations)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:10]


def template_name(migrations: Path) -> str:
    """``<service>_<hash>`` for ``services/<service>/migrations``."""
    return f"{migrations.resolve().parent.name}_{fingerprint(migrations)}"


def sqlite_template(migrations: Path) -> Path:
    """This process's SQLite database migrated to head by ``migrations`` (built on first use)."""
    global _workdir
    key = migrations.resolve()
    with _lock:
        if key not in _sqlite:
            if _workdir is None:
                _workdir = Path(tempfile.mkdtemp(prefix="arbiter_templates_"))
            path = _workdir / f"{template_name(key)}.sqlite"
            engine = database.make_engine(f"sqlite:///{path}")
            try:
                database.upgrade(key, engine)
            finally:
                engine.dispose()
            _sqlite[key] = path
        return _sqlite[key]


def upgrade(migrations: Path, engine: sa.Engine, revision: str = "head") -> None:
    """``shared.database.upgrade``, except that an empty SQLite database brought to head is a copy of
    the template instead."""
    if revision == "head" and engine.dialect.name == "sqlite" and not sa.inspect(engine).get_table_names():
        source = sqlite3.connect(sqlite_template(migrations))
        target = engine.raw_connection()
        try:
            source.backup(target.driver_connection)  # type: ignore[arg-type]
        finally:
            target.close()
            source.close()
        return
    database.upgrade(migrations, engine, revision)
