"""What a pairing pass promises (:mod:`.pairing`, promises 1–7), checked from its input and output alone.

The property tests run it on every pass they make, the benchmark on every pool it pairs. Cooldowns are
recomputed here from the meetings (a meeting recorded on either side counts), independently of the
pass's own bookkeeping; a claimed maximum is confirmed by counting (at most one player left waiting has
an allowed partner) or, for small pools, against networkx's maximum matching.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Final

import networkx as nx

from services.pairing.domain.arena.pairing import (
    How,
    PassResult,
    Waiting,
    colours,
    priority_order,
    rank_key,
)

VERIFY_LIMIT: Final = 400
"""Up to this pool size a claimed maximum that counting cannot confirm is checked against networkx."""


@dataclass
class Report:
    problems: list[str] = field(default_factory=list)
    maximal: bool = True
    maximum: bool = False  # confirmed here: no pairing of the pool has more pairs
    neighbour_pairs: int = 0
    repaired_pairs: int = 0
    max_distance: int = 0  # places in the ranking between the two players of a pair
    mean_distance: float = 0.0

    @property
    def ok(self) -> bool:
        return not self.problems


def check(pool: Sequence[Waiting], now: dt.datetime, result: PassResult) -> Report:
    report = Report()
    by_id = {p.player: p for p in pool}
    ranked = sorted(pool, key=rank_key)
    place = {p.player: i for i, p in enumerate(ranked)}
    priority = {ranked[i].player: r for r, i in enumerate(priority_order(ranked))}
    blocked = _cooldowns(pool, now)

    def allowed(a: uuid.UUID, b: uuid.UUID) -> bool:
        return a != b and b not in blocked.get(a, ())

    def has_partner(a: uuid.UUID) -> bool:
        return len(blocked.get(a, ())) < len(pool) - 1

    # 1. nobody twice, nobody lost
    seen: list[uuid.UUID] = [x for p in result.pairs for x in (p.white, p.black)] + list(result.waiting)
    if len(seen) != len(set(seen)):
        report.problems.append("a player is in two pairs, or both paired and waiting")
    if set(seen) != set(by_id):
        report.problems.append("the pairs and the waiting players are not exactly the pool")
    if report.problems:
        return report
    partner = {p.white: p.black for p in result.pairs} | {p.black: p.white for p in result.pairs}

    distances: list[int] = []
    for p in result.pairs:
        # 2. cooldowns
        if not allowed(p.white, p.black):
            report.problems.append(f"{p.white} and {p.black} are paired inside their cooldown")
        # 5. closeness
        distance = abs(place[p.white] - place[p.black])
        distances.append(distance)
        if p.how is How.NEIGHBOURS:
            report.neighbour_pairs += 1
            higher = min(p.white, p.black, key=place.__getitem__)
            bound = 2 + len(blocked.get(higher, ()))
            if distance > bound:
                report.problems.append(f"a neighbour pair {distance} places apart (bound {bound})")
        else:
            report.repaired_pairs += 1
        # 7. colours
        white, black = colours(by_id[p.white], by_id[p.black])
        if (white.player, black.player) != (p.white, p.black):
            report.problems.append(f"{p.white}–{p.black}: the colours are the wrong way round")
    report.max_distance = max(distances, default=0)
    report.mean_distance = sum(distances) / len(distances) if distances else 0.0

    # 3. maximal
    waiting = list(result.waiting)
    for i, a in enumerate(waiting):
        for b in waiting[i + 1 :]:
            if allowed(a, b):
                report.maximal = False
                report.problems.append(f"{a} and {b} are both left waiting but could be paired")

    # 4. maximum
    left_with_partners = [a for a in waiting if has_partner(a)]
    if len(left_with_partners) <= 1:
        report.maximum = True
    elif len(pool) <= VERIFY_LIMIT:
        report.maximum = len(result.pairs) == _maximum_pairs(pool, allowed)
    if result.maximum and not report.maximum:
        report.problems.append("the pass claims a maximum matching that is not (or cannot be) confirmed")

    # 6. fairness
    if list(result.waiting) != sorted(result.waiting, key=priority.__getitem__):
        report.problems.append("the waiting players are not in priority order")
    for u in left_with_partners:
        for v, w in partner.items():
            if priority[v] > priority[u] and allowed(u, w):
                report.problems.append(
                    f"{u} waits while {v}, served after them, plays {w}, whom {u} could have played"
                )
                break
    return report


def _cooldowns(pool: Sequence[Waiting], now: dt.datetime) -> dict[uuid.UUID, set[uuid.UUID]]:
    present = {p.player for p in pool}
    blocked: dict[uuid.UUID, set[uuid.UUID]] = {}
    for p in pool:
        for other, meeting in p.met.items():
            if other in present and other != p.player and meeting.active(now):
                blocked.setdefault(p.player, set()).add(other)
                blocked.setdefault(other, set()).add(p.player)
    return blocked


def _maximum_pairs(pool: Sequence[Waiting], allowed: Callable[[uuid.UUID, uuid.UUID], bool]) -> int:
    graph: nx.Graph[uuid.UUID] = nx.Graph()
    ids = [p.player for p in pool]
    graph.add_nodes_from(ids)
    graph.add_edges_from((a, b) for i, a in enumerate(ids) for b in ids[i + 1 :] if allowed(a, b))
    return len(nx.max_weight_matching(graph, maxcardinality=True))
