"""Clocks' tables. The schema changes only through the Alembic migrations beside this package.

The game row carries the clock's state, and its ``deadline`` (when the side to move loses on time) as an
indexed column: the database stays authoritative, and the ticker can sweep it for overdue games even
if the deadline store (Redis) lost an entry.
"""

from __future__ import annotations

import sqlalchemy as sa

from shared.messaging.tables import messaging_tables

metadata = sa.MetaData()
outbox, inbox = messaging_tables(metadata)

games = sa.Table(
    "games",
    metadata,
    sa.Column("id", sa.Uuid(), primary_key=True),  # the pairing's game id: creating twice is impossible
    sa.Column("tournament_id", sa.Uuid(), nullable=False),
    sa.Column("organiser_id", sa.Uuid(), nullable=False),
    sa.Column("round", sa.Integer(), nullable=False),
    sa.Column("board", sa.Integer(), nullable=False),
    sa.Column("leg", sa.Integer(), nullable=False),
    sa.Column("white", sa.Uuid(), nullable=False),
    sa.Column("black", sa.Uuid(), nullable=False),
    sa.Column("base_seconds", sa.Integer(), nullable=False),
    sa.Column("increment_seconds", sa.Integer(), nullable=False),
    sa.Column("days_per_move", sa.Integer(), nullable=True),
    sa.Column("status", sa.String(20), nullable=False),
    sa.Column("clock_state", sa.String(20), nullable=False),
    sa.Column("to_move", sa.String(5), nullable=True),
    sa.Column("white_ms", sa.BigInteger(), nullable=False),
    sa.Column("black_ms", sa.BigInteger(), nullable=False),
    sa.Column("turn_started_at", sa.DateTime(timezone=True), nullable=True),
    sa.Column("flagged", sa.String(5), nullable=True),
    sa.Column("deadline", sa.DateTime(timezone=True), nullable=True),
    sa.Column("moves", sa.Integer(), nullable=False),
    sa.Column("white_moved", sa.Boolean(), nullable=False),
    sa.Column("black_moved", sa.Boolean(), nullable=False),
    sa.Column("outcome", sa.String(10), nullable=True),
    sa.Column("reason", sa.String(40), nullable=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
    sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
    # knockouts: the match the game belongs to, its number and name there; unreleased while its round
    # is unpublished
    sa.Column("match_id", sa.String(40), nullable=True),
    sa.Column("match_game", sa.Integer(), nullable=True),
    sa.Column("label", sa.String(80), nullable=True),
    sa.Column("released", sa.Boolean(), nullable=False, server_default=sa.true()),
    # false: a knockout's tie-break or sudden-death game
    sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.true()),
    # players' results awaiting the opponent (or, disputed, the arbiter): {side: {outcome, reason, at}}
    sa.Column("claims", sa.JSON(none_as_null=True), nullable=True),
    # who entered the result, if someone decided it: {by, role, at, reason}
    sa.Column("decision", sa.JSON(none_as_null=True), nullable=True),
    # the result's corrections, oldest first: [{old_outcome, outcome, decision}]
    sa.Column("corrections", sa.JSON(none_as_null=True), nullable=True),
    # false over the board: the boards keep the time, the server runs no clock for the game
    sa.Column("server_clock", sa.Boolean(), nullable=False, server_default=sa.true()),
    # server clocks: a player with no first move this long after the start loses by forfeit
    sa.Column("default_time_seconds", sa.Integer(), nullable=True),
    # penalties, oldest first: [{at, kind, player_id, occurrence, consequence, decision, white_ms, black_ms}]
    sa.Column("incidents", sa.JSON(none_as_null=True), nullable=True),
    # the board (RULES.md §2): the variant, the drawn opening it starts from ({code, moves, fen}; null:
    # free), the position now (FEN; null: the start) and the moves reported with their text
    sa.Column("variant", sa.String(40), nullable=False, server_default="chess"),
    sa.Column("opening", sa.JSON(none_as_null=True), nullable=True),
    sa.Column("position", sa.String(200), nullable=True),
    sa.Column("line", sa.JSON(none_as_null=True), nullable=True),
    # a platform tournament's close (its duration plus ten minutes): the game is drawn then if still open
    sa.Column("closes_at", sa.DateTime(timezone=True), nullable=True),
    # a player disconnected after their first move (white | black), and by when they must be back
    sa.Column("away", sa.String(5), nullable=True),
    sa.Column("back_by", sa.DateTime(timezone=True), nullable=True),
    # an arena's game (RULES.md §3): the players may take the boost; the sides that took it (white,black)
    sa.Column("arena", sa.Boolean(), nullable=False, server_default=sa.false()),
    sa.Column("boosted", sa.String(20), nullable=True),
    # its tournament's ruleset when the game was created (null: not known then), which its result is
    # routed by (game.finished.<ruleset>)
    sa.Column("ruleset", sa.String(40), nullable=True),
    # a double round's leg 1: the pairing's leg 2, which waits and starts when this game ends
    sa.Column("next_leg", sa.Uuid(), nullable=True),
    sa.Index("ix_games_tournament_round", "tournament_id", "round", "board"),
    sa.Index(
        "ix_games_deadline",
        "deadline",
        postgresql_where=sa.text("deadline IS NOT NULL"),
        sqlite_where=sa.text("deadline IS NOT NULL"),
    ),
)

# Every change of every clock, in order: the audit trail (and enough to rebuild the clock state).
clock_changes = sa.Table(
    "clock_changes",
    metadata,
    sa.Column(
        "id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), primary_key=True, autoincrement=True
    ),
    sa.Column("game_id", sa.Uuid(), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
    sa.Column("kind", sa.String(20), nullable=False),
    sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("reason", sa.String(40), nullable=False),
    sa.Column("side", sa.String(5), nullable=True),
    sa.Column("delta_ms", sa.BigInteger(), nullable=False),
    sa.Index("ix_clock_changes_game", "game_id", "id"),
)

# What is known of each tournament beyond its games: from tournament.started (organiser, ruleset, timing;
# null until it arrives), arbiter.appointed/revoked and player.withdrawn, whichever comes first.
tournaments = sa.Table(
    "tournaments",
    metadata,
    sa.Column("id", sa.Uuid(), primary_key=True),
    sa.Column("organiser_id", sa.Uuid(), nullable=True),
    sa.Column("ruleset", sa.String(40), nullable=True),
    # who keeps the time (fide.clocks: server | board; null: the server) and the default time in minutes
    sa.Column("clocks", sa.String(10), nullable=True),
    sa.Column("default_time_minutes", sa.Integer(), nullable=True),
    # platform: when it closes (its announced duration plus ten minutes); null: no duration
    sa.Column("closes_at", sa.DateTime(timezone=True), nullable=True),
    # a knockout's resets to its draft: [{at, games}] (shared.resets); null: none
    sa.Column("resets", sa.JSON(none_as_null=True), nullable=True),
)

# Each arbiter's standing as last decided by the organiser (revoked ones kept, so an older appointment
# arriving late cannot bring them back).
arbiters = sa.Table(
    "arbiters",
    metadata,
    sa.Column(
        "tournament_id", sa.Uuid(), sa.ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    ),
    sa.Column("arbiter_id", sa.Uuid(), primary_key=True),
    sa.Column(
        "games", sa.JSON(none_as_null=True), nullable=True
    ),  # null: the whole tournament; else a list of game ids
    sa.Column("decided_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("revoked", sa.Boolean(), nullable=False),
)

withdrawals = sa.Table(
    "withdrawals",
    metadata,
    sa.Column(
        "tournament_id", sa.Uuid(), sa.ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    ),
    sa.Column("player_id", sa.Uuid(), primary_key=True),
    sa.Column("excluded", sa.Boolean(), nullable=False),
    sa.Column("reason", sa.String(500), nullable=False),
    sa.Column("decision", sa.JSON(none_as_null=True), nullable=True),  # {by, role, at, reason}
)

# what the game server last reported of each player's presence (RULES.md §2 "Absence")
presence = sa.Table(
    "presence",
    metadata,
    sa.Column("player_id", sa.Uuid(), primary_key=True),
    sa.Column("status", sa.String(20), nullable=False),  # connected | disconnected | busy
    sa.Column("at", sa.DateTime(timezone=True), nullable=False),
)
