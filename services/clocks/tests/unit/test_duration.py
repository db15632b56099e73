"""A `platform` tournament's duration (RULES.md §2 "Duration"): games still running at its end get ten
more minutes; then the tournament closes and still-open games are drawn (reason ``tournament_closed``),
found by the ticker like a flag. A flag that falls before the close is a loss on time as ever."""

from __future__ import annotations

import pytest

from services.clocks.service_layer.commands import CheckFlags
from services.clocks.tests.conftest import NOW, Pairing, a_round, announce, published
from shared import events
from shared.events import wrap


def started(p: Pairing, duration_minutes: int) -> events.Envelope:
    settings = events.TournamentSettings(time_control=p.time_control, duration_minutes=duration_minutes)
    event = events.TournamentStarted(
        tournament_id=p.tournament_id,
        organiser_id=p.organiser_id,
        name="Evening arena of rounds",
        started_at=NOW,
        settings=settings,
        roster=[],
    )
    return wrap(event, p.tournament_id)


@pytest.mark.parametrize("started_first", [True, False])
def test_open_games_are_drawn_ten_minutes_after_the_duration(client, svc, clock, started_first):
    pairing = a_round(2, base=3600, increment=0)  # an hour each: nobody's flag falls first
    first, then = (started(pairing, 30), pairing) if started_first else (pairing, started(pairing, 30))
    announce(svc, first)
    announce(svc, then)
    g = pairing.game(1)
    closes = client.get(f"/games/{g.game_id}").json["clock"]["deadline"]
    assert closes.startswith("2026-06-01T12:40:00")  # 30 minutes and the ten more
    clock.advance(39 * 60)
    svc.bus.handle(CheckFlags())
    assert published(svc, "game.finished") == []  # the extra ten minutes are not over
    clock.advance(61)
    svc.bus.handle(CheckFlags())
    finished = [e.payload for e in published(svc, "game.finished")]
    assert {(f["outcome"], f["reason"]) for f in finished} == {("1/2-1/2", "tournament_closed")}
    assert len(finished) == 2 and all(f["finished_at"].startswith("2026-06-01T12:40:00") for f in finished)


def test_a_flag_falling_before_the_close_is_a_loss_on_time(client, svc, clock):
    pairing = a_round(1, base=60, increment=0)
    announce(svc, started(pairing, 30))
    announce(svc, pairing)
    clock.advance(45 * 60)
    svc.bus.handle(CheckFlags())
    [finished] = [e.payload for e in published(svc, "game.finished")]
    assert (finished["outcome"], finished["reason"]) == ("0-1", "time")
