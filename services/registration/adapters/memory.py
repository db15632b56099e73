"""In-memory repositories and unit of work: the fakes handler tests run on, in milliseconds. They keep
the promises of the SQL ones (``tests/contract/test_repositories.py`` runs the same suite on both):
an account id is taken once, an organiser runs one `platform` competition at a time, an event has one
player per FIDE id, a tournament's
decisions reach its audit log when it is saved, and what a unit of work has not committed is seen by
nobody else."""

from __future__ import annotations

import datetime as dt
import functools
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field

from services.registration.adapters.repository import RUNNING
from services.registration.adapters.wire import wire
from services.registration.domain import errors
from services.registration.domain.account import Account
from services.registration.domain.audit import AuditEntry, in_time_order
from services.registration.domain.entries import RosterChanges
from services.registration.domain.passwords import InviteLink
from services.registration.domain.rating import RatingDecision
from services.registration.domain.ratings import PlayerRating, RatedGame
from services.registration.domain.tournament import RatingTerms, Status, Tournament
from shared.aggregate import Aggregate
from shared.events import Envelope
from shared.repository import Repository
from shared.testing.memory import MemoryRepository, MemoryTable, MemoryUnitOfWork
from shared.vocabulary import Ruleset


class MemoryAccounts(MemoryRepository[uuid.UUID, Account]):
    def get_many(self, account_ids: Iterable[uuid.UUID]) -> list[Account]:
        found = (self.table.read(i) for i in set(account_ids))
        return self._handed_out(a for a in found if a is not None)

    def _insert(self, account: Account) -> None:
        if account.created_at is None:
            raise ValueError("an account is added with the time it was registered")
        if self.table.read(account.id) is not None:
            raise errors.AccountExists(f"account {account.id} exists")
        super()._insert(account)


@dataclass
class AuditLog(Aggregate):
    """One tournament's audit log, as the in-memory table holds it."""

    tournament_id: uuid.UUID
    entries: list[AuditEntry] = field(default_factory=list)


class MemoryAudit:
    def __init__(self, table: MemoryTable[uuid.UUID, AuditLog]) -> None:
        self.table = table

    def add(self, entries: Iterable[AuditEntry]) -> None:
        for entry in entries:
            log = self.table.read(entry.tournament_id) or AuditLog(entry.tournament_id)
            log.entries.append(entry)
            self.table.write(log)

    def of(self, tournament_id: uuid.UUID) -> list[AuditEntry]:
        log = self.table.read(tournament_id)
        return [] if log is None else in_time_order(log.entries)


class MemoryTournaments(MemoryRepository[uuid.UUID, Tournament]):
    def __init__(self, table: MemoryTable[uuid.UUID, Tournament], audit: MemoryAudit) -> None:
        super().__init__(table)
        self.audit = audit

    def _insert(self, t: Tournament) -> None:
        if _runs_platform(t) and self.organiser_busy(t.organiser_id):
            raise errors.OrganiserBusy("you already run a competition")
        _one_player_per_fide_id(None, t.collect_roster_changes())  # the whole aggregate is stored
        self.audit.add(t.collect_decisions())
        super()._insert(t)

    def rating_terms(self, tournament_id: uuid.UUID) -> RatingTerms | None:
        t = self.table.read(tournament_id)  # a read: not an aggregate the unit of work saves
        return None if t is None else t.rating_terms()

    def _update(self, t: Tournament) -> None:
        _one_player_per_fide_id(self.table.read(t.id), t.collect_roster_changes())
        self.audit.add(t.collect_decisions())
        super()._update(t)

    def due(self, now: dt.datetime, *, limit: int) -> list[uuid.UUID]:
        due = [
            t
            for t in self.table.rows()
            if t.status is Status.SCHEDULED and t.starts_at is not None and t.starts_at <= now
        ]
        return [t.id for t in sorted(due, key=lambda t: t.starts_at or now)[:limit]]

    def organiser_busy(self, organiser_id: uuid.UUID) -> bool:
        return any(t.organiser_id == organiser_id and _runs_platform(t) for t in self.table.rows())


@dataclass
class HeardGame(Aggregate):
    """A finished game registration heard, and whether it moved ratings (``rated_games``)."""

    game_id: uuid.UUID
    key: str
    rated: bool
    reason: str


class MemoryRatings(Repository[tuple[uuid.UUID, str], PlayerRating]):
    def __init__(
        self,
        table: MemoryTable[tuple[uuid.UUID, str], PlayerRating],
        heard: MemoryTable[uuid.UUID, HeardGame],
        accounts: MemoryTable[uuid.UUID, Account],
    ) -> None:
        super().__init__()
        self.table, self.heard, self.accounts = table, heard, accounts

    def get(self, account_id: uuid.UUID, key: str, *, lock: bool = False) -> PlayerRating | None:  # type: ignore[override]
        """A player's rating under one key (the port's two-part key)."""
        return super().get((account_id, key), lock=lock)

    def _find(self, account_key: tuple[uuid.UUID, str], *, lock: bool) -> PlayerRating | None:
        return self.table.read(account_key)

    def _update(self, rating: PlayerRating) -> None:
        self.table.write(rating)
        account = self.accounts.read(rating.account_id)
        if account is not None:
            account.ratings[rating.key] = rating.value.shown
            self.accounts.write(account)

    def first_hearing(self, game: RatedGame, key: str, decision: RatingDecision) -> bool:
        if self.heard.read(game.game_id) is not None:
            return False
        self.heard.write(HeardGame(game.game_id, key, decision.moves, decision.reason))
        return True


@dataclass
class StoredInvite(Aggregate):
    link: InviteLink


class MemoryInvites:
    def __init__(self, table: MemoryTable[str, StoredInvite]) -> None:
        self.table = table

    def get(self, token: str) -> InviteLink | None:
        found = self.table.read(token)
        return None if found is None else found.link

    def of(self, tournament_id: uuid.UUID) -> list[InviteLink]:
        links = [s.link for s in self.table.rows() if s.link.tournament_id == tournament_id]
        return sorted(links, key=lambda link: (link.created_at, link.token))

    def add(self, link: InviteLink) -> None:
        self.table.write(StoredInvite(link))

    def save(self, link: InviteLink) -> None:
        self.table.write(StoredInvite(link))


def _one_player_per_fide_id(stored: Tournament | None, changes: RosterChanges) -> None:
    """What the SQL side's unique index guarantees whatever the domain checked (a copy loaded before
    another unit of work entered a player, say): the roster changes applied to the stored entries hold
    each FIDE id once."""
    entries = {} if stored is None else {e.player_id: e for e in stored.entries}
    for player_id in changes.removed:
        entries.pop(player_id, None)
    entries.update(changes.changed)
    entries.update(changes.added)
    ids = [e.fide_id for e in entries.values() if e.fide_id is not None]
    if len(ids) != len(set(ids)):
        raise errors.DuplicateFideId("another player of this event has the same FIDE id")


def _runs_platform(t: Tournament) -> bool:
    return t.ruleset in (Ruleset.PLATFORM, Ruleset.ARENA) and t.status.value in RUNNING


@dataclass
class MemoryDatabase:
    """Registration's database in memory (its tables, outbox and inbox): the units of work of one test
    share one."""

    accounts: MemoryTable[uuid.UUID, Account] = field(default_factory=lambda: MemoryTable(lambda a: a.id))
    tournaments: MemoryTable[uuid.UUID, Tournament] = field(
        default_factory=lambda: MemoryTable(lambda t: t.id)
    )
    audit: MemoryTable[uuid.UUID, AuditLog] = field(
        default_factory=lambda: MemoryTable(lambda log: log.tournament_id)
    )
    ratings: MemoryTable[tuple[uuid.UUID, str], PlayerRating] = field(
        default_factory=lambda: MemoryTable(lambda r: (r.account_id, r.key))
    )
    heard: MemoryTable[uuid.UUID, HeardGame] = field(default_factory=lambda: MemoryTable(lambda g: g.game_id))
    invites: MemoryTable[str, StoredInvite] = field(
        default_factory=lambda: MemoryTable(lambda i: i.link.token)
    )
    outbox: list[Envelope] = field(default_factory=list)
    inbox: set[tuple[uuid.UUID, str]] = field(default_factory=set)

    def uow(self) -> MemoryRegistrationUnitOfWork:
        return MemoryRegistrationUnitOfWork(self)


class MemoryRegistrationUnitOfWork(MemoryUnitOfWork):
    tracked = ("accounts", "tournaments", "ratings")

    def __init__(self, db: MemoryDatabase) -> None:
        super().__init__(wire, [db.accounts, db.tournaments, db.audit, db.ratings, db.heard, db.invites])
        self.db = db
        self.published = db.outbox
        self.inbox = db.inbox

    @functools.cached_property
    def accounts(self) -> MemoryAccounts:
        return MemoryAccounts(self.db.accounts)

    @functools.cached_property
    def tournaments(self) -> MemoryTournaments:
        return MemoryTournaments(self.db.tournaments, self.audit)

    @functools.cached_property
    def audit(self) -> MemoryAudit:
        return MemoryAudit(self.db.audit)

    @functools.cached_property
    def ratings(self) -> MemoryRatings:
        return MemoryRatings(self.db.ratings, self.db.heard, self.db.accounts)

    @functools.cached_property
    def invites(self) -> MemoryInvites:
        return MemoryInvites(self.db.invites)
