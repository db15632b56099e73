"""Pairing bracket by bracket, as bbpPairings v6 does it (C.04.3, 2025 rules).

Brackets are paired from the top score group down. For each bracket the criteria weights
(:mod:`.criteria`) are set on the pairs of its *window*: the moved-down players (MDPs), the
residents of the score group and the players of the next score group. A bracket is decided in
stages, each a maximum-weight matching whose low bits break the remaining ties exactly as the
Dutch rules order the candidates:

A. which MDPs are paired in the bracket: the highest-ranked ones;
B. their opponents: each MDP in turn gets the highest resident still possible;
C. the remainder: fewest exchanges, then the smallest difference of the sums of the exchanged
   bracket sequence numbers, then the lowest S1 players and the highest S2 players are the ones
   exchanged;
D. S1 players in turn get the highest S2 opponent still possible (the transposition order).

What a stage decides is fixed before the next one (pairs leave the graph, impossible edges are
dropped); stage weights only choose among matchings that are optimal for every criterion above.
Long stages are split into chunks so that weights stay within 120 bits (rustworkx).

Completion (C4): the choice must leave the players below the window pairable. The window is
solved on its own and the rest is then checked; if it cannot be completed, the bracket is
solved again with every unpaired player in one graph, completion weighted above everything,
which is how bbpPairings always does it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

import numpy as np

from services.pairing.domain.dutch.certified import Tables, solve_bracket
from services.pairing.domain.dutch.criteria import Contribution, build_layout, current_pair, next_pair, pack
from services.pairing.domain.dutch.matching import grow_matching, max_weight_matching, outer_vertices
from services.pairing.domain.dutch.model import NoValidPairingError
from services.pairing.domain.dutch.players import Field, Player

Bonus = Callable[[int, int], int]
_BITS = 120  # what one matching may use (rustworkx: 128-bit arithmetic)
_SHORTLIST = 7  # stage D: candidates with their own digit on a first try


class _Solver:
    def __init__(self, field: Field) -> None:
        self.field = field
        self.players: list[Player] = sorted(field.players, key=lambda p: (-p.score, p.rank))
        n = len(self.players)
        self.n = n
        self.last_round = field.last_round
        self.forbidden: set[tuple[int, int]] = set()
        for pair in field.forbidden:
            members = sorted(pair)
            for i, a in enumerate(members):
                for b in members[i + 1 :]:
                    self.forbidden.add((a, b))
        self.mate_final: dict[int, int] = {}
        self.bye_score = 0
        self.bye_candidate: list[bool] = [p.bye_eligible for p in self.players]
        self.c9_rank: dict[int, int] = {}
        self.c9_initial = False
        self._tables: Tables | None = None
        self.groups: list[tuple[int, int]] = []
        start = 0
        for v in range(1, n + 1):
            if v == n or self.players[v].score != self.players[start].score:
                self.groups.append((start, v))
                start = v

    def tables(self) -> Tables:
        if self._tables is None:
            self._tables = Tables(self)
        return self._tables

    # -- the absolute criteria ---------------------------------------------------------------

    def compatible(self, u: int, v: int) -> bool:
        """C1 (no rematch, no forbidden pair) and C3 (no clash of absolute preferences)."""
        p, q = self.players[u], self.players[v]
        if q.number in p.opponents:
            return False
        if self.forbidden and (min(p.number, q.number), max(p.number, q.number)) in self.forbidden:
            return False
        return not (
            p.pref.absolute
            and q.pref.absolute
            and p.pref.colour is q.pref.colour
            and not (self.last_round and (p.topscorer or q.topscorer))
        )

    def _top(self, u: int, v: int) -> int:
        return 1 + (not self.bye_candidate[u]) + (not self.bye_candidate[v])

    def _c9(self, v: int, flag: bool) -> int:
        if not flag:
            return 0
        p = self.players[v]
        return self.c9_rank[p.played_games] if p.score == self.bye_score else 0

    # -- completion ------------------------------------------------------------------------

    def _completes(self, fixed: list[int], rest: list[int]) -> bool:
        """Can ``fixed`` (never paired among themselves) and ``rest`` all be paired, but for one
        PAB candidate when their number is odd?"""
        verts = fixed + rest
        if not verts:
            return True
        fixed_set = set(fixed)
        # A fast search first: a matching grown by augmenting paths, then (if one player is
        # left who may not get the PAB) an alternating path handing that place to one who may.
        idx = np.array(verts, dtype=np.intp)
        sub = self.tables().compat[np.ix_(idx, idx)]
        sub[: len(fixed), : len(fixed)] = False
        grown = grow_matching(sub, len(verts))
        left_at = np.flatnonzero(grown < 0)
        if left_at.size == 0:
            return True
        if left_at.size == 1:
            outer, _, _ = outer_vertices(sub, grown, int(left_at[0]), np.zeros(len(verts), dtype=bool))
            if any(self.bye_candidate[verts[i]] for i in np.flatnonzero(outer).tolist()):
                return True
        local = {v: i for i, v in enumerate(verts)}
        edges = []
        for i, v in enumerate(verts):
            for u in verts[:i]:
                if (u in fixed_set and v in fixed_set) or not self.compatible(min(u, v), max(u, v)):
                    continue
                edges.append((local[u], i, self._top(u, v)))
        m = max_weight_matching(len(verts), edges)
        left = [v for i, v in enumerate(verts) if m[i] < 0]
        return not left or (len(left) == 1 and self.bye_candidate[left[0]])

    # -- the PAB score (C5) --------------------------------------------------------------------

    def _initial(self) -> None:
        n = self.n
        players = self.players
        elig = [p.bye_eligible for p in players]
        top_score = players[0].score
        if n % 2 == 0:
            self.bye_candidate = [elig[v] and players[v].score <= 0 for v in range(n)]
            if not self._completes([], list(range(n))):
                raise NoValidPairingError()
            return
        eligible = [v for v in range(n) if elig[v]]
        if not eligible:
            raise NoValidPairingError()
        lowest = min(players[v].score for v in eligible)
        found = False
        single = len(self.groups) == 1
        if lowest < top_score or single:
            # Quick path: a greedy completion around one lowest eligible player proves the score.
            # (With one score group everyone is paired within it, so C9 applies from the start,
            # as the exact search below would find.)
            self.bye_candidate = [elig[v] and players[v].score <= lowest for v in range(n)]
            for bye in reversed([v for v in eligible if players[v].score == lowest][-3:]):
                rest = [v for v in range(n) if v != bye]
                if self._greedy(rest):
                    found = True
                    break
            if not found:
                # A matching grown by augmenting paths, the one place left handed along an
                # alternating path to a PAB-eligible player of the lowest score.
                compat = self.tables().compat
                grown = grow_matching(compat, n)
                left_at = np.flatnonzero(grown < 0)
                if left_at.size == 1:
                    outer, _, _ = outer_vertices(compat, grown, int(left_at[0]), np.zeros(n, dtype=bool))
                    found = any(
                        elig[v] and players[v].score == lowest for v in np.flatnonzero(outer).tolist()
                    )
            if found:
                self.bye_score = lowest
                self.c9_initial = single
        if not found:
            self._initial_exact(top_score, elig)
        counts = sorted((p.played_games for p in players if p.score == self.bye_score), reverse=True)
        self.c9_rank = {pg: r for r, pg in enumerate(counts)}

    def _greedy(self, verts: list[int]) -> bool:
        mate: set[int] = set()
        for i, v in enumerate(verts):
            if v in mate:
                continue
            for u in verts[i + 1 :]:
                if u not in mate and self.compatible(min(u, v), max(u, v)):
                    mate.add(u)
                    mate.add(v)
                    break
            else:
                return False
        return True

    def _initial_exact(self, top_score: int, elig: list[bool]) -> None:
        n = self.n
        players = self.players
        group_of = [0] * n
        for g, (a, b) in enumerate(reversed(self.groups)):
            for v in range(a, b):
                group_of[v] = g
        b2 = (n * len(self.groups)).bit_length()
        b3 = n.bit_length()
        edges = []
        for v in range(n):
            for u in range(v):
                if self.compatible(u, v):
                    top = 1 + (not elig[u]) + (not elig[v])
                    w = (top << b2) | (group_of[u] + group_of[v])
                    edges.append((u, v, (w << b3) | (players[v].score >= top_score)))
        m = max_weight_matching(n, edges)
        unmatched = [v for v in range(n) if m[v] < 0]
        if len(unmatched) != 1 or not elig[unmatched[0]]:
            raise NoValidPairingError()
        bye = unmatched[0]
        self.bye_score = players[bye].score
        self.bye_candidate = [elig[v] and players[v].score <= self.bye_score for v in range(n)]
        if self.bye_score >= top_score:
            self.c9_initial = all(
                players[m[v] if m[v] >= 0 else v].score >= top_score
                for v in range(n)
                if players[v].score >= top_score
            )

    # -- the brackets ------------------------------------------------------------------------

    def solve(self) -> tuple[list[tuple[int, int]], int | None]:
        n = self.n
        if n == 0:
            return [], None
        self._initial()
        flag = self.c9_initial
        carried: list[int] = []
        last_mate: dict[int, int] = {}
        for gi in range(len(self.groups)):
            sg = list(range(*self.groups[gi]))
            ng = list(range(*self.groups[gi + 1])) if gi + 1 < len(self.groups) else []
            window = carried + sg + ng
            lower_exists = gi + 2 < len(self.groups)
            full = (
                not lower_exists
                or self.c9_initial
                or (n % 2 == 1 and self.bye_score >= self.players[window[-1]].score)
            )
            last_mate = {}
            if not full:
                saved = dict(self.mate_final)
                fast = solve_bracket(self, carried, sg, ng, flag, full=False)
                last_mate = (
                    fast if fast is not None else _Bracket(self, carried, sg, ng, flag, full=False).run()
                )
                unpaired = [v for v in window if v not in last_mate and v not in self.mate_final]
                below = [v for v in range(window[-1] + 1, n) if v not in self.mate_final]
                if not self._completes(unpaired, below):
                    self.mate_final = saved
                    full = True
            if full:
                fast = solve_bracket(self, carried, sg, ng, flag, full=True)
                last_mate = (
                    fast if fast is not None else _Bracket(self, carried, sg, ng, flag, full=True).run()
                )
            carried = [v for v in carried + sg if v not in self.mate_final]
            # C9 applies in the next bracket when its only downfloater is the PAB assignee.
            if n % 2 == 1 and ng and self.bye_score >= self.players[ng[0]].score:
                floor = self.players[ng[0]].score
                flag = all(self.players[last_mate.get(v, v)].score >= floor for v in carried + ng)
            else:
                flag = False
        pairs = sorted({(min(a, b), max(a, b)) for a, b in self.mate_final.items()})
        leftover = [v for v in range(n) if v not in self.mate_final]
        if len(leftover) > 1:
            # MDPs left unpaired at the very bottom (bbpPairings never gets here): pair them as
            # the last matching says.
            for v in leftover:
                m = last_mate.get(v)
                if m is not None and m not in self.mate_final and v not in self.mate_final:
                    self.mate_final[v] = m
                    self.mate_final[m] = v
                    pairs.append((min(v, m), max(v, m)))
            leftover = [v for v in range(n) if v not in self.mate_final]
            if len(leftover) > 1:
                raise NoValidPairingError()
        return pairs, (leftover[0] if leftover else None)


class _Bracket:
    """One bracket: MDPs ``mdps``, residents ``sg``, next score group ``ng`` (vertex indices)."""

    def __init__(
        self, solver: _Solver, mdps: list[int], sg: list[int], ng: list[int], flag: bool, *, full: bool
    ) -> None:
        self.s = solver
        self.mdps, self.sg, self.ng = mdps, sg, ng
        self.sg_set, self.ng_set, self.mdp_set = set(sg), set(ng), set(mdps)
        self.flag = flag
        self.full = full
        self.dropped: set[tuple[int, int]] = set()
        self._build()

    def _build(self) -> None:
        s = self.s
        players = s.players
        window = self.mdps + self.sg + self.ng
        rounds = s.field.rounds_played
        contributions: dict[tuple[int, int], Contribution] = {}
        keys: set[Hashable] = set()
        for v in self.sg + self.ng:
            in_current = v in self.sg_set
            pv = players[v]
            for u in window:
                if u >= v:
                    break
                if not s.compatible(u, v):
                    continue
                c = current_pair(players[u], pv, rounds) if in_current else next_pair(players[u])
                c9 = s._c9(u, self.flag) + s._c9(v, self.flag)
                if c9:
                    c["c9"] = c9
                contributions[(u, v)] = c
                keys.update(c)
        free = [v for v in range(s.n) if v not in s.mate_final]
        counts: dict[int, int] = {}
        for v in window:
            counts[players[v].score] = counts.get(players[v].score, 0) + 1
        half = len(window) // 2
        bye_players = sum(1 for v in (free if self.full else window) if players[v].score == s.bye_score)
        c9_bound = max(s.c9_rank.values(), default=0) * bye_players
        if self.full:
            keys.add("top")
            if s.c9_initial:
                keys.add("c9")

        def bound(key: Hashable) -> int:
            if isinstance(key, tuple):
                name, sub = key
                return half if name == "col" else counts.get(sub, 0)
            special: dict[Hashable, int] = {
                "top": 3 * (len(free) // 2),
                "c9": c9_bound,
                "f14": 2 * half,
                "f16": 2 * half,
            }
            return special.get(key, half)

        offsets, self.bits = build_layout(keys, bound)
        crit: dict[tuple[int, int], int] = {}
        top_off = offsets.get("top")
        c9_off = offsets.get("c9")
        for key, c in contributions.items():
            w = pack(c, offsets)
            if top_off is not None:
                w += s._top(*key) << top_off
            crit[key] = w
        if self.full:
            window_set = set(window)
            for i, v in enumerate(free):
                for u in free[:i]:
                    if (u, v) in crit or (u in self.mdp_set and v in self.mdp_set):
                        continue
                    if u in window_set and v in window_set:
                        continue
                    if not s.compatible(u, v):
                        continue
                    assert top_off is not None
                    w = s._top(u, v) << top_off
                    if s.c9_initial and c9_off is not None:
                        w += (s._c9(u, True) + s._c9(v, True)) << c9_off
                    crit[(u, v)] = w
        self.crit = crit

    # -- matching with a tie-break --------------------------------------------------------------

    def match(self, bonus: Bonus, bonus_bound: int, subset: set[int] | None = None) -> dict[int, int]:
        """A maximum-weight matching of the free vertices (or of ``subset``), the criteria weights
        shifted above the stage's tie-break ``bonus`` (whose sum never exceeds ``bonus_bound``)."""
        shift = bonus_bound.bit_length()
        final = self.s.mate_final
        dropped = self.dropped
        local: dict[int, int] = {}
        edges = []
        for (u, v), c in self.crit.items():
            if u in final or v in final or (u, v) in dropped:
                continue
            if subset is not None and (u not in subset or v not in subset):
                continue
            iu = local.setdefault(u, len(local))
            iv = local.setdefault(v, len(local))
            edges.append((iu, iv, (c << shift) + bonus(u, v)))
        verts = list(local)
        mate = max_weight_matching(len(verts), edges)
        return {verts[i]: verts[m] for i, m in enumerate(mate) if m >= 0}

    def chunk(self, per_decision_bits: int, extra_bits: int = 0) -> int:
        """How many decisions of ``per_decision_bits`` bits fit in one matching."""
        room = _BITS - self.bits - extra_bits
        return max(1, room // max(1, per_decision_bits))

    def finalize(self, a: int, b: int) -> None:
        self.s.mate_final[a] = b
        self.s.mate_final[b] = a

    # -- the stages ----------------------------------------------------------------------------

    def run(self) -> dict[int, int]:
        mate = self.match(lambda u, v: 0, 0)
        if self.mdps:
            mate = self._stage_ab(mate)
        return self._stage_cd(mate)

    def _stage_ab(self, mate: dict[int, int]) -> dict[int, int]:
        sg, sg_set = self.sg, self.sg_set
        # A: which MDPs are paired in the bracket, the highest-ranked first.
        forced: list[int] = []
        undecided = list(self.mdps)
        while undecided:
            k = min(len(undecided), self.chunk(1, len(self.mdps).bit_length() + 1))
            part = {v: j for j, v in enumerate(undecided[:k])}
            keep = set(forced)
            big = 1 << k

            def bonus_a(
                u: int, v: int, k: int = k, part: dict[int, int] = part, keep: set[int] = keep, big: int = big
            ) -> int:
                if v not in sg_set:
                    return 0
                if u in keep:
                    return big
                j = part.get(u)
                return 0 if j is None else 1 << (k - 1 - j)

            mate = self.match(bonus_a, big * (len(keep) + 1))
            for u in part:
                if mate.get(u, -1) in sg_set:
                    forced.append(u)
                else:
                    for v in sg:
                        self.dropped.add((u, v))
            undecided = undecided[k:]
        forced.sort()
        # B: each paired MDP in turn gets the highest resident still possible.
        pos = {v: i for i, v in enumerate(sg)}
        radix = len(sg) + 1
        while forced:
            per = radix.bit_length()
            k = min(len(forced), self.chunk(per, len(forced).bit_length() + 1))
            part = {v: j for j, v in enumerate(forced[:k])}
            keep = set(forced[k:])
            big = radix**k

            def bonus_b(
                u: int, v: int, k: int = k, part: dict[int, int] = part, keep: set[int] = keep, big: int = big
            ) -> int:
                if v not in sg_set:
                    return 0
                if u in keep:
                    return big
                j = part.get(u)
                if j is None:
                    return 0
                return big + (len(sg) - pos[v]) * int(radix ** (k - 1 - j))

            mate = self.match(bonus_b, big * (len(forced) + 1))
            for u in part:
                self.finalize(u, mate[u])
            forced = forced[k:]
        return mate

    def _stage_cd(self, mate: dict[int, int]) -> dict[int, int]:
        final = self.s.mate_final
        rem = [v for v in self.sg if v not in final]
        rem_set = set(rem)
        rpos = {v: i for i, v in enumerate(rem)}
        npairs = sum(1 for v in rem if mate.get(v, -1) in rem_set) // 2
        if not npairs:
            return mate
        size = len(rem)
        e2_bits = (npairs * size).bit_length()
        e1_bits = npairs.bit_length()

        def exchange_fields(u: int, v: int) -> int:
            """E1 = the pair's higher player is in S1, E2 = size - its position (both maximised)."""
            if u not in rem_set or v not in rem_set:
                return 0
            i = rpos[u]
            return ((i < npairs) << e2_bits) + (size - i)

        e_bound = (npairs << e2_bits) + npairs * size

        def higher_members(m: dict[int, int]) -> list[int]:
            return [v for v in rem if m.get(v, -1) in rem_set and m[v] > v]

        mate = self.match(exchange_fields, e_bound)
        exchanges = npairs - sum(1 for v in higher_members(mate) if rpos[v] < npairs)
        if exchanges:
            mate = self._exchanges(rem, npairs, exchanges, exchange_fields, e_bound, e1_bits + e2_bits)
        higher = higher_members(mate)
        hset = set(higher)
        for i, u in enumerate(rem):
            for v in rem[i + 1 :]:
                if u not in hset or v in hset:
                    self.dropped.add((u, v))
        # D: S1 players in turn get the highest opponent still possible. When the remainder
        # pairs up completely, nothing outside it depends on how: solve it on its own.
        todo = list(higher)
        subset = rem_set if size == 2 * len(higher) else None
        outside = {v: m for v, m in mate.items() if v not in rem_set} if subset else {}
        final = self.s.mate_final
        short = True  # first try: distinct digits for each player's first few candidates only
        while todo:
            # Each player's candidates, best first: later remainder players outside S1'.
            cands: dict[int, list[int]] = {}
            for u in todo:
                cands[u] = [
                    v
                    for v in rem[rpos[u] + 1 :]
                    if v not in final and (u, v) in self.crit and (u, v) not in self.dropped
                ]
            width = _SHORTLIST if short else size
            radix = width + 1
            k = min(len(todo), self.chunk(radix.bit_length()))
            part = todo[:k]
            digit: dict[tuple[int, int], int] = {}
            for j, u in enumerate(part):
                scale = int(radix ** (k - 1 - j))
                for i, v in enumerate(cands[u][:width]):
                    digit[(u, v)] = (width - i) * scale

            def bonus_d(u: int, v: int, digit: dict[tuple[int, int], int] = digit) -> int:
                return digit.get((u, v), 0)

            mate = self.match(bonus_d, radix**k, subset)
            done = 0
            for u in part:
                if (u, mate[u]) not in digit:
                    break  # beyond the shortlist: decide this one with full digits
                self.finalize(u, mate[u])
                done += 1
            short = done > 0 or not short
            todo = todo[done:]
        mate.update(outside)
        return mate

    def _exchanges(
        self, rem: list[int], npairs: int, exchanges: int, fields: Bonus, e_bound: int, e_bits: int
    ) -> dict[int, int]:
        """C: the S1 players to exchange (lowest first), then the S2 players (highest first)."""
        rem_set = set(rem)
        s1 = rem[:npairs]
        s2 = rem[npairs:]
        mate: dict[int, int] = {}
        # S1 from the bottom: prefer that a player is *not* the higher player of a pair.
        undecided = list(reversed(s1))
        left = exchanges
        while undecided and left:
            k = min(len(undecided), self.chunk(1, e_bits + npairs.bit_length() + 1))
            part = {v: j for j, v in enumerate(undecided[:k])}
            unit = 1 << k
            xb = (npairs * unit).bit_length()

            def bonus_x(
                u: int, v: int, k: int = k, part: dict[int, int] = part, unit: int = unit, xb: int = xb
            ) -> int:
                if u not in rem_set or v not in rem_set:
                    return 0
                j = part.get(u)
                return (fields(u, v) << xb) + unit - (0 if j is None else 1 << (k - 1 - j))

            mate = self.match(bonus_x, (e_bound << xb) + npairs * unit)
            for u in part:
                if not (mate.get(u, -1) in rem_set and mate[u] > u):
                    left -= 1
                    for v in rem:
                        if v > u:
                            self.dropped.add((u, v))
            undecided = undecided[k:]
        # S2 from the top: prefer that a player *is* the higher player of a pair.
        undecided = list(s2)
        left = exchanges
        while undecided and left > 1:
            k = min(len(undecided), self.chunk(1, e_bits + 1))
            part = {v: j for j, v in enumerate(undecided[:k])}
            yb = 1 << k

            def bonus_y(u: int, v: int, k: int = k, part: dict[int, int] = part) -> int:
                if u not in rem_set or v not in rem_set:
                    return 0
                j = part.get(u)
                return (fields(u, v) << k) + (0 if j is None else 1 << (k - 1 - j))

            mate = self.match(bonus_y, (e_bound << k) + yb)
            for u in part:
                if mate.get(u, -1) in rem_set and mate[u] > u:
                    left -= 1
                    for v in rem:
                        if v < u:
                            self.dropped.add((v, u))
                    for v in self.ng:
                        self.dropped.add((u, v))
            undecided = undecided[k:]
        return self.match(fields, e_bound)


def pair_field(field: Field) -> tuple[list[tuple[Player, Player]], Player | None]:
    """The pairs (in no particular order) and the PAB player."""
    solver = _Solver(field)
    pairs, bye = solver.solve()
    ps = solver.players
    return [(ps[a], ps[b]) for a, b in pairs], (ps[bye] if bye is not None else None)
