"""The `group-playoff` event (the 4T1 rules, RULES.md §5), from ``tournament.started`` to
``tournament.completed``:

* start → the groups drawn from the recorded lot seed, the twelve group matches paired at once
  (``round.paired``: the 24 games, correspondence, each labelled with phase, match and inviter);
* ``game.finished`` → the result; when the group games are done the event creates the play-offs a tie
  needs, a level semi-final or final gets its extra game (each ``round.paired`` again with the new games);
* the organiser announces phase 2 and phase 3 (``POST /tournaments/{id}/phases``), draws a group's lot
  where the play-off left a tie, and sets a phase's deadline; each is announced
  (``group_playoff.announced``);
* ``player.withdrawn`` → every match of the player's phase scored 0:2;
* the last phase-3 match decided → ``tournament.completed`` with the placing of all eight.

The event pairs everything itself: there are no rounds due for a worker, no publishing, no byes, no
reset; a correction of a finished game is not taken (the event's matches were built on it).
"""

from __future__ import annotations

import logging
import uuid
from typing import Any

from services.pairing.domain import errors
from services.pairing.domain.arbiters import Arbiters
from services.pairing.domain.group_playoff.tournament import GroupPlayoffTournament
from services.pairing.service_layer import commands
from services.pairing.service_layer.ports import PairingUnitOfWork
from shared.timesource import TimeSource
from shared.vocabulary import System

log = logging.getLogger(__name__)


class GroupPlayoffFlow:
    systems: tuple[System, ...] = (System.GROUP_PLAYOFF,)
    starts: type[Any] = commands.StartGroupPlayoff

    def __init__(self, clock: TimeSource) -> None:
        self.clock = clock

    def start(self, cmd: commands.StartGroupPlayoff, uow: PairingUnitOfWork) -> None:
        uow.group_playoffs.add(
            GroupPlayoffTournament.start(
                cmd.heading, cmd.players, cmd.lot_seed, cmd.drawn_by, cannot_create=cmd.cannot_create
            )
        )

    def pair_round(self, cmd: commands.PairRound, uow: PairingUnitOfWork) -> None:
        log.warning(
            "a group-playoff event pairs itself; round %d of %s is not due", cmd.number, cmd.tournament_id
        )

    def record_result(self, cmd: commands.RecordResult, uow: PairingUnitOfWork) -> None:
        t = self._load(uow, cmd.tournament_id)
        if t.record_result(cmd.game_id, cmd.outcome, self.clock.now(), cmd.reason):
            uow.group_playoffs.save(t)

    def record_withdrawal(self, cmd: commands.RecordWithdrawal, uow: PairingUnitOfWork) -> None:
        t = self._load(uow, cmd.tournament_id)
        if t.withdraw(cmd.player_id, cmd.at or self.clock.now()):
            uow.group_playoffs.save(t)

    def announce_phase(self, cmd: commands.AnnouncePhase, uow: PairingUnitOfWork) -> None:
        t = self._load(uow, cmd.tournament_id)
        t.announce_phase(cmd.phase, cmd.actor.id, self.clock.now(), with_placement=cmd.with_placement)
        uow.group_playoffs.save(t)

    def draw_lots(self, cmd: commands.DrawGroupLots, uow: PairingUnitOfWork) -> None:
        t = self._load(uow, cmd.tournament_id)
        t.draw_lots(cmd.group, cmd.seed, cmd.actor.id, self.clock.now())
        uow.group_playoffs.save(t)

    def draw_game_lot(self, cmd: commands.DrawGameLot, uow: PairingUnitOfWork) -> None:
        t = self._load(uow, cmd.tournament_id)
        t.draw_game_lot(cmd.game_id, cmd.seed, cmd.actor.id, self.clock.now())
        uow.group_playoffs.save(t)

    def set_deadline(self, cmd: commands.SetPhaseDeadline, uow: PairingUnitOfWork) -> None:
        t = self._load(uow, cmd.tournament_id)
        t.set_deadline(cmd.phase, cmd.at, cmd.actor.id, self.clock.now())
        uow.group_playoffs.save(t)

    # what the event does not take
    def publish_round(
        self, cmd: commands.PublishRound, arbiters: Arbiters | None, uow: PairingUnitOfWork
    ) -> None:
        raise errors.PublishedWhenPaired("a group-playoff event's games are public when paired")

    def pair_on_command(
        self, cmd: commands.PairOnCommand, arbiters: Arbiters | None, uow: PairingUnitOfWork
    ) -> None:
        raise errors.PairedWhenDue(
            "a group-playoff event's games are paired by the service as its phases open"
        )

    def excuse_absence(
        self, cmd: commands.ExcuseAbsence, arbiters: Arbiters | None, uow: PairingUnitOfWork
    ) -> bool:
        raise errors.AbsenceNotFound(
            "a group-playoff event has no absences to excuse (only fide-rapid events do)"
        )

    def add_late_player(self, cmd: commands.AddLatePlayer, uow: PairingUnitOfWork) -> None:
        """A group-playoff event takes no late entries: its field is fixed at the start."""

    def record_colours(self, cmd: commands.RecordColours, uow: PairingUnitOfWork) -> None:
        log.warning(
            "colours of game %s not kept: a group-playoff game's colours are the match's", cmd.game_id
        )

    def correct_result(
        self,
        cmd: commands.CorrectResult,
        tournament_id: uuid.UUID,
        arbiters: Arbiters | None,
        uow: PairingUnitOfWork,
    ) -> commands.Corrected:
        raise errors.NotAllowed("a group-playoff event takes no corrections in pairing (not built yet)")

    def request_bye(self, cmd: commands.RequestBye, arbiters: Arbiters | None, uow: PairingUnitOfWork) -> Any:
        raise errors.NotAllowed("a group-playoff event has no byes")

    def take_back_bye(
        self, cmd: commands.TakeBackBye, arbiters: Arbiters | None, uow: PairingUnitOfWork
    ) -> None:
        raise errors.NotAllowed("a group-playoff event has no byes")

    def reset(self, cmd: commands.ResetTournament, arbiters: Arbiters | None, uow: PairingUnitOfWork) -> None:
        raise errors.NotAllowed("a group-playoff event cannot be reset to a draft")

    @staticmethod
    def _load(uow: PairingUnitOfWork, tournament_id: uuid.UUID) -> GroupPlayoffTournament:
        t = uow.group_playoffs.get(tournament_id, lock=True)
        if t is None:
            raise errors.TournamentNotFound(f"no group-playoff event {tournament_id}")
        return t
