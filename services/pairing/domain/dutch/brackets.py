"""The general procedure for one bracket, as bbpPairings v6 decides it (C.04.3, 2025 rules).

The criteria weights (:mod:`.criteria`) are set on the pairs of the bracket's *window*: the
moved-down players (MDPs), the residents of the score group and the players of the next score
group. The bracket is decided in stages, each a maximum-weight matching whose low bits break
the remaining ties exactly as the Dutch rules order the candidates:

A. which MDPs are paired in the bracket: the highest-ranked ones;
B. their opponents: each MDP in turn gets the highest resident still possible;
C. the remainder: fewest exchanges, then the smallest difference of the sums of the exchanged
   bracket sequence numbers, then the lowest S1 players and the highest S2 players are the ones
   exchanged;
D. S1 players in turn get the highest S2 opponent still possible (the transposition order).

What a stage decides is fixed before the next one (pairs leave the graph, impossible edges are
dropped); stage weights only choose among matchings that are optimal for every criterion above.
Long stages are split into chunks so that weights stay within 120 bits (rustworkx).

In a *full* bracket every unpaired player of the field is in the graph, completion (C4) and the
PAB candidates (C5) weighted above everything (:mod:`.procedure` decides when).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from services.pairing.domain.dutch.criteria import Contribution, build_layout, current_pair, next_pair, pack
from services.pairing.domain.dutch.matching import max_weight_matching
from services.pairing.domain.dutch.state import RoundState

Bonus = Callable[[int, int], int]
_BITS = 120  # what one matching may use (rustworkx: 128-bit arithmetic)
_SHORTLIST = 7  # stage D: candidates with their own digit on a first try


class GeneralBracket:
    """One bracket: MDPs ``mdps``, residents ``sg``, next score group ``ng`` (vertex indices)."""

    def __init__(
        self, state: RoundState, mdps: list[int], sg: list[int], ng: list[int], flag: bool, *, full: bool
    ) -> None:
        self.s = state
        self.mdps, self.sg, self.ng = mdps, sg, ng
        self.sg_set, self.ng_set, self.mdp_set = set(sg), set(ng), set(mdps)
        self.window_set = self.sg_set | self.ng_set | self.mdp_set
        self.flag = flag
        self.full = full
        self.dropped: set[tuple[int, int]] = set()
        self._build()

    def pair_fields(self, u: int, v: int) -> Contribution:
        """The fields of the pair of vertices ``u < v`` as this bracket's weights count them (the
        weight of an edge is these fields packed), also for a pair the weights leave out."""
        s = self.s
        c: Contribution
        if u in self.window_set and (v in self.sg_set or v in self.ng_set):
            players = s.players
            if v in self.sg_set:
                c = current_pair(players[u], players[v], s.field.rounds_played)
            else:
                c = next_pair(players[u])
            c9 = s.c9_weight(u, self.flag) + s.c9_weight(v, self.flag)
        else:
            c = {}
            c9 = s.c9_weight(u, True) + s.c9_weight(v, True) if self.full and s.c9_initial else 0
        if c9:
            c["c9"] = c9
        if self.full:
            c["top"] = s.completion_weight(u, v)
        return c

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
                c9 = s.c9_weight(u, self.flag) + s.c9_weight(v, self.flag)
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
        self.offsets = offsets
        crit: dict[tuple[int, int], int] = {}
        top_off = offsets.get("top")
        c9_off = offsets.get("c9")
        for key, c in contributions.items():
            w = pack(c, offsets)
            if top_off is not None:
                w += s.completion_weight(*key) << top_off
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
                    w = s.completion_weight(u, v) << top_off
                    if s.c9_initial and c9_off is not None:
                        w += (s.c9_weight(u, True) + s.c9_weight(v, True)) << c9_off
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
