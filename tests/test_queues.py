"""The queues operators' tools go through are the queues the services consume."""

from __future__ import annotations

from services.clocks.adapters.deadlines import InMemoryDeadlineStore
from services.clocks.bootstrap import bootstrap as clocks
from services.pairing.bootstrap import bootstrap as pairing
from services.registration.bootstrap import bootstrap as registration
from services.standings.bootstrap import bootstrap as standings
from shared.messaging.inprocess import InProcessBroker
from shared.messaging.queues import QUEUES


def test_every_consumed_queue_is_listed_under_its_service():
    built = {
        "registration": registration(broker=InProcessBroker()),
        "pairing": pairing(broker=InProcessBroker()),
        "clocks": clocks(broker=InProcessBroker(), deadlines=InMemoryDeadlineStore()),
        "standings": standings(broker=InProcessBroker()),
    }
    for service, svc in built.items():
        subscriptions = [*svc.subscriptions, *getattr(svc, "worker_subscriptions", [])]
        assert sorted(s.queue for s in subscriptions) == sorted(QUEUES[service]), service
