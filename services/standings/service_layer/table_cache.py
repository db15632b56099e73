"""The live tables a consumer process holds in memory: a bounded LRU cache of
:class:`~services.standings.domain.live_table.LiveTable`, one per tournament, each tagged with the
revision of the database it reflects.

A table is taken out of the cache while a change is applied to it and put back only after that
change committed (:class:`~services.standings.service_layer.unit_of_work.StandingsUnitOfWork`), so
the cache never holds a change the database rolled back. A revision that differs from the
database's (another consumer process applied a change, or this process restarted) means the table
is rebuilt from the rows.
"""

from __future__ import annotations

import threading
import uuid
from collections import OrderedDict
from dataclasses import dataclass

from services.standings.domain.live_table import LiveTable


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
        self._tables: OrderedDict[uuid.UUID, tuple[int, LiveTable]] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, tournament_id: uuid.UUID, revision: int) -> LiveTable | None:
        """Remove and return the tournament's table if it is at ``revision``; None otherwise."""
        with self._lock:
            found = self._tables.pop(tournament_id, None)
            if found is not None and found[0] == revision:
                self.stats.hits += 1
                return found[1]
            self.stats.misses += 1
            return None

    def put(self, tournament_id: uuid.UUID, revision: int, table: LiveTable) -> None:
        with self._lock:
            self._tables[tournament_id] = (revision, table)
            self._tables.move_to_end(tournament_id)
            while len(self._tables) > self.capacity:
                self._tables.popitem(last=False)

    def __len__(self) -> int:
        return len(self._tables)

    def __contains__(self, tournament_id: object) -> bool:
        return tournament_id in self._tables
