"""What the round to come leaves out (issue 22)

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-20 10:00:00

The zero-point byes asked for a round not paired yet (``bye.requested``, deleted again by
``bye.taken_back``) and the absences an arbiter excused (``absence.excused``): with the withdrawals and
the losses at the default time, they say who a Swiss's next round leaves out, which the TRF written
before that round's pairing gives a block. Events heard before this release were not kept: a tournament
running across the upgrade writes them from the next one on.
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    for table in ("bye_requests", "excused_absences"):
        op.create_table(
            table,
            sa.Column("tournament_id", sa.Uuid(), nullable=False),
            sa.Column("round", sa.Integer(), nullable=False),
            sa.Column("seed", sa.Integer(), nullable=False),
            sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"], ondelete="CASCADE"),
            sa.PrimaryKeyConstraint("tournament_id", "round", "seed"),
        )


def downgrade() -> None:
    op.drop_table("excused_absences")
    op.drop_table("bye_requests")
