"""Who decides in a tournament, as pairing knows it (RULES.md §5 "Authority"): its organiser (the
tournament's heading) and the arbiters the organiser appointed, for the whole tournament or for named
games. :class:`shared.authority.Authority` answers who may decide what; this module keeps the
appointments and says who decided (:class:`shared.authority.Decided`).

Appointments arrive from registration (``arbiter.appointed``, ``arbiter.revoked``), possibly before the
tournament has started here, and on their own queue, so possibly out of order: :class:`Arbiters` keeps
each arbiter's latest decision by its time, and an older one that arrives later changes nothing.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field

from services.pairing.domain.changes import Change, Changing
from services.pairing.domain.errors import NotAllowed
from shared.aggregate import Aggregate
from shared.authority import Appointment, Authority, Decided


@dataclass(frozen=True)
class ArbiterEntry:
    """An arbiter's latest appointment or revocation in one tournament."""

    arbiter_id: uuid.UUID
    games: frozenset[uuid.UUID] | None
    """None: the whole tournament."""
    active: bool
    """False: revoked."""
    decided_at: dt.datetime


@dataclass(frozen=True)
class ArbiterChanged(Change):
    """An arbiter's entry was written (appointed, re-appointed or revoked)."""

    arbiter_id: uuid.UUID


@dataclass(eq=False)
class Arbiters(Aggregate, Changing):
    """The arbiters of one tournament, appointed or revoked; kept before the tournament starts too."""

    tournament_id: uuid.UUID
    entries: dict[uuid.UUID, ArbiterEntry] = field(default_factory=dict)

    def appoint(self, arbiter_id: uuid.UUID, games: Iterable[uuid.UUID] | None, *, at: dt.datetime) -> bool:
        """Appoint (or re-appoint, with a new scope) an arbiter; False if a later decision about them is
        known already."""
        scope = None if games is None else frozenset(games)
        return self._decide(ArbiterEntry(arbiter_id, scope, True, at))

    def revoke(self, arbiter_id: uuid.UUID, *, at: dt.datetime) -> bool:
        """Revoke an arbiter; False if a later decision about them is known already. A revocation that
        arrives before its appointment is kept, and the older appointment then changes nothing."""
        earlier = self.entries.get(arbiter_id)
        return self._decide(ArbiterEntry(arbiter_id, None if earlier is None else earlier.games, False, at))

    def appointments(self) -> tuple[Appointment, ...]:
        return tuple(Appointment(e.arbiter_id, e.games) for e in self.entries.values() if e.active)

    def _decide(self, entry: ArbiterEntry) -> bool:
        known = self.entries.get(entry.arbiter_id)
        if known is not None:
            known_at, at = _aware(known.decided_at), _aware(entry.decided_at)
            if known_at > at or (known_at == at and known == entry):
                return False
        self.entries[entry.arbiter_id] = entry
        self.change(ArbiterChanged(entry.arbiter_id))
        return True


def authority(organiser_id: uuid.UUID, arbiters: Arbiters | None) -> Authority:
    """Who decides in a tournament: its organiser and its active appointments."""
    return Authority.of(organiser_id, () if arbiters is None else arbiters.appointments())


def deciding(
    authority: Authority,
    actor_id: uuid.UUID,
    game_id: uuid.UUID | None,
    *,
    at: dt.datetime,
    reason: str | None = None,
    refusal: type[NotAllowed],
    what: str,
) -> Decided:
    """The decision of ``actor_id`` as the organiser or an arbiter in scope of ``game_id`` (None: the
    tournament as a whole); ``refusal`` otherwise."""
    role = authority.decides(actor_id, game_id)
    if role is None:
        scope = "this game" if game_id is not None else "this tournament"
        raise refusal(f"only the organiser or an arbiter appointed for {scope} may {what}")
    return Decided(actor_id, role, at, reason)


def _aware(value: dt.datetime) -> dt.datetime:
    return value if value.tzinfo else value.replace(tzinfo=dt.UTC)
