"""A knockout match's decision keeps its revision (issue 22)

Revision ID: 0010
Revises: 0009
Create Date: 2027-01-10 10:00:00

``matches.revision``: the count pairing gave the decision shown (``match.decided``'s ``revision``), so that
a later decision replaces it and an earlier one, heard after it, does not. Null for the decisions recorded
before (and for those of a producer before revisions).
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.add_column(sa.Column("revision", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.drop_column("revision")
