"""The clocks service on the wire: its domain events as the versioned ``shared.events`` models it
publishes, and the events it consumes as its commands. The one place that converts a time control.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Callable
from typing import Any, TypeVar

from services.clocks.domain import events as domain
from services.clocks.domain.clock import ClockRate
from services.clocks.domain.tournament import CLOSING_GRACE, ONLINE, Timekeeping, Timing
from services.clocks.service_layer import commands
from shared import events
from shared.authority import Decided, Role
from shared.openings import DrawnOpening
from shared.variants import Variant
from shared.vocabulary import Ruleset
from shared.wire import WireMap

wire = WireMap()
E = TypeVar("E", bound=events.Event)


def time_control_out(tc: ClockRate) -> events.TimeControl:
    return events.TimeControl(
        base_seconds=tc.base_seconds, increment_seconds=tc.increment_seconds, days_per_move=tc.days_per_move
    )


def time_control_in(tc: events.TimeControl) -> ClockRate:
    """The clocks' time control; raises ``InvalidTimeControl`` beyond the limits the clocks run."""
    return ClockRate(tc.base_seconds, tc.increment_seconds, tc.days_per_move)


def decision_out(d: Decided) -> events.DecisionBy:
    return events.DecisionBy(by=d.by, role=d.role, at=d.at, reason=d.reason)


def decision_in(d: events.DecisionBy) -> Decided:
    return Decided(d.by, d.role, d.at, d.reason)


# -- published -------------------------------------------------------------------------------------
@wire.maps(domain.GameStarted)
def _started(e: domain.GameStarted) -> events.Event:
    return events.GameStarted(
        tournament_id=e.tournament_id,
        game_id=e.game_id,
        round=e.round,
        white=e.white,
        black=e.black,
        started_at=e.started_at,
        time_control=time_control_out(e.control),
    )


def _result_route(e: domain.GameFinished) -> tuple[str | None, str | None]:
    """A result's routing qualifiers (``shared.events.QUALIFIERS``): its tournament's ruleset, when it was
    known as the game was created, and ``decided`` when someone entered it."""
    return (None if e.ruleset is None else e.ruleset.value, None if e.decision is None else "decided")


@wire.maps(domain.GameFinished, qualifier=_result_route)
def _finished(e: domain.GameFinished) -> events.Event:
    return events.GameFinished(
        tournament_id=e.tournament_id,
        game_id=e.game_id,
        round=e.round,
        white=e.white,
        black=e.black,
        outcome=e.outcome,
        reason=e.reason,
        moves=e.moves,
        finished_at=e.finished_at,
        both_moved=e.both_moved,
        rated=e.rated,
        decision=None if e.decision is None else decision_out(e.decision),
        boost=None if e.boost is None else events.Sides(white=e.boost[0], black=e.boost[1]),
    )


@wire.maps(domain.GameColoursSwapped)
def _swapped(e: domain.GameColoursSwapped) -> events.Event:
    return events.GameColoursSwapped(
        tournament_id=e.tournament_id,
        game_id=e.game_id,
        round=e.round,
        white=e.white,
        black=e.black,
        decision=decision_out(e.decision),
    )


@wire.maps(domain.GamePenalised)
def _penalised(e: domain.GamePenalised) -> events.Event:
    return events.GamePenalised(
        tournament_id=e.tournament_id,
        game_id=e.game_id,
        round=e.round,
        player_id=e.player_id,
        kind=e.kind.value,
        occurrence=e.occurrence,
        consequence=e.consequence.value,
        decision=decision_out(e.decision),
    )


@wire.maps(domain.GameCancelled)
def _cancelled(e: domain.GameCancelled) -> events.Event:
    return events.GameCancelled(
        tournament_id=e.tournament_id,
        game_id=e.game_id,
        round=e.round,
        reason=e.reason,
        cancelled_at=e.cancelled_at,
        white=e.white,
        black=e.black,
    )


# -- consumed --------------------------------------------------------------------------------------
def _as(kind: type[E], e: events.Event) -> E:
    if not isinstance(e, kind):
        raise TypeError(f"expected {kind.TYPE}, got {e.TYPE}")
    return e


def create_games(event: events.Event) -> commands.CreateGames:
    """``round.paired``: each game at its own time control (a tie-break stage's) or the round's. A
    knockout round says ``published: false`` until its organiser publishes it; other rounds are public."""
    e = _as(events.RoundPaired, event)
    return commands.CreateGames(
        tournament_id=e.tournament_id,
        organiser_id=e.organiser_id,
        round=e.round,
        games=tuple(
            commands.PairedGame(
                game_id=g.game_id,
                board=g.board,
                leg=g.leg,
                white=g.white,
                black=g.black,
                control=time_control_in(g.time_control or e.time_control),
                match_id=g.match_id,
                number=g.number,
                label=g.label,
                rated=g.rated,
                opening=None if g.opening is None else game_opening(e.variant, g.opening),
            )
            for g in e.games
        ),
        released=e.published is not False,
        variant=e.variant,
        cancelled=tuple(e.games_cancelled),
    )


def game_opening(variant: Variant, o: events.GameOpening) -> DrawnOpening:
    return DrawnOpening(variant, o.code, tuple(o.moves), o.fen)


ARENA_ROUND = 0  # an arena has no rounds: its games carry round 0, numbered by board within their pass


def create_arena_games(event: events.Event) -> commands.CreateGames:
    """``arena.paired``: the pass's games, created and started at once, at the arena's time control."""
    e = _as(events.ArenaPaired, event)
    control = time_control_in(e.time_control)
    return commands.CreateGames(
        tournament_id=e.tournament_id,
        organiser_id=e.organiser_id,
        round=ARENA_ROUND,
        games=tuple(
            commands.PairedGame(
                game_id=g.game_id, board=board, leg=1, white=g.white, black=g.black, control=control
            )
            for board, g in enumerate(e.games, start=1)
        ),
        released=True,
        arena=True,
        variant=e.variant,
    )


def release_round(event: events.Event) -> commands.ReleaseRound:
    """``round.published``."""
    e = _as(events.RoundPublished, event)
    return commands.ReleaseRound(e.tournament_id, e.round, e.published_at, e.restarts)


def cancel_games(event: events.Event) -> commands.CancelGames:
    """``match.decided``: the games the match no longer needs."""
    return commands.CancelGames(tuple(_as(events.MatchDecided, event).games_cancelled))


def close_tournament(event: events.Event) -> commands.CloseTournament:
    """``tournament.completed``."""
    return commands.CloseTournament(_as(events.TournamentCompleted, event).tournament_id)


def timing_in(settings: events.TournamentSettings, started_at: dt.datetime) -> Timing:
    """Who keeps the time: ``fide.clocks`` (the boards by default for `fide-rapid`), with its default
    time; every other tournament runs on the server's clocks with no default time, and closes ten
    minutes after its announced duration (``duration_minutes``) if it has one."""
    fide = settings.fide
    if fide is not None:
        return Timing(Timekeeping(fide.clocks), fide.default_time_minutes)
    if settings.ruleset is Ruleset.FIDE_RAPID:  # no fide block: its defaults
        defaults = events.FideSettings.model_fields
        return Timing(Timekeeping(defaults["clocks"].default), defaults["default_time_minutes"].default)
    if settings.duration_minutes is not None:
        return Timing(closes_at=started_at + dt.timedelta(minutes=settings.duration_minutes) + CLOSING_GRACE)
    return ONLINE


def record_tournament(event: events.Event) -> commands.RecordTournament:
    """``tournament.started``: who organises it, under which ruleset, and who keeps the time."""
    e = _as(events.TournamentStarted, event)
    return commands.RecordTournament(
        e.tournament_id, e.organiser_id, e.settings.ruleset, timing_in(e.settings, e.started_at)
    )


def appoint_arbiter(event: events.Event) -> commands.AppointArbiter:
    """``arbiter.appointed``."""
    e = _as(events.ArbiterAppointed, event)
    games = None if e.games is None else frozenset(e.games)
    return commands.AppointArbiter(e.tournament_id, e.arbiter_id, games, e.decision.at)


def revoke_arbiter(event: events.Event) -> commands.RevokeArbiter:
    """``arbiter.revoked``."""
    e = _as(events.ArbiterRevoked, event)
    return commands.RevokeArbiter(e.tournament_id, e.arbiter_id, e.decision.at)


def forfeit_withdrawn(event: events.Event) -> commands.ForfeitWithdrawn:
    """``player.withdrawn``: withdrawn or excluded, with the decision (an older producer sends none)."""
    e = _as(events.PlayerWithdrawn, event)
    decision = None if e.decision is None else decision_in(e.decision)
    return commands.ForfeitWithdrawn(e.tournament_id, e.player_id, e.excluded, e.reason, decision)


def correct_result(event: events.Event) -> commands.CorrectResult:
    """``game.result_corrected``."""
    e = _as(events.GameResultCorrected, event)
    return commands.CorrectResult(e.game_id, e.old_outcome, e.outcome, decision_in(e.decision))


def decide_by_lot(event: events.Event) -> commands.DecideByLot | None:
    """``group_playoff.announced``: a ``game-lot`` (an overdue game's result drawn by lot); the other
    announcements are the page's (None)."""
    e = _as(events.GroupPlayoffAnnounced, event)
    if e.kind != "game-lot":
        return None
    if e.game_id is None or e.result is None or e.drawn_by is None:
        raise ValueError("a game-lot announcement names the game, its result and who drew it")
    reason = f"drawn by lot, seed {e.seed}"
    decision = Decided(uuid.UUID(e.drawn_by), Role.ORGANISER, e.at, reason)
    return commands.DecideByLot(e.tournament_id, e.game_id, e.result, e.seed or "", decision)


def reset_tournament(event: events.Event) -> commands.ResetTournament:
    """``tournament.reset``."""
    e = _as(events.TournamentReset, event)
    return commands.ResetTournament(e.tournament_id, e.decision.at, tuple(e.games), e.restarts)


def by_type(**translations: Callable[[events.Event], Any]) -> Callable[[events.Event], Any]:
    """One queue carrying several events: each is translated by the function named after its type
    (``round_paired=create_games`` for ``round.paired``)."""

    def translate(event: events.Event) -> Any:
        found = translations.get(event.TYPE.replace(".", "_"))
        if found is None:
            raise TypeError(f"this queue does not take {event.TYPE}")
        return found(event)

    return translate


from_pairing = by_type(
    round_paired=create_games, tournament_reset=reset_tournament, arena_paired=create_arena_games
)
from_arbiters = by_type(arbiter_appointed=appoint_arbiter, arbiter_revoked=revoke_arbiter)
