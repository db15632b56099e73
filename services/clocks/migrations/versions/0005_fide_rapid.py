"""the fide-rapid ruleset: who keeps the time, the default time, penalties

Revision ID: 0005
Revises: 0004
Create Date: 2027-01-10 10:00:00.000000

Games: whether the server keeps their clock (false over the board), the default time the server applies,
the penalties (incidents). Tournaments: who keeps the time and the default time, from tournament.started.
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("server_clock", sa.Boolean(), server_default=sa.true(), nullable=False))
        batch_op.add_column(sa.Column("default_time_seconds", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("incidents", sa.JSON(), nullable=True))
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.add_column(sa.Column("clocks", sa.String(length=10), nullable=True))
        batch_op.add_column(sa.Column("default_time_minutes", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.drop_column("default_time_minutes")
        batch_op.drop_column("clocks")
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("incidents")
        batch_op.drop_column("default_time_seconds")
        batch_op.drop_column("server_clock")
