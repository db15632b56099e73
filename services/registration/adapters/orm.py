"""Registration's tables. The schema changes only through the Alembic migrations beside this package."""

from __future__ import annotations

import sqlalchemy as sa

from shared.http.idempotency import idempotency_table
from shared.messaging.tables import messaging_tables

metadata = sa.MetaData()
outbox, inbox = messaging_tables(metadata)
idempotency_keys = idempotency_table(metadata)

accounts = sa.Table(
    "accounts",
    metadata,
    sa.Column("id", sa.Uuid(), primary_key=True),
    sa.Column("name", sa.String(100), nullable=False),
    sa.Column("kind", sa.String(20), nullable=False),
    sa.Column("ratings", sa.JSON(), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)

tournaments = sa.Table(
    "tournaments",
    metadata,
    sa.Column("id", sa.Uuid(), primary_key=True),
    sa.Column("organiser_id", sa.Uuid(), nullable=False),
    sa.Column("name", sa.String(200), nullable=False),
    sa.Column("starts_at", sa.DateTime(timezone=True), nullable=True),  # a knockout draft has none
    sa.Column("base_seconds", sa.Integer(), nullable=False),
    sa.Column("increment_seconds", sa.Integer(), nullable=False),
    sa.Column("days_per_move", sa.Integer(), nullable=True),
    sa.Column("seats", sa.Integer(), nullable=False),
    sa.Column("minimum", sa.Integer(), nullable=False),
    sa.Column("threshold", sa.Integer(), nullable=False),
    sa.Column("ruleset", sa.String(40), nullable=False),
    sa.Column("variant", sa.String(40), nullable=False),
    sa.Column("double_rounds", sa.Boolean(), nullable=False),
    sa.Column("extra_round", sa.Boolean(), nullable=False),
    sa.Column("rated", sa.Boolean(), nullable=False),
    sa.Column("min_rating", sa.Integer(), nullable=True),
    sa.Column("password_hash", sa.String(200), nullable=True),
    sa.Column("status", sa.String(20), nullable=False),
    sa.Column("status_reason", sa.Text(), nullable=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("knockout", sa.JSON(), nullable=True),  # the format of a knockout or double knockout
    sa.Index("ix_tournaments_due", "status", "starts_at"),
    # one running `platform` competition per organiser, whatever the races
    sa.Index(
        "uq_tournaments_running_organiser",
        "organiser_id",
        unique=True,
        postgresql_where=sa.text("status IN ('scheduled', 'started') AND ruleset = 'platform'"),
        sqlite_where=sa.text("status IN ('scheduled', 'started') AND ruleset = 'platform'"),
    ),
)

entries = sa.Table(
    "entries",
    metadata,
    sa.Column(
        "tournament_id", sa.Uuid(), sa.ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    ),
    sa.Column("player_id", sa.Uuid(), primary_key=True),
    sa.Column("name", sa.String(100), nullable=False),
    sa.Column("rating", sa.Integer(), nullable=True),
    sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
)
