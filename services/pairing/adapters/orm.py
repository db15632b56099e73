"""Pairing's tables. The primary key of ``rounds`` (tournament, number) is what guarantees that a
round is paired once, however many workers race for it."""

from __future__ import annotations

import sqlalchemy as sa

from shared.messaging.tables import messaging_tables

metadata = sa.MetaData()
outbox, inbox = messaging_tables(metadata)

tournaments = sa.Table(
    "tournaments",
    metadata,
    sa.Column("id", sa.Uuid(), primary_key=True),
    sa.Column("organiser_id", sa.Uuid(), nullable=False),
    sa.Column("name", sa.String(200), nullable=False),
    sa.Column("ruleset", sa.String(40), nullable=False),
    sa.Column("system", sa.String(20), nullable=False),
    sa.Column("total_rounds", sa.Integer(), nullable=False),
    sa.Column("double_cycle", sa.Boolean(), nullable=False),
    sa.Column("double_rounds", sa.Boolean(), nullable=False),
    sa.Column("time_control", sa.JSON(), nullable=False),
    sa.Column("status", sa.String(20), nullable=False),
    sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
    # players may ask for a zero-point bye before a round is paired (a Swiss whose settings offer it)
    sa.Column("byes_on_request", sa.Boolean(), nullable=False, server_default=sa.false()),
    # platform: the variant and the opening option, each round's openings drawn when it is paired
    sa.Column("variant", sa.String(40), nullable=False, server_default="chess"),
    sa.Column("opening", sa.String(60), nullable=False, server_default="free"),
    sa.Column("ends_at", sa.DateTime(timezone=True), nullable=True),  # start + announced duration
    # fide-rapid: paired on the arbiters' command; {acceleration, late_entry_bye} (null: any other ruleset)
    sa.Column("fide", sa.JSON(), nullable=True),
)

players = sa.Table(
    "players",
    metadata,
    sa.Column(
        "tournament_id", sa.Uuid(), sa.ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    ),
    sa.Column("seed", sa.Integer(), primary_key=True),
    sa.Column("player_id", sa.Uuid(), nullable=False),
    sa.Column("name", sa.String(100), nullable=False),
    sa.Column("rating", sa.Integer(), nullable=True),
    # a player who left the started tournament for good (player.withdrawn): withdrawn, or excluded
    sa.Column("withdrawn_at", sa.DateTime(timezone=True), nullable=True),
    sa.Column("excluded", sa.Boolean(), nullable=True),
    sa.Column("withdrawal_reason", sa.String(500), nullable=True),
    sa.Column("from_round", sa.Integer(), nullable=True),  # a late entry (fide-rapid): its first round
    sa.UniqueConstraint("tournament_id", "player_id", name="uq_players_tournament_player"),
)

rounds = sa.Table(
    "rounds",
    metadata,
    sa.Column(
        "tournament_id", sa.Uuid(), sa.ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    ),
    sa.Column("number", sa.Integer(), primary_key=True),
    sa.Column("paired_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("completed_at", sa.DateTime(timezone=True), nullable=True),
    # public since (platform rounds: when paired; knockout rounds: when their organiser publishes them)
    sa.Column("published_at", sa.DateTime(timezone=True), nullable=True),
)

games = sa.Table(
    "games",
    metadata,
    sa.Column("game_id", sa.Uuid(), primary_key=True),
    sa.Column("tournament_id", sa.Uuid(), nullable=False),
    sa.Column("round", sa.Integer(), nullable=False),
    sa.Column("board", sa.Integer(), nullable=False),
    sa.Column("leg", sa.Integer(), nullable=False),
    sa.Column("white_seed", sa.Integer(), nullable=False),
    sa.Column("black_seed", sa.Integer(), nullable=False),
    sa.Column("outcome", sa.String(10), nullable=True),
    sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
    sa.Column("reason", sa.String(40), nullable=True),  # why it ended (default_time: an absence)
    # a knockout match's game: its match, number in the match, kind, tie-break stage, own time control
    sa.Column("match_id", sa.String(40), nullable=True),
    sa.Column("number", sa.Integer(), nullable=True),
    sa.Column("kind", sa.String(20), nullable=True),
    sa.Column("stage", sa.Integer(), nullable=True),
    sa.Column("label", sa.String(80), nullable=True),
    sa.Column("time_control", sa.JSON(), nullable=True),
    sa.Column("cancelled_at", sa.DateTime(timezone=True), nullable=True),  # the match no longer needed it
    sa.Column("opening", sa.JSON(), nullable=True),  # {code, moves, fen}: the drawn opening; null: free
    # a cancelled game its match needed again after a correction: the game paired in its place
    sa.Column("replaced_by", sa.Uuid(), nullable=True),
    sa.ForeignKeyConstraint(
        ["tournament_id", "round"], ["rounds.tournament_id", "rounds.number"], ondelete="CASCADE"
    ),
    sa.Index("ix_games_round", "tournament_id", "round"),
)

byes = sa.Table(
    "byes",
    metadata,
    sa.Column("tournament_id", sa.Uuid(), primary_key=True),
    sa.Column("round", sa.Integer(), primary_key=True),
    sa.Column("seed", sa.Integer(), primary_key=True),
    sa.Column("kind", sa.String(30), nullable=False),
    sa.ForeignKeyConstraint(
        ["tournament_id", "round"], ["rounds.tournament_id", "rounds.number"], ondelete="CASCADE"
    ),
)

# A knockout's bracket: the engine's state (``Bracket.to_dict()``: format, players, options, results),
# the seed list (kind, order, draw seed: ``eliminations.seed_list_json``) and the match format (regular games, time control, tie-break plan).
brackets = sa.Table(
    "brackets",
    metadata,
    sa.Column(
        "tournament_id", sa.Uuid(), sa.ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    ),
    sa.Column("state", sa.JSON(), nullable=False),
    sa.Column("seeding", sa.JSON(), nullable=False),
    sa.Column("match_format", sa.JSON(), nullable=False),
    sa.Column("restarts", sa.Integer(), nullable=False, server_default="0"),  # resets before this start
)

# The matches paired: service round and board, the seeds in the two slots, the slot with White in the
# first game (drawn), and how the match was decided (its winner is in the bracket's state).
matches = sa.Table(
    "matches",
    metadata,
    sa.Column("tournament_id", sa.Uuid(), primary_key=True),
    sa.Column("match_id", sa.String(40), primary_key=True),
    sa.Column("round", sa.Integer(), nullable=False),
    sa.Column("board", sa.Integer(), nullable=False),
    sa.Column("seed_a", sa.Integer(), nullable=False),
    sa.Column("seed_b", sa.Integer(), nullable=False),
    sa.Column("first_white", sa.Integer(), nullable=False),
    sa.Column("how", sa.String(20), nullable=True),
    sa.Column("decided_at", sa.DateTime(timezone=True), nullable=True),
    # how many times it was decided (its first decision, then each after a correction): match.decided's revision
    sa.Column("decisions", sa.Integer(), nullable=False, server_default="0"),
    sa.ForeignKeyConstraint(
        ["tournament_id", "round"], ["rounds.tournament_id", "rounds.number"], ondelete="CASCADE"
    ),
)


def decision_columns() -> list[sa.Column[object]]:
    """Who decided, in what capacity, when and why."""
    return [
        sa.Column("decided_by", sa.Uuid(), nullable=False),
        sa.Column("role", sa.String(20), nullable=False),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("reason", sa.String(500), nullable=True),
    ]


# Zero-point byes asked for a round before it was paired (RULES.md §6): who decided, as what, when, why.
# What each reset of a knockout to its draft removed (its tournament's rows are gone): when, and the games.
# News of them that comes after the reset is settled, not waited for (shared.resets).
resets = sa.Table(
    "resets",
    metadata,
    sa.Column("tournament_id", sa.Uuid(), primary_key=True),
    sa.Column("start", sa.Integer(), primary_key=True),  # the start it undid: the resets before it
    sa.Column("reset_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("games", sa.JSON(), nullable=False),  # the game ids, as strings
)

bye_requests = sa.Table(
    "bye_requests",
    metadata,
    sa.Column(
        "tournament_id", sa.Uuid(), sa.ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    ),
    sa.Column("round", sa.Integer(), primary_key=True),
    sa.Column("seed", sa.Integer(), primary_key=True),
    *decision_columns(),
)

# Absences (losses at the default time) an arbiter excused before the next pairing was published
# (fide-rapid, RULES.md §6): the player is paired again.
excused_absences = sa.Table(
    "excused_absences",
    metadata,
    sa.Column(
        "tournament_id", sa.Uuid(), sa.ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    ),
    sa.Column("round", sa.Integer(), primary_key=True),
    sa.Column("seed", sa.Integer(), primary_key=True),
    *decision_columns(),
)

# The arbiters each tournament's organiser appointed (arbiter.appointed / arbiter.revoked): the latest
# decision about each, by its time. No foreign key: appointments may arrive before the tournament starts
# here, and they outlive a knockout reset to its draft.
arbiters = sa.Table(
    "arbiters",
    metadata,
    sa.Column("tournament_id", sa.Uuid(), primary_key=True),
    sa.Column("arbiter_id", sa.Uuid(), primary_key=True),
    sa.Column("games", sa.JSON(), nullable=True),  # null: the whole tournament
    sa.Column("active", sa.Boolean(), nullable=False),
    sa.Column("decided_at", sa.DateTime(timezone=True), nullable=False),
)

# What pairing has heard of each tournament's roster (domain/roster.py): every roster revision up to
# ``revision``, and those heard beyond a gap (``ahead``, a JSON list). No foreign key: a roster change may
# arrive before the tournament starts here, and the row outlives a knockout reset to its draft.
roster_revisions = sa.Table(
    "roster_revisions",
    metadata,
    sa.Column("tournament_id", sa.Uuid(), primary_key=True),
    sa.Column("revision", sa.Integer(), nullable=False),
    sa.Column("ahead", sa.JSON(), nullable=False),
)

# arenas (RULES.md §3, docs/arena.md): the row the workers pair by, its entries, and every game a pass
# made; the waiting pool itself is in Redis (adapters/arena_pool.py), a cache rebuilt from these three
# when Redis loses it (domain/arena/record.py)
arenas = sa.Table(
    "arenas",
    metadata,
    sa.Column("id", sa.Uuid(), primary_key=True),
    sa.Column("organiser_id", sa.Uuid(), nullable=False),
    sa.Column("name", sa.String(200), nullable=False),
    sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("ends_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("base_seconds", sa.Integer(), nullable=False),
    sa.Column("increment_seconds", sa.Integer(), nullable=False),
    sa.Column("completed_at", sa.DateTime(timezone=True), nullable=True),
    sa.Column("variant", sa.String(40), nullable=False, server_default="chess"),  # the board its games use
    sa.Index("ix_arenas_open", "completed_at"),
)

arena_games = sa.Table(
    "arena_games",
    metadata,
    sa.Column("game_id", sa.Uuid(), primary_key=True),  # a game handed on twice is made once
    sa.Column("arena_id", sa.Uuid(), sa.ForeignKey("arenas.id", ondelete="CASCADE"), nullable=False),
    sa.Column("white", sa.Uuid(), nullable=False),
    sa.Column("black", sa.Uuid(), nullable=False),
    sa.Column("paired_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("outcome", sa.String(8), nullable=True),  # None while it runs
    sa.Column("white_boost", sa.Boolean(), nullable=False, server_default=sa.false()),
    sa.Column("black_boost", sa.Boolean(), nullable=False, server_default=sa.false()),
    sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
    sa.Index("ix_arena_games_arena", "arena_id", "ended_at"),
    sa.Index(
        "ix_arena_games_running",
        "arena_id",
        postgresql_where=sa.text("outcome IS NULL"),
        sqlite_where=sa.text("outcome IS NULL"),
    ),
)

# who is in an arena: joined (active), paused or left, since when, with the rating they joined with
arena_entries = sa.Table(
    "arena_entries",
    metadata,
    sa.Column("arena_id", sa.Uuid(), sa.ForeignKey("arenas.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("player_id", sa.Uuid(), primary_key=True),
    sa.Column("status", sa.String(8), nullable=False),  # active | paused | left
    sa.Column("since", sa.DateTime(timezone=True), nullable=False),  # when they last came in
    sa.Column("rating", sa.Integer(), nullable=True),  # None: never joined, only sent away
)

# the games anywhere in Arbiter that have started and not ended, per player: the record of the in-game
# markers, so an arena whose pool is rebuilt keeps a player who is playing elsewhere out of its pairs
playing = sa.Table(
    "playing",
    metadata,
    sa.Column("player_id", sa.Uuid(), primary_key=True),
    sa.Column("game_id", sa.Uuid(), primary_key=True),
)

# A group-playoff event (4T1, RULES.md §5): its whole state as one document
# (``GroupPlayoffTournament.to_dict()``: heading, players, groups' lot, matches and games, lots,
# deadlines); its head row in ``tournaments`` carries the row lock and the system.
group_playoffs = sa.Table(
    "group_playoffs",
    metadata,
    sa.Column(
        "tournament_id", sa.Uuid(), sa.ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    ),
    sa.Column("state", sa.JSON(), nullable=False),
)
