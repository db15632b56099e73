"""The event model the tie-breaks read: players, ratings, rounds, outcomes, byes, withdrawals.

Results are recorded as outcomes (:class:`shared.scoring.Outcome` for a game, a bye
:class:`shared.scoring.Result` for a player without a game); each player's points in each round are
derived from the event's :class:`shared.scoring.PointSystem` when recorded. A round in which a player
has no entry (not paired, withdrawn) counts as a zero-point absence, as in TRF where a blank round
block means ``Z``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction

from shared.scoring import FIDE, Outcome, PointSystem, Result, side_results

__all__ = [
    "EDITION_2026_FROM",
    "Edition",
    "Entry",
    "EventHistory",
    "HistoryError",
    "Player",
    "edition_for",
]


class HistoryError(ValueError):
    """A result that does not fit the event (unknown player, round out of range, clash)."""


class Edition(StrEnum):
    """The edition of FIDE C.07 that applies.

    ``E2024``: the tie-break regulations in force from 2024-08-01 (the 2023 rules as re-issued).
    ``E2026``: the edition in force from 2026-03-01 (approved by the FIDE Council 2026-02-02), which
    caps the dummy opponent's score of the participant's unplayed rounds (Art. 16.4)."""

    E2024 = "2024"
    E2026 = "2026"


EDITION_2026_FROM = dt.date(2026, 3, 1)


def edition_for(start_date: dt.date | None, today: dt.date) -> Edition:
    """The edition by the event's start date: the 2024 rules before 2026-03-01, the 2026 rules from
    then on. An event without a start date is judged by ``today`` (as FIDE TEC's TieBreakServer does)."""
    when = start_date if start_date is not None else today
    return Edition.E2024 if when < EDITION_2026_FROM else Edition.E2026


@dataclass(frozen=True, slots=True)
class Player:
    start: int
    name: str = ""
    rating: int | None = None
    withdrawn_after: int | None = None  # withdrew after this round (informative; later rounds are absences)


@dataclass(frozen=True, slots=True)
class Entry:
    """One player's round: the result, the scheduled opponent (None for byes and absences), the
    colour (``"w"``/``"b"``, or ``""`` for none) and the points the point system gives."""

    result: Result
    points: Fraction
    opponent: int | None = None
    colour: str = ""

    @property
    def played(self) -> bool:
        """Played over the board (C.07: a game, not a forfeit or bye)."""
        return self.result.played and self.opponent is not None

    @property
    def voluntary_unplayed(self) -> bool:
        """C.07 16.2.5: HPB, ZPB, forfeit loss (and an absence, which is a ZPB)."""
        return self.result.voluntary_unplayed


ABSENT = Entry(result=Result.ZERO_POINT_BYE, points=Fraction(0))


@dataclass(slots=True)
class EventHistory:
    """Players and their rounds. Mutable: results are applied one at a time.

    ``rounds`` is the number of rounds the tie-breaks look at (``n`` in C.07); it grows to the
    highest round with a result, or can be set for a fixed-length event. ``pre_determined`` marks an
    event with pre-determined pairings (round robin), for which C.07 treats forfeits as played
    games and uses no dummy opponents."""

    players: dict[int, Player] = field(default_factory=dict)
    point_system: PointSystem = FIDE
    pre_determined: bool = False
    rounds: int = 0
    entries: dict[int, dict[int, Entry]] = field(default_factory=dict)  # start -> round -> entry

    @classmethod
    def create(
        cls,
        players: Iterable[Player],
        *,
        point_system: PointSystem = FIDE,
        pre_determined: bool = False,
        rounds: int = 0,
    ) -> EventHistory:
        history = cls(point_system=point_system, pre_determined=pre_determined, rounds=rounds)
        for player in players:
            if player.start in history.players:
                raise HistoryError(f"start number {player.start} given twice")
            if player.start < 1:
                raise HistoryError(f"start numbers begin at 1, got {player.start}")
            history.players[player.start] = player
            history.entries[player.start] = {}
        return history

    # -- reading -------------------------------------------------------------------------------

    def entry(self, start: int, round_no: int) -> Entry:
        """The player's round; a round without an entry is a zero-point absence."""
        found = self.entries[start].get(round_no)
        if found is not None:
            return found
        if self.point_system.zero_point_bye:
            return Entry(result=Result.ZERO_POINT_BYE, points=self.point_system.zero_point_bye)
        return ABSENT

    def score(self, start: int, through: int | None = None) -> Fraction:
        last = self.rounds if through is None else through
        return sum((self.entry(start, r).points for r in range(1, last + 1)), Fraction(0))

    def opponents(self, start: int) -> set[int]:
        """Everyone the player was paired with (played or forfeited)."""
        return {e.opponent for e in self.entries[start].values() if e.opponent is not None}

    # -- recording -----------------------------------------------------------------------------

    def _check(self, round_no: int, *starts: int) -> None:
        if round_no < 1:
            raise HistoryError(f"rounds begin at 1, got {round_no}")
        for start in starts:
            if start not in self.players:
                raise HistoryError(f"unknown player {start}")

    def record_game(self, round_no: int, white: int, black: int, outcome: Outcome) -> tuple[int, ...]:
        """Record (or correct) a game. Returns the start numbers whose rounds changed, including
        players who lose a previous pairing in that round."""
        self._check(round_no, white, black)
        if white == black:
            raise HistoryError(f"player {white} cannot play themselves")
        w_result, b_result = side_results(outcome)
        double = outcome is Outcome.DOUBLE_FORFEIT
        ps = self.point_system
        touched = self._clear(round_no, white) | self._clear(round_no, black)
        self.entries[white][round_no] = Entry(
            w_result, ps.points(w_result, double_forfeit=double), black, "w"
        )
        self.entries[black][round_no] = Entry(
            b_result, ps.points(b_result, black=True, double_forfeit=double), white, "b"
        )
        self.rounds = max(self.rounds, round_no)
        return tuple(sorted(touched | {white, black}))

    def record_bye(self, round_no: int, start: int, result: Result) -> tuple[int, ...]:
        """Record a round without an opponent: a bye (PAB, FPB, HPB, ZPB) or an opponent-less
        forfeit. Returns the start numbers whose rounds changed."""
        self._check(round_no, start)
        if result.played or result is Result.NOT_PLAYED:
            raise HistoryError(f"{result.value} needs an opponent")
        touched = self._clear(round_no, start)
        self.entries[start][round_no] = Entry(result, self.point_system.points(result))
        self.rounds = max(self.rounds, round_no)
        return tuple(sorted(touched | {start}))

    def record_entry(self, round_no: int, start: int, entry: Entry) -> None:
        """Set one side of a round as it is (for importers that carry per-player entries)."""
        self._check(round_no, start)
        self.entries[start][round_no] = entry
        self.rounds = max(self.rounds, round_no)

    def withdraw(self, start: int, after_round: int) -> None:
        """The player withdraws after ``after_round``: later rounds are zero-point absences."""
        self._check(max(after_round, 1), start)
        player = self.players[start]
        self.players[start] = Player(player.start, player.name, player.rating, after_round)
        for round_no in [r for r in self.entries[start] if r > after_round]:
            del self.entries[start][round_no]

    def _clear(self, round_no: int, start: int) -> set[int]:
        """Remove the player's entry in that round, and the old opponent's mirror entry."""
        old = self.entries[start].pop(round_no, None)
        touched = {start}
        if old is not None and old.opponent is not None:
            mirror = self.entries[old.opponent].get(round_no)
            if mirror is not None and mirror.opponent == start:
                del self.entries[old.opponent][round_no]
                touched.add(old.opponent)
        return touched
