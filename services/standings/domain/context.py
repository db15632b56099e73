"""What every tie-break computation reads: the history, the rules that apply, and caches.

The caches (each player's :class:`~services.standings.domain.unplayed.Basis` and intermediate values
such as plain BH for AOB or TPR for APRO) are what the incremental
:class:`~services.standings.domain.ranking.Standings` invalidates when a result changes.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from fractions import Fraction

from services.standings.domain.history import Edition, EventHistory
from services.standings.domain.unplayed import Basis, player_basis

__all__ = ["Rules", "TieBreakContext", "Value"]

Value = Fraction | int | None
"""A tie-break value: exact points, a count or rating, or None where the regulations leave it undefined."""


@dataclass(frozen=True, slots=True)
class Rules:
    """How the tie-breaks are computed.

    ``edition``: which C.07 edition applies (see :func:`~services.standings.domain.history.edition_for`).
    ``unrated_rating``: the rating an unrated opponent counts with in ARO, TPR, PTP and APRO. When it
    is None and any participant is unrated, those tie-breaks are undefined (None) for everyone (C.07
    leaves the rating of unrated players to the tournament regulations).
    ``byes_as_opponents``: C.07 16.4 — a round without an opponent (a bye) is a game against a dummy
    opponent. False where a ruleset says "a bye is no opponent" (``platform`` BH-C1, the draughts
    Solkoff option): such a round then adds nothing to BH, SB or FB and is not counted by WIN.
    Forfeits keep C.07's handling either way (they have a scheduled opponent), unless
    ``platform_definitions``.
    ``platform_definitions``: the platform's own definitions (RULES.md §2, seed "Turniere") instead of
    C.07's: BH is "the sum of the final points of all opponents", so every scheduled opponent — a
    forfeit's too — counts with their real score (no dummy opponent, no adjusted score of 16.3, and a
    cut drops the weakest opponent, with no VUR preference of 16.5); SB is "the points of the beaten
    opponents plus half the points of the drawn ones": each opponent's score × the points made
    against them ÷ a win's points (on 2-1-0, half of C.07's product)."""

    edition: Edition = Edition.E2026
    unrated_rating: int | None = None
    byes_as_opponents: bool = True
    platform_definitions: bool = False


@dataclass(slots=True)
class TieBreakContext:
    history: EventHistory
    rules: Rules
    _basis: dict[int, Basis] = field(default_factory=dict)
    memo: dict[str, dict[int, Value]] = field(default_factory=dict)
    scale: int = 0  # points x scale are integers ("units"); set from the point system
    _ratings_defined: bool | None = None
    contributions: dict[tuple[int, bool, bool], list[tuple[int, int, bool, int]]] = field(
        default_factory=dict
    )

    def __post_init__(self) -> None:
        if not self.scale:
            self.scale = point_scale(self.history)

    @property
    def rounds(self) -> int:
        return self.history.rounds

    @property
    def draw(self) -> int:
        """Draw points in units."""
        return int(self.history.point_system.draw * self.scale)

    @property
    def win(self) -> int:
        """Win points in units."""
        return int(self.history.point_system.win * self.scale)

    def points(self, units: int, *, squared: bool = False) -> Fraction:
        """Units back to points (``squared`` for products of two scores, as in SB)."""
        return Fraction(units, self.scale * self.scale if squared else self.scale)

    def basis(self, start: int) -> Basis:
        found = self._basis.get(start)
        if found is None:
            found = self._basis[start] = player_basis(self.history, start, self.scale)
        return found

    def ratings_defined(self) -> bool:
        if self._ratings_defined is None:
            self._ratings_defined = self.rules.unrated_rating is not None or all(
                p.rating for p in self.history.players.values()
            )
        return self._ratings_defined

    def rating(self, start: int) -> int | None:
        rating = self.history.players[start].rating
        return rating if rating else self.rules.unrated_rating

    def memoised(self, key: str, start: int, compute: Callable[[], Value]) -> Value:
        table = self.memo.setdefault(key, {})
        if start in table:
            return table[start]
        value = table[start] = compute()
        return value

    def forget(self, starts: set[int], *, basis: bool = True) -> None:
        """Drop cached values of these players (after their rounds or their opponents' changed)."""
        for start in starts:
            if basis:
                self._basis.pop(start, None)
            for table in self.memo.values():
                table.pop(start, None)
            for key in (
                (start, False, False),
                (start, True, False),
                (start, False, True),
                (start, True, True),
            ):
                self.contributions.pop(key, None)

    def reset(self) -> None:
        self._basis.clear()
        self.memo.clear()
        self.contributions.clear()
        self._ratings_defined = None


def point_scale(history: EventHistory) -> int:
    """The least common multiple of the denominators of every point value in use."""
    ps = history.point_system
    scale = 1
    for f in fields(ps):
        value = getattr(ps, f.name)
        if isinstance(value, Fraction):
            scale = math.lcm(scale, value.denominator)
    for entries in history.entries.values():
        for entry in entries.values():
            scale = math.lcm(scale, entry.points.denominator)
    return scale
