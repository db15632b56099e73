"""Arenas' standings on SQL (:class:`~services.standings.service_layer.ports.ArenaRepository`). The rows
are the truth; the table is computed from the finished games when the arena is loaded. Its in-memory
fake is in ``memory.py``, held to the same contract (``tests/contract/test_arenas.py``)."""

from __future__ import annotations

import uuid
from typing import Any, cast

import sqlalchemy as sa
from sqlalchemy.orm import Session

from services.standings.adapters.orm import arena_games, arena_players, arenas
from services.standings.domain.arena_standings import ArenaPlayer, ArenaStandings, RunningGame
from shared.arena_scoring import FinishedArenaGame
from shared.database import aware, aware_or_none
from shared.repository import Repository
from shared.scoring import Outcome

_ARENA = sa.select(arenas).where(arenas.c.id == sa.bindparam("aid"))
_PLAYERS = sa.select(arena_players).where(arena_players.c.arena_id == sa.bindparam("aid"))
_GAMES = sa.select(arena_games).where(arena_games.c.arena_id == sa.bindparam("aid"))


def load(
    connection: Session | sa.Connection, arena_id: uuid.UUID, *, lock: bool = False
) -> ArenaStandings | None:
    row = connection.execute(_ARENA.with_for_update() if lock else _ARENA, {"aid": arena_id}).first()
    if row is None:
        return None
    a = ArenaStandings(
        row.id, row.name, aware(row.started_at), aware(row.ends_at), aware_or_none(row.completed_at)
    )
    for p in connection.execute(_PLAYERS, {"aid": arena_id}):
        a.players[p.player_id] = ArenaPlayer(p.player_id, p.name, p.rating)
    for g in connection.execute(_GAMES, {"aid": arena_id}):
        if g.outcome is None:
            a.running[g.game_id] = RunningGame(g.game_id, g.white, g.black, aware(g.started_at))
        else:
            a.finished[g.game_id] = FinishedArenaGame(
                g.game_id,
                g.white,
                g.black,
                Outcome(g.outcome),
                aware(g.ended_at),
                g.white_boost,
                g.black_boost,
            )
    return a


class SqlArenaStandings(Repository[uuid.UUID, ArenaStandings]):
    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session

    def _find(self, arena_id: uuid.UUID, *, lock: bool) -> ArenaStandings | None:
        return load(self.session, arena_id, lock=lock)

    def _insert(self, a: ArenaStandings) -> None:
        self.session.execute(
            sa.insert(arenas).values(
                id=a.id, name=a.name, started_at=a.started_at, ends_at=a.ends_at, completed_at=a.completed_at
            )
        )
        self._update(a)

    def _update(self, a: ArenaStandings) -> None:
        changes = a.take_changes()
        if changes.completed:
            self.session.execute(
                sa.update(arenas).where(arenas.c.id == a.id).values(completed_at=a.completed_at)
            )
        for p in changes.players.values():
            values = {"name": p.name, "rating": p.rating}
            where = (arena_players.c.arena_id == a.id) & (arena_players.c.player_id == p.id)
            if not _updated(self.session, sa.update(arena_players).where(where).values(values)):
                self.session.execute(sa.insert(arena_players).values(arena_id=a.id, player_id=p.id, **values))
        games: dict[uuid.UUID, dict[str, Any]] = {}
        for r in changes.running.values():
            games[r.id] = {"white": r.white, "black": r.black, "started_at": r.started_at}
        for g in changes.finished.values():
            games.setdefault(g.id, {"white": g.white, "black": g.black})
            games[g.id] |= {
                "outcome": g.outcome.value,
                "white_boost": g.white_boost,
                "black_boost": g.black_boost,
                "ended_at": g.ended_at,
            }
        for game_id, values in games.items():
            update = sa.update(arena_games).where(arena_games.c.game_id == game_id).values(values)
            if not _updated(self.session, update):
                self.session.execute(sa.insert(arena_games).values(game_id=game_id, arena_id=a.id, **values))


def _updated(session: Session, statement: Any) -> bool:
    return bool(cast(sa.CursorResult[Any], session.execute(statement)).rowcount)
