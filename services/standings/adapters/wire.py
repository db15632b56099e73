"""The standings service's side of the wire, in one place.

- **Outbound**: the domain events a tournament records that go on the bus (``StandingsUpdated``,
  ``StandingsFinal``) as the versioned ``shared.events`` models; the unit of work uses :data:`wire`.
- **Inbound**: each consumed event as the command its handler takes (:func:`translate`): the roster,
  the time control, a knockout's format settings, a round's games, byes and matches, the placing, a
  correction, a withdrawal, a colour swap, a reset (each with the decision it carries); `fide-rapid`'s
  settings and player profiles, a late entry, a penalty.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from services.standings.domain import events as domain
from services.standings.domain.announced import AnnouncedTournament, Entrant
from services.standings.domain.arena_standings import ArenaPlayer, RunningGame
from services.standings.domain.bracket import KnockoutFormat
from services.standings.domain.group_playoff_page import (
    Announcement,
    GameFacts,
    GameResult,
    MatchFacts,
    PagePlayer,
    PageWithdrawal,
)
from services.standings.domain.pairings import AnnouncedBye, AnnouncedGame, AnnouncedMatch, AnnouncedPlace
from services.standings.domain.rounds import Competitor, Profile
from services.standings.domain.snapshot import SnapshotRow
from services.standings.domain.tournament_info import FideInfo, TournamentInfo
from services.standings.service_layer import commands
from shared import events
from shared.arena_scoring import FinishedArenaGame
from shared.group_playoff import MatchKind
from shared.time_control import RateOfPlay
from shared.vocabulary import ByeKind, Ruleset, System
from shared.wire import WireMap

__all__ = ["announcement", "arena", "group_playoff", "translate", "wire"]

# a consumed batch of results publishes one table per tournament: the last one
wire = WireMap(superseded=(events.StandingsUpdated.TYPE,))


def _row(row: SnapshotRow) -> events.StandingRow:
    return events.StandingRow(
        rank=row.rank,
        player_id=row.player_id,
        seed=row.seed,
        name=row.name,
        points=row.points,
        tiebreaks=row.tiebreaks,
    )


@wire.maps(domain.StandingsUpdated)
def _updated(e: domain.StandingsUpdated) -> events.Event:
    return events.StandingsUpdated(
        tournament_id=e.tournament_id,
        after_round=e.after_round,
        games_counted=e.games_counted,
        rows=[_row(r) for r in e.rows],
    )


@wire.maps(domain.StandingsFinal)
def _final(e: domain.StandingsFinal) -> events.Event:
    return events.StandingsFinal(tournament_id=e.tournament_id, rows=[_row(r) for r in e.rows])


# -- inbound ------------------------------------------------------------------------------------------


def time_control(tc: events.TimeControl) -> RateOfPlay:
    return RateOfPlay(tc.base_seconds, tc.increment_seconds, tc.days_per_move)


def knockout_format(settings: events.TournamentSettings) -> KnockoutFormat | None:
    ko = settings.knockout
    if ko is None:
        return None
    plan = ko.tiebreak_plan
    return KnockoutFormat(
        format=ko.format,
        games_per_match=ko.games_per_match,
        seeding=ko.seeding,
        draw_seed=ko.draw_seed,
        third_place=ko.third_place,
        second_final=ko.second_final,
        stages=tuple((s.games, time_control(s.time_control)) for s in plan.stages),
        sudden_death=time_control(plan.sudden_death),
    )


def fide_info(settings: events.TournamentSettings) -> FideInfo | None:
    f = settings.fide
    if f is None:
        return None
    return FideInfo(
        place=f.place,
        start_date=f.start_date,
        end_date=f.end_date,
        rounds=f.rounds,
        acceleration=f.acceleration,
        clocks=f.clocks,
        late_entry_bye=ByeKind.HALF_POINT if f.late_entry_bye == "half" else ByeKind.ZERO_POINT,
        system=System(f.system),
        federation=f.federation or "",
        chief_arbiter=f.chief_arbiter,
        deputy_arbiters=tuple(f.deputy_arbiters),
    )


def profile(p: events.PlayerProfile | None) -> Profile | None:
    """The wire's profile as the domain's (the same fields)."""
    return None if p is None else Profile(**p.model_dump())


def _started(e: events.TournamentStarted) -> commands.RecordTournament | commands.RecordArena:
    settings = e.settings
    if settings.arena is not None:
        return commands.RecordArena(
            e.tournament_id,
            e.name,
            e.started_at,
            e.started_at + dt.timedelta(minutes=settings.arena.duration_minutes),
            tuple(ArenaPlayer(r.player_id, r.name, r.rating) for r in e.roster),
        )
    return commands.RecordTournament(
        TournamentInfo(
            id=e.tournament_id,
            name=e.name,
            ruleset=settings.ruleset,
            started_at=e.started_at,
            time_control=time_control(settings.time_control),
            variant=settings.variant,
            double_rounds=settings.double_rounds,
            rated=settings.rated,
            opening=settings.opening,
            knockout=knockout_format(settings),
            fide=fide_info(settings),
        ),
        tuple(Competitor(r.seed, r.player_id, r.name, r.rating, profile(r.profile)) for r in e.roster),
    )


def _joined(e: events.PlayerJoined) -> commands.AddPlayer:
    return commands.AddPlayer(
        e.tournament_id, e.player_id, e.name, e.rating, profile(e.profile), e.late, e.from_round
    )


def _penalised(e: events.GamePenalised) -> commands.RecordPenalty:
    d = e.decision
    return commands.RecordPenalty(
        e.tournament_id,
        e.game_id,
        e.round,
        e.player_id,
        e.kind,
        e.occurrence,
        e.consequence,
        d.reason,
        d.role,
        d.by,
        d.at,
    )


def _paired(e: events.RoundPaired) -> commands.RecordPairing:
    return commands.RecordPairing(
        tournament_id=e.tournament_id,
        round=e.round,
        system=e.system,
        total_rounds=e.total_rounds,
        games=tuple(
            AnnouncedGame(
                g.game_id,
                g.board,
                g.white,
                g.black,
                g.leg,
                g.match_id,
                g.number,
                g.label,
                g.rated,
                None if g.opening is None else g.opening.label,
            )
            for g in e.games
        ),
        byes=tuple(AnnouncedBye(b.player_id, b.kind) for b in e.byes),
        matches=tuple(
            AnnouncedMatch(
                m.match_id,
                m.section,
                m.section_round,
                m.number,
                m.board,
                (m.players[0], m.players[1]),
                m.first_white,
            )
            for m in e.matches
        ),
        published=e.published,
    )


def _finished(e: events.GameFinished) -> commands.RecordResult | commands.RecordArenaGame:
    if e.boost is not None:  # an arena's game
        game = FinishedArenaGame(
            e.game_id, e.white, e.black, e.outcome, e.finished_at, e.boost.white, e.boost.black
        )
        return commands.RecordArenaGame(e.tournament_id, game)
    return commands.RecordResult(
        e.tournament_id, e.game_id, e.round, e.white, e.black, e.outcome, e.reason, e.finished_at, e.rated
    )


def _corrected(e: events.GameResultCorrected) -> commands.CorrectResult:
    d = e.decision
    return commands.CorrectResult(
        e.tournament_id,
        e.game_id,
        e.round,
        e.white,
        e.black,
        e.old_outcome,
        e.outcome,
        d.reason,
        d.role,
        d.by,
        d.at,
    )


def _swapped(e: events.GameColoursSwapped) -> commands.SwapColours:
    return commands.SwapColours(e.tournament_id, e.game_id, e.round, e.white, e.black)


def _withdrawn(e: events.PlayerWithdrawn) -> commands.RecordWithdrawal:
    d = e.decision
    return commands.RecordWithdrawal(
        e.tournament_id,
        e.player_id,
        e.excluded,
        e.reason or (d.reason if d else None),
        d.role if d else None,
        d.by if d else None,
        d.at if d else None,
    )


def _reset(e: events.TournamentReset) -> commands.ResetTournament:
    return commands.ResetTournament(e.tournament_id, e.decision.at, tuple(e.games), e.restarts)


def _published(e: events.RoundPublished) -> commands.PublishRound:
    return commands.PublishRound(e.tournament_id, e.round, e.published_at, e.restarts)


def _decided(e: events.MatchDecided) -> commands.RecordDecision:
    return commands.RecordDecision(
        e.tournament_id, e.match_id, e.winner, e.how, e.decided_at, tuple(e.players), e.revision
    )


def _cancelled(e: events.GameCancelledV1) -> commands.CancelGame:
    """Either version: the standings know the game's players from its pairing."""
    return commands.CancelGame(e.tournament_id, e.game_id, e.cancelled_at)


def _completed(e: events.TournamentCompleted) -> commands.CompleteTournament:
    placing = None
    if e.placing is not None:
        placing = tuple(
            AnnouncedPlace(p.player_id, p.seed, p.rank, (p.places[0], p.places[1]), p.matches_won)
            for p in e.placing
        )
    return commands.CompleteTournament(e.tournament_id, e.completed_at, placing)


def _bye_requested(e: events.ByeRequested) -> commands.RecordByeRequest:
    return commands.RecordByeRequest(e.tournament_id, e.player_id, e.round)


def _bye_taken_back(e: events.ByeTakenBack) -> commands.TakeBackBye:
    return commands.TakeBackBye(e.tournament_id, e.player_id, e.round)


def _absence_excused(e: events.AbsenceExcused) -> commands.ExcuseAbsence:
    return commands.ExcuseAbsence(e.tournament_id, e.player_id, e.round)


_INBOUND: dict[type[events.Event], Callable[[Any], object]] = {
    events.TournamentStarted: _started,
    events.RoundPaired: _paired,
    events.GameFinished: _finished,
    events.GameResultCorrected: _corrected,
    events.GameColoursSwapped: _swapped,
    events.PlayerWithdrawn: _withdrawn,
    events.TournamentReset: _reset,
    events.RoundPublished: _published,
    events.MatchDecided: _decided,
    events.GameCancelled: _cancelled,
    events.GameCancelledV1: _cancelled,
    events.TournamentCompleted: _completed,
    events.PlayerJoined: _joined,
    events.GamePenalised: _penalised,
    events.ByeRequested: _bye_requested,
    events.ByeTakenBack: _bye_taken_back,
    events.AbsenceExcused: _absence_excused,
}


def arena(event: events.Event) -> object:
    """The arena queue: ``tournament.started`` (an arena's, else None), ``player.joined``,
    ``arena.paired``."""
    if isinstance(event, events.TournamentStarted):
        started = _started(event)
        return started if isinstance(started, commands.RecordArena) else None
    if isinstance(event, events.PlayerJoined):
        return commands.RecordArenaEntry(
            event.tournament_id, ArenaPlayer(event.player_id, event.name, event.rating)
        )
    paired = event
    assert isinstance(paired, events.ArenaPaired)
    return commands.RecordArenaPairing(
        paired.tournament_id,
        tuple(RunningGame(g.game_id, g.white, g.black, paired.paired_at) for g in paired.games),
    )


def announcement(event: events.Event) -> commands.AnnouncementNews | None:
    """The announcements queue: ``tournament.scheduled``, the entries before the start
    (``player.joined`` not ``late``, ``player.left``), ``tournament.started``, ``tournament.cancelled``."""
    if isinstance(event, events.TournamentScheduled):
        s = event.settings
        return commands.RecordAnnouncement(
            AnnouncedTournament(
                id=event.tournament_id,
                name=event.name,
                starts_at=event.starts_at,
                ruleset=s.ruleset,
                variant=s.variant,
                time_control=time_control(s.time_control),
                rated=s.rated,
                seats=event.seats,
                arena=s.arena is not None,
            )
        )
    if isinstance(event, events.PlayerJoined):
        if event.late:
            return None
        p = event.profile
        entrant = Entrant(
            event.player_id, event.name, event.rating, p.title if p else None, p.federation if p else None
        )
        return commands.RecordEntry(event.tournament_id, entrant)
    if isinstance(event, events.PlayerLeft):
        return commands.RecordLeaving(event.tournament_id, event.player_id)
    if isinstance(event, events.TournamentStarted):
        return commands.RecordStart(event.tournament_id)
    cancelled = event
    assert isinstance(cancelled, events.TournamentCancelled)
    return commands.RecordCancellation(cancelled.tournament_id, cancelled.detail)


def _group_match(m: events.GroupPlayoffMatch) -> MatchFacts:
    a, b = (str(p) for p in m.players)
    forfeited = None if m.forfeited_by is None else str(m.forfeited_by)
    return MatchFacts(MatchKind(m.stage), m.group, m.match, (a, b), forfeited)


def group_playoff(event: events.Event) -> object:
    """The group-playoff page's queue: a group-playoff ``tournament.started`` (others: None), its
    ``group_playoff.announced``, ``round.paired`` (a group-playoff pairing's; others: None), and every
    ``game.finished``, ``player.withdrawn``, ``tournament.completed`` (the handler keeps those of the
    events it has a page for)."""
    if isinstance(event, events.TournamentStarted):
        if event.settings.ruleset is not Ruleset.GROUP_PLAYOFF:
            return None
        gp = event.settings.group_playoff
        return commands.StartGroupPlayoffPage(
            event.tournament_id,
            event.name,
            event.started_at,
            tuple(
                PagePlayer(str(r.player_id), r.seed, r.name, r.rating, r.creates_games) for r in event.roster
            ),
            None if gp is None else str(gp.lot_seed),
        )
    fact = commands.GroupPlayoffPageFact
    if isinstance(event, events.GroupPlayoffAnnounced):
        a = Announcement(
            event.kind,
            event.at,
            event.phase,
            event.group,
            tuple(str(p) for p in event.players),
            event.seed,
            event.drawn_by,
            event.deadline,
            None if event.game_id is None else str(event.game_id),
            event.result,
        )
        return fact(
            event.tournament_id, announcement=a, matches=tuple(_group_match(m) for m in event.matches)
        )
    if isinstance(event, events.RoundPaired):
        if event.system is not System.GROUP_PLAYOFF:
            return None
        games = []
        for g in event.games:
            if g.group_playoff is None:  # an older producer's: it names no match to show it in
                continue
            games.append(
                GameFacts(
                    str(g.game_id),
                    str(g.white),
                    str(g.black),
                    g.label,
                    _group_match(g.group_playoff),
                    str(g.group_playoff.inviter),
                    g.group_playoff.extra,
                )
            )
        return fact(event.tournament_id, games=tuple(games))
    if isinstance(event, events.GameFinished):
        d = event.decision
        result = GameResult(
            event.outcome,
            event.reason,
            event.finished_at,
            None if d is None else str(d.by),
            None if d is None else d.role.value,
        )
        return fact(event.tournament_id, result=(str(event.game_id), result))
    if isinstance(event, events.PlayerWithdrawn):
        at = event.decision.at if event.decision is not None else None
        w = PageWithdrawal(event.excluded, event.reason or None, at)
        return fact(event.tournament_id, withdrawal=(str(event.player_id), w))
    done = event
    assert isinstance(done, events.TournamentCompleted)
    placing = tuple((str(p.player_id), p.rank) for p in done.placing or ())
    return fact(done.tournament_id, completed=(done.completed_at, placing))


def translate(event: events.Event) -> object:
    """The command a consumed event asks of the standings."""
    try:
        inbound = _INBOUND[type(event)]
    except KeyError:
        raise TypeError(f"standings consumes no {type(event).__name__}") from None
    return inbound(event)
