"""Unplayed rounds in the tie-breaks, FIDE C.07 Art. 16.

- 16.2.5 **voluntarily unplayed rounds** (VUR): half-point bye, zero-point bye, forfeit loss (and a
  round without any entry, which is a zero-point absence). A pairing-allocated bye, a full-point bye
  and a forfeit win are not VURs.
- 16.3 **adjusted score of an opponent**: the real points, except that VURs after the participant's
  last round that was not a VUR (a withdrawal, or a bye in the last round) count as draws. A forfeit
  loss has a scheduled opponent and keeps its points. In events with pre-determined pairings (round
  robin) such rounds count 0 instead.
- 16.4 the participant's own unplayed rounds count as a game against a **dummy opponent** whose score
  is the participant's own final score; from 2026-03-01 (16.4.1/16.4.2) it is capped: for a forfeit at
  the scheduled opponent's adjusted score, for a bye at draw points × number of rounds.
- 16.5 cuts prefer a VUR (see :mod:`services.standings.domain.cuts`).

Fore Buchholz (FB, Art. 8.3) treats every paired game of the last round as a draw; a participant who
is paired in the last round then has no trailing VURs, and their fore score is the score with the
last round replaced by a draw.

Scores here are integers in *units*: points × the point system's scale (2 for 1-½-0, 1 for 2-1-0),
so that the sums run on integers; :class:`~services.standings.domain.context.TieBreakContext` converts back.
"""

from __future__ import annotations

from dataclasses import dataclass

from services.standings.domain.history import Edition, Entry, EventHistory
from shared.scoring import Result

__all__ = ["Basis", "dummy_score", "player_basis"]


@dataclass(frozen=True, slots=True)
class Basis:
    """One player's rounds as flat tuples, and the scores other players' tie-breaks read."""

    results: tuple[Result, ...]
    opponents: tuple[int, ...]  # 0 = no scheduled opponent
    played: tuple[bool, ...]  # played over the board
    vur: tuple[bool, ...]  # voluntarily unplayed (16.2.5)
    colours: tuple[str, ...]
    units: tuple[int, ...]  # points of each round, in units
    score: int  # final score S
    adjusted: int  # 16.3 adjusted score (what the player gives their opponents' BH/SB)
    fore_score: int  # the score with a paired last round counted as a draw (FB)
    fore_adjusted: int  # the adjusted score for FB
    last_not_vur: int  # last round that was not voluntarily unplayed (0 if none)

    @property
    def opponents_met(self) -> list[int]:
        """The opponents played over the board, in round order."""
        return [o for o, played in zip(self.opponents, self.played, strict=True) if o and played]


def player_basis(history: EventHistory, start: int, scale: int) -> Basis:
    n = history.rounds
    ps = history.point_system
    draw = ps.draw.numerator * (scale // ps.draw.denominator)
    own = history.entries[start]
    absent = Entry(Result.ZERO_POINT_BYE, ps.zero_point_bye)
    entries = [own.get(r) or absent for r in range(1, n + 1)]
    units = tuple(e.points.numerator * (scale // e.points.denominator) for e in entries)
    opponents = tuple(e.opponent or 0 for e in entries)
    vur = tuple(e.result.voluntary_unplayed for e in entries)
    score = sum(units)
    last_not_vur = 0
    last_met = 0  # last round with a scheduled opponent or a pairing-allocated bye
    for r, e in enumerate(entries, start=1):
        if not vur[r - 1]:
            last_not_vur = r
        if e.opponent is not None or e.result is Result.PAIRING_BYE:
            last_met = r
    if last_not_vur == n:
        adjusted = score
    else:
        in_place = 0 if history.pre_determined else draw
        adjusted = sum(
            u if (r <= last_not_vur or opp) else in_place
            for r, (u, opp) in enumerate(zip(units, opponents, strict=True), start=1)
        )
    if n and last_met == n:
        # FB: paired (or PAB) in the last round: no trailing VUR; a paired last game is a draw.
        shift = (draw - units[-1]) if opponents[-1] else 0
        fore_score = fore_adjusted = score + shift
    else:
        fore_score, fore_adjusted = score, adjusted
    return Basis(
        results=tuple(e.result for e in entries),
        opponents=opponents,
        played=tuple(e.result.played and e.opponent is not None for e in entries),
        vur=vur,
        colours=tuple(e.colour for e in entries),
        units=units,
        score=score,
        adjusted=adjusted,
        fore_score=fore_score,
        fore_adjusted=fore_adjusted,
        last_not_vur=last_not_vur,
    )


def dummy_score(own: int, *, edition: Edition, scheduled_opponent: int | None, cap: int) -> int:
    """16.4: the dummy opponent of one of the participant's unplayed rounds (in units).

    2024 edition: the participant's own score. 2026 edition: capped at the scheduled opponent's
    adjusted score for a forfeit (16.4.1), at ``cap`` = draw points × rounds for a bye (16.4.2)."""
    if edition is Edition.E2024:
        return own
    if scheduled_opponent is not None:
        return min(own, scheduled_opponent)
    return min(own, cap)
