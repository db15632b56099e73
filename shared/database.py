"""SQLAlchemy engines and Alembic migrations, the same way for every service."""

from __future__ import annotations

import datetime as dt
import time
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from sqlalchemy import event


def make_engine(url: str, **kwargs: Any) -> sa.Engine:
    if url.startswith("sqlite"):
        engine = sa.create_engine(url, connect_args={"check_same_thread": False, "timeout": 30}, **kwargs)

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
            # let SQLAlchemy, not pysqlite, begin transactions, so SAVEPOINTs work (SQLAlchemy's recipe)
            dbapi_conn.isolation_level = None
            cursor = dbapi_conn.cursor()
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.close()

        @event.listens_for(engine, "begin")
        def _sqlite_begin(conn: Any) -> None:
            conn.exec_driver_sql("BEGIN")

        return engine
    kwargs.setdefault("pool_size", 10)
    kwargs.setdefault("max_overflow", 20)
    if kwargs.get("pool_pre_ping"):
        return sa.create_engine(url, **kwargs)
    engine = sa.create_engine(url, **kwargs)
    _ping_when_idle(engine, PING_AFTER_IDLE_SECONDS)
    return engine


PING_AFTER_IDLE_SECONDS = 2.0


def _ping_when_idle(engine: sa.Engine, seconds: float) -> None:
    """SQLAlchemy's ``pool_pre_ping``, only for a connection that sat in the pool for more than
    ``seconds``: a consumer takes a connection for every message, and a ping each time was a round
    trip per message. A connection in steady use is not checked (if the server went away meanwhile,
    the statement fails as an outage: the consumer waits it out, the web answers 503, and the pool
    drops every connection of before). One that sat idle — through a database restart, say — is
    pinged, and replaced when the ping fails (``DisconnectionError``: the pool connects again)."""

    @event.listens_for(engine, "checkin")
    def _checked_in(_dbapi_conn: Any, record: Any) -> None:
        record.info["arbiter_idle_since"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _checked_out(dbapi_conn: Any, record: Any, _proxy: Any) -> None:
        since = record.info.get("arbiter_idle_since")
        if since is None or time.monotonic() - since <= seconds:
            return  # a new connection, or one used a moment ago
        try:
            engine.dialect.do_ping(dbapi_conn)
        except Exception as exc:
            raise sa.exc.DisconnectionError(f"idle connection failed its ping: {exc}") from exc


def alembic_config(migrations: Path, url: str) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(migrations))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


MIGRATION_LOCK = 0x4172_6269_7465_72  # "Arbiter": the advisory lock that serialises migrations


def upgrade(migrations: Path, engine: sa.Engine, revision: str = "head") -> None:
    """Run a service's migrations on ``engine`` (its env.py uses the connection passed in).

    On PostgreSQL the transaction first takes an advisory lock, so processes that start together
    (every pod's init container in Kubernetes) migrate one after the other: the first upgrades, the
    others find the schema at head and do nothing."""
    cfg = alembic_config(migrations, engine.url.render_as_string(hide_password=False))
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)


def ping(engine: sa.Engine) -> None:
    with engine.connect() as conn:
        conn.execute(sa.text("SELECT 1"))


def run_migrations_env(metadata: sa.MetaData) -> None:
    """The body of every service's ``migrations/env.py``: use the connection handed over by
    :func:`upgrade`, or connect with the configured URL (``alembic`` on the command line)."""
    from alembic import context

    config = context.config
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = sa.create_engine(config.get_main_option("sqlalchemy.url") or "", poolclass=sa.pool.NullPool)
    with engine.connect() as conn:
        context.configure(connection=conn, target_metadata=metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
        conn.commit()


def aware(value: dt.datetime) -> dt.datetime:
    """SQLite returns naive datetimes; everything Arbiter stores is UTC."""
    return value if value.tzinfo else value.replace(tzinfo=dt.UTC)


def aware_or_none(value: dt.datetime | None) -> dt.datetime | None:
    return None if value is None else aware(value)
