from __future__ import annotations

from services.registration.adapters.repository import AccountRepository, TournamentRepository
from shared.unit_of_work import SqlUnitOfWork


class RegistrationUnitOfWork(SqlUnitOfWork):
    accounts: AccountRepository
    tournaments: TournamentRepository

    def start(self) -> None:
        self.accounts = AccountRepository(self.session)
        self.tournaments = TournamentRepository(self.session)
