"""Repositories: translate between the tables and the domain objects."""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Iterable
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from services.clocks.adapters.orm import clock_changes, games
from services.clocks.domain.clock import ChangeKind, Clock, ClockChange, ClockState, Side, TimeControl
from services.clocks.domain.game import Game, GameStatus, Outcome
from shared.database import aware, aware_or_none


def _side(value: str | None) -> Side | None:
    return Side(value) if value else None


# The statements of a move or a result, built once: a request only binds its values.
_GET = sa.select(games).where(games.c.id == sa.bindparam("game_id"))
_GET_LOCKED = _GET.with_for_update()
_EXISTING = sa.select(games.c.id).where(games.c.id.in_(sa.bindparam("ids", expanding=True)))
_ADD = sa.insert(games).values({c.name: sa.bindparam(c.name) for c in games.c})
_SAVE = (
    sa.update(games)
    .where(games.c.id == sa.bindparam("game_id"))
    .values({c.name: sa.bindparam(c.name) for c in games.c if c.name not in ("id", "created_at")})
)
_APPEND_CHANGE = sa.insert(clock_changes).values(
    {c: sa.bindparam(c) for c in ("game_id", "kind", "at", "reason", "side", "delta_ms")}
)


class GameRepository:
    def __init__(self, session: Session) -> None:
        self.session = session

    def get(self, game_id: uuid.UUID, *, lock: bool = False) -> Game | None:
        row = self.session.execute(_GET_LOCKED if lock else _GET, {"game_id": game_id}).first()
        return None if row is None else self._load(row)

    def existing(self, game_ids: Iterable[uuid.UUID]) -> set[uuid.UUID]:
        ids = list(game_ids)
        if not ids:
            return set()
        return set(self.session.execute(_EXISTING, {"ids": ids}).scalars())

    def in_tournament(
        self, tournament_id: uuid.UUID, *, round: int | None = None, lock: bool = False
    ) -> list[Game]:
        query = (
            sa.select(games)
            .where(games.c.tournament_id == tournament_id)
            .order_by(games.c.round, games.c.board, games.c.leg, games.c.match_game)
        )
        if round is not None:
            query = query.where(games.c.round == round)
        if lock:
            query = query.with_for_update()
        return [self._load(row) for row in self.session.execute(query).all()]

    def in_match(self, tournament_id: uuid.UUID, match_id: str) -> list[Game]:
        """A knockout match's games in their order, locked (the next one starts when one ends)."""
        query = (
            sa.select(games)
            .where(games.c.tournament_id == tournament_id, games.c.match_id == match_id)
            .order_by(games.c.match_game)
            .with_for_update()
        )
        return [self._load(row) for row in self.session.execute(query).all()]

    def unfinished_in(self, tournament_id: uuid.UUID, *, lock: bool = False) -> list[Game]:
        query = (
            sa.select(games)
            .where(games.c.tournament_id == tournament_id, games.c.status != GameStatus.FINISHED.value)
            .order_by(games.c.id)
        )
        if lock:
            query = query.with_for_update()
        return [self._load(row) for row in self.session.execute(query).all()]

    def overdue(self, now: dt.datetime, *, limit: int = 100) -> list[uuid.UUID]:
        """Running games whose deadline has passed, earliest first (the sweep behind the deadline store)."""
        query = (
            sa.select(games.c.id)
            .where(
                games.c.deadline.is_not(None),
                games.c.deadline <= now,
                games.c.status == GameStatus.RUNNING.value,
            )
            .order_by(games.c.deadline)
            .limit(limit)
        )
        return list(self.session.execute(query).scalars())

    def history(self, game_id: uuid.UUID) -> list[ClockChange]:
        rows = self.session.execute(
            sa.select(clock_changes).where(clock_changes.c.game_id == game_id).order_by(clock_changes.c.id)
        ).all()
        return [
            ClockChange(ChangeKind(r.kind), aware(r.at), r.reason, _side(r.side), r.delta_ms) for r in rows
        ]

    def add(self, game: Game, now: dt.datetime) -> None:
        self.session.execute(_ADD, {**self._row(game), "created_at": now})
        self._append_changes(game)

    def save(self, game: Game) -> None:
        row = self._row(game)
        row["game_id"] = row.pop("id")
        self.session.execute(_SAVE, row)
        self._append_changes(game)

    def _append_changes(self, game: Game) -> None:
        new = game.clock.collect_changes()
        if new:
            self.session.execute(
                _APPEND_CHANGE,
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

    def _load(self, row: Any) -> Game:
        clock = Clock(
            control=TimeControl(row.base_seconds, row.increment_seconds, row.days_per_move),
            remaining={Side.WHITE: row.white_ms, Side.BLACK: row.black_ms},
            state=ClockState(row.clock_state),
            to_move=_side(row.to_move),
            turn_started_at=aware_or_none(row.turn_started_at),
            flagged=_side(row.flagged),
        )
        game = Game(
            id=row.id,
            tournament_id=row.tournament_id,
            organiser_id=row.organiser_id,
            round=row.round,
            board=row.board,
            leg=row.leg,
            white=row.white,
            black=row.black,
            clock=clock,
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
        )
        return game

    @staticmethod
    def _row(g: Game) -> dict[str, Any]:
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
            "started_at": g.started_at,
            "finished_at": g.finished_at,
            "match_id": g.match_id,
            "match_game": g.number,
            "label": g.label,
            "released": g.released,
        }
