"""Envelopes routed as their producers publish them, for tests that publish other services' events."""

from __future__ import annotations

import uuid

from shared.events import (
    Envelope,
    GameFinished,
    PlayerJoined,
    PlayerLeft,
    TournamentScheduled,
    TournamentStarted,
    payload_of,
)


class AsRegistration:
    """Qualifies routing keys as registration does (``shared.events.QUALIFIERS``): an arena's start and
    entries go as ``….arena``. It learns the arenas from their ``tournament.scheduled`` or start."""

    def __init__(self) -> None:
        self.arenas: set[uuid.UUID] = set()

    def __call__(self, envelope: Envelope) -> Envelope:
        event = payload_of(envelope)
        if isinstance(event, TournamentScheduled | TournamentStarted) and event.settings.arena is not None:
            self.arenas.add(event.tournament_id)
            if isinstance(event, TournamentStarted):
                return envelope.qualified("arena")
        if isinstance(event, PlayerJoined | PlayerLeft) and event.tournament_id in self.arenas:
            return envelope.qualified("arena")
        return envelope


def as_clocks(envelope: Envelope) -> Envelope:
    """Qualified as clocks publishes it: a ``game.finished`` someone entered as ``game.finished.decided``."""
    event = payload_of(envelope)
    if isinstance(event, GameFinished) and event.decision is not None:
        return envelope.qualified("decided")
    return envelope
