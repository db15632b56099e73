"""Command and event handlers: load, ask the domain, save, publish, in one unit of work."""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable
from typing import Any

from services.clocks.adapters.deadlines import DeadlineStoreUnavailable
from services.clocks.domain import errors
from services.clocks.domain.clock import TimeControl
from services.clocks.domain.game import Game
from services.clocks.service_layer import commands
from services.clocks.service_layer.unit_of_work import ClocksUnitOfWork
from shared import events
from shared.events import Envelope
from shared.timesource import Clock

log = logging.getLogger(__name__)


def _get(uow: ClocksUnitOfWork, game_id: uuid.UUID, *, lock: bool = False) -> Game:
    game = uow.games.get(game_id, lock=lock)
    if game is None:
        raise errors.GameNotFound(f"no game {game_id}")
    return game


def _time_control(tc: TimeControl) -> events.TimeControl:
    return events.TimeControl(
        base_seconds=tc.base_seconds, increment_seconds=tc.increment_seconds, days_per_move=tc.days_per_move
    )


def _finished_event(game: Game) -> events.GameFinished:
    if game.outcome is None or game.reason is None or game.finished_at is None:
        raise ValueError(f"game {game.id} is not finished")
    return events.GameFinished(
        tournament_id=game.tournament_id,
        game_id=game.id,
        round=game.round,
        white=game.white,
        black=game.black,
        outcome=game.outcome,
        reason=game.reason,
        moves=game.moves,
        finished_at=game.finished_at,
        both_moved=game.both_moved,
    )


def _save_finished(uow: ClocksUnitOfWork, game: Game) -> None:
    uow.games.save(game)
    uow.publish(_finished_event(game), game.tournament_id)
    uow.track(game)


class Handlers:
    """Built by bootstrap with the clock they need."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock

    def table(self) -> dict[type, Callable[[Any, ClocksUnitOfWork], Any]]:
        return {
            commands.MakeMove: self.make_move,
            commands.ReportResult: self.report_result,
            commands.CheckFlags: self.check_flags,
        }

    def make_move(self, cmd: commands.MakeMove, uow: ClocksUnitOfWork) -> Game:
        with uow:
            game = _get(uow, cmd.game_id, lock=True)
            try:
                game.move(cmd.player_id, self.clock.now())
            except errors.FlagFallen:  # too late: the game ended on time; keep that, then refuse
                _save_finished(uow, game)
                uow.commit()
                raise
            uow.games.save(game)
            uow.track(game)
            uow.commit()
            return game

    def report_result(self, cmd: commands.ReportResult, uow: ClocksUnitOfWork) -> Game:
        with uow:
            game = _get(uow, cmd.game_id, lock=True)
            actor = cmd.actor
            if game.side_of(actor.id) is None and actor.id != game.organiser_id and not actor.staff:
                raise errors.NotAPlayer(
                    "only the players of this game, its organiser, an arbiter or a service may report its result"
                )
            try:
                game.report_result(cmd.outcome, cmd.reason, self.clock.now())
            except errors.FlagFallen:
                _save_finished(uow, game)
                uow.commit()
                raise
            _save_finished(uow, game)
            uow.commit()
            return game

    def check_flags(self, cmd: commands.CheckFlags, uow: ClocksUnitOfWork) -> int:
        """Each due game in its own transaction, its row locked: two tickers never finish a game twice
        (the second finds it finished). A deadline that moved meanwhile is rescheduled."""
        now = self.clock.now()
        sweep = cmd.sweep
        try:
            candidates = uow.deadlines.due(now, cmd.limit)
        except DeadlineStoreUnavailable as exc:
            log.warning("flag check falls back on the database: %s", exc)
            candidates, sweep = [], True
        if sweep:
            with uow:
                overdue = uow.games.overdue(now, limit=cmd.limit)
            candidates = list(dict.fromkeys([*candidates, *overdue]))
        finished = 0
        for game_id in candidates:
            with uow:
                game = uow.games.get(game_id, lock=True)
                if game is None:
                    uow.forget(game_id)
                elif game.check_flag(now):
                    _save_finished(uow, game)
                    finished += 1
                else:
                    uow.track(game)  # stale: the deadline moved, or the game already ended
                uow.commit()
        return finished

    # -- events from other services ---------------------------------------------------------------
    def on_round_paired(self, event: events.RoundPaired, uow: ClocksUnitOfWork, envelope: Envelope) -> None:
        """Create the round's games and start their clocks now: White's time runs from the round start.
        A game that exists already (the same pairing published again) is left alone."""
        now = self.clock.now()
        tc = event.time_control
        control = TimeControl(tc.base_seconds, tc.increment_seconds, tc.days_per_move)
        existing = uow.games.existing(g.game_id for g in event.games)
        for paired in event.games:
            if paired.game_id in existing:
                continue
            game = Game.pair(
                game_id=paired.game_id,
                tournament_id=event.tournament_id,
                organiser_id=event.organiser_id,
                round=event.round,
                board=paired.board,
                leg=paired.leg,
                white=paired.white,
                black=paired.black,
                control=control,
            )
            game.start(now)
            uow.games.add(game, now)
            uow.publish(
                events.GameStarted(
                    tournament_id=game.tournament_id,
                    game_id=game.id,
                    round=game.round,
                    white=game.white,
                    black=game.black,
                    started_at=now,
                    time_control=_time_control(control),
                ),
                game.tournament_id,
            )
            uow.track(game)

    def on_tournament_completed(
        self, event: events.TournamentCompleted, uow: ClocksUnitOfWork, envelope: Envelope
    ) -> None:
        """The tournament closed: games still open are drawn (RULES.md §2 "Duration"), unless their
        flag had already fallen."""
        now = self.clock.now()
        for game in uow.games.unfinished_in(event.tournament_id, lock=True):
            if game.close(now):
                _save_finished(uow, game)
