"""Command handlers: load the games, ask the domain, save them, in one unit of work. The games record
what other services hear of (``game.started``, ``game.finished``, ``game.cancelled``,
``game.colours_swapped``, ``game.penalised``); the unit of work writes it to the outbox and keeps the deadline store in step
after the commit.

What is known of a tournament (organiser, ruleset, timing, arbiters, withdrawn players) is loaded only
when a handler needs it: a player's own loss or a draw claim, the organiser's or the game server's entry
need nothing more than the game itself.
"""

from __future__ import annotations

import datetime as dt
import logging
import uuid
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from services.clocks.domain import errors, legs
from services.clocks.domain.endings import MATCH_REPAIRED, FlagFall, GameStatus
from services.clocks.domain.game import Game
from services.clocks.domain.penalties import displaced
from services.clocks.domain.presence import Presence, absence_forfeit
from services.clocks.domain.tournament import ONLINE, Timing, Tournament, Withdrawal, deciding_role
from services.clocks.service_layer import commands
from services.clocks.service_layer.ports import ClocksUnitOfWork, DeadlineStoreUnavailable
from shared.authority import Authority, Decided, Role
from shared.group_playoff import planned_games
from shared.messaging.port import NotReady
from shared.resets import Resets
from shared.timesource import TimeSource
from shared.vocabulary import Ruleset

log = logging.getLogger(__name__)

ARBITER_ROLE = "arbiter"  # the token's role: only says which refusal an arbiter out of scope gets


def _get(uow: ClocksUnitOfWork, game_id: uuid.UUID) -> Game:
    game = uow.games.get(game_id, lock=True)
    if game is None:
        raise errors.GameNotFound(f"no game {game_id}")
    return game


LOT = "lot"
"""The reason of a result drawn by the organiser's lot (4T1 §4(10))."""


def _refuse_unknown(uow: ClocksUnitOfWork, game_id: uuid.UUID) -> None:
    """A game not created here: 409 when it is a game of a group-playoff phase not opened yet (its id
    is known ahead, and no game of its phase is here yet), else 404."""
    wanted = str(game_id)
    for tournament_id in uow.tournaments.of_ruleset(Ruleset.GROUP_PLAYOFF):
        planned = planned_games(tournament_id)
        found = next(((stage, slot) for stage, slot, ids in planned if wanted in ids), None)
        if found is None:
            continue
        stage, slot = found
        same_phase = [i for s, _, ids in planned if s.phase == stage.phase for i in ids]
        if not any(uow.games.get(uuid.UUID(i)) is not None for i in same_phase):
            where = stage.value if slot is None else f"{stage.value} {slot}"
            raise errors.PhaseNotStarted(
                f"game {game_id} is a game of the {where} match of phase {stage.phase}, which has not started:"
                " the organiser announces it once every game of the earlier phases is finished"
            )
    raise errors.GameNotFound(f"no game {game_id}")


class Known:
    """A tournament as this unit of work knows it, read the first time a handler asks."""

    def __init__(self, uow: ClocksUnitOfWork, tournament_id: uuid.UUID, loaded: Tournament | None = None):
        self.uow = uow
        self.tournament_id = tournament_id
        self._tournament = loaded
        self._read = loaded is not None

    def tournament(self) -> Tournament | None:
        if not self._read:
            self._tournament = self.uow.tournaments.get(self.tournament_id)
            self._read = True
        return self._tournament

    def players_run_games(self) -> bool:
        t = self.tournament()
        return t is not None and t.players_run_games

    def timing(self) -> Timing:
        """Who keeps the time (the server's clocks until ``tournament.started`` says otherwise)."""
        t = self.tournament()
        return ONLINE if t is None else t.timing

    def authority(self, game: Game) -> Authority:
        t = self.tournament()
        return Authority(game.organiser_id) if t is None else t.authority(game.organiser_id)

    def begin(
        self, game: Game, now: dt.datetime, presence: Mapping[uuid.UUID, Presence] | None = None
    ) -> None:
        """A released game's turn has come: it starts, or ends at once (no ``game.started`` then) by
        forfeit if a player of it has withdrawn, or (``presence``, a `platform` tournament) is busy in
        another game; drawn if its tournament has closed already (:meth:`Game.begin`)."""
        t = self.tournament()
        forfeit = None if t is None else t.forfeit_of(game)
        if forfeit is None and presence:
            forfeit = absence_forfeit(presence.get(game.white), presence.get(game.black))
        game.begin(now, forfeit)

    def presence(self, players: Iterable[uuid.UUID], *, arena: bool = False) -> dict[uuid.UUID, Presence]:
        """The presence of a `platform` tournament's players as their games begin (RULES.md §2
        "Absence"): the game server's last report, and busy for those with a game running in another
        tournament or arena here. An arena's games and other rulesets: none (their absences are the
        arbiters' business)."""
        t = self.tournament()
        if arena or (t is not None and t.ruleset not in (None, Ruleset.PLATFORM)):
            return {}
        wanted = set(players)
        found = self.uow.presence.of(wanted)
        for player in self.uow.games.playing_elsewhere(self.tournament_id, wanted):
            found[player] = Presence.BUSY
        return found


def _play_on(uow: ClocksUnitOfWork, known: Known, match_id: str, now: dt.datetime) -> None:
    """A knockout match plays one game at a time: unless one is under way (running, or disputed and
    waiting for the arbiter), begin its first released game that is still waiting. One a withdrawn
    player would play is forfeited at once, and the next one's turn comes."""
    games = uow.games.in_match(known.tournament_id, match_id)
    if any(g.status in (GameStatus.RUNNING, GameStatus.DISPUTED) for g in games):
        return
    for waiting in games:
        if waiting.status is GameStatus.PENDING and waiting.released:
            known.begin(waiting, now)
            uow.games.save(waiting)
            if not waiting.finished:
                return


def _next_leg(uow: ClocksUnitOfWork, known: Known, ended: Game, now: dt.datetime) -> None:
    """A double round's leg 1 is over: its pairing's leg 2 begins now (``legs.py``), with the presence
    of its players as it is now — or ends at once (a forfeit; after the close, a draw)."""
    assert ended.next_leg is not None
    leg = uow.games.get(ended.next_leg, lock=True)
    if leg is None or not legs.turn_has_come(leg, ended):
        return
    known.begin(leg, now, known.presence((leg.white, leg.black), arena=leg.arena))
    _save(uow, leg, now, known)


def _save(uow: ClocksUnitOfWork, game: Game, now: dt.datetime, known: Known | None = None) -> None:
    """Save a game a report or the ticker changed; once it is over, a knockout match goes on with its
    next game, and a double round's leg 1 hands over to its leg 2."""
    uow.games.save(game)
    if game.finished and game.match_id is not None:
        _play_on(uow, known or Known(uow, game.tournament_id), game.match_id, now)
    elif game.over and game.next_leg is not None:
        _next_leg(uow, known or Known(uow, game.tournament_id), game, now)


class Handlers:
    """Built by bootstrap with the clock they need."""

    def __init__(self, clock: TimeSource) -> None:
        self.clock = clock

    def table(self) -> dict[type, Callable[[Any, ClocksUnitOfWork], Any]]:
        return {
            commands.MakeMove: self.make_move,
            commands.ReportPresence: self.report_presence,
            commands.TakeBoost: self.take_boost,
            commands.ReportResult: self.report_result,
            commands.SwapColours: self.swap_colours,
            commands.RecordAbsence: self.record_absence,
            commands.Penalise: self.penalise,
            commands.CheckFlags: self.check_flags,
        }

    def report_presence(self, cmd: commands.ReportPresence, uow: ClocksUnitOfWork) -> None:
        """The game server reports a player connected, disconnected or busy elsewhere: the next round's
        games are created (or forfeited) accordingly, and a player disconnected after their first move
        in a running game has 30 seconds to come back (the ticker ends the game otherwise)."""
        with uow:
            now = self.clock.now()
            uow.presence.report(cmd.player_id, cmd.status, now)
            for game in uow.games.running_of(cmd.player_id):
                if cmd.status is Presence.DISCONNECTED:
                    changed = game.disconnected(cmd.player_id, now)
                else:
                    changed = game.reconnected(cmd.player_id)
                if changed:
                    uow.games.save(game)
            uow.commit()

    def make_move(self, cmd: commands.MakeMove, uow: ClocksUnitOfWork) -> commands.Reported:
        """Press the mover's clock. Too late, the game ends on time instead: that is saved, and the
        answer says so (the caller refuses the move)."""
        return self._players_act(cmd.game_id, uow, lambda game, now: game.move(cmd.player_id, now, cmd.move))

    def take_boost(self, cmd: commands.TakeBoost, uow: ClocksUnitOfWork) -> commands.Reported:
        """The arena boost: a clock change with its reason (``boost.py``); too late, the game ends on
        time instead (saved; the answer says so)."""
        return self._players_act(cmd.game_id, uow, lambda game, now: game.take_boost(cmd.player_id, now))

    def _players_act(
        self,
        game_id: uuid.UUID,
        uow: ClocksUnitOfWork,
        act: Callable[[Game, dt.datetime], FlagFall | None],
    ) -> commands.Reported:
        with uow:
            game = _get(uow, game_id)
            now = self.clock.now()
            flag_fall = act(game, now)
            _save(uow, game, now)
            uow.commit()
            return commands.Reported(game, flag_fall)

    def report_result(self, cmd: commands.ReportResult, uow: ClocksUnitOfWork) -> commands.Reported:
        """A player of the game reports it as a player (their own loss; a claim the opponent confirms);
        its organiser, an arbiter in scope or the game server enters it. If its flag had fallen first,
        the game ends on time instead (saved, and the answer says so: the caller refuses the result).
        The tournament is read only for an arbiter, or a player claiming a win."""
        with uow:
            game = uow.games.get(cmd.game_id, lock=True)
            if game is None:
                _refuse_unknown(uow, cmd.game_id)
            assert game is not None
            actor = cmd.actor
            now = self.clock.now()
            known = Known(uow, game.tournament_id)
            if game.side_of(actor.id) is not None:
                flag_fall = game.claim(
                    actor.id, cmd.outcome, cmd.reason, now, players_run_games=known.players_run_games
                )
            else:
                role = deciding_role(
                    game,
                    actor.id,
                    service=actor.is_service,
                    arbiter_token=ARBITER_ROLE in actor.roles,
                    authority=lambda: known.authority(game),
                )
                flag_fall = game.report_result(
                    cmd.outcome, cmd.reason, now, decision=Decided(actor.id, role, now)
                )
            _save(uow, game, now, known)
            uow.commit()
            return commands.Reported(game, flag_fall)

    def swap_colours(self, cmd: commands.SwapColours, uow: ClocksUnitOfWork) -> commands.Reported:
        """The organiser or an arbiter in scope swaps the colours of a game no move was made in
        (``game.colours_swapped``). White's flag having fallen already, the game ends on time instead."""
        with uow:
            game = _get(uow, cmd.game_id)
            known = Known(uow, game.tournament_id)
            role = deciding_role(
                game,
                cmd.actor.id,
                service=cmd.actor.is_service,
                arbiter_token=ARBITER_ROLE in cmd.actor.roles,
                authority=lambda: known.authority(game),
                result=False,
            )
            now = self.clock.now()
            flag_fall = game.swap_colours(now, Decided(cmd.actor.id, role, now))
            _save(uow, game, now, known)
            uow.commit()
            return commands.Reported(game, flag_fall)

    def record_absence(self, cmd: commands.RecordAbsence, uow: ClocksUnitOfWork) -> commands.Reported:
        """The organiser or an arbiter in scope records a player's absence at the default time: the game
        ends by forfeit (``default_time``). Not the game server: an absence is seen at the board."""
        with uow:
            game = _get(uow, cmd.game_id)
            role = self._decider(uow, game, cmd.actor)
            now = self.clock.now()
            done = game.absence(
                cmd.player_id, now, Decided(cmd.actor.id, role, now), opponent_absent=cmd.opponent_absent
            )
            _save(uow, game, now)
            uow.commit()
            return commands.Reported(game, done)

    def penalise(self, cmd: commands.Penalise, uow: ClocksUnitOfWork) -> commands.Reported:
        """The organiser or an arbiter in scope penalises a player of the game (``game.penalised``; a
        loss ends the game). Displaced pieces count across the tournament: its row lock serialises a
        player's penalties in different games (taken before the game's, as a withdrawal takes them)."""
        with uow:
            seen = uow.games.get(cmd.game_id)  # unlocked: only to know its tournament, locked first
            if seen is None:
                raise errors.GameNotFound(f"no game {cmd.game_id}")
            uow.tournaments.lock(seen.tournament_id)
            game = _get(uow, cmd.game_id)
            role = self._decider(uow, game, cmd.actor)
            now = self.clock.now()
            elsewhere = uow.games.incidents_of(game.tournament_id, cmd.player_id, other_than=game.id)
            done = game.penalise(
                cmd.player_id,
                cmd.kind,
                now,
                Decided(cmd.actor.id, role, now, cmd.reason),
                displaced_elsewhere=displaced(elsewhere, cmd.player_id),
                white_ms=cmd.white_ms,
                black_ms=cmd.black_ms,
            )
            _save(uow, game, now)
            uow.commit()
            return commands.Reported(game, done)

    @staticmethod
    def _decider(uow: ClocksUnitOfWork, game: Game, actor: commands.Actor) -> Role:
        """The organiser or an arbiter in scope (not the game server, not a player of the game)."""
        known = Known(uow, game.tournament_id)
        return deciding_role(
            game,
            actor.id,
            service=actor.is_service,
            arbiter_token=ARBITER_ROLE in actor.roles,
            authority=lambda: known.authority(game),
            result=False,
        )

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
        match's games are played one after the other; a double round's leg 2 waits until its leg 1 ends.
        A game with a withdrawn player (or a `platform` player busy elsewhere) ends by forfeit where it
        would start. Games the announcement cancels (a match paired again with other players
        after a correction) are cancelled first (``game.cancelled``), the running one too. A round naming
        games a reset of its knockout removed (paired before the reset, heard after it) is settled: its
        games are not created again."""
        now = self.clock.now()
        for game_id in cmd.cancelled:
            old = uow.games.get(game_id, lock=True)
            if old is not None and old.cancel(now, MATCH_REPAIRED):
                uow.games.save(old)
        existing = uow.games.existing(g.game_id for g in cmd.games)
        known = Known(uow, cmd.tournament_id)
        timing = known.timing()
        tournament = known.tournament()
        if tournament is not None and any(tournament.resets.removed(g.game_id) for g in cmd.games):
            _settled("round.paired", f"round {cmd.round}", tournament)
            return
        ruleset = None if tournament is None else tournament.ruleset  # routes its result
        players = (p for g in cmd.games for p in (g.white, g.black))
        presence = known.presence(players, arena=cmd.arena) if cmd.released else {}
        created: list[Game] = []
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
                rated=paired.rated,
                server_clock=timing.server_clock,
                default_time=timing.default_time,
                variant=cmd.variant,
                opening=paired.opening,
                closes_at=timing.closes_at,
                arena=cmd.arena,
                ruleset=ruleset,
            )
            created.append(game)
        waiting = legs.link(created)  # a double round's leg 2 starts when its leg 1 ends
        by_id = {g.id: g for g in created}
        matches: list[str] = []
        for game in created:
            if game.match_id is not None:  # a match's games start one after the other
                matches.append(game.match_id)
            elif cmd.released and game.id not in waiting:
                known.begin(game, now, presence)  # stored already started: one insert, not two writes
                # ended at once (a forfeit): its leg 2's turn has come too
                while game.next_leg in by_id and legs.turn_has_come(nxt := by_id[game.next_leg], game):
                    known.begin(nxt, now, presence)
                    game = nxt
        for game in created:
            uow.games.add(game)
        if cmd.released:
            for match_id in dict.fromkeys(matches):
                _play_on(uow, known, match_id, now)

    def release_round(self, cmd: commands.ReleaseRound, uow: ClocksUnitOfWork) -> None:
        """A knockout round is public: its games are released, and each match starts its first game.
        A round of a knockout's start that a reset undid (its number below the resets heard) is settled:
        its games are gone, and the round of the same number a new start pairs is not released by it. A
        round of a start whose reset is not heard yet waits for it."""
        tournament = uow.tournaments.get(cmd.tournament_id)
        if cmd.restarts is not None:
            resets = Resets() if tournament is None else tournament.resets
            if tournament is not None and resets.undone(cmd.restarts):
                _settled("round.published", f"round {cmd.round}, start {cmd.restarts}", tournament)
                return
            if resets.ahead(cmd.restarts):
                raise NotReady(f"round {cmd.round} of {cmd.tournament_id}: its start's reset is on its way")
        now = self.clock.now()
        games = uow.games.of_round(cmd.tournament_id, cmd.round)
        if not games:  # its pairing is still on its way
            raise NotReady(f"round {cmd.round} of {cmd.tournament_id} has no games here yet")
        for game in games:
            if game.release():
                uow.games.save(game)
        known = Known(uow, cmd.tournament_id, tournament)
        for match_id in dict.fromkeys(g.match_id for g in games if g.match_id is not None):
            _play_on(uow, known, match_id, now)

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

    def record_tournament(self, cmd: commands.RecordTournament, uow: ClocksUnitOfWork) -> None:
        """``tournament.started``: its organiser and ruleset (who may decide, and what players may claim),
        and who keeps the time. Its games are created with that timing; games created before this news
        arrived (``round.paired`` travels on another queue) take it now: over the board their server
        clocks stop, with server clocks the default time applies."""
        tournament = uow.tournaments.lock(cmd.tournament_id)
        if not tournament.start(cmd.organiser_id, cmd.ruleset, cmd.timing):
            return
        uow.tournaments.save(tournament)
        timing = tournament.timing
        if timing == ONLINE:
            return
        now = self.clock.now()
        for game in uow.games.unfinished_in(cmd.tournament_id):
            kept = game.keep_time(timing.server_clock, timing.default_time, now)
            if game.closes(timing.closes_at) or kept:
                uow.games.save(game)

    def appoint_arbiter(self, cmd: commands.AppointArbiter, uow: ClocksUnitOfWork) -> None:
        """Kept whenever it arrives: before ``tournament.started`` or any game, too."""
        tournament = uow.tournaments.lock(cmd.tournament_id)
        if tournament.appoint(cmd.arbiter_id, cmd.games, cmd.at):
            uow.tournaments.save(tournament)

    def revoke_arbiter(self, cmd: commands.RevokeArbiter, uow: ClocksUnitOfWork) -> None:
        tournament = uow.tournaments.lock(cmd.tournament_id)
        if tournament.revoke(cmd.arbiter_id, cmd.at):
            uow.tournaments.save(tournament)

    def forfeit_withdrawn(self, cmd: commands.ForfeitWithdrawn, uow: ClocksUnitOfWork) -> None:
        """The player's open games end by forfeit now (the opponent wins; both withdrawn: a double
        forfeit), for the reason ``withdrawal`` or ``exclusion`` and with the withdrawal's decision; a
        knockout match then goes on with its next game, which is forfeited too — the forfeit chain of
        RULES.md §4, as far as the games already paired go. Games paired later are forfeited when they
        would start; an unpublished round's games when it is published."""
        now = self.clock.now()
        tournament = uow.tournaments.lock(cmd.tournament_id)
        withdrawal = Withdrawal(cmd.player_id, cmd.excluded, cmd.reason, cmd.decision)
        if not tournament.withdraw(withdrawal):
            return  # known already: their games were forfeited then
        uow.tournaments.save(tournament)
        known = Known(uow, cmd.tournament_id, tournament)
        matches: list[str] = []
        for game in uow.games.open_games_of(cmd.tournament_id, cmd.player_id):
            forfeit = tournament.forfeit_of(game, cause=cmd.player_id)
            if forfeit is None:
                continue
            game.forfeit(forfeit, now)
            uow.games.save(game)
            if game.match_id is not None:
                matches.append(game.match_id)
        for match_id in dict.fromkeys(matches):
            _play_on(uow, known, match_id, now)

    def decide_by_lot(self, cmd: commands.DecideByLot | None, uow: ClocksUnitOfWork) -> None:
        """An overdue group-playoff game decided by the organiser's recorded lot (pairing drew it and
        announced the result): the game ends with it, reason ``lot``, decided by the organiser. A game
        that ended meanwhile (on time, by a result) keeps its result. Other announcements: nothing."""
        if cmd is None:
            return
        game = uow.games.get(cmd.game_id, lock=True)
        if game is None:
            raise NotReady(f"game {cmd.game_id} of the lot is not created here yet")
        if game.finished:
            log.warning("game %s ended before its lot (seed %s) came: its result stands", game.id, cmd.seed)
            return
        now = self.clock.now()
        game.report_result(cmd.outcome, LOT, now, decision=cmd.decision)
        _save(uow, game, now)

    def correct_result(self, cmd: commands.CorrectResult, uow: ClocksUnitOfWork) -> None:
        """Pairing corrected a finished game: its outcome changes, the old one is kept with the decision.
        A game unknown here, or not finished, is a mistake upstream: refused (retried, then dead-lettered)."""
        game = _get(uow, cmd.game_id)
        if game.outcome is not cmd.old_outcome:
            log.warning(
                "game %s: corrected from %s, but it stands at %s here", game.id, cmd.old_outcome, game.outcome
            )
        if game.correct(cmd.outcome, cmd.decision):
            uow.games.save(game)

    def reset_tournament(self, cmd: commands.ResetTournament, uow: ClocksUnitOfWork) -> None:
        """A knockout is back to its draft: round 1 never happened. Its games (none has a result, pairing
        made sure) are deleted with their clocks' history and leave the deadline store; round 1 paired
        again after a new start has new game ids. What is known of the tournament (organiser, arbiters,
        withdrawals) stays, with the reset: when, and the games it removed (those pairing names and those
        deleted here), so that news of them heard later is settled."""
        removed = set(cmd.games)
        now = self.clock.now()
        for game in uow.games.of_tournament(cmd.tournament_id):
            removed.add(game.id)
            game.undo(now)  # a game that started: game.cancelled, so that its players' in-game mark goes
            uow.games.remove(game)
            uow.forget(game.id)
        if cmd.at is None:
            return  # a producer that did not say when: nothing to tell later news by
        tournament = uow.tournaments.lock(cmd.tournament_id)
        if tournament.reset(cmd.at, removed, cmd.restarts):
            uow.tournaments.save(tournament)

    def from_pairing(
        self, cmd: commands.CreateGames | commands.ResetTournament, uow: ClocksUnitOfWork
    ) -> None:
        """``round.paired`` and ``tournament.reset`` share a queue, so that a reset is handled before the
        new round 1 it makes room for (pairing publishes both, in that order); an arena's
        ``arena.paired`` goes the same way (its games are created and started at once)."""
        if isinstance(cmd, commands.ResetTournament):
            self.reset_tournament(cmd, uow)
        else:
            self.create_games(cmd, uow)

    def from_arbiters(
        self, cmd: commands.AppointArbiter | commands.RevokeArbiter, uow: ClocksUnitOfWork
    ) -> None:
        """``arbiter.appointed`` and ``arbiter.revoked`` share a queue: in the order the organiser decided."""
        if isinstance(cmd, commands.RevokeArbiter):
            self.revoke_arbiter(cmd, uow)
        else:
            self.appoint_arbiter(cmd, uow)


def _settled(what: str, about: str, tournament: Tournament) -> None:
    """Log news of a knockout's start that a reset undid: acknowledged, nothing to do."""
    log.info(
        "%s (%s) of tournament %s: about the start its reset to the draft undid (at %s); settled",
        what,
        about,
        tournament.id,
        tournament.resets.last_at,
    )
