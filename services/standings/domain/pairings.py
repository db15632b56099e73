"""What the pairing service announces, as the standings domain takes it: a round's games, byes and
knockout matches, and a knockout's final placing, naming players by id. The tournament turns the ids
into seeds (:class:`~services.standings.domain.tournament.Tournament`), refusing a player it does not
know. Pure values.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from shared.vocabulary import ByeKind, Section

__all__ = ["AnnouncedBye", "AnnouncedGame", "AnnouncedMatch", "AnnouncedPlace"]


@dataclass(frozen=True, slots=True)
class AnnouncedGame:
    game_id: uuid.UUID
    board: int
    white: uuid.UUID
    black: uuid.UUID
    leg: int = 1
    match_id: str | None = None  # knockouts: the match, the game's number and name in it
    number: int | None = None
    label: str | None = None
    rated: bool = True  # False: a knockout's tie-break or sudden-death game
    opening: str | None = None  # the drawn opening's label: its table code or its moves; None: free


@dataclass(frozen=True, slots=True)
class AnnouncedBye:
    player_id: uuid.UUID
    kind: ByeKind = ByeKind.PAIRING_ALLOCATED


@dataclass(frozen=True, slots=True)
class AnnouncedMatch:
    """A knockout match; a bye has no board and one empty slot (None)."""

    match_id: str
    section: Section
    section_round: int
    number: int
    board: int | None
    players: tuple[uuid.UUID | None, uuid.UUID | None]  # slot order
    first_white: uuid.UUID | None = None


@dataclass(frozen=True, slots=True)
class AnnouncedPlace:
    """A knockout's final place: players out in the same round share ``places``."""

    player_id: uuid.UUID
    seed: int
    rank: int
    places: tuple[int, int]
    matches_won: int
