"""The engines of the round-based systems, one per system: the FIDE Berger tables for a round robin,
the FIDE Dutch system for a Swiss."""

from __future__ import annotations

from services.pairing.domain.rounds import berger
from services.pairing.domain.rounds.swiss import SwissPairer
from services.pairing.domain.rounds.tournament import Board, Draw, Pairer, PairingTournament
from shared.vocabulary import System


class RoundRobinPairer:
    """FIDE Berger tables; seeds are the start numbers. (Four players play the table once, with double
    rounds: :func:`~services.pairing.domain.rounds.platform.double_rounds`.)"""

    def pair(self, tournament: PairingTournament, round_no: int) -> Draw:
        table = berger.round_robin(len(tournament.players), double=tournament.plan.double_cycle)
        boards: list[Board] = []
        bye = None
        for pairing in table[round_no - 1]:
            if pairing.is_bye:
                bye = pairing.white or pairing.black
            else:
                boards.append(Board(pairing.white, pairing.black))
        return Draw(tuple(boards), bye)


def pairers() -> dict[System, Pairer]:
    return {System.ROUND_ROBIN: RoundRobinPairer(), System.SWISS: SwissPairer()}


def fide_pairers() -> dict[System, Pairer]:
    """A `fide-rapid` event's: the Berger tables, or the Dutch engine on the event's TRF document."""
    from services.pairing.domain.rounds.fide import FideSwissPairer

    return {System.ROUND_ROBIN: RoundRobinPairer(), System.SWISS: FideSwissPairer()}
