"""One arena pass as a worker runs it: read the pool, pair, commit under the lease (docs/arena.md).

The pass itself (:func:`~services.pairing.domain.arena.pairing.pair`) is pure; the commit is the pool's
atomic, fenced write. A worker that lost its lease gets :class:`~.arena_ports.LeaseLost` and has written
nothing; the games it committed before it died are in the pool's ``unannounced`` list for the next holder.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Callable
from dataclasses import dataclass

from services.pairing.domain.arena.pairing import PassResult, pair
from services.pairing.service_layer.arena_ports import ArenaPool, Committed, NewGame


@dataclass(frozen=True, slots=True)
class PassOutcome:
    result: PassResult
    committed: Committed


def run_pass(
    pool: ArenaPool,
    arena: uuid.UUID,
    token: str,
    now: dt.datetime,
    *,
    new_game_id: Callable[[], uuid.UUID] = uuid.uuid4,
) -> PassOutcome:
    """Pair the arena's waiting players at ``now`` and commit the games while ``token`` holds the lease."""
    result = pair(pool.waiting(arena, now), now)
    games = [NewGame(new_game_id(), p.white, p.black) for p in result.pairs]
    return PassOutcome(result, pool.commit(arena, token, games, result.waiting, now))
