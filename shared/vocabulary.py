"""The closed sets every service speaks of: rulesets, pairing systems, bracket parts, seedings, how a
match was decided, why a tournament was cancelled, the kinds of bye.

Pure values (no pydantic): the wire models in :mod:`shared.events` and each service's domain use the
same types, so a name outside the set fails at the edge instead of deep inside a handler.

The values are stored and sent, so they stay as they are even where two sets spell one word two ways: a
ruleset is ``double-knockout`` (hyphens, like every ruleset name), a system and a bracket format
``double_knockout`` (underscores, like every system). The Python names are one: ``DOUBLE_KNOCKOUT``
(docs/glossary.md).
"""

from __future__ import annotations

from enum import StrEnum


class Ruleset(StrEnum):
    """A named bundle of settings from one of the rule texts (RULES.md, the table at the top)."""

    PLATFORM = "platform"
    FIDE_RAPID = "fide-rapid"
    KNOCKOUT = "knockout"
    DOUBLE_KNOCKOUT = "double-knockout"
    GROUP_PLAYOFF = "group-playoff"
    ARENA = "arena"


class System(StrEnum):
    """How a tournament is paired, chosen at its start."""

    ROUND_ROBIN = "round_robin"
    SWISS = "swiss"
    KNOCKOUT = "knockout"
    DOUBLE_KNOCKOUT = "double_knockout"
    GROUP_PLAYOFF = "group_playoff"  # the 4T1 event: groups, play-offs, semi-finals, placement matches

    @property
    def elimination(self) -> bool:
        """Paired as a bracket of matches rather than in rounds of single games."""
        return self in (System.KNOCKOUT, System.DOUBLE_KNOCKOUT)


class BracketFormat(StrEnum):
    """The two elimination formats (RULES.md §4)."""

    KNOCKOUT = "knockout"
    DOUBLE_KNOCKOUT = "double_knockout"


class Seeding(StrEnum):
    """How an elimination bracket's seeds are set: by rating, in the organiser's order, or by a drawn lot."""

    RATING = "rating"
    CUSTOM = "custom"
    RANDOM = "random"


class Section(StrEnum):
    """A part of an elimination bracket."""

    WINNERS = "winners"
    LOSERS = "losers"
    GRAND_FINAL = "grand_final"
    THIRD_PLACE = "third_place"


class DecidedIn(StrEnum):
    """Where a match was decided: in its regular games, a tie-break stage, or the sudden-death game."""

    REGULAR = "regular"
    TIEBREAK = "tiebreak"
    SUDDEN_DEATH = "sudden_death"


class CancelReason(StrEnum):
    """Why a tournament was cancelled before it started."""

    ORGANISER = "organiser"
    TOO_FEW_PLAYERS = "too_few_players"


class ByeKind(StrEnum):
    """A round a player is not paired in (FIDE C.07: PAB, HPB, ZPB, FPB)."""

    PAIRING_ALLOCATED = "pairing_allocated"
    HALF_POINT = "half_point"
    ZERO_POINT = "zero_point"
    FULL_POINT = "full_point"
