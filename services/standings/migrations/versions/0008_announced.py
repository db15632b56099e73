"""Tournaments announced before their start, for the tournament index (issue 16)

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-08 10:00:00

``tournament.scheduled`` (with the entries of ``player.joined`` and ``player.left``) is kept until the
tournament starts or is cancelled: the index lists it as upcoming, its page shows the entries so far.
Tournaments scheduled before this revision are not known here (they appear once they start).
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "announced",
        sa.Column("id", sa.Uuid(), primary_key=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ruleset", sa.String(40), nullable=False),
        sa.Column("variant", sa.String(40), nullable=False),
        sa.Column("time_control", sa.JSON(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("seats", sa.Integer(), nullable=False),
        sa.Column("arena", sa.Boolean(), nullable=False),
        sa.Column("entries", sa.JSON(), nullable=False),
        sa.Column("started", sa.Boolean(), nullable=False),
        sa.Column("cancelled", sa.String(500), nullable=True),
    )
    op.create_index("ix_announced_starts_at", "announced", ["starts_at"])


def downgrade() -> None:
    op.drop_index("ix_announced_starts_at", table_name="announced")
    op.drop_table("announced")
