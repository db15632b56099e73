"""fide-rapid: profiles, late entries, penalties

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01 13:00:00

A `fide-rapid` event's settings the standings use (place, dates, late entries' byes) on the tournament;
each player's profile (FIDE id, federation, title, sex, birth year, ratings) and a late entry's first
round; a bye given for a late entry's missed round; every penalty an arbiter gave in a game
(``game.penalised``). Nullable or defaulted: rows written before have none of them.
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
        batch_op.add_column(sa.Column("profile", sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column("from_round", sa.Integer(), nullable=True))
    with op.batch_alter_table("byes", schema=None) as batch_op:
        batch_op.add_column(sa.Column("late", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_table(
        "incidents",
        sa.Column("game_id", sa.Uuid(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Uuid(), nullable=False),
        sa.Column("player_seed", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("occurrence", sa.Integer(), nullable=False),
        sa.Column("consequence", sa.String(20), nullable=False),
        sa.Column("reason", sa.String(500), nullable=True),
        sa.Column("role", sa.String(20), nullable=True),
        sa.Column("decided_by", sa.Uuid(), nullable=True),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.game_id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "number"),
    )
    op.create_index("ix_incidents_tournament", "incidents", ["tournament_id"])


def downgrade() -> None:
    op.drop_index("ix_incidents_tournament", table_name="incidents")
    op.drop_table("incidents")
    with op.batch_alter_table("byes", schema=None) as batch_op:
        batch_op.drop_column("late")
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.drop_column("from_round")
        batch_op.drop_column("profile")
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.drop_column("fide")
