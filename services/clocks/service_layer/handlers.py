"""Command and event handlers: load, ask the domain, save, publish, in one unit of work."""

from __future__ import annotations

import datetime as dt
import logging
import uuid
from collections.abc import Callable
from typing import Any

from services.clocks.adapters.deadlines import DeadlineStoreUnavailable
from services.clocks.domain import errors
from services.clocks.domain.clock import TimeControl
from services.clocks.domain.game import Game, GameStatus
from services.clocks.service_layer import commands
from services.clocks.service_layer.unit_of_work import ClocksUnitOfWork
from shared import events
from shared.messaging.port import NotReady
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


def _start(uow: ClocksUnitOfWork, game: Game, now: dt.datetime, *, new: bool = False) -> None:
    """Start a game's clock: White's time runs from now. A ``new`` game is stored already started
    (one insert, not an insert and an update)."""
    game.start(now)
    if new:
        uow.games.add(game, now)
    else:
        uow.games.save(game)
    uow.publish(
        events.GameStarted(
            tournament_id=game.tournament_id,
            game_id=game.id,
            round=game.round,
            white=game.white,
            black=game.black,
            started_at=now,
            time_control=_time_control(game.control),
        ),
        game.tournament_id,
    )
    uow.track(game)


def _play_on(uow: ClocksUnitOfWork, tournament_id: uuid.UUID, match_id: str, now: dt.datetime) -> None:
    """A knockout match plays one game at a time: unless one is running, start its first released game
    that is still waiting."""
    games = uow.games.in_match(tournament_id, match_id)
    if any(g.status is GameStatus.RUNNING for g in games):
        return
    waiting = next((g for g in games if g.status is GameStatus.PENDING and g.released), None)
    if waiting is not None:
        _start(uow, waiting, now)


def _cancel(uow: ClocksUnitOfWork, game: Game, now: dt.datetime) -> None:
    """Cancel a game its knockout match no longer needs (``game.cancelled``); one whose flag had
    already fallen ends on time instead."""
    if game.check_flag(now):
        _save_finished(uow, game)
        return
    game.cancel(now)
    uow.games.save(game)
    uow.publish(
        events.GameCancelled(
            tournament_id=game.tournament_id,
            game_id=game.id,
            round=game.round,
            reason=game.reason or "",
            cancelled_at=now,
        ),
        game.tournament_id,
    )
    uow.track(game)


def _finish(uow: ClocksUnitOfWork, game: Game, now: dt.datetime) -> None:
    """Save a finished game and publish it; a knockout match goes on with its next game."""
    _save_finished(uow, game)
    if game.match_id is not None:
        _play_on(uow, game.tournament_id, game.match_id, now)


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
                _finish(uow, game, self.clock.now())
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
            now = self.clock.now()
            try:
                game.report_result(cmd.outcome, cmd.reason, now)
            except errors.FlagFallen:
                _finish(uow, game, now)
                uow.commit()
                raise
            _finish(uow, game, now)
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
                    _finish(uow, game, now)
                    finished += 1
                else:
                    uow.track(game)  # stale: the deadline moved, or the game already ended
                uow.commit()
        return finished

    # -- events from other services ---------------------------------------------------------------
    def on_round_paired(self, event: events.RoundPaired, uow: ClocksUnitOfWork) -> None:
        """Create the round's games and start their clocks now: White's time runs from the round start.
        A game that exists already (the same pairing published again, or a knockout round announced again
        with its tie-break games) is left alone. A knockout round's games wait until it is published, and a
        match's games are played one after the other."""
        now = self.clock.now()
        released = event.published is not False
        existing = uow.games.existing(g.game_id for g in event.games)
        matches: list[str] = []
        for paired in event.games:
            if paired.game_id in existing:
                continue
            tc = paired.time_control or event.time_control
            game = Game.pair(
                game_id=paired.game_id,
                tournament_id=event.tournament_id,
                organiser_id=event.organiser_id,
                round=event.round,
                board=paired.board,
                leg=paired.leg,
                white=paired.white,
                black=paired.black,
                control=TimeControl(tc.base_seconds, tc.increment_seconds, tc.days_per_move),
                match_id=paired.match_id,
                number=paired.number,
                label=paired.label,
                released=released,
            )
            if paired.match_id is not None:  # a match's games start one after the other
                uow.games.add(game, now)
                matches.append(paired.match_id)
            elif released:
                _start(uow, game, now, new=True)
            else:
                uow.games.add(game, now)
        if released:
            for match_id in dict.fromkeys(matches):
                _play_on(uow, event.tournament_id, match_id, now)

    def on_round_published(self, event: events.RoundPublished, uow: ClocksUnitOfWork) -> None:
        """A knockout round is public: its games are released, and each match starts its first game."""
        now = self.clock.now()
        games = uow.games.in_tournament(event.tournament_id, round=event.round, lock=True)
        if not games:  # its pairing is still on its way
            raise NotReady(f"round {event.round} of {event.tournament_id} has no games here yet")
        for game in games:
            if not game.released:
                game.released = True
                uow.games.save(game)
        for match_id in dict.fromkeys(g.match_id for g in games if g.match_id is not None):
            _play_on(uow, event.tournament_id, match_id, now)

    def on_match_decided(self, event: events.MatchDecided, uow: ClocksUnitOfWork) -> None:
        """Cancel the games the decided match no longer needs (``game.cancelled``). A game that ended
        meanwhile — played, or its flag fell first — stays as it is."""
        now = self.clock.now()
        for game_id in event.games_cancelled:
            game = uow.games.get(game_id, lock=True)
            if game is not None and not game.over:
                _cancel(uow, game, now)

    def on_tournament_completed(self, event: events.TournamentCompleted, uow: ClocksUnitOfWork) -> None:
        """The tournament closed: games still open are drawn (RULES.md §2 "Duration"), unless their
        flag had already fallen. A knockout completes once every match is decided, so a knockout game
        still open is one its match no longer needed (``match.decided`` may come later on its own
        queue): it is cancelled."""
        now = self.clock.now()
        for game in uow.games.unfinished_in(event.tournament_id, lock=True):
            if game.match_id is not None:
                if not game.over:
                    _cancel(uow, game, now)
            elif game.close(now):
                _save_finished(uow, game)
