"""Group tables of the ``group-playoff`` ruleset (4T1 rules, RULES.md §5).

Every meeting is a two-game match: board points 1/½/0 per game, match points 2:0, 1:1 or 0:2
(:class:`shared.scoring.MatchScoring`). A player who withdraws (or is excluded) after the start has
every match of the phase scored 0:2 in match points and 0:2 in board points.

Order: (a) match points; (b) board points; (c) match points in the matches among the players tied on
(a) and (b); (d) board points in those matches; (e) a play-off: a match between two tied players, or a
round robin of play-off matches among three or more, ordered by (a)-(d); (f) lots, drawn by a
recorded, reproducible draw (:mod:`shared.lots`).

The table reports the groups that still need a play-off; once the play-off matches are given they
order the group, and what they leave tied goes to lots.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction

from shared.lots import LotDraw, draw_lots
from shared.scoring import MatchScoring, Outcome

__all__ = ["GroupRow", "GroupTable", "TableMatch", "group_table"]


@dataclass(frozen=True, slots=True)
class TableMatch:
    """A match between ``a`` and ``b``: each game as (outcome, a had White)."""

    a: int
    b: int
    games: tuple[tuple[Outcome, bool], ...]


@dataclass(frozen=True, slots=True)
class GroupRow:
    start: int
    rank: int
    place: int
    match_points: Fraction
    board_points: Fraction
    tied_match_points: Fraction | None  # (c), when tied on (a) and (b)
    tied_board_points: Fraction | None  # (d)
    playoff_needed: bool  # tied after (a)-(d) and no play-off result given


@dataclass(frozen=True, slots=True)
class GroupTable:
    rows: tuple[GroupRow, ...]
    playoff_groups: tuple[tuple[int, ...], ...] = ()
    lots: LotDraw | None = None

    def row(self, start: int) -> GroupRow:
        return next(r for r in self.rows if r.start == start)


@dataclass(slots=True)
class _Totals:
    mp: dict[int, Fraction] = field(default_factory=dict)
    bp: dict[int, Fraction] = field(default_factory=dict)


def _totals(
    players: Iterable[int], matches: Iterable[TableMatch], scoring: MatchScoring, withdrawn: set[int]
) -> _Totals:
    members = set(players)
    totals = _Totals({p: Fraction(0) for p in members}, {p: Fraction(0) for p in members})
    games_per_match = 2
    for m in matches:
        if m.a not in members or m.b not in members:
            continue
        if m.a in withdrawn or m.b in withdrawn:
            # 0:2 in match points and in board points for the withdrawn side (both withdrawn: 0:0)
            full = Fraction(games_per_match) * scoring.board.win
            a_out, b_out = m.a in withdrawn, m.b in withdrawn
            ba = Fraction(0) if a_out else full
            bb = Fraction(0) if b_out else full
            ma = scoring.loss if a_out else scoring.win
            mb = scoring.loss if b_out else scoring.win
        else:
            ba, bb = scoring.board_points(list(m.games))
            ma, mb = scoring.match_points(ba, bb)
        totals.mp[m.a] += ma
        totals.mp[m.b] += mb
        totals.bp[m.a] += ba
        totals.bp[m.b] += bb
    return totals


def _split(group: list[int], key: dict[int, Fraction]) -> list[list[int]]:
    ordered = sorted(group, key=lambda s: (-key[s], s))
    out: list[list[int]] = []
    for s in ordered:
        if out and key[out[-1][0]] == key[s]:
            out[-1].append(s)
        else:
            out.append([s])
    return out


def _playoff_order(
    sub: list[int], played: list[TableMatch], scoring: MatchScoring, withdrawn: set[int]
) -> list[list[int]]:
    """(e): the play-off's own results ordered by (a)-(d): match and board points in the play-off,
    then the same in the play-off matches among those still tied. What stays tied goes to lots."""
    po = _totals(sub, played, scoring, withdrawn)
    out: list[list[int]] = []
    for tied in (g2 for g1 in _split(sub, po.mp) for g2 in _split(g1, po.bp)):
        if len(tied) < 2 or len(tied) == len(sub):
            out.append(tied)
            continue
        among = _totals(tied, played, scoring, withdrawn)
        out.extend(g2 for g1 in _split(tied, among.mp) for g2 in _split(g1, among.bp))
    return out


def group_table(
    players: Iterable[int],
    matches: Iterable[TableMatch],
    *,
    scoring: MatchScoring | None = None,
    withdrawn: Iterable[int] = (),
    playoffs: Iterable[TableMatch] = (),
    lots_seed: str | None = None,
) -> GroupTable:
    scoring = scoring or MatchScoring()
    out_ = set(withdrawn)
    everyone = sorted(set(players))
    match_list = list(matches)
    playoff_list = list(playoffs)
    totals = _totals(everyone, match_list, scoring, out_)
    tied_mp: dict[int, Fraction | None] = dict.fromkeys(everyone)
    tied_bp: dict[int, Fraction | None] = dict.fromkeys(everyone)
    groups = [g2 for g1 in _split(everyone, totals.mp) for g2 in _split(g1, totals.bp)]
    resolved: list[list[int]] = []
    needing: list[tuple[int, ...]] = []
    for group in groups:
        if len(group) == 1:
            resolved.append(group)
            continue
        among = _totals(group, match_list, scoring, out_)
        for s in group:
            tied_mp[s], tied_bp[s] = among.mp[s], among.bp[s]
        for sub in (g2 for g1 in _split(group, among.mp) for g2 in _split(g1, among.bp)):
            if len(sub) == 1:
                resolved.append(sub)
                continue
            played = [m for m in playoff_list if m.a in sub and m.b in sub]
            if not played:
                needing.append(tuple(sub))
                resolved.append(sub)
                continue
            resolved.extend(_playoff_order(sub, played, scoring, out_))
    lots = None
    if lots_seed is not None:
        ties = [g for g in resolved if len(g) > 1 and tuple(g) not in needing]
        lots = draw_lots(ties, lots_seed)
        drawn = {min(g): list(g) for g in lots.groups}
        resolved = [drawn.get(min(g), g) if len(g) > 1 and tuple(g) not in needing else g for g in resolved]
    rows: list[GroupRow] = []
    place = 0
    for group in resolved:
        rank = place + 1
        shared = lots is None or tuple(group) in needing
        for i, s in enumerate(group):
            place += 1
            rows.append(
                GroupRow(
                    start=s,
                    rank=rank if shared else rank + i,
                    place=place,
                    match_points=totals.mp[s],
                    board_points=totals.bp[s],
                    tied_match_points=tied_mp[s],
                    tied_board_points=tied_bp[s],
                    playoff_needed=tuple(group) in needing,
                )
            )
    return GroupTable(tuple(rows), tuple(needing), lots)
