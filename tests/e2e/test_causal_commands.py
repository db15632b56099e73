"""Causal commands across services (issue 25 item 2), against the real stack: an arbiter withdraws a player
at registration and pairs the next round at once at pairing, while registration's news to pairing is held
back (pairing's consumer stopped).

Named with the roster revision registration answered the withdrawal, the pairing is refused with 409
``not-yet-heard`` and ``Retry-After`` (the preview too) and changes nothing; not named, it is the race the
issue reports: the withdrawn player is paired. The command line, which holds the revision from
registration's answer, fails saying why when it may not wait; once the news is released (the consumer
started again) it waits until pairing has heard it, and the withdrawn player is on no board."""

from __future__ import annotations

import json
import uuid

import httpx
import pytest
from click.testing import CliRunner, Result

from cli import revisions
from cli.main import build_cli
from shared.testing.polling import wait_for
from tests.e2e.stack import Stack
from tests.e2e.story import Story, seated

pytestmark = pytest.mark.e2e

CONSUMER = "pairing-consumer-0"


def test_a_pairing_named_after_a_withdrawal_waits_until_pairing_has_heard_it(stack: Stack, story: Story):
    organiser, arbiter = story.register("Organiser"), story.register("Chief arbiter")
    tid = story.create_fide_rapid(organiser, arbiter, "E2E causal rapid")
    players = [
        story.call(
            "registration",
            "POST",
            f"/tournaments/{tid}/players",
            {"name": f"Player {i + 1}", "rating_standard": 2400 - 25 * i},
            arbiter.token,
            expect=201,
        )["player_id"]
        for i in range(8)
    ]
    started = story.call("registration", "POST", f"/tournaments/{tid}/start", None, arbiter.token)
    at_start = started["roster_revision"]
    assert at_start == 9  # eight entries, then the start (the appointment is no roster change)
    base = f"/tournaments/{tid}/rounds/1"

    def preview(revision: int) -> httpx.Response:
        return story.http.get(f"{story.urls['pairing']}{base}/preview?roster_revision={revision}")

    wait_for(lambda: preview(at_start).status_code == 200, timeout=60, what="pairing to hear the start")

    def arbiter_cli(*args: str) -> Result:
        options = [f"--{s}-url={url}" for s, url in stack.urls.items()] + ["--token", arbiter.token]
        return CliRunner().invoke(build_cli(), [*args, *options], env={"COLUMNS": "400"})

    gone = players[2]
    consumer = stack.process(CONSUMER)
    consumer.stop()  # registration's news to pairing is held back from here
    try:
        withdrawn = arbiter_cli("withdraw", tid, gone, "--reason", "ill")
        assert withdrawn.exit_code == 0, withdrawn.output
        revision = revisions.held(tid)  # what registration answered the withdrawal, held by the command line
        assert revision == at_start + 1
        assert story.tournament(uuid.UUID(tid))["roster_revision"] == revision

        # named with it: 409 not-yet-heard, Retry-After, nothing paired
        headers = {"Authorization": f"Bearer {arbiter.token}"}
        named = story.http.post(
            f"{story.urls['pairing']}{base}/pair?roster_revision={revision}", headers=headers
        )
        assert named.status_code == 409, named.text
        problem = named.json()
        assert problem["type"] == "/problems/not-yet-heard"
        assert (problem["roster_revision"], problem["heard_revision"]) == (revision, at_start)
        assert int(named.headers["Retry-After"]) >= 1
        assert preview(revision).status_code == 409
        story.call("pairing", "GET", f"{base}/pairings", None, arbiter.token, expect=404)  # not paired

        # not named: the race the issue reports, the withdrawn player is on a board (unpublished)
        stale = story.call("pairing", "POST", f"{base}/pair", None, arbiter.token, expect=201)
        assert gone in seated(stale) and stale["roster_revision"] == at_start

        # the command line names the revision it holds; told not to wait, it fails saying why
        hurried = arbiter_cli("pair", tid, "--round", "1", "--wait", "0")
        assert hurried.exit_code == 1
        assert f"pairing has not heard roster revision {revision}" in hurried.output
    finally:
        stack.restart(CONSUMER)  # the news is released

    # the command line waits until pairing has heard the withdrawal, then pairs without the player
    paired = arbiter_cli("pair", tid, "--round", "1", "--wait", "180", "--json")
    assert paired.exit_code == 0, paired.output
    listing = json.loads(paired.stdout)
    assert listing["roster_revision"] >= revision and not listing["published"]
    assert gone not in seated(listing) and len(listing["boards"]) == 3  # seven: one pairing-allocated bye
    again = story.call(
        "pairing", "POST", f"{base}/pair?roster_revision={revision}", None, arbiter.token, expect=201
    )
    assert gone not in seated(again)
    shown = preview(revision).json()
    assert [p["player_id"] for p in shown["withdrawn"]] == [gone] and shown["roster_revision"] >= revision
