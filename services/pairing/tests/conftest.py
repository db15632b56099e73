from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Iterator

import pytest

from services.pairing.bootstrap import Pairing, bootstrap
from services.pairing.config import PairingSettings
from shared import events
from shared.events import GameOutcome
from shared.messaging.inprocess import InProcessBroker
from shared.timesource import FakeClock

NOW = dt.datetime(2026, 6, 1, 12, 0, tzinfo=dt.UTC)


@pytest.fixture
def svc(tmp_path) -> Iterator[Pairing]:
    broker = InProcessBroker()
    settings = PairingSettings(ARBITER_PAIRING_DATABASE_URL=f"sqlite:///{tmp_path / 'pairing.sqlite'}")
    service = bootstrap(settings, broker=broker, clock=FakeClock(NOW), migrate=True, relay_on_commit=True)
    broker.subscribe(service.subscriptions + service.worker_subscriptions)
    broker.declare([events_sink()])
    yield service
    service.engine.dispose()


def events_sink():
    from shared.messaging.port import Subscription

    return Subscription("test.everything", ("#",), lambda env, ev: None)


def started(n: int, *, threshold: int = 7, double_rounds: bool = False, extra_round: bool = False):
    tid = uuid.uuid4()
    roster = [
        events.RosterEntry(seed=i, player_id=uuid.uuid4(), name=f"P{i}", rating=2000 - 10 * i)
        for i in range(1, n + 1)
    ]
    return events.TournamentStarted(
        tournament_id=tid,
        organiser_id=uuid.uuid4(),
        name="Test",
        started_at=NOW,
        settings=events.TournamentSettings(
            threshold=threshold,
            double_rounds=double_rounds,
            extra_round=extra_round,
            time_control=events.TimeControl(base_seconds=180, increment_seconds=2),
        ),
        roster=roster,
    )


def deliver(svc: Pairing, event: events.Event, tournament_id: uuid.UUID) -> events.Envelope:
    env = events.wrap(event, tournament_id)
    svc.broker.publish([env])
    svc.broker.run_until_idle()  # type: ignore[attr-defined]
    return env


def published(svc: Pairing, kind: str) -> list[events.Envelope]:
    return [e for e in svc.broker.published if e.type == kind]  # type: ignore[attr-defined]


def finish(
    round_event: events.Envelope, outcome_for=lambda game: GameOutcome.WHITE_WIN
) -> list[events.GameFinished]:
    rp = events.RoundPaired.model_validate(round_event.payload)
    return [
        events.GameFinished(
            tournament_id=rp.tournament_id,
            game_id=g.game_id,
            round=rp.round,
            white=g.white,
            black=g.black,
            outcome=outcome_for(g),
            reason="reported",
            moves=30,
            finished_at=NOW,
        )
        for g in rp.games
    ]
