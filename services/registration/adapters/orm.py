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
    sa.Column("byes_on_request", sa.Boolean(), nullable=False, server_default=sa.false()),
    sa.Column("fide", sa.JSON(), nullable=True),  # the settings of a fide-rapid event
    # fide-rapid: the last round pairing announced (round.paired); late entries play from the next
    sa.Column("rounds_paired", sa.Integer(), nullable=False, server_default="0"),
    # platform: the opening option (RULES.md §2) and why it is friendly (or rated despite its opening)
    sa.Column("opening", sa.String(60), nullable=False, server_default="free"),
    sa.Column("rated_reason", sa.Text(), nullable=True),
    sa.Column("duration_minutes", sa.Integer(), nullable=True),  # platform: the announced duration
    sa.Column("arena_minutes", sa.Integer(), nullable=True),  # an arena's duration
    sa.Column("group_playoff", sa.JSON(), nullable=True),  # the settings of a group-playoff event
    # the roster changes it published (player.joined, .left, .paused, .withdrawn, tournament.started): each
    # carries the revision it produced, for the commands of other services that must follow it
    sa.Column("roster_revision", sa.Integer(), nullable=False, server_default="0"),
    sa.Index("ix_tournaments_due", "status", "starts_at"),
    # one running `platform` competition (tournament or arena) per organiser, whatever the races
    sa.Index(
        "uq_tournaments_running_organiser",
        "organiser_id",
        unique=True,
        postgresql_where=sa.text("status IN ('scheduled', 'started') AND ruleset IN ('platform', 'arena')"),
        sqlite_where=sa.text("status IN ('scheduled', 'started') AND ruleset IN ('platform', 'arena')"),
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
    # after the start: 'withdrawn' or 'excluded' (RULES.md §4, §5), for good; before a fide-rapid event's
    # start, 'unconfirmed' until an official confirms an account's entry
    sa.Column("standing", sa.String(20), nullable=False, server_default="active"),
    sa.Column("withdrawn_at", sa.DateTime(timezone=True), nullable=True),
    sa.Column("withdrawal_reason", sa.String(500), nullable=True),
    # fide-rapid: a person entered by hand (no account), their FIDE data, a late entry's first round
    sa.Column("by_hand", sa.Boolean(), nullable=False, server_default=sa.false()),
    sa.Column("fide_id", sa.Integer(), nullable=True),
    sa.Column("federation", sa.String(3), nullable=True),
    sa.Column("title", sa.String(3), nullable=True),
    sa.Column("sex", sa.String(1), nullable=True),
    sa.Column("birth_year", sa.Integer(), nullable=True),
    sa.Column("rating_standard", sa.Integer(), nullable=True),
    sa.Column("rating_rapid", sa.Integer(), nullable=True),
    sa.Column("from_round", sa.Integer(), nullable=True),
    # arena: out of the waiting pool (paused, or left after the start) until they join again
    sa.Column("paused", sa.Boolean(), nullable=False, server_default=sa.false()),
    # group-playoff: false when the player cannot create games themselves (ranks after all others)
    sa.Column("creates_games", sa.Boolean(), nullable=False, server_default=sa.true()),
    # one player per FIDE id in an event, whatever the races
    sa.Index(
        "uq_entries_fide_id",
        "tournament_id",
        "fide_id",
        unique=True,
        postgresql_where=sa.text("fide_id IS NOT NULL"),
        sqlite_where=sa.text("fide_id IS NOT NULL"),
    ),
)

# the arbiters each tournament's organiser appointed: for the whole tournament (games NULL) or named games
arbiters = sa.Table(
    "arbiters",
    metadata,
    sa.Column(
        "tournament_id", sa.Uuid(), sa.ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    ),
    sa.Column("account_id", sa.Uuid(), primary_key=True),
    sa.Column("name", sa.String(100), nullable=False),
    sa.Column("games", sa.JSON(), nullable=True),
    sa.Column("appointed_at", sa.DateTime(timezone=True), nullable=False),
)

# every decision taken in a tournament, appended and never changed (the audit log). No foreign key: a
# decision another service reports is kept whatever registration knows of its tournament.
audit_log = sa.Table(
    "audit_log",
    metadata,
    sa.Column(
        "id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), primary_key=True, autoincrement=True
    ),
    sa.Column("tournament_id", sa.Uuid(), nullable=False),
    sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("by", sa.Uuid(), nullable=False),
    sa.Column("role", sa.String(20), nullable=False),
    sa.Column("kind", sa.String(40), nullable=False),
    sa.Column("subject_kind", sa.String(20), nullable=False),
    sa.Column("subject_id", sa.Uuid(), nullable=True),
    sa.Column("subject_round", sa.Integer(), nullable=True),
    sa.Column("detail", sa.Text(), nullable=False),
    sa.Column("reason", sa.String(500), nullable=True),
    sa.Index("ix_audit_log_tournament", "tournament_id", "at", "id"),
)

# Glicko-2 ratings per account and `<variant>:<speed>` key (RULES.md §2); accounts.ratings keeps the shown
# (rounded) value beside them for floors and seeding
glicko_ratings = sa.Table(
    "glicko_ratings",
    metadata,
    sa.Column("account_id", sa.Uuid(), primary_key=True),
    sa.Column("key", sa.String(60), primary_key=True),
    sa.Column("rating", sa.Float(), nullable=False),
    sa.Column("deviation", sa.Float(), nullable=False),
    sa.Column("volatility", sa.Float(), nullable=False),
    sa.Column("games", sa.Integer(), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
)

# every finished game registration heard of, once: whether it moved ratings, and why
rated_games = sa.Table(
    "rated_games",
    metadata,
    sa.Column("game_id", sa.Uuid(), primary_key=True),
    sa.Column("tournament_id", sa.Uuid(), nullable=False),
    sa.Column("key", sa.String(60), nullable=False),
    sa.Column("rated", sa.Boolean(), nullable=False),
    sa.Column("reason", sa.String(200), nullable=False),
    sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
)

# a private tournament's invite links (RULES.md §2), revocable by its organiser
invite_links = sa.Table(
    "invite_links",
    metadata,
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
