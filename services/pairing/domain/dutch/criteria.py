"""The quality criteria of C.04.3 as integer edge weights.

A weight is a list of fields, most significant first; each field is summed over the pairs of
a matching, so a maximum-weight matching optimises the fields lexicographically. The fields
and their order follow bbpPairings v6 (the FIDE-endorsed reference engine):

``top``   completion (C4) and the PAB (C2/C5): 1 + [not a PAB candidate] per player
``c6``    pairs in the current bracket (C6: minimise the number of downfloaters)
``c7``    those pairs counted per score of the higher player (C7: minimise their scores)
``n6/n7`` the same for the next score group (C8: leave the next bracket as good as possible)
``c9``    rank of the played-game count of bye-score players (C9: the PAB goes to a player
          with the fewest unplayed games)
``col``   C10-C13: topscorers' colour difference and repeated colour, colour preferences,
          strong colour preferences
``f14-f17`` C14-C17: downfloaters and upfloaters repeated from the last two rounds
``f18-f21`` C18-C21: the scores of those floaters

Criteria of the form "as many pairs as possible meet X" are stored as penalties for the pairs
that miss X: with the pair count fixed by ``c6`` (more significant) that is the same order,
and a criterion nobody misses costs no bits. A :class:`BitLayout` gives every field just enough
bits for its largest possible sum, so the integers stay small (rustworkx computes in 128 bits).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from services.pairing.domain.dutch.colours import compatible as colours_compatible
from services.pairing.domain.dutch.players import FieldPlayer, Float


class BitLayout:
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


def colour_misses(lower: FieldPlayer, higher: FieldPlayer) -> tuple[bool, bool, bool, bool]:
    """C10-C13 for a pair in the current bracket: True where the criterion is missed."""
    p, o = lower.pref, higher.pref
    same = p.colour is not None and p.colour is o.colour
    if not same:
        return False, False, False, False
    c10 = p.absolute_imbalance and o.absolute_imbalance
    if not (p.absolute and o.absolute):
        c11 = False
    elif p.imbalance == o.imbalance:
        c11 = not (p.repeated is None or p.repeated is not o.repeated)
    else:
        side = o if p.imbalance > o.imbalance else p
        assert p.colour is not None
        c11 = side.repeated is p.colour.opposite
    c12 = not colours_compatible(p.colour, o.colour)
    p_weak = not p.strong and not p.absolute
    o_weak = not o.strong and not o.absolute
    c13 = not (p_weak or o_weak or (p.absolute and o.absolute))
    return c10, c11, c12, c13


# One pair's contribution: field key -> value (penalties negative).
Contribution = dict[Hashable, int]


def current_pair(higher: FieldPlayer, lower: FieldPlayer, rounds_played: int) -> Contribution:
    """The fields of a pair inside the current bracket (``lower`` is a resident)."""
    out: Contribution = {"c6": 1, ("c7", higher.score): 1}
    for k, miss in enumerate(colour_misses(lower, higher)):
        if miss:
            out[("col", k)] = -1
    higher_above = higher.score > lower.score
    for back, (down, up, down_s, up_s) in enumerate(
        (("f14", "f15", "f18", "f19"), ("f16", "f17", "f20", "f21"))
    ):
        if rounds_played <= back:
            break
        lf, hf = lower.floats[back], higher.floats[back]
        repeated = (lf is Float.DOWN) + (not higher_above and hf is Float.DOWN)
        if repeated:
            out[down] = repeated
        if higher_above and lf is Float.UP:
            out[up] = -1
            out[(up_s, higher.score)] = -1
        if lf is Float.DOWN:
            key = (down_s, lower.score)
            out[key] = out.get(key, 0) + 1
        if hf is Float.DOWN:
            key = (down_s, higher.score)
            out[key] = out.get(key, 0) + 1
    return out


def next_pair(higher: FieldPlayer) -> Contribution:
    """The fields of a pair whose lower player is in the next score group."""
    return {"n6": 1, ("n7", higher.score): 1}


_ORDER = ("top", "c6", "c7", "n6", "n7", "c9", "col", "f14", "f15", "f16", "f17", "f18", "f19", "f20", "f21")
_RANK = {name: i for i, name in enumerate(_ORDER)}


def field_order(key: Hashable) -> tuple[int, int]:
    """Most significant first: by field, then by score (higher scores first) or index."""
    if isinstance(key, tuple):
        name, sub = key
        return (_RANK[name], -sub if name != "col" else sub)
    assert isinstance(key, str)
    return (_RANK[key], 0)


def build_layout(keys: set[Hashable], bound: Callable[[Hashable], int]) -> tuple[dict[Hashable, int], int]:
    """Offsets for the given fields; ``bound(key)`` caps the field's sum over a matching."""
    layout = BitLayout()
    for key in sorted(keys, key=field_order):
        layout.add(key, bound(key))
    return layout.offsets()


def pack(contribution: Contribution, offsets: dict[Hashable, int]) -> int:
    return sum(v << offsets[k] for k, v in contribution.items())
