"""The closing rule: no new arena game once less than base + 40 × increment is left before the end."""

from __future__ import annotations

import datetime as dt

import pytest

from services.pairing.domain.arena.closing import (
    NoArenaTimeControl,
    expected_duration,
    pairing_closes_at,
    pairing_open,
)
from shared.time_control import RateOfPlay

END = dt.datetime(2026, 6, 1, 14, 0, tzinfo=dt.UTC)
S = dt.timedelta(seconds=1)


@pytest.mark.parametrize(
    ("base", "increment", "seconds"),
    [(60, 0, 60), (180, 2, 260), (300, 3, 420), (0, 5, 200), (900, 10, 1300), (3 * 3600, 0, 3 * 3600)],
)
def test_a_game_is_expected_to_last_base_plus_forty_increments(base, increment, seconds):
    assert expected_duration(RateOfPlay(base, increment)) == seconds * S


def test_pairing_closes_that_long_before_the_end_and_stays_closed():
    control = RateOfPlay(180, 2)  # 3+2: 260 s
    closes = pairing_closes_at(END, control)
    assert closes == END - 260 * S
    assert pairing_open(closes - S, END, control)
    assert not pairing_open(closes, END, control)
    assert not pairing_open(END, END, control)
    assert not pairing_open(END + S, END, control)


def test_correspondence_has_no_arena():
    with pytest.raises(NoArenaTimeControl):
        expected_duration(RateOfPlay(0, 0, days_per_move=3))
