"""The arenas repository's contract (``ArenaRepository``: an arena, its entries and games, and who is
playing anywhere, the record a lost pool is rebuilt from), on SQL (SQLite, PostgreSQL) and in memory:
what is stored reads back, and it is kept only with its unit of work, whether that commits, rolls back or
fails in a savepoint."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest

from services.pairing.domain.arena.arena import Arena
from services.pairing.domain.arena.record import ACTIVE, LEFT, PAUSED, Entry, PlayedGame
from services.pairing.service_layer.arena_ports import NewGame
from services.pairing.tests.contract.conftest import LATER, NOW, Backend
from shared.arena_scoring import FinishedArenaGame
from shared.scoring import Outcome
from shared.time_control import RateOfPlay

MINUTE = dt.timedelta(minutes=1)


def an_arena(ends_at: dt.datetime = LATER) -> Arena:
    return Arena(uuid.uuid4(), uuid.uuid4(), "Arena", NOW, ends_at, RateOfPlay(60, 0))


def new_arena(backend: Backend, ends_at: dt.datetime = LATER) -> uuid.UUID:
    arena = an_arena(ends_at)
    with backend.uow() as uow:
        uow.arenas.add(arena)
        uow.commit()
    return arena.id


class TestArenaRepository:
    def test_an_arena_reads_back_as_it_was_added_and_saved(self, backend: Backend) -> None:
        arena = an_arena()
        with backend.uow() as uow:
            assert uow.arenas.get(arena.id) is None
            uow.arenas.add(arena)
            assert list(uow.arenas.seen) == [arena]
            uow.commit()
        with backend.uow() as uow:
            found = uow.arenas.get(arena.id, lock=True)
            assert found == arena and found is not arena
            assert list(uow.arenas.seen) == [found]
            assert found.complete(LATER, running=0)
            uow.arenas.save(found)
            uow.commit()
        published = [(kind, p["tournament_id"], p["completed_at"]) for kind, p in backend.published(arena.id)]
        assert published == [("tournament.completed", str(arena.id), "2026-06-01T14:00:00Z")]
        with backend.uow() as uow:
            again = uow.arenas.get(arena.id)
        assert again is not None and again.completed_at == LATER

    def test_the_open_arenas_soonest_end_first(self, backend: Backend) -> None:
        later = new_arena(backend, LATER + 2 * MINUTE)
        sooner = new_arena(backend, LATER + MINUTE)
        done = new_arena(backend, LATER + 3 * MINUTE)
        with backend.uow() as uow:
            arena = uow.arenas.get(done, lock=True)
            assert arena is not None and arena.complete(LATER + 3 * MINUTE, running=0)
            uow.arenas.save(arena)
            uow.commit()
        with backend.uow() as uow:
            found = [aid for aid in uow.arenas.open_ids() if aid in (later, sooner, done)]
        assert found == [sooner, later]

    def test_games_are_added_once_and_finished_with_their_result(self, backend: Backend) -> None:
        aid, other = new_arena(backend), new_arena(backend)
        a, b, c = (uuid.uuid4() for _ in range(3))
        first, second, third = (
            NewGame(uuid.uuid4(), a, b),
            NewGame(uuid.uuid4(), b, c),
            NewGame(uuid.uuid4(), c, a),
        )
        with backend.uow() as uow:
            assert uow.arenas.add_games(aid, [], NOW) == []
            assert uow.arenas.add_games(aid, [first, second], NOW) == [first, second]
            assert uow.arenas.add_games(aid, [second, third], NOW + MINUTE) == [
                third
            ]  # handed on twice: once
            assert uow.arenas.add_games(other, [NewGame(uuid.uuid4(), a, c)], NOW) != []
            uow.commit()
        with backend.uow() as uow:
            assert uow.arenas.running(aid) == 3
            assert uow.arenas.finish_game(uuid.uuid4(), Outcome.DRAW, (False, False), NOW) is None
            ended = NOW + 2 * MINUTE
            assert uow.arenas.finish_game(first.id, Outcome.WHITE_WIN, (True, False), ended) == (aid, first)
            assert uow.arenas.finish_game(second.id, Outcome.DRAW, (False, True), ended) == (aid, second)
            uow.commit()
        with backend.uow() as uow:
            assert uow.arenas.running(aid) == 1 and uow.arenas.running(other) == 1
            finished = uow.arenas.finished_games(aid, [a])
            assert finished == [FinishedArenaGame(first.id, a, b, Outcome.WHITE_WIN, ended, True, False)]
            assert sorted(uow.arenas.finished_games(aid, [b]), key=lambda g: g.outcome) == sorted(
                [finished[0], FinishedArenaGame(second.id, b, c, Outcome.DRAW, ended, False, True)],
                key=lambda g: g.outcome,
            )
            assert uow.arenas.finished_games(other, [a, b, c]) == []

    def test_nothing_of_an_arena_is_kept_without_commit_or_after_a_rollback(self, backend: Backend) -> None:
        aid = new_arena(backend)
        a, b = uuid.uuid4(), uuid.uuid4()
        game, playing = NewGame(uuid.uuid4(), a, b), uuid.uuid4()
        with backend.uow() as uow:
            uow.arenas.enter(aid, a, rating=1500, at=NOW)
            uow.arenas.add_games(aid, [game], NOW)
            uow.arenas.start_playing(b, playing)
            uow.commit()
        fresh = an_arena()
        with backend.uow() as uow:  # not committed
            uow.arenas.add(fresh)
            uow.arenas.enter(aid, b, rating=1600, at=NOW + MINUTE)
        with backend.uow() as uow:  # rolled back
            arena = uow.arenas.get(aid, lock=True)
            assert arena is not None and arena.complete(LATER, running=0)
            uow.arenas.save(arena)
            uow.arenas.away(aid, a, LEFT, at=NOW + MINUTE)
            uow.arenas.add_games(aid, [NewGame(uuid.uuid4(), b, a)], NOW + MINUTE)
            uow.arenas.finish_game(game.id, Outcome.BLACK_WIN, (False, False), NOW + MINUTE)
            uow.arenas.stop_playing(b, playing)
            uow.rollback()
        assert backend.published(aid) == [] and backend.published(fresh.id) == []
        with backend.uow() as uow:
            assert uow.arenas.get(fresh.id) is None
            arena = uow.arenas.get(aid)
            assert arena is not None and arena.completed_at is None
            assert uow.arenas.running(aid) == 1 and uow.arenas.finished_games(aid, [a, b]) == []
            record = uow.arenas.record(aid)
        assert record.entries == [Entry(a, ACTIVE, NOW, 1500)]
        assert record.games == [PlayedGame(game.id, a, b, NOW)]
        assert record.elsewhere == []  # b is not in the arena: their other game is not its business

    def test_a_failed_savepoint_takes_its_writes_and_events_with_it(self, backend: Backend) -> None:
        aid = new_arena(backend)
        a, b = uuid.uuid4(), uuid.uuid4()
        kept, lost = NewGame(uuid.uuid4(), a, b), NewGame(uuid.uuid4(), b, a)
        with backend.uow() as uow:
            with uow.savepoint():
                uow.arenas.enter(aid, a, rating=1500, at=NOW)
                uow.arenas.add_games(aid, [kept], NOW)
            with pytest.raises(RuntimeError), uow.savepoint():
                arena = uow.arenas.get(aid, lock=True)
                assert arena is not None and arena.complete(LATER, running=0)
                uow.arenas.save(arena)
                uow.arenas.enter(aid, b, rating=1600, at=NOW)
                uow.arenas.away(aid, a, PAUSED, at=NOW + MINUTE)
                uow.arenas.add_games(aid, [lost], NOW + MINUTE)
                uow.arenas.finish_game(kept.id, Outcome.DRAW, (False, False), NOW + MINUTE)
                uow.arenas.start_playing(a, lost.id)
                raise RuntimeError("the handler failed")
            uow.commit()
        assert backend.published(aid) == []
        with backend.uow() as uow:
            arena = uow.arenas.get(aid)
            assert arena is not None and arena.completed_at is None
            record = uow.arenas.record(aid)
        assert record.entries == [Entry(a, ACTIVE, NOW, 1500)]
        assert record.games == [PlayedGame(kept.id, a, b, NOW)]
        assert record.elsewhere == []

    def test_an_arena_keeps_who_is_in_it_since_when_and_who_paused_or_left(self, backend: Backend) -> None:
        aid = new_arena(backend)
        a, b, c = sorted((uuid.uuid4() for _ in range(3)), key=str)
        minute = dt.timedelta(minutes=1)
        with backend.uow() as uow:
            uow.arenas.enter(aid, a, rating=1500, at=NOW)
            uow.arenas.enter(aid, b, rating=1600, at=NOW)
            uow.arenas.away(aid, b, PAUSED, at=NOW + minute)
            uow.arenas.away(aid, c, LEFT, at=NOW + minute)  # sent away without having joined here
            uow.commit()
        with backend.uow() as uow:
            assert uow.arenas.record(aid).entries == [
                Entry(a, ACTIVE, NOW, 1500),
                Entry(b, PAUSED, NOW, 1600),
                Entry(c, LEFT, NOW + minute, None),
            ]
            uow.arenas.enter(aid, a, rating=1550, at=NOW + 2 * minute)  # joining while in: the time is kept
            uow.arenas.enter(aid, b, rating=1600, at=NOW + 3 * minute)  # back from the pause: in from now
            uow.commit()
        with backend.uow() as uow:
            entries = uow.arenas.record(aid).entries
        assert entries[:2] == [Entry(a, ACTIVE, NOW, 1550), Entry(b, ACTIVE, NOW + 3 * minute, 1600)]

    def test_an_arena_record_holds_its_games_and_the_games_its_players_are_in_elsewhere(
        self, backend: Backend
    ) -> None:
        aid, other = new_arena(backend), new_arena(backend)
        a, b, c, d, x = (uuid.uuid4() for _ in range(5))
        minute = dt.timedelta(minutes=1)
        first, second = NewGame(uuid.uuid4(), a, b), NewGame(uuid.uuid4(), b, a)
        there, swiss = NewGame(uuid.uuid4(), c, x), uuid.uuid4()
        with backend.uow() as uow:
            for p in (a, b, c, d):
                uow.arenas.enter(aid, p, rating=1500, at=NOW)
            uow.arenas.enter(other, c, rating=1500, at=NOW)
            uow.arenas.add_games(aid, [first], NOW + minute)
            uow.arenas.add_games(other, [there], NOW + minute)
            uow.arenas.finish_game(first.id, Outcome.WHITE_WIN, (True, False), NOW + 2 * minute)
            uow.arenas.add_games(aid, [second], NOW + 3 * minute)
            uow.arenas.start_playing(d, swiss)
            uow.arenas.start_playing(d, swiss)  # heard twice: once
            uow.arenas.start_playing(x, swiss)  # not in this arena
            uow.commit()
        with backend.uow() as uow:
            record = uow.arenas.record(aid)
            assert record.games == [
                PlayedGame(first.id, a, b, NOW + minute, Outcome.WHITE_WIN, NOW + 2 * minute, True, False),
                PlayedGame(second.id, b, a, NOW + 3 * minute),
            ]
            assert sorted(record.elsewhere, key=str) == sorted(
                [(d, swiss, None), (c, there.id, other)], key=str
            )
            uow.arenas.stop_playing(d, swiss)
            uow.arenas.stop_playing(d, uuid.uuid4())  # another game's end changes nothing
            uow.arenas.finish_game(there.id, Outcome.DRAW, (False, False), NOW + 4 * minute)
            uow.commit()
        with backend.uow() as uow:
            assert uow.arenas.record(aid).elsewhere == []
