"""What pairing has heard of a tournament's roster, by registration's **roster revisions**.

Registration numbers the changes of a tournament's roster it publishes (a player joined, left, paused or
was withdrawn; the start): 1, 2, … per tournament, each event carrying the revision it produced, and the
answer to the command that made it saying it. A later command here can name that revision (an arbiter
pairs a round after a withdrawal): pairing refuses it (``not-yet-heard``) until it has heard every change up
to it, so the pairing never leaves out a withdrawal it was not told of yet (docs/events.md, "Causal
commands").

The changes come on several queues (a start, a withdrawal, a late entry), so possibly out of order:
:class:`RosterHeard` keeps the revision up to which it has heard every change, and the revisions heard
beyond a gap. ``tournament.started`` carries the roster as of its revision, every change before it
included, so it moves the mark there at once (the entries before a start are not pairing's concern, and
not all of them reach it). After the start every roster change of a tournament reaches pairing.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

from services.pairing.domain.errors import NotYetHeard
from shared.aggregate import Aggregate

RETRY_AFTER_SECONDS = 1
"""What a refusal for a revision not heard yet asks the client to wait: news usually takes milliseconds."""


@dataclass(eq=False)
class RosterHeard(Aggregate):
    """The roster revisions of one tournament pairing has applied."""

    tournament_id: uuid.UUID
    revision: int = 0
    """Every roster change up to this revision is heard (0: none numbered yet)."""
    ahead: frozenset[int] = field(default_factory=frozenset)
    """Revisions heard beyond a gap: a change before them is still on its way."""

    def started(self, revision: int) -> bool:
        """``tournament.started`` at ``revision``: the roster as of it, every change before it included.
        False if that changes nothing."""
        return self._settle(max(self.revision, revision), self.ahead)

    def heard(self, revision: int) -> bool:
        """A roster change applied (a withdrawal, a late entry, an arena's entry); False if it was heard
        already (again, or taken with a start)."""
        if revision <= self.revision or revision in self.ahead:
            return False
        return self._settle(self.revision, self.ahead | {revision})

    def has_heard(self, revision: int) -> bool:
        return revision <= self.revision

    def _settle(self, revision: int, ahead: frozenset[int]) -> bool:
        while revision + 1 in ahead:
            revision += 1
        ahead = frozenset(r for r in ahead if r > revision)
        if (revision, ahead) == (self.revision, self.ahead):
            return False
        self.revision, self.ahead = revision, ahead
        return True


def require_heard(tournament_id: uuid.UUID, revision: int, asked: int | None) -> None:
    """Pairing has heard the tournament's roster up to ``revision`` (0: none numbered); a command that names
    a later one (``asked``; None: it names none) is refused with :class:`NotYetHeard`."""
    if asked is not None and asked > revision:
        raise NotYetHeard(
            f"pairing has heard tournament {tournament_id}'s roster up to revision {revision}, not yet"
            f" {asked}: registration's news is on its way; ask again in a moment",
            asked=asked,
            heard=revision,
        )


def heard_revision(heard: RosterHeard | None) -> int:
    """The revision up to which every roster change is heard (0: none numbered)."""
    return 0 if heard is None else heard.revision
