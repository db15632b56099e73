"""The one place where pairing's domain meets the versioned wire events (``shared.events``): domain
events out (through the unit of work's :data:`wire` map), consumed events in (as commands). The time
control, roster and settings conversions exist here once.

``pairing.round_due`` is pairing's own event: it travels over the broker only from pairing's consumer to
its workers, so it is defined here, marked internal, and left out of the published schema.
"""

from __future__ import annotations

import datetime as dt
import uuid
from typing import ClassVar

from pydantic import Field

from services.pairing.domain import events as domain
from services.pairing.domain.heading import Heading, Player
from services.pairing.domain.rounds import berger
from services.pairing.domain.rounds.platform import Plan
from services.pairing.domain.rounds.tournament import FideRules
from services.pairing.service_layer import commands
from shared import events
from shared.authority import Decided
from shared.openings import DrawnOpening, OpeningOption
from shared.time_control import RateOfPlay, Stage, TieBreakSchedule
from shared.vocabulary import ByeKind, System
from shared.wire import WireMap


@events.register
class RoundDue(events.Event):
    """Internal to the pairing service: a round is ready to be paired by a pairing worker."""

    TYPE: ClassVar[str] = "pairing.round_due"
    INTERNAL: ClassVar[bool] = True
    tournament_id: uuid.UUID
    round: int = Field(ge=1)


# -- time controls -------------------------------------------------------------------------------------
def time_control(tc: RateOfPlay) -> events.TimeControl:
    return events.TimeControl(
        base_seconds=tc.base_seconds, increment_seconds=tc.increment_seconds, days_per_move=tc.days_per_move
    )


def clock(tc: events.TimeControl) -> RateOfPlay:
    return RateOfPlay(tc.base_seconds, tc.increment_seconds, tc.days_per_move)


def tiebreak_plan(plan: events.TieBreakPlan) -> TieBreakSchedule:
    return TieBreakSchedule(
        tuple(Stage(s.games, clock(s.time_control)) for s in plan.stages), clock(plan.sudden_death)
    )


def decision(d: Decided) -> events.DecisionBy:
    return events.DecisionBy(by=d.by, role=d.role, at=d.at, reason=d.reason)


def game_opening(o: DrawnOpening) -> events.GameOpening:
    return events.GameOpening(code=o.code, moves=list(o.moves), fen=o.fen)


# -- out: domain events → wire events ------------------------------------------------------------------
wire = WireMap()


@wire.maps(domain.RoundBecameDue)
def _round_due(e: domain.RoundBecameDue) -> events.Event:
    return RoundDue(tournament_id=e.tournament_id, round=e.round)


@wire.maps(domain.RoundPaired)
def _round_paired(e: domain.RoundPaired) -> events.Event:
    return events.RoundPaired(
        tournament_id=e.tournament_id,
        organiser_id=e.organiser_id,
        round=e.round,
        total_rounds=e.total_rounds,
        system=e.system,
        games=[
            events.PairedGame(
                game_id=g.game_id,
                board=g.board,
                white=g.white,
                black=g.black,
                leg=g.leg,
                match_id=g.match_id,
                number=g.number,
                label=g.label,
                time_control=None if g.time_control is None else time_control(g.time_control),
                rated=g.rated,
                opening=None if g.opening is None else game_opening(g.opening),
                group_playoff=None if g.group_playoff is None else _group_playoff_game(g.group_playoff),
            )
            for g in e.games
        ],
        byes=[events.Bye(player_id=b.player_id, kind=b.kind) for b in e.byes],
        time_control=time_control(e.time_control),
        published=e.published,
        variant=e.variant,
        matches=[
            events.PairedMatch(
                match_id=m.match_id,
                section=m.section,
                section_round=m.section_round,
                number=m.number,
                board=m.board,
                players=list(m.players),
                first_white=m.first_white,
            )
            for m in e.matches
        ],
        games_cancelled=list(e.games_cancelled),
    )


@wire.maps(domain.ArenaGamesPaired)
def _arena_paired(e: domain.ArenaGamesPaired) -> events.Event:
    return events.ArenaPaired(
        tournament_id=e.tournament_id,
        organiser_id=e.organiser_id,
        games=[events.ArenaGame(game_id=g.game_id, white=g.white, black=g.black) for g in e.games],
        time_control=time_control(e.time_control),
        paired_at=e.paired_at,
        variant=e.variant,
    )


@wire.maps(domain.ArenaCompleted)
def _arena_completed(e: domain.ArenaCompleted) -> events.Event:
    return events.TournamentCompleted(
        tournament_id=e.tournament_id, organiser_id=e.organiser_id, rounds=0, completed_at=e.completed_at
    )


@wire.maps(domain.RoundPublished)
def _round_published(e: domain.RoundPublished) -> events.Event:
    return events.RoundPublished(
        tournament_id=e.tournament_id, round=e.round, published_at=e.published_at, restarts=e.restarts
    )


@wire.maps(domain.MatchDecided)
def _match_decided(e: domain.MatchDecided) -> events.Event:
    return events.MatchDecided(
        tournament_id=e.tournament_id,
        match_id=e.match_id,
        round=e.round,
        section=e.section,
        players=list(e.players),
        winner=e.winner,
        how=e.how,
        games_cancelled=list(e.games_cancelled),
        decided_at=e.decided_at,
        revision=e.revision,
    )


@wire.maps(domain.RoundCompleted)
def _round_completed(e: domain.RoundCompleted) -> events.Event:
    return events.RoundCompleted(tournament_id=e.tournament_id, round=e.round)


@wire.maps(domain.TournamentCompleted)
def _tournament_completed(e: domain.TournamentCompleted) -> events.Event:
    return events.TournamentCompleted(
        tournament_id=e.tournament_id,
        organiser_id=e.organiser_id,
        rounds=e.rounds,
        completed_at=e.completed_at,
        placing=None
        if e.placing is None
        else [
            events.Placing(
                player_id=p.player_id,
                seed=p.seed,
                rank=p.rank,
                places=list(p.places),
                matches_won=p.matches_won,
            )
            for p in e.placing
        ],
    )


@wire.maps(domain.ResultCorrected)
def _result_corrected(e: domain.ResultCorrected) -> events.Event:
    return events.GameResultCorrected(
        tournament_id=e.tournament_id,
        game_id=e.game_id,
        round=e.round,
        white=e.white,
        black=e.black,
        old_outcome=e.old_outcome,
        outcome=e.outcome,
        decision=decision(e.decision),
    )


@wire.maps(domain.ByeRequested)
def _bye_requested(e: domain.ByeRequested) -> events.Event:
    return events.ByeRequested(
        tournament_id=e.tournament_id,
        player_id=e.player_id,
        round=e.round,
        kind=e.kind,
        decision=decision(e.decision),
    )


@wire.maps(domain.ByeTakenBack)
def _bye_taken_back(e: domain.ByeTakenBack) -> events.Event:
    return events.ByeTakenBack(
        tournament_id=e.tournament_id, player_id=e.player_id, round=e.round, decision=decision(e.decision)
    )


@wire.maps(domain.AbsenceUnexcused)
def _absence_unexcused(e: domain.AbsenceUnexcused) -> events.Event:
    return events.AbsenceUnexcused(tournament_id=e.tournament_id, player_id=e.player_id, round=e.round)


@wire.maps(domain.AbsenceExcused)
def _absence_excused(e: domain.AbsenceExcused) -> events.Event:
    return events.AbsenceExcused(
        tournament_id=e.tournament_id, player_id=e.player_id, round=e.round, decision=decision(e.decision)
    )


def _group_playoff_match(m: domain.GroupPlayoffPlace) -> events.GroupPlayoffMatch:
    return events.GroupPlayoffMatch.model_validate(
        {
            "stage": m.stage,
            "phase": m.phase,
            "group": m.group,
            "match": m.match,
            "players": list(m.players),
            "forfeited_by": m.forfeited_by,
        }
    )


def _group_playoff_game(m: domain.GroupPlayoffPlace) -> events.GroupPlayoffGame:
    return events.GroupPlayoffGame.model_validate(
        {**_group_playoff_match(m).model_dump(), "inviter": m.inviter, "extra": m.extra}
    )


@wire.maps(domain.GroupPlayoffAnnounced)
def _group_playoff_announced(e: domain.GroupPlayoffAnnounced) -> events.Event:
    return events.GroupPlayoffAnnounced(
        tournament_id=e.tournament_id,
        kind=e.kind,
        at=e.at,
        phase=e.phase,
        group=e.group,
        players=list(e.players),
        seed=e.seed,
        drawn_by=e.drawn_by,
        deadline=e.deadline,
        matches=[_group_playoff_match(m) for m in e.matches],
        game_id=e.game_id,
        result=e.result,
    )


@wire.maps(domain.TournamentReset)
def _tournament_reset(e: domain.TournamentReset) -> events.Event:
    return events.TournamentReset(
        tournament_id=e.tournament_id,
        decision=decision(e.decision),
        games=list(e.games),
        restarts=e.restarts,
    )


# -- in: consumed events → commands --------------------------------------------------------------------
def start(event: events.Event) -> commands.StartTournament | commands.StartArena:
    """``tournament.started``: a knockout's settings start an elimination, an arena's an arena, anything
    else a `platform` tournament of rounds."""
    assert isinstance(event, events.TournamentStarted)
    settings = event.settings
    heading = Heading(
        event.tournament_id,
        event.organiser_id,
        event.name,
        settings.ruleset,
        clock(settings.time_control),
        event.started_at,
    )
    players = tuple(
        Player(r.seed, r.player_id, r.name, r.rating) for r in sorted(event.roster, key=lambda r: r.seed)
    )
    revision = event.roster_revision
    gp = settings.group_playoff
    if gp is not None:
        cannot_create = frozenset(r.player_id for r in event.roster if not r.creates_games)
        return commands.StartGroupPlayoff(heading, players, gp.lot_seed, gp.drawn_by, cannot_create, revision)
    ko = settings.knockout
    if settings.arena is not None:
        ends_at = event.started_at + dt.timedelta(minutes=settings.arena.duration_minutes)
        return commands.StartArena(heading, players, ends_at, settings.variant, revision)
    if settings.fide is not None:
        return _start_fide(heading, players, settings.fide, revision)
    if ko is None:
        return commands.StartRounds(
            heading,
            players,
            threshold=settings.threshold,
            extra_round=settings.extra_round,
            double_rounds=settings.double_rounds,
            byes_on_request=settings.byes_on_request,
            variant=settings.variant,
            opening=OpeningOption.parse(settings.opening),
            ends_at=None
            if settings.duration_minutes is None
            else heading.started_at + dt.timedelta(minutes=settings.duration_minutes),
            roster_revision=revision,
        )
    return commands.StartElimination(
        heading,
        players,
        format=ko.format,
        games_per_match=ko.games_per_match,
        seeding=ko.seeding,
        tiebreak_plan=tiebreak_plan(ko.tiebreak_plan),
        draw_seed=ko.draw_seed,
        third_place=ko.third_place,
        second_final=ko.second_final,
        roster_revision=revision,
    )


def _start_fide(
    heading: Heading, players: tuple[Player, ...], fide: events.FideSettings, revision: int | None
) -> commands.StartRounds:
    """A `fide-rapid` event: the organiser's system and rounds (a round robin's from the Berger table of
    its field), byes on request, paired on its arbiters' command."""
    system = System(fide.system)
    rounds = berger.rounds_count(len(players)) if system is System.ROUND_ROBIN else fide.rounds
    late_bye = ByeKind.HALF_POINT if fide.late_entry_bye == "half" else ByeKind.ZERO_POINT
    return commands.StartRounds(
        heading,
        players,
        threshold=0,
        byes_on_request=True,
        fide=FideRules(acceleration=fide.acceleration and system is System.SWISS, late_entry_bye=late_bye),
        fide_plan=Plan(system, rounds, False),
        roster_revision=revision,
    )


def result(event: events.Event) -> commands.RecordResult | commands.RecordArenaResult:
    """``game.finished``: an arena's game carries its boosts."""
    assert isinstance(event, events.GameFinished)
    if event.boost is not None:
        return commands.RecordArenaResult(
            event.tournament_id,
            event.game_id,
            event.outcome,
            event.finished_at,
            event.boost.white,
            event.boost.black,
        )
    return commands.RecordResult(
        event.tournament_id, event.game_id, event.round, event.outcome, event.finished_at, event.reason[:40]
    )


def joined(event: events.Event) -> commands.AddLatePlayer:
    """``player.joined`` (only a late entry of a started `fide-rapid` event changes anything here)."""
    assert isinstance(event, events.PlayerJoined)
    return commands.AddLatePlayer(
        event.tournament_id,
        event.player_id,
        event.name,
        event.rating,
        event.late,
        event.from_round,
        event.roster_revision,
    )


def withdrawal(event: events.Event) -> commands.RecordWithdrawal:
    """``player.withdrawn``."""
    assert isinstance(event, events.PlayerWithdrawn)
    at = None if event.decision is None else event.decision.at
    reason = event.reason[:500]  # what pairing keeps of it (for display: the audit log has it whole)
    return commands.RecordWithdrawal(
        event.tournament_id, event.player_id, event.excluded, reason, at, event.roster_revision
    )


def arbiter(event: events.Event) -> commands.RecordAppointment | commands.RecordRevocation:
    """``arbiter.appointed`` and ``arbiter.revoked``."""
    if isinstance(event, events.ArbiterAppointed):
        games = None if event.games is None else frozenset(event.games)
        return commands.RecordAppointment(event.tournament_id, event.arbiter_id, games, event.decision.at)
    assert isinstance(event, events.ArbiterRevoked)
    return commands.RecordRevocation(event.tournament_id, event.arbiter_id, event.decision.at)


def colours(event: events.Event) -> commands.RecordColours:
    """``game.colours_swapped``."""
    assert isinstance(event, events.GameColoursSwapped)
    return commands.RecordColours(event.tournament_id, event.game_id, event.white, event.black)


def round_due(event: events.Event) -> commands.PairRound:
    """``pairing.round_due``."""
    assert isinstance(event, RoundDue)
    return commands.PairRound(event.tournament_id, event.round)


def arena(event: events.Event) -> commands.StartArena | commands.ArenaEntry | None:
    """The arena queue: ``tournament.started`` of an arena (None for the other formats), and
    ``player.joined`` / ``player.paused`` / ``player.left`` (of any tournament: the handler keeps those of
    a started arena)."""
    if isinstance(event, events.TournamentStarted):
        started = start(event)
        return started if isinstance(started, commands.StartArena) else None
    if isinstance(event, events.PlayerJoined):
        return commands.ArenaEntry(
            event.tournament_id, event.player_id, "join", event.rating, event.roster_revision
        )
    if isinstance(event, events.PlayerPaused):
        return commands.ArenaEntry(
            event.tournament_id, event.player_id, "pause", roster_revision=event.roster_revision
        )
    assert isinstance(event, events.PlayerLeft)
    return commands.ArenaEntry(
        event.tournament_id, event.player_id, "leave", roster_revision=event.roster_revision
    )


def playing(event: events.Event) -> commands.RecordPlaying:
    """``game.started``, ``game.finished`` and ``game.cancelled`` of any game: its players are in a
    game, or no longer. A ``game.cancelled`` of version 1 names no players: it clears no marker."""
    if isinstance(event, events.GameStarted):
        return commands.RecordPlaying(event.game_id, (event.white, event.black), True)
    if isinstance(event, events.GameFinished | events.GameCancelled):
        return commands.RecordPlaying(event.game_id, (event.white, event.black), False)
    assert isinstance(event, events.GameCancelledV1)
    return commands.RecordPlaying(event.game_id, (), False)


def game(event: events.Event) -> commands.RecordPlaying | commands.GameOver:
    """The games' queue: ``game.started`` (the players' in-game marker), ``game.cancelled`` (the marker
    goes) and ``game.finished`` (the marker goes and the result is recorded), in the order clocks
    published them."""
    if isinstance(event, events.GameFinished):
        return commands.GameOver(result(event), playing(event))
    return playing(event)
