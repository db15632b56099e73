"""``arbiter appoint | revoke | withdraw | audit`` against registration served over real HTTP (the
embedded adapters: SQLite, an in-process broker), as an organiser and an arbiter would use them."""

from __future__ import annotations

import json
import threading
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from click.testing import CliRunner, Result
from werkzeug.serving import make_server

from cli.main import build_cli
from services.registration.bootstrap import Registration, bootstrap
from services.registration.config import RegistrationSettings
from services.registration.entrypoints.app import create_app
from services.registration.tests.helpers import NOW
from shared.http.auth import issue_token
from shared.messaging.inprocess import InProcessBroker
from shared.settings import DEV_JWT_SECRET
from shared.timesource import FakeClock


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


@pytest.fixture
def served(tmp_path) -> Iterator[Served]:
    settings = RegistrationSettings(ARBITER_REGISTRATION_DATABASE_URL=f"sqlite:///{tmp_path / 'reg.sqlite'}")
    svc = bootstrap(
        settings, broker=InProcessBroker(), clock=FakeClock(NOW), migrate=True, relay_on_commit=True
    )
    server = make_server("127.0.0.1", 0, create_app(svc), threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield Served(svc, f"http://127.0.0.1:{server.server_port}")
    finally:
        server.shutdown()
        thread.join(timeout=30)
        svc.engine.dispose()


def test_an_organiser_appoints_an_arbiter_who_withdraws_a_player(served: Served) -> None:
    org, arb, other = served.account("Org"), served.account("Arb"), served.account("Other")
    players = [served.account(f"P{i}") for i in range(4)]
    body = {"name": "Cup", "ruleset": "knockout", "time_control": {"base_seconds": 600}}
    tid = served.call("POST", "/tournaments", body, org)["id"]
    for p in players:
        served.call("POST", f"/tournaments/{tid}/entries", {"player_id": str(p)}, org)
    served.call("POST", f"/tournaments/{tid}/start", None, org)

    game = uuid.uuid4()
    result = served.arbiter(org, "appoint", tid, str(other), "--game", str(game))
    assert result.exit_code == 0, result.output
    assert result.output == f"appointed Other ({other}) arbiter for 1 game(s)\n"
    result = served.arbiter(org, "appoint", tid, str(arb))
    assert result.output == f"appointed Arb ({arb}) arbiter for the whole tournament\n"

    result = served.arbiter(other, "withdraw", tid, str(players[1]), "--reason", "ill")
    assert result.exit_code == 1
    assert (
        "403 Forbidden: only the organiser or an arbiter appointed for the whole tournament" in result.output
    )
    result = served.arbiter(arb, "withdraw", tid, str(players[1]), "--reason", "ill", "--exclude")
    assert result.exit_code == 1 and "403 Forbidden: excluding a player is the organiser's" in result.output
    result = served.arbiter(arb, "withdraw", tid, str(players[1]), "--reason", "ill")
    assert result.exit_code == 0, result.output
    assert result.output == "P1 withdrawn from Cup: ill\n"
    result = served.arbiter(arb, "withdraw", tid, str(players[1]), "--reason", "again")
    assert result.exit_code == 1 and result.output.startswith("Error: 409 Conflict: P1 is withdrawn already")
    result = served.arbiter(org, "withdraw", tid, str(players[2]), "--reason", " ")
    assert result.exit_code == 1 and "422 Unprocessable Entity: a decision needs its reason" in result.output

    result = served.arbiter(org, "revoke", tid, str(other))
    assert result.exit_code == 0 and result.output == f"revoked {other}; 1 arbiter(s) left\n"
    result = served.arbiter(org, "revoke", tid, str(other))
    assert result.exit_code == 1 and "404 Not Found" in result.output

    result = served.arbiter(arb, "audit", tid, "--json")
    assert result.exit_code == 0, result.output
    log = json.loads(result.output)
    assert [(e["kind"], e["by"]) for e in log["entries"]] == [
        ("arbiter_appointed", str(org)),
        ("arbiter_appointed", str(org)),
        ("player_withdrawn", str(arb)),
        ("arbiter_revoked", str(org)),
    ]
    table = served.arbiter(org, "audit", tid)
    assert table.exit_code == 0, table.output
    for text in (
        "player_withdrawn",
        "P1 withdrawn",
        f"player {players[1]}",
        "ill",
        "Other's appointment revoked",
    ):
        assert text in table.output
    denied = served.arbiter(other, "audit", tid)  # no longer an arbiter here
    assert denied.exit_code == 1 and "403 Forbidden" in denied.output


def test_the_commands_say_what_they_need(served: Served) -> None:
    no_token = CliRunner().invoke(build_cli(), ["audit", str(uuid.uuid4()), "--registration-url", served.url])
    assert no_token.exit_code == 2 and "this needs a token" in no_token.output
    missing = served.arbiter(uuid.uuid4(), "withdraw", str(uuid.uuid4()), str(uuid.uuid4()))
    assert missing.exit_code == 2 and "Missing option '--reason'" in missing.output
    bad = served.arbiter(uuid.uuid4(), "appoint", "not-a-uuid", str(uuid.uuid4()))
    assert bad.exit_code == 2 and "not a valid UUID" in bad.output
