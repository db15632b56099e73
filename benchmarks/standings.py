"""Standings: full recompute of a 200-player, 11-round Swiss with five tie-breaks, one incremental
update after a result, and the consumer's time per message on the embedded adapters. Prints figures only
(targets: < 50 ms and < 5 ms for the first two)."""

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
    consumer()


def consumer() -> None:
    """The standings consumer's hot path on the embedded adapters (SQLite, no broker round trip):
    each event goes through its subscription as a delivered message does (inbox, row lock, the live
    table from the cache, the rows, the snapshot, the outbox) and the time per message is printed."""
    import datetime as dt
    import tempfile
    import uuid
    from pathlib import Path

    from services.standings.bootstrap import bootstrap
    from services.standings.config import StandingsSettings
    from shared import events
    from shared.messaging.inprocess import InProcessBroker
    from shared.timesource import FakeClock

    now = dt.datetime(2026, 6, 1, 12, 0, tzinfo=dt.UTC)
    tc = events.TimeControl(base_seconds=180, increment_seconds=2)
    with tempfile.TemporaryDirectory() as tmp:
        svc = bootstrap(
            StandingsSettings(ARBITER_STANDINGS_DATABASE_URL=f"sqlite:///{Path(tmp) / 'standings.sqlite'}"),
            broker=InProcessBroker(),
            clock=FakeClock(now),
            migrate=True,
        )
        handler = {s.routing_keys[0]: s.handler for s in svc.subscriptions}

        def deliver(event: events.Event, tid: uuid.UUID) -> float:
            envelope = events.wrap(event, tid)
            t0 = time.perf_counter()
            handler[envelope.type](envelope, event)
            return time.perf_counter() - t0

        def tournament(
            players: int, rounds: int, system: str, rng: random.Random
        ) -> tuple[list[float], list[float], list[float]]:
            tid, organiser = uuid.uuid4(), uuid.uuid4()
            ids = {s: uuid.uuid4() for s in range(1, players + 1)}
            deliver(
                events.TournamentStarted(
                    tournament_id=tid,
                    organiser_id=organiser,
                    name="bench",
                    started_at=now,
                    settings=events.TournamentSettings(time_control=tc),
                    roster=[
                        events.RosterEntry(seed=s, player_id=p, name=f"P{s}", rating=2400 - s)
                        for s, p in ids.items()
                    ],
                ),
                tid,
            )
            pairings, results, corrections = [], [], []
            finished: list[events.GameFinished] = []
            for r in range(1, rounds + 1):
                order = list(ids)
                rng.shuffle(order)
                games = [
                    events.PairedGame(
                        game_id=uuid.uuid4(),
                        board=b,
                        white=ids[order[2 * b - 2]],
                        black=ids[order[2 * b - 1]],
                    )
                    for b in range(1, players // 2 + 1)
                ]
                pairings.append(
                    deliver(
                        events.RoundPaired(
                            tournament_id=tid,
                            organiser_id=organiser,
                            round=r,
                            total_rounds=rounds,
                            system=system,
                            games=games,
                            time_control=tc,
                        ),
                        tid,
                    )
                )
                for g in games:
                    outcome = rng.choice([Outcome.WHITE_WIN, Outcome.DRAW, Outcome.BLACK_WIN])
                    finished.append(
                        events.GameFinished(
                            tournament_id=tid,
                            game_id=g.game_id,
                            round=r,
                            white=g.white,
                            black=g.black,
                            outcome=outcome,
                            reason="reported",
                            finished_at=now,
                        )
                    )
                    results.append(deliver(finished[-1], tid))
            for done in rng.sample(finished, max(1, len(finished) // 10)):  # an arbiter corrects 10 %
                others = [
                    o for o in (Outcome.WHITE_WIN, Outcome.DRAW, Outcome.BLACK_WIN) if o != done.outcome
                ]
                correction = events.GameResultCorrected(
                    tournament_id=tid,
                    game_id=done.game_id,
                    round=done.round,
                    white=done.white,
                    black=done.black,
                    old_outcome=done.outcome,
                    outcome=rng.choice(others),
                    decision=events.DecisionBy(by=organiser, role="organiser", at=now, reason="bench"),
                )
                corrections.append(deliver(correction, tid))
            return pairings, results, corrections

        rng = random.Random(11)
        for players, rounds, system, count in ((8, 7, "round_robin", 20), (100, 7, "swiss", 1)):
            pairings, results, corrections = [], [], []
            for _ in range(count):
                p, r, c = tournament(players, rounds, system, rng)
                pairings += p
                results += r
                corrections += c
            print(
                f"consumer, {count} × {players}-player {system.replace('_', ' ')} ({rounds} rounds, SQLite): "
                f"result median {statistics.median(results) * 1000:.2f} ms, "
                f"pairing median {statistics.median(pairings) * 1000:.2f} ms, "
                f"correction median {statistics.median(corrections) * 1000:.2f} ms "
                f"(cache hits {svc.tables.stats.hits}, misses {svc.tables.stats.misses})"
            )
        svc.engine.dispose()
