"""Registration's SQL unit of work: the repositories on one session, each built on first use; at
commit, the events the tournaments recorded go to the outbox (mapped by ``adapters/wire.py``) in the
same transaction."""

from __future__ import annotations

import functools
from typing import Any

from services.registration.adapters.repository import (
    AccountRepository,
    AuditRepository,
    InviteRepository,
    RatingRepository,
    TournamentRepository,
)
from services.registration.adapters.wire import wire
from shared.unit_of_work import SqlUnitOfWork


class SqlRegistrationUnitOfWork(SqlUnitOfWork):
    tracked = ("accounts", "tournaments", "ratings")

    def __init__(self, **options: Any) -> None:
        super().__init__(**options, wire=wire)

    @functools.cached_property
    def accounts(self) -> AccountRepository:
        return AccountRepository(self.session)

    @functools.cached_property
    def tournaments(self) -> TournamentRepository:
        return TournamentRepository(self.session)

    @functools.cached_property
    def audit(self) -> AuditRepository:
        return AuditRepository(self.session)

    @functools.cached_property
    def ratings(self) -> RatingRepository:
        return RatingRepository(self.session)

    @functools.cached_property
    def invites(self) -> InviteRepository:
        return InviteRepository(self.session)
