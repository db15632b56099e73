"""Every queue Arbiter consumes, by service: what operators' tools (``arbiter dlq``) and tests go
through, without importing the services. Each is ``<service>.<handler>``, with its ``<queue>.dead``
and ``<queue>.later`` (see :mod:`shared.messaging.rabbitmq`). A test holds this list to the
subscriptions the services' composition roots build."""

from __future__ import annotations

QUEUES: dict[str, tuple[str, ...]] = {
    "registration": (
        "registration.tournament_completed",
        "registration.tournament_reset",
        "registration.round_paired",
        "registration.ratings",
        "registration.absence_unexcused",
        "registration.audit",
    ),
    "pairing": (
        "pairing.tournament_started",
        "pairing.game_finished",
        "pairing.player_withdrawn",
        "pairing.player_joined",
        "pairing.arbiters",
        "pairing.colours_swapped",
        "pairing.arena",
        "pairing.playing",
        "pairing.round_due",
    ),
    "clocks": (
        "clocks.round_paired",
        "clocks.round_published",
        "clocks.match_decided",
        "clocks.tournament_completed",
        "clocks.tournament_started",
        "clocks.arbiters",
        "clocks.player_withdrawn",
        "clocks.result_corrected",
        "clocks.group_playoff_lots",
    ),
    "standings": (
        "standings.tournament_started",
        "standings.tournament_reset",
        "standings.player_joined",
        "standings.player_withdrawn",
        "standings.round_paired",
        "standings.round_published",
        "standings.game_colours_swapped",
        "standings.game_finished",
        "standings.game_result_corrected",
        "standings.game_penalised",
        "standings.game_cancelled",
        "standings.match_decided",
        "standings.tournament_completed",
        "standings.next_round",
        "standings.arena",
        "standings.announced",
        "standings.group_playoff",
    ),
}


def all_queues() -> tuple[str, ...]:
    return tuple(q for queues in QUEUES.values() for q in queues)


def dead_letter_queue(queue: str) -> str:
    return f"{queue}.dead"
