"""The announced tournaments repository's contract (``AnnouncedRepository``: a tournament announced before
its start, and its entries), on SQL (SQLite, PostgreSQL) and in memory: what is stored reads back,
nothing of it goes on the bus, and a change is kept only with its unit of work (commit, rollback, a
failed savepoint)."""

from __future__ import annotations

import dataclasses
import uuid

import pytest

from services.standings.domain.announced import AnnouncedTournament, Entrant
from services.standings.tests.contract.conftest import LATER, Backend
from shared.time_control import RateOfPlay
from shared.vocabulary import Ruleset


def announced_tournament() -> AnnouncedTournament:
    return AnnouncedTournament(
        id=uuid.uuid4(),
        name="Autumn open",
        starts_at=LATER,
        ruleset=Ruleset.PLATFORM,
        variant="chess960",
        time_control=RateOfPlay(300, 3),
        rated=False,
        seats=16,
    )


class TestAnnouncedRepository:
    def test_an_announced_tournament_and_its_entries_read_back(self, backend: Backend) -> None:
        announced = AnnouncedTournament(
            id=uuid.uuid4(),
            name="Autumn open",
            starts_at=LATER,
            ruleset=Ruleset.PLATFORM,
            variant="chess960",
            time_control=RateOfPlay(300, 3),
            rated=False,
            seats=16,
        )
        with backend.uow() as uow:
            uow.announced.add(announced)
            uow.commit()
        ann, bob = uuid.uuid4(), uuid.uuid4()
        with backend.uow() as uow:
            found = uow.announced.get(announced.id, lock=True)
            found.enter(Entrant(ann, "Ann", 1900))
            found.enter(Entrant(bob, "Bob", None, "FM", "SUI"))
            uow.announced.save(found)
            uow.commit()
        with backend.uow() as uow:
            found = uow.announced.get(announced.id)
            assert found == dataclasses.replace(
                announced,
                entries={ann: Entrant(ann, "Ann", 1900), bob: Entrant(bob, "Bob", None, "FM", "SUI")},
            )
            assert [e.name for e in found.by_rating()] == ["Ann", "Bob"]
            found.leave(ann)
            found.cancel("cancelled by the organiser")
            uow.announced.save(found)
            uow.commit()
        with backend.uow() as uow:
            found = uow.announced.get(announced.id)
            assert (list(found.entries), found.cancelled, found.upcoming) == (
                [bob],
                "cancelled by the organiser",
                False,
            )
            found.enter(Entrant(ann, "Ann", 1900))  # cancelled: nothing changes any more
            assert not found.take_changes()
            assert uow.announced.get(uuid.uuid4()) is None
        assert backend.published() == []  # nothing of it goes on the bus

    def test_nothing_is_kept_without_commit_or_after_a_rollback(self, backend: Backend) -> None:
        kept, never = announced_tournament(), announced_tournament()
        ann, bob = uuid.uuid4(), uuid.uuid4()
        with backend.uow() as uow:
            kept.enter(Entrant(ann, "Ann", 1900))
            uow.announced.add(kept)
            uow.commit()
        with backend.uow() as uow:  # not committed
            uow.announced.add(never)
        with backend.uow() as uow:  # rolled back
            found = uow.announced.get(kept.id, lock=True)
            assert found is not None
            found.enter(Entrant(bob, "Bob", 2000))
            found.cancel("cancelled by the organiser")
            uow.announced.save(found)
            uow.rollback()
        with backend.uow() as uow:
            assert uow.announced.get(never.id) is None
            again = uow.announced.get(kept.id)
        assert again is not None and (list(again.entries), again.cancelled) == ([ann], None)

    def test_a_failed_savepoint_takes_its_writes_with_it(self, backend: Backend) -> None:
        t, lost = announced_tournament(), announced_tournament()
        ann, bob = uuid.uuid4(), uuid.uuid4()
        with backend.uow() as uow:
            with uow.savepoint():
                t.enter(Entrant(ann, "Ann", 1900))
                uow.announced.add(t)
            with pytest.raises(RuntimeError), uow.savepoint():
                found = uow.announced.get(t.id, lock=True)
                assert found is not None
                found.enter(Entrant(bob, "Bob", 2000))
                uow.announced.save(found)
                uow.announced.add(lost)
                raise RuntimeError("the handler failed")
            uow.commit()
        with backend.uow() as uow:
            assert uow.announced.get(lost.id) is None
            again = uow.announced.get(t.id)
        assert again is not None and list(again.entries) == [ann]
