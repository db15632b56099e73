"""End to end on the local stack: many tournaments at once, results reported over HTTP. Two passes:
saturation (each result posted as soon as its game exists) gives the sustained results per second,
HTTP result → standings updated; then a paced pass, at a share of that rate, gives the p50/p95
latency of a result reaching the standings when the stack is not overloaded (at saturation the
latency only measures the queue). Needs PostgreSQL, RabbitMQ and Redis (as `make test`)."""

from __future__ import annotations

import json
import os
import statistics
import tempfile
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

TOURNAMENTS = int(os.environ.get("ARBITER_BENCH_TOURNAMENTS", "40"))
PLAYERS = int(os.environ.get("ARBITER_BENCH_PLAYERS", "8"))
CONSUMERS = int(os.environ.get("ARBITER_BENCH_CONSUMERS", "1"))  # of standings and of pairing each
THRESHOLD = 20  # the platform threshold each tournament is created with


def main() -> None:
    from tests.e2e.stack import running_stack
    from tests.servers import discover

    servers = discover()
    try:
        with (
            tempfile.TemporaryDirectory(prefix="arbiter_bench_") as tmp,
            running_stack(servers, Path(tmp), consumers=CONSUMERS) as stack,
            _Listener(stack.env["ARBITER_AMQP_URL"]) as bus,
        ):
            ceiling, costs = _ceiling(stack.env)
            print(f"tournaments at once: {TOURNAMENTS} × {PLAYERS} players, per pass")
            print(f"consumer processes of standings and of pairing: {CONSUMERS} each")
            print("-- saturation: every result posted as soon as its game exists")
            saturated = _run_pass(stack, bus, rate=None)
            paced = max(1.0, PACE * saturated.rate)
            print(f"-- paced: results posted at {paced:.0f}/s ({PACE:.0%} of the saturated rate)")
            slow = _run_pass(stack, bus, rate=paced)
            _print_memory(stack)
            commits, published, delivered = saturated.pieces
            floor_ms = commits * costs[0] + published * costs[1] + delivered * costs[2]
            print(
                f"floor of the guarantees: {commits:.1f} commits, {published:.1f} confirmed publishes and"
                f" {delivered:.1f} consumes per result at the ceiling's CPU each = {floor_ms:.1f} ms CPU per"
                f" result; Arbiter's {saturated.cpu_ms:.1f} ms is {saturated.cpu_ms / max(floor_ms, 1e-9):.1f}"
                " times it"
            )
            print(
                f"e2e saturation: {saturated.rate:.0f} results/s, {saturated.cpu_ms:.1f} ms CPU per result,"
                f" {saturated.rate / ceiling:.2f} of the ceiling"
            )
            print(
                f"e2e paced: {slow.rate:.0f} results/s, p50 {slow.p50:.0f} ms, p95 {slow.p95:.0f} ms,"
                f" p99 {slow.p99:.0f} ms"
            )
    finally:
        servers.cleanup()


def _print_memory(stack) -> None:  # type: ignore[no-untyped-def]
    """Resident memory of every process after both passes, its peak (VmHWM) and now (VmRSS), in MiB;
    a gunicorn's master and each worker apart. docs/operations.md sizes the pods from these."""
    print("resident memory, MiB (peak / now):")
    for p in stack.processes:
        if p.popen is None:
            continue
        parts = []
        for pid in [p.popen.pid, *_children(p.popen.pid)]:
            status = _status(pid)
            if status:
                parts.append(f"{status.get('VmHWM', 0) // 1024}/{status.get('VmRSS', 0) // 1024}")
        print(f"  {p.name}: {' + '.join(parts)}")


def _children(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def _status(pid: int) -> dict[str, int]:
    """The kB figures of /proc/<pid>/status."""
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return {}
    out = {}
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if value.strip().endswith("kB"):
            out[key] = int(value.split()[0])
    return out


PACE = float(os.environ.get("ARBITER_BENCH_PACE", "0.5"))


class _Listener:
    """Hears, on its own queue, every game.started (the drivers learn their games from it) and every
    standings.updated (when a result reached the standings)."""

    def __init__(self, amqp_url: str) -> None:
        self.url = amqp_url
        self.arrivals: dict[str, list[tuple[int, float]]] = {}
        self.started_games: dict[tuple[str, int], list[dict[str, str]]] = {}
        self.news = threading.Condition()
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._listen, daemon=True)

    def __enter__(self) -> _Listener:
        self._thread.start()
        self._ready.wait(10)
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(5)

    def _listen(self) -> None:
        import pika

        conn = pika.BlockingConnection(pika.URLParameters(self.url))
        ch = conn.channel()
        ch.exchange_declare("arbiter.events", exchange_type="topic", durable=True)
        q = ch.queue_declare("", exclusive=True).method.queue
        ch.queue_bind(q, "arbiter.events", routing_key="standings.updated")
        ch.queue_bind(q, "arbiter.events", routing_key="game.started")

        def on_message(_ch, method, _p, body: bytes) -> None:  # type: ignore[no-untyped-def]
            env = json.loads(body)
            payload = env["payload"]
            if method.routing_key == "game.started":
                with self.news:
                    self.started_games.setdefault((env["tournament_id"], payload["round"]), []).append(
                        {"id": payload["game_id"], "white": payload["white"], "black": payload["black"]}
                    )
                    self.news.notify_all()
                return
            self.arrivals.setdefault(env["tournament_id"], []).append(
                (payload["games_counted"], time.monotonic())
            )

        ch.basic_consume(q, on_message, auto_ack=True)
        self._ready.set()
        while not self._stop.is_set():
            conn.process_data_events(time_limit=0.1)
        conn.close()


class _Pacer:
    """Hands out posting times ``1/rate`` apart across all drivers (None: no pacing)."""

    def __init__(self, rate: float | None) -> None:
        self.gap = None if rate is None else 1.0 / rate
        self.next = time.monotonic()
        self.lock = threading.Lock()

    def wait(self) -> None:
        if self.gap is None:
            return
        with self.lock:
            slot = max(self.next, time.monotonic())
            self.next = slot + self.gap
        delay = slot - time.monotonic()
        if delay > 0:
            time.sleep(delay)


@dataclass(frozen=True)
class _Pass:
    rate: float  # sustained results per second
    cpu_ms: float  # CPU per result, every process and server
    p50: float  # latency HTTP result → standings.updated, ms
    p95: float
    p99: float
    pieces: tuple[float, float, float]  # commits, publishes, deliveries per result


# What one result costs on its path, in the pieces the ceiling measures: the clocks web server's
# commit, the clocks relay's publish and its marking commit, the standings and pairing consumers'
# deliveries and commits, the standings relay's publish and its marking commit, and the delivery of
# standings.updated to whoever listens.
PATH_COMMITS = 5
PATH_PUBLISHES = 2
PATH_CONSUMES = 3
CEILING_MESSAGES = int(os.environ.get("ARBITER_BENCH_CEILING_MESSAGES", "2000"))


class _Cost:
    """The CPU of one piece of the ceiling: this process's and the servers' (PostgreSQL, RabbitMQ)."""

    def __init__(self) -> None:
        self.mine, self.servers = time.process_time(), _machine_cpu()

    def ms_each(self, n: int) -> float:
        after = _machine_cpu()
        servers = sum(after[k] - self.servers[k] for k in SERVER_PROCESSES.values())
        return 1000 * (time.process_time() - self.mine + servers) / n


def _ceiling(env: dict[str, str]) -> tuple[float, tuple[float, float, float]]:
    """The raw pieces on this machine, now, with the stack's libraries and settings (blocking pika,
    persistent messages on a durable queue; psycopg on the service's database): a publish confirmed
    one by one, a consume with a manual ack (prefetch 32, as the consumers), a single-row commit.
    Prints each and returns the results per second a path made of them allows, one piece at a time
    (PATH_COMMITS + PATH_PUBLISHES + PATH_CONSUMES): the figure the e2e rate is a share of; and the CPU
    those pieces cost per result, here and in the servers (the floor the guarantees set: what is above
    it is Arbiter's own work): a commit's, a publish's and a consume's, in ms. The stack is idle
    meanwhile, its servers' share of it counted in."""
    import pika
    import psycopg

    n = CEILING_MESSAGES
    conn = pika.BlockingConnection(pika.URLParameters(env["ARBITER_AMQP_URL"]))
    try:
        ch = conn.channel()
        ch.confirm_delivery()
        queue = ch.queue_declare("bench.ceiling", durable=True).method.queue
        ch.queue_purge(queue)
        props = pika.BasicProperties(content_type="application/json", delivery_mode=2)
        body = b'{"payload": "' + b"x" * 400 + b'"}'  # about an event's size
        start, cost = time.perf_counter(), _Cost()
        for _ in range(n):
            ch.basic_publish("", queue, body, props)
        publish = n / (time.perf_counter() - start)
        publish_ms = cost.ms_each(n)
        ch.basic_qos(prefetch_count=32)
        taken = 0

        def on_message(channel, method, _p, _b) -> None:  # type: ignore[no-untyped-def]
            nonlocal taken
            channel.basic_ack(method.delivery_tag)
            taken += 1

        ch.basic_consume(queue, on_message)
        start, cost = time.perf_counter(), _Cost()
        while taken < n:
            conn.process_data_events(time_limit=1)
        consume = n / (time.perf_counter() - start)
        consume_ms = cost.ms_each(n)
        ch.queue_delete(queue)
    finally:
        conn.close()
    url = env["ARBITER_STANDINGS_DATABASE_URL"].replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(url, autocommit=True) as db:
        db.execute("CREATE TEMP TABLE bench_ceiling (id bigserial PRIMARY KEY, body text)")
        start, cost = time.perf_counter(), _Cost()
        for _ in range(n):
            with db.transaction():
                db.execute("INSERT INTO bench_ceiling (body) VALUES (%s)", ("x" * 200,))
        commit = n / (time.perf_counter() - start)
        commit_ms = cost.ms_each(n)
    per_result = PATH_COMMITS / commit + PATH_PUBLISHES / publish + PATH_CONSUMES / consume
    ceiling = 1 / per_result
    print(
        f"ceiling confirmed publish: {publish:.0f} msg/s (blocking pika, a confirm per message),"
        f" {publish_ms:.2f} ms CPU each"
    )
    print(
        f"ceiling consume and ack: {consume:.0f} msg/s (blocking pika, prefetch 32), {consume_ms:.2f} ms CPU each"
    )
    print(f"ceiling single-row commit: {commit:.0f} commits/s (psycopg), {commit_ms:.2f} ms CPU each")
    print(
        f"ceiling path: {ceiling:.0f} results/s ({PATH_COMMITS} commits, {PATH_PUBLISHES} confirmed"
        f" publishes, {PATH_CONSUMES} consumes per result, one at a time)"
    )
    return ceiling, (commit_ms, publish_ms, consume_ms)


def _run_pass(stack, bus: _Listener, *, rate: float | None) -> _Pass:  # type: ignore[no-untyped-def]
    """Register, start and play TOURNAMENTS tournaments at once; print the figures and return them."""
    from services.pairing.domain.rounds.platform import plan
    from tests.e2e.story import Story

    story = Story(stack)
    organisers = [story.register(f"Org {i}") for i in range(TOURNAMENTS)]
    fields = [[story.register(f"T{i} P{j}", 2000 - j) for j in range(PLAYERS)] for i in range(TOURNAMENTS)]
    tids = []
    lead = max(10.0, 0.1 * TOURNAMENTS * PLAYERS)  # every field must be in before the first start
    for org, players in zip(organisers, fields, strict=True):
        tid = story.create_tournament(org, start_in=lead, threshold=THRESHOLD, base_seconds=3600)
        for p in players:
            story.join(p, tid)
        tids.append(tid)
    rounds = plan(PLAYERS, threshold=THRESHOLD).rounds  # round robin below the threshold, else Swiss
    per_round = PLAYERS // 2
    posted: list[tuple[str, int, float]] = []
    lock = threading.Lock()
    pacer = _Pacer(rate)

    def drive(tid: uuid.UUID, players: list) -> None:  # type: ignore[type-arg]
        local = Story(stack)
        by_id = {p.id: p for p in players}
        count = 0
        for rnd in range(1, rounds + 1):
            key = (str(tid), rnd)

            def paired(key: tuple[str, int] = key) -> bool:
                return len(bus.started_games.get(key, [])) >= per_round

            with bus.news:
                bus.news.wait_for(paired, 120)
                games = list(bus.started_games[key])
            for game in games:
                black = by_id[uuid.UUID(game["black"])]
                pacer.wait()
                t0 = time.monotonic()
                local.report_result(game, "1-0", black)  # Black resigns: final at once
                count += 1
                with lock:
                    posted.append((str(tid), count, t0))

    for tid in tids:
        story.wait_status(tid, "started", timeout=lead + 60)
    path_before = _path_counts(stack)  # first: its connections are not the pass's work
    cpu_before, machine_before = _cpu_by_process(stack), _machine_cpu()
    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=TOURNAMENTS) as pool:
        list(pool.map(drive, tids, fields))
    total = len(posted)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if all(any(n >= rounds * per_round for n, _ in bus.arrivals.get(str(t), [])) for t in tids):
            break
        time.sleep(0.05)
    cpu_after, machine_after, path_after = _cpu_by_process(stack), _machine_cpu(), _path_counts(stack)
    mine = {str(t) for t in tids}
    last = max(t for key, series in bus.arrivals.items() if key in mine for _, t in series)
    latencies = []
    for key, k, t0 in posted:
        reached = [t for n, t in bus.arrivals.get(key, []) if n >= k]
        if reached:
            latencies.append(min(reached) - t0)
    latencies.sort()
    elapsed = last - started
    sustained = total / elapsed
    print(f"results reaching the standings: {len(latencies)}/{total}")
    print(f"sustained: {sustained:.0f} results/s over {elapsed:.1f} s (target ≥ 300)")
    p50 = p95 = p99 = float("nan")
    if latencies:
        p50 = statistics.median(latencies) * 1000
        p95 = latencies[int(0.95 * (len(latencies) - 1))] * 1000
        p99 = latencies[int(0.99 * (len(latencies) - 1))] * 1000
        print(
            f"latency HTTP result → standings.updated: p50 {p50:.0f} ms, p95 {p95:.0f} ms,"
            f" p99 {p99:.0f} ms (target p95 < 100)"
        )
    used = {name: cpu_after[name] - cpu_before.get(name, 0.0) for name in cpu_after}
    busiest = sorted(used.items(), key=lambda kv: -kv[1])[:8]
    print("CPU seconds by process:", ", ".join(f"{n} {s:.1f}" for n, s in busiest))
    servers_used = {n: machine_after[n] - machine_before[n] for n in machine_after if n != "total"}
    busy = machine_after["total"][0] - machine_before["total"][0]
    wall = machine_after["total"][1] - machine_before["total"][1]
    cpu_ms = 1000 * (sum(used.values()) + sum(servers_used.values())) / max(total, 1)
    print(
        f"machine busy {busy / max(wall, 1):.0%} of {os.cpu_count()} cores; Arbiter processes"
        f" {sum(used.values()):.1f} s, servers "
        + ", ".join(f"{n} {s:.1f} s" for n, s in servers_used.items())
        + f"; CPU per result {cpu_ms:.1f} ms"
    )
    print(
        "CPU per result by process, ms: "
        + ", ".join(
            f"{n} {1000 * s / max(total, 1):.2f}" for n, s in sorted(used.items(), key=lambda kv: -kv[1])
        )
    )
    per_result = {
        service: tuple((a - b) / max(total, 1) for a, b in zip(after, path_before[service], strict=True))
        for service, after in path_after.items()
    }
    sums = [sum(counts[i] for counts in per_result.values()) for i in range(3)]
    print(
        f"per result on the path: {sums[0]:.1f} commits, {sums[1]:.1f} events published, {sums[2]:.1f} deliveries"
        " handled (" + ", ".join(f"{s} {c:.1f}/{o:.1f}/{i:.1f}" for s, (c, o, i) in per_result.items()) + ")"
    )
    return _Pass(sustained, cpu_ms, p50, p95, p99, (sums[0], sums[1], sums[2]))


def _path_counts(stack) -> dict[str, tuple[int, int, int]]:  # type: ignore[no-untyped-def]
    """Per service database: its committed transactions (``pg_stat_database``, as PostgreSQL's statistics
    have them: a backend reports at most once a second), the events its outbox holds (each published
    once) and the deliveries its inbox recorded (each handled once)."""
    import psycopg

    out = {}
    for service in stack.services:
        url = stack.env[f"ARBITER_{service.upper()}_DATABASE_URL"].replace(
            "postgresql+psycopg://", "postgresql://"
        )
        with psycopg.connect(url, autocommit=True) as db:
            commits = db.execute(
                "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"
            )
            outbox = db.execute("SELECT count(*) FROM outbox")
            inbox = db.execute("SELECT count(*) FROM inbox")
            out[service] = (commits.fetchone()[0], outbox.fetchone()[0], inbox.fetchone()[0])  # type: ignore[index]
    return out


SERVER_PROCESSES = {"postgres": "postgres", "beam.smp": "rabbitmq", "redis-server": "redis"}


def _machine_cpu() -> dict[str, Any]:
    """CPU seconds of the database, broker and cache processes, and (busy, all) jiffies of the machine."""
    tick = os.sysconf("SC_CLK_TCK")
    out: dict[str, Any] = dict.fromkeys(SERVER_PROCESSES.values(), 0.0)
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            head, tail = (proc / "stat").read_text().rsplit(")", 1)
        except OSError:
            continue
        name = SERVER_PROCESSES.get(head.split("(", 1)[1])
        if name is not None:  # with the children it reaped: the backends that ended meanwhile
            fields = tail.split()
            out[name] += sum(int(f) for f in fields[11:15]) / tick
    jiffies = [int(x) for x in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = jiffies[3] + jiffies[4]
    out["total"] = (sum(jiffies) - idle, sum(jiffies))
    return out


def _cpu_by_process(stack) -> dict[str, float]:  # type: ignore[no-untyped-def]
    """User+system CPU seconds of each stack process and its children (gunicorn workers)."""
    tick = os.sysconf("SC_CLK_TCK")

    def cpu(pid: int) -> float:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return 0.0
        total = (int(fields[11]) + int(fields[12])) / tick
        children = Path(f"/proc/{pid}/task/{pid}/children")
        if children.exists():
            total += sum(cpu(int(c)) for c in children.read_text().split())
        return total

    return {p.name: cpu(p.popen.pid) for p in stack.processes if p.popen is not None}


if __name__ == "__main__":
    main()
