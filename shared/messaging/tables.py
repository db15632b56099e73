"""The outbox and inbox tables every service database carries.

Defined once here and attached to each service's MetaData; each service's Alembic migrations
create them like its own tables.
"""

from __future__ import annotations

import sqlalchemy as sa


def messaging_tables(metadata: sa.MetaData) -> tuple[sa.Table, sa.Table]:
    outbox = sa.Table(
        "outbox",
        metadata,
        sa.Column(
            "id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), primary_key=True, autoincrement=True
        ),
        sa.Column("event_id", sa.Uuid(), nullable=False, unique=True),
        sa.Column("type", sa.String(80), nullable=False),
        sa.Column("tournament_id", sa.Uuid(), nullable=True),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("published_at", sa.DateTime(timezone=True), nullable=True),
        # the envelope's correlation id and the id of the event whose handler wrote it (shared.correlation)
        sa.Column("correlation_id", sa.String(128), nullable=True),
        sa.Column("causation_id", sa.Uuid(), nullable=True),
        sa.Index(
            "ix_outbox_unpublished",
            "id",
            postgresql_where=sa.text("published_at IS NULL"),
            sqlite_where=sa.text("published_at IS NULL"),
        ),
    )
    inbox = sa.Table(
        "inbox",
        metadata,
        sa.Column("event_id", sa.Uuid(), primary_key=True),
        sa.Column("handler", sa.String(120), primary_key=True),
        sa.Column("processed_at", sa.DateTime(timezone=True), nullable=False),
    )
    return outbox, inbox
