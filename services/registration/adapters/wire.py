"""Registration's events on the wire: the one place that maps the domain events the tournaments record
to the versioned :mod:`shared.events` models, and the consumed wire events to registration's own
commands. The time-control, settings and roster conversions exist here once."""

from __future__ import annotations

import uuid

from services.registration.domain import audit
from services.registration.domain import events as domain
from services.registration.domain.fide import FideFormat
from services.registration.domain.group_playoff import GroupFormat
from services.registration.domain.knockout import KnockoutFormat
from services.registration.domain.players import Profile
from services.registration.service_layer import commands
from shared import events
from shared.authority import Decided
from shared.time_control import RateOfPlay
from shared.vocabulary import BracketFormat
from shared.wire import WireMap

wire = WireMap()


# -- the values the events carry -------------------------------------------------------------------
def time_control(tc: RateOfPlay) -> events.TimeControl:
    return events.TimeControl(
        base_seconds=tc.base_seconds, increment_seconds=tc.increment_seconds, days_per_move=tc.days_per_move
    )


def knockout_settings(fmt: KnockoutFormat, bracket: BracketFormat) -> events.KnockoutSettings:
    plan = fmt.tiebreak_plan
    return events.KnockoutSettings(
        format=bracket,
        games_per_match=fmt.games_per_match,
        seeding=fmt.seeding,
        draw_seed=fmt.draw_seed,
        third_place=fmt.third_place,
        second_final=fmt.second_final,
        tiebreak_plan=events.TieBreakPlan(
            stages=[
                events.TieBreakStage(games=s.games, time_control=time_control(s.time_control))
                for s in plan.stages
            ],
            sudden_death=time_control(plan.sudden_death),
        ),
    )


def fide_settings(fmt: FideFormat) -> events.FideSettings:
    if fmt.rounds is None:
        raise ValueError("a fide-rapid event's rounds are fixed at its start")
    return events.FideSettings(
        place=fmt.place,
        start_date=fmt.start_date,
        end_date=fmt.end_date,
        rounds=fmt.rounds,
        system=fmt.system.value,
        acceleration=fmt.acceleration,
        clocks=fmt.clocks.value,
        default_time_minutes=fmt.default_time_minutes,
        late_entry_bye=fmt.late_entry_bye.value,
        federation=fmt.federation or None,
        chief_arbiter=fmt.chief_arbiter,
        deputy_arbiters=list(fmt.deputy_arbiters),
    )


def profile(p: Profile | None) -> events.PlayerProfile | None:
    if p is None:
        return None
    return events.PlayerProfile(
        fide_id=p.fide_id,
        federation=p.federation,
        title=None if p.title is None else p.title.value,
        sex=None if p.sex is None else p.sex.value,
        birth_year=p.birth_year,
        rating_standard=p.rating_standard,
        rating_rapid=p.rating_rapid,
    )


def group_settings(fmt: GroupFormat, organiser_id: uuid.UUID) -> events.GroupPlayoffSettings | None:
    """Once started: the groups' lot seed, drawn by the organiser's start (before: nothing to tell)."""
    if fmt.lot_seed is None:
        return None
    return events.GroupPlayoffSettings(lot_seed=fmt.lot_seed, drawn_by=organiser_id)


def settings(s: domain.PlaySettings, organiser_id: uuid.UUID) -> events.TournamentSettings:
    return events.TournamentSettings(
        ruleset=s.ruleset,
        variant=s.variant,
        threshold=s.threshold,
        double_rounds=s.double_rounds,
        extra_round=s.extra_round,
        rated=s.rated,
        byes_on_request=s.byes_on_request,
        time_control=time_control(s.time_control),
        knockout=None if s.knockout is None else knockout_settings(s.knockout, _bracket(s)),
        fide=None if s.fide is None else fide_settings(s.fide),
        opening=s.opening,
        duration_minutes=s.duration_minutes,
        arena=None if s.arena_minutes is None else events.ArenaSettings(duration_minutes=s.arena_minutes),
        group_playoff=None if s.group_playoff is None else group_settings(s.group_playoff, organiser_id),
    )


def _bracket(s: domain.PlaySettings) -> BracketFormat:
    if s.bracket is None:
        raise ValueError(f"a {s.ruleset} tournament has no knockout format")
    return s.bracket


def roster_entry(s: domain.Seeded) -> events.RosterEntry:
    return events.RosterEntry(
        seed=s.seed,
        player_id=s.player_id,
        name=s.name,
        rating=s.rating,
        profile=profile(s.profile),
        creates_games=s.creates_games,
    )


def revision(roster_revision: int) -> int | None:
    """A roster change's revision on the wire (0: none was stamped, left out)."""
    return roster_revision or None


def decision(d: Decided) -> events.DecisionBy:
    return events.DecisionBy(by=d.by, role=d.role, at=d.at, reason=d.reason)


def decided(d: events.DecisionBy) -> Decided:
    return Decided(by=d.by, role=d.role, at=d.at, reason=d.reason)


# -- outbound: what the tournaments recorded -------------------------------------------------------
@wire.maps(domain.TournamentScheduled)
def _scheduled(e: domain.TournamentScheduled) -> events.Event:
    return events.TournamentScheduled(
        tournament_id=e.tournament_id,
        organiser_id=e.organiser_id,
        name=e.name,
        starts_at=e.starts_at,
        seats=e.seats,
        minimum=e.minimum,
        settings=settings(e.settings, e.organiser_id),
    )


def _an_arenas(e: domain.PlayerJoined | domain.PlayerLeft) -> str | None:
    """The routing qualifier of an arena's entries (``shared.events.QUALIFIERS``)."""
    return "arena" if e.arena else None


@wire.maps(domain.PlayerJoined, qualifier=_an_arenas)
def _joined(e: domain.PlayerJoined) -> events.Event:
    return events.PlayerJoined(
        tournament_id=e.tournament_id,
        player_id=e.player_id,
        name=e.name,
        rating=e.rating,
        profile=profile(e.profile),
        late=e.late,
        from_round=e.from_round,
        roster_revision=revision(e.roster_revision),
    )


@wire.maps(domain.PlayerPaused)
def _paused(e: domain.PlayerPaused) -> events.Event:
    return events.PlayerPaused(
        tournament_id=e.tournament_id, player_id=e.player_id, roster_revision=revision(e.roster_revision)
    )


@wire.maps(domain.PlayerLeft, qualifier=_an_arenas)
def _left(e: domain.PlayerLeft) -> events.Event:
    return events.PlayerLeft(
        tournament_id=e.tournament_id, player_id=e.player_id, roster_revision=revision(e.roster_revision)
    )


@wire.maps(
    domain.TournamentStarted,
    qualifier=lambda e: None if e.settings.arena_minutes is None else "arena",  # as the consumers tell
)
def _started(e: domain.TournamentStarted) -> events.Event:
    return events.TournamentStarted(
        tournament_id=e.tournament_id,
        organiser_id=e.organiser_id,
        name=e.name,
        started_at=e.started_at,
        settings=settings(e.settings, e.organiser_id),
        roster=[roster_entry(s) for s in e.roster],
        roster_revision=revision(e.roster_revision),
    )


@wire.maps(domain.TournamentCancelled)
def _cancelled(e: domain.TournamentCancelled) -> events.Event:
    return events.TournamentCancelled(
        tournament_id=e.tournament_id, reason=e.reason, detail=e.detail, present=e.present
    )


@wire.maps(domain.ArbiterAppointed)
def _appointed(e: domain.ArbiterAppointed) -> events.Event:
    return events.ArbiterAppointed(
        tournament_id=e.tournament_id,
        arbiter_id=e.arbiter_id,
        games=None if e.games is None else sorted(e.games),
        decision=decision(e.decided),
    )


@wire.maps(domain.ArbiterRevoked)
def _revoked(e: domain.ArbiterRevoked) -> events.Event:
    return events.ArbiterRevoked(
        tournament_id=e.tournament_id, arbiter_id=e.arbiter_id, decision=decision(e.decided)
    )


@wire.maps(domain.PlayerWithdrawn)
def _withdrawn(e: domain.PlayerWithdrawn) -> events.Event:
    return events.PlayerWithdrawn(
        tournament_id=e.tournament_id,
        player_id=e.player_id,
        reason=e.reason,
        excluded=e.excluded,
        decision=decision(e.decided),
        roster_revision=revision(e.roster_revision),
    )


# -- inbound: what registration hears --------------------------------------------------------------
def completion(event: events.Event) -> commands.CompleteTournament:
    """``tournament.completed`` (pairing): registration completes its record of the tournament."""
    if not isinstance(event, events.TournamentCompleted):
        raise TypeError(f"registration does not consume {event.TYPE}")
    return commands.CompleteTournament(event.tournament_id)


def reset(event: events.Event) -> commands.ResetTournament:
    """``tournament.reset`` (pairing): a knockout goes back to its draft; the reset is in the audit log."""
    if not isinstance(event, events.TournamentReset):
        raise TypeError(f"registration does not consume {event.TYPE} as a reset")
    return commands.ResetTournament(
        event.tournament_id, audit.tournament_reset(event.tournament_id, decided(event.decision))
    )


def game_finished(event: events.Event) -> commands.RateGame:
    """``game.finished`` (clocks): the game may move both players' ratings."""
    if not isinstance(event, events.GameFinished):
        raise TypeError(f"registration does not consume {event.TYPE} as a finished game")
    return commands.RateGame(
        game_id=event.game_id,
        tournament_id=event.tournament_id,
        white=event.white,
        black=event.black,
        outcome=event.outcome,
        finished_at=event.finished_at,
        rated=event.rated,
        both_moved=event.both_moved,
        moves=event.moves,
    )


@wire.maps(domain.RatingUpdated)
def _rating_updated(e: domain.RatingUpdated) -> events.Event:
    return events.RatingUpdated(
        account_id=e.account_id,
        key=e.key,
        rating=round(e.rating),
        previous=round(e.previous),
        deviation=e.deviation,
        volatility=e.volatility,
        games=e.games,
        game_id=e.game_id,
        tournament_id=e.tournament_id,
        updated_at=e.at,
    )


def round_paired(event: events.Event) -> commands.RecordRoundPaired:
    """``round.paired`` (pairing): the last round paired, for the round late entries play from."""
    if not isinstance(event, events.RoundPaired):
        raise TypeError(f"registration does not consume {event.TYPE} as a pairing")
    return commands.RecordRoundPaired(event.tournament_id, event.round)


def absence_unexcused(event: events.Event) -> commands.WithdrawAbsentPlayer:
    """``absence.unexcused`` (pairing): the player is withdrawn (FIDE C.04.2)."""
    if not isinstance(event, events.AbsenceUnexcused):
        raise TypeError(f"registration does not consume {event.TYPE} as an absence")
    return commands.WithdrawAbsentPlayer(event.tournament_id, event.player_id, event.round)


AUDITED = (
    "game.finished.decided",  # a result someone entered (a played-out one is no decision)
    "game.result_corrected",
    "game.colours_swapped",
    "bye.requested",
    "bye.taken_back",
    "absence.excused",
    "game.penalised",
)


def is_decision(event: events.Event) -> bool:
    """Whether an audited event records a decision: every one does but a ``game.finished`` played out on
    the server (no ``decision``)."""
    return not (isinstance(event, events.GameFinished) and event.decision is None)


def decision_heard(event: events.Event) -> commands.RecordDecision | None:
    """A decision another service took, for the audit log: a result entered (``game.finished`` with a
    ``decision``; a result played out on the server carries none and is not a decision), a correction,
    a colour swap, a requested bye. None: nothing to record."""
    if isinstance(event, events.GameFinished):
        if event.decision is None:  # not a decision (``is_decision``)
            return None
        entry = audit.result_entered(
            event.tournament_id,
            event.game_id,
            event.round,
            event.outcome.value,
            event.reason,
            decided(event.decision),
        )
    elif isinstance(event, events.GameResultCorrected):
        entry = audit.result_corrected(
            event.tournament_id,
            event.game_id,
            event.round,
            event.old_outcome.value,
            event.outcome.value,
            decided(event.decision),
        )
    elif isinstance(event, events.GameColoursSwapped):
        entry = audit.colours_swapped(
            event.tournament_id, event.game_id, event.round, event.white, event.black, decided(event.decision)
        )
    elif isinstance(event, events.ByeRequested):
        entry = audit.bye_requested(
            event.tournament_id, event.player_id, event.round, event.kind.value, decided(event.decision)
        )
    elif isinstance(event, events.ByeTakenBack):
        entry = audit.bye_taken_back(
            event.tournament_id, event.player_id, event.round, decided(event.decision)
        )
    elif isinstance(event, events.AbsenceExcused):
        entry = audit.absence_excused(
            event.tournament_id, event.player_id, event.round, decided(event.decision)
        )
    elif isinstance(event, events.GamePenalised):
        entry = audit.game_penalised(
            event.tournament_id,
            event.game_id,
            event.round,
            event.player_id,
            event.kind,
            event.occurrence,
            event.consequence,
            decided(event.decision),
        )
    else:
        raise TypeError(f"registration does not audit {event.TYPE}")
    return commands.RecordDecision(entry)
