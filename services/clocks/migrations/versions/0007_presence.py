"""Presence (issue 13)

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01 14:00:00

What the game server last reported of each player's presence (connected, disconnected, busy): a busy
player's game of a `platform` round is not created but lost by forfeit (RULES.md §2 "Absence").
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "presence",
        sa.Column("player_id", sa.Uuid(), primary_key=True),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("presence")
