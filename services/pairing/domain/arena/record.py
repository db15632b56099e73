"""What an arena's waiting pool holds, and how to make it again from the arena's record (issue 22).

The pool (in Redis in production) is a cache: everything a pass needs can be derived from what pairing
keeps in its database — the arena's **entries** (who joined, with what rating, whether they paused or
left, and since when they are in) and its **games** (paired when, by whom, and each finished one's result,
end and boosts). :func:`pool_state` derives it; the pool's ``rebuild`` writes it back when the pool was
lost (a Redis that came back empty), and ``snapshot`` reads a pool as the same :class:`PoolState`, so a
rebuilt pool can be compared with the one that was lost.

Derived, player by player and pair by pair (docs/arena.md, "When Redis loses the pool"):

- **waiting** — an active player waits from when they last came in (joined, or came back from a pause)
  if that was after their last game in this arena was paired; else from the end of that game, once it
  has ended (a player in a running game is not waiting);
- **absent** — paused or left;
- **points** — their finished games scored by ``shared.arena_scoring`` (0 before any);
- **ratings** — as they last joined;
- **colours** — whites − blacks over their games in this arena, and the colour of the last one paired;
- **meetings** — per pair, the games finished together and when the last one ended (their cooldown);
- **running** — the games paired and not finished, and the **in-game markers** of their players.

Not kept: how many passes a waiting player has spent waiting (their fairness count). It starts again at
zero; the pass then serves them by how long they have waited, which is the same order for everyone who
waited here all along.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Final

from services.pairing.domain.arena.cooldown import Meeting
from services.pairing.domain.arena.pairing import Side
from shared.arena_scoring import FinishedArenaGame, sheet
from shared.scoring import Outcome

ACTIVE: Final = "active"
PAUSED: Final = "paused"
LEFT: Final = "left"
STATUSES: Final = (ACTIVE, PAUSED, LEFT)


@dataclass(frozen=True, slots=True)
class Entry:
    """A player of the arena: ``status`` active, paused or left; ``since``: when they last came in (joined,
    or came back from a pause); ``rating``: as they last joined (None: never joined, only sent away)."""

    player: uuid.UUID
    status: str
    since: dt.datetime
    rating: int | None = None

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"an entry is {', '.join(STATUSES)}, not {self.status!r}")


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """A game the arena's passes made: running until it has an outcome and an end."""

    id: uuid.UUID
    white: uuid.UUID
    black: uuid.UUID
    paired_at: dt.datetime
    outcome: Outcome | None = None
    ended_at: dt.datetime | None = None
    white_boost: bool = False
    black_boost: bool = False

    @property
    def running(self) -> bool:
        return self.outcome is None or self.ended_at is None

    def result(self) -> FinishedArenaGame:
        assert self.outcome is not None and self.ended_at is not None, f"game {self.id} is running"
        return FinishedArenaGame(
            self.id, self.white, self.black, self.outcome, self.ended_at, self.white_boost, self.black_boost
        )


@dataclass(frozen=True)
class PoolState:
    """An arena's waiting pool, all of it but the fairness counts and the games not yet handed on.
    ``met`` is keyed by the pair; ``running`` maps a game to (white, black); ``playing`` holds the
    in-game markers of the arena's players (which game each is in, anywhere in Arbiter)."""

    waiting: Mapping[uuid.UUID, dt.datetime] = field(default_factory=dict)
    absent: Mapping[uuid.UUID, str] = field(default_factory=dict)
    points: Mapping[uuid.UUID, int] = field(default_factory=dict)
    ratings: Mapping[uuid.UUID, int] = field(default_factory=dict)
    balance: Mapping[uuid.UUID, int] = field(default_factory=dict)
    last: Mapping[uuid.UUID, Side] = field(default_factory=dict)
    met: Mapping[frozenset[uuid.UUID], Meeting] = field(default_factory=dict)
    running: Mapping[uuid.UUID, tuple[uuid.UUID, uuid.UUID]] = field(default_factory=dict)
    playing: Mapping[uuid.UUID, str] = field(default_factory=dict)

    def players(self) -> set[uuid.UUID]:
        """Everyone the pool knows."""
        return {*self.waiting, *self.absent, *self.points, *self.ratings, *self.balance}


def pool_state(entries: Iterable[Entry], games: Iterable[PlayedGame]) -> PoolState:
    """The pool these entries and games make (markers left to the caller, who knows the other games)."""
    games = sorted(games, key=lambda g: (g.paired_at, g.id.int))
    by_player: dict[uuid.UUID, list[PlayedGame]] = defaultdict(list)
    for g in games:
        by_player[g.white].append(g)
        by_player[g.black].append(g)

    waiting: dict[uuid.UUID, dt.datetime] = {}
    absent: dict[uuid.UUID, str] = {}
    ratings: dict[uuid.UUID, int] = {}
    joined: set[uuid.UUID] = set()
    for e in entries:
        if e.rating is not None:
            ratings[e.player] = e.rating
            joined.add(e.player)
        if e.status != ACTIVE:
            absent[e.player] = e.status
            continue
        mine = by_player.get(e.player)
        last = mine[-1] if mine else None
        if last is None or e.since > last.paired_at:
            waiting[e.player] = e.since  # came in after their last game was paired (or has none)
        elif not last.running:
            assert last.ended_at is not None
            waiting[e.player] = last.ended_at

    points: dict[uuid.UUID, int] = {}
    balance: dict[uuid.UUID, int] = {}
    colour: dict[uuid.UUID, Side] = {}
    for player in joined | set(by_player):
        mine = by_player.get(player, [])
        points[player] = sum(s.points for s in sheet(player, [g.result() for g in mine if not g.running]))
        if mine:
            balance[player] = sum(1 if g.white == player else -1 for g in mine)
            colour[player] = Side.WHITE if mine[-1].white == player else Side.BLACK

    met: dict[frozenset[uuid.UUID], Meeting] = {}
    for g in sorted((g for g in games if not g.running), key=lambda g: (g.ended_at, g.id.int)):
        assert g.ended_at is not None
        pair = frozenset((g.white, g.black))
        before = met.get(pair)
        met[pair] = Meeting(1, g.ended_at) if before is None else before.after(g.ended_at)

    running = {g.id: (g.white, g.black) for g in games if g.running}
    return PoolState(waiting, absent, points, ratings, balance, colour, met, running)
