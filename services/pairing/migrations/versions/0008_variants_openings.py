"""Variants and openings (issue 13)

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01 13:20:00

A `platform` tournament keeps its variant and opening option (``tournaments.variant``, ``opening``;
'chess' and 'free' for every existing row), and each game the opening drawn for it when its round was
paired (``games.opening``: ``{code, moves, fen}``, null when free). A tournament with an announced
duration keeps its end (``tournaments.ends_at``: no round is paired after it; null for existing rows). An
arena keeps its variant (``arenas.variant``, 'chess' for existing rows): its games are played on that board.
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.add_column(sa.Column("variant", sa.String(40), nullable=False, server_default="chess"))
        batch_op.add_column(sa.Column("opening", sa.String(60), nullable=False, server_default="free"))
        batch_op.add_column(sa.Column("ends_at", sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("opening", sa.JSON(), nullable=True))
    with op.batch_alter_table("arenas", schema=None) as batch_op:
        batch_op.add_column(sa.Column("variant", sa.String(40), nullable=False, server_default="chess"))


def downgrade() -> None:
    with op.batch_alter_table("arenas", schema=None) as batch_op:
        batch_op.drop_column("variant")
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("opening")
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.drop_column("ends_at")
        batch_op.drop_column("opening")
        batch_op.drop_column("variant")
