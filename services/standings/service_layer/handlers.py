"""The projection: each consumed event, translated into a command (``adapters/wire.py``), is applied
to its tournament in one unit of work, under the tournament's row lock (so one tournament's events
never interleave, while different tournaments proceed in parallel). Each handler loads the
tournament, calls the domain and saves it; the tournament records ``standings.updated`` after each
change of its table and ``standings.final`` at the end, and the unit of work publishes them.

An event about a tournament, round, match or game this service has not recorded yet, a completion
that overtook the last results, a correction that overtook the result it corrects, a result naming
colours whose swap is on its way, or anything about a knockout reset to its draft before its new
start, is not ready: the broker delivers it again later, behind the others (the queues of different
events give no order between them). News of what a reset removed — a game of the undone start, its
round paired or published, a withdrawal from it — is settled: acknowledged and logged, since nothing
will ever come back for it (issue 22). A second result for a game changes nothing (the first one
stands; corrections are their own event), and a redelivered event is stopped by the inbox before it
gets here.
"""

from __future__ import annotations

import logging
import uuid

from services.standings.domain import errors
from services.standings.domain.arena_standings import ArenaStandings
from services.standings.domain.group_playoff_page import GroupPlayoffPage
from services.standings.domain.tournament import Tournament
from services.standings.service_layer.commands import (
    AddPlayer,
    AnnouncementNews,
    CancelGame,
    CompleteTournament,
    CorrectResult,
    ExcuseAbsence,
    GroupPlayoffPageFact,
    NextRoundNews,
    PublishRound,
    RecordAnnouncement,
    RecordArena,
    RecordArenaEntry,
    RecordArenaGame,
    RecordArenaPairing,
    RecordByeRequest,
    RecordDecision,
    RecordEntry,
    RecordLeaving,
    RecordPairing,
    RecordPenalty,
    RecordResult,
    RecordStart,
    RecordTournament,
    RecordWithdrawal,
    ResetTournament,
    StartGroupPlayoffPage,
    SwapColours,
    TakeBackBye,
)
from services.standings.service_layer.ports import StandingsUnitOfWork
from shared.messaging.port import NotReady
from shared.timesource import TimeSource


class _NotReady:
    """``with _not_ready:`` what the event names is not recorded yet: its cause is still on its way."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: object) -> None:
        if isinstance(exc, errors.NotFound | errors.Outstanding):
            raise NotReady(str(exc)) from None


_not_ready = _NotReady()
log = logging.getLogger(__name__)


def _held(uow: StandingsUnitOfWork, tournament_id: uuid.UUID) -> Tournament:
    """The tournament under its row lock; not ready while it is unknown."""
    t = uow.tournaments.get(tournament_id, lock=True)
    if t is None:
        raise NotReady(f"no tournament {tournament_id} (tournament.started not seen yet)")
    return t


def _started(t: Tournament) -> Tournament:
    """Not ready while it is reset to its draft: what the event is about belongs to the next start."""
    if t.info.draft:
        raise NotReady(f"tournament {t.id} is back in its draft (its new tournament.started not seen yet)")
    return t


def _locked(uow: StandingsUnitOfWork, tournament_id: uuid.UUID, *, draft: bool = False) -> Tournament:
    """The tournament under its row lock; not ready while it is unknown or (unless ``draft``) reset
    to its draft."""
    t = _held(uow, tournament_id)
    return t if draft else _started(t)


def _settled(t: Tournament, what: str) -> None:
    """Log news of a start its knockout's reset undid: acknowledged, nothing to do."""
    log.info(
        "%s of tournament %s: about the start its reset to the draft undid (at %s); settled",
        what,
        t.id,
        t.resets.last_at,
    )


def _removed_game(t: Tournament, game_id: uuid.UUID, what: str) -> bool:
    """True, logged, when a reset removed the game."""
    if not t.removed(game_id):
        return False
    _settled(t, f"{what} for game {game_id}")
    return True


def _undone(t: Tournament, start: int | None, what: str) -> bool:
    """True, logged, when the event is about start number ``start``, which a reset undid; not ready when
    it is about a start whose reset is not recorded yet. Unnumbered (None): neither."""
    if start is None:
        return False
    if t.ahead(start):
        raise NotReady(f"{what} of tournament {t.id}: the reset before its start {start} is on its way")
    if not t.undone(start):
        return False
    _settled(t, f"{what} (start {start})")
    return True


class Handlers:
    """Built by bootstrap with the clock they need."""

    def __init__(self, clock: TimeSource) -> None:
        self.clock = clock

    # -- tournaments announced before their start (the index) ------------------------------------------
    def record_announcement(self, cmd: AnnouncementNews | None, uow: StandingsUnitOfWork) -> None:
        """The announcements queue, in the order registration published it: a tournament scheduled,
        its entries, its start or cancellation. News of a tournament never announced (a knockout draft,
        a ``fide-rapid`` or ``group-playoff`` event: they have no start time) changes nothing."""
        if cmd is None:
            return
        if isinstance(cmd, RecordAnnouncement):
            if uow.announced.get(cmd.tournament.id) is None:
                uow.announced.add(cmd.tournament)
            return
        found = uow.announced.get(cmd.tournament_id, lock=True)
        if found is None:
            return
        if isinstance(cmd, RecordEntry):
            found.enter(cmd.entrant)
        elif isinstance(cmd, RecordLeaving):
            found.leave(cmd.player_id)
        elif isinstance(cmd, RecordStart):
            found.start()
        else:
            found.cancel(cmd.detail)
        uow.announced.save(found)

    # -- arenas (docs/arena.md) --------------------------------------------------------------------
    def record_arena(
        self, cmd: RecordArena | RecordArenaEntry | RecordArenaPairing | None, uow: StandingsUnitOfWork
    ) -> None:
        """The arena queue: its start, players joining later, games paired (in the order registration
        and pairing published them). Other tournaments' starts and entries are not the arena's."""
        if isinstance(cmd, RecordArena):
            if uow.arenas.get(cmd.arena_id) is None:
                arena = ArenaStandings(cmd.arena_id, cmd.name, cmd.started_at, cmd.ends_at)
                for p in cmd.players:
                    arena.enter(p)
                uow.arenas.add(arena)
            return
        if cmd is None:
            return
        found = uow.arenas.get(cmd.arena_id, lock=True)
        if found is None:
            if isinstance(cmd, RecordArenaPairing):
                raise NotReady(f"arena {cmd.arena_id} has not started here yet")
            return  # an entry before the start (the roster has it), or not an arena's
        if isinstance(cmd, RecordArenaEntry):
            found.enter(cmd.player)
        else:
            found.paired(cmd.games)
        uow.arenas.save(found)

    def record_arena_game(self, cmd: RecordArenaGame, uow: StandingsUnitOfWork) -> None:
        """An arena's game ended: the table updates (the game's players' points, streaks, boosts)."""
        arena = uow.arenas.get(cmd.arena_id, lock=True)
        if arena is None:
            raise NotReady(f"arena {cmd.arena_id} has not started here yet")
        if arena.record_game(cmd.game):
            uow.arenas.save(arena)

    # -- a group-playoff event's page (docs/group-playoff.md) -------------------------------------------
    def record_group_playoff(
        self, cmd: StartGroupPlayoffPage | GroupPlayoffPageFact | None, uow: StandingsUnitOfWork
    ) -> None:
        """The page's queue, in the order the events were published: the start (a group-playoff
        event's), its announcements and games, and the results, withdrawals and completions of every
        tournament — kept for the events with a page, the others' ignored. An announcement or a
        pairing before the start is not ready (the start is on its way)."""
        if cmd is None:
            return
        if isinstance(cmd, StartGroupPlayoffPage):
            if uow.group_playoffs.get(cmd.tournament_id) is None:
                uow.group_playoffs.add(
                    GroupPlayoffPage(cmd.tournament_id, cmd.name, cmd.started_at, cmd.players, cmd.lot_seed)
                )
            return
        page = uow.group_playoffs.get(cmd.tournament_id, lock=True)
        if page is None:
            if cmd.announcement is not None or cmd.games:
                raise NotReady(f"group-playoff event {cmd.tournament_id} has not started here yet")
            return  # another tournament's result, withdrawal or end
        changed = False
        if cmd.announcement is not None:
            changed = page.announce(cmd.announcement)
        for match in cmd.matches:
            page.add_match(match)
        changed = page.pair(cmd.games) or changed or bool(cmd.matches)
        if cmd.result is not None:
            game_id, result = cmd.result
            if not page.has_game(game_id):
                raise NotReady(f"game {game_id} of group-playoff event {page.id} is not paired here yet")
            changed = page.record_result(game_id, result) or changed
        if cmd.withdrawal is not None:
            changed = page.withdraw(*cmd.withdrawal) or changed
        if cmd.completed is not None:
            changed = page.complete(*cmd.completed) or changed
        if changed:
            uow.group_playoffs.save(page)

    def record_tournament(self, cmd: RecordTournament | RecordArena, uow: StandingsUnitOfWork) -> None:
        """A start: a new tournament, or one reset to its draft started again. The same start twice
        changes nothing; another start of a tournament not (yet) reset waits for its reset. An arena's
        start is the arena queue's (:meth:`record_arena`)."""
        if isinstance(cmd, RecordArena):
            return
        t = uow.tournaments.get(cmd.info.id, lock=True)
        if t is None:
            uow.tournaments.add(Tournament(cmd.info, cmd.roster))
        elif t.info.draft:
            t.restart(cmd.info, cmd.roster)
            uow.tournaments.save(t)
        elif t.info.started_at != cmd.info.started_at:
            raise NotReady(f"tournament {cmd.info.id} started again: its tournament.reset is on its way")

    def reset_tournament(self, cmd: ResetTournament, uow: StandingsUnitOfWork) -> None:
        """A knockout back to its draft: its bracket is forgotten until its new start, what the reset
        removed kept. A reset of a start not recorded yet waits for it."""
        t = _locked(uow, cmd.tournament_id, draft=True)
        with _not_ready:
            t.reset(cmd.at, cmd.games, cmd.restarts)
        uow.tournaments.save(t)

    def record_withdrawal(self, cmd: RecordWithdrawal, uow: StandingsUnitOfWork) -> None:
        """A player withdrawn or excluded: marked everywhere (group-playoff: matches scored 0:2). An
        arena's player withdrawn is out of its pool (pairing's part); their games stand in the table."""
        if uow.arenas.get(cmd.tournament_id) is not None:
            return
        t = _held(uow, cmd.tournament_id)
        if t.undone_withdrawal(cmd.player_id, cmd.at):
            _settled(t, f"player.withdrawn of {cmd.player_id}")
            return
        _started(t)
        t.withdraw(
            cmd.player_id,
            excluded=cmd.excluded,
            reason=cmd.reason,
            at=cmd.at or self.clock.now(),
            role=cmd.role,
            by=cmd.by,
        )
        uow.tournaments.save(t)

    def add_player(self, cmd: AddPlayer, uow: StandingsUnitOfWork) -> None:
        """A late entry of a started `fide-rapid` event: the next seed, its missed rounds as byes. A
        join before the start changes nothing here (the roster comes with ``tournament.started``)."""
        if not cmd.late:
            return
        t = _locked(uow, cmd.tournament_id)
        t.add_player(
            cmd.player_id, name=cmd.name, rating=cmd.rating, profile=cmd.profile, from_round=cmd.from_round
        )
        uow.tournaments.save(t)

    def record_next_round(self, cmd: NextRoundNews, uow: StandingsUnitOfWork) -> None:
        """Who the round to come leaves out: a zero-point bye asked for it or taken back, an absence
        excused (one queue, so a bye and its taking back come in the order pairing published them).
        Kept for the TRF written before that round's pairing; the table does not change."""
        t = _locked(uow, cmd.tournament_id)
        with _not_ready:  # a late entry's player.joined is on its way
            if isinstance(cmd, RecordByeRequest):
                t.request_bye(cmd.player_id, cmd.round)
            elif isinstance(cmd, TakeBackBye):
                t.take_back_bye(cmd.player_id, cmd.round)
            else:
                assert isinstance(cmd, ExcuseAbsence)
                t.excuse_absence(cmd.player_id, cmd.round)
        uow.tournaments.save(t)

    def record_penalty(self, cmd: RecordPenalty, uow: StandingsUnitOfWork) -> None:
        """A penalty given in a game: kept with the game, shown on its round's page."""
        t = _held(uow, cmd.tournament_id)
        if _removed_game(t, cmd.game_id, "game.penalised"):
            return
        _started(t)
        with _not_ready:  # the game's pairing is on its way
            t.penalise(
                cmd.game_id,
                round=cmd.round,
                player_id=cmd.player_id,
                kind=cmd.kind,
                occurrence=cmd.occurrence,
                consequence=cmd.consequence,
                reason=cmd.reason,
                at=cmd.at,
                role=cmd.role,
                by=cmd.by,
            )
        uow.tournaments.save(t)

    def record_pairing(self, cmd: RecordPairing, uow: StandingsUnitOfWork) -> None:
        """A round paired (again). A knockout's round naming games its reset removed is the undone
        start's, heard after the reset: settled."""
        t = _held(uow, cmd.tournament_id)
        removed = next((g.game_id for g in cmd.games if t.removed(g.game_id)), None)
        if removed is not None:
            _settled(t, f"round.paired (round {cmd.round}, game {removed})")
            return
        _started(t)
        with _not_ready:  # a fide-rapid late entry it names is on its way
            t.pair_round(
                cmd.round,
                system=cmd.system,
                total_rounds=cmd.total_rounds,
                games=cmd.games,
                byes=cmd.byes,
                matches=cmd.matches,
                published=cmd.published,
                at=self.clock.now(),
            )
        uow.tournaments.save(t)

    def record_result(self, cmd: RecordResult | RecordArenaGame, uow: StandingsUnitOfWork) -> None:
        if isinstance(cmd, RecordArenaGame):
            self.record_arena_game(cmd, uow)
            return
        t = _held(uow, cmd.tournament_id)
        if _removed_game(t, cmd.game_id, "game.finished"):
            return
        _started(t)
        with _not_ready:  # its pairing is still on its way
            t.record_result(
                cmd.game_id,
                round=cmd.round,
                white=cmd.white,
                black=cmd.black,
                outcome=cmd.outcome,
                reason=cmd.reason,
                finished_at=cmd.finished_at,
                rated=cmd.rated,
            )
        uow.tournaments.save(t)

    def correct_result(self, cmd: CorrectResult, uow: StandingsUnitOfWork) -> None:
        """A corrected result replaces the old one; the table and the pages follow."""
        t = _held(uow, cmd.tournament_id)
        if _removed_game(t, cmd.game_id, "game.result_corrected"):
            return
        _started(t)
        with _not_ready:  # the result it corrects (or an earlier correction) is on its way
            t.correct_result(
                cmd.game_id,
                round=cmd.round,
                white=cmd.white,
                black=cmd.black,
                old_outcome=cmd.old_outcome,
                outcome=cmd.outcome,
                reason=cmd.reason,
                at=cmd.at,
                role=cmd.role,
                by=cmd.by,
            )
        uow.tournaments.save(t)

    def swap_colours(self, cmd: SwapColours, uow: StandingsUnitOfWork) -> None:
        """An open game's colours swapped (a knockout, before its result). A game its knockout's reset
        removed (swapped, then reset at once) is settled."""
        t = _held(uow, cmd.tournament_id)
        if _removed_game(t, cmd.game_id, "game.colours_swapped"):
            return
        _started(t)
        with _not_ready:
            t.swap_colours(cmd.game_id, round=cmd.round, white=cmd.white, black=cmd.black)
        uow.tournaments.save(t)

    def publish_round(self, cmd: PublishRound, uow: StandingsUnitOfWork) -> None:
        """A knockout round is public: its pairings and results are shown from now on. A round published
        by a start its knockout's reset undid is settled (the new start's round of the same number is not
        made public by it); one of a start whose reset is not recorded yet waits for it."""
        t = _held(uow, cmd.tournament_id)
        if _undone(t, cmd.restarts, f"round.published (round {cmd.round})"):
            return
        _started(t)
        with _not_ready:
            t.publish(cmd.round)
        uow.tournaments.save(t)

    def record_decision(self, cmd: RecordDecision, uow: StandingsUnitOfWork) -> None:
        """Who advances from a knockout match, and how it was decided."""
        t = _locked(uow, cmd.tournament_id)
        with _not_ready:
            t.decide(
                cmd.match_id,
                cmd.winner,
                cmd.how,
                cmd.decided_at,
                players=cmd.players or None,
                revision=cmd.revision,
            )
        uow.tournaments.save(t)

    def cancel_game(self, cmd: CancelGame, uow: StandingsUnitOfWork) -> None:
        """A game its knockout match no longer needed: shown as cancelled, counted nowhere."""
        t = _held(uow, cmd.tournament_id)
        if _removed_game(t, cmd.game_id, "game.cancelled"):
            return
        _started(t)
        with _not_ready:
            t.cancel(cmd.game_id, cmd.cancelled_at)
        uow.tournaments.save(t)

    def complete_tournament(self, cmd: CompleteTournament, uow: StandingsUnitOfWork) -> None:
        arena = uow.arenas.get(cmd.tournament_id, lock=True)
        if arena is not None:  # an arena: its final ranking is frozen and announced
            if arena.complete(cmd.completed_at):
                uow.arenas.save(arena)
            return
        t = _locked(uow, cmd.tournament_id)
        with _not_ready:  # the last results (a knockout's cancellations) are on their way
            t.complete(cmd.completed_at, cmd.placing)
        uow.tournaments.save(t)
