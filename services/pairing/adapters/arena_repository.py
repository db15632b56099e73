"""The arenas and their games on SQL (:class:`~services.pairing.service_layer.arena_ports.ArenaRepository`)
and in memory, held to one contract (``tests/unit/test_arena_repository.py``)."""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from services.pairing.adapters.orm import arena_games, arenas
from services.pairing.domain.arena.arena import Arena
from services.pairing.service_layer.arena_ports import NewGame
from shared.aggregate import Seen
from shared.arena_scoring import ArenaGame
from shared.database import aware, aware_or_none
from shared.scoring import Outcome
from shared.time_control import TimeControl
from shared.variants import Variant

_GET = sa.select(arenas).where(arenas.c.id == sa.bindparam("aid"))
_OPEN = sa.select(arenas.c.id).where(arenas.c.completed_at.is_(None)).order_by(arenas.c.ends_at)
_KNOWN = sa.select(arena_games.c.game_id).where(
    arena_games.c.game_id.in_(sa.bindparam("ids", expanding=True))
)
_GAME = sa.select(arena_games).where(arena_games.c.game_id == sa.bindparam("gid"))
_RUNNING = (
    sa.select(sa.func.count())
    .select_from(arena_games)
    .where(arena_games.c.arena_id == sa.bindparam("aid"), arena_games.c.outcome.is_(None))
)


def _arena_of(row: Any) -> Arena:
    return Arena(
        row.id,
        row.organiser_id,
        row.name,
        aware(row.started_at),
        aware(row.ends_at),
        TimeControl(row.base_seconds, row.increment_seconds),
        aware_or_none(row.completed_at),
        Variant(row.variant),
    )


def _game_of(row: Any) -> ArenaGame:
    return ArenaGame(
        row.game_id,
        row.white,
        row.black,
        Outcome(row.outcome),
        aware(row.ended_at),
        row.white_boost,
        row.black_boost,
    )


class SqlArenas:
    def __init__(self, session: Session) -> None:
        self.session = session
        self.seen: Seen[Arena] = Seen()

    def get(self, arena_id: uuid.UUID, *, lock: bool = False) -> Arena | None:
        query = _GET.with_for_update() if lock else _GET
        row = self.session.execute(query, {"aid": arena_id}).first()
        return None if row is None else self.seen.add(_arena_of(row))

    def add(self, arena: Arena) -> None:
        self.session.execute(
            sa.insert(arenas).values(
                id=arena.id,
                organiser_id=arena.organiser_id,
                name=arena.name,
                started_at=arena.started_at,
                ends_at=arena.ends_at,
                base_seconds=arena.time_control.base_seconds,
                increment_seconds=arena.time_control.increment_seconds,
                completed_at=arena.completed_at,
                variant=arena.variant.value,
            )
        )
        self.seen.add(arena)

    def save(self, arena: Arena) -> None:
        self.session.execute(
            sa.update(arenas).where(arenas.c.id == arena.id).values(completed_at=arena.completed_at)
        )
        self.seen.add(arena)

    def open_ids(self) -> list[uuid.UUID]:
        return list(self.session.execute(_OPEN).scalars())

    def add_games(self, arena_id: uuid.UUID, games: Sequence[NewGame], at: dt.datetime) -> list[NewGame]:
        if not games:
            return []
        known = set(self.session.execute(_KNOWN, {"ids": [g.id for g in games]}).scalars())
        new = [g for g in games if g.id not in known]
        if new:
            self.session.execute(
                sa.insert(arena_games),
                [
                    {
                        "game_id": g.id,
                        "arena_id": arena_id,
                        "white": g.white,
                        "black": g.black,
                        "paired_at": at,
                    }
                    for g in new
                ],
            )
        return new

    def finish_game(
        self, game_id: uuid.UUID, outcome: Outcome, boost: tuple[bool, bool], ended_at: dt.datetime
    ) -> tuple[uuid.UUID, NewGame] | None:
        row = self.session.execute(_GAME, {"gid": game_id}).first()
        if row is None:
            return None
        self.session.execute(
            sa.update(arena_games)
            .where(arena_games.c.game_id == game_id)
            .values(outcome=outcome.value, white_boost=boost[0], black_boost=boost[1], ended_at=ended_at)
        )
        return row.arena_id, NewGame(row.game_id, row.white, row.black)

    def finished_games(self, arena_id: uuid.UUID, players: Iterable[uuid.UUID]) -> list[ArenaGame]:
        who = list(players)
        query = sa.select(arena_games).where(
            arena_games.c.arena_id == arena_id,
            arena_games.c.outcome.is_not(None),
            sa.or_(arena_games.c.white.in_(who), arena_games.c.black.in_(who)),
        )
        return [_game_of(row) for row in self.session.execute(query)]

    def running(self, arena_id: uuid.UUID) -> int:
        return int(self.session.execute(_RUNNING, {"aid": arena_id}).scalar() or 0)


@dataclass
class _Game:
    arena_id: uuid.UUID
    game: NewGame
    result: ArenaGame | None = None


@dataclass
class MemoryArenaStore:
    arenas: dict[uuid.UUID, Arena]
    games: dict[uuid.UUID, _Game]


class MemoryArenas:
    """The same in memory (the unit tests' unit of work)."""

    def __init__(self, store: MemoryArenaStore) -> None:
        self.store = store
        self.seen: Seen[Arena] = Seen()

    def get(self, arena_id: uuid.UUID, *, lock: bool = False) -> Arena | None:
        found = self.store.arenas.get(arena_id)
        return None if found is None else self.seen.add(replace(found))

    def add(self, arena: Arena) -> None:
        if arena.id in self.store.arenas:
            raise KeyError(f"arena {arena.id} exists")
        self.save(arena)

    def save(self, arena: Arena) -> None:
        self.store.arenas[arena.id] = replace(arena)
        self.seen.add(arena)

    def open_ids(self) -> list[uuid.UUID]:
        open_ = [a for a in self.store.arenas.values() if a.completed_at is None]
        return [a.id for a in sorted(open_, key=lambda a: a.ends_at)]

    def add_games(self, arena_id: uuid.UUID, games: Sequence[NewGame], at: dt.datetime) -> list[NewGame]:
        new = [g for g in games if g.id not in self.store.games]
        for g in new:
            self.store.games[g.id] = _Game(arena_id, g)
        return new

    def finish_game(
        self, game_id: uuid.UUID, outcome: Outcome, boost: tuple[bool, bool], ended_at: dt.datetime
    ) -> tuple[uuid.UUID, NewGame] | None:
        found = self.store.games.get(game_id)
        if found is None:
            return None
        g = found.game
        found.result = ArenaGame(g.id, g.white, g.black, outcome, ended_at, boost[0], boost[1])
        return found.arena_id, g

    def finished_games(self, arena_id: uuid.UUID, players: Iterable[uuid.UUID]) -> list[ArenaGame]:
        who = set(players)
        return [
            f.result
            for f in self.store.games.values()
            if f.arena_id == arena_id and f.result is not None and {f.game.white, f.game.black} & who
        ]

    def running(self, arena_id: uuid.UUID) -> int:
        return sum(1 for f in self.store.games.values() if f.arena_id == arena_id and f.result is None)
