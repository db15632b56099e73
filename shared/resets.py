"""What a knockout's resets to its draft removed (RULES.md §4), as a consumer keeps it, so that the news
of an undone start that reaches it after the reset is settled — acknowledged and logged — instead of
waiting for a tournament, round or game that will never come back (issue 22).

A knockout's starts are numbered by the resets before them (``restarts``: 0 for its first start, one more
after each reset). A reset (``tournament.reset``) undoes one start — its number is in the reset — and
every game pairing had paired for it: pairing names those games, and the consumer adds those it knew
itself. Knockout game ids derive from the start (its time and number), so a later start never names one
of them: an event about a removed game is about an undone start, whatever order it comes in. Pairing's
news that names no game (``round.published``) carries its start's number: a number below the resets
heard is an undone start's, one above them a start whose reset is still on its way. Pure code.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Reset", "Resets"]


@dataclass(frozen=True, slots=True)
class Reset:
    """One reset: when pairing made it (the organiser's decision), the games it removed, and the number
    of the start it undid (None: told by a producer before starts were numbered)."""

    at: dt.datetime
    games: frozenset[uuid.UUID] = field(default_factory=frozenset)
    start: int | None = None


@dataclass(frozen=True, slots=True)
class Resets:
    """Every reset of one tournament heard here, in the order they were heard."""

    resets: tuple[Reset, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.resets)

    def __len__(self) -> int:
        return len(self.resets)

    def heard(self, start: int | None, at: dt.datetime) -> bool:
        """Whether the reset of ``start`` (None: the one made at ``at``) was heard already."""
        if start is not None:
            return any(r.start == start for r in self.resets)
        return any(r.start is None and r.at == at for r in self.resets)

    def add(self, at: dt.datetime, games: Iterable[uuid.UUID] = (), start: int | None = None) -> Resets:
        """With a reset (heard again: the games are added to it)."""
        removed = frozenset(games)
        if not self.heard(start, at):
            return Resets((*self.resets, Reset(at, removed, start)))
        same = [r for r in self.resets if (r.start == start if start is not None else r.at == at)]
        merged = Reset(same[0].at, same[0].games | removed, start)
        return Resets(tuple(merged if r is same[0] else r for r in self.resets))

    @property
    def last_at(self) -> dt.datetime | None:
        """When the latest reset heard was made; None if there was none."""
        return max((r.at for r in self.resets), default=None)

    def removed(self, game_id: uuid.UUID) -> bool:
        """Whether a reset removed the game."""
        return any(game_id in r.games for r in self.resets)

    def undone(self, start: int) -> bool:
        """Whether start number ``start`` was undone by a reset heard here."""
        return start < len(self.resets)

    def ahead(self, start: int) -> bool:
        """Whether start number ``start`` comes after a reset not heard here yet."""
        return start > len(self.resets)

    def before(self, at: dt.datetime) -> bool:
        """Whether ``at`` is strictly before the latest reset (a decision another service took on its own
        clock: at the same instant, nothing is told)."""
        last = self.last_at
        return last is not None and at < last

    def to_json(self) -> list[dict[str, Any]]:
        return [
            {"at": r.at.isoformat(), "games": sorted(str(g) for g in r.games), "start": r.start}
            for r in self.resets
        ]

    @classmethod
    def from_json(cls, data: Sequence[Mapping[str, Any]] | None) -> Resets:
        if not data:
            return cls()
        return cls(
            tuple(
                Reset(
                    dt.datetime.fromisoformat(d["at"]),
                    frozenset(uuid.UUID(g) for g in d["games"]),
                    d.get("start"),
                )
                for d in data
            )
        )
