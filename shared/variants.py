"""The game variants a tournament is played in: chess and the draughts variants. A closed set: an
unknown name is refused where it enters (a 422 listing these), and a rating is kept per variant and
time-control category (``<variant>:<speed>``, e.g. ``chess:blitz``, ``international:rapid``)."""

from __future__ import annotations

from enum import StrEnum


class Variant(StrEnum):
    CHESS = "chess"
    INTERNATIONAL = "international"  # international draughts, 10×10
    ENGLISH = "english"  # English draughts (checkers), 8×8
    ITALIAN = "italian"  # Italian draughts, 8×8
    RUSSIAN = "russian"  # Russian draughts, 8×8
