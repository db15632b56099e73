"""knockout drafts

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-29 14:50:29.954509

A knockout is a draft without a start time until its organiser starts it, keeps its format in
``knockout``, and is not bound by the `platform` rule of one running competition per organiser.
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

PLATFORM_RUNNING = "status IN ('scheduled', 'started') AND ruleset = 'platform'"
RUNNING = "status IN ('scheduled', 'started')"


def upgrade() -> None:
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.add_column(sa.Column("knockout", sa.JSON(), nullable=True))
        batch_op.alter_column("starts_at", existing_type=sa.DateTime(timezone=True), nullable=True)
        batch_op.drop_index(
            "uq_tournaments_running_organiser",
            postgresql_where=sa.text(RUNNING),
            sqlite_where=sa.text(RUNNING),
        )
        batch_op.create_index(
            "uq_tournaments_running_organiser",
            ["organiser_id"],
            unique=True,
            postgresql_where=sa.text(PLATFORM_RUNNING),
            sqlite_where=sa.text(PLATFORM_RUNNING),
        )


def downgrade() -> None:
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.drop_index(
            "uq_tournaments_running_organiser",
            postgresql_where=sa.text(PLATFORM_RUNNING),
            sqlite_where=sa.text(PLATFORM_RUNNING),
        )
        batch_op.create_index(
            "uq_tournaments_running_organiser",
            ["organiser_id"],
            unique=True,
            postgresql_where=sa.text(RUNNING),
            sqlite_where=sa.text(RUNNING),
        )
        batch_op.alter_column("starts_at", existing_type=sa.DateTime(timezone=True), nullable=False)
        batch_op.drop_column("knockout")
