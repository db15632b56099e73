"""What a knockout's resets removed (issue 22)

Revision ID: 0011
Revises: 0010
Create Date: 2027-01-10 10:00:00

``tournaments.resets``: each reset of a knockout to its draft, when pairing made it and the games it
removed (``[{at, games}]``), so that a round published or paired before the reset and heard after it is
settled instead of waiting for games that will never come back (or releasing the new start's). Null: none.
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.add_column(sa.Column("resets", sa.JSON(none_as_null=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.drop_column("resets")
