"""The random draw of a seed list (RULES.md §4, seeding "random"), shared by registration (which
draws the seeds when a knockout starts) and pairing's seeding engine (which checks a stored draw).

Each player's key is the SHA-256 of ``"<draw seed>:<player id>"``; the order is by key, then id. The
same draw seed and roster give the same order on any machine and Python version (``random.shuffle``
does not promise that), and the order does not depend on the roster's order.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable


class DrawError(ValueError):
    """A roster that cannot be drawn (a player listed twice)."""


def draw_order(player_ids: Iterable[str], draw_seed: int) -> tuple[str, ...]:
    """The random order of a draw, reproducible from ``draw_seed``."""

    def key(player_id: str) -> tuple[bytes, str]:
        return hashlib.sha256(f"{draw_seed}:{player_id}".encode()).digest(), player_id

    ids = list(player_ids)
    if len(set(ids)) != len(ids):
        raise DrawError("a player appears twice in the roster")
    return tuple(sorted(ids, key=key))


def new_draw_seed() -> int:
    """A fresh draw seed to record before drawing (the only non-deterministic function here)."""
    return secrets.randbits(63)
