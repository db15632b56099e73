"""Openings, Glicko-2 ratings and invite links (issue 13)

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01 13:10:00

A `platform` tournament keeps its opening option (``tournaments.opening``, 'free' for every existing
row) and why it is friendly, or rated despite its opening (``rated_reason``, decided at creation), and
its announced duration (``duration_minutes``; none for existing rows).
Ratings are Glicko-2 per account and ``<variant>:<speed>`` key (``glicko_ratings``: rating, deviation,
volatility, games counted); the games already counted (``rated_games``) make a redelivered or
republished ``game.finished`` count once. A private tournament's invite links (``invite_links``) are
kept by their token, with who made them and when they were revoked or expire.
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.add_column(sa.Column("opening", sa.String(60), nullable=False, server_default="free"))
        batch_op.add_column(sa.Column("rated_reason", sa.Text(), nullable=True))
        batch_op.add_column(sa.Column("duration_minutes", sa.Integer(), nullable=True))
    op.create_table(
        "glicko_ratings",
        sa.Column("account_id", sa.Uuid(), primary_key=True),
        sa.Column("key", sa.String(60), primary_key=True),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("deviation", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "rated_games",
        sa.Column("game_id", sa.Uuid(), primary_key=True),
        sa.Column("tournament_id", sa.Uuid(), nullable=False),
        sa.Column("key", sa.String(60), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("reason", sa.String(200), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "invite_links",
        sa.Column("token", sa.String(100), primary_key=True),
        sa.Column(
            "tournament_id", sa.Uuid(), sa.ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("created_by", sa.Uuid(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True),
        sa.Index("ix_invite_links_tournament", "tournament_id"),
    )


def downgrade() -> None:
    op.drop_table("invite_links")
    op.drop_table("rated_games")
    op.drop_table("glicko_ratings")
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.drop_column("duration_minutes")
        batch_op.drop_column("rated_reason")
        batch_op.drop_column("opening")
