"""One round's pairing state, shared by the two ways of deciding a bracket.

The players in bracket order (score, then rank) and their score groups; the absolute criteria
as a compatibility test and table (C1, C3); the PAB score and candidates (C2, C4, C5) and the
C9 ranks; and the pairs decided so far. :mod:`.procedure` walks the brackets; :mod:`.brackets`
(the general procedure) and :mod:`.certified` (the fast path) each decide one bracket and
write its pairs here.
"""

from __future__ import annotations

from collections.abc import Hashable

import numpy as np

from services.pairing.domain.dutch.criteria import colour_misses
from services.pairing.domain.dutch.matching import grow_matching, max_weight_matching, outer_vertices
from services.pairing.domain.dutch.model import Colour, NoValidPairingError
from services.pairing.domain.dutch.players import Field, FieldPlayer


class Tables:
    """Per-round facts as arrays: compatibility (C1, C3) and colour-preference types."""

    def __init__(self, state: RoundState) -> None:
        players = state.players
        n = len(players)
        index = {p.number: i for i, p in enumerate(players)}
        compat = np.ones((n, n), dtype=bool)
        np.fill_diagonal(compat, False)
        for i, p in enumerate(players):
            for q in p.opponents:
                if q in index:
                    compat[i, index[q]] = compat[index[q], i] = False
        for a, b in state.forbidden:
            if a in index and b in index:
                compat[index[a], index[b]] = compat[index[b], index[a]] = False
        absolute = np.array(
            [(1 if p.pref.colour is Colour.WHITE else 2) if p.pref.absolute else 0 for p in players],
            dtype=np.int8,
        )
        clash = (absolute[:, None] == absolute[None, :]) & (absolute[:, None] > 0)
        if state.last_round:
            top = np.array([p.topscorer for p in players], dtype=bool)
            clash &= ~(top[:, None] | top[None, :])
        compat &= ~clash
        self.compat = compat
        types: dict[Hashable, int] = {}
        self.reps: list[FieldPlayer] = []
        ctype = []
        for p in players:
            t = types.get(p.pref)
            if t is None:
                t = types[p.pref] = len(self.reps)
                self.reps.append(p)
            ctype.append(t)
        self.ctype = np.array(ctype, dtype=np.intp)
        ntypes = len(self.reps)
        # misses[k][lower type, higher type]
        self.misses = np.zeros((4, ntypes, ntypes), dtype=np.int64)
        for a, low in enumerate(self.reps):
            for b, high in enumerate(self.reps):
                for k, miss in enumerate(colour_misses(low, high)):
                    self.misses[k, a, b] = -int(miss)
        self.symmetric = all(np.array_equal(mk, mk.T) for mk in self.misses)


class RoundState:
    """Vertices are indices into ``players`` (bracket order: score, then rank)."""

    def __init__(self, field: Field) -> None:
        self.field = field
        self.players: list[FieldPlayer] = sorted(field.players, key=lambda p: (-p.score, p.rank))
        n = len(self.players)
        self.n = n
        self.last_round = field.last_round
        self.forbidden: set[tuple[int, int]] = set()
        for pair in field.forbidden:
            members = sorted(pair)
            for i, a in enumerate(members):
                for b in members[i + 1 :]:
                    self.forbidden.add((a, b))
        self.mate_final: dict[int, int] = {}  # the pairs decided so far, both ways
        self.bye_score = 0
        self.bye_candidate: list[bool] = [p.bye_eligible for p in self.players]
        self.c9_rank: dict[int, int] = {}
        self.c9_initial = False
        self._tables: Tables | None = None
        self.groups: list[tuple[int, int]] = []  # score groups as index ranges
        start = 0
        for v in range(1, n + 1):
            if v == n or self.players[v].score != self.players[start].score:
                self.groups.append((start, v))
                start = v

    def tables(self) -> Tables:
        if self._tables is None:
            self._tables = Tables(self)
        return self._tables

    # -- the absolute criteria and the fields every bracket shares ------------------------------

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

    def completion_weight(self, u: int, v: int) -> int:
        """The ``top`` field of a pair (C4 completion, C5 PAB candidates): one for the pair, one
        for each player who is not a PAB candidate."""
        return 1 + (not self.bye_candidate[u]) + (not self.bye_candidate[v])

    def c9_weight(self, v: int, on: bool) -> int:
        """The ``c9`` field of a paired player (when C9 applies): the rank of their played-game
        count among the players of the PAB score."""
        if not on:
            return 0
        p = self.players[v]
        return self.c9_rank[p.played_games] if p.score == self.bye_score else 0

    # -- completion (C4) -----------------------------------------------------------------------

    def completes(self, fixed: list[int], rest: list[int]) -> bool:
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
                edges.append((local[u], i, self.completion_weight(u, v)))
        m = max_weight_matching(len(verts), edges)
        left = [v for i, v in enumerate(verts) if m[i] < 0]
        return not left or (len(left) == 1 and self.bye_candidate[left[0]])

    # -- the PAB score (C5) and C9 from the start ------------------------------------------------

    def settle_bye(self) -> None:
        """Find the PAB score: the lowest score at which a PAB-eligible player can be left out
        while everyone else is paired. Its eligible players (and those below) are the PAB
        candidates; also ranks the played-game counts at that score for C9."""
        n = self.n
        players = self.players
        elig = [p.bye_eligible for p in players]
        top_score = players[0].score
        if n % 2 == 0:
            self.bye_candidate = [elig[v] and players[v].score <= 0 for v in range(n)]
            if not self.completes([], list(range(n))):
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
                if self._pairs_greedily(rest):
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
            self._settle_bye_exactly(top_score, elig)
        counts = sorted((p.played_games for p in players if p.score == self.bye_score), reverse=True)
        self.c9_rank = {pg: r for r, pg in enumerate(counts)}

    def _pairs_greedily(self, verts: list[int]) -> bool:
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

    def _settle_bye_exactly(self, top_score: int, elig: list[bool]) -> None:
        """The PAB score from one maximum-weight matching of the whole field: most pairs, the
        unpaired player eligible and from the lowest score group possible."""
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
