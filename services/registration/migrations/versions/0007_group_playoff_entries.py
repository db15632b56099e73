"""group-playoff events and their entries

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01 13:10:00

A `group-playoff` event keeps its settings in ``tournaments.group_playoff`` (closing date, expected
start, the rating window, the groups' lot seed drawn at the start); an entry says whether the player can
create games themselves (``entries.creates_games``: those who cannot rank after all others). Existing
rows: no tournament has group settings, every entry creates its games.
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.add_column(sa.Column("group_playoff", sa.JSON(), nullable=True))
    with op.batch_alter_table("entries", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("creates_games", sa.Boolean(), nullable=False, server_default=sa.true())
        )


def downgrade() -> None:
    with op.batch_alter_table("entries", schema=None) as batch_op:
        batch_op.drop_column("creates_games")
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.drop_column("group_playoff")
