"""Seeding for elimination brackets: the seed list, and where each seed starts in the bracket.

The seed list (RULES.md §4) is made by registration when the organiser starts the event — by rating, in
the organiser's order, or by a random draw — and arrives with the roster, seed 1 first. Pairing keeps it
with the bracket. A drawn list keeps its draw seed and must be the draw of that seed (``shared.seed_draw``,
which registration draws with: each player's key is the SHA-256 of ``"<draw seed>:<player id>"``, the
order is by key, then id), so a drawn order can always be checked again and cannot be replaced by
another.

Placing seeds in the bracket — the classic order: the slots start as ``[1, 2]`` and each round of
doubling replaces every seed p by ``p, 2L + 1 − p`` (L = the current length). For 8 slots that gives
``1 8 4 5 2 7 3 6``: seed 1 meets the lowest seed, 1 and 2 can meet only in the final, 1–4 only in the
semi-finals, and so on. Seeds above the player count are byes, so the byes go to the top seeds.
"""

from __future__ import annotations

from dataclasses import dataclass

from shared.seed_draw import draw_order
from shared.vocabulary import Seeding


class SeedingError(ValueError):
    """A seed list that cannot be made from the given roster."""


def classic_order(size: int) -> tuple[int, ...]:
    """Seeds in slot order for a bracket of ``size`` slots (a power of two, at least 2)."""
    if size < 2 or size & (size - 1):
        raise SeedingError(f"a bracket has a power of two of slots (2, 4, 8, …), not {size}")
    slots = [1, 2]
    while len(slots) < size:
        length = len(slots)
        slots = [seed for p in slots for seed in (p, 2 * length + 1 - p)]
    return tuple(slots)


@dataclass(frozen=True)
class SeedList:
    """The seed list: ``order[0]`` is seed 1; ``kind`` says how it was made; ``draw_seed`` is kept for
    a drawn one."""

    kind: Seeding
    order: tuple[str, ...]
    draw_seed: int | None = None

    def __post_init__(self) -> None:
        if len(set(self.order)) != len(self.order):
            raise SeedingError("a player appears twice in the seed list")
        if (self.kind is Seeding.RANDOM) != (self.draw_seed is not None):
            raise SeedingError("a drawn seed list keeps its draw seed, and only a drawn one has one")
        if self.draw_seed is not None and draw_order(self.order, self.draw_seed) != self.order:
            raise SeedingError("the order is not the draw of its draw seed")

    def player(self, seed: int) -> str:
        if not 1 <= seed <= len(self.order):
            raise SeedingError(f"there is no seed {seed}")
        return self.order[seed - 1]
