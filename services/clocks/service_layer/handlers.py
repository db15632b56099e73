"""Command handlers: load the games, ask the domain, save them, in one unit of work. The games record
what other services hear of (``game.started``, ``game.finished``, ``game.cancelled``); the unit of work
writes it to the outbox and keeps the deadline store in step after the commit."""

from __future__ import annotations

import datetime as dt
import logging
import uuid
from collections.abc import Callable
from typing import Any

from services.clocks.domain import errors
from services.clocks.domain.game import Game, GameStatus
from services.clocks.service_layer import commands
from services.clocks.service_layer.ports import ClocksUnitOfWork, DeadlineStoreUnavailable
from shared.messaging.port import NotReady
from shared.timesource import Clock

log = logging.getLogger(__name__)


def _get(uow: ClocksUnitOfWork, game_id: uuid.UUID) -> Game:
    game = uow.games.get(game_id, lock=True)
    if game is None:
        raise errors.GameNotFound(f"no game {game_id}")
    return game


def _play_on(uow: ClocksUnitOfWork, tournament_id: uuid.UUID, match_id: str, now: dt.datetime) -> None:
    """A knockout match plays one game at a time: unless one is running, start its first released game
    that is still waiting."""
    games = uow.games.in_match(tournament_id, match_id)
    if any(g.status is GameStatus.RUNNING for g in games):
        return
    waiting = next((g for g in games if g.status is GameStatus.PENDING and g.released), None)
    if waiting is not None:
        waiting.start(now)
        uow.games.save(waiting)


def _save(uow: ClocksUnitOfWork, game: Game, now: dt.datetime) -> None:
    """Save a game a report or the ticker changed; once it is finished, a knockout match goes on with
    its next game."""
    uow.games.save(game)
    if game.finished and game.match_id is not None:
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

    def make_move(self, cmd: commands.MakeMove, uow: ClocksUnitOfWork) -> commands.Reported:
        """Press the mover's clock. Too late, the game ends on time instead: that is saved, and the
        answer says so (the caller refuses the move)."""
        with uow:
            game = _get(uow, cmd.game_id)
            now = self.clock.now()
            flag_fall = game.move(cmd.player_id, now)
            _save(uow, game, now)
            uow.commit()
            return commands.Reported(game, flag_fall)

    def report_result(self, cmd: commands.ReportResult, uow: ClocksUnitOfWork) -> commands.Reported:
        """End the game with the reported result, or on time if its flag had fallen first (saved, and
        the answer says so: the caller refuses the result)."""
        with uow:
            game = _get(uow, cmd.game_id)
            actor = cmd.actor
            if game.side_of(actor.id) is None and actor.id != game.organiser_id and not actor.staff:
                raise errors.NotAPlayer(
                    "only the players of this game, its organiser, an arbiter or a service may report its result"
                )
            now = self.clock.now()
            flag_fall = game.report_result(cmd.outcome, cmd.reason, now)
            _save(uow, game, now)
            uow.commit()
            return commands.Reported(game, flag_fall)

    def check_flags(self, cmd: commands.CheckFlags, uow: ClocksUnitOfWork) -> int:
        """Each due game in its own transaction, its row locked: two tickers never finish a game twice
        (the second finds it finished). A deadline that moved meanwhile is rescheduled (every game the
        unit of work saw gets its current deadline in the store)."""
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
                    _save(uow, game, now)
                    finished += 1
                uow.commit()
        return finished

    # -- events from other services ---------------------------------------------------------------
    def create_games(self, cmd: commands.CreateGames, uow: ClocksUnitOfWork) -> None:
        """Create the round's games and start their clocks now: White's time runs from the round start.
        A game that exists already (the same pairing published again, or a knockout round announced again
        with its tie-break games) is left alone. A knockout round's games wait until it is published, and a
        match's games are played one after the other."""
        now = self.clock.now()
        existing = uow.games.existing(g.game_id for g in cmd.games)
        matches: list[str] = []
        for paired in cmd.games:
            if paired.game_id in existing:
                continue
            game = Game.pair(
                game_id=paired.game_id,
                tournament_id=cmd.tournament_id,
                organiser_id=cmd.organiser_id,
                round=cmd.round,
                board=paired.board,
                leg=paired.leg,
                white=paired.white,
                black=paired.black,
                control=paired.control,
                at=now,
                match_id=paired.match_id,
                number=paired.number,
                label=paired.label,
                released=cmd.released,
            )
            if paired.match_id is not None:  # a match's games start one after the other
                matches.append(paired.match_id)
            elif cmd.released:
                game.start(now)  # stored already started: one insert, not an insert and an update
            uow.games.add(game)
        if cmd.released:
            for match_id in dict.fromkeys(matches):
                _play_on(uow, cmd.tournament_id, match_id, now)

    def release_round(self, cmd: commands.ReleaseRound, uow: ClocksUnitOfWork) -> None:
        """A knockout round is public: its games are released, and each match starts its first game."""
        now = self.clock.now()
        games = uow.games.of_round(cmd.tournament_id, cmd.round)
        if not games:  # its pairing is still on its way
            raise NotReady(f"round {cmd.round} of {cmd.tournament_id} has no games here yet")
        for game in games:
            if game.release():
                uow.games.save(game)
        for match_id in dict.fromkeys(g.match_id for g in games if g.match_id is not None):
            _play_on(uow, cmd.tournament_id, match_id, now)

    def cancel_games(self, cmd: commands.CancelGames, uow: ClocksUnitOfWork) -> None:
        """Cancel the games the decided match no longer needs (``game.cancelled``). A game that ended
        meanwhile — played, or its flag fell first (it ends on time now) — stays as it is."""
        now = self.clock.now()
        for game_id in cmd.game_ids:
            game = uow.games.get(game_id, lock=True)
            if game is not None and game.cancel(now):
                uow.games.save(game)

    def close_tournament(self, cmd: commands.CloseTournament, uow: ClocksUnitOfWork) -> None:
        """The tournament closed: games still open are drawn (RULES.md §2 "Duration"), unless their
        flag had already fallen. A knockout completes once every match is decided, so a knockout game
        still open is one its match no longer needed (``match.decided`` may come later on its own
        queue): it is cancelled."""
        now = self.clock.now()
        for game in uow.games.unfinished_in(cmd.tournament_id):
            ended = game.cancel(now) if game.match_id is not None else game.close(now)
            if ended:
                uow.games.save(game)
