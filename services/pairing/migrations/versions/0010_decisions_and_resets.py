"""Match decisions counted, and what resets removed (issue 22)

Revision ID: 0010
Revises: 0009
Create Date: 2027-01-10 10:00:00

A knockout match keeps how many times it was decided (``matches.decisions``): its first decision, then
each one after a correction. ``match.decided`` carries it as its ``revision``, so that a consumer hearing a
match decided twice keeps the later decision whatever order the two arrive in. A match decided before this
migration counts one decision.

A knockout reset to its draft loses its rows; ``resets`` keeps, for each reset, when it was made and the
games it removed, so that news of them arriving after the reset is settled instead of dead-lettered. A
knockout started again counts the resets before its start (``brackets.restarts``), which its game ids
include: they differ from every removed game's, even for a start at the same time.
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.add_column(sa.Column("decisions", sa.Integer(), nullable=False, server_default="0"))
    op.execute("UPDATE matches SET decisions = 1 WHERE decided_at IS NOT NULL")
    with op.batch_alter_table("brackets", schema=None) as batch_op:
        batch_op.add_column(sa.Column("restarts", sa.Integer(), nullable=False, server_default="0"))
    op.create_table(
        "resets",
        sa.Column("tournament_id", sa.Uuid(), primary_key=True),
        sa.Column("start", sa.Integer(), primary_key=True),
        sa.Column("reset_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("games", sa.JSON(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("resets")
    with op.batch_alter_table("brackets", schema=None) as batch_op:
        batch_op.drop_column("restarts")
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.drop_column("decisions")
