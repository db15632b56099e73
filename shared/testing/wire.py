"""A domain event and its wire mapping for the shared tests of the unit of work, the outbox and the relay:
they record it as a service's aggregate would, and it goes out as ``round.completed``."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from shared import events
from shared.aggregate import DomainEvent
from shared.wire import WireMap


@dataclass(frozen=True)
class SampleRoundClosed(DomainEvent):
    tournament_id: uuid.UUID
    round: int


TEST_WIRE = WireMap()


@TEST_WIRE.maps(SampleRoundClosed)
def _round_completed(e: SampleRoundClosed) -> events.Event:
    return events.RoundCompleted(tournament_id=e.tournament_id, round=e.round)
