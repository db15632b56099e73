"""The base of every repository the unit of work collects events through, SQL or in memory.

A repository hands aggregates out (``get`` and the finders that return aggregates) and takes them in
(``add``, ``save``). What passed through it in one unit of work is what the unit of work collects the
recorded events of, at each savepoint's end and at commit (``seen``). That tracking lives here, once: a
repository says how to find, insert and update one aggregate (:meth:`Repository._find`,
:meth:`~Repository._insert`, :meth:`~Repository._update`) and the base tracks what goes through
``get``/``add``/``save``; a finder returning several aggregates hands them out through
:meth:`~Repository._handed_out`. Pure code: no driver.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import Generic, TypeVar

from shared.aggregate import Aggregate, Seen

A = TypeVar("A", bound=Aggregate)
K = TypeVar("K", bound=Hashable)


class Repository(Generic[K, A]):
    """The aggregates of one kind, keyed by ``K``; ``seen`` holds those it handed out or took in during
    the unit of work that built it (each unit of work builds its own)."""

    def __init__(self) -> None:
        self.seen: Seen[A] = Seen()

    def get(self, key: K, *, lock: bool = False) -> A | None:
        """The aggregate, or None; ``lock`` holds it (its row) for the rest of the unit of work."""
        found = self._find(key, lock=lock)
        return None if found is None else self.seen.add(found)

    def add(self, aggregate: A) -> None:
        """A new aggregate: stored, and its recorded events collected with the unit of work's."""
        self._insert(aggregate)
        self.seen.add(aggregate)

    def save(self, aggregate: A) -> None:
        """What changed in an aggregate handed out (or added) in this unit of work."""
        self._update(aggregate)
        self.seen.add(aggregate)

    def _handed_out(self, found: Iterable[A]) -> list[A]:
        """Aggregates a finder hands out, in its order, tracked like one from :meth:`get`."""
        return [self.seen.add(aggregate) for aggregate in found]

    # -- what each repository says -------------------------------------------------------------------
    def _find(self, key: K, *, lock: bool) -> A | None:
        raise NotImplementedError(f"{type(self).__name__} finds nothing by key")

    def _insert(self, aggregate: A) -> None:
        raise NotImplementedError(f"{type(self).__name__} takes no new aggregate")

    def _update(self, aggregate: A) -> None:
        raise NotImplementedError(f"{type(self).__name__} saves nothing")
