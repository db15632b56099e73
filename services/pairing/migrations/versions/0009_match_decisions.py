"""Match decisions counted (issue 22)

Revision ID: 0009
Revises: 0008
Create Date: 2027-01-10 10:00:00

A knockout match keeps how many times it was decided (``matches.decisions``): its first decision, then
each one after a correction. ``match.decided`` carries it as its ``revision``, so that a consumer hearing a
match decided twice keeps the later decision whatever order the two arrive in. A match decided before this
migration counts one decision.
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.add_column(sa.Column("decisions", sa.Integer(), nullable=False, server_default="0"))
    op.execute("UPDATE matches SET decisions = 1 WHERE decided_at IS NOT NULL")


def downgrade() -> None:
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.drop_column("decisions")
