"""Baku acceleration (FIDE C.04.5.1) as the ``XXA`` records carry it: the virtual points per round of
the players in group A. Pairing adds them when it pairs an accelerated round; the standings write them
into the TRF they export, so bbpPairings and JaVaFo re-pair those rounds alike."""

from __future__ import annotations

import math
from fractions import Fraction

__all__ = ["baku"]


def baku(players: int, rounds: int, win: Fraction, draw: Fraction) -> dict[int, list[Fraction]]:
    """The Baku method's virtual points per round for the players of group A (C.04.5.1): the top
    ``2 × ⌈players/4⌉`` start numbers; a win's value in the first half of the accelerated rounds
    (the first ``⌈rounds/2⌉``), a draw's in the second."""
    group_a = 2 * math.ceil(players / 4)
    accelerated = math.ceil(rounds / 2)
    full = math.ceil(accelerated / 2)
    values = [win] * full + [draw] * (accelerated - full)
    return {start: list(values) for start in range(1, min(group_a, players) + 1)}
