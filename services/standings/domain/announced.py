"""A tournament announced before its start (``tournament.scheduled``), for the tournament index and its
page before the start: what it is, when it starts, and who has entered so far (``player.joined``,
``player.left``). It stops being upcoming when it starts (``tournament.started``: from then on the
tournament's own projection shows it) or is cancelled (``tournament.cancelled``: its page says so, the
index leaves it out). Pure code.

Only the tournaments registration announces with a start time have one: platform tournaments and
arenas. A knockout draft, a ``fide-rapid`` and a ``group-playoff`` event publish nothing before their
start (docs/events.md), so they appear once they start.
"""

from __future__ import annotations

import datetime as dt
import uuid
from dataclasses import dataclass, field

from shared.aggregate import Aggregate
from shared.time_control import RateOfPlay
from shared.vocabulary import Ruleset


@dataclass(frozen=True, slots=True)
class Entrant:
    player_id: uuid.UUID
    name: str
    rating: int | None = None
    title: str | None = None
    federation: str | None = None


@dataclass
class AnnouncedTournament(Aggregate):
    id: uuid.UUID
    name: str
    starts_at: dt.datetime
    ruleset: Ruleset
    variant: str
    time_control: RateOfPlay
    rated: bool
    seats: int
    arena: bool = False
    entries: dict[uuid.UUID, Entrant] = field(default_factory=dict)  # in the order they entered
    started: bool = False
    cancelled: str | None = None  # why, once cancelled
    changed: bool = field(default=False, compare=False, repr=False)

    @property
    def upcoming(self) -> bool:
        return not self.started and self.cancelled is None

    def enter(self, entrant: Entrant) -> None:
        """A player joined (again: their name or rating as they are now)."""
        if self.upcoming and self.entries.get(entrant.player_id) != entrant:
            self.entries[entrant.player_id] = entrant
            self.changed = True

    def leave(self, player_id: uuid.UUID) -> None:
        if self.upcoming and self.entries.pop(player_id, None) is not None:
            self.changed = True

    def start(self) -> None:
        if not self.started:
            self.started = self.changed = True

    def cancel(self, detail: str) -> None:
        if self.upcoming:
            self.cancelled = detail
            self.changed = True

    def take_changes(self) -> bool:
        changed, self.changed = self.changed, False
        return changed

    def by_rating(self) -> list[Entrant]:
        """The entries as a start list would order them: by rating (unrated last), then by name."""
        return sorted(self.entries.values(), key=lambda e: (e.rating is None, -(e.rating or 0), e.name))
