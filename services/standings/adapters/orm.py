"""Standings' tables. The rows (players, rounds, games, byes) are the source of truth; the
tournament's ``snapshot`` is the table computed from them, as JSON, which the web reads as it is.
``revision`` counts the changes applied, so a consumer can tell whether the table it holds in
memory is the one the database has."""

from __future__ import annotations

import sqlalchemy as sa

from shared.messaging.tables import messaging_tables

metadata = sa.MetaData()
outbox, inbox = messaging_tables(metadata)

tournaments = sa.Table(
    "tournaments",
    metadata,
    sa.Column("id", sa.Uuid(), primary_key=True),
    sa.Column("name", sa.String(200), nullable=False),
    sa.Column("ruleset", sa.String(40), nullable=False),
    sa.Column("variant", sa.String(40), nullable=False),
    sa.Column("double_rounds", sa.Boolean(), nullable=False),
    # false: a friendly tournament; the opening option (RULES.md §2)
    sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.true()),
    sa.Column("opening", sa.String(60), nullable=False, server_default="free"),
    sa.Column("time_control", sa.JSON(), nullable=False),
    sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("system", sa.String(20), nullable=True),
    sa.Column("total_rounds", sa.Integer(), nullable=True),
    sa.Column("completed_at", sa.DateTime(timezone=True), nullable=True),
    sa.Column("revision", sa.Integer(), nullable=False),
    sa.Column("snapshot", sa.JSON(), nullable=False),
    sa.Column("knockout", sa.JSON(), nullable=True),  # a knockout's format settings
    sa.Column("placing", sa.JSON(), nullable=True),  # a knockout's final placing
    sa.Column("reset_at", sa.DateTime(timezone=True), nullable=True),  # a knockout back in its draft
    # every reset of a knockout to its draft: [{at, games removed}] (shared.resets); null: none
    sa.Column("resets", sa.JSON(none_as_null=True), nullable=True),
    sa.Column("fide", sa.JSON(), nullable=True),  # a fide-rapid event's settings
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
    # withdrawn or excluded (player.withdrawn): the status, why, when and who decided
    sa.Column("status", sa.String(10), nullable=True),
    sa.Column("status_reason", sa.String(500), nullable=True),
    sa.Column("status_at", sa.DateTime(timezone=True), nullable=True),
    sa.Column("status_role", sa.String(20), nullable=True),
    sa.Column("status_by", sa.Uuid(), nullable=True),
    sa.Column("profile", sa.JSON(), nullable=True),  # fide-rapid: FIDE id, federation, title, ...
    sa.Column("from_round", sa.Integer(), nullable=True),  # a late entry's first round
    sa.UniqueConstraint("tournament_id", "player_id", name="uq_players_tournament_player"),
)

rounds = sa.Table(
    "rounds",
    metadata,
    sa.Column(
        "tournament_id", sa.Uuid(), sa.ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    ),
    sa.Column("number", sa.Integer(), primary_key=True),
    sa.Column("published", sa.Boolean(), nullable=False),
    sa.Column("paired_at", sa.DateTime(timezone=True), nullable=False),
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
    sa.Column("reason", sa.String(40), nullable=True),
    sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
    sa.Column("match_id", sa.String(40), nullable=True),  # knockouts: the game's match, number, name
    sa.Column("number", sa.Integer(), nullable=True),
    sa.Column("label", sa.String(80), nullable=True),
    sa.Column("cancelled_at", sa.DateTime(timezone=True), nullable=True),
    sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.true()),
    sa.Column("opening", sa.String(100), nullable=True),  # the drawn opening's label; null: free
    sa.ForeignKeyConstraint(
        ["tournament_id", "round"], ["rounds.tournament_id", "rounds.number"], ondelete="CASCADE"
    ),
    sa.Index("ix_games_round", "tournament_id", "round"),
)

# Every correction of a game's result (game.result_corrected), in the order they were made.
corrections = sa.Table(
    "corrections",
    metadata,
    sa.Column("game_id", sa.Uuid(), sa.ForeignKey("games.game_id", ondelete="CASCADE"), primary_key=True),
    sa.Column("number", sa.Integer(), primary_key=True),
    sa.Column("tournament_id", sa.Uuid(), nullable=False),
    sa.Column("old_outcome", sa.String(10), nullable=False),
    sa.Column("outcome", sa.String(10), nullable=False),
    sa.Column("reason", sa.String(500), nullable=True),
    sa.Column("role", sa.String(20), nullable=True),
    sa.Column("decided_by", sa.Uuid(), nullable=True),
    sa.Column("decided_at", sa.DateTime(timezone=True), nullable=False),
    sa.Index("ix_corrections_tournament", "tournament_id"),
)

# Every penalty an arbiter gave in a game (game.penalised), in the order they were given.
incidents = sa.Table(
    "incidents",
    metadata,
    sa.Column("game_id", sa.Uuid(), sa.ForeignKey("games.game_id", ondelete="CASCADE"), primary_key=True),
    sa.Column("number", sa.Integer(), primary_key=True),
    sa.Column("tournament_id", sa.Uuid(), nullable=False),
    sa.Column("player_seed", sa.Integer(), nullable=False),
    sa.Column("kind", sa.String(20), nullable=False),
    sa.Column("occurrence", sa.Integer(), nullable=False),
    sa.Column("consequence", sa.String(20), nullable=False),
    sa.Column("reason", sa.String(500), nullable=True),
    sa.Column("role", sa.String(20), nullable=True),
    sa.Column("decided_by", sa.Uuid(), nullable=True),
    sa.Column("decided_at", sa.DateTime(timezone=True), nullable=False),
    sa.Index("ix_incidents_tournament", "tournament_id"),
)

byes = sa.Table(
    "byes",
    metadata,
    sa.Column("tournament_id", sa.Uuid(), primary_key=True),
    sa.Column("round", sa.Integer(), primary_key=True),
    sa.Column("seed", sa.Integer(), primary_key=True),
    sa.Column("kind", sa.String(30), nullable=False),
    sa.Column("late", sa.Boolean(), nullable=False, server_default=sa.false()),  # a late entry's missed round
    sa.ForeignKeyConstraint(
        ["tournament_id", "round"], ["rounds.tournament_id", "rounds.number"], ondelete="CASCADE"
    ),
)

# what the round to come leaves out (a Swiss): the zero-point byes asked for a round not paired yet
# (bye.requested; a bye taken back is deleted), and the absences an arbiter excused (absence.excused)
bye_requests = sa.Table(
    "bye_requests",
    metadata,
    sa.Column(
        "tournament_id", sa.Uuid(), sa.ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    ),
    sa.Column("round", sa.Integer(), primary_key=True),
    sa.Column("seed", sa.Integer(), primary_key=True),
)

excused_absences = sa.Table(
    "excused_absences",
    metadata,
    sa.Column(
        "tournament_id", sa.Uuid(), sa.ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    ),
    sa.Column("round", sa.Integer(), primary_key=True),
    sa.Column("seed", sa.Integer(), primary_key=True),
)

# A knockout round's matches, byes included (one empty slot, no board); the winner once decided.
matches = sa.Table(
    "matches",
    metadata,
    sa.Column("tournament_id", sa.Uuid(), primary_key=True),
    sa.Column("match_id", sa.String(40), primary_key=True),
    sa.Column("round", sa.Integer(), nullable=False),
    sa.Column("section", sa.String(20), nullable=False),
    sa.Column("section_round", sa.Integer(), nullable=False),
    sa.Column("number", sa.Integer(), nullable=False),
    sa.Column("board", sa.Integer(), nullable=True),
    sa.Column("seed_a", sa.Integer(), nullable=True),
    sa.Column("seed_b", sa.Integer(), nullable=True),
    sa.Column("first_white", sa.Integer(), nullable=True),
    sa.Column("winner", sa.Integer(), nullable=True),
    sa.Column("how", sa.String(20), nullable=True),
    sa.Column("decided_at", sa.DateTime(timezone=True), nullable=True),
    sa.Column("revision", sa.Integer(), nullable=True),  # the decision's (match.decided's revision)
    sa.ForeignKeyConstraint(
        ["tournament_id", "round"], ["rounds.tournament_id", "rounds.number"], ondelete="CASCADE"
    ),
)

# tournaments announced before their start (tournament.scheduled), for the index: who has entered so far
# (player.joined, player.left), whether it started or was cancelled since
announced = sa.Table(
    "announced",
    metadata,
    sa.Column("id", sa.Uuid(), primary_key=True),
    sa.Column("name", sa.String(200), nullable=False),
    sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("ruleset", sa.String(40), nullable=False),
    sa.Column("variant", sa.String(40), nullable=False),
    sa.Column("time_control", sa.JSON(), nullable=False),
    sa.Column("rated", sa.Boolean(), nullable=False),
    sa.Column("seats", sa.Integer(), nullable=False),
    sa.Column("arena", sa.Boolean(), nullable=False),
    sa.Column("entries", sa.JSON(), nullable=False),  # [{player_id, name, rating, title, federation}]
    sa.Column("started", sa.Boolean(), nullable=False),
    sa.Column("cancelled", sa.String(500), nullable=True),
    sa.Index("ix_announced_starts_at", "starts_at"),
)

# arenas (RULES.md §3): their players, games in progress and finished games; the table is computed from
# the finished games (shared.arena_scoring), the final ranking frozen at completion
arenas = sa.Table(
    "arenas",
    metadata,
    sa.Column("id", sa.Uuid(), primary_key=True),
    sa.Column("name", sa.String(200), nullable=False),
    sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("ends_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("completed_at", sa.DateTime(timezone=True), nullable=True),
)

arena_players = sa.Table(
    "arena_players",
    metadata,
    sa.Column("arena_id", sa.Uuid(), sa.ForeignKey("arenas.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("player_id", sa.Uuid(), primary_key=True),
    sa.Column("name", sa.String(100), nullable=False),
    sa.Column("rating", sa.Integer(), nullable=True),
)

arena_games = sa.Table(
    "arena_games",
    metadata,
    sa.Column("game_id", sa.Uuid(), primary_key=True),
    sa.Column("arena_id", sa.Uuid(), sa.ForeignKey("arenas.id", ondelete="CASCADE"), nullable=False),
    sa.Column("white", sa.Uuid(), nullable=False),
    sa.Column("black", sa.Uuid(), nullable=False),
    sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
    sa.Column("outcome", sa.String(8), nullable=True),  # None: in progress
    sa.Column("white_boost", sa.Boolean(), nullable=False, server_default=sa.false()),
    sa.Column("black_boost", sa.Boolean(), nullable=False, server_default=sa.false()),
    sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
    sa.Index("ix_arena_games_arena", "arena_id"),
)

# a group-playoff event's page (RULES.md §5, docs/group-playoff.md): its state as one document, projected
# from the events (players, announcements, matches, games, results, withdrawals, placing)
group_playoff_pages = sa.Table(
    "group_playoff_pages",
    metadata,
    sa.Column("tournament_id", sa.Uuid(), primary_key=True),
    sa.Column("state", sa.JSON(), nullable=False),
)
