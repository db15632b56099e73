"""a game's ruleset, for routing its result

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01 20:10:00

Games: the ruleset of their tournament as clocks knew it when it created them, which a result is
published with (``game.finished.<ruleset>``, shared.events.QUALIFIERS), so that a queue that wants one
ruleset's results (the group-playoff page's) binds those alone. Existing rows: not known (null), whose
results go under the bare type as before, heard by every queue of ``game.finished``.
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("ruleset", sa.String(length=40), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("ruleset")
