"""The clocks service on the wire: its domain events as the versioned ``shared.events`` models it
publishes, and the events it consumes as its commands. The one place that converts a time control.
"""

from __future__ import annotations

from typing import TypeVar

from services.clocks.domain import events as domain
from services.clocks.domain.clock import TimeControl
from services.clocks.service_layer import commands
from shared import events
from shared.wire import WireMap

wire = WireMap()
E = TypeVar("E", bound=events.Event)


def time_control_out(tc: TimeControl) -> events.TimeControl:
    return events.TimeControl(
        base_seconds=tc.base_seconds, increment_seconds=tc.increment_seconds, days_per_move=tc.days_per_move
    )


def time_control_in(tc: events.TimeControl) -> TimeControl:
    """The clocks' time control; raises ``InvalidTimeControl`` beyond the limits the clocks run."""
    return TimeControl(tc.base_seconds, tc.increment_seconds, tc.days_per_move)


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


@wire.maps(domain.GameFinished)
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
    )


@wire.maps(domain.GameCancelled)
def _cancelled(e: domain.GameCancelled) -> events.Event:
    return events.GameCancelled(
        tournament_id=e.tournament_id,
        game_id=e.game_id,
        round=e.round,
        reason=e.reason,
        cancelled_at=e.cancelled_at,
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
            )
            for g in e.games
        ),
        released=e.published is not False,
    )


def release_round(event: events.Event) -> commands.ReleaseRound:
    """``round.published``."""
    e = _as(events.RoundPublished, event)
    return commands.ReleaseRound(e.tournament_id, e.round)


def cancel_games(event: events.Event) -> commands.CancelGames:
    """``match.decided``: the games the match no longer needs."""
    return commands.CancelGames(tuple(_as(events.MatchDecided, event).games_cancelled))


def close_tournament(event: events.Event) -> commands.CloseTournament:
    """``tournament.completed``."""
    return commands.CloseTournament(_as(events.TournamentCompleted, event).tournament_id)
