"""The board of each game: variant, opening, position (issue 13)

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01 13:40:00

A game keeps its variant ('chess' for every existing row), the opening drawn for it (``{code, moves,
fen}``; null: free, as every existing game), the position now (FEN; null: the start) and the moves
reported with their text, checked by the variant's move generator (null: none).
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("variant", sa.String(40), nullable=False, server_default="chess"))
        batch_op.add_column(sa.Column("opening", sa.JSON(none_as_null=True), nullable=True))
        batch_op.add_column(sa.Column("position", sa.String(200), nullable=True))
        batch_op.add_column(sa.Column("line", sa.JSON(none_as_null=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        for column in ("line", "position", "opening", "variant"):
            batch_op.drop_column(column)
