"""The real stack as subprocesses: for each service its gunicorn web server on a free port, its
consumer, its outbox relay and its extra processes, against this run's databases, vhost and Redis
prefix. Processes can be killed and restarted (fault tests)."""

from __future__ import annotations

import contextlib
import os
import resource
import signal
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from shared.testing.polling import wait_for
from shared.testing.ports import free_port
from tests.servers import Servers

ROOT = Path(__file__).resolve().parents[2]
PROCESSES = {
    "registration": ("consumer", "relay", "scheduler"),
    "pairing": ("consumer", "worker", "worker", "relay"),  # two workers race for every round
    "clocks": ("consumer", "relay", "ticker"),
    "standings": ("consumer", "relay"),
}
SCALED = ("standings", "pairing")  # the services whose consumers compete on their queues
JWT_SECRET = "e2e-secret-0123456789abcdef0123456789abcdef"
FILE_DESCRIPTORS = 16_384  # the soft limit the stack's processes and the slow-client tests need


def raise_descriptor_limit(wanted: int) -> int:
    """Raise this process's soft limit of open files towards ``wanted`` (never past the hard limit);
    the processes it starts afterwards inherit it. Returns the soft limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        soft = target
    return soft


# every key matching ARGV[1], deleted in one script: atomic, as a restart that lost the data would be
_EMPTY_PREFIX = """
local keys = redis.call('KEYS', ARGV[1])
for i = 1, #keys, 1000 do
  redis.call('DEL', unpack(keys, i, math.min(i + 999, #keys)))
end
return #keys
"""


@dataclass
class Process:
    name: str
    argv: list[str]
    env: dict[str, str]
    log: Path
    popen: subprocess.Popen[bytes] | None = None
    health_url: str | None = None  # a consumer's, relay's or worker's /healthz and /readyz

    def start(self) -> None:
        handle = self.log.open("ab")
        self.popen = subprocess.Popen(
            self.argv, cwd=ROOT, env=self.env, stdout=handle, stderr=subprocess.STDOUT, start_new_session=True
        )
        handle.close()

    def alive(self) -> bool:
        return self.popen is not None and self.popen.poll() is None

    def kill(self, sig: int = signal.SIGKILL) -> None:
        if self.popen is not None and self.popen.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.popen.pid, sig)
            self.popen.wait(timeout=20)

    def terminate(self) -> None:
        """Ask it to stop (SIGTERM), without waiting."""
        if self.popen is not None and self.popen.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.popen.pid, signal.SIGTERM)

    def stop(self) -> None:
        if self.popen is None or self.popen.poll() is not None:
            return
        self.terminate()
        try:
            self.popen.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.kill()

    def tail(self, lines: int = 40) -> str:
        if not self.log.exists():
            return ""
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])


@dataclass
class Stack:
    servers: Servers
    workdir: Path
    services: tuple[str, ...] = tuple(PROCESSES)
    consumers: int = 1  # consumer processes of standings and pairing (the benchmark's scale-out)
    urls: dict[str, str] = field(default_factory=dict)
    processes: list[Process] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)
    # the tests' HTTP clients: a connection a client keeps alive holds a web server's graceful stop
    # until its 20 s run out, so they are closed first
    clients: list[httpx.Client] = field(default_factory=list)

    def start(self) -> None:
        # the processes inherit the descriptor limit: a web worker holds up to 1,000 connections
        raise_descriptor_limit(FILE_DESCRIPTORS)
        tag = self.workdir.name[-12:].replace("_", "-")
        env = {k: v for k, v in os.environ.items() if not k.startswith("ARBITER_")}
        env.update(
            {
                "ARBITER_AMQP_URL": self.servers.create_vhost(f"e2e-{tag}"),
                "ARBITER_REDIS_URL": self.servers.redis_url,
                "ARBITER_REDIS_PREFIX": self.servers.redis_prefix(f"e2e-{tag}"),
                "ARBITER_JWT_SECRET": JWT_SECRET,
                "ARBITER_MIN_LEAD_SECONDS": "1",
                "ARBITER_SCHEDULER_POLL_SECONDS": "0.1",
                "ARBITER_CLOCKS_TICK_SECONDS": "0.05",
                # arenas: a two-minute arena is allowed here, and workers pass and take over fast
                "ARBITER_ARENA_MIN_MINUTES": "1",
                "ARBITER_ARENA_PASS_SECONDS": "0.2",
                "ARBITER_ARENA_LEASE_SECONDS": "2",
                "ARBITER_WEB_WORKERS": "2",
                # short, so the limits' e2e tests see stalled clients timed out soon
                "ARBITER_BODY_TIMEOUT_SECONDS": "5",
                "ARBITER_HEAD_TIMEOUT_SECONDS": "5",
                "ARBITER_MAX_BODY_BYTES": str(256 * 1024),
                "PYTHONUNBUFFERED": "1",
            }
        )
        for service in self.services:
            env[f"ARBITER_{service.upper()}_DATABASE_URL"] = self.servers.create_database(f"{tag}_{service}")
        self.env = env
        python = sys.executable
        migrating = {  # the four at once: each is mostly a Python process importing its service
            service: subprocess.Popen(
                [python, "-m", f"services.{service}", "migrate"],
                cwd=ROOT,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
            )
            for service in self.services
        }
        for service, migrate in migrating.items():
            output, _ = migrate.communicate(timeout=300)
            if migrate.returncode != 0:
                raise RuntimeError(f"{service} migrate failed:\n{output.decode(errors='replace')}")
        for service in self.services:
            port = free_port()
            self.urls[service] = f"http://127.0.0.1:{port}"
            web = [
                str(Path(python).parent / "gunicorn"),
                "-c",
                "deploy/gunicorn.conf.py",
                "--bind",
                f"127.0.0.1:{port}",
                f"services.{service}.entrypoints.app:create_app()",
            ]
            self._spawn(f"{service}-web", web)
            extra = ("consumer",) * (self.consumers - 1) if service in SCALED else ()
            for i, process in enumerate(PROCESSES[service] + extra):
                health = free_port()
                self._spawn(
                    f"{service}-{process}-{i}",
                    [python, "-m", f"services.{service}", process],
                    {"ARBITER_HEALTH_PORT": str(health)},
                ).health_url = f"http://127.0.0.1:{health}"
        for service, url in self.urls.items():
            self._wait_ready(service, url)

    def _spawn(self, name: str, argv: list[str], env: dict[str, str] | None = None) -> Process:
        proc = Process(name, argv, {**self.env, **(env or {})}, self.workdir / f"{name}.log")
        proc.start()
        self.processes.append(proc)
        return proc

    def _wait_ready(self, service: str, url: str) -> None:
        def ready() -> bool:
            dead = [p for p in self.processes if not p.alive()]
            if dead:
                raise RuntimeError(f"{dead[0].name} died:\n{dead[0].tail()}")
            try:
                return httpx.get(f"{url}/readyz", timeout=1).status_code == 200
            except httpx.HTTPError:
                return False

        # generous: two stacks starting at once on two cores import about thirty Python processes together
        # (some 2.5 s of CPU each), which can take most of a minute before the first answer
        wait_for(ready, timeout=180, interval=0.1, what=f"{service} to be ready")

    def process(self, name: str) -> Process:
        return next(p for p in self.processes if p.name == name)

    def empty_redis(self) -> int:
        """What this stack sees after a Redis restart without its data: every key under its prefix goes,
        in one atomic step (one script). The shared Redis itself is never flushed. The keys removed."""
        import redis

        client = redis.Redis.from_url(self.servers.redis_url)
        try:
            pattern = self.env["ARBITER_REDIS_PREFIX"].replace("[", "\\[").replace("]", "\\]") + "*"
            return int(client.eval(_EMPTY_PREFIX, 0, pattern))
        finally:
            client.close()

    def restart(self, name: str) -> None:
        self.process(name).start()

    def stop(self) -> None:
        for client in self.clients:
            client.close()
        for proc in reversed(self.processes):  # all at once: each takes about a second to finish
            proc.terminate()
        for proc in reversed(self.processes):
            proc.stop()

    def diagnostics(self) -> str:
        return "\n\n".join(f"--- {p.name} ---\n{p.tail()}" for p in self.processes)


@contextlib.contextmanager
def running_stack(servers: Servers, workdir: Path, *, consumers: int = 1) -> Iterator[Stack]:
    stack = Stack(servers, workdir, consumers=consumers)
    try:
        stack.start()
        yield stack
    except BaseException:
        print(stack.diagnostics(), file=sys.stderr)
        raise
    finally:
        stack.stop()
