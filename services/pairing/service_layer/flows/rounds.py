"""Round robins and Swiss tournaments (the `platform` ruleset, RULES.md §2), from ``tournament.started``
to ``tournament.completed``:

* start → the system and the number of rounds are chosen from the players present; round 1 is due
  (``pairing.round_due``, internal);
* a pairing worker pairs a due round (Berger tables or the Dutch engine) → ``round.paired``, public at
  once;
* ``game.finished`` → the result is recorded in its round; the round's last result closes it
  (``round.completed``) and the next round is due, or, after the last round, ``tournament.completed``.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from services.pairing.domain import errors
from services.pairing.domain.rounds.tournament import Pairer, PairingTournament
from services.pairing.service_layer import commands
from services.pairing.service_layer.ports import PairingUnitOfWork
from shared.timesource import Clock
from shared.vocabulary import System

log = logging.getLogger(__name__)


class RoundsFlow:
    systems: tuple[System, ...] = (System.ROUND_ROBIN, System.SWISS)
    starts: type[Any] = commands.StartRounds

    def __init__(self, clock: Clock, pairers: Mapping[System, Pairer]) -> None:
        self.clock = clock
        self.pairers = dict(pairers)

    def start(self, cmd: commands.StartRounds, uow: PairingUnitOfWork) -> None:
        t = PairingTournament.start(
            cmd.heading,
            cmd.players,
            threshold=cmd.threshold,
            extra_round=cmd.extra_round,
            double_rounds=cmd.double_rounds,
        )
        uow.tournaments.add(t)

    def pair_round(self, cmd: commands.PairRound, uow: PairingUnitOfWork) -> None:
        """Pair the round unless it is paired already (redelivered, or raced by another worker)."""
        t = uow.tournaments.get(cmd.tournament_id, lock=True)
        if t is None:
            raise errors.TournamentNotFound(f"no tournament {cmd.tournament_id}")
        if t.round(cmd.number) is not None:
            return
        if t.next_round_number() != cmd.number:
            log.warning("round %d of %s is not due (next: %s)", cmd.number, t.id, t.next_round_number())
            return
        t.pair_round(cmd.number, self.pairers[t.system], now=self.clock.now())
        uow.tournaments.save(t)

    def record_result(self, cmd: commands.RecordResult, uow: PairingUnitOfWork) -> None:
        results = uow.results.get((cmd.tournament_id, cmd.round), lock=True)
        if results is None:
            raise errors.RoundNotFound(f"game {cmd.game_id} is not in tournament {cmd.tournament_id}")
        results.record_result(cmd.game_id, cmd.outcome, finished_at=cmd.finished_at, now=self.clock.now())
        uow.results.save(results)

    def publish_round(self, cmd: commands.PublishRound, uow: PairingUnitOfWork) -> None:
        t = uow.tournaments.get(cmd.tournament_id, lock=True)
        if t is None:
            raise errors.TournamentNotFound(f"no tournament {cmd.tournament_id}")
        t.publish_round(cmd.number, by=cmd.actor.id, staff=cmd.actor.staff)  # refuses: public when paired
