"""Pairing's handlers. The consumer records facts (a tournament started, a game finished, a player
withdrew, an arbiter was appointed, a game's colours were swapped) and announces when a round is due;
the pairing worker pairs it; the organiser and the arbiters decide over HTTP (publish a knockout round,
correct a result, a bye on request, a reset to the draft). Each takes the tournament's row lock first, so
the work on one tournament is serialised while different tournaments proceed in parallel, and hands the
work to the flow of the tournament's system. Who may decide is asked of the tournament's organiser and
its appointed arbiters (:mod:`services.pairing.domain.arbiters`)."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from services.pairing.domain import errors
from services.pairing.domain.arbiters import Arbiters
from services.pairing.domain.roster import RosterHeard, heard_revision, require_heard
from services.pairing.service_layer import commands, settled
from services.pairing.service_layer.arena import LEAVE, ArenaHandlers
from services.pairing.service_layer.flows import Flow, Flows
from services.pairing.service_layer.flows.group_playoff import GroupPlayoffFlow
from services.pairing.service_layer.ports import PairingUnitOfWork
from shared.messaging.port import NotReady


class Handlers:
    def __init__(self, flows: Flows, arena: ArenaHandlers) -> None:
        self.flows = flows
        self.arena = arena

    def table(self) -> dict[type, Callable[[Any, PairingUnitOfWork], Any]]:
        return {
            commands.PublishRound: self.publish_round,
            commands.PairOnCommand: self.pair_on_command,
            commands.ExcuseAbsence: self.excuse_absence,
            commands.CorrectResult: self.correct_result,
            commands.RequestBye: self.request_bye,
            commands.TakeBackBye: self.take_back_bye,
            commands.ResetTournament: self.reset,
            commands.AnnouncePhase: self.group_playoff,
            commands.DrawGroupLots: self.group_playoff,
            commands.SetPhaseDeadline: self.group_playoff,
            commands.DrawGameLot: self.group_playoff,
        }

    # -- consumer -----------------------------------------------------------------------------------
    def on_tournament_started(
        self, cmd: commands.StartTournament | commands.StartArena, uow: PairingUnitOfWork
    ) -> None:
        if isinstance(cmd, commands.StartArena):
            return  # the arena queue starts it, in order with its entries (on_arena)
        # started already, or not (a knockout reset to its draft is gone: it starts afresh)
        if uow.lock(cmd.tournament_id) is None:
            self.flows.starting(cmd).start(cmd, uow)
        hear_roster(uow, cmd.tournament_id, cmd.roster_revision, start=True)

    def on_game_finished(
        self, cmd: commands.RecordResult | commands.RecordArenaResult, uow: PairingUnitOfWork
    ) -> None:
        if isinstance(cmd, commands.RecordArenaResult):
            self.arena.on_game_finished(cmd, uow)
            return
        system = uow.lock(cmd.tournament_id)
        if system is None:
            if settled.removed_game(uow, cmd.tournament_id, cmd.game_id, "game.finished"):
                return  # a result in flight when its knockout was reset
            raise errors.TournamentNotFound(f"no tournament {cmd.tournament_id}")  # retried, then DLQ
        self.flows.of(system).record_result(cmd, uow)

    def on_player_withdrawn(self, cmd: commands.RecordWithdrawal, uow: PairingUnitOfWork) -> None:
        """Recorded once (a second withdrawal of the same player changes nothing). A withdrawal that
        arrives before its tournament started here waits for it; one from a knockout's start that a
        reset undid is settled. An arena's player withdrawn or excluded leaves its waiting pool for good."""
        if uow.arenas.get(cmd.tournament_id) is not None:
            self.arena.on_entry(commands.ArenaEntry(cmd.tournament_id, cmd.player_id, LEAVE), uow)
        else:
            system = uow.lock(cmd.tournament_id)
            if system is not None:
                self.flows.of(system).record_withdrawal(cmd, uow)
            elif not settled.undone_withdrawal(uow, cmd.tournament_id, cmd.player_id, cmd.at, None):
                raise NotReady(f"tournament {cmd.tournament_id} has not started here yet")
        hear_roster(uow, cmd.tournament_id, cmd.roster_revision)

    def on_player_joined(self, cmd: commands.AddLatePlayer, uow: PairingUnitOfWork) -> None:
        """A late entry of a started `fide-rapid` event is paired from its round; one that arrives before
        the tournament started here waits for it. An entry before the start changes nothing here (the
        roster comes with ``tournament.started``)."""
        if not cmd.late:
            return  # nor is its roster revision (the start brings it; an arena's queue hears its entries)
        system = uow.lock(cmd.tournament_id)
        if system is None:
            raise NotReady(f"tournament {cmd.tournament_id} has not started here yet")
        self.flows.of(system).add_late_player(cmd, uow)
        hear_roster(uow, cmd.tournament_id, cmd.roster_revision)

    def on_arbiter(
        self, cmd: commands.RecordAppointment | commands.RecordRevocation, uow: PairingUnitOfWork
    ) -> None:
        """Keep the appointment or revocation, whether the tournament has started here or not (an
        appointment may come first; nothing waits for it). Under the tournament's row lock when it
        exists, so a decision and an appointment of one tournament never interleave."""
        uow.lock(cmd.tournament_id)
        arbiters = uow.arbiters.get(cmd.tournament_id, lock=True)
        known = arbiters is not None
        if arbiters is None:
            arbiters = Arbiters(cmd.tournament_id)
        if isinstance(cmd, commands.RecordAppointment):
            changed = arbiters.appoint(cmd.arbiter_id, cmd.games, at=cmd.at)
        else:
            changed = arbiters.revoke(cmd.arbiter_id, at=cmd.at)
        if not changed:
            return
        if known:
            uow.arbiters.save(arbiters)
        else:
            uow.arbiters.add(arbiters)

    def on_arena(self, cmd: commands.StartArena | commands.ArenaEntry | None, uow: PairingUnitOfWork) -> None:
        """An arena started, or a player joined, paused or left (docs/arena.md)."""
        if isinstance(cmd, commands.StartArena):
            self.arena.on_started(cmd, uow)
            hear_roster(uow, cmd.tournament_id, cmd.roster_revision, start=True)
        elif cmd is not None:
            self.arena.on_entry(cmd, uow)
            hear_roster(uow, cmd.tournament_id, cmd.roster_revision)

    def on_playing(self, cmd: commands.RecordPlaying, uow: PairingUnitOfWork) -> None:
        self.arena.on_playing(cmd, uow)

    def on_game(self, cmd: commands.RecordPlaying | commands.GameOver, uow: PairingUnitOfWork) -> None:
        """The games' queue: a game started (the players' in-game marker) or was cancelled (the marker
        goes), or it finished: the marker goes first (the store is not transactional; taking it off again is harmless), then the result."""
        if isinstance(cmd, commands.RecordPlaying):
            self.on_playing(cmd, uow)
            return
        self.on_playing(cmd.playing, uow)
        self.on_game_finished(cmd.result, uow)

    def on_colours_swapped(self, cmd: commands.RecordColours, uow: PairingUnitOfWork) -> None:
        """A swap of a game its knockout's reset removed (swapped, then reset at once) is settled."""
        system = uow.lock(cmd.tournament_id)
        if system is None:
            if settled.removed_game(uow, cmd.tournament_id, cmd.game_id, "game.colours_swapped"):
                return
            raise errors.TournamentNotFound(f"no tournament {cmd.tournament_id}")
        self.flows.of(system).record_colours(cmd, uow)

    # -- worker -------------------------------------------------------------------------------------
    def on_round_due(self, cmd: commands.PairRound, uow: PairingUnitOfWork) -> None:
        """Pair a due round unless it is paired already. The row lock serialises workers; the rounds'
        primary key would still refuse a second pairing (``RoundTaken``, retried, and the retry finds
        the round paired). A knockout reset to its draft before its round was paired has nothing to pair
        until it starts again (its new start makes round 1 due again): settled."""
        system = uow.lock(cmd.tournament_id)
        if system is None:
            if settled.reset_away(uow, cmd.tournament_id, f"pairing.round_due (round {cmd.number})"):
                return
            raise errors.TournamentNotFound(f"no tournament {cmd.tournament_id}")
        self.flows.of(system).pair_round(cmd, uow)

    # -- commands -----------------------------------------------------------------------------------
    def publish_round(self, cmd: commands.PublishRound, uow: PairingUnitOfWork) -> None:
        with uow:
            flow = self._flow(uow, cmd.tournament_id)
            flow.publish_round(cmd, uow.arbiters.get(cmd.tournament_id), uow)
            uow.commit()

    def pair_on_command(self, cmd: commands.PairOnCommand, uow: PairingUnitOfWork) -> int:
        """Pair the round once the roster revision the command names is heard (a tournament not heard of
        at all has heard none: 409 ``not-yet-heard`` rather than 404 when one is named); the revision it
        paired with."""
        with uow:
            system = uow.lock(cmd.tournament_id)
            revision = heard_revision(uow.rosters.get(cmd.tournament_id))
            require_heard(cmd.tournament_id, revision, cmd.roster_revision)
            if system is None:
                raise errors.TournamentNotFound(f"no tournament {cmd.tournament_id}")
            self.flows.of(system).pair_on_command(cmd, uow.arbiters.get(cmd.tournament_id), uow)
            uow.commit()
        return revision

    def excuse_absence(self, cmd: commands.ExcuseAbsence, uow: PairingUnitOfWork) -> bool:
        with uow:
            flow = self._flow(uow, cmd.tournament_id)
            dropped = flow.excuse_absence(cmd, uow.arbiters.get(cmd.tournament_id), uow)
            uow.commit()
        return dropped

    def correct_result(self, cmd: commands.CorrectResult, uow: PairingUnitOfWork) -> commands.Corrected:
        with uow:
            tournament_id = uow.tournament_of_game(cmd.game_id)
            if tournament_id is None:
                raise errors.GameNotFound(f"pairing paired no game {cmd.game_id}")
            flow = self._flow(uow, tournament_id)
            corrected = flow.correct_result(cmd, tournament_id, uow.arbiters.get(tournament_id), uow)
            uow.commit()
        return corrected

    def request_bye(self, cmd: commands.RequestBye, uow: PairingUnitOfWork) -> Any:
        with uow:
            flow = self._flow(uow, cmd.tournament_id)
            request = flow.request_bye(cmd, uow.arbiters.get(cmd.tournament_id), uow)
            uow.commit()
        return request

    def take_back_bye(self, cmd: commands.TakeBackBye, uow: PairingUnitOfWork) -> None:
        with uow:
            flow = self._flow(uow, cmd.tournament_id)
            flow.take_back_bye(cmd, uow.arbiters.get(cmd.tournament_id), uow)
            uow.commit()

    def reset(self, cmd: commands.ResetTournament, uow: PairingUnitOfWork) -> None:
        with uow:
            flow = self._flow(uow, cmd.tournament_id)
            flow.reset(cmd, uow.arbiters.get(cmd.tournament_id), uow)
            uow.commit()

    def group_playoff(
        self,
        cmd: commands.AnnouncePhase
        | commands.DrawGroupLots
        | commands.SetPhaseDeadline
        | commands.DrawGameLot,
        uow: PairingUnitOfWork,
    ) -> None:
        """The organiser's decisions in a group-playoff event: a phase announced, a lot, a deadline, an
        overdue game's lot."""
        with uow:
            flow = self._flow(uow, cmd.tournament_id)
            if not isinstance(flow, GroupPlayoffFlow):
                raise errors.PairingError(f"tournament {cmd.tournament_id} is not a group-playoff event")
            if isinstance(cmd, commands.AnnouncePhase):
                flow.announce_phase(cmd, uow)
            elif isinstance(cmd, commands.DrawGroupLots):
                flow.draw_lots(cmd, uow)
            elif isinstance(cmd, commands.DrawGameLot):
                flow.draw_game_lot(cmd, uow)
            else:
                flow.set_deadline(cmd, uow)
            uow.commit()

    def _flow(self, uow: PairingUnitOfWork, tournament_id: uuid.UUID) -> Flow:
        system = uow.lock(tournament_id)
        if system is None:
            raise errors.TournamentNotFound(f"no tournament {tournament_id}")
        return self.flows.of(system)


def hear_roster(
    uow: PairingUnitOfWork, tournament_id: uuid.UUID, revision: int | None, *, start: bool = False
) -> None:
    """Keep the roster revision a change brought (``start``: a start, the roster as of it), in the unit
    of work that applied the change; a change from a producer before revisions (None) brings none."""
    if revision is None:
        return
    heard = uow.rosters.get(tournament_id, lock=True)
    known = heard is not None
    if heard is None:
        heard = RosterHeard(tournament_id)
    if not (heard.started(revision) if start else heard.heard(revision)):
        return
    if known:
        uow.rosters.save(heard)
    else:
        uow.rosters.add(heard)
