"""A private PostgreSQL cluster for a test that must stop its database: initdb in a temporary
directory, its own port and socket directory, started and stopped with pg_ctl. The shared server is
never touched.

initdb refuses to run as root; as root the cluster runs as the ``postgres`` OS user (runuser). Where
that is impossible (no binaries, root without a ``postgres`` user), :func:`unavailable` says why and
the test skips with that reason.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

from shared.testing.ports import free_port

OS_USER = "postgres"


def _bindir() -> Path | None:
    """The newest installed PostgreSQL's binaries (Debian's layout), or those on PATH."""
    candidates = sorted(
        glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(Path(p).parent.name), reverse=True
    )
    found = shutil.which("initdb")
    if found:
        candidates.append(str(Path(found).parent))
    for candidate in candidates:
        if (Path(candidate) / "initdb").exists() and (Path(candidate) / "pg_ctl").exists():
            return Path(candidate)
    return None


def unavailable() -> str | None:
    """Why a private cluster cannot be started here, or None if it can."""
    if _bindir() is None:
        return "no PostgreSQL server binaries (initdb, pg_ctl) on this machine"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam(OS_USER)
        except KeyError:
            return f"running as root and there is no {OS_USER!r} OS user to run initdb as"
        if shutil.which("runuser") is None:
            return "running as root without runuser to run initdb as the postgres user"
    return None


class PrivatePostgres:
    def __init__(self, root: Path) -> None:
        bindir = _bindir()
        assert bindir is not None, unavailable()
        self.bindir = bindir
        self.root = root
        self.data = root / "data"
        self.log = root / "postgres.log"
        self.port = free_port()
        self.admin_url = f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *argv: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        command = [str(self.bindir / argv[0]), *argv[1:]]
        if os.geteuid() == 0:
            command = ["runuser", "-u", OS_USER, "--", *command]
        return subprocess.run(command, check=check, capture_output=True, text=True, timeout=120)

    def init(self) -> None:
        if os.geteuid() == 0:
            shutil.chown(self.root, OS_USER)
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync")
        settings = {
            "port": self.port,
            "listen_addresses": "'127.0.0.1'",
            "unix_socket_directories": f"'{self.root}'",
            "max_connections": 200,
            "fsync": "off",  # a throwaway cluster: speed over durability
            "synchronous_commit": "off",
            "full_page_writes": "off",
            "shared_buffers": "'32MB'",
        }
        with (self.data / "postgresql.conf").open("a") as conf:
            for key, value in settings.items():
                conf.write(f"{key} = {value}\n")

    def start(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-t", "60", "start")

    def stop(self, mode: str = "fast") -> None:
        """``fast``: disconnect every client (they see 'terminating connection due to administrator
        command') and shut down cleanly."""
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "-t", "60", "stop")

    def running(self) -> bool:
        return self._run("pg_ctl", "-D", str(self.data), "status", check=False).returncode == 0


@contextlib.contextmanager
def private_postgres() -> Iterator[PrivatePostgres]:
    with tempfile.TemporaryDirectory(prefix="arbiter_pg_") as tmp:
        cluster = PrivatePostgres(Path(tmp))
        cluster.init()
        cluster.start()
        try:
            yield cluster
        finally:
            if cluster.running():
                cluster.stop("immediate")
