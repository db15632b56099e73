"""Round robins and Swiss tournaments (the `platform` ruleset, RULES.md §2), from ``tournament.started``
to ``tournament.completed``:

* start → the system and the number of rounds are chosen from the players present; round 1 is due
  (``pairing.round_due``, internal);
* a pairing worker pairs a due round (Berger tables or the Dutch engine) → ``round.paired``, public at
  once;
* ``game.finished`` → the result is recorded in its round; the round's last result closes it
  (``round.completed``) and the next round is due, or, after the last round, ``tournament.completed``;
* a correction replaces a finished game's outcome (``game.result_corrected``): the rounds paired stand,
  the next pairing uses it;
* ``player.withdrawn`` → the player is left out of later Swiss rounds (an excluded `platform` player
  stays in the draw); a bye on request (``bye.requested``) leaves the player out of its round.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Mapping
from typing import Any

from services.pairing.domain import errors
from services.pairing.domain.arbiters import Arbiters, authority
from services.pairing.domain.rounds.tournament import ByeRequest, Pairer, PairingTournament
from services.pairing.service_layer import commands
from services.pairing.service_layer.ports import PairingUnitOfWork
from shared.openings import OpeningTable
from shared.timesource import TimeSource
from shared.vocabulary import System

log = logging.getLogger(__name__)


class RoundsFlow:
    systems: tuple[System, ...] = (System.ROUND_ROBIN, System.SWISS)
    starts: type[Any] = commands.StartRounds

    def __init__(
        self,
        clock: TimeSource,
        pairers: Mapping[System, Pairer],
        fide_pairers: Mapping[System, Pairer],
        italian: OpeningTable | None = None,
    ) -> None:
        self.clock = clock
        self.pairers = dict(pairers)
        self.fide_pairers = dict(fide_pairers)
        self.italian = italian  # the Italian opening table, where one is configured

    def start(self, cmd: commands.StartRounds, uow: PairingUnitOfWork) -> None:
        t = PairingTournament.start(
            cmd.heading,
            cmd.players,
            threshold=cmd.threshold,
            extra_round=cmd.extra_round,
            double_rounds=cmd.double_rounds,
            byes_on_request=cmd.byes_on_request,
            variant=cmd.variant,
            opening=cmd.opening,
            ends_at=cmd.ends_at,
            fide=cmd.fide,
            fide_plan=cmd.fide_plan,
        )
        uow.tournaments.add(t)

    def pair_round(self, cmd: commands.PairRound, uow: PairingUnitOfWork) -> None:
        """Pair the round unless it is paired already (redelivered, or raced by another worker)."""
        t = self._load(uow, cmd.tournament_id)
        if t.round(cmd.number) is not None:
            return
        if t.next_round_number() != cmd.number:
            log.warning("round %d of %s is not due (next: %s)", cmd.number, t.id, t.next_round_number())
            return
        t.pair_round(cmd.number, self.pairers[t.system], now=self.clock.now(), italian=self.italian)
        uow.tournaments.save(t)

    def record_result(self, cmd: commands.RecordResult, uow: PairingUnitOfWork) -> None:
        results = uow.results.get((cmd.tournament_id, cmd.round), lock=True)
        if results is None:
            raise errors.RoundNotFound(f"game {cmd.game_id} is not in tournament {cmd.tournament_id}")
        results.record_result(
            cmd.game_id, cmd.outcome, finished_at=cmd.finished_at, now=self.clock.now(), reason=cmd.reason
        )
        uow.results.save(results)

    def publish_round(
        self, cmd: commands.PublishRound, arbiters: Arbiters | None, uow: PairingUnitOfWork
    ) -> None:
        t = self._load(uow, cmd.tournament_id)
        who = authority(t.organiser_id, arbiters)
        # fide-rapid rounds wait for their arbiters; the others are refused: public when paired
        if t.publish_round(cmd.number, authority=who, by=cmd.actor.id, at=self.clock.now()):
            uow.tournaments.save(t)

    def pair_on_command(
        self, cmd: commands.PairOnCommand, arbiters: Arbiters | None, uow: PairingUnitOfWork
    ) -> None:
        t = self._load(uow, cmd.tournament_id)
        who = authority(t.organiser_id, arbiters)
        pairer = self.fide_pairers[t.system]
        t.pair_on_command(cmd.number, pairer, authority=who, by=cmd.actor.id, now=self.clock.now())
        uow.tournaments.save(t)

    def excuse_absence(
        self, cmd: commands.ExcuseAbsence, arbiters: Arbiters | None, uow: PairingUnitOfWork
    ) -> bool:
        t = self._load(uow, cmd.tournament_id)
        who = authority(t.organiser_id, arbiters)
        dropped = t.excuse_absence(
            cmd.player_id, cmd.round, authority=who, by=cmd.actor.id, at=self.clock.now(), reason=cmd.reason
        )
        uow.tournaments.save(t)
        return dropped

    def add_late_player(self, cmd: commands.AddLatePlayer, uow: PairingUnitOfWork) -> None:
        t = self._load(uow, cmd.tournament_id)
        if t.add_late(cmd.player_id, cmd.name, cmd.rating, cmd.from_round) is not None:
            uow.tournaments.save(t)

    def record_withdrawal(self, cmd: commands.RecordWithdrawal, uow: PairingUnitOfWork) -> None:
        t = self._load(uow, cmd.tournament_id)
        at = cmd.at or self.clock.now()
        if t.withdraw(cmd.player_id, excluded=cmd.excluded, reason=cmd.reason, at=at):
            uow.tournaments.save(t)

    def record_colours(self, cmd: commands.RecordColours, uow: PairingUnitOfWork) -> None:
        t = self._load(uow, cmd.tournament_id)
        if t.swap_colours(cmd.game_id, cmd.white, cmd.black):
            uow.tournaments.save(t)

    def correct_result(
        self,
        cmd: commands.CorrectResult,
        tournament_id: uuid.UUID,
        arbiters: Arbiters | None,
        uow: PairingUnitOfWork,
    ) -> commands.Corrected:
        t = self._load(uow, tournament_id)
        game = t.game(cmd.game_id)
        old = game.outcome
        t.correct_result(
            cmd.game_id,
            cmd.outcome,
            authority=authority(t.organiser_id, arbiters),
            by=cmd.actor.id,
            reason=cmd.reason,
            at=self.clock.now(),
        )
        uow.tournaments.save(t)
        assert old is not None
        return commands.Corrected(t.id, cmd.game_id, game.round, old, cmd.outcome)

    def request_bye(
        self, cmd: commands.RequestBye, arbiters: Arbiters | None, uow: PairingUnitOfWork
    ) -> ByeRequest:
        t = self._load(uow, cmd.tournament_id)
        request = t.request_bye(
            cmd.player_id,
            cmd.round,
            authority=authority(t.organiser_id, arbiters),
            by=cmd.actor.id,
            at=self.clock.now(),
            reason=cmd.reason,
        )
        uow.tournaments.save(t)
        return request

    def take_back_bye(
        self, cmd: commands.TakeBackBye, arbiters: Arbiters | None, uow: PairingUnitOfWork
    ) -> None:
        t = self._load(uow, cmd.tournament_id)
        who = authority(t.organiser_id, arbiters)
        t.take_back_bye(cmd.player_id, cmd.round, authority=who, by=cmd.actor.id, at=self.clock.now())
        uow.tournaments.save(t)

    def reset(self, cmd: commands.ResetTournament, arbiters: Arbiters | None, uow: PairingUnitOfWork) -> None:
        t = self._load(uow, cmd.tournament_id)
        if cmd.actor.id != t.organiser_id:
            raise errors.NotOrganiser("only the organiser of this tournament may reset it")
        raise errors.ResetNotAllowed(f"only a knockout goes back to its draft, not a {t.system.value}")

    @staticmethod
    def _load(uow: PairingUnitOfWork, tournament_id: uuid.UUID) -> PairingTournament:
        t = uow.tournaments.get(tournament_id, lock=True)
        if t is None:
            raise errors.TournamentNotFound(f"no tournament {tournament_id}")
        return t
