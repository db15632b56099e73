"""The clock's arithmetic, worked by hand: Fischer increments, the flag exactly at the deadline, a late
move is a flag fall, correspondence deadlines, adjustments, and replay from the recorded changes."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from services.clocks.domain import errors
from services.clocks.domain.clock import ChangeKind, Clock, ClockRate, ClockState, Side

T0 = dt.datetime(2026, 6, 1, 12, 0, tzinfo=dt.UTC)
W, B = Side.WHITE, Side.BLACK


def at(seconds: float) -> dt.datetime:
    return T0 + dt.timedelta(seconds=seconds)


def started(base: int = 180, inc: int = 2, days: int | None = None) -> Clock:
    clock = Clock.new(ClockRate(base, inc, days))
    clock.start(T0)
    return clock


def test_white_runs_from_the_start():
    clock = started()
    assert clock.state is ClockState.RUNNING and clock.to_move is W
    assert clock.deadline == at(180)
    assert clock.remaining_ms(W, at(30)) == 150_000
    assert clock.remaining_ms(B, at(30)) == 180_000  # Black's clock does not run


def test_fischer_presses_charge_the_time_used_and_add_the_increment():
    clock = started(180, 2)
    clock.press(W, at(10))  # 180 − 10 + 2
    assert clock.remaining == {W: 172_000, B: 180_000}
    assert clock.to_move is B and clock.deadline == at(10 + 180)
    clock.press(B, at(40))  # 180 − 30 + 2
    assert clock.remaining == {W: 172_000, B: 152_000}
    assert clock.deadline == at(40 + 172)
    assert clock.remaining_ms(W, at(100)) == 112_000
    clock.press(W, at(100))  # 172 − 60 + 2
    assert clock.remaining[W] == 114_000 and clock.deadline == at(100 + 152)


def test_sudden_death_has_no_increment():
    clock = started(300, 0)
    clock.press(W, at(12))
    assert clock.remaining[W] == 288_000


def test_the_flag_is_down_exactly_at_the_deadline():
    clock = started(180, 2)
    clock.press(W, at(10))  # Black's deadline: 190 s
    assert clock.flag_fallen(at(189.999)) is None
    assert clock.flag_fallen(at(190)) is B
    assert clock.check_flag(at(189.999)) is None
    change = clock.check_flag(at(190))
    assert change is not None and change.kind is ChangeKind.FLAGGED and change.side is B
    assert clock.state is ClockState.STOPPED and clock.flagged is B and clock.remaining[B] == 0
    assert clock.deadline is None


def test_a_move_at_the_deadline_is_a_flag_fall_not_a_move():
    clock = started(180, 2)
    change = clock.press(W, at(180))
    assert change.kind is ChangeKind.FLAGGED and change.side is W and change.at == at(180)
    assert clock.flagged is W and clock.to_move is W


def test_a_late_move_is_recorded_as_the_flag_fall_at_the_deadline():
    clock = started(180, 2)
    clock.press(W, at(10))
    change = clock.press(B, at(500))  # Black's deadline was 190 s
    assert (change.kind, change.side, change.at, change.reason) == (ChangeKind.FLAGGED, B, at(190), "time")
    assert clock.remaining == {W: 172_000, B: 0}
    with pytest.raises(errors.ClockNotRunning):
        clock.press(W, at(501))


def test_the_last_millisecond_still_counts():
    clock = started(180, 0)
    clock.press(W, at(179.999))
    assert clock.remaining[W] == 1  # and Black to move


def test_partial_milliseconds_are_charged_to_the_mover():
    clock = started(180, 0)
    clock.press(W, T0 + dt.timedelta(seconds=10, microseconds=400))
    assert clock.remaining[W] == 169_999


def test_an_instant_before_the_turn_began_uses_no_time():
    clock = started(180, 2)
    clock.press(W, at(-1))  # another host's clock a second behind
    assert clock.remaining[W] == 182_000


def test_only_the_side_to_move_can_press():
    clock = started()
    with pytest.raises(errors.NotYourTurn):
        clock.press(B, at(1))
    clock.press(W, at(1))
    with pytest.raises(errors.NotYourTurn):
        clock.press(W, at(2))


def test_no_base_time_gives_the_first_move_one_increment():
    clock = started(0, 3)
    assert clock.remaining == {W: 3_000, B: 3_000}
    assert clock.deadline == at(3)
    clock.press(W, at(2))  # 3 − 2 + 3
    assert clock.remaining[W] == 4_000


def test_correspondence_gives_each_move_its_days():
    clock = started(0, 0, days=2)
    day = 86_400
    assert clock.deadline == at(2 * day)
    clock.press(W, at(1 * day))
    assert clock.deadline == at(3 * day)  # Black: two days from White's move
    clock.press(B, at(2 * day + 23 * 3600))  # Black used 1 day 23 h: no carry-over, no loss
    assert clock.deadline == at(4 * day + 23 * 3600)
    assert clock.remaining_ms(W, at(3 * day)) == (2 * day - 3600) * 1000  # an hour into its turn
    assert clock.remaining_ms(B, at(3 * day)) == 2 * day * 1000
    assert clock.flag_fallen(at(4 * day + 23 * 3600)) is W


def test_a_correspondence_move_after_its_deadline_loses():
    clock = started(0, 0, days=2)
    change = clock.press(W, at(2 * 86_400 + 1))
    assert change.kind is ChangeKind.FLAGGED and change.at == at(2 * 86_400)


def test_a_penalty_minute_for_the_opponent_does_not_move_the_deadline():
    clock = started(180, 2)
    change = clock.adjust(B, 60_000, "illegal_move_penalty", at(20))
    assert (change.kind, change.side, change.delta_ms, change.reason) == (
        ChangeKind.ADJUSTED,
        B,
        60_000,
        "illegal_move_penalty",
    )
    assert clock.remaining[B] == 240_000 and clock.deadline == at(180)


def test_time_given_to_the_side_to_move_moves_its_deadline():
    clock = started(180, 2)
    clock.adjust(W, 60_000, "arbiter", at(50))
    assert clock.deadline == at(240) and clock.remaining_ms(W, at(50)) == 190_000


def test_time_taken_never_goes_below_nothing_left_now():
    clock = started(180, 2)
    clock.adjust(W, -500_000, "arbiter", at(100))  # 80 s left: it is all taken, and no more
    assert clock.deadline == at(100)
    assert clock.flag_fallen(at(100)) is W


def test_the_waiting_side_cannot_go_below_zero():
    clock = started(180, 2)
    clock.adjust(B, -500_000, "arbiter", at(10))
    assert clock.remaining[B] == 0


def test_an_adjustment_after_the_flag_fell_records_the_flag():
    clock = started(180, 2)
    change = clock.adjust(B, 60_000, "illegal_move_penalty", at(200))
    assert change.kind is ChangeKind.FLAGGED and change.side is W


def test_stopping_freezes_the_time_of_the_side_to_move():
    clock = started(180, 2)
    clock.press(W, at(10))
    clock.stop(at(40), "resignation")
    assert clock.state is ClockState.STOPPED and clock.deadline is None
    assert clock.remaining_ms(B, at(4000)) == 150_000
    assert clock.flag_fallen(at(4000)) is None
    with pytest.raises(errors.ClockNotRunning):
        clock.stop(at(41), "again")


def test_a_stop_after_the_deadline_is_the_flag_fall():
    clock = started(180, 2)
    change = clock.stop(at(181), "agreement")
    assert change.kind is ChangeKind.FLAGGED and change.at == at(180)


def test_lifecycle_errors():
    clock = Clock.new(ClockRate(180, 2))
    with pytest.raises(errors.ClockNotRunning):
        clock.press(W, T0)
    assert clock.deadline is None and clock.flag_fallen(at(10**6)) is None
    clock.start(T0)
    with pytest.raises(errors.AlreadyStarted):
        clock.start(T0)


def test_every_change_is_recorded_with_its_reason():
    clock = started(180, 2)
    clock.press(W, at(5))
    clock.adjust(W, 60_000, "illegal_move_penalty", at(6))
    clock.check_flag(at(1000))
    assert [(c.kind, c.reason, c.side) for c in clock.changes] == [
        (ChangeKind.STARTED, "round_start", None),
        (ChangeKind.PRESSED, "move", W),
        (ChangeKind.ADJUSTED, "illegal_move_penalty", W),
        (ChangeKind.FLAGGED, "time", B),
    ]
    assert len(clock.collect_changes()) == 4 and clock.collect_changes() == []  # handed over once


@pytest.mark.parametrize(
    ("base", "inc", "days", "message"),
    [
        (0, 0, None, "needs base time or an increment"),
        (-1, 2, None, "base time must be"),
        (6 * 3600 + 1, 0, None, "base time must be"),
        (60, 601, None, "increment must be"),
        (0, 0, 0, "days per move must be 1–60"),
        (0, 0, 61, "days per move must be 1–60"),
    ],
)
def test_time_controls_are_validated(base, inc, days, message):
    with pytest.raises(errors.InvalidTimeControl, match=message):
        ClockRate(base, inc, days)


def test_labels():
    assert ClockRate(900, 10).label() == "15+10"
    assert ClockRate(0, 0, 2).label() == "2d/move"


operations = st.lists(
    st.tuples(
        st.sampled_from(["press", "press", "press", "adjust", "flag"]),
        st.integers(min_value=0, max_value=90_000_000),  # µs after the previous operation
        st.integers(min_value=-90_000, max_value=90_000),
        st.booleans(),
    ),
    max_size=40,
)


@settings(max_examples=60, deadline=None)  # a shared machine: no per-example time limit
@given(
    control=st.sampled_from([ClockRate(60, 0), ClockRate(180, 2), ClockRate(0, 1), ClockRate(0, 0, 1)]),
    ops=operations,
)
def test_replaying_the_changes_rebuilds_the_clock(control, ops):
    clock = Clock.new(control)
    now = T0
    clock.start(now)
    for name, gap, delta, white in ops:
        if not clock.running:
            break
        now += dt.timedelta(microseconds=gap)
        if name == "press":
            clock.press(clock.to_move or W, now)
        elif name == "adjust":
            clock.adjust(W if white else B, delta, "arbiter", now)
        else:
            clock.check_flag(now)
        assert all(v >= 0 for v in clock.remaining.values())
    assert Clock.replay(control, clock.changes) == clock
