"""A `platform` tournament's duration (RULES.md §2 "Duration"): once it is over, no further round is paired;
the round being played (its open games drawn by the clocks at the close) completes the tournament."""

from __future__ import annotations

import datetime as dt

from services.pairing.tests.helpers import NOW, deliver, finish, published, started
from shared import events


def test_no_round_is_paired_after_the_duration(service):
    ev = started(8, duration_minutes=60)
    ev = ev.model_copy(update={"started_at": NOW - dt.timedelta(hours=2)})  # its hour is over
    deliver(service, ev, ev.tournament_id)
    [first] = published(service, "round.paired")
    for result in finish(first):
        deliver(service, result, ev.tournament_id)
    assert len(published(service, "round.paired")) == 1
    [done] = [
        events.TournamentCompleted.model_validate(e.payload)
        for e in published(service, "tournament.completed")
    ]
    assert done.rounds == 1  # the rounds played, of the four planned
    assert [e.payload["round"] for e in published(service, "round.completed")] == [1]


def test_rounds_go_on_while_the_duration_lasts(service):
    ev = started(8, duration_minutes=60)
    deliver(service, ev, ev.tournament_id)
    [first] = published(service, "round.paired")
    for result in finish(first):
        deliver(service, result, ev.tournament_id)
    assert len(published(service, "round.paired")) == 2
    assert published(service, "tournament.completed") == []
