"""A knockout's public bracket (RULES.md §4, "Public pages"), projected from the events: the format and
the tie-break plan, the seeding list, the bracket of the **published** rounds — each match with its
players, its games (regular, tie-break and sudden-death) with results, its score and who advances —
and, after the end, the final placing. A round that is paired but not published shows nothing: neither
its pairings nor its results. Pure code.

Sections are the bracket's parts as pairing names them (``winners``, ``losers``, ``grand_final``,
``third_place``); a match id is ``section:round:number``. Round names follow the bracket's size: a
knockout's last winners rounds are the final, the semi-finals and the quarter-finals.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Final

from shared.time_control import RateOfPlay
from shared.vocabulary import BracketFormat, DecidedIn, Section, Seeding

SECTIONS: Final = (Section.WINNERS, Section.LOSERS, Section.GRAND_FINAL, Section.THIRD_PLACE)  # page order


@dataclass(frozen=True, slots=True)
class KnockoutFormat:
    """The format settings ``tournament.started`` carries for a knockout."""

    format: BracketFormat
    games_per_match: int
    seeding: Seeding
    draw_seed: int | None
    third_place: bool
    second_final: bool
    stages: tuple[tuple[int, RateOfPlay], ...]  # (games, time control) per tie-break stage
    sudden_death: RateOfPlay

    def plan_label(self) -> str:
        """``2 games 15+10, 2 games 5+3, then sudden death 3+2``."""
        stages = [f"{games} game{'s' if games > 1 else ''} {clock.label()}" for games, clock in self.stages]
        return ", ".join([*stages, f"then sudden death {self.sudden_death.label()}"])


@dataclass(slots=True)
class BracketMatch:
    """A match as ``round.paired`` announced it; a bye has no board and one empty slot (None)."""

    match_id: str
    round: int  # the service round it was paired in
    section: Section
    section_round: int
    number: int
    board: int | None
    players: tuple[int | None, int | None]  # seeds in slot order
    first_white: int | None = None
    winner: int | None = None
    how: DecidedIn | None = None
    decided_at: dt.datetime | None = None
    revision: int | None = None  # the decision's count at pairing (match.decided's revision); None: uncounted

    @property
    def bye(self) -> bool:
        return self.board is None

    @property
    def decided(self) -> bool:
        return self.bye or self.winner is not None


@dataclass(frozen=True, slots=True)
class BracketPlace:
    seed: int
    rank: int
    places: tuple[int, int]
    matches_won: int


def size_of(players: int) -> int:
    size = 1
    while size < players:
        size *= 2
    return size


def round_name(fmt: BracketFormat, section: Section, section_round: int, players: int) -> str:
    """What a round of a section is called (a knockout's final, semi-finals, quarter-finals …)."""
    rounds = size_of(players).bit_length() - 1  # winners rounds
    if section == Section.THIRD_PLACE:
        return "Third-place match"
    if section == Section.GRAND_FINAL:
        return "Grand final" if section_round == 1 else "Second final"
    if section == Section.LOSERS:
        return "Losers' final" if section_round == 2 * (rounds - 1) else f"Losers round {section_round}"
    if fmt == BracketFormat.DOUBLE_KNOCKOUT:
        return "Winners' final" if section_round == rounds else f"Winners round {section_round}"
    from_last = rounds - section_round
    names = {0: "Final", 1: "Semi-finals", 2: "Quarter-finals"}
    return names.get(from_last, f"Round {section_round}")


def shape(
    fmt: BracketFormat, players: int, *, third_place: bool, second_final: bool
) -> dict[Section, list[int]]:
    """The whole bracket before it is played: how many matches each round of each section has (section
    round 1 first), byes included, as pairing lays it out for ``players`` (RULES.md §4). A knockout of
    2^k slots has k winners rounds of 2^(k-1), …, 1 matches, and a third-place match if played; a double
    knockout 2(k-1) losers rounds (round r: 2^k / 2^(ceil(r/2)+1) matches, a drop-in round as many as the
    round before it) and the grand final, with its second final if the settings have one."""
    size = size_of(players)
    rounds = size.bit_length() - 1
    out = {Section.WINNERS: [size >> r for r in range(1, rounds + 1)]}
    if fmt == BracketFormat.KNOCKOUT:
        if third_place and rounds >= 2:
            out[Section.THIRD_PLACE] = [1]
        return out
    out[Section.LOSERS] = [size >> ((r + 1) // 2 + 1) for r in range(1, 2 * (rounds - 1) + 1)]
    out[Section.GRAND_FINAL] = [1, 1] if second_final else [1]
    return out


_TITLES: Final = {
    Section.LOSERS: "Losers' bracket",
    Section.GRAND_FINAL: "Grand final",
    Section.THIRD_PLACE: "Third place",
}


def section_title(fmt: BracketFormat, section: Section) -> str:
    if section == Section.WINNERS:
        return "Winners' bracket" if fmt == BracketFormat.DOUBLE_KNOCKOUT else "Bracket"
    return _TITLES[section]


__all__ = [
    "SECTIONS",
    "BracketMatch",
    "BracketPlace",
    "KnockoutFormat",
    "round_name",
    "section_title",
    "shape",
    "size_of",
]
