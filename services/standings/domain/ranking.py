"""The standings table: points, then an ordered list of tie-breaks, then (optionally) lots.

:func:`compute_table` computes a table from scratch. :class:`Standings` keeps one current: it applies
one result at a time and recomputes only what that result can change —

- the two players' own values (points, counts, PS, rating-based values),
- values that read the opponents' scores (BH, SB, FB, APRO) for everyone who met either player,
- AOB one step further out (the opponents of those),
- DE and KS, which depend on who is tied with whom or on the whole field, for everyone (cheap).

Columns shown for information only (``shown``: SB in a ``platform`` round robin, BH in a
``platform`` Swiss) are kept current the same way but never take part in the ranking.

A result for a new round changes the number of rounds ``n`` that several definitions use (16.4.2's
cap, FB's last round), so it recomputes everything.

Ranking (C.07 4.1): participants are ordered by points, then by each tie-break in turn (higher first,
except DE positions and the start number); participants equal on all of them share the rank. Where
the regulations end in lots, a recorded, reproducible draw orders each remaining tie
(:mod:`services.standings.domain.lots`); the drawn order is the ``place``, the rank stays shared.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction

from services.standings.domain.buchholz import average_of_buchholz, buchholz, fore_buchholz
from services.standings.domain.codes import Direction, TieBreak, parse_codes
from services.standings.domain.context import Rules, TieBreakContext, Value, point_scale
from services.standings.domain.counts import black_games, black_wins, elected_games, games_won, wins
from services.standings.domain.direct_encounter import direct_encounter
from services.standings.domain.history import Edition, EventHistory
from services.standings.domain.koya import koya, koya_limit
from services.standings.domain.lots import LotDraw, draw_lots
from services.standings.domain.performance import (
    average_performance_of_opponents,
    average_rating_of_opponents,
    perfect_performance,
    performance_rating,
)
from services.standings.domain.progressive import progressive_score
from services.standings.domain.sonneborn_berger import sonneborn_berger
from shared.scoring import Outcome, Result

__all__ = ["Row", "Standings", "Table", "compute_table", "compute_value"]

_ALL = 99
_REACH = {
    "BH": 1,
    "SB": 1,
    "FB": 1,
    "APRO": 1,
    "AOB": 2,
    "KS": _ALL,
    "DE": _ALL,
}
"""How far a changed result reaches: 0 the players themselves, 1 their opponents, 2 one step more."""


def compute_value(ctx: TieBreakContext, tb: TieBreak, start: int) -> Value:
    """One participant's value of one tie-break (not DE, which needs the tied group)."""
    name, low, high = tb.name, tb.low, tb.high
    if name == "BH":
        return buchholz(ctx, start, low, high)
    if name == "SB":
        return sonneborn_berger(ctx, start, low, high)
    if name == "FB":
        return fore_buchholz(ctx, start, low, high)
    if name == "AOB":
        return average_of_buchholz(ctx, start)
    if name == "PS":
        return progressive_score(ctx, start, low)
    if name == "ARO":
        return average_rating_of_opponents(ctx, start, low, high)
    if name == "TPR":
        return performance_rating(ctx, start, low, high)
    if name == "PTP":
        return perfect_performance(ctx, start, low, high)
    if name == "APRO":
        return average_performance_of_opponents(ctx, start)
    if name == "KS":
        return koya(ctx, start, koya_limit(ctx))
    if name == "SNO":
        return start
    if name == "PTS":
        return ctx.points(ctx.basis(start).score)
    counting: dict[str, Callable[[TieBreakContext, int], int]] = {
        "WIN": wins,
        "WON": games_won,
        "BPG": black_games,
        "BWG": black_wins,
        "GE": elected_games,
    }
    return counting[name](ctx, start)


@dataclass(frozen=True, slots=True)
class Row:
    start: int
    rank: int  # shared by participants equal on points and every tie-break
    place: int  # unique: rank order, ties in drawn order (lots) or else by start number
    points: Fraction
    tiebreaks: dict[str, Value]  # by code (``BH-C1``), in the order of the list
    shown: dict[str, Value] = field(default_factory=dict)  # informative columns, by code


@dataclass(frozen=True, slots=True)
class Table:
    rows: tuple[Row, ...]  # in place order
    tiebreaks: tuple[TieBreak, ...]
    edition: Edition
    rounds: int
    lots: LotDraw | None = None
    shown: tuple[TieBreak, ...] = ()  # informative columns, not used for ranking

    def row(self, start: int) -> Row:
        for row in self.rows:
            if row.start == start:
                return row
        raise KeyError(start)


def _sort_key(value: Value, direction: Direction) -> float:
    """A float key: exact for ranking, since every value is a fraction with a small denominator (at
    most the point scale squared, or 100 for AOB), far below where two such values could share a
    double. Undefined values sort last."""
    if value is None:
        return float("inf")
    return -float(value) if direction is Direction.HIGHER_FIRST else float(value)


class Standings:
    """A standings table kept current one result at a time (see the module text)."""

    def __init__(
        self,
        history: EventHistory,
        tiebreaks: str | Iterable[str | TieBreak],
        rules: Rules | None = None,
        *,
        lots_seed: str | None = None,
        shown: str | Iterable[str | TieBreak] = (),
    ) -> None:
        self.history = history
        self.rules = rules or Rules()
        self.tiebreaks: tuple[TieBreak, ...] = tuple(_as_tiebreaks(tiebreaks))
        informative = _as_tiebreaks(shown) if shown else []
        if any(tb.name == "DE" for tb in informative):
            raise ValueError("DE needs the tied group: it can rank but not be shown alone")
        self.shown: tuple[TieBreak, ...] = tuple(tb for tb in informative if tb not in self.tiebreaks)
        self._computed = self.tiebreaks + self.shown
        self.lots_seed = lots_seed
        self._ctx = TieBreakContext(history, self.rules)
        self._values: dict[str, dict[int, Value]] = {}
        self._keys: dict[str, dict[int, float]] = {}
        self._points: dict[int, Fraction] = {}
        self._recompute_all()
        self._table = self._rank()

    # -- applying results ------------------------------------------------------------------------

    def record_game(self, round_no: int, white: int, black: int, outcome: Outcome) -> Table:
        rounds = self.history.rounds
        touched = self.history.record_game(round_no, white, black, outcome)
        return self._update(set(touched), rounds)

    def record_bye(self, round_no: int, start: int, result: Result) -> Table:
        rounds = self.history.rounds
        touched = self.history.record_bye(round_no, start, result)
        return self._update(set(touched), rounds)

    def refresh(self) -> Table:
        """Recompute everything once, after many entries were recorded straight into the history
        (a whole round: one recomputation instead of one per game)."""
        self._recompute_all()
        self._table = self._rank()
        return self._table

    def table(self) -> Table:
        return self._table

    # -- recomputation ---------------------------------------------------------------------------

    def _recompute_all(self) -> None:
        ctx = self._ctx
        ctx.reset()
        ctx.scale = point_scale(self.history)
        players = list(self.history.players)
        self._points = {s: ctx.points(ctx.basis(s).score) for s in players}
        self._values = {}
        self._keys = {}
        for tb in self._computed:
            if tb.name == "DE":
                continue
            values: dict[int, Value]
            if tb.name == "KS":
                limit = koya_limit(ctx)
                values = {s: koya(ctx, s, limit) for s in players}
            else:
                values = {s: compute_value(ctx, tb, s) for s in players}
            self._values[tb.code] = values
            self._keys[tb.code] = {s: _sort_key(v, tb.direction) for s, v in values.items()}

    def _update(self, touched: set[int], rounds_before: int) -> Table:
        ctx = self._ctx
        scale_ok = all(
            (e.points * ctx.scale).denominator == 1 for s in touched for e in self.history.entries[s].values()
        )
        if self.history.rounds != rounds_before or not scale_ok:
            self._recompute_all()
            self._table = self._rank()
            return self._table
        deepest = max((min(_REACH.get(tb.name, 0), 2) for tb in self._computed), default=0)
        reach = [set(touched)]
        for _ in range(max(deepest, 1)):
            wider = set(reach[-1])
            for s in reach[-1]:
                wider |= self.history.opponents(s)
            reach.append(wider)
        ctx.forget(reach[0], basis=True)
        ctx.forget(reach[1], basis=False)
        players = list(self.history.players)
        for s in reach[0]:
            self._points[s] = ctx.points(ctx.basis(s).score)
        for tb in self._computed:
            level = _REACH.get(tb.name, 0)
            if tb.name == "DE":
                continue
            values = self._values[tb.code]
            keys = self._keys[tb.code]
            direction = tb.direction
            if tb.name == "KS":
                limit = koya_limit(ctx)
                changed: Iterable[int] = players
                for s in players:
                    values[s] = koya(ctx, s, limit)
            else:
                changed = reach[min(level, len(reach) - 1)]
                for s in changed:
                    values[s] = compute_value(ctx, tb, s)
            for s in changed:
                keys[s] = _sort_key(values[s], direction)
        self._table = self._rank()
        return self._table

    def _rank(self) -> Table:
        ctx = self._ctx
        points = self._points
        players = list(self.history.players)
        keys: dict[int, list[float]] = {s: [-float(points[s])] for s in players}
        for tb in self.tiebreaks:
            if tb.name == "DE":
                groups: dict[tuple[float, ...], list[int]] = {}
                for s in players:
                    groups.setdefault(tuple(keys[s]), []).append(s)
                de: dict[int, Value] = {}
                for group in groups.values():
                    de.update(direct_encounter(ctx, sorted(group), forfeits_count=tb.forfeits_played))
                self._values[tb.code] = de
                self._keys[tb.code] = {s: _sort_key(v, tb.direction) for s, v in de.items()}
            column = self._keys[tb.code]
            for s in players:
                keys[s].append(column[s])
        ordered = sorted(players, key=lambda s: (keys[s], s))
        tied: list[list[int]] = []
        for s in ordered:
            if tied and keys[tied[-1][0]] == keys[s]:
                tied[-1].append(s)
            else:
                tied.append([s])
        lots = None
        if self.lots_seed is not None:
            lots = draw_lots([g for g in tied if len(g) > 1], self.lots_seed)
            drawn = {min(group): group for group in lots.groups}
            tied = [list(drawn[min(g)]) if len(g) > 1 else g for g in tied]
        rows: list[Row] = []
        place = 0
        codes = [tb.code for tb in self.tiebreaks]
        columns = [self._values[code] for code in codes]
        shown = [(tb.code, self._values[tb.code]) for tb in self.shown]
        for group in tied:
            rank = place + 1
            for s in group:
                place += 1
                rows.append(
                    Row(
                        start=s,
                        rank=rank,
                        place=place,
                        points=points[s],
                        tiebreaks={code: column[s] for code, column in zip(codes, columns, strict=True)},
                        shown={code: column[s] for code, column in shown},
                    )
                )
        return Table(tuple(rows), self.tiebreaks, self.rules.edition, self.history.rounds, lots, self.shown)


def _as_tiebreaks(tiebreaks: str | Iterable[str | TieBreak]) -> list[TieBreak]:
    if isinstance(tiebreaks, str):
        return parse_codes(tiebreaks)
    items = list(tiebreaks)
    if all(isinstance(t, TieBreak) for t in items):
        return [t for t in items if isinstance(t, TieBreak)]
    return parse_codes([t.code if isinstance(t, TieBreak) else t for t in items])


def compute_table(
    history: EventHistory,
    tiebreaks: str | Iterable[str | TieBreak],
    rules: Rules | None = None,
    *,
    lots_seed: str | None = None,
    shown: str | Iterable[str | TieBreak] = (),
) -> Table:
    """The table from scratch: ``compute_table(history, "BH,BH-C1,SB,ARO", Rules(Edition.E2024))``."""
    return Standings(history, tiebreaks, rules, lots_seed=lots_seed, shown=shown).table()
