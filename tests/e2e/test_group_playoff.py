"""A whole `group-playoff` event (the 4T1 rules, RULES.md §5) over HTTP against the real stack:
registration's entries (one written all in lower case refused, 4T1 §3(3); one player who cannot create
games, invited by the other player of their matches, §4(5)) and the organiser's start with the groups'
lot seed recorded, the groups drawn by
pairing from that seed, correspondence games on the clocks, a withdrawal in phase 1 (every match of the
phase 0:2), a 1:1 semi-final decided by its extra game, a level final whose first extra game is drawn,
and the final placing checked exactly."""

from __future__ import annotations

import datetime as dt

import pytest

from shared.seed_draw import draw_order
from shared.testing.polling import wait_for
from tests.e2e.group_playoffs import DRAW, Event, Script, page_or_none, rated
from tests.e2e.story import Story

pytestmark = pytest.mark.e2e

# group I is A B C D, group II E F G H in group order; unscripted matches go to the earlier letter
SCRIPT: Script = {
    ("semi-final", frozenset("AF")): [
        "A",
        "F",
        DRAW,
    ],  # 1:1, the extra game drawn: A (the group winner) goes on
    ("semi-final", frozenset("BE")): ["E", "E"],
    ("final", frozenset("AE")): ["A", "E", DRAW, "E"],  # 1:1, extra game 1 drawn, extra game 2 to E
    ("fifth-place", frozenset("CG")): ["G", "G"],
}


def test_a_whole_group_playoff_event(story: Story):
    organiser = story.register("Organiser 4T1")
    players = [rated(story, f"GP{i}", 1990 - 20 * i) for i in range(9)]
    closes = dt.datetime.now(dt.UTC) + dt.timedelta(days=7)
    created = story.call(
        "registration",
        "POST",
        "/tournaments",
        {
            "name": "4T1 e2e",
            "ruleset": "group-playoff",
            "time_control": {"base_seconds": 0, "increment_seconds": 0, "days_per_move": 2},
            "group_playoff": {"closes_at": closes.isoformat()},
        },
        organiser.token,
        expect=201,
    )
    tid = created["id"]
    # 4T1 §3(3): an entry written all in lower case is not accepted
    lower = rated(story, "gp lower", 1900)
    refused_entry = story.call(
        "registration", "POST", f"/tournaments/{tid}/entries", {}, lower.token, expect=422
    )
    assert refused_entry["type"].endswith("entry-all-lower-case") and "4T1 §3(3)" in refused_entry["detail"]
    # the ninth cannot create games (4T1 §3(5)): they rank after all others, and play once the third leaves
    for p in players:
        entry = {"creates_games": p is not players[8]}
        story.call("registration", "POST", f"/tournaments/{tid}/entries", entry, p.token, expect=201)
        story.call(
            "registration", "POST", f"/tournaments/{tid}/entries/{p.id}/confirm", None, organiser.token
        )
    # nine confirmed: the ninth waits; the third withdraws before the start and the ninth plays
    story.call(
        "registration", "DELETE", f"/tournaments/{tid}/entries/{players[2].id}", None, players[2].token
    )
    playing = [p for p in players if p is not players[2]]
    started = story.call("registration", "POST", f"/tournaments/{tid}/start", None, organiser.token)
    seed = started["group_playoff"]["lot_seed"]
    event = Event(story, organiser, playing, SCRIPT)
    event.tid = tid
    page = wait_for(lambda: page_or_none(story, tid), timeout=30, what="the groups")
    # the groups from the recorded seed: the top two seeded, the other six alternately in the drawn order
    drawn = draw_order([str(p.id) for p in playing[2:]], seed)
    groups = ([str(playing[0].id), *drawn[0::2]], [str(playing[1].id), *drawn[1::2]])
    assert [page["lots"][0]["order"][:4], page["lots"][0]["order"][4:]] == [groups[0], groups[1]]
    for members, letters in zip(groups, ("ABCD", "EFGH"), strict=True):
        event.role.update(zip(members, letters, strict=True))
    assert len(event.open_games(page)) == 24
    # 4T1 §4(5): where the ninth is named first, the other player invites (creates) the match's games
    cannot = str(players[8].id)
    assert [p["player_id"] for p in page["players"] if not p["creates_games"]] == [cannot]
    assert any(m["players"][0] == cannot for m in page["matches"])
    inviters = {}
    for m in page["matches"]:
        expected = m["players"][1] if m["players"][0] == cannot else m["players"][0]
        assert m["inviter"] == expected and {g["inviter"] for g in m["games"]} == {expected}
        inviters[tuple(m["players"])] = expected
    # a withdrawal in phase 1: H leaves after its first game; every match of H's is 0:2
    h = next(p for p in playing if event.role[str(p.id)] == "H")
    first = next((m, i, g) for m, i, g in event.open_games(page) if str(h.id) in (g["white"], g["black"]))
    event._finish(*first)
    story.call(
        "registration", "POST", f"/tournaments/{tid}/withdrawals",
        {"player_id": str(h.id), "reason": "moved abroad"}, organiser.token,
    )  # fmt: skip
    wait_for(
        lambda: all(
            m["forfeited_by"] == str(h.id) for m in event.page()["matches"] if str(h.id) in m["players"]
        ),
        timeout=30,
        what="the withdrawal scored",
    )
    page = event.play(lambda p: not event.open_games(p))
    table = {r["player_id"]: r for r in page["groups"]["II"]}
    assert (table[str(h.id)]["match_points"], table[str(h.id)]["board_points"]) == ("0", "0")
    assert [event.role[r["player_id"]] for r in page["groups"]["II"]] == list("EFGH")
    refused = story.call(
        "pairing", "POST", f"/tournaments/{tid}/phases", {"phase": 3}, organiser.token, expect=409
    )
    assert "cannot be announced" in refused["detail"]
    story.call("pairing", "POST", f"/tournaments/{tid}/phases", {"phase": 2}, organiser.token)
    page = event.play(lambda p: not event.open_games(p))
    semi = next(
        m for m in page["matches"] if m["phase"] == "semi-final" and event.role[m["players"][0]] == "A"
    )
    assert [g["extra"] for g in semi["games"]] == [0, 0, 1] and semi["winner"] == semi["players"][0]
    story.call("pairing", "POST", f"/tournaments/{tid}/phases", {"phase": 3}, organiser.token)
    page = event.play(lambda p: p["completed"])
    final = next(m for m in page["matches"] if m["phase"] == "final")
    assert [g["result"] for g in final["games"]][2] == "1/2-1/2" and len(final["games"]) == 4
    seventh = next(m for m in page["matches"] if m["phase"] == "seventh-place")
    assert seventh["forfeited_by"] == str(h.id)
    placing = [(event.role[r["player_id"]], r["place"]) for r in page["placing"]]
    assert placing == [("E", 1), ("A", 2), ("B", 3), ("F", 4), ("G", 5), ("C", 6), ("D", 7), ("H", 8)]

    # the public page: the standings' projection of the same events shows what pairing decided
    def standings_page():
        status, _text, answer = story._request(
            "standings", "GET", f"/tournaments/{tid}/group-playoff", None, {}
        )
        return answer if status == 200 and answer.get("placing") else None

    shown = wait_for(standings_page, timeout=30, what="the standings' page complete")
    assert [(event.role[r["player_id"]], r["place"]) for r in shown["placing"]] == placing
    for group in ("I", "II"):
        assert [r["player_id"] for r in shown["groups"][group]] == [
            r["player_id"] for r in page["groups"][group]
        ]
    (left,) = [p for p in shown["players"] if p["status"] is not None]
    assert (left["player_id"], left["status"], left["status_reason"], left["left_in_phase"]) == (
        str(h.id), "withdrawn", "moved abroad", 1,
    )  # fmt: skip
    mine = [m for m in shown["matches"] if str(h.id) in m["players"]]
    assert [m["stage"] for m in mine] == ["group", "group", "group", "seventh-place"]
    assert all(m["forfeited_by"] == str(h.id) for m in mine) and mine[-1]["games"] == []  # created 0:2
    assert [p["player_id"] for p in shown["players"] if not p["creates_games"]] == [cannot]
    assert all(
        m["inviter"] == inviters[tuple(m["players"])] for m in shown["matches"] if m["stage"] == "group"
    )
    html = story.http.get(story.urls["standings"] + f"/t/{tid}")
    assert html.status_code == 200 and 'id="group-II"' in html.text and 'id="placing"' in html.text
    assert "(does not invite)" in html.text
