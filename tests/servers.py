"""Where the test servers come from, in this order:

1. ``ARBITER_DATABASE_URL``, ``ARBITER_AMQP_URL``, ``ARBITER_REDIS_URL``;
2. the standard localhost ports (5432, 5672, 6379), if they answer;
3. testcontainers, when a Docker engine is available;
4. otherwise the run stops with a message saying what is missing and how to provide it.

Every run is isolated: its own PostgreSQL databases (``arbiter_t<run>_<service>``), its own
RabbitMQ vhost, its own Redis key prefix. They are removed at the end of the run. Each pytest-xdist
worker (``make test`` runs two) resolves the servers for itself, so each is a run of its own with its
own run id. A database created with a service's migrations is a copy of a template they built once
in the run (``CREATE DATABASE ... TEMPLATE``, tests/templates.py).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import threading
import urllib.parse
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import sqlalchemy as sa

from shared.database import upgrade

LOCAL = {
    "postgres": ("127.0.0.1", 5432, "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"),
    "rabbitmq": ("127.0.0.1", 5672, "amqp://guest:guest@127.0.0.1:5672/%2F"),
    "redis": ("127.0.0.1", 6379, "redis://127.0.0.1:6379/0"),
}
ENV = {"postgres": "ARBITER_DATABASE_URL", "rabbitmq": "ARBITER_AMQP_URL", "redis": "ARBITER_REDIS_URL"}
HOW = {
    "postgres": "set ARBITER_DATABASE_URL=postgresql+psycopg://USER@HOST:5432/postgres (a role that may CREATE DATABASE), "
    "or start PostgreSQL on 127.0.0.1:5432",
    "rabbitmq": "set ARBITER_AMQP_URL=amqp://USER:PASS@HOST:5672/%2F (a user that may create vhosts), "
    "or start RabbitMQ on 127.0.0.1:5672",
    "redis": "set ARBITER_REDIS_URL=redis://HOST:6379/0, or start Redis on 127.0.0.1:6379",
}


class ServersUnavailable(RuntimeError):
    pass


def port_open(host: str, port: int, timeout: float = 0.5) -> bool:
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def docker_available() -> bool:
    try:
        import docker

        docker.from_env().ping()
        return True
    except Exception:
        return False


@dataclass
class Servers:
    postgres_url: str  # an admin URL (database postgres)
    amqp_url: str  # the base URL (default vhost)
    redis_url: str
    run_id: str = field(default_factory=lambda: uuid.uuid4().hex[:8])
    _containers: list[Any] = field(default_factory=list)
    _databases: list[str] = field(default_factory=list)
    _vhosts: list[str] = field(default_factory=list)
    _templates: set[str] = field(default_factory=set)
    _templates_lock: threading.Lock = field(default_factory=threading.Lock)

    def with_postgres(self, admin_url: str) -> Servers:
        """The same run (vhosts, Redis prefix: cleaned up with this run) on another PostgreSQL server,
        e.g. a private cluster a fault test may stop. Its databases go with that server."""
        return Servers(admin_url, self.amqp_url, self.redis_url, run_id=self.run_id, _vhosts=self._vhosts)

    # -- PostgreSQL ----------------------------------------------------------------------------
    def create_database(self, name: str, migrations: Path | None = None) -> str:
        """Create a fresh database ``arbiter_t<run>_<name>``; return its SQLAlchemy URL. With
        ``migrations``, it is a copy of this run's template migrated by them (built on first use; see
        tests/templates.py), so it is at head already."""
        db = f"arbiter_t{self.run_id}_{name}"
        template = "" if migrations is None else f' TEMPLATE "{self._template(migrations)}"'
        admin = sa.create_engine(self.postgres_url, isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{db}"'))
            conn.execute(sa.text(f'CREATE DATABASE "{db}"{template}'))
        admin.dispose()
        self._databases.append(db)
        return self._url(db)

    def _url(self, db: str) -> str:
        return sa.make_url(self.postgres_url).set(database=db).render_as_string(hide_password=False)

    def _template(self, migrations: Path) -> str:
        """This run's database migrated by ``migrations``, named by their hash; nothing stays connected
        to it (``CREATE DATABASE ... TEMPLATE`` needs that)."""
        from tests.templates import template_name

        db = f"arbiter_t{self.run_id}_tpl_{template_name(migrations)}"
        with self._templates_lock:
            if db not in self._templates:
                self.create_database(db.removeprefix(f"arbiter_t{self.run_id}_"))
                engine = sa.create_engine(self._url(db), poolclass=sa.pool.NullPool)
                try:
                    upgrade(migrations, engine)
                finally:
                    engine.dispose()
                self._templates.add(db)
        return db

    # -- RabbitMQ ------------------------------------------------------------------------------
    def create_vhost(self, name: str) -> str:
        """This run's vhost ``arbiter-t<run>-<name>``, created on first use (creating one costs seconds)."""
        vhost = f"arbiter-t{self.run_id}-{name}"
        parts = urllib.parse.urlsplit(self.amqp_url)
        if vhost not in self._vhosts:
            _rabbit_admin(self, "add", vhost, parts)
            self._vhosts.append(vhost)
        path = "/" + urllib.parse.quote(vhost, safe="")
        return urllib.parse.urlunsplit((parts.scheme, parts.netloc, path, parts.query, ""))

    def redis_prefix(self, name: str) -> str:
        return f"arbiter-t{self.run_id}-{name}:"

    # -- teardown ------------------------------------------------------------------------------
    def cleanup(self) -> None:
        if self._databases:
            admin = sa.create_engine(self.postgres_url, isolation_level="AUTOCOMMIT")
            with admin.connect() as conn:
                for db in self._databases:
                    with contextlib.suppress(Exception):
                        conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)'))
            admin.dispose()
        parts = urllib.parse.urlsplit(self.amqp_url)
        for vhost in self._vhosts:
            with contextlib.suppress(Exception):
                _rabbit_admin(self, "delete", vhost, parts)
        with contextlib.suppress(Exception):
            import redis

            client = redis.Redis.from_url(self.redis_url)
            for key in client.scan_iter(match=f"arbiter-t{self.run_id}-*"):
                client.delete(key)
        for container in self._containers:
            with contextlib.suppress(Exception):
                container.stop()


def _rabbit_admin(servers: Servers, action: str, vhost: str, parts: urllib.parse.SplitResult) -> None:
    """Create or delete a vhost: management API if it answers, else rabbitmqctl, else the container."""
    host = parts.hostname or "127.0.0.1"
    user = urllib.parse.unquote(parts.username or "guest")
    password = urllib.parse.unquote(parts.password or "guest")
    quoted = urllib.parse.quote(vhost, safe="")
    if port_open(host, 15672):
        with httpx.Client(base_url=f"http://{host}:15672/api", auth=(user, password), timeout=10) as client:
            if action == "add":
                client.put(f"/vhosts/{quoted}").raise_for_status()
                client.put(
                    f"/permissions/{quoted}/{urllib.parse.quote(user, safe='')}",
                    json={"configure": ".*", "write": ".*", "read": ".*"},
                ).raise_for_status()
            else:
                client.delete(f"/vhosts/{quoted}")
        return
    container = next((c for c in servers._containers if "rabbit" in type(c).__name__.lower()), None)
    if container is not None:
        commands = [["rabbitmqctl", f"{action}_vhost", vhost]]
        if action == "add":
            commands.append(["rabbitmqctl", "set_permissions", "-p", vhost, user, ".*", ".*", ".*"])
        for cmd in commands:
            container.get_wrapped_container().exec_run(cmd)
        return
    ctl = shutil.which("rabbitmqctl")
    if ctl and host in ("127.0.0.1", "localhost", "::1"):
        subprocess.run([ctl, "-q", f"{action}_vhost", vhost], check=action == "add", capture_output=True)
        if action == "add":
            subprocess.run(
                [ctl, "-q", "set_permissions", "-p", vhost, user, ".*", ".*", ".*"],
                check=True,
                capture_output=True,
            )
        return
    raise ServersUnavailable(
        "cannot create a RabbitMQ vhost for this test run: enable the management plugin "
        "(rabbitmq-plugins enable rabbitmq_management) or run the tests where rabbitmqctl can reach the broker"
    )


def discover() -> Servers:
    urls: dict[str, str] = {}
    missing: list[str] = []
    for name, (host, port, url) in LOCAL.items():
        if os.environ.get(ENV[name]):
            urls[name] = os.environ[ENV[name]]
        elif port_open(host, port):
            urls[name] = url
        else:
            missing.append(name)
    containers: list[Any] = []
    if missing and docker_available():
        containers = _start_containers(missing, urls)
        missing = []
    if missing:
        lines = [f"  - {name}: {HOW[name]}" for name in missing]
        raise ServersUnavailable(
            "these tests need PostgreSQL, RabbitMQ and Redis, and these were not found:\n"
            + "\n".join(lines)
            + "\n(with a Docker engine available, the tests start them with testcontainers instead)"
        )
    servers = Servers(urls["postgres"], urls["rabbitmq"], urls["redis"])
    servers._containers = containers
    return servers


def _start_containers(missing: list[str], urls: dict[str, str]) -> list[Any]:
    started: list[Any] = []
    if "postgres" in missing:
        from testcontainers.postgres import PostgresContainer

        pg = PostgresContainer("postgres:16-alpine", driver="psycopg").start()
        started.append(pg)
        urls["postgres"] = pg.get_connection_url()
    if "rabbitmq" in missing:
        from testcontainers.rabbitmq import RabbitMqContainer

        rabbit = RabbitMqContainer("rabbitmq:3.13-alpine").start()
        started.append(rabbit)
        urls["rabbitmq"] = (
            f"amqp://guest:guest@{rabbit.get_container_host_ip()}:{rabbit.get_exposed_port(5672)}/%2F"
        )
    if "redis" in missing:
        from testcontainers.redis import RedisContainer

        redis_c = RedisContainer("redis:7-alpine").start()
        started.append(redis_c)
        urls["redis"] = f"redis://{redis_c.get_container_host_ip()}:{redis_c.get_exposed_port(6379)}/0"
    return started


@contextlib.contextmanager
def session_servers() -> Iterator[Servers]:
    servers = discover()
    try:
        yield servers
    finally:
        servers.cleanup()
