"""The arenas, their entries and games on SQL
(:class:`~services.pairing.service_layer.arena_ports.ArenaRepository`), with the record of who is playing
anywhere (``playing``): what an arena's pool is rebuilt from when Redis loses it. Its in-memory fake
(``memory.py``) is held to the same contract (``tests/contract/test_arenas.py``)."""

from __future__ import annotations

import datetime as dt
import functools
import uuid
from collections.abc import Iterable, Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from services.pairing.adapters.orm import arena_entries, arena_games, arenas, playing
from services.pairing.domain.arena.arena import Arena
from services.pairing.domain.arena.record import ACTIVE, Entry, PlayedGame
from services.pairing.service_layer.arena_ports import ArenaRecord, NewGame
from shared.arena_scoring import FinishedArenaGame
from shared.database import aware, aware_or_none
from shared.repository import Repository
from shared.scoring import Outcome
from shared.time_control import RateOfPlay
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
# the record a lost pool is rebuilt from, share-locked: a result or an entry being written meanwhile waits
# for the rebuild, and then reaches the rebuilt pool (docs/arena.md, "When Redis loses the pool")
_ENTRIES = (
    sa.select(arena_entries)
    .where(arena_entries.c.arena_id == sa.bindparam("aid"))
    .order_by(arena_entries.c.player_id)
    .with_for_update(read=True)
)
_GAMES = (
    sa.select(arena_games)
    .where(arena_games.c.arena_id == sa.bindparam("aid"))
    .order_by(arena_games.c.paired_at, arena_games.c.game_id)
    .with_for_update(read=True)
)
_IN = sa.select(arena_entries.c.player_id).where(arena_entries.c.arena_id == sa.bindparam("aid"))
_PLAYING_ELSEWHERE = (
    sa.select(playing.c.player_id, playing.c.game_id)
    .where(playing.c.player_id.in_(_IN.scalar_subquery()))
    .order_by(playing.c.player_id, playing.c.game_id)
    .with_for_update(read=True)
)
_RUNNING_ELSEWHERE = (
    sa.select(arena_games.c.game_id, arena_games.c.arena_id, arena_games.c.white, arena_games.c.black)
    .where(
        arena_games.c.outcome.is_(None),
        arena_games.c.arena_id != sa.bindparam("aid"),
        sa.or_(
            arena_games.c.white.in_(_IN.scalar_subquery()), arena_games.c.black.in_(_IN.scalar_subquery())
        ),
    )
    .order_by(arena_games.c.game_id)
    .with_for_update(read=True)
)
_STOP_PLAYING = sa.delete(playing).where(
    playing.c.player_id == sa.bindparam("pid"), playing.c.game_id == sa.bindparam("gid")
)


@functools.cache
def _upserts(dialect: str) -> tuple[sa.Executable, sa.Executable, sa.Executable]:
    """(enter, away when unknown, start playing), each one statement that a concurrent twin cannot
    break (ON CONFLICT)."""
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    entry = insert(arena_entries)
    enter = entry.on_conflict_do_update(
        index_elements=["arena_id", "player_id"],
        set_={
            "rating": entry.excluded.rating,
            "status": ACTIVE,
            # joining while active keeps when they came in; coming back from a pause is coming in
            "since": sa.case(
                (arena_entries.c.status == ACTIVE, arena_entries.c.since), else_=entry.excluded.since
            ),
        },
    )
    gone = insert(arena_entries)
    away = gone.on_conflict_do_update(
        index_elements=["arena_id", "player_id"], set_={"status": gone.excluded.status}
    )
    start = insert(playing).on_conflict_do_nothing(index_elements=["player_id", "game_id"])
    return enter, away, start


def _arena_of(row: Any) -> Arena:
    return Arena(
        row.id,
        row.organiser_id,
        row.name,
        aware(row.started_at),
        aware(row.ends_at),
        RateOfPlay(row.base_seconds, row.increment_seconds),
        aware_or_none(row.completed_at),
        Variant(row.variant),
    )


def _game_of(row: Any) -> FinishedArenaGame:
    return FinishedArenaGame(
        row.game_id,
        row.white,
        row.black,
        Outcome(row.outcome),
        aware(row.ended_at),
        row.white_boost,
        row.black_boost,
    )


class SqlArenas(Repository[uuid.UUID, Arena]):
    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session

    def _find(self, arena_id: uuid.UUID, *, lock: bool) -> Arena | None:
        query = _GET.with_for_update() if lock else _GET
        row = self.session.execute(query, {"aid": arena_id}).first()
        return None if row is None else _arena_of(row)

    def _insert(self, arena: Arena) -> None:
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

    def _update(self, arena: Arena) -> None:
        self.session.execute(
            sa.update(arenas).where(arenas.c.id == arena.id).values(completed_at=arena.completed_at)
        )

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

    def finished_games(self, arena_id: uuid.UUID, players: Iterable[uuid.UUID]) -> list[FinishedArenaGame]:
        who = list(players)
        query = sa.select(arena_games).where(
            arena_games.c.arena_id == arena_id,
            arena_games.c.outcome.is_not(None),
            sa.or_(arena_games.c.white.in_(who), arena_games.c.black.in_(who)),
        )
        return [_game_of(row) for row in self.session.execute(query)]

    def running(self, arena_id: uuid.UUID) -> int:
        return int(self.session.execute(_RUNNING, {"aid": arena_id}).scalar() or 0)

    # -- the record a lost pool is rebuilt from ------------------------------------------------------
    def _dialect(self) -> str:
        return self.session.get_bind().dialect.name

    def enter(self, arena_id: uuid.UUID, player: uuid.UUID, *, rating: int, at: dt.datetime) -> None:
        enter, _, _ = _upserts(self._dialect())
        row = {"arena_id": arena_id, "player_id": player, "status": ACTIVE, "since": at, "rating": rating}
        self.session.execute(enter, row)

    def away(self, arena_id: uuid.UUID, player: uuid.UUID, status: str, *, at: dt.datetime) -> None:
        _, away, _ = _upserts(self._dialect())
        row = {"arena_id": arena_id, "player_id": player, "status": status, "since": at, "rating": None}
        self.session.execute(away, row)

    def record(self, arena_id: uuid.UUID) -> ArenaRecord:
        aid = {"aid": arena_id}
        entrants = set(self.session.execute(_IN, aid).scalars())
        elsewhere: list[tuple[uuid.UUID, uuid.UUID, uuid.UUID | None]] = [
            (r.player_id, r.game_id, None) for r in self.session.execute(_PLAYING_ELSEWHERE, aid)
        ]
        entries = [
            Entry(r.player_id, r.status, aware(r.since), r.rating)
            for r in self.session.execute(_ENTRIES, aid)
        ]
        games = [
            PlayedGame(
                r.game_id,
                r.white,
                r.black,
                aware(r.paired_at),
                None if r.outcome is None else Outcome(r.outcome),
                aware_or_none(r.ended_at),
                r.white_boost,
                r.black_boost,
            )
            for r in self.session.execute(_GAMES, aid)
        ]
        for r in self.session.execute(_RUNNING_ELSEWHERE, aid):
            elsewhere += [(p, r.game_id, r.arena_id) for p in (r.white, r.black) if p in entrants]
        return ArenaRecord(entries, games, elsewhere)

    def start_playing(self, player: uuid.UUID, game: uuid.UUID) -> None:
        _, _, start = _upserts(self._dialect())
        self.session.execute(start, {"player_id": player, "game_id": game})

    def stop_playing(self, player: uuid.UUID, game: uuid.UUID) -> None:
        self.session.execute(_STOP_PLAYING, {"pid": player, "gid": game})
