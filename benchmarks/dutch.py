"""Dutch-system pairing: one mid-event round (round 5 of 9) for 200, 1000 and 3000 players.

Each field is built by pairing rounds 1-4 with the engine itself and drawing results at random
(seeded; stronger players win more often, some draws). Prints the time and the peak memory of
pairing round 5, and how long building rounds 1-4 took; asserts nothing.
"""

from __future__ import annotations

import random
import resource
import signal
import sys
import time
import tracemalloc
from fractions import Fraction

from services.pairing.domain.dutch import (
    Colour,
    Pairing,
    PlayerHistory,
    RoundInput,
    RoundKind,
    RoundRecord,
    pair_round,
)

SIZES = (200, 1000, 3000)
ROUNDS = 9
ROUND = 5
ONE, HALF, ZERO = Fraction(1), Fraction(1, 2), Fraction(0)


def _play(pairing: Pairing, rng: random.Random) -> dict[int, RoundRecord]:
    out: dict[int, RoundRecord] = {}
    for white, black in pairing.games:
        # lower pairing number = stronger player
        edge = 0.1 if white < black else -0.1
        x = rng.random()
        if x < 0.4 + edge:
            pw, pb = ONE, ZERO
        elif x < 0.7 + edge / 2:
            pw, pb = HALF, HALF
        else:
            pw, pb = ZERO, ONE
        out[white] = RoundRecord(RoundKind.PLAYED, pw, black, Colour.WHITE)
        out[black] = RoundRecord(RoundKind.PLAYED, pb, white, Colour.BLACK)
    if pairing.bye is not None:
        out[pairing.bye] = RoundRecord(RoundKind.PAB, ONE)
    return out


BUDGET = 600.0  # seconds to build one field; larger fields are reported as not measured


class OverBudget(Exception):
    pass


def build_round(players: int, rounds_played: int, seed: int = 1, budget: float = BUDGET) -> RoundInput:
    """A tournament of ``players`` after ``rounds_played`` rounds paired by the engine."""
    rng = random.Random(seed)
    history: dict[int, list[RoundRecord]] = {n: [] for n in range(1, players + 1)}
    deadline = time.perf_counter() + budget
    for _ in range(rounds_played):
        if time.perf_counter() > deadline:
            raise OverBudget
        data = RoundInput(
            players=tuple(PlayerHistory(n, tuple(h)) for n, h in history.items()),
            total_rounds=ROUNDS,
        )
        results = _play(pair_round(data), rng)
        for n in history:
            history[n].append(results[n])
    return RoundInput(
        players=tuple(PlayerHistory(n, tuple(h)) for n, h in history.items()),
        total_rounds=ROUNDS,
    )


def main(sizes: tuple[int, ...] = SIZES) -> None:
    print(
        f"{'players':>8} {'time (s)':>9} {'peak Python heap (MiB)':>23} {'process max RSS (MiB)':>22}"
        f" {'rounds 1-4 (s)':>15}"
    )

    def _over(signum: int, frame: object) -> None:
        raise OverBudget

    signal.signal(signal.SIGALRM, _over)
    for n in sizes:
        signal.alarm(int(BUDGET))
        built = time.perf_counter()
        try:
            data = build_round(n, ROUND - 1)
        except OverBudget:
            print(f"{n:>8} not measured: pairing rounds 1-{ROUND - 1} took over {BUDGET:.0f} s", flush=True)
            continue
        finally:
            signal.alarm(0)
        built = time.perf_counter() - built
        start = time.perf_counter()
        pair_round(data)
        elapsed = time.perf_counter() - start
        tracemalloc.start()
        pair_round(data)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"{n:>8} {elapsed:>9.2f} {peak / 2**20:>23.1f} {rss:>22.0f} {built:>15.1f}", flush=True)


if __name__ == "__main__":
    main(tuple(int(a) for a in sys.argv[1:]) or SIZES)
