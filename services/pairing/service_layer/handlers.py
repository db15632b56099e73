"""Pairing's handlers. The consumer records facts (a tournament started, a game finished) and
announces when a round is due; the pairing worker pairs it. Both lock the tournament's row, so
the work on one tournament is serialised while different tournaments proceed in parallel."""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Mapping
from typing import Any

from services.pairing.domain import errors
from services.pairing.domain.rounds.platform import plan
from services.pairing.domain.rounds.tournament import (
    Pairer,
    PairingTournament,
    Player,
    Progress,
    Status,
    progress_after_result,
)
from services.pairing.service_layer import commands
from services.pairing.service_layer.brackets import BracketHandlers
from services.pairing.service_layer.unit_of_work import PairingUnitOfWork
from shared import events
from shared.timesource import Clock
from shared.vocabulary import System

log = logging.getLogger(__name__)


class Handlers:
    def __init__(self, clock: Clock, pairers: Mapping[System, Pairer], brackets: BracketHandlers) -> None:
        self.clock = clock
        self.pairers = dict(pairers)
        self.brackets = brackets  # the knockout rulesets

    def table(self) -> dict[type, Callable[[Any, PairingUnitOfWork], Any]]:
        return {commands.PublishRound: self.brackets.publish_round}

    # -- consumer -----------------------------------------------------------------------------------
    def on_tournament_started(self, event: events.TournamentStarted, uow: PairingUnitOfWork) -> None:
        if uow.tournaments.exists(event.tournament_id):
            return
        if event.settings.knockout is not None:
            self.brackets.on_tournament_started(event, uow)
            return
        roster = sorted(event.roster, key=lambda r: r.seed)
        chosen = plan(len(roster), threshold=event.settings.threshold, extra_round=event.settings.extra_round)
        t = PairingTournament(
            id=event.tournament_id,
            organiser_id=event.organiser_id,
            name=event.name,
            plan=chosen,
            double_rounds=event.settings.double_rounds,
            players=[Player(r.seed, r.player_id, r.name, r.rating) for r in roster],
        )
        uow.tournaments.add(
            t,
            ruleset=event.settings.ruleset,
            time_control=event.settings.time_control,
            started_at=event.started_at,
        )
        uow.publish(events.RoundDue(tournament_id=t.id, round=1), t.id)

    def on_game_finished(self, event: events.GameFinished, uow: PairingUnitOfWork) -> None:
        tid = event.tournament_id
        head = uow.tournaments.lock(tid)
        if head is None:
            raise errors.TournamentNotFound(
                f"game.finished for unknown tournament {tid}"
            )  # retried, then DLQ
        if head.system.elimination:
            self.brackets.on_game_finished(event, uow)
            return
        if not uow.tournaments.record_outcome(event.game_id, event.outcome, event.finished_at):
            if uow.tournaments.game(event.game_id) is None:
                raise errors.RoundNotFound(f"game {event.game_id} is not in tournament {tid}")
            return  # a second result for the same game: the first one stands
        completed, open_games = uow.tournaments.round_state(tid, event.round)
        if completed:
            return
        total = head.total_rounds
        progress = progress_after_result(event.round, open_games, total)
        if progress is Progress.ROUND_OPEN:
            return
        now = self.clock.now()
        uow.tournaments.complete_round(tid, event.round, now)
        uow.publish(events.RoundCompleted(tournament_id=tid, round=event.round), tid)
        if progress is Progress.ROUND_COMPLETED:
            uow.publish(events.RoundDue(tournament_id=tid, round=event.round + 1), tid)
            return
        uow.tournaments.set_status(tid, Status.COMPLETED)
        uow.publish(
            events.TournamentCompleted(
                tournament_id=tid, organiser_id=head.organiser_id, rounds=total, completed_at=now
            ),
            tid,
        )

    # -- worker -------------------------------------------------------------------------------------
    def on_round_due(self, event: events.RoundDue, uow: PairingUnitOfWork) -> None:
        self.pair_round(event.tournament_id, event.round, uow)

    def pair_round(self, tournament_id: uuid.UUID, number: int, uow: PairingUnitOfWork) -> None:
        """Pair round ``number`` unless it already is. The row lock serialises workers; the rounds
        table's primary key would still refuse a second pairing (IntegrityError, retried, and the
        retry finds the round paired)."""
        head = uow.tournaments.lock(tournament_id)
        if head is None:
            raise errors.TournamentNotFound(f"no tournament {tournament_id}")
        if head.system.elimination:
            self.brackets.pair_round(tournament_id, number, uow)
            return
        t = uow.tournaments.get(tournament_id)
        assert t is not None
        if t.round(number) is not None:
            return  # paired already (redelivered or raced)
        if t.next_round_number() != number:
            log.warning("round %d of %s is not due (next: %s)", number, tournament_id, t.next_round_number())
            return
        rnd = t.pair_round(number, self.pairers[t.system])
        uow.tournaments.add_round(t.id, rnd, self.clock.now())
        uow.publish(
            events.RoundPaired(
                tournament_id=t.id,
                organiser_id=t.organiser_id,
                round=number,
                total_rounds=t.total_rounds,
                system=t.system.value,
                games=[
                    events.PairedGame(
                        game_id=g.game_id,
                        board=g.board,
                        white=t.player(g.white).player_id,
                        black=t.player(g.black).player_id,
                        leg=g.leg,
                    )
                    for g in rnd.games
                ],
                byes=[events.Bye(player_id=t.player(b.seed).player_id, kind=b.kind) for b in rnd.byes],
                time_control=uow.tournaments.time_control(t.id),
            ),
            t.id,
        )
