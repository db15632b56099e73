"""A `fide-rapid` event's pairing path over HTTP against the real stack (RULES.md §6): registration's event,
players entered by hand and the arbiter's start; pairing's preview, pairing on command and publication
(only then do the clocks create the games); results by board from the score sheets; a zero-point bye asked
for, and refused once the round is paired; a round refused while boards lack results; two absences at the
default time, one excused (paired again) and one not (reported, withdrawn by registration, left out).
Before each pairing the standings' TRF-16, unmodified, paired by the Dutch engine, gives the pairing
pairing makes (issue 22): the requested bye of round 1, the absence of round 1 nobody excused."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest

from shared.testing.polling import wait_for
from tests.e2e.story import Story, seated
from tests.e2e.trf_rounds import engine_pairs, export_before, left_out_of, published_pairs

pytestmark = pytest.mark.e2e


def test_an_arbiter_pairs_publishes_and_deals_with_absences(story: Story, tmp_path: Path):
    organiser, arbiter = story.register("Organiser"), story.register("Chief arbiter")
    tid = story.create_fide_rapid(organiser, arbiter, "E2E rapid")
    for i in range(9):
        person = {"name": f"Player {i + 1}", "rating_standard": 2400 - 25 * i, "federation": "SUI"}
        story.call("registration", "POST", f"/tournaments/{tid}/players", person, arbiter.token, expect=201)
    story.call("registration", "POST", f"/tournaments/{tid}/start", None, arbiter.token)

    def pairing_knows() -> dict[str, Any] | None:
        status, _, answer = story._request("pairing", "GET", f"/tournaments/{tid}", None, {})
        return answer if status == 200 else None

    roster = wait_for(pairing_knows, timeout=60, what="pairing to start the event")["players"]
    seeds = {p["seed"]: p["player_id"] for p in roster}
    base = f"/tournaments/{tid}/rounds"
    officials = arbiter.token

    # round 1: the player seeded 9 asks for a zero-point bye; the other eight are paired
    bye = {"player_id": seeds[9], "round": 1}
    story.call("pairing", "POST", f"/tournaments/{tid}/byes", bye, officials, expect=201)
    preview = story.call("pairing", "GET", f"{base}/1/preview")
    assert len(preview["present"]) == 8 and [p["seed"] for p in preview["bye_requests"]] == [9]
    trf16 = export_before(story, uuid.UUID(tid), 1, {9})
    listing = story.call("pairing", "POST", f"{base}/1/pair", None, officials, expect=201)
    assert engine_pairs(trf16, 1, tmp_path) == published_pairs(listing), trf16
    assert not listing["published"] and len(listing["boards"]) == 4
    assert [(b["player"]["seed"], b["kind"]) for b in listing["byes"]] == [(9, "zero_point")]
    assert story.games(uuid.UUID(tid), 1) == []  # unpublished: the clocks have nothing yet
    story.call("pairing", "POST", f"{base}/1/publish", None, officials)
    games = sorted(story.wait_games(uuid.UUID(tid), 1, 4), key=lambda g: g["board"])
    late = story.call(
        "pairing",
        "POST",
        f"/tournaments/{tid}/byes",
        {"player_id": seeds[1], "round": 1},
        officials,
        expect=409,
    )
    assert late["type"] == "/problems/round-already-paired"

    # boards 1 and 2: an absence each; board 3 from the score sheet; board 4 still being played
    unexcused, excused = games[0]["black"]["player_id"], games[1]["white"]["player_id"]
    story.call("clocks", "POST", f"/games/{games[0]['id']}/absence", {"player_id": unexcused}, officials)
    story.call("clocks", "POST", f"/games/{games[1]['id']}/absence", {"player_id": excused}, officials)
    result = {"outcome": "1-0", "reason": "resignation"}
    story.call("clocks", "POST", f"/games/{games[2]['id']}/result", result, officials)
    wait_for(
        lambda: story.call("pairing", "GET", f"{base}/2/preview")["unfinished_boards"] == [4],
        timeout=30,
        what="pairing to hear three results",
    )
    refused = story.call("pairing", "POST", f"{base}/2/pair", None, officials, expect=409)
    assert refused["type"] == "/problems/round-unfinished" and refused["boards"] == [4]
    assert "board 4" in refused["detail"]
    story.call(
        "clocks",
        "POST",
        f"/games/{games[3]['id']}/result",
        {"outcome": "1/2-1/2", "reason": "agreement"},
        officials,
    )
    preview = wait_for(
        lambda: (p := story.call("pairing", "GET", f"{base}/2/preview"))["pairable"] and p,
        timeout=30,
        what="round 1 complete",
    )
    assert {p["player_id"] for p in preview["absent"]} == {unexcused, excused}

    # the arbiter pairs round 2, then excuses one absence: the pairing is dropped and paired again
    first = story.call("pairing", "POST", f"{base}/2/pair", None, officials, expect=201)
    assert unexcused not in seated(first) and excused not in seated(first)
    answer = story.call(
        "pairing",
        "POST",
        f"/tournaments/{tid}/absences/{excused}/excuse",
        {"round": 1, "reason": "train"},
        officials,
    )
    assert answer["pairing_dropped"]
    preview = story.call("pairing", "GET", f"{base}/2/preview")
    absent = next(p["seed"] for p in preview["absent"])  # the one nobody excused
    assert left_out_of(preview) == {absent}
    trf16 = export_before(story, uuid.UUID(tid), 2, {absent})  # the excused one paired again
    second = story.call("pairing", "POST", f"{base}/2/pair", None, officials, expect=201)
    assert engine_pairs(trf16, 2, tmp_path) == published_pairs(second), trf16
    assert excused in seated(second) and unexcused not in seated(second)
    story.call("pairing", "POST", f"{base}/2/publish", None, officials)

    # the absence nobody excused: registration withdraws the player, pairing leaves them out for good
    def withdrawn() -> bool:
        entries = story.tournament(uuid.UUID(tid))["entries"]
        return any(e["player_id"] == unexcused and e["status"] == "withdrawn" for e in entries)

    wait_for(withdrawn, timeout=30, what="registration to withdraw the absent player")
    wait_for(
        lambda: any(
            p["player_id"] == unexcused and p["withdrawn"] for p in story.pairing(uuid.UUID(tid))["players"]
        ),
        timeout=30,
        what="pairing to hear the withdrawal",
    )

    # rounds 2 and 3 to the end
    for number in (2, 3):
        if number == 3:
            wait_for(
                lambda: story.call("pairing", "GET", f"{base}/3/preview")["pairable"],
                timeout=30,
                what="round 2 complete",
            )
            left_out = left_out_of(story.call("pairing", "GET", f"{base}/3/preview"))
            trf16 = export_before(story, uuid.UUID(tid), 3, left_out)
            third = story.call("pairing", "POST", f"{base}/3/pair", None, officials, expect=201)
            assert engine_pairs(trf16, 3, tmp_path) == published_pairs(third), trf16
            story.call("pairing", "POST", f"{base}/3/publish", None, officials)
        listing = story.call("pairing", "GET", f"{base}/{number}/pairings")
        assert unexcused not in seated(listing)
        count = len(listing["boards"])
        for game in story.wait_games(uuid.UUID(tid), number, count):
            story.call("clocks", "POST", f"/games/{game['id']}/result", result, officials)
    wait_for(
        lambda: story.pairing(uuid.UUID(tid))["status"] == "completed",
        timeout=30,
        what="the event to complete",
    )
