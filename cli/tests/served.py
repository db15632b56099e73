"""Registration served over real HTTP for the CLI's tests (the embedded adapters: SQLite, an in-process
broker, a fake clock), with the story's steps: accounts, calls as someone, ``arbiter`` as someone."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
from click.testing import CliRunner, Result
from flask import Flask
from werkzeug.serving import make_server

from cli.main import build_cli
from services.registration.bootstrap import Registration
from shared.http.auth import issue_token
from shared.settings import DEV_JWT_SECRET


class Served:
    def __init__(self, svc: Registration, url: str) -> None:
        self.svc = svc
        self.url = url

    def token(self, account: uuid.UUID, *roles: str) -> str:
        return issue_token(DEV_JWT_SECRET, account, set(roles) or {"player"})

    def call(
        self, method: str, path: str, body: Any = None, who: uuid.UUID | None = None, *roles: str
    ) -> Any:
        headers = {"Authorization": f"Bearer {self.token(who or uuid.uuid4(), *roles)}"}
        r = httpx.request(method, self.url + path, json=body, headers=headers, timeout=30)
        assert r.status_code < 300, r.text
        return r.json()

    def account(self, name: str) -> uuid.UUID:
        return uuid.UUID(self.call("POST", "/accounts", {"name": name}, None, "service")["id"])

    def arbiter(self, who: uuid.UUID, *args: str) -> Result:
        """Run ``arbiter ARGS`` as ``who`` against this server."""
        return CliRunner().invoke(
            build_cli(),
            [*args, "--registration-url", self.url, "--token", self.token(who)],
            env={"COLUMNS": "400"},
        )


@contextmanager
def serving(app: Flask, *, threaded: bool = True) -> Iterator[str]:
    """A service's app on a free local port for the test's length: its base URL."""
    server = make_server("127.0.0.1", 0, app, threaded=threaded)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=30)
