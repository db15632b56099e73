"""A bracket decided by assignments instead of general matchings, when that is provably exact.

The general procedure (:mod:`.brackets`) decides a bracket with maximum-weight matchings on its
window. In the common case the bracket has a simpler shape: every moved-down player (MDP) is
paired in the bracket, the residents pair up but for at most one *floater*, and the floater's
effect on everything outside the bracket is the best possible whoever floats. Then:

* The fields above the colour criteria (``top``, ``c6``, ``c7``, ``n6``, ``n7``, ``c9``) depend
  only on the floater. The rest (the next score group; in a full bracket everyone below) is
  matched once, and each candidate floater is *certified* by an explicit matching of the rest
  (one alternating path away) that reaches an upper bound valid for every matching. A
  candidate that cannot reach the bound is excluded only when that is proved (it has no
  partner in the next score group; with nothing left to pair, the values are exact);
  otherwise the bracket goes back to the general procedure.
* The fields from ``col`` down are sums over the bracket's pairs. For resident pairs the float
  fields split into one term per player, so only the floater's term is left; it sits on the
  edge between the floater and a dummy vertex D. The fields are packed into one number per
  edge (a balanced mixed radix, so the lexicographic order is kept) in chunks below 2**48,
  each chunk optimised among the optima of the chunks before it.
* Each MDP in turn takes the first resident that the bound does not rule out (stage B's
  order); the remainder is split into S1 and S2 and solved as an assignment (S1 plus D
  against S2). This candidate has no exchange.
* The candidate is optimal if its value equals an upper bound for *all* matchings of the
  bracket: the assignment on the bipartite double cover (every vertex on both sides), which is
  the fractional matching relaxation (or, without MDPs, the sum of each vertex's cheapest
  edge). Then stages A-C are settled (all MDPs paired, no exchange needed), and the
  transpositions (each S1 player in turn gets the first S2 opponent still possible) are read
  off the tight cells of the optimal assignments' dual (:func:`.assignment.lex_first`).

Whenever a step cannot be proved, :func:`solve_bracket` returns None (through :func:`_no`,
which names the reason) and the caller runs the general procedure, so the result is always
the one the matchings would give.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import numpy as np

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
from services.pairing.domain.dutch.players import Float, Player
from services.pairing.domain.dutch.state import RoundState

_LOWER = ("col", "f14", "f15", "f16", "f17", "f18", "f19", "f20", "f21")


def _no(reason: str) -> dict[int, int] | None:
    """Give up on the fast path (``reason`` is for diagnostics)."""
    return None


def _is_lower(key: Hashable) -> bool:
    name = key[0] if isinstance(key, tuple) else key
    return name in _LOWER


def floats_term(p: Player, rounds: int) -> Contribution:
    """A resident's share of the float fields of any pair with another resident."""
    out: Contribution = {}
    for back, (down, down_s) in enumerate((("f14", "f18"), ("f16", "f20"))):
        if rounds <= back:
            break
        if p.floats[back] is Float.DOWN:
            out[down] = 1
            out[(down_s, p.score)] = 1
    return out


_EXACT_REST = 400  # the largest rest solved exactly when the per-field bound is not reached


def _best_rest(sub: Mask, in_ng: Mask, noncand: Index | None, rank: Index) -> Index:
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


def solve_bracket(
    s: RoundState, mdps: list[int], sg: list[int], ng: list[int], flag: bool, full: bool
) -> dict[int, int] | None:
    """Pair the bracket (writing ``s.mate_final``) and return its pairs, or None if the fast
    path cannot prove its answer."""
    players = s.players
    n = s.n
    m, k = len(mdps), len(sg)
    if m > k or m + k < 4:
        return _no("shape")
    tables = s.tables()
    compat = tables.compat
    final = s.mate_final
    noncand = [not c for c in s.bye_candidate]
    ng_set = set(ng)
    if full:
        rest = ng + [v for v in range((ng or sg)[-1] + 1, n) if v not in final]
    else:
        rest = list(ng)
    if len(rest) > len(ng):
        # C9 below the window: only pairs inside the window are handled here, and the next
        # bracket's C9 flag would read which players the window matching sends down.
        if flag or s.c9_initial:
            return _no("c9")
        if n % 2 == 1 and ng and s.bye_score >= players[ng[0]].score:
            return _no("c9-next")
    elif s.c9_initial and not flag:
        return _no("c9")
    # C9 (when on): every player of the bye's score paired in the window scores the rank of
    # their played-game count; all pairs of the rest are inside the window here.
    rank = [s.c9_weight(v, flag) for v in range(n)]
    odd = (m + k) % 2
    c6 = (m + k - odd) // 2
    npairs = c6 - m
    t = len(ng)

    # -- the fields above the colour criteria, as a function of the floater -------------------
    n6_ub = min(t, (t + odd) // 2)
    n7_ub = min(odd, t)
    if full:
        free_count = m + k + len(rest)
        top_ub = free_count // 2 + sum(noncand[v] for v in mdps + sg + rest)
    nc_bracket = sum(noncand[v] for v in mdps + sg)
    c9_bracket = sum(rank[v] for v in mdps + sg)
    c9_ub = c9_bracket + sum(rank[v] for v in rest)
    r_arr = np.array(rest, dtype=np.intp)
    in_ng = np.array([v in ng_set for v in rest], dtype=bool)
    nc_r = np.array([noncand[v] for v in rest], dtype=np.int64)
    c9_r = np.array([rank[v] for v in rest], dtype=np.int64)
    sub = compat[np.ix_(r_arr, r_arr)]
    mate_r = grow_matching(sub, t)
    matched = mate_r >= 0
    pairs_r = int(matched.sum()) // 2
    nc_r_matched = int(nc_r[matched].sum())
    n6_r = int((matched & in_ng & in_ng[np.maximum(mate_r, 0)]).sum()) // 2
    c9_r_matched = int(c9_r[matched].sum())

    def reaches(pairs: Any, nc: Any, n6: Any, n7: Any, c9: Any) -> Any:
        """Whether the matching of the rest (with the bracket paired) meets the upper bound;
        works on arrays too."""
        hit = (n6 == n6_ub) & (n7 == n7_ub) & (c9 == c9_ub)
        if full:
            hit = hit & (c6 + pairs + nc == top_ub)
        return hit

    admissible: list[int] = []
    paths: list[tuple[Mask, Index]] = []  # per exposed vertex: where a floater may attach
    swap = np.zeros(len(rest), dtype=bool)  # where it may take a partner away
    if not odd:
        if not reaches(pairs_r, nc_bracket + nc_r_matched, n6_r, 0, c9_bracket + c9_r_matched):
            # The bound per field may not be reachable at once: with the bracket paired within
            # itself, the rest is on its own, so its exact optimum settles the fields below top.
            if len(rest) > _EXACT_REST:
                return _no("rest-even")
            mate_r = _best_rest(sub, in_ng, nc_r if full else None, c9_r)
            matched = mate_r >= 0
            pairs_r = int(matched.sum()) // 2
            if full and c6 + pairs_r + nc_bracket + int(nc_r[matched].sum()) != top_ub:
                return _no("rest-even")
    else:
        # good[x]: pairing the floater with x (and repairing the rest along a path) meets the
        # bound. The floater is matched either way, so whether it is a PAB candidate is moot.
        good = np.zeros(len(rest), dtype=bool)
        ng_int = in_ng.astype(np.int64)
        for y in np.flatnonzero(~matched).tolist():
            # augmenting paths f - o == ... - y for every outer vertex o of y's search
            outer, gain, back = outer_vertices(sub, mate_r, y, in_ng)
            hit = outer & reaches(
                pairs_r + 1,
                nc_bracket + nc_r_matched + nc_r[y],
                n6_r + gain + ng_int,
                ng_int,
                c9_bracket + c9_r_matched + c9_r[y],
            )
            paths.append((hit, back))
            good |= hit
        if rest:
            # f takes x from its partner x2, who is left out
            x2 = np.maximum(mate_r, 0)
            swap = matched & reaches(
                pairs_r,
                nc_bracket + nc_r_matched - nc_r[x2],
                n6_r - (ng_int & ng_int[x2]) + ng_int,
                ng_int,
                c9_bracket + c9_r_matched - c9_r[x2],
            )
            good |= swap
        if not rest:
            # Nothing to pair the floater with: it gets the PAB. The values are exact, so the
            # floaters are the best ones (the bracket must still pair up without them).
            # (Only if the PAB then goes to a PAB candidate: else an MDP may take it instead.)
            value = {f: (nc_bracket - noncand[f], c9_bracket - rank[f]) for f in sg}
            best = max(value.values())
            if c6 + best[0] != top_ub:
                return _no("no-floater")
            admissible = [f for f in sg if value[f] == best]
        f_rows = compat[np.ix_(np.array(sg, dtype=np.intp), r_arr)]
        for i, f in enumerate(sg if rest else []):
            row = f_rows[i]
            if (row & good).any():
                admissible.append(f)
            elif t and not row[in_ng].any():
                continue  # cannot float into the next score group: provably worse
            else:
                return _no("floater-unproved")  # not proved either way
        if not admissible:
            return _no("no-floater")

    # -- the fields from col down: one packed weight per edge ---------------------------------
    rounds = s.field.rounds_played
    size = m + k + odd
    dummy = m + k
    phi = [floats_term(players[v], rounds) for v in sg]
    special: dict[tuple[int, int], Contribution] = {}  # (mdp local, resident local) -> fields
    for a, mu in enumerate(mdps):
        for j, r in enumerate(sg):
            if compat[mu, r]:
                c = {
                    key: val
                    for key, val in current_pair(players[mu], players[r], rounds).items()
                    if _is_lower(key)
                }
                for key, val in phi[j].items():
                    c[key] = c.get(key, 0) - val
                special[(a, j)] = c
    admissible_set = set(admissible)
    d_fields: dict[int, Contribution] = {}
    for j, r in enumerate(sg):
        if r in admissible_set:
            d_fields[j] = {key: -val for key, val in phi[j].items()}
    ct = tables.ctype[np.array(sg, dtype=np.intp)]
    present_types = np.unique(ct)
    bounds: dict[Hashable, int] = {}
    for kk in range(4):
        if tables.misses[kk][np.ix_(present_types, present_types)].any():
            bounds[("col", kk)] = 2 * c6
    extra: dict[Hashable, int] = {}
    for c in list(special.values()) + list(d_fields.values()):
        for key, val in c.items():
            if val:
                extra[key] = max(extra.get(key, 0), abs(val))
    for key, val in extra.items():
        if isinstance(key, tuple) and key[0] == "col":
            bounds[key] = 2 * c6
        else:
            bounds[key] = 2 * (m + odd) * val
    # Fields most significant first, in chunks whose packed sums stay exact; each chunk is
    # optimised among the optima of the chunks before it (the tight cells of their duals).
    chunks: list[dict[Hashable, int]] = []
    scale = assignment.EXACT
    for key in sorted(bounds, key=field_order):
        width = 2 * bounds[key] + 1
        if scale * width > assignment.EXACT:
            chunks.append({})
            scale = 1
        chunks[-1][key] = width
        scale *= width
    radix: list[dict[Hashable, int]] = []
    for chunk in chunks:
        place: dict[Hashable, int] = {}
        scale = 1
        for key in reversed(list(chunk)):
            place[key] = scale
            scale *= chunk[key]
        radix.append(place)
    if not radix:
        radix.append({})

    sg_arr = np.array(sg, dtype=np.intp)
    compat_rr = compat[np.ix_(sg_arr, sg_arr)]
    rr_costs: list[Matrix] = []
    mdp_costs: list[Matrix] = []
    d_costs: list[Matrix] = []
    for place in radix:

        def pack(c: Contribution, place: dict[Hashable, int] = place) -> float:
            return float(sum(val * place[key] for key, val in c.items() if val and key in place))

        col_w = np.zeros(tables.misses.shape[1:], dtype=np.float64)
        for kk in range(4):
            if ("col", kk) in place:
                col_w += tables.misses[kk] * float(place[("col", kk)])
        cost_rr = col_w[ct[:, None], ct[None, :]]  # [lower, higher] by position in sg
        if not tables.symmetric:
            below_diag = np.arange(k)[:, None] > np.arange(k)[None, :]
            cost_rr = np.where(below_diag, cost_rr, cost_rr.T)
        np.negative(cost_rr, out=cost_rr)
        cost_rr[~compat_rr] = np.inf
        mdp_cost = np.full((m, k), np.inf)
        for (a, j), c in special.items():
            mdp_cost[a, j] = -pack(c)
        d_cost = np.full(k, np.inf)
        for j, c in d_fields.items():
            d_cost[j] = -pack(c)
        rr_costs.append(cost_rr)
        mdp_costs.append(mdp_cost)
        d_costs.append(d_cost)

    def cover(ci: int) -> Matrix:
        """The costs on the bipartite double cover (every vertex on both sides)."""
        out = np.full((size, size), np.inf)
        out[m : m + k, m : m + k] = rr_costs[ci]
        out[:m, m : m + k] = mdp_costs[ci]
        out[m : m + k, :m] = mdp_costs[ci].T
        if odd:
            out[dummy, m : m + k] = d_costs[ci]
            out[m : m + k, dummy] = d_costs[ci]
        return out

    def candidate(taken: list[int]) -> tuple[list[int], list[int], Index, list[float], Mask] | None:
        """The remainder (residents not taken by MDPs) as S1 (plus D) against S2."""
        rem = [j for j in range(k) if j not in taken]
        s1, s2 = rem[:npairs], rem[npairs:]
        side = np.array(s1, dtype=np.intp)
        other = np.array(s2, dtype=np.intp)
        bips = []
        for cost_rr, d_cost in zip(rr_costs, d_costs, strict=True):
            bip = cost_rr[np.ix_(side, other)] if s1 else np.zeros((0, len(s2)))
            if odd:
                bip = np.vstack([bip, d_cost[other][None, :]])
            bips.append(bip)
        solved = assignment.lex_solve(bips)
        return None if solved is None else (s1, s2, *solved)

    taken: list[int] = []
    mdp_pairs: list[tuple[int, int]] = []
    found = None
    if not m and len(radix) == 1:
        # Without MDPs, a candidate that reaches the simplest bound (each vertex's cheapest
        # edge) needs no double cover.
        found = candidate(taken)
        if found is None:
            return _no("bip-infeasible")
        cheapest = rr_costs[0].min(axis=1)
        if odd:
            cheapest = np.minimum(cheapest, d_costs[0])
            cheapest = np.append(cheapest, d_costs[0].min())
        if 2 * found[3][0] != cheapest.sum():
            found = None
    if found is None:
        covers = [cover(ci) for ci in range(len(radix))]
        bound = assignment.lex_solve(covers, last_tight=False)
        if bound is None:
            return _no("bound-infeasible")
        bound_totals = bound[1]

        # -- stage B: each MDP in turn takes the first resident the bound does not rule out --
        # (ruled out: the bound with the pair fixed is worse than the bound; that the pair
        # chosen is really possible is proved by the candidate below)
        for a, mu in enumerate(mdps):
            for j in range(k):
                if j in taken or not np.isfinite(mdp_costs[0][a, j]):
                    continue
                gone = {a, m + j} | set(range(a)) | {m + jj for jj in taken}
                keep = np.array([v for v in range(size) if v not in gone], dtype=np.intp)
                fixed = assignment.lex_solve([c[np.ix_(keep, keep)] for c in covers], last_tight=False)
                pairs_fixed = list(enumerate([*taken, j]))
                if fixed is not None and all(
                    2 * sum(mdp_costs[ci][aa, jj] for aa, jj in pairs_fixed) + fixed[1][ci]
                    == bound_totals[ci]
                    for ci in range(len(radix))
                ):
                    taken.append(j)
                    mdp_pairs.append((mu, sg[j]))
                    break
            else:
                return _no("mdp-no-partner")
        del covers

        # -- the candidate: with no exchange, it must reach the bound --------------------------
        found = candidate(taken)
        if found is None:
            return _no("bip-infeasible")
        for ci in range(len(radix)):
            mdp_total = sum(mdp_costs[ci][a, j] for a, j in enumerate(taken))
            if 2 * (mdp_total + found[3][ci]) != bound_totals[ci]:
                return _no("not-optimal")
    s1, s2, sigma, _, allowed = found
    sigma = assignment.lex_first(allowed, sigma, npairs)
    out: dict[int, int] = {}
    for a, b in mdp_pairs + [(sg[s1[i]], sg[s2[int(sigma[i])]]) for i in range(npairs)]:
        final[a] = b
        final[b] = a
        out[a] = b
        out[b] = a
    # The window matching also pairs the rest (its unpaired players are checked for completion).
    local = list(rest)
    mate = mate_r.copy()
    if odd:
        floater = sg[s2[int(sigma[npairs])]]
        local.append(floater)
        mate = np.append(mate, -1)
        if rest:
            row = compat[floater, r_arr]
            for hit, back in paths:
                at = np.flatnonzero(row & hit)
                if at.size:
                    flip(mate, back, int(at[0]), len(rest))
                    break
            else:
                x = int(np.flatnonzero(row & swap)[0])
                mate[mate[x]] = -1
                mate[x], mate[-1] = len(rest), x
    for i, j in enumerate(mate.tolist()):
        if j >= 0:
            out[local[i]] = local[j]
    return out
