"""What a knockout's resets removed (shared.resets): the games named, the time that tells pairing's news
of an undone start from the next start's, and the record as JSON."""

from __future__ import annotations

import datetime as dt
import uuid

from shared.resets import Reset, Resets

AT = dt.datetime(2026, 6, 1, 12, tzinfo=dt.UTC)
A, B, C = (uuid.uuid4() for _ in range(3))


def test_no_reset_removes_nothing_and_undoes_nothing():
    none = Resets()
    assert not none and none.last_at is None
    assert not none.removed(A) and not none.undone(AT)


def test_the_games_of_every_reset_are_removed():
    resets = Resets().add(AT, [A]).add(AT + dt.timedelta(hours=1), [B])
    assert resets.removed(A) and resets.removed(B) and not resets.removed(C)
    assert resets.last_at == AT + dt.timedelta(hours=1)


def test_what_pairing_did_at_or_before_the_latest_reset_is_undone():
    resets = Resets().add(AT, [A]).add(AT + dt.timedelta(hours=1), [B])
    assert resets.undone(AT + dt.timedelta(hours=1)) and resets.undone(AT - dt.timedelta(days=1))
    assert not resets.undone(AT + dt.timedelta(hours=1, microseconds=1))


def test_a_reset_heard_again_adds_its_games_to_it():
    resets = Resets().add(AT, [A]).add(AT, [B])
    assert resets == Resets((Reset(AT, frozenset({A, B})),))


def test_resets_are_kept_in_the_order_they_were_made():
    later, earlier = AT + dt.timedelta(hours=2), AT
    resets = Resets().add(later, [A]).add(earlier, [B])
    assert [r.at for r in resets.resets] == [earlier, later] and resets.last_at == later


def test_the_json_round_trips():
    resets = Resets().add(AT, [A, B]).add(AT + dt.timedelta(minutes=5), [])
    assert Resets.from_json(resets.to_json()) == resets
    assert Resets.from_json(None) == Resets() == Resets.from_json([])
