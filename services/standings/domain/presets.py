"""Ruleset presets: scoring, the ordered tie-break list, what is shown, how byes count.

| preset | scoring | order after points | shown besides |
|---|---|---|---|
| ``platform-swiss`` | 2/1/0 | BH-C1, SB, WIN (a bye is no opponent) | BH, SB |
| ``platform-round-robin`` | 2/1/0 | WIN, DE, SNO | SB (information only; BH not shown) |
| ``fide-rapid`` | 1/½/0 | BH, BH-C1, SB, ARO, then lots | |
| ``draughts`` | 2/1/0 | BH-C1 (truncated Solkoff), byes configurable | |
| ``group-playoff`` | match points | see :mod:`services.standings.domain.group_playoff` | |

``platform`` (RULES.md §2): "Buchholz Cut 1 (sum of opponents' final scores minus the weakest; a
bye is no opponent)". C.07 instead counts a bye as a game against a dummy opponent with the
participant's own score (16.4) and lets the cut prefer it (16.5); on the platform the bye round is
left out entirely, so the cut removes the weakest real opponent. The pairing-allocated bye "is not a
won game": WIN does not count it there either. The platform presets also take BH and SB as the seed
defines them (``platform_definitions``): a forfeit's opponent is an opponent and counts with their
real score (no dummy), and SB is the points of the beaten opponents plus half those of the drawn
ones (C.07's product on 2-1-0 is twice that). ``fide-rapid`` keeps C.07, dummy opponent included.

Organisers may give their own ordered list: :meth:`Preset.with_tiebreaks` validates it
(:class:`~services.standings.domain.codes.TieBreakCodeError` names an unknown code; ``/`` is accepted
for ``-``).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, replace

from services.standings.domain.codes import TieBreak, parse_codes
from services.standings.domain.context import Rules
from services.standings.domain.history import Edition, edition_for
from shared.scoring import FIDE, PLATFORM, PointSystem

__all__ = ["GROUP_BOARDS", "GROUP_PLAYOFF_CRITERIA", "PRESETS", "Preset", "preset"]


@dataclass(frozen=True, slots=True)
class Preset:
    name: str
    point_system: PointSystem
    tiebreaks: tuple[TieBreak, ...]  # the ranking order after points
    shown: tuple[TieBreak, ...] = ()  # shown for information, not used for ranking
    byes_as_opponents: bool = True
    platform_definitions: bool = False  # BH and SB as RULES.md §2 defines them (Rules.platform_definitions)
    lots: bool = False  # the regulations end in a drawing of lots
    pre_determined: bool = False
    unrated_rating: int | None = None
    edition: Edition | None = None  # None: by the event's start date

    def with_tiebreaks(self, codes: str | list[str]) -> Preset:
        """The organiser's own ordered list (validated)."""
        return replace(self, tiebreaks=tuple(parse_codes(codes)))

    def with_byes_as_opponents(self, value: bool) -> Preset:
        return replace(self, byes_as_opponents=value)

    def columns(self) -> tuple[TieBreak, ...]:
        """Every tie-break a table shows: the ranking ones, then the informative ones."""
        return self.tiebreaks + tuple(tb for tb in self.shown if tb not in self.tiebreaks)

    def rules(self, start_date: dt.date | None, today: dt.date) -> Rules:
        edition = self.edition or edition_for(start_date, today)
        return Rules(
            edition=edition,
            unrated_rating=self.unrated_rating,
            byes_as_opponents=self.byes_as_opponents,
            platform_definitions=self.platform_definitions,
        )


def _codes(text: str) -> tuple[TieBreak, ...]:
    return tuple(parse_codes(text)) if text else ()


PRESETS: dict[str, Preset] = {
    r.name: r
    for r in (
        Preset(
            "platform-swiss",
            PLATFORM,
            _codes("BH-C1,SB,WIN"),
            _codes("BH,SB"),
            byes_as_opponents=False,
            platform_definitions=True,
        ),
        Preset(
            "platform-round-robin",
            PLATFORM,
            _codes("WIN,DE,SNO"),
            _codes("SB"),
            byes_as_opponents=False,
            platform_definitions=True,
            pre_determined=True,
        ),
        Preset("fide-rapid", FIDE, _codes("BH,BH-C1,SB,ARO"), lots=True),
        Preset("draughts", PLATFORM, _codes("BH-C1"), byes_as_opponents=False),
    )
}

GROUP_PLAYOFF_CRITERIA = (
    "match points",
    "board points",
    "match points among the tied",
    "board points among the tied",
    "play-off",
    "lots",
)
"""``group-playoff`` (4T1 §5(3)(a)-(f)); computed by :mod:`services.standings.domain.group_playoff`."""

GROUP_BOARDS = Preset("group-playoff", FIDE, (), pre_determined=True)
"""The games of a ``group-playoff`` group as games: board points 1/½/0 (crosstable, rounds, TRF). The
group's table itself is :func:`~services.standings.domain.group_playoff.group_table`'s, not C.07's,
so this is no preset (``preset("group-playoff")`` is an error)."""


def preset(name: str) -> Preset:
    try:
        return PRESETS[name]
    except KeyError:
        known = ", ".join([*sorted(PRESETS), "group-playoff"])
        raise ValueError(f"unknown ruleset {name!r} (known: {known})") from None
