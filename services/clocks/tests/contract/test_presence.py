"""The presence repository's contract (``PresenceRepository``: what the game server last reported of
each player), on SQL (SQLite, PostgreSQL) and in memory: the latest report stands, and a report is
kept only with its unit of work, whether it commits, rolls back or fails in a savepoint."""

from __future__ import annotations

import uuid

import pytest

from services.clocks.domain.presence import Presence
from services.clocks.tests.contract.conftest import Backend, at


class TestPresenceRepository:
    def test_nobody_reported_has_no_presence(self, backend: Backend):
        with backend.uow() as uow:
            assert uow.presence.of([uuid.uuid4(), uuid.uuid4()]) == {}
            assert uow.presence.of([]) == {}

    def test_the_latest_report_of_each_player_stands(self, backend: Backend):
        ann, bob, cid = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
        with backend.uow() as uow:
            uow.presence.report(ann, Presence.CONNECTED, at(0))
            uow.presence.report(bob, Presence.BUSY, at(1))
            assert uow.presence.of([ann, bob]) == {ann: Presence.CONNECTED, bob: Presence.BUSY}
            uow.commit()
        with backend.uow() as uow:
            uow.presence.report(ann, Presence.DISCONNECTED, at(5))
            uow.commit()
        with backend.uow() as uow:
            found = uow.presence.of([ann, bob, cid, ann])
        assert found == {ann: Presence.DISCONNECTED, bob: Presence.BUSY}

    def test_a_report_not_committed_or_rolled_back_is_not_kept(self, backend: Backend):
        ann, bob = uuid.uuid4(), uuid.uuid4()
        with backend.uow() as uow:
            uow.presence.report(ann, Presence.CONNECTED, at(0))
            uow.commit()
        with backend.uow() as uow:
            uow.presence.report(ann, Presence.BUSY, at(1))
            uow.presence.report(bob, Presence.BUSY, at(1))
        with backend.uow() as uow:
            uow.presence.report(bob, Presence.CONNECTED, at(2))
            uow.rollback()
        with backend.uow() as uow:
            assert uow.presence.of([ann, bob]) == {ann: Presence.CONNECTED}

    def test_a_failed_savepoint_takes_its_reports_with_it(self, backend: Backend):
        ann, bob = uuid.uuid4(), uuid.uuid4()
        with backend.uow() as uow:
            with uow.savepoint():
                uow.presence.report(ann, Presence.CONNECTED, at(0))
            with pytest.raises(RuntimeError), uow.savepoint():
                uow.presence.report(ann, Presence.BUSY, at(1))
                uow.presence.report(bob, Presence.BUSY, at(1))
                raise RuntimeError("the handler failed")
            assert uow.presence.of([ann, bob]) == {ann: Presence.CONNECTED}
            uow.commit()
        with backend.uow() as uow:
            assert uow.presence.of([ann, bob]) == {ann: Presence.CONNECTED}
