"""The arena boost's clock change (RULES.md §3): before one's own first move, the increment dropped, the
base halved unless it is under 40 × the increment, never with no base time."""

from __future__ import annotations

import datetime as dt

import pytest

from services.clocks.domain.boost import (
    BOOST,
    AlreadyBoosted,
    BoostNotOffered,
    BoostTooLate,
    BoostUnaffordable,
    base_cut_ms,
    boost,
    boosted_sides,
    offered,
)
from services.clocks.domain.clock import ChangeKind, Clock, ClockChange, ClockRate, Side
from services.clocks.domain.errors import Conflict

T0 = dt.datetime(2026, 6, 1, 12, 0, tzinfo=dt.UTC)
W, B = Side.WHITE, Side.BLACK


def at(seconds: float) -> dt.datetime:
    return T0 + dt.timedelta(seconds=seconds)


def started(base: int, inc: int) -> Clock:
    clock = Clock.new(ClockRate(base, inc))
    clock.start(T0)
    return clock


@pytest.mark.parametrize(
    ("base", "inc", "cut"),
    [
        (180, 2, 90_000),  # 3+2: 180 ≥ 80, halved
        (60, 0, 30_000),  # 1+0
        (120, 3, 60_000),  # 2+3: exactly 40 × 3, halved
        (60, 2, 0),  # 1+2: 60 < 80, kept whole
        (15, 1, 0),  # ¼+1: 15 < 40
        (45, 0, 22_500),  # ¾+0: half of 45 s, to the millisecond
    ],
)
def test_the_base_is_halved_unless_under_forty_increments(base, inc, cut):
    control = ClockRate(base, inc)
    assert offered(control)
    assert base_cut_ms(control) == cut
    b = boost(started(base, inc), B, at(1), moved=False)
    assert (b.side, b.base_cut_ms, b.increment_ms, b.reason) == (B, cut, inc * 1000, BOOST)


def test_no_boost_with_no_base_time_or_by_correspondence():
    for control in (ClockRate(0, 5), ClockRate(0, 0, days_per_move=2)):
        assert not offered(control)
        clock = Clock.new(ClockRate(control.base_seconds, control.increment_seconds, control.days_per_move))
        clock.start(T0)
        with pytest.raises(BoostNotOffered) as refused:
            boost(clock, W, at(1), moved=False)
        assert refused.value.slug == "boost-not-offered"
        assert isinstance(refused.value, Conflict)  # 409


def test_after_ones_first_move_refused_and_only_once():
    clock = started(180, 2)
    with pytest.raises(BoostTooLate):
        boost(clock, W, at(1), moved=True)
    with pytest.raises(AlreadyBoosted):
        boost(clock, W, at(1), moved=False, boosted=True)


def test_black_boosts_while_white_thinks_then_gets_no_increment_to_pay_with():
    clock = started(180, 2)
    b = boost(clock, B, at(5), moved=False)
    change = b.apply(clock, at(5))
    assert change == ClockChange(ChangeKind.ADJUSTED, at(5), BOOST, B, -90_000)
    assert clock.remaining == {W: 180_000, B: 90_000}
    assert boosted_sides([change]) == {B}


def test_white_boosts_on_its_own_time_before_moving():
    clock = started(180, 2)
    b = boost(clock, W, at(20), moved=False)
    b.apply(clock, at(20))
    assert clock.remaining_ms(W, at(20)) == 180_000 - 90_000 - 20_000
    assert clock.deadline == at(90)


def test_with_a_base_kept_whole_the_boost_is_still_recorded_with_its_reason():
    clock = started(60, 2)
    change = boost(clock, W, at(1), moved=False).apply(clock, at(1))
    assert (change.kind, change.reason, change.side, change.delta_ms) == (ChangeKind.ADJUSTED, BOOST, W, 0)
    assert clock.remaining_ms(W, at(1)) == 59_000
    assert boosted_sides(clock.collect_changes()) == {W}


def test_refused_rather_than_flagging_when_not_more_than_the_half_is_left():
    clock = started(180, 2)
    with pytest.raises(BoostUnaffordable):
        boost(clock, W, at(90), moved=False)  # 90 s left, the boost takes 90
    boost(clock, W, at(89), moved=False)  # 91 s left: allowed


def test_a_replay_finds_the_boost_in_the_history():
    clock = started(180, 2)
    boost(clock, B, at(3), moved=False).apply(clock, at(3))
    clock.press(W, at(4))
    history = clock.collect_changes()
    replayed = Clock.replay(clock.control, history)
    assert replayed.remaining == clock.remaining
    assert boosted_sides(history) == {B}
    assert boosted_sides([h for h in history if h.kind is not ChangeKind.ADJUSTED]) == frozenset()
