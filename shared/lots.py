"""Drawing of lots where the regulations end in lots (C.07 4.2; 4T1 §5(3)(f)).

The draw is reproducible and recorded: a seed (chosen and announced by the organiser, or stored
with the event) fixes the order of every tied group; the record keeps the seed and the orders so the
draw can be shown and checked later. Each group is shuffled from its members in start-number order
with a generator seeded by ``seed`` and the group itself, so adding or removing an unrelated tie does
not change another group's draw.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["LotDraw", "draw_lots"]


@dataclass(frozen=True, slots=True)
class LotDraw:
    """A recorded draw: the seed and, for every tied group, its members in the order drawn."""

    seed: str
    groups: tuple[tuple[int, ...], ...]

    def to_dict(self) -> dict[str, object]:
        return {"seed": self.seed, "groups": [list(g) for g in self.groups]}


def _rng(seed: str, members: tuple[int, ...]) -> random.Random:
    material = f"arbiter-lots|{seed}|{','.join(map(str, members))}".encode()
    return random.Random(int.from_bytes(hashlib.sha256(material).digest(), "big"))


def draw_lots(groups: Iterable[Iterable[int]], seed: str) -> LotDraw:
    drawn: list[tuple[int, ...]] = []
    for group in groups:
        members = tuple(sorted(group))
        if len(members) < 2:
            continue
        order = list(members)
        _rng(seed, members).shuffle(order)
        drawn.append(tuple(order))
    return LotDraw(seed=seed, groups=tuple(drawn))
