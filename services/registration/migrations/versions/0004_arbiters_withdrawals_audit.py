"""arbiters, withdrawals, the audit log, byes on request

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01 11:00:00

Results under the arbiter's authority: the arbiters each organiser appoints (for the whole tournament or
named games), players withdrawn or excluded after the start (kept on the roster, marked), every decision
in an append-only audit log per tournament, and the ``byes_on_request`` setting. Existing rows: every
entry is active, no tournament takes requested byes.
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("byes_on_request", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    with op.batch_alter_table("entries", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("standing", sa.String(length=20), nullable=False, server_default="active")
        )
        batch_op.add_column(sa.Column("withdrawn_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("withdrawal_reason", sa.String(length=500), nullable=True))
    op.create_table(
        "arbiters",
        sa.Column("tournament_id", sa.Uuid(), nullable=False),
        sa.Column("account_id", sa.Uuid(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("games", sa.JSON(), nullable=True),
        sa.Column("appointed_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("tournament_id", "account_id"),
    )
    op.create_table(
        "audit_log",
        sa.Column(
            "id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=True, nullable=False
        ),
        sa.Column("tournament_id", sa.Uuid(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("by", sa.Uuid(), nullable=False),
        sa.Column("role", sa.String(length=20), nullable=False),
        sa.Column("kind", sa.String(length=40), nullable=False),
        sa.Column("subject_kind", sa.String(length=20), nullable=False),
        sa.Column("subject_id", sa.Uuid(), nullable=True),
        sa.Column("subject_round", sa.Integer(), nullable=True),
        sa.Column("detail", sa.Text(), nullable=False),
        sa.Column("reason", sa.String(length=500), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("audit_log", schema=None) as batch_op:
        batch_op.create_index("ix_audit_log_tournament", ["tournament_id", "at", "id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("audit_log", schema=None) as batch_op:
        batch_op.drop_index("ix_audit_log_tournament")
    op.drop_table("audit_log")
    op.drop_table("arbiters")
    with op.batch_alter_table("entries", schema=None) as batch_op:
        batch_op.drop_column("withdrawal_reason")
        batch_op.drop_column("withdrawn_at")
        batch_op.drop_column("standing")
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.drop_column("byes_on_request")
