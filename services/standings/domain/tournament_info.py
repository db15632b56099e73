"""What a tournament is, as the standings know it (``tournament.started``, ``round.paired``): its name,
ruleset and settings (:class:`TournamentInfo`, a `fide-rapid` event's :class:`FideInfo`), the system its
first pairing names, and what these make of it: a table or a bracket, and the preset that ranks the table.
Pure values.

**Tables.** The system chosen at the start (``round.paired``'s ``system``) decides the table:
``platform`` round robin and Swiss have one, by their presets (points, then WIN, DE, SNO with SB
shown; points, then BH-C1, SB, WIN with BH shown). The knockout rulesets are shown as a bracket
(``bracket.py``: matches, their games, who advances, the final placing) and have no table,
crosstable or TRF.

``fide-rapid`` (RULES.md §6) Swiss and round robins rank by its preset: points, then BH, BH-C1, SB,
ARO, in the C.07 edition its start date selects, and lots (drawn reproducibly from the tournament's
id) for what stays tied.

``group-playoff`` round robins have the group table (``live_table.LiveGroupTable``: match points,
board points, the same among the tied; a withdrawn player's matches score 0:2).
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Final

from services.standings.domain.bracket import KnockoutFormat
from services.standings.domain.context import Rules
from services.standings.domain.errors import NotABracket, NotATable, UnsupportedRuleset
from services.standings.domain.presets import GROUP_BOARDS, Preset, preset
from services.standings.domain.rounds import BYE_RESULTS
from shared.time_control import RateOfPlay
from shared.vocabulary import ByeKind, Ruleset, System

__all__ = [
    "SYSTEM_NAMES",
    "TABLE_SYSTEMS",
    "FideInfo",
    "TournamentInfo",
    "is_bracket",
    "published_on_pairing",
]

TABLE_SYSTEMS: Final = frozenset({System.ROUND_ROBIN, System.SWISS})
SYSTEM_NAMES: Final[Mapping[System, str]] = {
    System.ROUND_ROBIN: "Round robin",
    System.SWISS: "Swiss",
    System.KNOCKOUT: "Knockout",
    System.DOUBLE_KNOCKOUT: "Double knockout",
}
BRACKET_RULESETS: Final = frozenset({Ruleset.KNOCKOUT, Ruleset.DOUBLE_KNOCKOUT})  # RULES.md §4
_PRESETS: Final[Mapping[tuple[Ruleset, System], Preset]] = {
    (Ruleset.PLATFORM, System.ROUND_ROBIN): preset("platform-round-robin"),
    (Ruleset.PLATFORM, System.SWISS): preset("platform-swiss"),
    (Ruleset.GROUP_PLAYOFF, System.ROUND_ROBIN): GROUP_BOARDS,  # ranked by the group table
    (Ruleset.FIDE_RAPID, System.SWISS): preset("fide-rapid"),
    (Ruleset.FIDE_RAPID, System.ROUND_ROBIN): replace(preset("fide-rapid"), pre_determined=True),
}


def published_on_pairing(ruleset: Ruleset) -> bool:
    """Whether a round of this ruleset is public as soon as it is paired (``platform``: yes;
    knockouts: only once the organisers publish it)."""
    return ruleset not in BRACKET_RULESETS


def is_bracket(ruleset: Ruleset, system: System | None) -> bool:
    """A knockout ruleset (known from the start), or a bracket system (named by the first pairing)."""
    return ruleset in BRACKET_RULESETS or (system is not None and system.elimination)


@dataclass(frozen=True, slots=True)
class FideInfo:
    """A `fide-rapid` event's settings the standings use (``settings.fide``): the place and dates for
    the TRF's headers and the table's C.07 edition, and what a late entry's missed rounds score."""

    place: str = ""
    start_date: dt.date | None = None
    end_date: dt.date | None = None
    rounds: int | None = None
    acceleration: bool = False
    clocks: str = "board"  # board or server
    late_entry_bye: ByeKind = ByeKind.ZERO_POINT
    system: System | None = None  # swiss or round robin, as the organiser set it (None: not stored)
    federation: str = ""  # the organising federation (TRF 032)
    chief_arbiter: str = ""  # TRF 102
    deputy_arbiters: tuple[str, ...] = ()  # TRF 112


@dataclass(slots=True)
class TournamentInfo:
    """What a tournament is; ``system`` and ``total_rounds`` come with its first pairing."""

    id: uuid.UUID
    name: str
    ruleset: Ruleset
    started_at: dt.datetime
    time_control: RateOfPlay
    variant: str = "chess"
    double_rounds: bool = False
    rated: bool = True  # False: a friendly tournament (the organiser's choice, or its opening)
    opening: str = "free"  # the opening option (RULES.md §2)
    system: System | None = None
    total_rounds: int | None = None
    completed_at: dt.datetime | None = None
    knockout: KnockoutFormat | None = None  # the knockout rulesets' format settings
    reset_at: dt.datetime | None = None  # reset to its draft then, not started again since
    fide: FideInfo | None = None  # fide-rapid's settings

    @property
    def start_date(self) -> dt.date:
        """The event's first day: the organiser's (fide-rapid), else the day it started."""
        if self.fide is not None and self.fide.start_date is not None:
            return self.fide.start_date
        return self.started_at.date()

    @property
    def legs(self) -> int:
        return 2 if self.double_rounds else 1

    @property
    def planned_system(self) -> System | None:
        """The system: the first pairing's, before it the organiser's (a `fide-rapid` event's settings)."""
        if self.system is not None:
            return self.system
        return None if self.fide is None else self.fide.system

    @property
    def rounds_to_play(self) -> int | None:
        """The rounds: the pairings', before them the organiser's (`fide-rapid`)."""
        return self.total_rounds or (self.fide.rounds if self.fide is not None else None)

    @property
    def draft(self) -> bool:
        """Reset to its draft (a knockout, RULES.md §4): nothing of it is shown until it starts again."""
        return self.reset_at is not None

    @property
    def is_group(self) -> bool:
        """Ranked by the ``group-playoff`` group table rather than by C.07 tie-breaks."""
        return self.ruleset is Ruleset.GROUP_PLAYOFF

    @property
    def is_bracket(self) -> bool:
        return is_bracket(self.ruleset, self.system)

    @property
    def has_table(self) -> bool:
        """False for a bracket; otherwise True, before the first pairing names the system too."""
        return not self.is_bracket and (self.system is None or self.system in TABLE_SYSTEMS)

    def check_bracket(self) -> None:
        if not self.is_bracket:
            raise NotABracket(f"a {self.system or self.ruleset} tournament has a table, not a bracket")

    def preset_or_none(self) -> Preset | None:
        """The preset that scores this tournament's games and ranks its table (``group-playoff``: the
        board points; the group table ranks); None for a bracket, a ruleset without table rules
        here, or before the first pairing names the system."""
        if self.system is None:
            return None
        return _PRESETS.get((self.ruleset, self.system))

    def check_table(self) -> None:
        """Raise NotATable for a bracket, UnsupportedRuleset for a table this service cannot rank."""
        if self.system is System.GROUP_PLAYOFF:
            raise NotATable(
                "a group-playoff event is not one table: its group tables, matches and placing are on"
                " its page (GET /tournaments/{id}/group-playoff, /t/{id})"
            )
        if not self.has_table:
            raise NotATable(
                f"a {self.system} tournament is shown as a bracket: it has no table, crosstable or TRF"
            )
        if self.system is not None and self.preset_or_none() is None:
            raise UnsupportedRuleset(f"no table rules for the {self.ruleset.value!r} ruleset ({self.system})")

    def bye_points(self, ruleset: Preset) -> dict[ByeKind, Fraction]:
        """What each kind of bye scores over a whole round (both legs with double rounds)."""
        ps = ruleset.point_system
        return {kind: ps.points(result) * self.legs for kind, result in BYE_RESULTS.items()}

    def rules(self, ruleset: Preset) -> Rules:
        """C.07's edition by the start date (docs/standings.md), with the ruleset's bye handling."""
        start = self.start_date
        return ruleset.rules(start, start)
