"""Presence and the close of a tournament's duration (issue 13)

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01 14:00:00

What the game server last reported of each player's presence (connected, disconnected, busy): a busy
player's game of a `platform` round is not created but lost by forfeit (RULES.md §2 "Absence"). A
tournament with an announced duration closes ten minutes after it (``tournaments.closes_at``), and each of
its games knows when (``games.closes_at``): still open then, it is drawn. A player disconnected after their
first move must be back within 30 seconds (``games.away``, ``back_by``) or loses. None for existing rows.
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.add_column(sa.Column("closes_at", sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("closes_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("away", sa.String(5), nullable=True))
        batch_op.add_column(sa.Column("back_by", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "presence",
        sa.Column("player_id", sa.Uuid(), primary_key=True),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("presence")
    with op.batch_alter_table("games", schema=None) as batch_op:
        for column in ("back_by", "away", "closes_at"):
            batch_op.drop_column(column)
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.drop_column("closes_at")
