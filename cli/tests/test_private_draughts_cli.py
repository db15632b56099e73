"""``arbiter create --variant --opening --password``, ``arbiter invite create | revoke`` and ``arbiter join
--invite`` against registration served over real HTTP: a private, rated draughts Swiss with a table
opening, as the README shows it."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from cli.tests.served import Served


@pytest.fixture(autouse=True)
def now(served: Served) -> None:
    """The CLI schedules from the real time: registration's clock moves there too."""
    served.svc.clock.advance((dt.datetime.now(dt.UTC) - served.svc.clock.now()).total_seconds())


def test_a_private_rated_draughts_swiss_with_a_table_opening(served: Served) -> None:
    org, ann, bob = served.account("Org"), served.account("Ann"), served.account("Bob")
    args = ["--name", "Draughts night", "--variant", "english", "--opening", "table-all", "--double-rounds"]
    result = served.arbiter(org, "create", *args, "--password", "dam 2026", "--duration", "3h", "--json")
    assert result.exit_code == 0, result.output
    t = json.loads(result.output)
    assert (t["variant"], t["opening"], t["rated"], t["private"]) == ("english", "table-all", True, True)
    assert t["duration_minutes"] == 180

    made = served.arbiter(org, "invite", "create", t["id"], "--valid-for", "2h", "--json")
    assert made.exit_code == 0, made.output
    token = json.loads(made.output)["token"]
    joined = served.arbiter(ann, "join", t["id"], "--invite", token)
    assert joined.exit_code == 0 and "joined Draughts night (1 player)" in joined.output

    revoked = served.arbiter(org, "invite", "revoke", t["id"], token)
    assert revoked.exit_code == 0 and revoked.output.startswith(f"revoked {token}")
    refused = served.arbiter(bob, "join", t["id"], "--invite", token)
    assert refused.exit_code != 0 and "revoked" in refused.output and "Traceback" not in refused.output


def test_a_friendly_tournament_says_why(served: Served) -> None:
    org = served.account("Org")
    result = served.arbiter(
        org, "create", "--name", "Ballots", "--variant", "english", "--opening", "thematic:001"
    )
    assert result.exit_code == 0, result.output
    assert "friendly" in result.output and "switch double rounds on" in result.output


def test_an_opening_the_rules_refuse_is_named(served: Served) -> None:
    org = served.account("Org")
    result = served.arbiter(org, "create", "--name", "X", "--variant", "english", "--opening", "table-2")
    assert result.exit_code != 0 and "balance" in result.output and "Traceback" not in result.output
