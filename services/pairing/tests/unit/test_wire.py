"""Pairing's wire mapping: every domain event has its wire event, and pairing.round_due, pairing's own
event, keeps its routing key, version and JSON while staying out of the published schema."""

from __future__ import annotations

import inspect
import uuid

from services.pairing.adapters import wire
from services.pairing.domain import events as domain
from shared import events
from shared.aggregate import DomainEvent


def test_every_domain_event_has_a_wire_event():
    recorded = {
        cls
        for _, cls in inspect.getmembers(domain, inspect.isclass)
        if issubclass(cls, DomainEvent) and cls is not DomainEvent
    }
    assert wire.wire.kinds() == recorded


def test_round_due_is_internal_and_unchanged_on_the_wire():
    tid = uuid.uuid4()
    envelope = wire.wire.envelope(domain.RoundBecameDue(tid, 3))
    assert (envelope.type, envelope.version, envelope.tournament_id) == ("pairing.round_due", 1, tid)
    assert envelope.payload == {"tournament_id": str(tid), "round": 3}
    decoded_envelope, decoded = events.decode(events.encode(envelope))
    assert decoded == wire.RoundDue(tournament_id=tid, round=3) and decoded_envelope == envelope
    assert wire.RoundDue.INTERNAL
    assert ("pairing.round_due", 1) in events.registered()  # the worker decodes it
    assert not any(key.startswith("pairing.round_due") for key in events.schema_document())
