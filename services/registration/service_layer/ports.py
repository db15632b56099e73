"""What the service layer needs from the outside, as protocols: one repository per aggregate and the unit
of work that holds them. The SQL adapters (``adapters/repository.py``, ``adapters/unit_of_work.py``) and
the in-memory fakes (``adapters/memory.py``) implement them and pass the same contract suite."""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Iterable
from contextlib import AbstractContextManager
from types import TracebackType
from typing import Protocol, Self

from services.registration.domain.account import Account
from services.registration.domain.audit import AuditEntry
from services.registration.domain.passwords import InviteLink
from services.registration.domain.rating import RatingDecision
from services.registration.domain.ratings import PlayerRating, RatedGame
from services.registration.domain.tournament import RatingTerms, Tournament
from shared.aggregate import Seen
from shared.events import Envelope


class AccountRepository(Protocol):
    seen: Seen[Account]

    def get(self, account_id: uuid.UUID, *, lock: bool = False) -> Account | None: ...

    def get_many(self, account_ids: Iterable[uuid.UUID]) -> list[Account]:
        """The accounts of these ids that exist, in no particular order."""
        ...

    def add(self, account: Account) -> None:
        """Raises :class:`~services.registration.domain.errors.AccountExists` for an id taken already
        (also by a concurrent registration)."""
        ...


class TournamentRepository(Protocol):
    seen: Seen[Tournament]

    def get(self, tournament_id: uuid.UUID, *, lock: bool = False) -> Tournament | None: ...

    def rating_terms(self, tournament_id: uuid.UUID) -> RatingTerms | None:
        """What rating a finished game of the tournament needs (its ruleset, whether it is rated, its
        rating key), without loading its roster: one read per game on the results' path."""
        ...

    def add(self, tournament: Tournament) -> None:
        """Raises :class:`~services.registration.domain.errors.OrganiserBusy` when its organiser runs
        another `platform` competition (also one created concurrently). Writes it whole, with the
        decisions it recorded (to its audit log)."""
        ...

    def save(self, tournament: Tournament) -> None:
        """Write the tournament, its pending roster and arbiter changes, and the decisions it recorded
        since it was loaded (appended to its audit log)."""
        ...

    def due(self, now: dt.datetime, *, limit: int) -> list[uuid.UUID]:
        """Scheduled tournaments whose start time has come, earliest first."""
        ...

    def organiser_busy(self, organiser_id: uuid.UUID) -> bool:
        """A `platform` competition of this organiser is scheduled or under way (knockouts do not count)."""
        ...


class AuditRepository(Protocol):
    """The audit log of every tournament: appended to, never changed."""

    def add(self, entries: Iterable[AuditEntry]) -> None:
        """Append decisions taken elsewhere (the tournaments' own are written when they are saved)."""
        ...

    def of(self, tournament_id: uuid.UUID) -> list[AuditEntry]:
        """The tournament's log in time order; decisions of the same instant in the order written."""
        ...


class RatingRepository(Protocol):
    """Glicko-2 ratings per account and key, and the finished games heard (each rated at most once)."""

    seen: Seen[PlayerRating]

    def get(self, account_id: uuid.UUID, key: str, *, lock: bool = False) -> PlayerRating | None: ...

    def save(self, rating: PlayerRating) -> None:
        """Insert or update it; the account's shown rating under its key follows (``accounts.ratings``)."""
        ...

    def first_hearing(self, game: RatedGame, key: str, decision: RatingDecision) -> bool:
        """Record that ``game`` was heard and what was decided; False if it was heard before (nothing
        recorded: the game is not rated twice)."""
        ...


class InviteRepository(Protocol):
    """A private tournament's invite links, by their token."""

    def get(self, token: str) -> InviteLink | None: ...

    def of(self, tournament_id: uuid.UUID) -> list[InviteLink]:
        """The tournament's links, oldest first (revoked ones too)."""
        ...

    def add(self, link: InviteLink) -> None: ...

    def save(self, link: InviteLink) -> None: ...


class UnitOfWork(Protocol):
    """One transaction: the aggregates' changes and the events they recorded (written to the outbox at
    commit), and for a consumed event its inbox record."""

    @property
    def accounts(self) -> AccountRepository: ...

    @property
    def tournaments(self) -> TournamentRepository: ...

    @property
    def audit(self) -> AuditRepository: ...

    @property
    def ratings(self) -> RatingRepository: ...

    @property
    def invites(self) -> InviteRepository: ...

    def __enter__(self) -> Self: ...

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None: ...

    def commit(self) -> None: ...

    def rollback(self) -> None: ...

    def savepoint(self) -> AbstractContextManager[None]: ...

    def first_delivery(self, envelope: Envelope, handler: str) -> bool: ...
