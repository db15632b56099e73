"""The live tables a consumer process holds in memory: a bounded LRU cache of tournaments (each
with its :class:`~services.standings.domain.live_table.Tournament`), tagged with the revision of the
database they reflect.

A tournament is taken out of the cache when its row is locked for a change
(:class:`~services.standings.adapters.repository.SqlTournamentRepository`) and put back only after
that change committed (:class:`~services.standings.adapters.unit_of_work.SqlStandingsUnitOfWork`),
so the cache never holds a change the database rolled back. A revision that differs from the
database's (another consumer process applied a change, or this process restarted) means the
tournament is loaded from the rows again and its table rebuilt.
"""

from __future__ import annotations

import threading
import uuid
from collections import OrderedDict
from dataclasses import dataclass

from services.standings.domain.tournament import Tournament


@dataclass
class CacheStats:
    hits: int = 0
    misses: int = 0  # absent, or stale: rebuilt from the database


class TableCache:
    def __init__(self, capacity: int) -> None:
        if capacity < 1:
            raise ValueError("the table cache holds at least one tournament")
        self.capacity = capacity
        self.stats = CacheStats()
        self._tables: OrderedDict[uuid.UUID, tuple[int, Tournament]] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, tournament_id: uuid.UUID, revision: int) -> Tournament | None:
        """Remove and return the tournament if it is at ``revision``; None otherwise."""
        with self._lock:
            found = self._tables.pop(tournament_id, None)
            if found is not None and found[0] == revision:
                self.stats.hits += 1
                return found[1]
            self.stats.misses += 1
            return None

    def put(self, tournament: Tournament) -> None:
        with self._lock:
            self._tables[tournament.id] = (tournament.revision, tournament)
            self._tables.move_to_end(tournament.id)
            while len(self._tables) > self.capacity:
                self._tables.popitem(last=False)

    def __len__(self) -> int:
        return len(self._tables)

    def __contains__(self, tournament_id: object) -> bool:
        return tournament_id in self._tables
