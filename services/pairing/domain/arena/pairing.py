"""One pairing pass over an arena's waiting pool (issue 12, RULES.md §3). docs/arena.md explains it with
figures; :mod:`.checker` checks every promise below from a pass's input and output alone.

**Input:** the players waiting now (:class:`Waiting`: arena points, rating, since when they wait, how many
passes already left them waiting, their colours so far, and the meetings that may still be in cooldown)
and the instant of the pass. **Output** (:class:`PassResult`): the pairs with their colours, the players
left waiting (first served first), when two of those could meet at the earliest, and whether the
matching is proved maximum.

**Promises:**

1. *Nobody twice:* every waiting player is in exactly one pair or left waiting.
2. *Cooldowns:* no pair is inside its cooldown (:mod:`.cooldown`).
3. *Maximal:* no two players left waiting could be paired with each other.
4. *Maximum* (``PassResult.maximum``): as many pairs as any pairing of this pool allows — proved when
   at most one player left waiting has an allowed partner anywhere in the pool, or when the exact
   matching ran (pools of at most :data:`EXACT_LIMIT` players). Outside that, the pass is still maximal,
   and it is also maximum unless a player left waiting is in cooldown with at least a fifth of the
   pool (docs/arena.md, "Guarantees").
5. *Close in the ranking:* the players are ranked by arena points, then rating (so by rating before
   anyone scored), then id. A pair made by the neighbour pass (``How.NEIGHBOURS``) is at most
   ``2 + c`` places apart, ``c`` the number of waiting players the higher-ranked one is in cooldown
   with. The repair steps (``How.REPAIR``, ``How.EXACT``) pair further apart only where that pairs
   more players or serves a longer-waiting player.
6. *Fairness* (**Decision**): players are served in order of priority — more passes already spent
   waiting first, then earlier into the pool, then higher ranked. With an odd pool the lowest-priority
   player sits out; and no player is left waiting while a lower-priority player is paired with
   someone the waiting player could have played instead. A player left waiting therefore has the top
   priority among the newly arrived in the next pass.
7. *Colours* (**Decision**): the player who had White less often in this arena (whites − blacks) gets
   White; if even, the one who did not have White in their last game; if still even, a coin that is
   the same whoever asks (the CRC-32 of the two ids).

**How** (n players, d the most cooldowns one player has in the pool): sort by rank (n log n); the
neighbour pass takes the players from the top, each pairing with the nearest free player below not in
cooldown with them (a linked list of free players: O(n + Σ cooldowns)); then the repairs, which only
touch the few players left: players left pair with each other, then an augmenting swap (left u and x,
a pair v–w with u–v and w–x allowed becomes u–v, w–x; O(d) each), the exact maximum matching for small
pools (rustworkx, O(n³) on at most :data:`EXACT_LIMIT` players), and the fairness swaps.
"""

from __future__ import annotations

import datetime as dt
import heapq
import uuid
import zlib
from collections.abc import Iterator, Mapping, Sequence, Set
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final

import rustworkx as rx

from services.pairing.domain.arena.cooldown import Meeting, cooldown

EXACT_LIMIT: Final = 200
"""Pools up to this size fall back to the exact maximum matching when the fast steps leave two or more
players who could still be paired (tens of milliseconds at this size)."""

_EMPTY: Final[frozenset[int]] = frozenset()


class Side(StrEnum):
    """White or Black: the side a player had in their last arena game (rule 7, colours)."""

    WHITE = "white"
    BLACK = "black"


class How(StrEnum):
    """Which step made a pair (the closeness bound holds for the neighbour pass)."""

    NEIGHBOURS = "neighbours"
    REPAIR = "repair"
    EXACT = "exact"


class PoolError(ValueError):
    """The pool given to a pass is not a pool: a player appears twice."""


@dataclass(frozen=True, slots=True)
class Waiting:
    """A player in the waiting pool.

    ``met``: the opponents met in this arena whose cooldown may still run (older meetings may be left
    out). A meeting recorded on either side counts.
    """

    player: uuid.UUID
    score: int
    rating: int
    since: dt.datetime
    skipped: int = 0
    colour_balance: int = 0  # whites − blacks in this arena
    last_colour: Side | None = None
    met: Mapping[uuid.UUID, Meeting] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ArenaPairing:
    white: uuid.UUID
    black: uuid.UUID
    how: How


@dataclass(frozen=True, slots=True)
class PassResult:
    pairs: tuple[ArenaPairing, ...]  # the higher-ranked player's place first (board order)
    waiting: tuple[uuid.UUID, ...]  # left waiting, highest priority first
    retry_at: dt.datetime | None  # the earliest end of a cooldown between two players left waiting
    maximum: bool  # proved: no pairing of this pool has more pairs


def rank_key(player: Waiting) -> tuple[int, int, int]:
    """The arena ranking as the pool knows it: points, then rating, then id (all higher first)."""
    return (-player.score, -player.rating, player.player.int)


def cooldown_pairs(players: Sequence[Waiting], now: dt.datetime) -> list[Set[int]]:
    """For each player (by place in ``players``), the places of the players they may not meet now."""
    place = {p.player.int: i for i, p in enumerate(players)}
    # a meeting of g games is still in cooldown when it ended after now − g × 5 min
    since: dict[int, dt.datetime] = {}
    sets: list[set[int] | None] = [None] * len(players)
    for i, player in enumerate(players):
        for opponent, meeting in player.met.items():
            j = place.get(opponent.int)
            if j is None or j == i:
                continue
            games = meeting.games
            horizon = since.get(games)
            if horizon is None:
                horizon = since[games] = now - cooldown(games)
            if meeting.last_ended_at <= horizon:
                continue
            for a, b in ((i, j), (j, i)):
                mine = sets[a]
                if mine is None:
                    sets[a] = {b}
                else:
                    mine.add(b)
    return [_EMPTY if s is None else s for s in sets]


def priority_order(players: Sequence[Waiting]) -> list[int]:
    """Places in ``players`` (rank order), first served first: more passes spent waiting, earlier into
    the pool, higher ranked."""
    return sorted(range(len(players)), key=lambda i: (-players[i].skipped, players[i].since, i))


def colours(a: Waiting, b: Waiting) -> tuple[Waiting, Waiting]:
    """(white, black) for two players (promise 7)."""
    if a.colour_balance != b.colour_balance:
        return (a, b) if a.colour_balance < b.colour_balance else (b, a)
    wants_a, wants_b = _wants_white(a), _wants_white(b)
    if wants_a != wants_b:
        return (a, b) if wants_a > wants_b else (b, a)
    low, high = (a, b) if a.player.int < b.player.int else (b, a)
    return (low, high) if zlib.crc32(low.player.bytes + high.player.bytes) % 2 == 0 else (high, low)


_WANTS_WHITE: Final[Mapping[Side | None, int]] = {Side.BLACK: 2, None: 1, Side.WHITE: 0}


def _wants_white(player: Waiting) -> int:
    return _WANTS_WHITE[player.last_colour]


def pair(pool: Sequence[Waiting], now: dt.datetime, *, exact_limit: int = EXACT_LIMIT) -> PassResult:
    """One pass over the waiting pool at ``now``."""
    return _Pass(pool, now, exact_limit).run()


class _Pass:
    def __init__(self, pool: Sequence[Waiting], now: dt.datetime, exact_limit: int) -> None:
        self.players = sorted(pool, key=rank_key)
        self.n = len(self.players)
        if len({p.player for p in self.players}) != self.n:
            raise PoolError("a player is in the waiting pool twice")
        self.now = now
        self.exact_limit = exact_limit
        self.blocked = cooldown_pairs(self.players, now)
        self.by_priority = priority_order(self.players)
        self.priority = [0] * self.n
        for rank, i in enumerate(self.by_priority):
            self.priority[i] = rank
        self.partner = [-1] * self.n
        self.how: list[How | None] = [None] * self.n

    # -- the steps ------------------------------------------------------------------------------
    def run(self) -> PassResult:
        self.neighbour_pass(self.sitting_out())
        exact = False
        while True:
            grew = self.pair_the_left()
            grew = self.augmenting_swaps() or grew
            if not exact and self.n <= self.exact_limit and self.left_with_partners() >= 2:
                self.exact_matching()
                exact = grew = True
            if not self.fairness_swaps() and not grew:
                break
        return self.result(maximum=exact or self.left_with_partners() <= 1)

    def sitting_out(self) -> int | None:
        """With an odd pool, the lowest-priority player is set aside before the neighbour pass, so the
        one left over is the one who waited least rather than whoever ranks last (the repairs may
        still pair them)."""
        return self.by_priority[-1] if self.n % 2 else None

    def neighbour_pass(self, sitting_out: int | None) -> None:
        """From the top of the ranking: each free player takes the nearest free player below them
        who is not in cooldown with them."""
        n, partner, how, blocked = self.n, self.partner, self.how, self.blocked
        after = list(range(1, n + 1))  # the next free place (n: none), kept for free places only
        before = list(range(-1, n - 1))

        def unlink(k: int) -> None:
            a, b = before[k], after[k]
            if a >= 0:
                after[a] = b
            if b < n:
                before[b] = a

        if sitting_out is not None:
            unlink(sitting_out)
        for i in range(n):
            if partner[i] >= 0 or i == sitting_out:
                continue
            unlink(i)
            mine = blocked[i]
            j = after[i]
            while j < n and j in mine:
                j = after[j]
            if j < n:
                partner[i], partner[j] = j, i
                how[i] = how[j] = How.NEIGHBOURS
                unlink(j)

    def pair_the_left(self) -> bool:
        """Players left waiting pair with each other, first served first, each with the nearest in rank."""
        left = self.left()
        grew = False
        for u in left:
            if self.partner[u] >= 0:
                continue
            mine = self.blocked[u]
            others = [x for x in left if x != u and self.partner[x] < 0 and x not in mine]
            if others:
                self.match(u, min(others, key=lambda x: (abs(x - u), self.priority[x])), How.REPAIR)
                grew = True
        return grew

    def augmenting_swaps(self) -> bool:
        """Two players left waiting, u and x, in cooldown with each other: a pair v–w with u–v and w–x
        allowed becomes u–v and w–x, one more pair. Pairs are tried nearest to u first. Fewer than
        c(u) + c(x) + 1 pairs can fail (each cooldown spoils at most one pair), so a swap costs O(c)."""
        grew, changed = False, True
        while changed:
            changed = False
            left = self.left()
            for u in left:
                if self.partner[u] >= 0:
                    continue
                for x in left:
                    if x != u and self.partner[x] < 0 and self.swap_in(u, x):
                        grew = changed = True
                        break
        return grew

    def swap_in(self, u: int, x: int) -> bool:
        blocked_u, blocked_x, partner = self.blocked[u], self.blocked[x], self.partner
        for v in self.outward(u):
            w = partner[v]
            if w >= 0 and v not in blocked_u and w not in blocked_x:
                self.match(u, v, How.REPAIR)
                self.match(x, w, How.REPAIR)
                return True
        return False

    def exact_matching(self) -> None:
        """A maximum matching of the whole (small) pool; among those, the smallest total distance in rank."""
        graph: rx.PyGraph = rx.PyGraph(multigraph=False)
        graph.add_nodes_from(range(self.n))
        graph.add_edges_from(
            [
                (i, j, self.n - (j - i))
                for i in range(self.n)
                for j in range(i + 1, self.n)
                if j not in self.blocked[i]
            ]
        )
        matching = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
        self.partner = [-1] * self.n
        self.how = [None] * self.n
        for a, b in matching:
            self.match(a, b, How.EXACT)

    def fairness_swaps(self) -> bool:
        """A player left waiting takes the place of the lowest-priority paired player below them whose
        partner they may play; the displaced player tries the same further down."""
        swapped = False
        heap = [(self.priority[u], u) for u in self.left() if self.has_partner_in_pool(u)]
        heapq.heapify(heap)
        while heap:
            rank, u = heapq.heappop(heap)
            if self.partner[u] >= 0:
                continue
            mine = self.blocked[u]
            for lower in range(self.n - 1, rank, -1):
                v = self.by_priority[lower]
                w = self.partner[v]
                if w >= 0 and w not in mine:
                    self.partner[v], self.how[v] = -1, None
                    self.match(u, w, How.REPAIR)
                    heapq.heappush(heap, (lower, v))
                    swapped = True
                    break
        return swapped

    # -- helpers --------------------------------------------------------------------------------
    def match(self, a: int, b: int, how: How) -> None:
        self.partner[a], self.partner[b] = b, a
        self.how[a] = self.how[b] = how

    def left(self) -> list[int]:
        """The players not paired (yet), first served first."""
        return sorted((i for i in range(self.n) if self.partner[i] < 0), key=self.priority.__getitem__)

    def has_partner_in_pool(self, u: int) -> bool:
        return len(self.blocked[u]) < self.n - 1

    def left_with_partners(self) -> int:
        return sum(1 for u in self.left() if self.has_partner_in_pool(u))

    def outward(self, u: int) -> Iterator[int]:
        for d in range(1, self.n):
            if u - d >= 0:
                yield u - d
            if u + d < self.n:
                yield u + d

    def result(self, *, maximum: bool) -> PassResult:
        players, pairs = self.players, []
        for i in range(self.n):
            j = self.partner[i]
            if j > i:
                how = self.how[i]
                assert how is not None
                white, black = colours(players[i], players[j])
                pairs.append(ArenaPairing(white.player, black.player, how))
        left = self.left()
        return PassResult(tuple(pairs), tuple(players[u].player for u in left), self.retry_at(left), maximum)

    def retry_at(self, left: list[int]) -> dt.datetime | None:
        """When the first cooldown between two players left waiting ends."""
        ends: list[dt.datetime] = []
        for u in left:
            player = self.players[u]
            for x in left:
                if x in self.blocked[u]:
                    other = self.players[x]
                    meetings = [m for m in (player.met.get(other.player), other.met.get(player.player)) if m]
                    ends.append(max(m.ends for m in meetings))
        return min(ends, default=None)
