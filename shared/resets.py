"""What a knockout's resets to its draft removed (RULES.md §4), as a consumer keeps it, so that the news
of a removed start that reaches it after the reset is settled — acknowledged and logged — instead of
waiting for a tournament, round or game that will never come back (issue 22).

A reset (``tournament.reset``) undoes round 1: every game pairing had paired for that start goes, and
the start's rounds with them. Pairing names the games it removed (``games``), and the consumer adds
those it knew itself. Knockout game ids derive from the start (docs/events.md), so a start after the
reset never names one of them: an event about a removed game is about the undone start, whatever order
it comes in. Pairing's events that name no game (``round.published``, ``match.decided``) carry pairing's
own time, as the reset does: what pairing published at or before its reset is about the undone start
too. Pure code.
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
    """One reset: when pairing made it (the organiser's decision) and the games it removed."""

    at: dt.datetime
    games: frozenset[uuid.UUID] = field(default_factory=frozenset)


@dataclass(frozen=True, slots=True)
class Resets:
    """Every reset of one tournament heard here, in the order they were made."""

    resets: tuple[Reset, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.resets)

    def add(self, at: dt.datetime, games: Iterable[uuid.UUID] = ()) -> Resets:
        """With the reset made at ``at`` (heard again: the games are added to it)."""
        removed = frozenset(games)
        kept = [r for r in self.resets if r.at != at]
        before = next((r.games for r in self.resets if r.at == at), frozenset())
        merged = Reset(at, before | removed)
        return Resets(tuple(sorted([*kept, merged], key=lambda r: r.at)))

    @property
    def last_at(self) -> dt.datetime | None:
        """When the latest reset was made; None if there was none."""
        return self.resets[-1].at if self.resets else None

    def removed(self, game_id: uuid.UUID) -> bool:
        """Whether a reset removed the game."""
        return any(game_id in r.games for r in self.resets)

    def undone(self, at: dt.datetime) -> bool:
        """Whether something pairing did at ``at`` (a round published, a match decided) belongs to a start
        a reset undid: it happened at or before the latest reset."""
        last = self.last_at
        return last is not None and at <= last

    def to_json(self) -> list[dict[str, Any]]:
        return [{"at": r.at.isoformat(), "games": sorted(str(g) for g in r.games)} for r in self.resets]

    @classmethod
    def from_json(cls, data: Sequence[Mapping[str, Any]] | None) -> Resets:
        if not data:
            return cls()
        return cls(
            tuple(
                Reset(dt.datetime.fromisoformat(d["at"]), frozenset(uuid.UUID(g) for g in d["games"]))
                for d in data
            )
        )
