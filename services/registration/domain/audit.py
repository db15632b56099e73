"""The audit log of a tournament: every decision taken in it, who took it, in what capacity, when and
why (the results-authority issue, RULES.md §5 "Authority").

Registration keeps the log. Its own decisions (appointments, revocations, withdrawals, exclusions,
the seeding draw) are recorded by the tournament as it takes them; the decisions of the other services
(results entered, corrections, colour swaps, requested byes, a reset to draft) arrive as events and are
written as they are heard. An entry never changes once written.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from shared.authority import Decided, Role


class AuditKind(StrEnum):
    ARBITER_APPOINTED = "arbiter_appointed"
    ARBITER_REVOKED = "arbiter_revoked"
    PLAYER_WITHDRAWN = "player_withdrawn"
    PLAYER_EXCLUDED = "player_excluded"
    SEEDING_DRAWN = "seeding_drawn"
    RESULT_ENTERED = "result_entered"
    RESULT_CORRECTED = "result_corrected"
    COLOURS_SWAPPED = "colours_swapped"
    BYE_REQUESTED = "bye_requested"
    BYE_TAKEN_BACK = "bye_taken_back"
    TOURNAMENT_RESET = "tournament_reset"
    # fide-rapid: the roster its officials keep, the start, absences and penalties
    PLAYER_ADDED = "player_added"
    PLAYERS_IMPORTED = "players_imported"
    PLAYER_CHANGED = "player_changed"
    PLAYER_REMOVED = "player_removed"
    ENTRY_CONFIRMED = "entry_confirmed"
    TOURNAMENT_STARTED = "tournament_started"
    ABSENCE_EXCUSED = "absence_excused"
    GAME_PENALISED = "game_penalised"


class SubjectKind(StrEnum):
    """What a decision is about."""

    PLAYER = "player"
    ARBITER = "arbiter"
    GAME = "game"
    ROUND = "round"
    TOURNAMENT = "tournament"


@dataclass(frozen=True)
class Subject:
    kind: SubjectKind
    id: uuid.UUID | None = None  # the player, arbiter, game or tournament
    round: int | None = None  # a game's round, the round of a bye


@dataclass(frozen=True)
class AuditEntry:
    tournament_id: uuid.UUID
    at: dt.datetime
    by: uuid.UUID
    role: Role
    kind: AuditKind
    subject: Subject
    detail: str
    reason: str | None = None

    @classmethod
    def of(
        cls, tournament_id: uuid.UUID, decided: Decided, kind: AuditKind, subject: Subject, detail: str
    ) -> AuditEntry:
        return cls(tournament_id, decided.at, decided.by, decided.role, kind, subject, detail, decided.reason)


def in_time_order(entries: Iterable[AuditEntry]) -> list[AuditEntry]:
    """By the time of each decision; decisions of the same instant in the order they were written."""
    return sorted(entries, key=lambda e: e.at)


# -- the decisions registration hears of ------------------------------------------------------------
def result_entered(
    tournament_id: uuid.UUID,
    game_id: uuid.UUID,
    round_no: int,
    outcome: str,
    how: str,
    decided: Decided,
) -> AuditEntry:
    """A result entered (or confirmed) by someone, not played out on the server's clock alone."""
    return AuditEntry.of(
        tournament_id,
        decided,
        AuditKind.RESULT_ENTERED,
        Subject(SubjectKind.GAME, game_id, round_no),
        f"result {outcome} ({how})" if how else f"result {outcome}",
    )


def result_corrected(
    tournament_id: uuid.UUID,
    game_id: uuid.UUID,
    round_no: int,
    old_outcome: str,
    outcome: str,
    decided: Decided,
) -> AuditEntry:
    return AuditEntry.of(
        tournament_id,
        decided,
        AuditKind.RESULT_CORRECTED,
        Subject(SubjectKind.GAME, game_id, round_no),
        f"result corrected from {old_outcome} to {outcome}",
    )


def colours_swapped(
    tournament_id: uuid.UUID,
    game_id: uuid.UUID,
    round_no: int,
    white: uuid.UUID,
    black: uuid.UUID,
    decided: Decided,
) -> AuditEntry:
    return AuditEntry.of(
        tournament_id,
        decided,
        AuditKind.COLOURS_SWAPPED,
        Subject(SubjectKind.GAME, game_id, round_no),
        f"colours swapped: white {white}, black {black}",
    )


def bye_requested(
    tournament_id: uuid.UUID, player_id: uuid.UUID, round_no: int, kind: str, decided: Decided
) -> AuditEntry:
    return AuditEntry.of(
        tournament_id,
        decided,
        AuditKind.BYE_REQUESTED,
        Subject(SubjectKind.PLAYER, player_id, round_no),
        f"{kind.replace('_', '-')} bye in round {round_no}",
    )


def bye_taken_back(
    tournament_id: uuid.UUID, player_id: uuid.UUID, round_no: int, decided: Decided
) -> AuditEntry:
    return AuditEntry.of(
        tournament_id,
        decided,
        AuditKind.BYE_TAKEN_BACK,
        Subject(SubjectKind.PLAYER, player_id, round_no),
        f"bye in round {round_no} taken back",
    )


def tournament_reset(tournament_id: uuid.UUID, decided: Decided) -> AuditEntry:
    return AuditEntry.of(
        tournament_id,
        decided,
        AuditKind.TOURNAMENT_RESET,
        Subject(SubjectKind.TOURNAMENT, tournament_id),
        "reset to its draft: round 1 undone",
    )


def absence_excused(
    tournament_id: uuid.UUID, player_id: uuid.UUID, round_no: int, decided: Decided
) -> AuditEntry:
    return AuditEntry.of(
        tournament_id,
        decided,
        AuditKind.ABSENCE_EXCUSED,
        Subject(SubjectKind.PLAYER, player_id, round_no),
        f"absence from round {round_no} excused: paired again",
    )


PENALTY_KINDS = {"illegal_move": "illegal move", "displaced_pieces": "displaced pieces"}
CONSEQUENCES = {
    "warning": "a warning",
    "extra_minute": "one extra minute for the opponent",
    "loss": "the game lost",
}


def game_penalised(
    tournament_id: uuid.UUID,
    game_id: uuid.UUID,
    round_no: int,
    player_id: uuid.UUID,
    kind: str,
    occurrence: int,
    consequence: str,
    decided: Decided,
) -> AuditEntry:
    """A penalty in a game (RULES.md §6): the how-many-th of its kind, and what followed."""
    return AuditEntry.of(
        tournament_id,
        decided,
        AuditKind.GAME_PENALISED,
        Subject(SubjectKind.GAME, game_id, round_no),
        f"{PENALTY_KINDS.get(kind, kind)} by {player_id} ({_ordinal(occurrence)}):"
        f" {CONSEQUENCES.get(consequence, consequence)}",
    )


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
