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


def _legs(envelope: events.Envelope) -> tuple[list[events.GameFinished], list[events.GameFinished]]:
    """A double round's results: its legs 1, then its legs 2."""
    paired = events.RoundPaired.model_validate(envelope.payload)
    leg = {g.game_id: g.leg for g in paired.games}
    results = finish(envelope)
    return [r for r in results if leg[r.game_id] == 1], [r for r in results if leg[r.game_id] == 2]


def test_a_double_round_ends_with_its_last_leg_2(service):
    """Four players, double rounds: the clocks start each leg 2 when its leg 1 ends (RULES.md §2: the
    round lasts two legs' time). The legs 1 ending close nothing; the round ends with its last leg 2."""
    ev = started(4)
    deliver(service, ev, ev.tournament_id)
    [first] = published(service, "round.paired")
    ones, twos = _legs(first)
    for result in [*ones, twos[0]]:
        deliver(service, result, ev.tournament_id)
    assert published(service, "round.completed") == [] and len(published(service, "round.paired")) == 1
    deliver(service, twos[1], ev.tournament_id)
    assert [e.payload["round"] for e in published(service, "round.completed")] == [1]
    assert len(published(service, "round.paired")) == 2


def test_a_double_round_still_in_its_legs_2_at_the_end_completes_the_tournament(service):
    """The duration ends between a round's legs 1 and its legs 2: that round is played out (its legs 2
    too, drawn by the clocks at the close if still open) and then completes the tournament."""
    ev = started(4, duration_minutes=60)
    ev = ev.model_copy(update={"started_at": NOW - dt.timedelta(minutes=59)})
    deliver(service, ev, ev.tournament_id)
    [first] = published(service, "round.paired")
    ones, twos = _legs(first)
    for result in ones:
        deliver(service, result, ev.tournament_id)
    service.clock.advance(5 * 60)  # the hour is over while the legs 2 are played
    for result in twos:
        deliver(service, result, ev.tournament_id)
    assert len(published(service, "round.paired")) == 1
    [done] = [
        events.TournamentCompleted.model_validate(e.payload)
        for e in published(service, "tournament.completed")
    ]
    assert done.rounds == 1
