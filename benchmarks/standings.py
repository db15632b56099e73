"""Standings: full recompute of a 200-player, 11-round Swiss with five tie-breaks, and one incremental
update after a result. Prints figures only (targets: < 50 ms and < 5 ms)."""

from __future__ import annotations

import random
import statistics
import time

from services.standings.domain.context import Rules
from services.standings.domain.history import Edition, EventHistory, Player
from services.standings.domain.ranking import Standings
from shared.scoring import FIDE, Outcome, Result

PLAYERS = 200
ROUNDS = 11
TIEBREAKS = "BH,BH-C1,SB,ARO,WIN"


def swiss_event(seed: int = 2026) -> tuple[EventHistory, list[tuple[int, int, int]]]:
    """A plausible Swiss: players paired within score order without rematches, results by rating
    with draws, a pairing-allocated bye for the odd player and a few half-point byes."""
    rng = random.Random(seed)
    players = [Player(s, f"Player {s}", 2400 - 5 * s) for s in range(1, PLAYERS + 1)]
    history = EventHistory.create(players, point_system=FIDE)
    met: dict[int, set[int]] = {p.start: set() for p in players}
    games: list[tuple[int, int, int]] = []
    for r in range(1, ROUNDS + 1):
        absent = set(rng.sample(range(1, PLAYERS + 1), 3))
        for s in absent:
            history.record_bye(r, s, Result.HALF_POINT_BYE)
        order = sorted((s for s in met if s not in absent), key=lambda s: (-history.score(s), s))
        if len(order) % 2:
            history.record_bye(r, order.pop(), Result.PAIRING_BYE)
        while order:
            a = order.pop(0)
            b = next((o for o in order if o not in met[a]), order[0])
            order.remove(b)
            met[a].add(b)
            met[b].add(a)
            roll = rng.random()
            outcome = Outcome.WHITE_WIN if roll < 0.4 else Outcome.DRAW if roll < 0.7 else Outcome.BLACK_WIN
            if roll > 0.98:
                outcome = Outcome.WHITE_FORFEIT_WIN
            history.record_game(r, a, b, outcome)
            games.append((r, a, b))
    return history, games


def main() -> None:
    history, games = swiss_event()
    rules = Rules(edition=Edition.E2026)
    timings = []
    for _ in range(7):
        t0 = time.perf_counter()
        standings = Standings(history, TIEBREAKS, rules)
        timings.append(time.perf_counter() - t0)
    print(
        f"full recompute, {len(history.players)} players, {ROUNDS} rounds, {TIEBREAKS}: "
        f"median {statistics.median(timings) * 1000:.1f} ms (min {min(timings) * 1000:.1f} ms)"
    )
    rng = random.Random(7)
    updates = []
    for _ in range(50):
        r, white, black = rng.choice([g for g in games if g[0] == ROUNDS])
        outcome = rng.choice([Outcome.WHITE_WIN, Outcome.DRAW, Outcome.BLACK_WIN])
        t0 = time.perf_counter()
        standings.record_game(r, white, black, outcome)
        updates.append(time.perf_counter() - t0)
    print(
        f"incremental update (one result of the last round, table re-ranked): "
        f"median {statistics.median(updates) * 1000:.2f} ms (max {max(updates) * 1000:.2f} ms)"
    )
