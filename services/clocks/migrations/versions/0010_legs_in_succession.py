"""a double round's legs one after the other

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-02 14:00:00

Games: a double round's leg 1 names its pairing's leg 2 (``next_leg``), which waits, pending, and starts
when leg 1 ends (RULES.md §2: «zweimal hintereinander»; issue 22). Existing rows: none (null), as both
legs of a pairing were started at once before.
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("next_leg", sa.Uuid(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("next_leg")
