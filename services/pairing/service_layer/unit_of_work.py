from __future__ import annotations

from services.pairing.adapters.repository import TournamentRepository
from shared.unit_of_work import SqlUnitOfWork


class PairingUnitOfWork(SqlUnitOfWork):
    tournaments: TournamentRepository

    def start(self) -> None:
        self.tournaments = TournamentRepository(self.session)
