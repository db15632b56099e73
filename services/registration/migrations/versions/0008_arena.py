"""arenas: their duration, players paused, and one running competition per organiser arenas included

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01 13:20:00

An arena (RULES.md §3) keeps its duration in ``tournaments.arena_minutes``; its players may pause (and
leave after the start, keeping their games), which ``entries.paused`` records until they join again. The
index that keeps one running `platform` competition per organiser covers arenas too. Existing rows: no
tournament is an arena, no entry is paused.
"""

import sqlalchemy as sa
from alembic import op
from alembic.operations import BatchOperations

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

PLATFORM_RUNNING = "status IN ('scheduled', 'started') AND ruleset = 'platform'"
SELF_REGISTERED_RUNNING = "status IN ('scheduled', 'started') AND ruleset IN ('platform', 'arena')"


def _running_index(batch_op: BatchOperations, where: str) -> None:
    batch_op.create_index(
        "uq_tournaments_running_organiser",
        ["organiser_id"],
        unique=True,
        postgresql_where=sa.text(where),
        sqlite_where=sa.text(where),
    )


def upgrade() -> None:
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.add_column(sa.Column("arena_minutes", sa.Integer(), nullable=True))
        batch_op.drop_index(
            "uq_tournaments_running_organiser",
            postgresql_where=sa.text(PLATFORM_RUNNING),
            sqlite_where=sa.text(PLATFORM_RUNNING),
        )
        _running_index(batch_op, SELF_REGISTERED_RUNNING)
    with op.batch_alter_table("entries", schema=None) as batch_op:
        batch_op.add_column(sa.Column("paused", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("entries", schema=None) as batch_op:
        batch_op.drop_column("paused")
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.drop_index(
            "uq_tournaments_running_organiser",
            postgresql_where=sa.text(SELF_REGISTERED_RUNNING),
            sqlite_where=sa.text(SELF_REGISTERED_RUNNING),
        )
        _running_index(batch_op, PLATFORM_RUNNING)
        batch_op.drop_column("arena_minutes")
