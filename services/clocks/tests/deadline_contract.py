"""One contract for every DeadlineStore adapter: subclass it with a ``store`` fixture."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest

T = dt.datetime(2026, 6, 1, 12, 0, tzinfo=dt.UTC)
MS = dt.timedelta(milliseconds=1)


def at(seconds: float) -> dt.datetime:
    return T + dt.timedelta(seconds=seconds)


class DeadlineStoreContract:
    @pytest.fixture
    def store(self):
        raise NotImplementedError

    def test_a_scheduled_deadline_is_kept(self, store):
        game = uuid.uuid4()
        store.schedule({game: at(180)})
        assert store.deadline_of(game) == at(180)
        assert store.deadline_of(uuid.uuid4()) is None

    def test_due_exactly_at_the_deadline_and_not_a_millisecond_before(self, store):
        game = uuid.uuid4()
        store.schedule({game: at(180)})
        assert store.due(at(180) - MS) == []
        assert store.due(at(180)) == [game]

    def test_a_deadline_between_milliseconds_is_due_only_after_it(self, store):
        game = uuid.uuid4()
        deadline = at(10) + dt.timedelta(microseconds=400)
        store.schedule({game: deadline})
        assert store.due(deadline) == []  # rounded up, never early
        assert store.due(at(10) + MS) == [game]
        assert store.deadline_of(game) == at(10) + MS

    def test_due_games_come_earliest_first_up_to_the_limit(self, store):
        games = [uuid.uuid4() for _ in range(5)]
        store.schedule({g: at(100 - i) for i, g in enumerate(games)})
        assert store.due(at(1000)) == list(reversed(games))
        assert store.due(at(1000), limit=2) == [games[4], games[3]]
        assert store.due(at(98)) == [games[4], games[3], games[2]]

    def test_rescheduling_moves_the_one_entry(self, store):
        game = uuid.uuid4()
        store.schedule({game: at(10)})
        store.schedule({game: at(50)})
        assert store.due(at(40)) == []
        assert store.due(at(60)) == [game]
        assert store.deadline_of(game) == at(50)

    def test_due_does_not_take_the_entries(self, store):
        game = uuid.uuid4()
        store.schedule({game: at(10)})
        assert store.due(at(20)) == [game]
        assert store.due(at(20)) == [game]

    def test_cancel_forgets_and_ignores_the_unknown(self, store):
        kept, gone = uuid.uuid4(), uuid.uuid4()
        store.schedule({kept: at(10), gone: at(5)})
        store.cancel([gone, uuid.uuid4()])
        store.cancel([])
        store.schedule({})
        assert store.due(at(20)) == [kept]
        assert store.deadline_of(gone) is None

    def test_far_deadlines_keep_their_millisecond(self, store):
        game = uuid.uuid4()
        deadline = at(60 * 86_400) + 7 * MS  # correspondence: sixty days
        store.schedule({game: deadline})
        assert store.deadline_of(game) == deadline

    def test_ping(self, store):
        store.ping()
