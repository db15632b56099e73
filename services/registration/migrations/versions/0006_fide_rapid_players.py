"""fide-rapid events and their players

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02 10:00:00

A `fide-rapid` event keeps its settings in ``tournaments.fide`` and the last round pairing announced in
``rounds_paired`` (late entries play from the next). Its players are people the officials enter by hand
(``entries.by_hand``) or accounts they confirm (``standing`` 'unconfirmed' until then), with their FIDE
data in columns of their own, one player per FIDE id in an event (a partial unique index), and a late
entry's first round. Existing rows: no tournament has fide settings or a round paired (0), every entry
was made by an account and has no FIDE data.
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

FIDE_ID_KNOWN = "fide_id IS NOT NULL"


def upgrade() -> None:
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.add_column(sa.Column("fide", sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column("rounds_paired", sa.Integer(), nullable=False, server_default="0"))
    with op.batch_alter_table("entries", schema=None) as batch_op:
        batch_op.add_column(sa.Column("by_hand", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch_op.add_column(sa.Column("fide_id", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("federation", sa.String(length=3), nullable=True))
        batch_op.add_column(sa.Column("title", sa.String(length=3), nullable=True))
        batch_op.add_column(sa.Column("sex", sa.String(length=1), nullable=True))
        batch_op.add_column(sa.Column("birth_year", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("rating_standard", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("rating_rapid", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("from_round", sa.Integer(), nullable=True))
        batch_op.create_index(
            "uq_entries_fide_id",
            ["tournament_id", "fide_id"],
            unique=True,
            postgresql_where=sa.text(FIDE_ID_KNOWN),
            sqlite_where=sa.text(FIDE_ID_KNOWN),
        )


def downgrade() -> None:
    with op.batch_alter_table("entries", schema=None) as batch_op:
        batch_op.drop_index(
            "uq_entries_fide_id", postgresql_where=sa.text(FIDE_ID_KNOWN), sqlite_where=sa.text(FIDE_ID_KNOWN)
        )
        for column in (
            "from_round",
            "rating_rapid",
            "rating_standard",
            "birth_year",
            "sex",
            "title",
            "federation",
            "fide_id",
            "by_hand",
        ):
            batch_op.drop_column(column)
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.drop_column("rounds_paired")
        batch_op.drop_column("fide")
