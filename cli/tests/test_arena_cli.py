"""``arbiter create --ruleset arena``, ``arbiter join | pause | leave`` against registration served over real
HTTP (the embedded adapters), as an arena's players come and go; ``arbiter boost`` and ``arbiter arena``
run in the embedded demo's services (tests/test_embedded_arena.py covers the whole arena)."""

from __future__ import annotations

import datetime as dt
import json

from click.testing import CliRunner

from cli.main import build_cli
from cli.tests.served import Served
from services.registration.service_layer.commands import StartDueTournaments
from services.registration.tests.helpers import NOW


def test_players_join_pause_leave_and_come_back(served: Served) -> None:
    org, player = served.account("Org"), served.account("Player")
    body = {
        "name": "Friday arena",
        "ruleset": "arena",
        "duration_minutes": 60,
        "starts_at": (NOW + dt.timedelta(minutes=30)).isoformat(),
        "time_control": {"base_seconds": 180, "increment_seconds": 2},
    }
    tid = served.call("POST", "/tournaments", body, org)["id"]
    assert served.arbiter(player, "join", tid).exit_code == 0
    served.svc.clock.advance(31 * 60)
    served.svc.bus.handle(StartDueTournaments())
    paused = served.arbiter(player, "pause", tid)
    assert paused.exit_code == 0, paused.output
    assert f"arbiter join {tid}" in paused.output
    entry = served.call("GET", f"/tournaments/{tid}")["entries"][0]
    assert entry["paused"] is True
    back = served.arbiter(player, "join", tid)
    assert back.exit_code == 0, back.output
    left = served.arbiter(player, "leave", tid, "--json")
    assert left.exit_code == 0, left.output
    assert json.loads(left.output)["entries"][0]["paused"] is True
    others = served.arbiter(org, "pause", tid, "--player", str(player))  # the organiser may pause them
    assert others.exit_code == 0, others.output


def test_bad_arena_input_is_named(served: Served) -> None:
    org = served.account("Org")
    short = served.arbiter(org, "create", "--ruleset", "arena", "--name", "Short", "--minutes", "5")
    assert short.exit_code != 0 and "10 minutes to 8 hours" in short.output
    result = CliRunner().invoke(build_cli(), ["create", "--ruleset", "arena", "--name", "No duration"])
    assert result.exit_code == 2 and "--minutes" in result.output
