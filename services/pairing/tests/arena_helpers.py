"""Helpers of the arena's tests in the pairing service: an arena's start, a game of it finished."""

from __future__ import annotations

import datetime as dt
import uuid

from services.pairing.tests.helpers import NOW
from shared import events

TC = events.TimeControl(base_seconds=60, increment_seconds=0)  # 1+0: pairing closes 1 minute before the end


def arena_started(n: int, *, minutes: int = 30) -> events.TournamentStarted:
    return events.TournamentStarted(
        tournament_id=uuid.uuid4(),
        organiser_id=uuid.uuid4(),
        name="Arena",
        started_at=NOW,
        settings=events.TournamentSettings(
            ruleset="arena", time_control=TC, arena=events.ArenaSettings(duration_minutes=minutes)
        ),
        roster=[
            events.RosterEntry(seed=i, player_id=uuid.uuid4(), name=f"P{i}", rating=2000 - 10 * i)
            for i in range(1, n + 1)
        ],
    )


def finished(started, game: events.ArenaGame, outcome: str, at: dt.datetime, boost=(False, False)):
    return events.GameFinished(
        tournament_id=started.tournament_id,
        game_id=game.game_id,
        round=0,
        white=game.white,
        black=game.black,
        outcome=outcome,
        reason="resignation",
        finished_at=at,
        boost=events.Sides(white=boost[0], black=boost[1]),
    )
