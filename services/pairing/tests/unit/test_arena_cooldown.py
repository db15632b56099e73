"""Rematch cooldowns (RULES.md §3): 5 minutes per game already played together, no cap, from the end of
the last game together."""

from __future__ import annotations

import datetime as dt

import pytest

from services.pairing.domain.arena.cooldown import PER_GAME_MS, Meeting, cooldown, ends_ms

T = dt.datetime(2026, 6, 1, 12, 0, tzinfo=dt.UTC)
MIN = dt.timedelta(minutes=1)


@pytest.mark.parametrize(("games", "minutes"), [(0, 0), (1, 5), (2, 10), (3, 15), (12, 60), (40, 200)])
def test_five_minutes_per_game_together_without_cap(games, minutes):
    assert cooldown(games) == minutes * MIN


def test_counted_from_the_end_of_the_last_game_and_over_exactly_at_its_end():
    meeting = Meeting(2, last_ended_at=T)
    assert meeting.ends == T + 10 * MIN
    assert meeting.active(T)
    assert meeting.active(T + 10 * MIN - dt.timedelta(microseconds=1))
    assert not meeting.active(T + 10 * MIN)


def test_one_more_game_lengthens_the_cooldown_from_its_own_end():
    first = Meeting(1, T)
    second = first.after(T + 7 * MIN)
    assert second == Meeting(2, T + 7 * MIN)
    assert second.ends == T + 17 * MIN


def test_the_millisecond_form_is_the_same_rule():
    epoch_ms = 1_780_000_000_000
    assert ends_ms(3, epoch_ms) == epoch_ms + 3 * PER_GAME_MS
    assert cooldown(1) // dt.timedelta(milliseconds=1) == PER_GAME_MS


def test_no_meeting_without_a_game():
    with pytest.raises(ValueError):
        Meeting(0, T)
    with pytest.raises(ValueError):
        cooldown(-1)
