"""The matches of a ``group-playoff`` event (4T1 rules, RULES.md §5), pure: what pairing runs the event
with and standings shows on its page, so both read a match the same way.

Every meeting is a two-game match, one game with each colour, scored by board points 1/½/0; a level
semi-final or final gets extra games (:func:`decide`). A match is keyed ``stage:a:b`` (``a`` named
first: they invite, i.e. create the games). :func:`decided_by` says which criterion (a)-(f) of the
group table decided a player's place.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from shared.group_table import GroupTable, TableMatch
from shared.scoring import FIDE, Outcome

__all__ = [
    "PLACES",
    "PLANNED",
    "Match",
    "MatchGame",
    "MatchKind",
    "MatchOutcome",
    "decide",
    "decided_by",
    "game_id",
    "planned_games",
    "planned_key",
]


class MatchKind(StrEnum):
    """What a match is for: its kind (the values are the ``stage`` of the ``--json`` document and the
    events). Not a tie-break stage (:class:`shared.time_control.Stage`)."""

    GROUP = "group"
    PLAYOFF = "playoff"
    SEMI_FINAL = "semi-final"
    FINAL = "final"
    THIRD = "third-place"
    FIFTH = "fifth-place"
    SEVENTH = "seventh-place"

    @property
    def phase(self) -> int:
        return {MatchKind.GROUP: 1, MatchKind.PLAYOFF: 1, MatchKind.SEMI_FINAL: 2}.get(self, 3)


PLACES = {MatchKind.FINAL: 1, MatchKind.THIRD: 3, MatchKind.FIFTH: 5, MatchKind.SEVENTH: 7}
"""The better of the two places each phase-3 match decides."""


@dataclass(slots=True)
class MatchGame:
    id: str
    white: str
    black: str
    inviter: str  # the player named first: creates the game
    extra: int = 0  # 0: one of the match's two games; 1, 2: its extra games
    outcome: Outcome | None = None
    how: str | None = None  # "played", "adjudicated", "lot"; "withdrawn": no longer played

    @property
    def open(self) -> bool:
        return self.outcome is None and self.how is None


def match_key(stage: MatchKind | str, a: str, b: str) -> str:
    return f"{MatchKind(stage)}:{a}:{b}"


@dataclass(slots=True)
class Match:
    stage: MatchKind
    a: str  # named first
    b: str
    games: list[MatchGame]
    group: str | None = None
    forfeited_by: str | None = None  # withdrawn or excluded: scored 0:2

    @property
    def key(self) -> str:
        return match_key(self.stage, self.a, self.b)

    def board_points(self, *, extra: bool = False) -> tuple[Fraction, Fraction]:
        """Board points of a and b in the two games (and the extra games if ``extra``); 0:2 when forfeited."""
        if self.forfeited_by is not None:
            two = Fraction(2)
            return (Fraction(0), two) if self.forfeited_by == self.a else (two, Fraction(0))
        a = b = Fraction(0)
        for g in self.games:
            if g.outcome is None or (g.extra and not extra):
                continue
            white, black = FIDE.game_points(g.outcome)
            a, b = (a + white, b + black) if g.white == self.a else (a + black, b + white)
        return a, b

    @property
    def finished(self) -> bool:
        return self.forfeited_by is not None or not any(g.open for g in self.games)

    def table_match(self, start: Mapping[str, int]) -> TableMatch:
        games = tuple(
            (g.outcome, g.white == self.a) for g in self.games if g.outcome is not None and not g.extra
        )
        return TableMatch(start[self.a], start[self.b], games)


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    """A match's state: ``winner``/``loser`` when won, ``shared`` when both share it, else open."""

    winner: str | None = None
    loser: str | None = None
    shared: bool = False

    @property
    def done(self) -> bool:
        return self.shared or self.winner is not None


def decide(match: Match) -> MatchOutcome:
    """Who won the match, or that both share it (groups, play-offs, 3rd/5th/7th at 1:1; a final level
    after two extra games), or nothing yet. A level semi-final's extra game nobody wins sends the
    one named first (the group winner) through."""
    if not match.finished and match.forfeited_by is None:
        return MatchOutcome()
    a, b = match.board_points()
    if a != b:
        return MatchOutcome(match.a, match.b) if a > b else MatchOutcome(match.b, match.a)
    if match.stage in (
        MatchKind.GROUP,
        MatchKind.PLAYOFF,
        MatchKind.THIRD,
        MatchKind.FIFTH,
        MatchKind.SEVENTH,
    ):
        return MatchOutcome(shared=True)
    extra = [g for g in match.games if g.extra]
    for g in extra:
        white, black = FIDE.game_points(g.outcome or Outcome.NOT_PLAYED)
        if white != black:
            return MatchOutcome(g.white, g.black) if white > black else MatchOutcome(g.black, g.white)
    if match.stage is MatchKind.SEMI_FINAL:
        return MatchOutcome(match.a, match.b) if extra else MatchOutcome()
    return MatchOutcome(shared=True) if len(extra) == 2 else MatchOutcome()


def decided_by(table: GroupTable, start: int, *, lot_order: Sequence[int] = ()) -> str:
    """What decided a player's group place: ``a``-``f`` (4T1), or ``tied`` while nothing has yet.
    ``lot_order``: the start numbers the organiser's lot ordered (f)."""
    rows = table.rows
    row = table.row(start)
    if sum(1 for r in rows if r.rank == row.rank) > 1:
        return "tied"
    same_a = [r for r in rows if r.match_points == row.match_points]
    if len(same_a) == 1:
        return "a"
    same_b = [r for r in same_a if r.board_points == row.board_points]
    if len(same_b) == 1:
        return "b"
    same_c = [r for r in same_b if r.tied_match_points == row.tied_match_points]
    if len(same_c) == 1:
        return "c"
    if len([r for r in same_c if r.tied_board_points == row.tied_board_points]) == 1:
        return "d"
    return "f" if start in lot_order else "e"


# -- game ids ----------------------------------------------------------------------------------------
PLANNED: tuple[tuple[MatchKind, tuple[int | None, ...], int], ...] = (
    (MatchKind.SEMI_FINAL, (1, 2), 3),
    (MatchKind.FINAL, (None,), 4),
    (MatchKind.THIRD, (None,), 2),
    (MatchKind.FIFTH, (None,), 2),
    (MatchKind.SEVENTH, (None,), 2),
)
"""The later phases' matches: their slots and how many games each may have (extra games included)."""


def game_id(event_id: uuid.UUID, key: str, n: int) -> str:
    """A game's id, derived (UUID 5) from the event and the game's place: the same facts, the same id."""
    return str(uuid.uuid5(event_id, f"{key}/{n}"))


def planned_key(stage: MatchKind, slot: int | None) -> str:
    """``semi-final:1``, ``semi-final:2``, ``final``, ``third-place`` …: a later match's place, which
    its games' ids derive from (a phase-1 match's derive from its key: its players)."""
    return stage.value if slot is None or stage is not MatchKind.SEMI_FINAL else f"{stage.value}:{slot}"


def planned_games(event_id: uuid.UUID) -> list[tuple[MatchKind, int | None, tuple[str, ...]]]:
    """Every later match of an event with the ids its games will have (its two games, then the extra
    games it may need): known from the event's id alone, before the phase opens."""
    return [
        (stage, slot, tuple(game_id(event_id, planned_key(stage, slot), n) for n in range(games)))
        for stage, slots, games in PLANNED
        for slot in slots
    ]
