"""Seeding for knockout brackets: the seed list, and where each seed starts in the bracket.

The seed list (RULES.md §4) comes from one of three kinds:

* ``rating`` — highest rating in the tournament's time control is seed 1; equal ratings are ordered by
  name (case-insensitive, then exactly, then by player id so the order is total); players without a
  rating come after every rated player, by name.
* ``custom`` — the organiser's order.
* ``draw`` — a random order drawn from a recorded draw seed (``shared.seed_draw``, which registration
  also uses when it draws a knockout's seeds). Each player's key is the SHA-256 of
  ``"<draw seed>:<player id>"``; the order is by key (then id). The same seed and roster always give the
  same order, on any machine and Python version, and the order does not depend on the roster's order.

Placing seeds in the bracket — the classic order: the slots start as ``[1, 2]`` and each round of
doubling replaces every seed p by ``p, 2L + 1 − p`` (L = the current length). For 8 slots that gives
``1 8 4 5 2 7 3 6``: seed 1 meets the lowest seed, 1 and 2 can meet only in the final, 1–4 only in the
semi-finals, and so on. Seeds above the player count are byes, so the byes go to the top seeds.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from shared import seed_draw


class SeedingError(ValueError):
    """A seed list that cannot be made from the given roster."""


class SeedingKind(StrEnum):
    RATING = "rating"
    CUSTOM = "custom"
    DRAW = "draw"


@dataclass(frozen=True)
class Entrant:
    """A player as the seeding sees them. ``rating``: in the tournament's time control, None if unrated."""

    id: str
    name: str
    rating: int | None = None


def classic_order(size: int) -> tuple[int, ...]:
    """Seeds in slot order for a bracket of ``size`` slots (a power of two, at least 2)."""
    if size < 2 or size & (size - 1):
        raise SeedingError(f"a bracket has a power of two of slots (2, 4, 8, …), not {size}")
    slots = [1, 2]
    while len(slots) < size:
        length = len(slots)
        slots = [seed for p in slots for seed in (p, 2 * length + 1 - p)]
    return tuple(slots)


def first_round(players: int, size: int) -> tuple[tuple[int | None, int | None], ...]:
    """The first-round pairs of seeds in bracket order; None is a bye (a seed above ``players``)."""
    order = [seed if seed <= players else None for seed in classic_order(size)]
    return tuple((order[i], order[i + 1]) for i in range(0, size, 2))


@dataclass(frozen=True)
class Seeding:
    """The seed list: ``order[0]`` is seed 1. ``draw_seed`` is kept for a drawn order."""

    kind: SeedingKind
    order: tuple[str, ...]
    draw_seed: int | None = None

    def __post_init__(self) -> None:
        if len(set(self.order)) != len(self.order):
            raise SeedingError("a player appears twice in the seed list")
        if (self.kind is SeedingKind.DRAW) != (self.draw_seed is not None):
            raise SeedingError("a drawn seed list keeps its draw seed, and only a drawn one has one")

    @classmethod
    def by_rating(cls, entrants: Iterable[Entrant]) -> Seeding:
        def key(e: Entrant) -> tuple[bool, int, str, str, str]:
            return (e.rating is None, -(e.rating or 0), e.name.casefold(), e.name, e.id)

        return cls(SeedingKind.RATING, tuple(e.id for e in sorted(_unique(entrants), key=key)))

    @classmethod
    def custom(cls, entrants: Iterable[Entrant], order: Sequence[str]) -> Seeding:
        roster = {e.id for e in _unique(entrants)}
        if len(set(order)) != len(order):
            raise SeedingError("a player appears twice in the custom order")
        missing, extra = roster - set(order), set(order) - roster
        if missing or extra:
            parts = []
            if missing:
                parts.append(f"missing {', '.join(sorted(missing))}")
            if extra:
                parts.append(f"not entered: {', '.join(sorted(extra))}")
            raise SeedingError(f"the custom order must list every player once ({'; '.join(parts)})")
        return cls(SeedingKind.CUSTOM, tuple(order))

    @classmethod
    def drawn(cls, entrants: Iterable[Entrant], draw_seed: int) -> Seeding:
        return cls(SeedingKind.DRAW, draw_order((e.id for e in _unique(entrants)), draw_seed), draw_seed)

    def seed_of(self, player_id: str) -> int:
        try:
            return self.order.index(player_id) + 1
        except ValueError:
            raise SeedingError(f"{player_id} is not in the seed list") from None

    def player(self, seed: int) -> str:
        if not 1 <= seed <= len(self.order):
            raise SeedingError(f"there is no seed {seed}")
        return self.order[seed - 1]

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "order": list(self.order), "draw_seed": self.draw_seed}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Seeding:
        try:
            kind = SeedingKind(data["kind"])
            order = tuple(str(p) for p in data["order"])
            draw_seed = data.get("draw_seed")
        except (KeyError, TypeError, ValueError) as exc:
            raise SeedingError(f"not a seed list: {exc}") from None
        if kind is SeedingKind.DRAW:
            if not isinstance(draw_seed, int):
                raise SeedingError("a drawn seed list needs its draw seed")
            if draw_order(order, draw_seed) != order:
                raise SeedingError("the stored order is not the draw of its draw seed")
        return cls(kind, order, draw_seed)


def draw_order(player_ids: Iterable[str], draw_seed: int) -> tuple[str, ...]:
    """The random order of a draw, reproducible from ``draw_seed`` (see the module text)."""
    try:
        return seed_draw.draw_order(player_ids, draw_seed)
    except seed_draw.DrawError as exc:
        raise SeedingError(str(exc)) from None


new_draw_seed = seed_draw.new_draw_seed


def _unique(entrants: Iterable[Entrant]) -> list[Entrant]:
    listed = list(entrants)
    if len({e.id for e in listed}) != len(listed):
        raise SeedingError("a player appears twice in the roster")
    return listed
