"""arena games and their boosts

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01 13:45:00

Games: whether a game is an arena's (its players may take the boost, RULES.md §3) and the sides that took
the boost (``white``, ``black``, ``white,black``), whose moves add no increment. Existing rows: no arena
game, no boost.
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("arena", sa.Boolean(), server_default=sa.false(), nullable=False))
        batch_op.add_column(sa.Column("boosted", sa.String(length=20), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("boosted")
        batch_op.drop_column("arena")
