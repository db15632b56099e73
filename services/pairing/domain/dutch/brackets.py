"""Pairing bracket by bracket, as bbpPairings v6 does it (C.04.3, 2025 rules).

All players still unpaired stay in one weighted-matching problem, so the top of the field is
never paired in a way the bottom cannot complete (C4). The criteria weights (:mod:`.criteria`)
are set for the current bracket and the next score group only; everyone else is linked by
completion weights. A bracket is decided in stages, each a maximum-weight matching whose low
bits break the remaining ties exactly as the Dutch rules order the candidates:

A. which moved-down players (MDPs) are paired in the bracket: the highest-ranked ones;
B. their opponents: each MDP in turn gets the highest resident still possible;
C. exchanges in the remainder: fewest exchanges, then the smallest difference of the sums of
   the exchanged bracket sequence numbers, then the lowest S1 players and the highest S2
   players are the ones exchanged;
D. S1 players in turn get the highest S2 opponent still possible (the transposition order).

Whatever a stage decides is fixed before the next one (pairs are removed from the graph,
impossible edges dropped), and the stage weights only ever choose among matchings that are
optimal for every criterion above them.
"""

from __future__ import annotations

from collections.abc import Callable

from services.pairing.domain.dutch.criteria import BracketWeights
from services.pairing.domain.dutch.matching import max_weight_matching
from services.pairing.domain.dutch.model import NoValidPairingError
from services.pairing.domain.dutch.players import Field, Player

Bonus = Callable[[int, int], int]


class _Solver:
    def __init__(self, field: Field) -> None:
        self.field = field
        self.players: list[Player] = sorted(field.players, key=lambda p: (-p.score, p.rank))
        n = len(self.players)
        self.n = n
        last = field.last_round
        numbers = [p.number for p in self.players]
        forbidden: set[tuple[int, int]] = set()
        for pair in field.forbidden:
            members = sorted(pair)
            for i, a in enumerate(members):
                for b in members[i + 1 :]:
                    forbidden.add((a, b))
        index = {num: v for v, num in enumerate(numbers)}
        self.compatible: list[set[int]] = [set() for _ in range(n)]
        for v, p in enumerate(self.players):
            for u in range(v):
                q = self.players[u]
                if q.number in p.opponents:
                    continue
                a, b = sorted((p.number, q.number))
                if (a, b) in forbidden:
                    continue
                if (
                    p.pref.absolute
                    and q.pref.absolute
                    and p.pref.colour is q.pref.colour
                    and not (last and (p.topscorer or q.topscorer))
                ):
                    continue
                self.compatible[v].add(u)
                self.compatible[u].add(v)
        del index
        self.mate_final: dict[int, int] = {}
        self.bye_score = 0
        self.bye_candidate: list[bool] = [p.bye_eligible for p in self.players]
        self.c9_rank: dict[int, int] = {}
        self.c9_initial = False
        # groups of equal score, as (start, end) vertex ranges
        self.groups: list[tuple[int, int]] = []
        start = 0
        for v in range(1, n + 1):
            if v == n or self.players[v].score != self.players[start].score:
                self.groups.append((start, v))
                start = v

    # -- helpers ---------------------------------------------------------------------------

    def _match(self, vertices: list[int], weight: Callable[[int, int], int]) -> dict[int, int]:
        """Maximum-weight matching on the given vertices; ``weight(u, v)`` (u < v) <= 0 = no edge."""
        local = {v: i for i, v in enumerate(vertices)}
        edges: list[tuple[int, int, int]] = []
        for i, v in enumerate(vertices):
            for u in self.compatible[v]:
                if u < v and u in local:
                    w = weight(u, v)
                    if w > 0:
                        edges.append((local[u], i, w))
        mate = max_weight_matching(len(vertices), edges)
        return {vertices[i]: vertices[m] for i, m in enumerate(mate) if m >= 0}

    def _c9(self, v: int, flag: bool) -> int:
        if not flag:
            return 0
        p = self.players[v]
        return self.c9_rank[p.played_games] if p.score == self.bye_score else 0

    def _top(self, u: int, v: int) -> int:
        return 1 + (not self.bye_candidate[u]) + (not self.bye_candidate[v])

    # -- the PAB score -----------------------------------------------------------------------

    def _initial(self) -> None:
        n = self.n
        vertices = list(range(n))
        elig = [p.bye_eligible for p in self.players]
        top_score = self.players[0].score if n else 0
        group_of = [0] * n
        for g, (a, b) in enumerate(reversed(self.groups)):
            for v in range(a, b):
                group_of[v] = g
        ngroups = len(self.groups)
        b2 = (n * ngroups).bit_length()
        b3 = n.bit_length()

        def weight(u: int, v: int) -> int:
            top = 1 + (not elig[u]) + (not elig[v])
            if n % 2 == 0:
                return top
            w = (top << b2) | (group_of[u] + group_of[v])
            return (w << b3) | (self.players[v].score >= top_score)

        mate = self._match(vertices, weight)
        unmatched = [v for v in vertices if v not in mate]
        if len(unmatched) > 1 or (unmatched and not elig[unmatched[0]]):
            raise NoValidPairingError()
        if n % 2 == 0:
            self.bye_score = 0
            self.bye_candidate = [elig[v] and self.players[v].score <= 0 for v in range(n)]
            return
        bye = unmatched[0]
        self.bye_score = self.players[bye].score
        self.bye_candidate = [elig[v] and self.players[v].score <= self.bye_score for v in range(n)]
        flag = False
        if self.bye_score >= top_score:
            flag = all(
                self.players[mate.get(v, v)].score >= top_score
                for v in range(n)
                if self.players[v].score >= top_score
            )
        counts = sorted((p.played_games for p in self.players if p.score == self.bye_score), reverse=True)
        self.c9_rank = {pg: r for r, pg in enumerate(counts)}
        self.c9_initial = flag

    # -- one bracket -------------------------------------------------------------------------

    def solve(self) -> tuple[list[tuple[int, int]], int | None]:
        n = self.n
        if n == 0:
            return [], None
        self._initial()
        flag = self.c9_initial
        carried: list[int] = []
        gi = 0
        last_mate: dict[int, int] = {}
        while gi < len(self.groups):
            sg = list(range(*self.groups[gi]))
            ng = list(range(*self.groups[gi + 1])) if gi + 1 < len(self.groups) else []
            last_mate = self._bracket(carried, sg, ng, flag)
            remaining = [v for v in carried + sg if v not in self.mate_final]
            carried = remaining
            gi += 1
            # C9 applies in the next bracket when its only downfloater is the PAB assignee.
            if n % 2 == 1 and ng and self.bye_score >= self.players[ng[0]].score:
                flag = all(
                    self.players[last_mate.get(v, v)].score >= self.players[ng[0]].score for v in carried + ng
                )
            else:
                flag = False
        pairs = sorted({(min(a, b), max(a, b)) for a, b in self.mate_final.items()})
        leftover = [v for v in range(n) if v not in self.mate_final]
        if len(leftover) > 1:
            # Only moved-down players unpaired at the very bottom: pair them as the last
            # matching says (bbpPairings never reaches this state).
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

    def _bracket(self, mdps: list[int], sg: list[int], ng: list[int], flag: bool) -> dict[int, int]:
        players = self.players
        window = mdps + sg + ng
        in_window = set(window)
        free = [v for v in range(self.n) if v not in self.mate_final]
        sg_set = set(sg)
        ng_set = set(ng)
        mdp_set = set(mdps)
        byes_in_graph = sum(1 for v in free if players[v].score == self.bye_score)
        c9_bound = (max(self.c9_rank.values(), default=0) * byes_in_graph) if self.c9_rank else 0
        bw = BracketWeights(
            rounds_played=self.field.rounds_played,
            vertex_count=len(free),
            window=[players[v] for v in window],
            scores=(),
            c9_bound=c9_bound,
        )
        base: dict[tuple[int, int], int] = {}

        def crit(u: int, v: int) -> int:
            """The criteria weight of edge u < v (0 = no edge)."""
            key = (u, v)
            w = base.get(key)
            if w is not None:
                return w
            if v in in_window and u in in_window and (v in sg_set or v in ng_set):
                w = bw.window_edge(
                    players[u],
                    players[v],
                    v in sg_set,
                    self._top(u, v),
                    self._c9(u, flag) + self._c9(v, flag),
                )
            elif u in mdp_set and v in mdp_set:
                w = 0
            else:
                w = bw.top(self._top(u, v), self._c9(u, self.c9_initial) + self._c9(v, self.c9_initial))
            base[key] = w
            return w

        def run(bonus: Bonus, bonus_bound: int) -> dict[int, int]:
            shift = bonus_bound.bit_length()
            verts = [v for v in range(self.n) if v not in self.mate_final]

            def weight(u: int, v: int) -> int:
                c = crit(u, v)
                return (c << shift) + bonus(u, v) if c else 0

            return self._match(verts, weight)

        def finalize(a: int, b: int) -> None:
            self.mate_final[a] = b
            self.mate_final[b] = a

        mate = run(lambda u, v: 0, 0)

        # Stage A: which MDPs are paired in the bracket (the highest-ranked ones).
        m = len(mdps)
        if m:
            order = {v: i for i, v in enumerate(mdps)}

            def bonus_a(u: int, v: int) -> int:
                if u in mdp_set and v in sg_set:
                    return 1 << (m - 1 - order[u])
                return 0

            mate = run(bonus_a, (1 << m) - 1)
            forced = [v for v in mdps if mate.get(v, -1) in sg_set]
            failed = {v for v in mdps if v not in forced}
            for u in failed:
                for v in sg:
                    base[(u, v)] = 0

            # Stage B: each paired MDP in turn gets the highest resident possible.
            if forced:
                k = len(forced)
                radix = len(sg) + 1
                pos = {v: i for i, v in enumerate(sg)}
                forder = {v: i for i, v in enumerate(forced)}
                big = radix**k

                def bonus_b(u: int, v: int) -> int:
                    if u in forder and v in sg_set:
                        return big + (len(sg) - pos[v]) * radix ** (k - 1 - forder[u])
                    return 0

                mate = run(bonus_b, big * (k + 1))
                for u in forced:
                    finalize(u, mate[u])

        # Stage C: the remainder; fewest exchanges, smallest BSN difference, then which ones.
        rem = [v for v in sg if v not in self.mate_final]
        rem_set = set(rem)
        rpos = {v: i for i, v in enumerate(rem)}
        npairs = sum(1 for v in rem if mate.get(v, -1) in rem_set) // 2
        if rem and npairs:
            big_r = len(rem)
            s2 = big_r - npairs
            y_bits = s2
            x_unit = 1 << npairs
            x_bound = npairs * x_unit
            y_bound = 1 << y_bits
            e2_bound = npairs * big_r
            e2_shift = (x_bound.bit_length()) + y_bound.bit_length()
            e1_shift = e2_shift + e2_bound.bit_length()

            def bonus_c(u: int, v: int) -> int:
                if u not in rem_set or v not in rem_set:
                    return 0
                i = rpos[u]
                e1 = 1 if i < npairs else 0
                e2 = big_r - i
                x = x_unit - (1 << i) if i < npairs else x_unit
                y = (1 << (s2 - 1 - (i - npairs))) if i >= npairs else 0
                return (e1 << e1_shift) + (e2 << e2_shift) + (x << y_bound.bit_length()) + y

            bound_c = (
                (npairs << e1_shift) + (e2_bound << e2_shift) + (x_bound << y_bound.bit_length()) + y_bound
            )
            mate = run(bonus_c, bound_c)
            higher = [v for v in rem if mate.get(v, -1) in rem_set and mate[v] > v]
            hset = set(higher)
            for i, u in enumerate(rem):
                for v in rem[i + 1 :]:
                    if u not in hset or v in hset:
                        base[(u, v)] = 0

            # Stage D: S1 players in turn get the highest opponent possible.
            k = len(higher)
            radix = big_r + 1
            horder = {v: i for i, v in enumerate(higher)}

            def bonus_d(u: int, v: int) -> int:
                if u in horder and v in rem_set:
                    return (big_r - rpos[v]) * radix ** (k - 1 - horder[u])
                return 0

            mate = run(bonus_d, radix**k)
            for u in higher:
                finalize(u, mate[u])
        elif rem:
            for i, u in enumerate(rem):
                for v in rem[i + 1 :]:
                    base[(u, v)] = 0
        return mate


def pair_field(field: Field) -> tuple[list[tuple[Player, Player]], Player | None]:
    """The pairs (in no particular order) and the PAB player."""
    solver = _Solver(field)
    pairs, bye = solver.solve()
    ps = solver.players
    return [(ps[a], ps[b]) for a, b in pairs], (ps[bye] if bye is not None else None)
