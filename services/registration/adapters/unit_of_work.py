"""Registration's SQL unit of work: the repositories on one session; at commit, the events the
tournaments recorded go to the outbox (mapped by ``adapters/wire.py``) in the same transaction."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from services.registration.adapters.repository import (
    AccountRepository,
    AuditRepository,
    InviteRepository,
    RatingRepository,
    TournamentRepository,
)
from services.registration.adapters.wire import wire
from shared.aggregate import Tracking
from shared.unit_of_work import SqlUnitOfWork


class SqlRegistrationUnitOfWork(SqlUnitOfWork):
    accounts: AccountRepository
    tournaments: TournamentRepository
    audit: AuditRepository
    ratings: RatingRepository
    invites: InviteRepository

    def __init__(self, **options: Any) -> None:
        super().__init__(**options, wire=wire)

    def start(self) -> None:
        self.accounts = AccountRepository(self.session)
        self.tournaments = TournamentRepository(self.session)
        self.audit = AuditRepository(self.session)
        self.ratings = RatingRepository(self.session)
        self.invites = InviteRepository(self.session)

    def repositories(self) -> Iterable[Tracking]:
        return (self.accounts, self.tournaments, self.ratings)  # type: ignore[return-value]
