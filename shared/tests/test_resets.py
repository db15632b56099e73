"""What a knockout's resets removed (shared.resets): the games named, the starts undone by number, the
time that tells a withdrawal of an undone start, and the record as JSON."""

from __future__ import annotations

import datetime as dt
import uuid

from shared.resets import Reset, Resets

AT = dt.datetime(2026, 6, 1, 12, tzinfo=dt.UTC)
A, B, C = (uuid.uuid4() for _ in range(3))


def test_no_reset_removes_nothing_and_undoes_nothing():
    none = Resets()
    assert not none and len(none) == 0 and none.last_at is None
    assert not none.removed(A) and not none.undone(0) and not none.before(AT)
    assert none.ahead(1) and not none.ahead(0)


def test_the_games_of_every_reset_are_removed():
    resets = Resets().add(AT, [A], 0).add(AT + dt.timedelta(hours=1), [B], 1)
    assert resets.removed(A) and resets.removed(B) and not resets.removed(C)
    assert resets.last_at == AT + dt.timedelta(hours=1)


def test_starts_are_told_by_their_number_whatever_the_time():
    resets = Resets().add(AT, [A], 0).add(AT, [B], 1)  # two resets at one instant (a fake clock)
    assert len(resets) == 2
    assert resets.undone(0) and resets.undone(1) and not resets.undone(2)
    assert not resets.ahead(2) and resets.ahead(3)


def test_a_reset_heard_again_adds_its_games_to_it():
    assert Resets().add(AT, [A], 0).add(AT, [B], 0) == Resets((Reset(AT, frozenset({A, B}), 0),))
    unnumbered = Resets().add(AT, [A]).add(AT, [B])  # a producer before starts were numbered: by time
    assert unnumbered == Resets((Reset(AT, frozenset({A, B})),))


def test_a_numbered_reset_is_heard_by_its_start():
    resets = Resets().add(AT, [A], 0)
    assert resets.heard(0, AT + dt.timedelta(days=1)) and not resets.heard(1, AT)
    assert not resets.heard(None, AT)


def test_only_what_came_strictly_before_the_latest_reset_is_before_it():
    resets = Resets().add(AT, [A], 0)
    assert resets.before(AT - dt.timedelta(microseconds=1)) and not resets.before(AT)


def test_the_json_round_trips():
    resets = Resets().add(AT, [A, B], 0).add(AT + dt.timedelta(minutes=5), [], None)
    assert Resets.from_json(resets.to_json()) == resets
    assert Resets.from_json(None) == Resets() == Resets.from_json([])
