"""The CPU the HTTP metrics cost a web process: the clocks service under gunicorn (one gevent worker,
the metrics in multiprocess mode as in production), 2,000 requests over one keep-alive connection,
with the metrics and with the exporter's request hooks taken off the same app. The figure is the
worker's CPU (user + system, from /proc) per request; the passes alternate to even out a busy
machine, and the minimum of each is the least disturbed. A second figure times the exporter's hooks
alone, in process, on the same app: what a request pays for them without the noise of the rest.
Needs PostgreSQL and Redis (as `make test`)."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path
from typing import Any

import httpx

REQUESTS = int(os.environ.get("ARBITER_BENCH_METRICS_REQUESTS", "2000"))
ROUNDS = 5
HOOK_CALLS = 20_000
ROOT = Path(__file__).resolve().parent.parent


def clocks_without_metrics() -> Any:
    """The clocks app as gunicorn loads it, less prometheus-flask-exporter's before/after/teardown
    request hooks: what a request costs without the metrics (``/metrics`` still answers, unused)."""
    from services.clocks.entrypoints.app import create_app

    app = create_app()
    for hooks in (app.before_request_funcs, app.after_request_funcs, app.teardown_request_funcs):
        for scope, functions in hooks.items():
            hooks[scope] = [f for f in functions if not f.__module__.startswith("prometheus_flask_exporter")]
    return app


def hooks_cost() -> None:
    """The exporter's request hooks on the clocks app, timed alone (run with PROMETHEUS_MULTIPROC_DIR)."""
    import time

    from flask import Response

    from services.clocks.entrypoints.app import create_app

    app = create_app()
    hooks = [
        f
        for funcs in (app.before_request_funcs, app.after_request_funcs)
        for f in funcs.get(None, [])
        if f.__module__.startswith("prometheus_flask_exporter")
    ]
    before = [f for f in hooks if f.__name__ == "before_request"]
    after = [f for f in hooks if f.__name__ == "after_request"]
    response = Response("{}", 200)
    with app.test_request_context(f"/tournaments/{uuid.uuid4()}/games?round=1"):
        from flask import request

        assert request.url_rule is not None  # routed, as a real request is
        start = time.process_time()
        for _ in range(HOOK_CALLS):
            for f in before:
                f()
            for f in after:
                f(response)
            request.__dict__.pop("prom_duration_reported", None)  # a new request each time, as far
            request.__dict__.pop("prom_total_reported", None)  # as the exporter can tell
        used = time.process_time() - start
    print(f"the exporter's hooks alone: {used / HOOK_CALLS * 1e6:.0f} µs of CPU per request (in process)")


def main() -> None:
    from shared.testing.polling import wait_for
    from shared.testing.ports import free_port
    from tests.servers import discover

    servers = discover()
    try:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("ARBITER_", "PROMETHEUS_"))}
        env.update(
            {
                "ARBITER_CLOCKS_DATABASE_URL": servers.create_database("bench_metrics"),
                "ARBITER_REDIS_URL": servers.redis_url,
                "ARBITER_REDIS_PREFIX": servers.redis_prefix("bench-metrics"),
                "ARBITER_WEB_WORKERS": "1",
            }
        )
        subprocess.run(
            [sys.executable, "-m", "services.clocks", "migrate"],
            cwd=ROOT,
            env=env,
            check=True,
            capture_output=True,
        )
        apps = {
            "with metrics": "services.clocks.entrypoints.app:create_app()",
            "without": "benchmarks.metrics:clocks_without_metrics()",
        }
        costs: dict[str, list[float]] = {name: [] for name in apps}
        for _ in range(ROUNDS):
            for name, app in apps.items():
                costs[name].append(_cpu_per_request(app, env, free_port(), wait_for))
        print(
            f"{REQUESTS} requests to clocks (GET /tournaments/<id>/games), one gevent worker, {ROUNDS} passes each"
        )
        for name in apps:
            print(f"  {name}: {', '.join(f'{c:.0f}' for c in costs[name])} µs of CPU per request")
        for summary in (statistics.median, min):
            with_metrics, without = (summary(costs[n]) for n in apps)
            print(
                f"{summary.__name__}: the metrics cost {with_metrics - without:.0f} µs of CPU per request "
                f"({(with_metrics - without) / without:.1%} of a request's {without:.0f} µs)"
            )
        with tempfile.TemporaryDirectory(prefix="arbiter_bench_metrics_") as metrics_dir:
            hooks = subprocess.run(
                [sys.executable, "-c", "from benchmarks.metrics import hooks_cost; hooks_cost()"],
                cwd=ROOT,
                env={**env, "PROMETHEUS_MULTIPROC_DIR": metrics_dir},
                check=True,
                capture_output=True,
                text=True,
            )
        print(hooks.stdout.strip())
    finally:
        servers.cleanup()


def _cpu_per_request(app: str, env: dict[str, str], port: int, wait_for: Any) -> float:
    with tempfile.TemporaryDirectory(prefix="arbiter_bench_metrics_") as metrics_dir:
        server = subprocess.Popen(
            [
                str(Path(sys.executable).parent / "gunicorn"),
                "-c",
                "deploy/gunicorn.conf.py",
                "--bind",
                f"127.0.0.1:{port}",
                app,
            ],
            cwd=ROOT,
            env={**env, "PROMETHEUS_MULTIPROC_DIR": metrics_dir},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            url = f"http://127.0.0.1:{port}/tournaments/{uuid.uuid4()}/games?round=1"
            with httpx.Client(timeout=10) as client:

                def answers() -> bool:
                    try:
                        return client.get(url).status_code == 200
                    except httpx.HTTPError:
                        return False

                wait_for(answers, timeout=60, what="gunicorn")
                for _ in range(100):  # warm up: imports, the pool, caches
                    client.get(url)
                worker = _children(server.pid)[0]
                before = _cpu_seconds(worker)
                for _ in range(REQUESTS):
                    client.get(url)
                used = _cpu_seconds(worker) - before
        finally:
            server.terminate()
            server.wait(timeout=30)
    return used / REQUESTS * 1e6


def _children(pid: int) -> list[int]:
    return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


if __name__ == "__main__":
    main()
