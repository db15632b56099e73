"""fide-rapid rounds

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01 13:10:00

A `fide-rapid` event is paired on its arbiters' command (RULES.md §6): its settings (acceleration, the late
entries' byes) on the tournament; a late entry's first round on the player; why a game ended (a loss at the
default time is an absence); and the absences an arbiter excused before the next pairing was published.
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.add_column(sa.Column("fide", sa.JSON(), nullable=True))
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.add_column(sa.Column("from_round", sa.Integer(), nullable=True))
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("reason", sa.String(length=40), nullable=True))
    op.create_table(
        "excused_absences",
        sa.Column("tournament_id", sa.Uuid(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("decided_by", sa.Uuid(), nullable=False),
        sa.Column("role", sa.String(length=20), nullable=False),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("reason", sa.String(length=500), nullable=True),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("tournament_id", "round", "seed"),
    )


def downgrade() -> None:
    op.drop_table("excused_absences")
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("reason")
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.drop_column("from_round")
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.drop_column("fide")
