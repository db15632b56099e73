"""A `fide-rapid` event's rounds over pairing's HTTP API and its events, on SQLite as the embedded mode runs
it: the preview, pairing on command, the pairing list, publishing (only then `round.paired`), results that
make no round due, the 409s (a round unfinished, naming its boards; a bye after the pairing), an excused
absence paired again, an unexcused one reported, and a late entry."""

from __future__ import annotations

import uuid

import pytest

from services.pairing.tests.helpers import (
    Api,
    appointed,
    deliver,
    fide_started,
    game_finished,
    published,
    started,
    token,
)
from shared import events
from shared.events import GameOutcome


@pytest.fixture
def story(svc):
    """An 8-player event with an arbiter of the whole event."""
    s = fide_started(8)
    deliver(svc, s, s.tournament_id)
    arbiter = uuid.uuid4()
    deliver(svc, appointed(s, arbiter), s.tournament_id)
    return s, token(arbiter)


def paired(svc, number: int) -> events.RoundPaired:
    env = [e for e in published(svc, "round.paired") if e.payload["round"] == number][-1]
    return events.RoundPaired.model_validate(env.payload)


def test_rounds_wait_for_the_arbiter_and_go_out_when_published(svc, api: Api, story):
    s, arbiter = story
    tid = s.tournament_id
    base = f"/tournaments/{tid}/rounds"
    assert published(svc, "pairing.round_due") == []
    preview = api.ok(200, "GET", f"{base}/1/preview")
    assert preview["pairable"] and len(preview["present"]) == 8 and preview["absent"] == []
    listing = api.ok(201, "POST", f"{base}/1/pair", arbiter)
    assert not listing["published"] and [b["board"] for b in listing["boards"]] == [1, 2, 3, 4]
    assert listing["boards"][0]["white"]["points"] == 0 and listing["boards"][0]["white"]["rating"]
    assert published(svc, "round.paired") == []  # the clocks create nothing yet
    api.refused(404, "round-not-found", "GET", f"{base}/1/pairings")  # unpublished: officials only
    assert api.ok(200, "GET", f"{base}/1/pairings", arbiter)["boards"] == listing["boards"]
    api.refused(403, "not-an-arbiter-here", "POST", f"{base}/2/pair", token(uuid.uuid4()))
    api.ok(200, "POST", f"{base}/1/publish", arbiter)
    rp = paired(svc, 1)
    assert len(rp.games) == 4 and rp.published is None
    assert api.ok(200, "GET", f"{base}/1/pairings")["published"]

    # a bye asked for a paired round: 409; for the next one: fine
    player = rp.games[0].white
    body = {"player_id": str(player), "round": 1}
    api.refused(409, "round-already-paired", "POST", f"/tournaments/{tid}/byes", token(player), body)
    api.ok(201, "POST", f"/tournaments/{tid}/byes", token(player), {"player_id": str(player), "round": 2})

    # three boards finished: round 2 is refused, naming board 4
    for g in rp.games[:3]:
        deliver(svc, game_finished(rp, g, GameOutcome.WHITE_WIN), tid)
    problem = api.refused(409, "round-unfinished", "POST", f"{base}/2/pair", arbiter)
    assert problem["boards"] == [4] and "board 4" in problem["detail"]
    assert api.ok(200, "GET", f"{base}/2/preview")["unfinished_boards"] == [4]
    deliver(svc, game_finished(rp, rp.games[3], GameOutcome.DRAW), tid)
    assert published(svc, "pairing.round_due") == []  # the round is complete, nothing falls due
    assert [e.payload["round"] for e in published(svc, "round.completed")] == [1]

    preview = api.ok(200, "GET", f"{base}/2/preview")
    assert [p["player_id"] for p in preview["bye_requests"]] == [str(player)]
    listing = api.ok(201, "POST", f"{base}/2/pair", arbiter)
    byes = {b["kind"]: b["player"] for b in listing["byes"]}  # seven play: one gets the pairing bye
    assert sorted(byes) == ["pairing_allocated", "zero_point"]
    assert byes["zero_point"]["player_id"] == str(player) and byes["zero_point"]["points"] == 1
    assert len(listing["boards"]) == 3


def test_an_absence_is_excused_or_reported(svc, api: Api, story):
    s, arbiter = story
    tid = s.tournament_id
    base = f"/tournaments/{tid}/rounds"
    api.ok(201, "POST", f"{base}/1/pair", arbiter)
    api.ok(200, "POST", f"{base}/1/publish", arbiter)
    rp = paired(svc, 1)
    # boards 1 and 2: Black did not come by the default time
    for g in rp.games[:2]:
        deliver(svc, game_finished(rp, g, GameOutcome.WHITE_FORFEIT_WIN, "default_time"), tid)
    for g in rp.games[2:]:
        deliver(svc, game_finished(rp, g, GameOutcome.BLACK_WIN), tid)
    excused, unexcused = rp.games[0].black, rp.games[1].black
    preview = api.ok(200, "GET", f"{base}/2/preview")
    assert {p["player_id"] for p in preview["absent"]} == {str(excused), str(unexcused)}

    listing = api.ok(201, "POST", f"{base}/2/pair", arbiter)
    seated = {b[c]["player_id"] for b in listing["boards"] for c in ("white", "black")}
    assert str(excused) not in seated and str(unexcused) not in seated
    body = {"round": 1, "reason": "the train was late"}
    answer = api.ok(200, "POST", f"/tournaments/{tid}/absences/{excused}/excuse", arbiter, body)
    assert answer["pairing_dropped"]
    [event] = published(svc, "absence.excused")
    assert event.payload["player_id"] == str(excused) and event.payload["decision"]["role"] == "arbiter"
    api.refused(
        409, "absence-already-excused", "POST", f"/tournaments/{tid}/absences/{excused}/excuse", arbiter, body
    )
    present = rp.games[0].white
    api.refused(
        404, "absence-not-found", "POST", f"/tournaments/{tid}/absences/{present}/excuse", arbiter, body
    )
    api.refused(404, "round-not-paired", "POST", f"{base}/2/publish", arbiter)  # dropped

    listing = api.ok(201, "POST", f"{base}/2/pair", arbiter)
    seated = {b[c]["player_id"] for b in listing["boards"] for c in ("white", "black")}
    assert str(excused) in seated and str(unexcused) not in seated
    api.ok(200, "POST", f"{base}/2/publish", arbiter)
    assert [(e.payload["player_id"], e.payload["round"]) for e in published(svc, "absence.unexcused")] == [
        (str(unexcused), 1)
    ]
    api.refused(
        409, "excuse-too-late", "POST", f"/tournaments/{tid}/absences/{unexcused}/excuse", arbiter, body
    )


def test_a_late_entry_is_paired_from_its_round(svc, api: Api, story):
    s, arbiter = story
    tid = s.tournament_id
    base = f"/tournaments/{tid}/rounds"
    api.ok(201, "POST", f"{base}/1/pair", arbiter)
    api.ok(200, "POST", f"{base}/1/publish", arbiter)
    late = uuid.uuid4()
    joined = events.PlayerJoined(
        tournament_id=tid, player_id=late, name="Late", rating=2500, late=True, from_round=2
    )
    deliver(svc, joined, tid)
    deliver(svc, joined, tid)  # heard again: nothing changes
    players = api.ok(200, "GET", f"/tournaments/{tid}")["players"]
    assert [p["player_id"] for p in players][-1] == str(late) and len(players) == 9
    rp = paired(svc, 1)
    for g in rp.games:
        deliver(svc, game_finished(rp, g, GameOutcome.DRAW), tid)
    listing = api.ok(201, "POST", f"{base}/2/pair", arbiter)
    everyone = {b[c]["player_id"] for b in listing["boards"] for c in ("white", "black")}
    everyone |= {b["player"]["player_id"] for b in listing["byes"]}
    assert str(late) in everyone


def test_a_platform_round_is_not_paired_on_command(svc, api: Api):
    s = started(8)
    deliver(svc, s, s.tournament_id)
    organiser = token(s.organiser_id)
    api.refused(409, "paired-when-due", "POST", f"/tournaments/{s.tournament_id}/rounds/2/pair", organiser)
    api.refused(409, "paired-when-due", "GET", f"/tournaments/{s.tournament_id}/rounds/1/preview")
