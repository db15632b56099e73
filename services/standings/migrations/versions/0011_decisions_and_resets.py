"""A knockout match's decision keeps its revision; a knockout keeps what its resets removed (issue 22)

Revision ID: 0011
Revises: 0010
Create Date: 2027-01-10 10:00:00

``matches.revision``: the count pairing gave the decision shown (``match.decided``'s ``revision``), so that
a later decision replaces it and an earlier one, heard after it, does not. Null for the decisions recorded
before (and for those of a producer before revisions).

``tournaments.resets``: each reset of a knockout to its draft, when and the games it removed
(``[{at, games}]``), so that news of them heard after the reset is settled instead of waiting for a start
that never names them. Null: none (a knockout reset before this migration keeps none).
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.add_column(sa.Column("revision", sa.Integer(), nullable=True))
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.add_column(sa.Column("resets", sa.JSON(none_as_null=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.drop_column("resets")
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.drop_column("revision")
