"""The clocks' migrations on PostgreSQL: the schema they build is the one the code maps, a database of
an earlier revision keeps its games (rated, with no claims, decision or corrections; on the server's
clock, with no default time or incidents) and its tournaments, and can go back."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from services.clocks.adapters import orm
from services.clocks.bootstrap import MIGRATIONS
from shared.database import alembic_config, make_engine, upgrade

pytestmark = pytest.mark.integration


@pytest.fixture
def engine(servers):
    engine = make_engine(servers.create_database(f"clocks_migrations_{uuid.uuid4().hex[:8]}"))
    yield engine
    engine.dispose()


def downgrade(engine: sa.Engine, revision: str) -> None:
    cfg = alembic_config(MIGRATIONS, engine.url.render_as_string(hide_password=False))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, revision)


def test_the_migrated_schema_is_the_mapped_one(engine):
    upgrade(MIGRATIONS, engine)
    with engine.connect() as conn:
        differences = compare_metadata(MigrationContext.configure(conn), orm.metadata)
    assert differences == []


def test_games_of_the_previous_revision_survive_the_upgrade_and_it_goes_back(engine):
    upgrade(MIGRATIONS, engine, "0002")
    game_id, now = uuid.uuid4(), dt.datetime(2026, 6, 1, 12, tzinfo=dt.UTC)
    row = {
        "id": game_id,
        "tournament_id": uuid.uuid4(),
        "organiser_id": uuid.uuid4(),
        "round": 1,
        "board": 1,
        "leg": 1,
        "white": uuid.uuid4(),
        "black": uuid.uuid4(),
        "base_seconds": 180,
        "increment_seconds": 2,
        "status": "finished",
        "clock_state": "stopped",
        "white_ms": 1000,
        "black_ms": 2000,
        "moves": 10,
        "white_moved": True,
        "black_moved": True,
        "outcome": "1-0",
        "reason": "resignation",
        "created_at": now,
    }
    columns = ", ".join(row)
    values = ", ".join(f":{name}" for name in row)
    with engine.begin() as conn:
        conn.execute(sa.text(f"INSERT INTO games ({columns}) VALUES ({values})"), row)
    upgrade(MIGRATIONS, engine)
    with engine.connect() as conn:
        found = conn.execute(sa.select(orm.games).where(orm.games.c.id == game_id)).one()
    assert (found.rated, found.claims, found.decision, found.corrections, found.released) == (
        True,
        None,
        None,
        None,
        True,
    )
    with engine.begin() as conn:
        conn.execute(sa.insert(orm.tournaments).values(id=uuid.uuid4(), ruleset="knockout"))
    downgrade(engine, "0002")
    names = set(sa.inspect(engine).get_table_names())
    assert {"tournaments", "arbiters", "withdrawals"}.isdisjoint(names) and "games" in names
    assert "rated" not in {c["name"] for c in sa.inspect(engine).get_columns("games")}
    upgrade(MIGRATIONS, engine)
    with engine.connect() as conn:
        assert conn.execute(sa.select(orm.games.c.rated).where(orm.games.c.id == game_id)).scalar() is True


def test_games_and_tournaments_of_0004_survive_the_fide_rapid_upgrade_and_it_goes_back(engine):
    upgrade(MIGRATIONS, engine, "0004")
    game_id, tid, now = uuid.uuid4(), uuid.uuid4(), dt.datetime(2026, 6, 1, 12, tzinfo=dt.UTC)
    row = {
        "id": game_id,
        "tournament_id": tid,
        "organiser_id": uuid.uuid4(),
        "round": 1,
        "board": 1,
        "leg": 1,
        "white": uuid.uuid4(),
        "black": uuid.uuid4(),
        "base_seconds": 180,
        "increment_seconds": 2,
        "status": "running",
        "clock_state": "running",
        "to_move": "white",
        "white_ms": 180_000,
        "black_ms": 180_000,
        "turn_started_at": now,
        "deadline": now + dt.timedelta(minutes=3),
        "moves": 0,
        "white_moved": False,
        "black_moved": False,
        "created_at": now,
        "started_at": now,
    }
    columns = ", ".join(row)
    values = ", ".join(f":{name}" for name in row)
    with engine.begin() as conn:
        conn.execute(sa.text(f"INSERT INTO games ({columns}) VALUES ({values})"), row)
        conn.execute(sa.text("INSERT INTO tournaments (id, ruleset) VALUES (:id, 'platform')"), {"id": tid})
    upgrade(MIGRATIONS, engine)
    with engine.connect() as conn:
        game = conn.execute(sa.select(orm.games).where(orm.games.c.id == game_id)).one()
        tournament = conn.execute(sa.select(orm.tournaments).where(orm.tournaments.c.id == tid)).one()
    assert (game.server_clock, game.default_time_seconds, game.incidents) == (True, None, None)
    assert (tournament.ruleset, tournament.clocks, tournament.default_time_minutes) == (
        "platform",
        None,
        None,
    )
    with engine.begin() as conn:
        conn.execute(
            sa.update(orm.games)
            .where(orm.games.c.id == game_id)
            .values(server_clock=False, incidents=[{"kind": "illegal_move"}])
        )
    downgrade(engine, "0004")
    assert {"server_clock", "default_time_seconds", "incidents"}.isdisjoint(
        c["name"] for c in sa.inspect(engine).get_columns("games")
    )
    assert {"clocks", "default_time_minutes"}.isdisjoint(
        c["name"] for c in sa.inspect(engine).get_columns("tournaments")
    )
    upgrade(MIGRATIONS, engine)
    with engine.connect() as conn:
        assert conn.execute(sa.select(orm.games.c.server_clock).where(orm.games.c.id == game_id)).scalar()
