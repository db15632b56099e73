"""The group-playoff events repository's contract (``GroupPlayoffRepository``: an event's head row, its
roster and its state as one document), on SQL (SQLite, PostgreSQL) and in memory: what is stored reads
back, the event is locked and named by its system like every format, its events go out at commit, and a
change is kept only with its unit of work (commit, rollback, a failed savepoint)."""

from __future__ import annotations

import uuid

import pytest

from services.pairing.domain.group_playoff.tournament import GroupPlayoffTournament
from services.pairing.tests.contract.conftest import LATER, Backend, heading, roster
from shared.scoring import Outcome
from shared.vocabulary import Ruleset, System


def started(backend: Backend) -> GroupPlayoffTournament:
    t = GroupPlayoffTournament.start(
        heading(Ruleset.GROUP_PLAYOFF), roster(8), lot_seed=7, drawn_by=uuid.uuid4()
    )
    with backend.uow() as uow:
        uow.group_playoffs.add(t)
        uow.commit()
    return t


def first_game(t: GroupPlayoffTournament) -> uuid.UUID:
    return uuid.UUID(t.event.matches[0].games[0].id)


class TestGroupPlayoffRepository:
    def test_nothing_unknown_is_found(self, backend: Backend) -> None:
        nobody = uuid.uuid4()
        with backend.uow() as uow:
            assert uow.group_playoffs.get(nobody) is None
            assert uow.group_playoffs.get(nobody, lock=True) is None

    def test_an_event_reads_back_as_it_was_added_and_its_start_is_published(self, backend: Backend) -> None:
        t = started(backend)
        with backend.uow() as uow:
            assert uow.lock(t.id) is System.GROUP_PLAYOFF
            found = uow.group_playoffs.get(t.id, lock=True)
            assert found is not None and found is not t
            assert list(uow.group_playoffs.seen) == [found]
        assert (found.heading, found.players, found.completed) == (t.heading, t.players, False)
        assert found.to_dict() == t.to_dict()
        kinds = [kind for kind, _ in backend.published(t.id)]
        assert kinds.count("round.paired") == 1 and kinds.count("group_playoff.announced") == 2  # the groups

    def test_a_result_is_saved_and_published(self, backend: Backend) -> None:
        t = started(backend)
        before = len(backend.published(t.id))
        with backend.uow() as uow:
            found = uow.group_playoffs.get(t.id, lock=True)
            assert found is not None and found.record_result(first_game(found), Outcome.WHITE_WIN, LATER)
            uow.group_playoffs.save(found)
            uow.commit()
        with backend.uow() as uow:
            again = uow.group_playoffs.get(t.id)
        assert again is not None and again.to_dict() == found.to_dict() != t.to_dict()
        assert not again.record_result(first_game(again), Outcome.DRAW, LATER)  # recorded already
        assert len(backend.published(t.id)) == before  # a result in a group announces nothing yet

    def test_nothing_is_kept_without_commit_or_after_a_rollback(self, backend: Backend) -> None:
        never = GroupPlayoffTournament.start(
            heading(Ruleset.GROUP_PLAYOFF), roster(8), lot_seed=3, drawn_by=uuid.uuid4()
        )
        with backend.uow() as uow:
            uow.group_playoffs.add(never)
        t = started(backend)
        with backend.uow() as uow:
            found = uow.group_playoffs.get(t.id, lock=True)
            assert found is not None and found.withdraw(t.players[0].player_id, LATER)
            uow.group_playoffs.save(found)
            uow.rollback()
        assert backend.published(never.id) == []
        with backend.uow() as uow:
            assert uow.group_playoffs.get(never.id) is None and uow.lock(never.id) is None
            again = uow.group_playoffs.get(t.id)
        assert again is not None and again.to_dict() == t.to_dict()

    def test_a_failed_savepoint_takes_its_changes_and_events_with_it(self, backend: Backend) -> None:
        t = started(backend)
        before = backend.published(t.id)
        with backend.uow() as uow:
            with uow.savepoint():
                kept = uow.group_playoffs.get(t.id, lock=True)
                assert kept is not None and kept.record_result(first_game(kept), Outcome.DRAW, LATER)
                uow.group_playoffs.save(kept)
            with pytest.raises(RuntimeError), uow.savepoint():
                lost = uow.group_playoffs.get(t.id, lock=True)
                assert lost is not None and lost.withdraw(t.players[0].player_id, LATER)
                uow.group_playoffs.save(lost)
                raise RuntimeError("the handler failed")
            uow.commit()
        assert backend.published(t.id) == before  # the withdrawal's announcement went with it
        with backend.uow() as uow:
            again = uow.group_playoffs.get(t.id)
        assert again is not None and again.to_dict() == kept.to_dict()
