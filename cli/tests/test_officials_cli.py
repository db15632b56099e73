"""``arbiter appoint | revoke | withdraw | audit`` against registration served over real HTTP (the
embedded adapters: SQLite, an in-process broker), as an organiser and an arbiter would use them."""

from __future__ import annotations

import json
import uuid

from click.testing import CliRunner

from cli import revisions
from cli.main import build_cli
from cli.tests.served import Served


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
    assert result.output == f"appointed Other ({other}) arbiter for 1 game\n"
    result = served.arbiter(org, "appoint", tid, str(arb))
    assert result.output == f"appointed Arb ({arb}) arbiter for the whole tournament\n"

    result = served.arbiter(other, "withdraw", tid, str(players[1]), "--reason", "ill")
    assert result.exit_code == 1
    assert (
        "403 Forbidden: only the organiser or an arbiter appointed for the whole tournament" in result.output
    )
    result = served.arbiter(arb, "withdraw", tid, str(players[1]), "--reason", "ill", "--exclude")
    assert result.exit_code == 1 and "403 Forbidden: excluding a player is the organiser's" in result.output
    assert revisions.held(tid) == 5  # the appointments were answered it: four entries and the start
    result = served.arbiter(arb, "withdraw", tid, str(players[1]), "--reason", "ill")
    assert result.exit_code == 0, result.output
    assert result.output == "P1 withdrawn from Cup: ill\n"
    assert revisions.held(tid) == 6  # four entries, the start, the withdrawal: for `arbiter pair` to name
    result = served.arbiter(arb, "withdraw", tid, str(players[1]), "--reason", "again")
    assert result.exit_code == 1 and result.output.startswith("Error: 409 Conflict: P1 is withdrawn already")
    result = served.arbiter(org, "withdraw", tid, str(players[2]), "--reason", " ")
    assert result.exit_code == 1 and "422 Unprocessable Entity: a decision needs its reason" in result.output

    result = served.arbiter(org, "revoke", tid, str(other))
    assert result.exit_code == 0 and result.output == f"revoked {other}; 1 arbiter left\n"
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
