"""The nine opening options of a `platform` tournament (RULES.md §2), as the organiser writes them:

==================  ============================================================================
``free``            no opening: the game starts from the initial position
``random-1|2|3``    one, two or three random legal moves from the move generator (any variant)
``table-1|2|3``     a draw from the federation table, up to 1N/1B, 2N/2B or 3N/3B
``table-all``       a draw from the whole table (all 174)
``thematic:CODE``   one chosen table opening for every game of the tournament
==================  ============================================================================

Table draws and thematic openings exist only for the variants with a federation table, English and
Italian draughts (:mod:`shared.openings.tables`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from shared.openings.errors import UnknownOpeningOption

MAX_RANDOM_MOVES: Final = 3
MAX_BALANCE_CAP: Final = 3

ALLOWED: Final = (
    "free",
    "random-1",
    "random-2",
    "random-3",
    "table-1",
    "table-2",
    "table-3",
    "table-all",
    "thematic:CODE",
)
"""The values an organiser may write (``CODE`` is a code of the variant's table)."""

_PATTERN = re.compile(r"^(?:(free)|random-([1-3])|table-([1-3]|all)|thematic:(\S+))$")


class OpeningKind(StrEnum):
    FREE = "free"
    RANDOM = "random"
    TABLE = "table"
    THEMATIC = "thematic"


@dataclass(frozen=True)
class OpeningOption:
    """One of the nine options. ``moves``: how many random moves; ``cap``: the balance grade a table
    draw goes up to (None: the whole table); ``code``: the thematic opening."""

    kind: OpeningKind
    moves: int | None = None
    cap: int | None = None
    code: str | None = None

    @classmethod
    def parse(cls, text: str) -> OpeningOption:
        """The option written as ``text``; :class:`UnknownOpeningOption` listing the allowed values."""
        found = _PATTERN.match(text.strip()) if isinstance(text, str) else None
        if found is None:
            raise UnknownOpeningOption(
                f"unknown opening option {text!r}: the options are {', '.join(ALLOWED)}"
            )
        free, random_moves, table, code = found.groups()
        if free:
            return FREE
        if random_moves:
            return cls(OpeningKind.RANDOM, moves=int(random_moves))
        if table:
            return cls(OpeningKind.TABLE, cap=None if table == "all" else int(table))
        return cls(OpeningKind.THEMATIC, code=code)

    @property
    def uses_table(self) -> bool:
        return self.kind in (OpeningKind.TABLE, OpeningKind.THEMATIC)

    @property
    def repeats(self) -> bool:
        """Whether every game has the same opening (thematic), so the never-twice rule does not apply."""
        return self.kind is OpeningKind.THEMATIC

    def __str__(self) -> str:
        match self.kind:
            case OpeningKind.FREE:
                return "free"
            case OpeningKind.RANDOM:
                return f"random-{self.moves}"
            case OpeningKind.TABLE:
                return f"table-{'all' if self.cap is None else self.cap}"
            case OpeningKind.THEMATIC:
                return f"thematic:{self.code}"


FREE: Final = OpeningOption(OpeningKind.FREE)
