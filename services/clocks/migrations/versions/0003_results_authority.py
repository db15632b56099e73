"""results under the arbiter's authority

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-06 10:00:00.000000

Games: rated, the players' pending claims, who decided the result, its corrections. What is known of each
tournament: its organiser and ruleset, its arbiters, its withdrawn players.
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("rated", sa.Boolean(), server_default=sa.true(), nullable=False))
        batch_op.add_column(sa.Column("claims", sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column("decision", sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column("corrections", sa.JSON(), nullable=True))

    op.create_table(
        "tournaments",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("organiser_id", sa.Uuid(), nullable=True),
        sa.Column("ruleset", sa.String(length=40), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "arbiters",
        sa.Column("tournament_id", sa.Uuid(), nullable=False),
        sa.Column("arbiter_id", sa.Uuid(), nullable=False),
        sa.Column("games", sa.JSON(), nullable=True),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("tournament_id", "arbiter_id"),
    )
    op.create_table(
        "withdrawals",
        sa.Column("tournament_id", sa.Uuid(), nullable=False),
        sa.Column("player_id", sa.Uuid(), nullable=False),
        sa.Column("excluded", sa.Boolean(), nullable=False),
        sa.Column("reason", sa.String(length=500), nullable=False),
        sa.Column("decision", sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("tournament_id", "player_id"),
    )


def downgrade() -> None:
    op.drop_table("withdrawals")
    op.drop_table("arbiters")
    op.drop_table("tournaments")
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("corrections")
        batch_op.drop_column("decision")
        batch_op.drop_column("claims")
        batch_op.drop_column("rated")
