"""Knockouts and double knockouts (the `knockout` and `double-knockout` rulesets, RULES.md §4), from
``tournament.started`` to ``tournament.completed``:

* start → the bracket, its seed list and its match format are stored; round 1 is due (the organiser's
  start pairs round 1);
* a pairing worker pairs a due round: every match of it, with its regular games (the colours of each
  match's first game drawn), unpublished → ``round.paired`` (``published: false``, the round's matches);
* the organiser publishes it → ``round.published``;
* ``game.finished`` → the match goes on: a level match gets its next tie-break stage (``round.paired``
  again for that round, with the new games), a decided one publishes ``match.decided`` with the games it
  no longer needs; once every match of the round is decided, ``round.completed`` and the next round is
  due, or, the bracket finished, ``tournament.completed`` with the final placing;
* a correction (``game.result_corrected``) decides the match again: refused once it would change who
  advances and a match it feeds is paired (or the event is finished), else ``match.decided`` again or
  the match goes on;
* ``player.withdrawn`` is recorded (the clocks forfeit the games; the match logic does the rest);
  ``game.colours_swapped`` moves a game's colours; the organiser's reset forgets the event
  (``tournament.reset``).
"""

from __future__ import annotations

import logging
import secrets
import uuid
from collections.abc import Callable
from typing import Any

from services.pairing.domain import errors
from services.pairing.domain.arbiters import Arbiters, authority
from services.pairing.domain.elimination.elimination import Elimination
from services.pairing.service_layer import commands
from services.pairing.service_layer.ports import PairingUnitOfWork
from services.pairing.service_layer.settled import removed_game, undone_withdrawal
from shared.timesource import TimeSource
from shared.vocabulary import System

log = logging.getLogger(__name__)


def draw_white() -> int:
    """The slot with White in a match's first game: drawn (RULES.md §4), then stored with the match."""
    return secrets.randbelow(2)


class EliminationFlow:
    systems: tuple[System, ...] = (System.KNOCKOUT, System.DOUBLE_KNOCKOUT)
    starts: type[Any] = commands.StartElimination

    def __init__(self, clock: TimeSource, draw: Callable[[], int] = draw_white) -> None:
        self.clock = clock
        self.draw = draw

    def start(self, cmd: commands.StartElimination, uow: PairingUnitOfWork) -> None:
        e = Elimination.start(
            cmd.heading,
            cmd.players,
            format=cmd.format,
            games_per_match=cmd.games_per_match,
            seeding=cmd.seeding,
            draw_seed=cmd.draw_seed,
            third_place=cmd.third_place,
            second_final=cmd.second_final,
            tiebreak_plan=cmd.tiebreak_plan,
            restarts=len(uow.resets.of(cmd.heading.id).resets),
        )
        uow.eliminations.add(e)

    def pair_round(self, cmd: commands.PairRound, uow: PairingUnitOfWork) -> None:
        """Pair the round unless it is paired already (redelivered, or raced by another worker)."""
        e = self._load(uow, cmd.tournament_id)
        if cmd.number <= e.paired_rounds:
            return
        if e.next_round_number() != cmd.number:
            log.warning("round %d of %s is not due (next: %s)", cmd.number, e.id, e.next_round_number())
            return
        e.pair_round(cmd.number, self.draw, now=self.clock.now())
        uow.eliminations.save(e)

    def record_result(self, cmd: commands.RecordResult, uow: PairingUnitOfWork) -> None:
        e = self._load(uow, cmd.tournament_id)
        if e.game(cmd.game_id) is None and removed_game(uow, e.id, cmd.game_id, "game.finished"):
            return  # of the start a reset undid: this one is another
        e.record_result(cmd.game_id, cmd.outcome, finished_at=cmd.finished_at, now=self.clock.now())
        uow.eliminations.save(e)

    def publish_round(
        self, cmd: commands.PublishRound, arbiters: Arbiters | None, uow: PairingUnitOfWork
    ) -> None:
        """Make a round public; publishing it again changes nothing."""
        e = self._load(uow, cmd.tournament_id)
        who = authority(e.heading.organiser_id, arbiters)
        e.publish_round(cmd.number, authority=who, by=cmd.actor.id, now=self.clock.now())
        uow.eliminations.save(e)

    def pair_on_command(
        self, cmd: commands.PairOnCommand, arbiters: Arbiters | None, uow: PairingUnitOfWork
    ) -> None:
        raise errors.PairedWhenDue("a knockout's rounds are paired by the service when they are due")

    def excuse_absence(
        self, cmd: commands.ExcuseAbsence, arbiters: Arbiters | None, uow: PairingUnitOfWork
    ) -> bool:
        raise errors.AbsenceNotFound("a knockout has no absences to excuse (only fide-rapid events do)")

    def add_late_player(self, cmd: commands.AddLatePlayer, uow: PairingUnitOfWork) -> None:
        """A knockout takes no late entries: nothing changes."""

    def record_withdrawal(self, cmd: commands.RecordWithdrawal, uow: PairingUnitOfWork) -> None:
        e = self._load(uow, cmd.tournament_id)
        started = e.heading.started_at
        if not e.plays(cmd.player_id) and undone_withdrawal(uow, e.id, cmd.player_id, cmd.at, started):
            return  # withdrawn from a start a reset undid: not seeded in this one
        at = cmd.at or self.clock.now()
        if e.withdraw(cmd.player_id, excluded=cmd.excluded, reason=cmd.reason, at=at):
            uow.eliminations.save(e)

    def record_colours(self, cmd: commands.RecordColours, uow: PairingUnitOfWork) -> None:
        e = self._load(uow, cmd.tournament_id)
        if e.game(cmd.game_id) is None and removed_game(uow, e.id, cmd.game_id, "game.colours_swapped"):
            return
        if e.swap_colours(cmd.game_id, cmd.white, cmd.black):
            uow.eliminations.save(e)

    def correct_result(
        self,
        cmd: commands.CorrectResult,
        tournament_id: uuid.UUID,
        arbiters: Arbiters | None,
        uow: PairingUnitOfWork,
    ) -> commands.Corrected:
        e = self._load(uow, tournament_id)
        found = e.game(cmd.game_id)
        if found is None:
            raise errors.GameNotFound(f"game {cmd.game_id} is not in tournament {tournament_id}")
        match, game = found
        old = game.outcome
        e.correct_result(
            cmd.game_id,
            cmd.outcome,
            authority=authority(e.heading.organiser_id, arbiters),
            by=cmd.actor.id,
            reason=cmd.reason,
            at=self.clock.now(),
        )
        uow.eliminations.save(e)
        assert old is not None
        return commands.Corrected(e.id, cmd.game_id, match.round, old, cmd.outcome)

    def request_bye(
        self, cmd: commands.RequestBye, arbiters: Arbiters | None, uow: PairingUnitOfWork
    ) -> None:
        e = self._load(uow, cmd.tournament_id)
        e.refuse_bye(cmd.player_id, authority=authority(e.heading.organiser_id, arbiters), by=cmd.actor.id)

    def take_back_bye(
        self, cmd: commands.TakeBackBye, arbiters: Arbiters | None, uow: PairingUnitOfWork
    ) -> None:
        e = self._load(uow, cmd.tournament_id)
        e.refuse_bye(cmd.player_id, authority=authority(e.heading.organiser_id, arbiters), by=cmd.actor.id)

    def reset(self, cmd: commands.ResetTournament, arbiters: Arbiters | None, uow: PairingUnitOfWork) -> None:
        e = self._load(uow, cmd.tournament_id)
        who = authority(e.heading.organiser_id, arbiters)
        e.reset(authority=who, by=cmd.actor.id, at=self.clock.now())
        uow.eliminations.save(e)

    @staticmethod
    def _load(uow: PairingUnitOfWork, tournament_id: uuid.UUID) -> Elimination:
        e = uow.eliminations.get(tournament_id, lock=True)
        if e is None:
            raise errors.TournamentNotFound(f"no knockout {tournament_id}")
        return e
