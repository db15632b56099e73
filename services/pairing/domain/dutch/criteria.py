"""The quality criteria of C.04.3 as integer edge weights.

A weight is a list of fields, most significant first; each field is summed over the pairs
of a matching, so a maximum-weight matching optimises the fields lexicographically. The
layout follows bbpPairings v6 (the FIDE-endorsed reference engine):

``top``  completion (C4) and the PAB (C2/C5): 1 + [not a PAB candidate] per player
``c6``   pairs in the current bracket (C6: minimise downfloaters)
``c7``   pairs in the current bracket counted per score of the higher player (C7)
``n6/n7`` the same for the next bracket (C8: the next bracket stays as good as it can)
``c9``   rank of the played-game count of bye-score players (C9: the PAB goes to the one
         with the fewest unplayed games)
``col``  C10-C13: topscorer colour rules, colour preferences, strong preferences
``f14-f17`` C14-C17: repeated downfloats/upfloats from the last two rounds
``f18-f21`` C18-C21: the scores of those floaters

A :class:`Layout` gives every field just enough bits for its largest possible sum, so the
packed integers stay small (and fit rustworkx's 128-bit arithmetic in most rounds).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable

from services.pairing.domain.dutch.colours import compatible as colours_compatible
from services.pairing.domain.dutch.players import Float, Player


class Layout:
    """Bit offsets for named fields; fields are added most significant first."""

    def __init__(self) -> None:
        self._fields: list[tuple[Hashable, int]] = []

    def add(self, key: Hashable, bound: int) -> None:
        """A field whose sum over a matching never exceeds ``bound``."""
        if bound > 0:
            self._fields.append((key, bound.bit_length()))

    def offsets(self) -> tuple[dict[Hashable, int], int]:
        offsets: dict[Hashable, int] = {}
        pos = 0
        for key, bits in reversed(self._fields):
            offsets[key] = pos
            pos += bits
        return offsets, pos


def colour_fields(lower: Player, higher: Player) -> tuple[bool, bool, bool, bool]:
    """C10-C13 for a pair in the current bracket (True = criterion met)."""
    p, o = lower.pref, higher.pref
    same = p.colour is not None and p.colour is o.colour
    c10 = not (p.absolute_imbalance and o.absolute_imbalance and same)
    if not (p.absolute and o.absolute and same):
        c11 = True
    elif p.imbalance == o.imbalance:
        c11 = p.repeated is None or p.repeated is not o.repeated
    else:
        side = o if p.imbalance > o.imbalance else p
        assert p.colour is not None
        c11 = side.repeated is not p.colour.opposite
    c12 = colours_compatible(p.colour, o.colour)
    p_weak = not p.strong and not p.absolute
    o_weak = not o.strong and not o.absolute
    c13 = p_weak or o_weak or (p.absolute and o.absolute) or not same
    return c10, c11, c12, c13


class BracketWeights:
    """Packs the criteria of one bracket's window (moved-down players, the score group and the
    next score group) and of the completion edges of everyone else."""

    def __init__(
        self,
        *,
        rounds_played: int,
        vertex_count: int,
        window: list[Player],
        scores: Iterable[int],
        c9_bound: int,
    ) -> None:
        self.rounds_played = rounds_played
        half = len(window) // 2
        counts: dict[int, int] = {}
        for p in window:
            counts[p.score] = counts.get(p.score, 0) + 1
        ordered = sorted(set(scores) | set(counts), reverse=True)
        layout = Layout()
        layout.add("top", 3 * (vertex_count // 2))
        layout.add("c6", half)
        for s in ordered:
            layout.add(("c7", s), counts.get(s, 0))
        layout.add("n6", half)
        for s in ordered:
            layout.add(("n7", s), counts.get(s, 0))
        layout.add("c9", c9_bound)
        for k in range(4):
            layout.add(("col", k), half)
        if rounds_played >= 1:
            layout.add("f14", 2 * half)
            layout.add("f15", half)
        if rounds_played >= 2:
            layout.add("f16", 2 * half)
            layout.add("f17", half)
        for name, rounds in (("f18", 1), ("f19", 1), ("f20", 2), ("f21", 2)):
            if rounds_played >= rounds:
                for s in ordered:
                    layout.add((name, s), counts.get(s, 0))
        self.offsets, self.bits = layout.offsets()

    def _at(self, key: Hashable) -> int:
        return self.offsets.get(key, -1)

    def top(self, top: int, c9: int) -> int:
        w = top << self.offsets["top"]
        if c9:
            w += c9 << self.offsets["c9"]
        return w

    def window_edge(self, higher: Player, lower: Player, in_current: bool, top: int, c9: int) -> int:
        """The weight of a pair whose lower player is in the current (or else the next) group."""
        off = self.offsets
        w = top << off["top"]
        if c9:
            w += c9 << off["c9"]
        if not in_current:
            return w + (1 << off["n6"]) + (1 << off[("n7", higher.score)])
        w += (1 << off["c6"]) + (1 << off[("c7", higher.score)])
        for k, ok in enumerate(colour_fields(lower, higher)):
            if ok:
                w += 1 << off[("col", k)]
        if self.rounds_played == 0:
            return w
        higher_above = higher.score > lower.score
        for back, (down, up, down_s, up_s) in enumerate(
            (("f14", "f15", "f18", "f19"), ("f16", "f17", "f20", "f21"))
        ):
            if self.rounds_played <= back:
                break
            lf, hf = lower.floats[back], higher.floats[back]
            repeated = (lf is Float.DOWN) + (not higher_above and hf is Float.DOWN)
            if repeated:
                w += repeated << off[down]
            if not (higher_above and lf is Float.UP):
                w += (1 << off[up]) + (1 << off[(up_s, higher.score)])
            if lf is Float.DOWN:
                w += 1 << off[(down_s, lower.score)]
            if hf is Float.DOWN:
                w += 1 << off[(down_s, higher.score)]
        return w
