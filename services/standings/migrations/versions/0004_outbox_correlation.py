"""outbox correlation

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01 11:00:00

Each outbox row keeps its envelope's correlation id and the id of the event whose handler wrote it
(shared/correlation.py), so an operator can follow one action through the table. Nullable: rows
written before this revision have neither.
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.add_column(sa.Column("correlation_id", sa.String(length=128), nullable=True))
        batch_op.add_column(sa.Column("causation_id", sa.Uuid(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.drop_column("causation_id")
        batch_op.drop_column("correlation_id")
