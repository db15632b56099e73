"""arenas: players, games in progress and finished games

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01 14:00:00

An arena's standings (RULES.md §3): its row (with when it completed: the final ranking is frozen then),
its players, and its games — in progress (no outcome) or finished with their boosts. New tables only.
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "arenas",
        sa.Column("id", sa.Uuid(), primary_key=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ends_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("completed_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_table(
        "arena_players",
        sa.Column("arena_id", sa.Uuid(), sa.ForeignKey("arenas.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("player_id", sa.Uuid(), primary_key=True),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("rating", sa.Integer(), nullable=True),
    )
    op.create_table(
        "arena_games",
        sa.Column("game_id", sa.Uuid(), primary_key=True),
        sa.Column("arena_id", sa.Uuid(), sa.ForeignKey("arenas.id", ondelete="CASCADE"), nullable=False),
        sa.Column("white", sa.Uuid(), nullable=False),
        sa.Column("black", sa.Uuid(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("outcome", sa.String(8), nullable=True),
        sa.Column("white_boost", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("black_boost", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_arena_games_arena", "arena_games", ["arena_id"])


def downgrade() -> None:
    op.drop_index("ix_arena_games_arena", table_name="arena_games")
    op.drop_table("arena_games")
    op.drop_table("arena_players")
    op.drop_table("arenas")
