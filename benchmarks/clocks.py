"""Clocks: the result path on the embedded adapters (SQLite, in-memory deadlines, a fake clock).

2,000 ``ReportResult`` through the bus, one game each: a player of a `platform` game resigning (their
own loss, final at once: the hot path), and the same number entered by the tournament's organiser.
Prints the CPU time per result (this process: SQLite runs in it; best and median of five passes, since
the CPU time of one process is what other processes on a shared machine disturb least), the wall time,
and the statements each result sends. Nothing is asserted: speed is read, not tested.
"""

from __future__ import annotations

import datetime as dt
import statistics
import tempfile
import time
import uuid
from pathlib import Path

import sqlalchemy as sa

from services.clocks.adapters.deadlines import InMemoryDeadlineStore
from services.clocks.bootstrap import bootstrap
from services.clocks.config import ClocksSettings
from services.clocks.domain.game import Outcome
from services.clocks.service_layer.commands import Actor, ReportResult
from shared import events
from shared.messaging.inprocess import InProcessBroker
from shared.timesource import FakeClock

RESULTS = 2_000
PASSES = 5
BOARDS = 100  # games per round.paired


def _round(tournament_id: uuid.UUID, organiser_id: uuid.UUID, number: int) -> events.Envelope:
    games = [
        events.PairedGame(game_id=uuid.uuid4(), board=b, white=uuid.uuid4(), black=uuid.uuid4())
        for b in range(1, BOARDS + 1)
    ]
    paired = events.RoundPaired(
        tournament_id=tournament_id,
        organiser_id=organiser_id,
        round=number,
        total_rounds=RESULTS // BOARDS,
        system="swiss",
        games=games,
        time_control=events.TimeControl(base_seconds=600, increment_seconds=5),
    )
    return events.wrap(paired, tournament_id)


def _pass(by_organiser: bool) -> tuple[float, float, float]:
    """CPU seconds per result, wall seconds per result, statements per result."""
    with tempfile.TemporaryDirectory() as tmp:
        settings = ClocksSettings(ARBITER_CLOCKS_DATABASE_URL=f"sqlite:///{Path(tmp) / 'clocks.sqlite'}")
        clock = FakeClock(dt.datetime(2026, 6, 1, 12, tzinfo=dt.UTC))
        svc = bootstrap(
            settings, broker=InProcessBroker(), clock=clock, deadlines=InMemoryDeadlineStore(), migrate=True
        )
        svc.broker.subscribe(svc.subscriptions)
        tid, organiser = uuid.uuid4(), uuid.uuid4()
        reports: list[ReportResult] = []
        for number in range(1, RESULTS // BOARDS + 1):
            envelope = _round(tid, organiser, number)
            svc.broker.publish([envelope])
            svc.broker.run_until_idle()
            for g in events.RoundPaired.model_validate(envelope.payload).games:
                who = Actor(organiser) if by_organiser else Actor(g.white)
                reports.append(ReportResult(g.game_id, Outcome.BLACK_WIN, "resignation", who))
        clock.advance(10)
        statements = 0

        def count(*_: object) -> None:
            nonlocal statements
            statements += 1

        sa.event.listen(svc.engine, "before_cursor_execute", count)
        cpu, wall = time.process_time(), time.perf_counter()
        for report in reports:
            svc.bus.handle(report)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        sa.event.remove(svc.engine, "before_cursor_execute", count)
        svc.engine.dispose()
        return cpu / RESULTS, wall / RESULTS, statements / RESULTS


def main() -> None:
    for label, by_organiser in (("a player resigns", False), ("the organiser enters it", True)):
        passes = [_pass(by_organiser) for _ in range(PASSES)]
        cpu = [p[0] * 1000 for p in passes]
        wall = [p[1] * 1000 for p in passes]
        print(
            f"report_result, {label}: {RESULTS} results; CPU {min(cpu):.3f} ms best, "
            f"{statistics.median(cpu):.3f} ms median of {PASSES}; wall {statistics.median(wall):.3f} ms median; "
            f"{passes[0][2]:.1f} statements each"
        )


if __name__ == "__main__":
    main()
