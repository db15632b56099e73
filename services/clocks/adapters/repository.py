"""The game and tournament repositories on SQL: aggregates in, aggregates out.

A game's row carries its state and its clock's; ``save`` writes the row and appends the clock's new
changes to ``clock_changes``. Its claims, its result's decision, its corrections and its incidents
(penalties) are JSON columns. A tournament is a head row (organiser, ruleset, timing) with its arbiters
and withdrawals. Every statement is built
once, at import, so a request only binds its values (building them per call cost about a third of a
result's CPU).
"""

from __future__ import annotations

import datetime as dt
import functools
import uuid
from collections.abc import Iterable
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from services.clocks.adapters.orm import arbiters, clock_changes, games, presence, tournaments, withdrawals
from services.clocks.domain import errors
from services.clocks.domain.clock import Clock, ClockRate, ClockState, Side
from services.clocks.domain.endings import Claim, Correction, GameStatus
from services.clocks.domain.game import Game, Outcome
from services.clocks.domain.penalties import Consequence, Incident, PenaltyKind
from services.clocks.domain.presence import Presence
from services.clocks.domain.tournament import ONLINE, ArbiterPost, Timekeeping, Timing, Tournament, Withdrawal
from shared.authority import Decided, Role
from shared.database import aware, aware_or_none
from shared.openings import DrawnOpening
from shared.repository import Repository
from shared.resets import Resets
from shared.variants import Variant
from shared.vocabulary import Ruleset


def _side(value: str | None) -> Side | None:
    return Side(value) if value else None


# A tournament's games share a handful of time controls: each is built (and checked) once.
_control = functools.lru_cache(maxsize=1024)(ClockRate)


_ORDER = (games.c.round, games.c.board, games.c.leg, games.c.match_game)
_GET = sa.select(games).where(games.c.id == sa.bindparam("game_id"))
_GET_LOCKED = _GET.with_for_update()
_EXISTING = sa.select(games.c.id).where(games.c.id.in_(sa.bindparam("ids", expanding=True)))
_OF_ROUND = (
    sa.select(games)
    .where(games.c.tournament_id == sa.bindparam("tournament_id"), games.c.round == sa.bindparam("round"))
    .order_by(*_ORDER)
    .with_for_update()
)
_IN_MATCH = (
    sa.select(games)
    .where(
        games.c.tournament_id == sa.bindparam("tournament_id"), games.c.match_id == sa.bindparam("match_id")
    )
    .order_by(games.c.match_game)
    .with_for_update()
)
_OPEN = (GameStatus.PENDING.value, GameStatus.RUNNING.value, GameStatus.DISPUTED.value)
_PLAYING_ELSEWHERE = sa.select(games.c.white, games.c.black).where(
    games.c.tournament_id != sa.bindparam("tournament_id"),
    games.c.status == GameStatus.RUNNING.value,
    sa.or_(
        games.c.white.in_(sa.bindparam("ids", expanding=True)),
        games.c.black.in_(sa.bindparam("ids", expanding=True)),
    ),
)
_RUNNING_OF_PLAYER = (
    sa.select(games)
    .where(
        sa.or_(games.c.white == sa.bindparam("player_id"), games.c.black == sa.bindparam("player_id")),
        games.c.status == GameStatus.RUNNING.value,
    )
    .order_by(games.c.id)
    .with_for_update()
)
_PRESENCE = sa.select(presence).where(presence.c.player_id.in_(sa.bindparam("ids", expanding=True)))
_FORGET_PRESENCE = sa.delete(presence).where(presence.c.player_id == sa.bindparam("player_id"))
_ADD_PRESENCE = sa.insert(presence)


class SqlPresenceRepository:
    def __init__(self, session: Session) -> None:
        self.session = session

    def of(self, player_ids: Iterable[uuid.UUID]) -> dict[uuid.UUID, Presence]:
        ids = list(player_ids)
        if not ids:
            return {}
        return {row.player_id: Presence(row.status) for row in self.session.execute(_PRESENCE, {"ids": ids})}

    def report(self, player_id: uuid.UUID, status: Presence, at: dt.datetime) -> None:
        self.session.execute(_FORGET_PRESENCE, {"player_id": player_id})
        self.session.execute(_ADD_PRESENCE, {"player_id": player_id, "status": status.value, "at": at})


_OPEN_OF_PLAYER = (
    sa.select(games)
    .where(
        games.c.tournament_id == sa.bindparam("tournament_id"),
        sa.or_(games.c.white == sa.bindparam("player_id"), games.c.black == sa.bindparam("player_id")),
        games.c.status.in_(_OPEN),
        games.c.released.is_(True),
    )
    .order_by(*_ORDER)
    .with_for_update()
)
_OF_TOURNAMENT = (
    sa.select(games)
    .where(games.c.tournament_id == sa.bindparam("tournament_id"))
    .order_by(*_ORDER)
    .with_for_update()
)
_REMOVE_CHANGES = sa.delete(clock_changes).where(clock_changes.c.game_id == sa.bindparam("game_id"))
_REMOVE = sa.delete(games).where(games.c.id == sa.bindparam("game_id"))
_UNFINISHED = (
    sa.select(games)
    .where(
        games.c.tournament_id == sa.bindparam("tournament_id"),
        games.c.status != GameStatus.FINISHED.value,
    )
    .order_by(games.c.id)
    .with_for_update()
)
_OVERDUE = (
    sa.select(games.c.id)
    .where(
        games.c.deadline.is_not(None),
        games.c.deadline <= sa.bindparam("now"),
        games.c.status == GameStatus.RUNNING.value,
    )
    .order_by(games.c.deadline)
    .limit(sa.bindparam("limit"))
)
_INCIDENTS_OF_PLAYER = sa.select(games.c.id, games.c.incidents).where(
    games.c.tournament_id == sa.bindparam("tournament_id"),
    sa.or_(games.c.white == sa.bindparam("player_id"), games.c.black == sa.bindparam("player_id")),
    games.c.incidents.is_not(None),
)
_ADD = sa.insert(games).values({c.name: sa.bindparam(c.name) for c in games.c})
# What a game's life changes; who plays, when and where, and at what time control is set at pairing.
_CHANGING = (
    "white",  # a colour swap
    "black",
    "status",
    "clock_state",
    "to_move",
    "white_ms",
    "black_ms",
    "turn_started_at",
    "flagged",
    "deadline",
    "moves",
    "white_moved",
    "black_moved",
    "outcome",
    "reason",
    "started_at",
    "finished_at",
    "released",
    "claims",
    "decision",
    "corrections",
    "server_clock",  # the tournament's timing arriving after the game was created
    "default_time_seconds",
    "incidents",
    "position",
    "line",
    "closes_at",
    "away",
    "back_by",
    "boosted",
)
_SAVE = (
    sa.update(games)
    .where(games.c.id == sa.bindparam("game_id"))
    .values({name: sa.bindparam(name) for name in _CHANGING})
)
_APPEND_CHANGES = sa.insert(clock_changes).values(
    {c: sa.bindparam(c) for c in ("game_id", "kind", "at", "reason", "side", "delta_ms")}
)


class SqlGameRepository(Repository[uuid.UUID, Game]):
    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.removed: set[uuid.UUID] = set()

    def _find(self, game_id: uuid.UUID, *, lock: bool) -> Game | None:
        row = self.session.execute(_GET_LOCKED if lock else _GET, {"game_id": game_id}).first()
        return None if row is None else game_from_row(row)

    def _insert(self, game: Game) -> None:
        try:
            self.session.execute(_ADD, row_of(game))
        except sa.exc.IntegrityError as exc:
            raise errors.GameExists(f"game {game.id} exists already") from exc
        self._append_changes(game)

    def _update(self, game: Game) -> None:
        self.session.execute(_SAVE, _changing(game))
        self._append_changes(game)

    def existing(self, game_ids: Iterable[uuid.UUID]) -> set[uuid.UUID]:
        ids = list(game_ids)
        if not ids:
            return set()
        return set(self.session.execute(_EXISTING, {"ids": ids}).scalars())

    def of_round(self, tournament_id: uuid.UUID, round: int) -> list[Game]:
        return self._games(_OF_ROUND, {"tournament_id": tournament_id, "round": round})

    def in_match(self, tournament_id: uuid.UUID, match_id: str) -> list[Game]:
        return self._games(_IN_MATCH, {"tournament_id": tournament_id, "match_id": match_id})

    def unfinished_in(self, tournament_id: uuid.UUID) -> list[Game]:
        return self._games(_UNFINISHED, {"tournament_id": tournament_id})

    def playing_elsewhere(self, tournament_id: uuid.UUID, player_ids: Iterable[uuid.UUID]) -> set[uuid.UUID]:
        ids = list(player_ids)
        if not ids:
            return set()
        rows = self.session.execute(_PLAYING_ELSEWHERE, {"tournament_id": tournament_id, "ids": ids})
        return {p for row in rows for p in (row.white, row.black)} & set(ids)

    def running_of(self, player_id: uuid.UUID) -> list[Game]:
        return self._games(_RUNNING_OF_PLAYER, {"player_id": player_id})

    def open_games_of(self, tournament_id: uuid.UUID, player_id: uuid.UUID) -> list[Game]:
        return self._games(_OPEN_OF_PLAYER, {"tournament_id": tournament_id, "player_id": player_id})

    def of_tournament(self, tournament_id: uuid.UUID) -> list[Game]:
        return self._games(_OF_TOURNAMENT, {"tournament_id": tournament_id})

    def remove(self, game: Game) -> None:
        self.session.execute(_REMOVE_CHANGES, {"game_id": game.id})
        self.session.execute(_REMOVE, {"game_id": game.id})
        self.removed.add(game.id)

    def overdue(self, now: dt.datetime, *, limit: int = 100) -> list[uuid.UUID]:
        return list(self.session.execute(_OVERDUE, {"now": now, "limit": limit}).scalars())

    def incidents_of(
        self, tournament_id: uuid.UUID, player_id: uuid.UUID, *, other_than: uuid.UUID | None = None
    ) -> list[Incident]:
        rows = self.session.execute(
            _INCIDENTS_OF_PLAYER, {"tournament_id": tournament_id, "player_id": player_id}
        )
        found = [
            incident
            for row in rows
            if row.id != other_than
            for incident in map(incident_in, row.incidents)
            if incident.player_id == player_id
        ]
        return sorted(found, key=lambda i: i.at)

    def _games(self, statement: sa.Select[Any], params: dict[str, Any]) -> list[Game]:
        return self._handed_out(game_from_row(row) for row in self.session.execute(statement, params))

    def _append_changes(self, game: Game) -> None:
        new = game.clock.collect_changes()
        if new:
            self.session.execute(
                _APPEND_CHANGES,
                [
                    {
                        "game_id": game.id,
                        "kind": c.kind.value,
                        "at": c.at,
                        "reason": c.reason,
                        "side": c.side.value if c.side else None,
                        "delta_ms": c.delta_ms,
                    }
                    for c in new
                ],
            )


def game_from_row(row: Any) -> Game:
    clock = Clock(
        control=_control(row.base_seconds, row.increment_seconds, row.days_per_move),
        remaining={Side.WHITE: row.white_ms, Side.BLACK: row.black_ms},
        state=ClockState(row.clock_state),
        to_move=_side(row.to_move),
        turn_started_at=aware_or_none(row.turn_started_at),
        flagged=_side(row.flagged),
        boosted={Side(s) for s in (row.boosted or "").split(",") if s},
    )
    return Game(
        id=row.id,
        tournament_id=row.tournament_id,
        organiser_id=row.organiser_id,
        round=row.round,
        board=row.board,
        leg=row.leg,
        white=row.white,
        black=row.black,
        clock=clock,
        created_at=aware(row.created_at),
        status=GameStatus(row.status),
        moves=row.moves,
        white_moved=row.white_moved,
        black_moved=row.black_moved,
        outcome=Outcome(row.outcome) if row.outcome else None,
        reason=row.reason,
        started_at=aware_or_none(row.started_at),
        finished_at=aware_or_none(row.finished_at),
        match_id=row.match_id,
        number=row.match_game,
        label=row.label,
        released=row.released,
        rated=row.rated,
        claims=claims_in(row.claims),
        decision=decision_in(row.decision),
        corrections=[correction_in(c) for c in row.corrections or ()],
        server_clock=row.server_clock,
        default_time=_seconds(row.default_time_seconds),
        incidents=[incident_in(i) for i in row.incidents or ()],
        variant=Variant(row.variant),
        opening=DrawnOpening.from_json(Variant(row.variant), row.opening),
        position=row.position,
        line=list(row.line or ()),
        closes_at=aware_or_none(row.closes_at),
        away=_side(row.away),
        back_by=aware_or_none(row.back_by),
        arena=row.arena,
        ruleset=Ruleset(row.ruleset) if row.ruleset else None,
        next_leg=row.next_leg,
    )


def _seconds(value: int | None) -> dt.timedelta | None:
    return None if value is None else dt.timedelta(seconds=value)


def _in_seconds(value: dt.timedelta | None) -> int | None:
    return None if value is None else int(value.total_seconds())


def _changing(g: Game) -> dict[str, Any]:
    """The values of the columns a game's life changes (``_CHANGING``), keyed for ``_SAVE``."""
    c = g.clock
    return {
        "game_id": g.id,
        "status": g.status.value,
        "clock_state": c.state.value,
        "to_move": c.to_move.value if c.to_move else None,
        "white_ms": c.remaining[Side.WHITE],
        "black_ms": c.remaining[Side.BLACK],
        "turn_started_at": c.turn_started_at,
        "flagged": c.flagged.value if c.flagged else None,
        "deadline": g.deadline,
        "moves": g.moves,
        "white_moved": g.white_moved,
        "black_moved": g.black_moved,
        "outcome": g.outcome.value if g.outcome else None,
        "reason": g.reason,
        "started_at": g.started_at,
        "finished_at": g.finished_at,
        "released": g.released,
        "white": g.white,
        "black": g.black,
        "claims": claims_out(g),
        "decision": decision_out(g.decision),
        "corrections": [correction_out(c) for c in g.corrections] or None,
        "server_clock": g.server_clock,
        "default_time_seconds": _in_seconds(g.default_time),
        "incidents": [incident_out(i) for i in g.incidents] or None,
        "position": g.position,
        "line": g.line or None,
        "closes_at": g.closes_at,
        "away": g.away.value if g.away else None,
        "back_by": g.back_by,
        "boosted": _boosted(g),
    }


def _boosted(g: Game) -> str | None:
    """The sides that took the arena boost, as the ``boosted`` column holds them (``white,black``)."""
    return ",".join(sorted(s.value for s in g.clock.boosted)) or None


def row_of(g: Game) -> dict[str, Any]:
    c = g.clock
    return {
        "id": g.id,
        "tournament_id": g.tournament_id,
        "organiser_id": g.organiser_id,
        "round": g.round,
        "board": g.board,
        "leg": g.leg,
        "white": g.white,
        "black": g.black,
        "base_seconds": c.control.base_seconds,
        "increment_seconds": c.control.increment_seconds,
        "days_per_move": c.control.days_per_move,
        "status": g.status.value,
        "clock_state": c.state.value,
        "to_move": c.to_move.value if c.to_move else None,
        "white_ms": c.remaining[Side.WHITE],
        "black_ms": c.remaining[Side.BLACK],
        "turn_started_at": c.turn_started_at,
        "flagged": c.flagged.value if c.flagged else None,
        "deadline": g.deadline,
        "moves": g.moves,
        "white_moved": g.white_moved,
        "black_moved": g.black_moved,
        "outcome": g.outcome.value if g.outcome else None,
        "reason": g.reason,
        "created_at": g.created_at,
        "started_at": g.started_at,
        "finished_at": g.finished_at,
        "match_id": g.match_id,
        "match_game": g.number,
        "label": g.label,
        "released": g.released,
        "rated": g.rated,
        "claims": claims_out(g),
        "decision": decision_out(g.decision),
        "corrections": [correction_out(c) for c in g.corrections] or None,
        "server_clock": g.server_clock,
        "default_time_seconds": _in_seconds(g.default_time),
        "incidents": [incident_out(i) for i in g.incidents] or None,
        "variant": g.variant.value,
        "opening": None if g.opening is None else g.opening.as_json(),
        "position": g.position,
        "line": g.line or None,
        "closes_at": g.closes_at,
        "away": g.away.value if g.away else None,
        "back_by": g.back_by,
        "boosted": _boosted(g),
        "arena": g.arena,
        "ruleset": g.ruleset.value if g.ruleset else None,
        "next_leg": g.next_leg,
    }


# -- JSON columns -------------------------------------------------------------------------------------
def claims_out(g: Game) -> dict[str, Any] | None:
    if not g.claims:
        return None
    return {
        side.value: {"outcome": c.outcome.value, "reason": c.reason, "at": c.at.isoformat()}
        for side, c in g.claims.items()
    }


def claims_in(value: dict[str, Any] | None) -> dict[Side, Claim]:
    return {
        Side(side): Claim(Outcome(c["outcome"]), c["reason"], dt.datetime.fromisoformat(c["at"]))
        for side, c in (value or {}).items()
    }


def decision_out(d: Decided | None) -> dict[str, Any] | None:
    if d is None:
        return None
    return {"by": str(d.by), "role": d.role.value, "at": d.at.isoformat(), "reason": d.reason}


def decision_in(value: dict[str, Any] | None) -> Decided | None:
    if value is None:
        return None
    return Decided(
        uuid.UUID(value["by"]), Role(value["role"]), dt.datetime.fromisoformat(value["at"]), value["reason"]
    )


def correction_out(c: Correction) -> dict[str, Any]:
    return {
        "old_outcome": c.old_outcome.value,
        "outcome": c.outcome.value,
        "decision": decision_out(c.decision),
    }


def correction_in(value: dict[str, Any]) -> Correction:
    decision = decision_in(value["decision"])
    assert decision is not None
    return Correction(Outcome(value["old_outcome"]), Outcome(value["outcome"]), decision)


def incident_out(i: Incident) -> dict[str, Any]:
    return {
        "at": i.at.isoformat(),
        "kind": i.kind.value,
        "player_id": str(i.player_id),
        "occurrence": i.occurrence,
        "consequence": i.consequence.value,
        "decision": decision_out(i.decision),
        "white_ms": i.white_ms,
        "black_ms": i.black_ms,
    }


def incident_in(value: dict[str, Any]) -> Incident:
    decision = decision_in(value["decision"])
    assert decision is not None
    return Incident(
        dt.datetime.fromisoformat(value["at"]),
        PenaltyKind(value["kind"]),
        uuid.UUID(value["player_id"]),
        value["occurrence"],
        Consequence(value["consequence"]),
        decision,
        value["white_ms"],
        value["black_ms"],
    )


# -- tournaments --------------------------------------------------------------------------------------
_TOURNAMENT = sa.select(tournaments).where(tournaments.c.id == sa.bindparam("tournament_id"))
_TOURNAMENT_LOCKED = _TOURNAMENT.with_for_update()
_ARBITERS = sa.select(arbiters).where(arbiters.c.tournament_id == sa.bindparam("tournament_id"))
_WITHDRAWALS = sa.select(withdrawals).where(withdrawals.c.tournament_id == sa.bindparam("tournament_id"))
_SAVE_TOURNAMENT = (
    sa.update(tournaments)
    .where(tournaments.c.id == sa.bindparam("tournament_id"))
    .values(
        organiser_id=sa.bindparam("organiser_id"),
        ruleset=sa.bindparam("ruleset"),
        clocks=sa.bindparam("clocks"),
        default_time_minutes=sa.bindparam("default_time_minutes"),
        closes_at=sa.bindparam("closes_at"),
        resets=sa.bindparam("resets"),
    )
)
_DROP_ARBITER = sa.delete(arbiters).where(
    arbiters.c.tournament_id == sa.bindparam("tournament_id"),
    arbiters.c.arbiter_id == sa.bindparam("arbiter_id"),
)
_CREATE_TOURNAMENT: dict[str, Any] = {
    name: insert(tournaments).values(id=sa.bindparam("tournament_id")).on_conflict_do_nothing()
    for name, insert in (("postgresql", pg_insert), ("sqlite", sqlite_insert))
}
_ADD_ARBITER = sa.insert(arbiters)
_ADD_WITHDRAWAL = sa.insert(withdrawals)


class SqlTournamentRepository(Repository[uuid.UUID, Tournament]):
    """A tournament's head row is created by the first news of it, with ``INSERT … ON CONFLICT DO
    NOTHING`` so that two consumers hearing of it at once both go on (the second waits for the
    first's row, then locks it)."""

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session

    def of_ruleset(self, ruleset: Ruleset) -> list[uuid.UUID]:
        """The tournaments of a ruleset known here."""
        query = sa.select(tournaments.c.id).where(tournaments.c.ruleset == ruleset.value)
        return list(self.session.execute(query).scalars())

    def lock(self, tournament_id: uuid.UUID) -> Tournament:
        create = _CREATE_TOURNAMENT[self.session.get_bind().dialect.name]
        self.session.execute(create, {"tournament_id": tournament_id})
        found = self.get(tournament_id, lock=True)
        assert found is not None
        return found

    def _update(self, t: Tournament) -> None:
        self.session.execute(
            _SAVE_TOURNAMENT,
            {
                "tournament_id": t.id,
                "organiser_id": t.organiser_id,
                "ruleset": t.ruleset and t.ruleset.value,
                "clocks": None if t.timing == ONLINE else t.timing.clocks.value,
                "default_time_minutes": t.timing.default_time_minutes,
                "closes_at": t.timing.closes_at,
                "resets": t.resets.to_json() or None,
            },
        )
        for change in t.collect_changes():
            if isinstance(change, ArbiterPost):
                key = {"tournament_id": t.id, "arbiter_id": change.arbiter_id}
                self.session.execute(_DROP_ARBITER, key)
                games_json = None if change.games is None else sorted(str(g) for g in change.games)
                self.session.execute(
                    _ADD_ARBITER,
                    {**key, "games": games_json, "decided_at": change.at, "revoked": change.revoked},
                )
            else:
                self.session.execute(
                    _ADD_WITHDRAWAL,
                    {
                        "tournament_id": t.id,
                        "player_id": change.player_id,
                        "excluded": change.excluded,
                        "reason": change.reason,
                        "decision": decision_out(change.decision),
                    },
                )

    def _find(self, tournament_id: uuid.UUID, *, lock: bool) -> Tournament | None:
        head = _TOURNAMENT_LOCKED if lock else _TOURNAMENT
        row = self.session.execute(head, {"tournament_id": tournament_id}).first()
        if row is None:
            return None
        key = {"tournament_id": tournament_id}
        posts = [
            ArbiterPost(
                a.arbiter_id,
                None if a.games is None else frozenset(uuid.UUID(g) for g in a.games),
                aware(a.decided_at),
                a.revoked,
            )
            for a in self.session.execute(_ARBITERS, key)
        ]
        gone = [
            Withdrawal(w.player_id, w.excluded, w.reason, decision_in(w.decision))
            for w in self.session.execute(_WITHDRAWALS, key)
        ]
        return Tournament(
            row.id,
            row.organiser_id,
            Ruleset(row.ruleset) if row.ruleset else None,
            _timing(row.clocks, row.default_time_minutes, aware_or_none(row.closes_at)),
            {a.arbiter_id: a for a in posts},
            {w.player_id: w for w in gone},
            Resets.from_json(row.resets),
        )


def _timing(clocks: str | None, default_time_minutes: int | None, closes_at: dt.datetime | None) -> Timing:
    if clocks is None and default_time_minutes is None and closes_at is None:
        return ONLINE
    return Timing(Timekeeping(clocks or Timekeeping.SERVER.value), default_time_minutes, closes_at)
