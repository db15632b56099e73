"""What the HTTP API reads, outside any unit of work: a game, a tournament's games, a clock's history,
the arbiters of a tournament.

Read-only and lock-free; the games come back as aggregates for the API to present (nothing saves them).
"""

from __future__ import annotations

import uuid

import sqlalchemy as sa

from services.clocks.adapters.orm import arbiters, clock_changes, games, tournaments
from services.clocks.adapters.repository import game_from_row
from services.clocks.domain.clock import ChangeKind, ClockChange, Side
from services.clocks.domain.game import Game
from shared.authority import Appointment, Authority
from shared.database import aware

_GAME = sa.select(games).where(games.c.id == sa.bindparam("game_id"))
_ORDER = (games.c.round, games.c.board, games.c.leg, games.c.match_game)
_OF_TOURNAMENT = (
    sa.select(games).where(games.c.tournament_id == sa.bindparam("tournament_id")).order_by(*_ORDER)
)
_OF_ROUND = _OF_TOURNAMENT.where(games.c.round == sa.bindparam("round"))
_ORGANISER = sa.select(tournaments.c.organiser_id).where(tournaments.c.id == sa.bindparam("tournament_id"))
_APPOINTED = sa.select(arbiters.c.arbiter_id, arbiters.c.games).where(
    arbiters.c.tournament_id == sa.bindparam("tournament_id"), arbiters.c.revoked.is_(False)
)
_HISTORY = (
    sa.select(clock_changes)
    .where(clock_changes.c.game_id == sa.bindparam("game_id"))
    .order_by(clock_changes.c.id)
)


class GameViews:
    def __init__(self, engine: sa.Engine) -> None:
        self.engine = engine

    def game(self, game_id: uuid.UUID) -> Game | None:
        with self.engine.connect() as conn:
            row = conn.execute(_GAME, {"game_id": game_id}).first()
        return None if row is None else game_from_row(row)

    def games(self, tournament_id: uuid.UUID, round: int | None = None) -> list[Game]:
        """A tournament's games (or one round's) by round, board, leg and number in the match."""
        with self.engine.connect() as conn:
            if round is None:
                rows = conn.execute(_OF_TOURNAMENT, {"tournament_id": tournament_id}).all()
            else:
                rows = conn.execute(_OF_ROUND, {"tournament_id": tournament_id, "round": round}).all()
        return [game_from_row(row) for row in rows]

    def history(self, game_id: uuid.UUID) -> list[ClockChange]:
        """Every change of the game's clock, in order: the audit trail ``Clock.replay`` rebuilds it from."""
        with self.engine.connect() as conn:
            rows = conn.execute(_HISTORY, {"game_id": game_id}).all()
        return [
            ClockChange(
                ChangeKind(r.kind), aware(r.at), r.reason, Side(r.side) if r.side else None, r.delta_ms
            )
            for r in rows
        ]

    def authority(self, tournament_id: uuid.UUID, organiser_id: uuid.UUID) -> Authority:
        """Who decides in the tournament: its organiser (``organiser_id``, a game's, until
        ``tournament.started`` arrives) and the arbiters appointed and not revoked."""
        key = {"tournament_id": tournament_id}
        with self.engine.connect() as conn:
            known = conn.execute(_ORGANISER, key).scalar()
            rows = conn.execute(_APPOINTED, key).all()
        return Authority.of(
            known or organiser_id,
            (
                Appointment(
                    r.arbiter_id, None if r.games is None else frozenset(uuid.UUID(g) for g in r.games)
                )
                for r in rows
            ),
        )
