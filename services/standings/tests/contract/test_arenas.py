"""The arena standings repository's contract (``ArenaRepository``: an arena's players, its running and
finished games, and its completion), on SQL (SQLite, PostgreSQL) and in memory: what is stored reads back
and ranks the same, the final table goes out at commit, and a change is kept only with its unit of work
(commit, rollback, a failed savepoint)."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest

from services.standings.domain.arena_standings import ArenaPlayer, ArenaStandings, RunningGame
from services.standings.tests.contract.conftest import LATER, NOW, Backend
from shared.arena_scoring import FinishedArenaGame
from shared.scoring import Outcome

MINUTE = dt.timedelta(minutes=1)


def an_arena() -> ArenaStandings:
    return ArenaStandings(uuid.uuid4(), "Hourly blitz", NOW, LATER)


def state(a: ArenaStandings) -> tuple[object, ...]:
    return (a.id, a.name, a.started_at, a.ends_at, a.completed_at, a.players, a.running, a.finished)


class TestArenaRepository:
    def test_an_arena_reads_back_through_every_change(self, backend: Backend) -> None:
        arena = an_arena()
        ann, bob, cid = (
            ArenaPlayer(uuid.uuid4(), name, rating)
            for name, rating in (("Ann", 1800), ("Bob", None), ("Cid", 1500))
        )
        first, second = uuid.uuid4(), uuid.uuid4()
        with backend.uow() as uow:
            assert uow.arenas.get(arena.id) is None
            arena.enter(ann)
            arena.enter(bob)
            uow.arenas.add(arena)
            assert list(uow.arenas.seen) == [arena]
            uow.commit()
        with backend.uow() as uow:
            found = uow.arenas.get(arena.id, lock=True)
            assert found is not None and found is not arena and state(found) == state(arena)
            found.enter(cid)
            found.paired([RunningGame(first, ann.id, bob.id, NOW), RunningGame(second, cid.id, ann.id, NOW)])
            uow.arenas.save(found)
            uow.commit()
        with backend.uow() as uow:
            found = uow.arenas.get(arena.id, lock=True)
            assert found is not None and set(found.running) == {first, second}
            assert found.record_game(
                FinishedArenaGame(first, ann.id, bob.id, Outcome.WHITE_WIN, NOW + MINUTE, True, False)
            )
            assert found.record_game(FinishedArenaGame(second, cid.id, ann.id, Outcome.DRAW, NOW + MINUTE))
            assert found.complete(LATER)
            uow.arenas.save(found)
            uow.commit()
        with backend.uow() as uow:
            again = uow.arenas.get(arena.id)
        assert again is not None and state(again) == state(found) and again.completed_at == LATER
        assert again.running == {} and again.ranking() == found.ranking()
        final = [p for kind, p in backend.published() if kind == "standings.final"]
        assert [(p["tournament_id"], [r["player_id"] for r in p["rows"]]) for p in final] == [
            (str(arena.id), [str(r.player) for r in found.ranking()])
        ]

    def test_nothing_is_kept_without_commit_or_after_a_rollback(self, backend: Backend) -> None:
        kept, never = an_arena(), an_arena()
        ann, bob = ArenaPlayer(uuid.uuid4(), "Ann", 1800), ArenaPlayer(uuid.uuid4(), "Bob", 1700)
        game = uuid.uuid4()
        with backend.uow() as uow:
            kept.enter(ann)
            kept.paired([RunningGame(game, ann.id, bob.id, NOW)])
            uow.arenas.add(kept)
            uow.commit()
        with backend.uow() as uow:  # not committed
            uow.arenas.add(never)
        with backend.uow() as uow:  # rolled back
            found = uow.arenas.get(kept.id, lock=True)
            assert found is not None
            found.enter(bob)
            found.record_game(FinishedArenaGame(game, ann.id, bob.id, Outcome.BLACK_WIN, NOW + MINUTE))
            found.complete(LATER)
            uow.arenas.save(found)
            uow.rollback()
        assert backend.published() == []
        with backend.uow() as uow:
            assert uow.arenas.get(never.id) is None
            again = uow.arenas.get(kept.id)
        assert again is not None and state(again) == state(kept)

    def test_a_failed_savepoint_takes_its_writes_and_events_with_it(self, backend: Backend) -> None:
        arena = an_arena()
        ann, bob = ArenaPlayer(uuid.uuid4(), "Ann", 1800), ArenaPlayer(uuid.uuid4(), "Bob", 1700)
        game = uuid.uuid4()
        with backend.uow() as uow:
            with uow.savepoint():
                arena.enter(ann)
                arena.paired([RunningGame(game, ann.id, bob.id, NOW)])
                uow.arenas.add(arena)
            with pytest.raises(RuntimeError), uow.savepoint():
                found = uow.arenas.get(arena.id, lock=True)
                assert found is not None
                found.enter(bob)
                found.record_game(FinishedArenaGame(game, ann.id, bob.id, Outcome.DRAW, NOW + MINUTE))
                found.complete(LATER)
                uow.arenas.save(found)
                raise RuntimeError("the handler failed")
            uow.commit()
        assert backend.published() == []
        with backend.uow() as uow:
            again = uow.arenas.get(arena.id)
        assert again is not None and state(again) == state(arena)
