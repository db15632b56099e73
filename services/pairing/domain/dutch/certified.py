"""A bracket decided by assignments instead of general matchings, when that is provably exact.

The general procedure (:mod:`.brackets`) decides a bracket with maximum-weight matchings on its
window. In the common case the bracket has a simpler shape: every moved-down player (MDP) is
paired in the bracket, the residents pair up but for at most one *floater*, and the floater's
effect on everything outside the bracket is the best possible whoever floats. Then
:func:`solve_bracket` decides it in five steps:

1. **The window** (:class:`_CertifiedBracket`): the bracket and the *rest* of its window (the
   next score group; in a full bracket everyone below), and whether the shape and C9 allow the
   fast path at all.
2. **Certify the floaters** (:meth:`~_CertifiedBracket.certify_floaters`). The fields above the
   colour criteria (``top``, ``c6``, ``c7``, ``n6``, ``n7``, ``c9``) depend only on who floats.
   The rest is matched once, and each candidate floater is *certified* by an explicit matching
   of the rest (one alternating path away) that reaches an upper bound valid for every matching
   (:class:`_UpperBound`). A candidate that cannot reach the bound is excluded only when that
   is proved (it has no partner in the next score group; with nothing left to pair, the values
   are exact); otherwise the bracket goes back to the general procedure.
3. **Pack the lower fields** (:meth:`~_CertifiedBracket.lower_field_costs`). The fields from
   ``col`` down are sums over the bracket's pairs. For resident pairs the float fields split
   into one term per player, so only the floater's term is left; it sits on the edge between the
   floater and a dummy vertex D. The fields are packed into one number per edge (a balanced
   mixed radix, so the lexicographic order is kept) in chunks below 2**48, each chunk
   optimised among the optima of the chunks before it.
4. **The candidate and its proof** (:meth:`~_CertifiedBracket.optimal_candidate`). Each MDP in
   turn takes the first resident that the bound does not rule out (stage B's order); the
   remainder is split into S1 and S2 and solved as an assignment (S1 plus D against S2). This
   candidate has no exchange. It is optimal if its value equals an upper bound for *all*
   matchings of the bracket: the assignment on the bipartite double cover (every vertex on both
   sides), which is the fractional matching relaxation (or, without MDPs, the sum of each
   vertex's cheapest edge). Then stages A-C are settled (all MDPs paired, no exchange needed).
5. **The transpositions** (:meth:`~_CertifiedBracket.record`): each S1 player in turn gets the
   first S2 opponent still possible, read off the tight cells of the optimal assignments' dual
   (:func:`.assignment.lex_first`); the floater joins the rest's matching along its certified
   path.

Whenever a step cannot be proved it raises :class:`_Unproved` (naming the reason), nothing is
written, :func:`solve_bracket` returns None and the caller runs the general procedure, so the
result is always the one the matchings would give.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from services.pairing.domain.dutch import assignment
from services.pairing.domain.dutch.assignment import Matrix
from services.pairing.domain.dutch.criteria import Contribution, current_pair, field_order
from services.pairing.domain.dutch.matching import (
    Index,
    Mask,
    flip,
    grow_matching,
    max_weight_matching,
    outer_vertices,
)
from services.pairing.domain.dutch.players import FieldPlayer, Float
from services.pairing.domain.dutch.state import RoundState

Counts = npt.NDArray[np.int64]
Vector = npt.NDArray[np.float64]

_LOWER = ("col", "f14", "f15", "f16", "f17", "f18", "f19", "f20", "f21")
_EXACT_REST = 400  # the largest rest solved exactly when the per-field bound is not reached


class _Unproved(Exception):
    """The fast path cannot prove its answer; the message names the step (for diagnostics)."""


def solve_bracket(
    state: RoundState, mdps: list[int], residents: list[int], next_group: list[int], c9: bool, full: bool
) -> dict[int, int] | None:
    """Pair the bracket (writing ``state.mate_final``) and return its window matching, or None
    if the fast path cannot prove its answer."""
    try:
        bracket = _CertifiedBracket(state, mdps, residents, next_group, c9, full)
        floaters = bracket.certify_floaters()
        costs = bracket.lower_field_costs(floaters.admissible)
        mdp_pairs, candidate = bracket.optimal_candidate(costs)
        return bracket.record(mdp_pairs, candidate, floaters)
    except _Unproved:
        return None


def _is_lower(key: Hashable) -> bool:
    name = key[0] if isinstance(key, tuple) else key
    return name in _LOWER


def floats_term(p: FieldPlayer, rounds: int) -> Contribution:
    """A resident's share of the float fields of any pair with another resident."""
    out: Contribution = {}
    for back, (down, down_s) in enumerate((("f14", "f18"), ("f16", "f20"))):
        if rounds <= back:
            break
        if p.floats[back] is Float.DOWN:
            out[down] = 1
            out[(down_s, p.score)] = 1
    return out


# -- step 2: the floaters ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _UpperBound:
    """What no matching of the window exceeds in the fields above the colour criteria, given
    the bracket's own share: its pairs (``c6``), its non-candidates for the PAB and C9 ranks."""

    pairs: int  # c6: the bracket pairs up but for the floater
    noncand: int  # PAB non-candidates among the bracket's players
    c9: int  # C9 ranks of the bracket's players ...
    c9_all: int  # ... and of the whole window
    next_pairs: int  # n6
    floater_pairs: int  # n7: pairs of the floater in the next score group
    top: int | None  # completion and PAB candidates; full brackets only

    def reached(self, rest_pairs: Any, noncand: Any, next_pairs: Any, floater_pairs: Any, c9: Any) -> Any:
        """Whether a matching of the rest with these totals (numbers or arrays of them) meets
        the bound, the bracket being paired."""
        hit = (next_pairs == self.next_pairs) & (floater_pairs == self.floater_pairs) & (c9 == self.c9_all)
        if self.top is not None:
            hit = hit & (self.pairs + rest_pairs + noncand == self.top)
        return hit


class _Rest:
    """The rest of the window as local vertices ``0..size-1``, and a matching of it."""

    def __init__(self, bracket: _CertifiedBracket) -> None:
        rest = bracket.rest
        next_set = set(bracket.next_group)
        self.vertices: Index = np.array(rest, dtype=np.intp)
        self.in_next: Mask = np.array([v in next_set for v in rest], dtype=bool)
        self.noncand: Counts = np.array([bracket.noncand[v] for v in rest], dtype=np.int64)
        self.rank: Counts = np.array([bracket.rank[v] for v in rest], dtype=np.int64)
        self.compat: Mask = bracket.compat[np.ix_(self.vertices, self.vertices)]
        self.use(grow_matching(self.compat, len(bracket.next_group)))

    @property
    def size(self) -> int:
        return len(self.vertices)

    def use(self, mate: Index) -> None:
        """Take ``mate`` as the rest's matching and count its totals."""
        self.mate = mate
        self.matched: Mask = mate >= 0
        self.pairs = int(self.matched.sum()) // 2
        self.noncand_paired = int(self.noncand[self.matched].sum())
        partner_next = self.in_next[np.maximum(mate, 0)]
        self.next_pairs = int((self.matched & self.in_next & partner_next).sum()) // 2
        self.rank_paired = int(self.rank[self.matched].sum())


def _best_rest(sub: Mask, in_ng: Mask, noncand: Counts | None, rank: Counts) -> Index:
    """A matching of the rest that is lexicographically best for ``top`` (if ``noncand`` is
    given), ``n6``/``n7`` (pairs within the next score group) and ``c9`` (ranks)."""
    size = sub.shape[0]
    c9_unit = 2 * int(rank.sum()) + 1
    n6_unit = c9_unit * (size + 1)
    top_unit = n6_unit * (size + 1)
    edges = []
    for a, b in np.argwhere(np.triu(sub, 1)).tolist():
        w = (bool(in_ng[a] and in_ng[b])) * n6_unit + int(rank[a] + rank[b])
        if noncand is not None:
            w += (1 + int(noncand[a]) + int(noncand[b])) * top_unit
        if w > 0:
            edges.append((a, b, w))
    mate = max_weight_matching(size, edges)
    return np.array(mate, dtype=np.intp)


@dataclass(frozen=True, slots=True)
class _Floaters:
    """The residents that may float (``admissible``), the rest with its matching, and how a
    floater joins that matching: ``paths`` (per exposed vertex of the rest: the outer vertices
    where a floater may attach, and the alternating path back) or ``swap`` (the vertices whose
    partner it may take, leaving the partner out)."""

    admissible: list[int]
    rest: _Rest
    paths: list[tuple[Mask, Index]]
    swap: Mask


# -- step 3: the lower fields as costs -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Costs:
    """Per chunk of packed fields (most significant first), assignment costs (negated weights;
    ``inf`` where a pair is impossible): resident against resident (``[lower, higher]`` by
    position), MDP against resident, and resident against the dummy (floating)."""

    residents: list[Matrix]
    mdps: list[Matrix]
    dummy: list[Vector]

    @property
    def chunks(self) -> int:
        return len(self.residents)


def _mixed_radix(bounds: dict[Hashable, int]) -> list[dict[Hashable, int]]:
    """Place values for the fields, most significant first, in chunks whose packed sums stay
    exact (a field of bound ``b`` takes ``2b + 1`` values: sums of penalties may be negative)."""
    chunks: list[dict[Hashable, int]] = []
    scale = assignment.EXACT
    for key in sorted(bounds, key=field_order):
        width = 2 * bounds[key] + 1
        if scale * width > assignment.EXACT:
            chunks.append({})
            scale = 1
        chunks[-1][key] = width
        scale *= width
    places: list[dict[Hashable, int]] = []
    for chunk in chunks:
        place: dict[Hashable, int] = {}
        scale = 1
        for key in reversed(list(chunk)):
            place[key] = scale
            scale *= chunk[key]
        places.append(place)
    return places or [{}]


def _packed(contribution: Contribution, place: dict[Hashable, int]) -> float:
    return float(sum(val * place[key] for key, val in contribution.items() if val and key in place))


# -- step 4: the candidate -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Candidate:
    """The remainder (residents not taken by MDPs, positions in the bracket) as S1 (plus D)
    against S2, an optimal assignment ``sigma``, its total per chunk, and the cells that hold
    every lexicographically optimal assignment."""

    s1: list[int]
    s2: list[int]
    sigma: Index
    totals: list[float]
    allowed: Mask


class _CertifiedBracket:
    """Step 1, the window: MDPs ``mdps``, ``residents`` and the ``next_group`` (vertex indices)."""

    def __init__(
        self,
        state: RoundState,
        mdps: list[int],
        residents: list[int],
        next_group: list[int],
        c9: bool,
        full: bool,
    ) -> None:
        n_mdps, n_residents = len(mdps), len(residents)
        if n_mdps > n_residents or n_mdps + n_residents < 4:
            raise _Unproved("shape")
        self.state = state
        self.players = state.players
        self.tables = state.tables()
        self.compat = self.tables.compat
        self.mdps, self.residents, self.next_group = mdps, residents, next_group
        self.full = full
        self.n_mdps, self.n_residents = n_mdps, n_residents
        self.noncand = [not c for c in state.bye_candidate]
        self.rest = self._rest_of_window(c9)
        # C9 (when on): every player of the bye's score paired in the window scores the rank of
        # their played-game count; all pairs of the rest are inside the window here.
        self.rank = [state.c9_weight(v, c9) for v in range(state.n)]
        self.odd = (n_mdps + n_residents) % 2  # one resident floats
        self.pairs = (n_mdps + n_residents - self.odd) // 2  # c6
        self.resident_pairs = self.pairs - n_mdps  # pairs between S1 and S2

    def _rest_of_window(self, c9: bool) -> list[int]:
        state, next_group = self.state, self.next_group
        if self.full:
            below = range((next_group or self.residents)[-1] + 1, state.n)
            rest = next_group + [v for v in below if v not in state.mate_final]
        else:
            rest = list(next_group)
        if len(rest) > len(next_group):
            # C9 below the window: only pairs inside the window are handled here, and the next
            # bracket's C9 flag would read which players the window matching sends down.
            if c9 or state.c9_initial:
                raise _Unproved("c9")
            if state.n % 2 == 1 and next_group and state.bye_score >= self.players[next_group[0]].score:
                raise _Unproved("c9-next")
        elif state.c9_initial and not c9:
            raise _Unproved("c9")
        return rest

    # -- step 2 ------------------------------------------------------------------------------

    def _upper_bound(self) -> _UpperBound:
        bracket = self.mdps + self.residents
        next_count = len(self.next_group)
        top = None
        if self.full:
            everyone = bracket + self.rest
            top = len(everyone) // 2 + sum(self.noncand[v] for v in everyone)
        c9 = sum(self.rank[v] for v in bracket)
        return _UpperBound(
            pairs=self.pairs,
            noncand=sum(self.noncand[v] for v in bracket),
            c9=c9,
            c9_all=c9 + sum(self.rank[v] for v in self.rest),
            next_pairs=min(next_count, (next_count + self.odd) // 2),
            floater_pairs=min(self.odd, next_count),
            top=top,
        )

    def certify_floaters(self) -> _Floaters:
        """The residents that may float, each proved to leave the fields above the colour
        criteria at their bound (none when the bracket pairs up completely)."""
        rest = _Rest(self)
        bound = self._upper_bound()
        if not self.odd:
            self._pair_rest_alone(rest, bound)
            return _Floaters([], rest, [], np.zeros(rest.size, dtype=bool))
        return self._floaters_at_bound(rest, bound)

    def _pair_rest_alone(self, rest: _Rest, bound: _UpperBound) -> None:
        """With the bracket paired within itself, the rest is on its own: if the grown matching
        misses the bound per field (which may not be reachable at once), its exact optimum
        settles the fields below ``top``."""
        if bound.reached(
            rest.pairs, bound.noncand + rest.noncand_paired, rest.next_pairs, 0, bound.c9 + rest.rank_paired
        ):
            return
        if rest.size > _EXACT_REST:
            raise _Unproved("rest-even")
        rest.use(_best_rest(rest.compat, rest.in_next, rest.noncand if self.full else None, rest.rank))
        if (
            bound.top is not None
            and self.pairs + rest.pairs + bound.noncand + rest.noncand_paired != bound.top
        ):
            raise _Unproved("rest-even")

    def _floaters_at_bound(self, rest: _Rest, bound: _UpperBound) -> _Floaters:
        # good[x]: pairing the floater with x (and repairing the rest along a path) meets the
        # bound. The floater is matched either way, so whether it is a PAB candidate is moot.
        good = np.zeros(rest.size, dtype=bool)
        in_next = rest.in_next.astype(np.int64)
        paths: list[tuple[Mask, Index]] = []
        for y in np.flatnonzero(~rest.matched).tolist():
            # augmenting paths f - o == ... - y for every outer vertex o of y's search
            outer, gain, back = outer_vertices(rest.compat, rest.mate, y, rest.in_next)
            hit = outer & bound.reached(
                rest.pairs + 1,
                bound.noncand + rest.noncand_paired + rest.noncand[y],
                rest.next_pairs + gain + in_next,
                in_next,
                bound.c9 + rest.rank_paired + rest.rank[y],
            )
            paths.append((hit, back))
            good |= hit
        swap = np.zeros(rest.size, dtype=bool)
        if rest.size:
            # f takes x from its partner x2, who is left out
            x2 = np.maximum(rest.mate, 0)
            swap = rest.matched & bound.reached(
                rest.pairs,
                bound.noncand + rest.noncand_paired - rest.noncand[x2],
                rest.next_pairs - (in_next & in_next[x2]) + in_next,
                in_next,
                bound.c9 + rest.rank_paired - rest.rank[x2],
            )
            good |= swap
            admissible = self._certified(rest, good)
        else:
            admissible = self._floaters_to_pab(bound)
        if not admissible:
            raise _Unproved("no-floater")
        return _Floaters(admissible, rest, paths, swap)

    def _floaters_to_pab(self, bound: _UpperBound) -> list[int]:
        """Nothing to pair the floater with: it gets the PAB. The values are exact, so the
        floaters are the best ones (the bracket must still pair up without them), if the PAB
        then goes to a PAB candidate (else an MDP may take it instead)."""
        value = {f: (bound.noncand - self.noncand[f], bound.c9 - self.rank[f]) for f in self.residents}
        best = max(value.values())
        if bound.top is None or self.pairs + best[0] != bound.top:
            raise _Unproved("no-floater")
        return [f for f in self.residents if value[f] == best]

    def _certified(self, rest: _Rest, good: Mask) -> list[int]:
        """The residents with a partner in ``good``; one that has none must be unable to float
        into the next score group at all (provably worse), else nothing is proved."""
        admissible = []
        rows = self.compat[np.ix_(np.array(self.residents, dtype=np.intp), rest.vertices)]
        for f, row in zip(self.residents, rows, strict=True):
            if (row & good).any():
                admissible.append(f)
            elif self.next_group and not row[rest.in_next].any():
                continue
            else:
                raise _Unproved("floater-unproved")
        return admissible

    # -- step 3 ------------------------------------------------------------------------------

    def _lower_fields(
        self, admissible: list[int]
    ) -> tuple[dict[tuple[int, int], Contribution], dict[int, Contribution], dict[Hashable, int]]:
        """The fields from ``col`` down that are not resident-pair colours: per MDP-resident pair
        (positions in ``mdps`` and ``residents``; the resident's own float term taken out), and
        per admissible floater (minus its float term, on its edge to the dummy). Also a bound
        on each field's sum."""
        players, residents = self.players, self.residents
        rounds = self.state.field.rounds_played
        own = [floats_term(players[v], rounds) for v in residents]
        mdp_fields: dict[tuple[int, int], Contribution] = {}
        for a, mdp in enumerate(self.mdps):
            for j, resident in enumerate(residents):
                if self.compat[mdp, resident]:
                    c = {
                        key: val
                        for key, val in current_pair(players[mdp], players[resident], rounds).items()
                        if _is_lower(key)
                    }
                    for key, val in own[j].items():
                        c[key] = c.get(key, 0) - val
                    mdp_fields[(a, j)] = c
        floats = set(admissible)
        dummy_fields = {
            j: {key: -val for key, val in own[j].items()} for j, v in enumerate(residents) if v in floats
        }
        types = self.tables.ctype[np.array(residents, dtype=np.intp)]
        present = np.unique(types)
        bounds: dict[Hashable, int] = {}
        for kk in range(4):
            if self.tables.misses[kk][np.ix_(present, present)].any():
                bounds[("col", kk)] = 2 * self.pairs
        largest: dict[Hashable, int] = {}
        for c in list(mdp_fields.values()) + list(dummy_fields.values()):
            for key, val in c.items():
                if val:
                    largest[key] = max(largest.get(key, 0), abs(val))
        for key, val in largest.items():
            if isinstance(key, tuple) and key[0] == "col":
                bounds[key] = 2 * self.pairs
            else:
                bounds[key] = 2 * (self.n_mdps + self.odd) * val
        return mdp_fields, dummy_fields, bounds

    def lower_field_costs(self, admissible: list[int]) -> _Costs:
        """The fields from ``col`` down as assignment costs, one set of matrices per chunk."""
        mdp_fields, dummy_fields, bounds = self._lower_fields(admissible)
        k, tables = self.n_residents, self.tables
        types = tables.ctype[np.array(self.residents, dtype=np.intp)]
        resident_arr = np.array(self.residents, dtype=np.intp)
        compat = self.compat[np.ix_(resident_arr, resident_arr)]
        costs = _Costs([], [], [])
        for place in _mixed_radix(bounds):
            colour = np.zeros(tables.misses.shape[1:], dtype=np.float64)
            for kk in range(4):
                if ("col", kk) in place:
                    colour += tables.misses[kk] * float(place[("col", kk)])
            between = colour[types[:, None], types[None, :]]  # [lower, higher] by position
            if not tables.symmetric:
                below_diag = np.arange(k)[:, None] > np.arange(k)[None, :]
                between = np.where(below_diag, between, between.T)
            np.negative(between, out=between)
            between[~compat] = np.inf
            mdp_cost = np.full((self.n_mdps, k), np.inf)
            for (a, j), c in mdp_fields.items():
                mdp_cost[a, j] = -_packed(c, place)
            dummy_cost = np.full(k, np.inf)
            for j, c in dummy_fields.items():
                dummy_cost[j] = -_packed(c, place)
            costs.residents.append(between)
            costs.mdps.append(mdp_cost)
            costs.dummy.append(dummy_cost)
        return costs

    # -- step 4 ------------------------------------------------------------------------------

    def _candidate(self, costs: _Costs, taken: list[int]) -> _Candidate | None:
        """The remainder (residents not taken by MDPs) as S1 (plus D) against S2, solved."""
        remainder = [j for j in range(self.n_residents) if j not in taken]
        s1, s2 = remainder[: self.resident_pairs], remainder[self.resident_pairs :]
        side = np.array(s1, dtype=np.intp)
        other = np.array(s2, dtype=np.intp)
        matrices = []
        for between, dummy in zip(costs.residents, costs.dummy, strict=True):
            matrix = between[np.ix_(side, other)] if s1 else np.zeros((0, len(s2)))
            if self.odd:
                matrix = np.vstack([matrix, dummy[other][None, :]])
            matrices.append(matrix)
        solved = assignment.lex_solve(matrices)
        return None if solved is None else _Candidate(s1, s2, *solved)

    def _double_cover(self, costs: _Costs, chunk: int) -> Matrix:
        """The costs on the bipartite double cover (every vertex on both sides)."""
        m, k = self.n_mdps, self.n_residents
        size = m + k + self.odd
        out = np.full((size, size), np.inf)
        out[m : m + k, m : m + k] = costs.residents[chunk]
        out[:m, m : m + k] = costs.mdps[chunk]
        out[m : m + k, :m] = costs.mdps[chunk].T
        if self.odd:
            dummy = m + k
            out[dummy, m : m + k] = costs.dummy[chunk]
            out[m : m + k, dummy] = costs.dummy[chunk]
        return out

    def _reaches_cheapest_edges(self, costs: _Costs, candidate: _Candidate) -> bool:
        """Without MDPs, the simplest bound: the sum of each vertex's cheapest edge."""
        cheapest = costs.residents[0].min(axis=1)
        if self.odd:
            cheapest = np.minimum(cheapest, costs.dummy[0])
            cheapest = np.append(cheapest, costs.dummy[0].min())
        return bool(2 * candidate.totals[0] == cheapest.sum())

    def _mdp_opponents(self, costs: _Costs, covers: list[Matrix], bound: list[float]) -> list[int]:
        """Stage B: each MDP in turn takes the first resident (position) the bound does not
        rule out (ruled out: the bound with the pair fixed is worse than the bound; that the
        pair chosen is really possible is proved by the candidate)."""
        m, size = self.n_mdps, covers[0].shape[0]
        taken: list[int] = []
        for a in range(m):
            for j in range(self.n_residents):
                if j in taken or not np.isfinite(costs.mdps[0][a, j]):
                    continue
                gone = {a, m + j} | set(range(a)) | {m + jj for jj in taken}
                keep = np.array([v for v in range(size) if v not in gone], dtype=np.intp)
                fixed = assignment.lex_solve([c[np.ix_(keep, keep)] for c in covers], last_tight=False)
                pairs_fixed = list(enumerate([*taken, j]))
                if fixed is not None and all(
                    2 * sum(costs.mdps[ci][aa, jj] for aa, jj in pairs_fixed) + fixed[1][ci] == bound[ci]
                    for ci in range(costs.chunks)
                ):
                    taken.append(j)
                    break
            else:
                raise _Unproved("mdp-no-partner")
        return taken

    def optimal_candidate(self, costs: _Costs) -> tuple[list[tuple[int, int]], _Candidate]:
        """The MDPs' pairs (vertex indices) and the remainder's assignment, proved optimal."""
        if not self.n_mdps and costs.chunks == 1:
            # Without MDPs, a candidate that reaches the simplest bound needs no double cover.
            found = self._candidate(costs, [])
            if found is None:
                raise _Unproved("bip-infeasible")
            if self._reaches_cheapest_edges(costs, found):
                return [], found
        covers = [self._double_cover(costs, ci) for ci in range(costs.chunks)]
        solved = assignment.lex_solve(covers, last_tight=False)
        if solved is None:
            raise _Unproved("bound-infeasible")
        bound = solved[1]
        taken = self._mdp_opponents(costs, covers, bound)
        del covers
        # with no exchange, the candidate must reach the bound
        candidate = self._candidate(costs, taken)
        if candidate is None:
            raise _Unproved("bip-infeasible")
        for ci in range(costs.chunks):
            mdp_total = sum(costs.mdps[ci][a, j] for a, j in enumerate(taken))
            if 2 * (mdp_total + candidate.totals[ci]) != bound[ci]:
                raise _Unproved("not-optimal")
        return [(mdp, self.residents[j]) for mdp, j in zip(self.mdps, taken, strict=True)], candidate

    # -- step 5 ------------------------------------------------------------------------------

    def record(
        self, mdp_pairs: list[tuple[int, int]], candidate: _Candidate, floaters: _Floaters
    ) -> dict[int, int]:
        """Stage D (each S1 player in turn gets the first S2 opponent still possible), the pairs
        written to the state; returns the window matching, the floater joining the rest's."""
        sigma = assignment.lex_first(candidate.allowed, candidate.sigma, self.resident_pairs)
        residents = self.residents
        transposed = [
            (residents[candidate.s1[i]], residents[candidate.s2[int(sigma[i])]])
            for i in range(self.resident_pairs)
        ]
        decided = self.state.mate_final
        out: dict[int, int] = {}
        for a, b in mdp_pairs + transposed:
            decided[a] = b
            decided[b] = a
            out[a] = b
            out[b] = a
        floater = residents[candidate.s2[int(sigma[self.resident_pairs])]] if self.odd else None
        self._window_matching(out, floater, floaters)
        return out

    def _window_matching(self, out: dict[int, int], floater: int | None, floaters: _Floaters) -> None:
        """The window matching also pairs the rest (its unpaired players are checked for
        completion): the rest's matching, with the floater attached along its certified path."""
        rest = floaters.rest
        local = [int(v) for v in rest.vertices]
        mate = rest.mate.copy()
        if floater is not None:
            local.append(floater)
            mate = np.append(mate, -1)
            if rest.size:
                row = self.compat[floater, rest.vertices]
                for hit, back in floaters.paths:
                    at = np.flatnonzero(row & hit)
                    if at.size:
                        flip(mate, back, int(at[0]), rest.size)
                        break
                else:
                    x = int(np.flatnonzero(row & floaters.swap)[0])
                    mate[mate[x]] = -1
                    mate[x], mate[-1] = rest.size, x
        for i, j in enumerate(mate.tolist()):
            if j >= 0:
                out[local[i]] = local[j]
