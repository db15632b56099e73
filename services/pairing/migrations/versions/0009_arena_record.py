"""the record an arena's pool is rebuilt from

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02 10:00:00

The arena's waiting pool lives in Redis; with Redis losing its data the arenas stopped pairing for good
(issue 22). What the pool held that the database did not know is kept here now, so a lost pool is rebuilt
from the database: who is in each arena (``arena_entries``: active, paused or left, since when, the rating
they joined with) and who is in a game anywhere in Arbiter (``playing``: the record of the in-game
markers). ``ix_arena_games_running`` finds the games still running. New tables and an index only; the
arenas running during the upgrade record their entries from then on (their players who joined before
are known to Redis only).
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "arena_entries",
        sa.Column("arena_id", sa.Uuid(), sa.ForeignKey("arenas.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("player_id", sa.Uuid(), primary_key=True),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("since", sa.DateTime(timezone=True), nullable=False),
        sa.Column("rating", sa.Integer(), nullable=True),
    )
    op.create_table(
        "playing",
        sa.Column("player_id", sa.Uuid(), primary_key=True),
        sa.Column("game_id", sa.Uuid(), primary_key=True),
    )
    op.create_index(
        "ix_arena_games_running",
        "arena_games",
        ["arena_id"],
        postgresql_where=sa.text("outcome IS NULL"),
        sqlite_where=sa.text("outcome IS NULL"),
    )


def downgrade() -> None:
    op.drop_index("ix_arena_games_running", table_name="arena_games")
    op.drop_table("playing")
    op.drop_table("arena_entries")
