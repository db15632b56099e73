"""Rated or friendly, and openings, on the pages (issue 13)

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01 13:50:00

A tournament keeps whether it is rated (true for every existing row: friendly ones were not shown
before) and its opening option ('free'); each game the label of the opening drawn for it (its table
code or its moves; null: free, as every existing game).
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.add_column(sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.true()))
        batch_op.add_column(sa.Column("opening", sa.String(60), nullable=False, server_default="free"))
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("opening", sa.String(100), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("opening")
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.drop_column("opening")
        batch_op.drop_column("rated")
