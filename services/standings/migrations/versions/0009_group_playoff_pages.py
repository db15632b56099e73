"""A group-playoff event's page (issue 11)

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-08 10:00:00

The page of each group-playoff event, projected from its events, as one document: the players, the
announcements (groups, play-offs, lots, phases, deadlines, withdrawals), the matches and games with
their results, the placing.
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "group_playoff_pages",
        sa.Column("tournament_id", sa.Uuid(), primary_key=True),
        sa.Column("state", sa.JSON(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("group_playoff_pages")
