"""Cut and median modifiers, FIDE C.07 Art. 14 with the VUR exception of Art. 16.5.

A tie-break value is a sum of per-round contributions. Each contribution knows the score of the
opponent it comes from (real or dummy) and whether the round was voluntarily unplayed.

- **Cut-n** (-C n) removes the n least significant values; **Median-n** (-M n) removes the n least
  and the n most significant values.
- The least significant value (14.1.1) is the contribution of the opponent with the lowest score;
  among opponents on the same score, the lowest contribution.
- 16.5: at each low cut, the least significant value is compared with the lowest contribution that
  comes from a VUR, and the larger of the two is cut (on equality, the VUR). High cuts take no
  account of VURs.
"""

from __future__ import annotations

__all__ = ["Contribution", "cut_sum"]

Contribution = tuple[int, int, bool, int]
"""(opponent's or dummy's score, value added, VUR, round): integers in units."""


def _low_key(c: Contribution) -> tuple[int, int, int]:
    return (c[0], c[1], c[3])


def _vur_key(c: Contribution) -> tuple[bool, int, int, int]:
    return (not c[2], c[0], c[1], c[3])


def _high_key(c: Contribution) -> tuple[int, int, int]:
    return (-c[0], -c[1], c[3])


def cut_sum(contributions: list[Contribution], low: int = 0, high: int = 0) -> int:
    """The sum after cutting ``low`` least and ``high`` most significant contributions."""
    if not low and not high:
        return sum(c[1] for c in contributions)
    remaining = list(contributions)
    for _ in range(min(low, len(remaining))):
        least = min(remaining, key=_low_key)
        vur_first = min(remaining, key=_vur_key)
        remaining.remove(least if least[1] > vur_first[1] else vur_first)
    for _ in range(min(high, len(remaining))):
        remaining.remove(min(remaining, key=_high_key))
    return sum(c[1] for c in remaining)
