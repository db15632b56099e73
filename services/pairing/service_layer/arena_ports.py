"""What the arena's pairing needs from the waiting pool (docs/arena.md, "The pool").

The pool holds, per arena, who waits and since when, who paused or left, the points and ratings the
ranking needs, the colours and the meetings the pass needs, the games it paired that are still running,
and the games committed but not yet handed on; per player, across every arena and tournament, whether
they are in a game (the in-game marker); and per arena a **lease**: one worker at a time runs its passes.

The pool is a cache (issue 22): what it holds is derived from the arena's record in pairing's database
(:mod:`services.pairing.domain.arena.record`), and a pool that was lost (a Redis that came back empty) is
rebuilt from it under the lease. Each pool carries a mark of having been built (:meth:`ArenaPool.open` at
the arena's start, :meth:`ArenaPool.rebuild` after a loss), which goes with the rest of the data: a
missing mark is a lost pool.

Two adapters hold to one contract (``tests/arena_pool_contract.py``): Redis
(``adapters/arena_pool.py``) and an in-memory twin for the embedded mode and the unit tests.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from services.pairing.domain.arena.arena import Arena
from services.pairing.domain.arena.pairing import Waiting
from services.pairing.domain.arena.record import Entry, PlayedGame, PoolState
from shared.aggregate import Seen
from shared.arena_scoring import FinishedArenaGame
from shared.scoring import Outcome


class ArenaPoolUnavailable(Exception):
    """The pool's store cannot be reached (an outage: retried, never dead-lettered)."""


class LeaseLost(Exception):
    """The worker no longer holds the arena's lease (it expired, or another worker took it over): its
    pass is not committed, and nothing of it was written."""


@dataclass(frozen=True, slots=True)
class NewGame:
    """A game a pass paired."""

    id: uuid.UUID
    white: uuid.UUID
    black: uuid.UUID


@dataclass(frozen=True, slots=True)
class Committed:
    """What a commit did: the games made, and the pairs dropped because a player had left the pool
    (paused, left, or paired elsewhere) between the read and the commit."""

    games: tuple[NewGame, ...]
    dropped: tuple[NewGame, ...]


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """A game of the arena ended at ``ended_at``; the players' arena points after it (None: unchanged)."""

    id: uuid.UUID
    white: uuid.UUID
    black: uuid.UUID
    ended_at: dt.datetime
    white_points: int | None = None
    black_points: int | None = None


def arena_game_ref(arena: uuid.UUID, game: uuid.UUID) -> str:
    """The in-game marker of a player in an arena game."""
    return f"arena:{arena}:{game}"


class ArenaPool(Protocol):
    # -- players ----------------------------------------------------------------------------------
    def join(self, arena: uuid.UUID, player: uuid.UUID, *, rating: int, at: dt.datetime) -> None:
        """The player waits from ``at`` (kept if already waiting); a paused player keeps their points."""

    def pause(self, arena: uuid.UUID, player: uuid.UUID) -> None:
        """Out of the pool until they join again; a game running goes on, and they are not put back
        when it ends."""

    def leave(self, arena: uuid.UUID, player: uuid.UUID) -> None:
        """As pause, recorded as having left."""

    def rescore(self, arena: uuid.UUID, points: dict[uuid.UUID, int]) -> None:
        """Players' arena points changed otherwise (a corrected result)."""

    # -- the lease --------------------------------------------------------------------------------
    def take_lease(self, arena: uuid.UUID, token: str, ttl_ms: int) -> bool:
        """Take the arena's lease for ``ttl_ms``, or renew it if ``token`` holds it; False if another
        token holds it."""

    def release_lease(self, arena: uuid.UUID, token: str) -> None:
        """Give the lease up if ``token`` holds it."""

    # -- a pass -----------------------------------------------------------------------------------
    def waiting(self, arena: uuid.UUID, now: dt.datetime) -> list[Waiting]:
        """The players a pass at ``now`` may pair: waiting and in no game anywhere, with the meetings
        still in cooldown at ``now``."""

    def commit(
        self,
        arena: uuid.UUID,
        token: str,
        games: Sequence[NewGame],
        left_waiting: Iterable[uuid.UUID],
        at: dt.datetime,
    ) -> Committed:
        """Atomically, and only while ``token`` holds the lease (else :class:`LeaseLost`, nothing
        written): each game whose two players are still waiting and in no game is made — both leave
        the pool, get their in-game marker and their colour — and is kept as not yet announced; the
        other pairs are dropped. The players left waiting count one more pass spent waiting.
        Committing the same game again reports it made (a retry after a lost reply)."""

    def unannounced(self, arena: uuid.UUID) -> tuple[NewGame, ...]:
        """Games committed and not yet handed on (a worker that died after committing left them)."""

    def announced(self, arena: uuid.UUID, games: Iterable[uuid.UUID]) -> None:
        """The games were handed on (written to the outbox)."""

    # -- after a game ------------------------------------------------------------------------------
    def finish(self, arena: uuid.UUID, game: FinishedGame) -> bool:
        """The game ended: the markers go, the meeting is recorded (its cooldown runs from
        ``ended_at``), the points are set, and each player not paused or gone waits again from
        ``ended_at``. True the first time; a repeated or unknown game changes nothing but the
        markers."""

    # -- in a game anywhere --------------------------------------------------------------------------
    def playing(self, player: uuid.UUID) -> str | None:
        """The in-game marker: which game the player is in, or None."""

    def start_playing(self, player: uuid.UUID, ref: str) -> bool:
        """Mark the player as in a game elsewhere (a tournament game); False if already in one."""

    def stop_playing(self, player: uuid.UUID, ref: str) -> None:
        """That game ended: the marker goes if it is still this game's."""

    def discard(self, arena: uuid.UUID) -> None:
        """The arena is over: its pool goes (the in-game markers of running games stay until they end)."""

    def ping(self) -> None:
        """Answer if the pool's store is reachable (else :class:`ArenaPoolUnavailable`)."""

    # -- a lost pool ---------------------------------------------------------------------------------
    def open(self, arena: uuid.UUID) -> None:
        """Mark the arena's pool as built (the arena started; its players join as they come)."""

    def intact(self, arena: uuid.UUID) -> bool:
        """False when the pool was lost since it was built (its mark is gone with the rest)."""

    def rebuild(self, arena: uuid.UUID, token: str, state: PoolState) -> None:
        """Write ``state`` into the arena's pool and mark it built, atomically and only while ``token``
        holds the lease (else :class:`LeaseLost`, nothing written). What the pool holds besides (a player
        who joined since the state was read) is kept; an in-game marker already set is kept."""


@dataclass(frozen=True, slots=True)
class ArenaRecord:
    """An arena's record in pairing's database: its entries, every game its passes made, and the games
    its players are in outside it, as (player, game, that game's arena or None for a tournament's)."""

    entries: list[Entry]
    games: list[PlayedGame]
    elsewhere: list[tuple[uuid.UUID, uuid.UUID, uuid.UUID | None]]


class ArenaRepository(Protocol):
    """The arenas and the games their passes made (pairing's database)."""

    @property
    def seen(self) -> Seen[Arena]: ...

    def get(self, arena_id: uuid.UUID, *, lock: bool = False) -> Arena | None:
        """The arena; ``lock``: its row lock, which every change of the arena holds."""

    def add(self, arena: Arena) -> None: ...
    def save(self, arena: Arena) -> None: ...

    def open_ids(self) -> list[uuid.UUID]:
        """The arenas not yet complete."""

    def add_games(self, arena_id: uuid.UUID, games: Sequence[NewGame], at: dt.datetime) -> list[NewGame]:
        """Keep the games a pass made; the ones not kept before (a game handed on again is kept once)."""

    def finish_game(
        self, game_id: uuid.UUID, outcome: Outcome, boost: tuple[bool, bool], ended_at: dt.datetime
    ) -> tuple[uuid.UUID, NewGame] | None:
        """The game's result (again: replaced); its arena and players, None if no arena has it."""

    def finished_games(self, arena_id: uuid.UUID, players: Iterable[uuid.UUID]) -> list[FinishedArenaGame]:
        """The finished games of these players in the arena."""

    def running(self, arena_id: uuid.UUID) -> int:
        """How many of the arena's games have no result yet."""

    # -- the record a lost pool is rebuilt from ------------------------------------------------------
    def enter(self, arena_id: uuid.UUID, player: uuid.UUID, *, rating: int, at: dt.datetime) -> None:
        """The player joined (or came back from a pause) at ``at``: active, with this rating. Joining
        while active keeps when they came in."""

    def away(self, arena_id: uuid.UUID, player: uuid.UUID, status: str, *, at: dt.datetime) -> None:
        """The player paused or left (``status``)."""

    def record(self, arena_id: uuid.UUID) -> ArenaRecord:
        """What the arena's pool is made from. On PostgreSQL the rows read are share-locked until the
        transaction ends (in the order the consumer writes them: who plays, entries, games), so a result
        or an entry being written waits, and then reaches the rebuilt pool."""

    def start_playing(self, player: uuid.UUID, game: uuid.UUID) -> None:
        """A game anywhere in Arbiter started with the player in it (the in-game marker's record)."""

    def stop_playing(self, player: uuid.UUID, game: uuid.UUID) -> None:
        """That game ended or was cancelled."""
