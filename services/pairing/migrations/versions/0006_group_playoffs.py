"""group-playoff events

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01 13:00:00

A group-playoff event's state is one JSON document per tournament (``group_playoffs``), next to its head
row in ``tournaments``.
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "group_playoffs",
        sa.Column("tournament_id", sa.Uuid(), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("tournament_id"),
    )


def downgrade() -> None:
    op.drop_table("group_playoffs")
