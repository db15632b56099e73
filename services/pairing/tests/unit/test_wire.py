"""Pairing's wire mapping: every domain event has its wire event, and pairing.round_due, pairing's own
event, keeps its routing key, version and JSON while staying out of the published schema."""

from __future__ import annotations

import datetime as dt
import inspect
import uuid

from services.pairing.adapters import wire
from services.pairing.domain import events as domain
from shared import events
from shared.aggregate import DomainEvent
from shared.authority import Decided, Role
from shared.scoring import Outcome
from shared.time_control import RateOfPlay
from shared.vocabulary import System


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


def test_the_decisions_reach_the_wire_with_who_decided():
    tid, game, white, black, by = (uuid.uuid4() for _ in range(5))
    at = dt.datetime(2026, 6, 1, 12, tzinfo=dt.UTC)
    decided = Decided(by, Role.ARBITER, at, "misread")
    decision = {"by": str(by), "role": "arbiter", "at": "2026-06-01T12:00:00Z", "reason": "misread"}
    corrected = wire.wire.envelope(
        domain.ResultCorrected(tid, game, 2, white, black, Outcome.WHITE_WIN, Outcome.DRAW, decided)
    )
    assert (corrected.type, corrected.tournament_id) == ("game.result_corrected", tid)
    assert corrected.payload == {
        "tournament_id": str(tid),
        "game_id": str(game),
        "round": 2,
        "white": str(white),
        "black": str(black),
        "old_outcome": "1-0",
        "outcome": "1/2-1/2",
        "decision": decision,
    }
    bye = wire.wire.envelope(domain.ByeRequested(tid, white, 3, decided))
    assert bye.type == "bye.requested"
    assert bye.payload == {
        "tournament_id": str(tid),
        "player_id": str(white),
        "round": 3,
        "kind": "zero_point",
        "decision": decision,
    }
    removed = uuid.uuid4()
    reset = wire.wire.envelope(domain.TournamentReset(tid, decided, (removed,), 1))
    assert (reset.type, reset.payload) == (
        "tournament.reset",
        {"tournament_id": str(tid), "decision": decision, "games": [str(removed)], "restarts": 1},
    )


def test_a_tie_break_game_is_announced_unrated():
    tc = RateOfPlay(600, 5)
    games = (
        domain.GameInRound(uuid.uuid4(), 1, uuid.uuid4(), uuid.uuid4(), match_id="winners:1:1", number=1),
        domain.GameInRound(
            uuid.uuid4(), 1, uuid.uuid4(), uuid.uuid4(), match_id="winners:1:1", number=3, rated=False
        ),
    )
    paired = domain.RoundPaired(uuid.uuid4(), uuid.uuid4(), 1, 2, System.KNOCKOUT, games, (), tc, False)
    envelope = wire.wire.envelope(paired)
    assert [g["rated"] for g in envelope.payload["games"]] == [True, False]
