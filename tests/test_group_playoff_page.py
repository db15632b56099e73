"""A group-playoff event's page in the standings, on the embedded stack (every service, the events
between them): a deadline passed with its games overdue, one decided by the organiser's recorded lot
(pairing draws it, the clocks end the game, the page shows the lot and the result), an exclusion
announced with its matches scored 0:2, and a later phase's game refused 409 before the phase starts; and a
group whose three players end level on (a)-(d), whose play-off the page shows as needed until it is
played."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from itertools import combinations

import pytest

from cli.embedded import ApiError, EmbeddedStack
from shared.lots import draw_lots
from tests.group_playoff_pages import NO_INVITES, Overdue, overdue_event, tied_group_event


@pytest.fixture(scope="module")
def event(tmp_path_factory) -> Iterator[Overdue]:
    stack = EmbeddedStack.create(
        tmp_path_factory.mktemp("stack"), start=dt.datetime(2026, 3, 2, 9, tzinfo=dt.UTC)
    )
    try:
        yield overdue_event(stack)
    finally:
        stack.close()


def test_the_overdue_games_and_the_lot_that_decided_one(event):
    page = event.page()
    (lot,) = [x for x in page["lots"] if x["kind"] == "game"]
    game = next(g for m in page["matches"] for g in m["games"] if g["game_id"] == event.lot_game)
    seeds = {p["player_id"]: p["seed"] for p in page["players"]}
    first = draw_lots([[seeds[game["white"]], seeds[game["black"]]]], "die 1").groups[0][0]
    winner = game["white"] if seeds[game["white"]] == first else game["black"]
    assert (lot["game_id"], lot["seed"], lot["order"][0]) == (event.lot_game, "die 1", winner)
    assert game["result"] == ("1-0" if winner == game["white"] else "0-1") == lot["result"]
    assert (game["how"], game["reason"], game["decided_by_role"]) == ("lot", "lot", "organiser")
    open_games = [
        g for m in page["matches"] if not m["forfeited_by"] for g in m["games"] if g["result"] is None
    ]
    assert {g["game_id"] for g in page["overdue"]} == {g["game_id"] for g in open_games}
    assert len(page["overdue"]) == 24 - 1 - 6  # the lot's game and the excluded player's three matches
    assert page["deadlines"][0]["passed"] and page["deadlines"][0]["phase"] == 1
    assert sorted(page["overdue"], key=lambda g: g["game_id"]) == sorted(
        (g for g in open_games), key=lambda g: g["game_id"]
    )
    assert {g["game_id"] for g in page["overdue"]} == set(event.pairing_page()["overdue"])  # the reference


def test_an_exclusion_is_announced_and_scores_the_phases_matches_0_2(event):
    page = event.page()
    (player,) = [p for p in page["players"] if p["player_id"] == event.excluded]
    assert (player["status"], player["status_reason"], player["left_in_phase"]) == (
        "excluded",
        "abusive messages",
        1,
    )
    (announced,) = [a for a in page["announcements"] if a["kind"] == "withdrawal"]
    assert (
        announced["text"]
        == f"{event.excluded_name} excluded by the organiser: every match of phase 1 scored 0:2"
    )
    mine = [m for m in page["matches"] if event.excluded in m["players"]]
    assert len(mine) == 3 and all(m["forfeited_by"] == event.excluded for m in mine)
    for m in mine:
        a, b = m["board_points"]
        assert (a, b) == ((0, 2) if m["players"][0] == event.excluded else (2, 0))
    group = next(
        g for g, rows in page["groups"].items() if any(r["player_id"] == event.excluded for r in rows)
    )
    (row,) = [r for r in page["groups"][group] if r["player_id"] == event.excluded]
    assert (row["match_points"], row["board_points"], row["rank"]) == (0, 0, 4)


def test_a_later_phases_game_is_refused_409_before_the_phase_starts(event):
    pairing, clocks = event.stack.api["pairing"], event.stack.api["clocks"]
    planned = event.pairing_page()["planned"]
    semi = planned[0]["game_ids"][0]
    with pytest.raises(ApiError) as refused:
        pairing.call(
            "POST", f"/tournaments/{event.tournament_id}/games/{semi}/lot", {"seed": "x"}, event.organiser
        )
    assert refused.value.status == 409 and refused.value.problem["type"].endswith("phase-not-started")
    with pytest.raises(ApiError) as result:
        clocks.call(
            "POST", f"/games/{semi}/result", {"outcome": "1-0", "reason": "adjudication"}, event.organiser
        )
    assert result.value.status == 409 and result.value.problem["type"].endswith("phase-not-started")


def test_the_tournament_page_routes_to_the_group_playoff_page(event):
    client = event.stack.api["standings"].client
    html = client.get(f"/t/{event.tournament_id}").get_data(as_text=True)
    assert 'id="overdue"' in html and "decided by lot" in html and "excluded" in html
    assert "&lt;b&gt;overdue&lt;/b&gt;" in html  # names from users are escaped
    assert client.get(f"/t/{event.tournament_id}/group-playoff").status_code == 200


def test_the_other_player_invites_where_the_first_named_cannot_create_games(event):
    """4T1 §4(5): the registration's entry (``creates_games: false``) reaches pairing in the roster; the
    games of a match where that player is named first are created by the other one, and both pages say so."""
    page, reference = event.page(), event.pairing_page()
    hou = event.players[NO_INVITES]
    assert [p["player_id"] for p in page["players"] if not p["creates_games"]] == [hou]
    assert [p["player_id"] for p in reference["players"] if not p["creates_games"]] == [hou]
    named_first = [m for m in page["matches"] if m["players"][0] == hou]
    assert named_first  # everyone is named first in a group of four at least once
    for m in page["matches"]:
        expected = m["players"][1] if m["players"][0] == hou else m["players"][0]
        assert m["inviter"] == expected and {g["inviter"] for g in m["games"]} == {expected}
    assert [m["inviter"] for m in reference["matches"]] == [m["inviter"] for m in page["matches"]]
    html = event.stack.api["standings"].client.get(f"/t/{event.tournament_id}").get_data(as_text=True)
    assert "(does not invite)" in html
    names = {pid: name for name, pid in event.players.items()}
    assert (
        f'{NO_INVITES} – {names[named_first[0]["players"][1]]} <span class="inviter">({names[named_first[0]["players"][1]]} invites)</span>'
        in html
    )


def test_a_tie_after_the_group_games_needs_its_playoff_until_the_playoff_is_played(tmp_path):
    """Issue 22: the page counted the play-off's unplayed matches as group matches, so its
    ``playoff_needed`` turned false as soon as pairing paired the play-off."""
    stack = EmbeddedStack.create(tmp_path, start=dt.datetime(2026, 3, 2, 9, tzinfo=dt.UTC))
    try:
        event = tied_group_event(stack)
        p, q, r = event.tied
        reference = event.pairing_page()
        playoffs = [m for m in reference["matches"] if m["phase"] == "playoff"]
        assert {frozenset(m["players"]) for m in playoffs} == {
            frozenset(x) for x in combinations((p, q, r), 2)
        }
        assert all(g["result"] is None for m in playoffs for g in m["games"])  # paired, not played yet

        def needed(page: dict, group: str = "I") -> dict[str, bool]:
            return {row["player_id"]: row["playoff_needed"] for row in page["groups"][group]}

        group_one = [row["player_id"] for row in reference["groups"]["I"]]
        assert needed(reference) == {pid: pid in (p, q, r) for pid in group_one}  # pairing's own page
        shown = event.page()
        assert needed(shown) == needed(reference)
        assert [row["decided_by"] for row in shown["groups"]["I"]] == ["tied", "tied", "tied", "a"]
        assert not any(needed(shown, "II").values())

        event.play("playoff", {})  # P beats Q and R, Q beats R: the play-off orders them (e)
        shown = event.page()
        assert [row["player_id"] for row in shown["groups"]["I"]][:3] == [p, q, r]
        assert needed(shown) == dict.fromkeys(group_one, False) == needed(event.pairing_page())
        assert [row["decided_by"] for row in shown["groups"]["I"]] == ["e", "e", "e", "a"]
    finally:
        stack.close()
