"""The two conversion tables of the FIDE Rating Regulations (Handbook B.02, table 8.1).

- 8.1(a): fractional score p → rating difference dp.
- 8.1(b): rating difference D → scoring probability PD of the higher-rated player.

Transcribed from the regulations: the tables below are the published rows, not a formula.
"""

from __future__ import annotations

import bisect

__all__ = ["dp_for_percentage", "expected_hundredths"]

# 8.1(a) for p = 0.50 .. 1.00 (p = 1 - q gives -dp): index = percentage - 50.
_DP_UPPER = (
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65,
    72, 80, 87, 95, 102, 110, 117, 125, 133, 141,
    149, 158, 166, 175, 184, 193, 202, 211, 220, 230,
    240, 251, 262, 273, 284, 296, 309, 322, 336, 351,
    366, 383, 401, 422, 444, 470, 501, 538, 589, 677,
    800,
)  # fmt: skip

# 8.1(b): the upper end of each rating-difference band and the PD (in hundredths) of the higher rated.
_BAND_TOP = (
    3, 10, 17, 25, 32, 39, 46, 53, 61, 68, 76, 83, 91, 98, 106, 113, 121, 129, 137, 145, 153, 162,
    170, 179, 188, 197, 206, 215, 225, 235, 245, 256, 267, 278, 290, 302, 315, 328, 344, 357, 374,
    391, 411, 432, 456, 484, 517, 559, 619, 735,
)  # fmt: skip


def dp_for_percentage(percentage: int) -> int:
    """dp for a score of ``percentage`` per cent (0..100)."""
    if not 0 <= percentage <= 100:
        raise ValueError(f"a percentage is 0..100, got {percentage}")
    if percentage >= 50:
        return _DP_UPPER[percentage - 50]
    return -_DP_UPPER[50 - percentage]


def expected_hundredths(own: int, opponent: int) -> int:
    """The player's expected score against the opponent, in hundredths (table 8.1(b))."""
    diff = abs(own - opponent)
    pd = 50 + bisect.bisect_left(_BAND_TOP, diff) if diff <= _BAND_TOP[-1] else 100
    return pd if own >= opponent else 100 - pd
