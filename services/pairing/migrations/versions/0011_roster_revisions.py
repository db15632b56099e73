"""What pairing has heard of each tournament's roster (issue 25: causal commands)

Revision ID: 0011
Revises: 0010
Create Date: 2027-02-01 10:00:00

Registration numbers each tournament's roster changes (``roster_revision`` on ``player.joined``,
``player.left``, ``player.paused``, ``player.withdrawn`` and ``tournament.started``). Pairing keeps, per
tournament, the revision up to which it has applied every change, and those it applied beyond a gap
(``roster_revisions``), so that a pairing asked for after a given revision waits until it has heard it.
A tournament with no row has heard none numbered: its next change is revision 1.
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "roster_revisions",
        sa.Column("tournament_id", sa.Uuid(), primary_key=True),
        sa.Column("revision", sa.Integer(), nullable=False),
        sa.Column("ahead", sa.JSON(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("roster_revisions")
