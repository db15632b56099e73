"""arenas and their games

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01 13:30:00

An arena's row (organiser, start, end, time control, when it completed) and every game its passes made
(``arena_games``, keyed by the game id so a game handed on again by a worker taking over is made once),
with its result and boosts once finished. The waiting pool is in Redis. New tables only.
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "arenas",
        sa.Column("id", sa.Uuid(), primary_key=True),
        sa.Column("organiser_id", sa.Uuid(), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ends_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("base_seconds", sa.Integer(), nullable=False),
        sa.Column("increment_seconds", sa.Integer(), nullable=False),
        sa.Column("completed_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_arenas_open", "arenas", ["completed_at"])
    op.create_table(
        "arena_games",
        sa.Column("game_id", sa.Uuid(), primary_key=True),
        sa.Column("arena_id", sa.Uuid(), sa.ForeignKey("arenas.id", ondelete="CASCADE"), nullable=False),
        sa.Column("white", sa.Uuid(), nullable=False),
        sa.Column("black", sa.Uuid(), nullable=False),
        sa.Column("paired_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("outcome", sa.String(8), nullable=True),
        sa.Column("white_boost", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("black_boost", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_arena_games_arena", "arena_games", ["arena_id", "ended_at"])


def downgrade() -> None:
    op.drop_index("ix_arena_games_arena", table_name="arena_games")
    op.drop_table("arena_games")
    op.drop_index("ix_arenas_open", table_name="arenas")
    op.drop_table("arenas")
