"""The roster revision of each tournament (issue 25: causal commands)

Revision ID: 0010
Revises: 0009
Create Date: 2027-02-01 10:00:00

A tournament counts the changes of its roster it published (``tournaments.roster_revision``: a player
joined, left, paused or was withdrawn; the start). Each such event carries the revision it produced, and
the answer to the command that made it says it, so that a later command to another service can name it
(pairing refuses a pairing until it has heard that revision). Existing tournaments start at 0: their
next change is revision 1, as pairing (which has heard nothing numbered of them) expects.
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.add_column(sa.Column("roster_revision", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.drop_column("roster_revision")
