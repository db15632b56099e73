"""A knockout's bracket on the standings service (embedded adapters): projected from pairing's and the
clocks' events, served as JSON, with results only for published rounds, and no table."""

from __future__ import annotations

import uuid

from services.standings.tests.helpers import (
    D,
    KnockoutStory,
    Story,
    W,
    checked,
    problem,
    published,
    revision,
    six_player_knockout,
    snapshot,
)


def bracket(client, story) -> dict:
    response = client.get(f"/tournaments/{story.id}/bracket")
    assert response.status_code == 200, response.json
    return response.json


def matches(body: dict) -> dict[str, dict]:
    return {m["match_id"]: m for s in body["sections"] for r in s["rounds"] for m in r["matches"]}


def test_a_paired_round_is_not_shown_until_it_is_published(client, svc):
    story = six_player_knockout(svc, upto=1, send=checked)
    body = bracket(client, story)
    assert (body["system"], body["ruleset"], body["unpublished"], body["sections"]) == (
        "knockout",
        "knockout",
        [1],
        [],
    )
    assert [r["status"] for r in body["rounds"]] == ["unpublished"]
    assert [(p["seed"], p["name"], p["rating"]) for p in body["seeding"]] == [
        (seed, f"Player {seed}", 2300 - 50 * seed) for seed in range(1, 7)
    ]
    assert body["format"] == {
        "format": "knockout",
        "name": "Knockout",
        "games_per_match": 2,
        "seeding": "rating",
        "draw_seed": None,
        "third_place": True,
        "second_final": True,
        "stages": [{"games": 2, "time_control": "15+10"}, {"games": 2, "time_control": "5+3"}],
        "sudden_death": "3+2",
        "tiebreak_plan": "2 games 15+10, 2 games 5+3, then sudden death 3+2",
    }
    assert (body["champion"], body["placing"]) == (None, None)
    round_one = client.get(f"/tournaments/{story.id}/rounds/1").json
    assert (round_one["published"], round_one["games"], round_one["byes"]) == (False, [], [])
    story.publish(1)
    assert [s["section"] for s in bracket(client, story)["sections"]] == ["winners"]


def test_round_one_with_byes_a_tie_break_and_who_advances(client, svc):
    story = six_player_knockout(svc, upto=2, send=checked)
    body = bracket(client, story)
    assert body["unpublished"] == [2]  # the semi-finals are paired, not published: not shown
    [winners] = body["sections"]
    assert (winners["title"], [(r["section_round"], r["name"]) for r in winners["rounds"]]) == (
        "Bracket",
        [(1, "Quarter-finals")],
    )
    shown = matches(body)
    assert list(shown) == ["winners:1:1", "winners:1:2", "winners:1:3", "winners:1:4"]
    bye = shown["winners:1:1"]
    assert (bye["bye"], bye["board"], bye["winner"], bye["score"], bye["games"]) == (True, None, 1, None, [])
    assert [p and p["seed"] for p in bye["players"]] == [1, None]
    level = shown["winners:1:2"]
    assert ([p["seed"] for p in level["players"]], level["score"], level["winner"], level["how"]) == (
        [4, 5],
        [1.5, 2.5],
        5,
        "tiebreak",
    )
    assert [(g["label"], g["white"], g["black"], g["result"]) for g in level["games"]] == [
        ("Game 1", 4, 5, "1-0"),
        ("Game 2", 5, 4, "1-0"),
        ("Tie-break 1 (15+10), game 1", 4, 5, "½-½"),
        ("Tie-break 1 (15+10), game 2", 5, 4, "1-0"),
    ]
    other = shown["winners:1:4"]
    assert (other["score"], other["winner"], other["how"], other["first_white"]) == (
        [1.5, 0.5],
        3,
        "regular",
        3,
    )
    assert body["rounds"] == [
        {"number": 1, "status": "finished", "games": 6, "finished": 6},
        {"number": 2, "status": "unpublished", "games": 4, "finished": 0},
    ]


def test_the_whole_knockout_to_its_final_placing(client, svc):
    story = six_player_knockout(svc, names=["Ann", "Bob", "Cy", "Di", "Ed", "Flo"], send=checked)
    body = bracket(client, story)
    assert body["completed"] and body["unpublished"] == []
    assert [(s["section"], s["title"]) for s in body["sections"]] == [
        ("winners", "Bracket"),
        ("third_place", "Third place"),
    ]
    assert [r["name"] for r in body["sections"][0]["rounds"]] == ["Quarter-finals", "Semi-finals", "Final"]
    assert body["sections"][1]["rounds"][0]["name"] == "Third-place match"
    shown = matches(body)
    assert [
        (m, shown[m]["winner"], shown[m]["score"]) for m in ("winners:2:1", "winners:2:2", "winners:3:1")
    ] == [
        ("winners:2:1", 1, [2, 0]),
        ("winners:2:2", 3, [0.5, 1.5]),
        ("winners:3:1", 1, [1.5, 0.5]),
    ]
    assert (shown["third_place:1:1"]["winner"], shown["third_place:1:1"]["score"]) == (2, [0, 2])
    assert body["champion"]["name"] == "Ann"
    assert [(p["place"], p["rank"], p["seed"], p["name"], p["matches_won"]) for p in body["placing"]] == [
        ("1", 1, 1, "Ann", 2),
        ("2", 2, 3, "Cy", 2),
        ("3", 3, 2, "Bob", 1),
        ("4", 4, 5, "Ed", 1),
        ("5–6", 5, 4, "Di", 0),
        ("5–6", 5, 6, "Flo", 0),
    ]
    assert published(svc, "standings.updated") == [] and published(svc, "standings.final") == []
    for path in ("standings", "crosstable", "trf"):
        problem(client.get(f"/tournaments/{story.id}/{path}"), 409, "not-a-table")


def test_a_cancelled_game_is_shown_as_not_needed_and_counts_nowhere(client, svc):
    story = KnockoutStory(svc, 4, third_place=False, send=checked).start()
    story.pair(1, [("winners:1:1", 1, 4), ("winners:1:2", 2, 3)])
    story.publish(1)
    story.result(1, "winners:1:1", 1, W)
    story.result(1, "winners:1:1", 2, D)
    story.decide(1, "winners:1:1", 1)
    story.cancel(1, "winners:1:2", 2)  # as if that match had been decided in its first game
    story.cancel(1, "winners:1:2", 2)  # redelivered as a new message: nothing twice
    game = matches(bracket(client, story))["winners:1:2"]["games"][1]
    assert (game["label"], game["cancelled"], game["result"]) == ("Game 2", True, "")
    assert snapshot(svc, story.id)["rounds"] == [
        {"number": 1, "status": "playing", "games": 3, "finished": 2}
    ]
    page = client.get(f"/t/{story.id}/rounds/1").get_data(as_text=True)
    assert "not needed" in page and "Game 2" in page


def test_events_repeated_change_nothing(client, svc):
    story = six_player_knockout(svc, upto=2, send=checked)
    before = bracket(client, story), revision(svc, story.id)
    story.send(svc, story.rounds[1])  # round 1 announced again with nothing new in it
    story.publish(1)  # published again
    story.decide(1, "winners:1:2", 5, "tiebreak")  # decided again
    assert (bracket(client, story), revision(svc, story.id)) == before


def test_only_a_knockout_has_a_bracket(client, svc):
    problem(client.get(f"/tournaments/{uuid.uuid4()}/bracket"), 404, "tournament-not-found")
    story = Story(svc, 4).start()
    story.pair(1, [(1, 4), (2, 3)])
    body = problem(client.get(f"/tournaments/{story.id}/bracket"), 409, "not-a-bracket")
    assert "table" in body["detail"]
    assert client.get(f"/t/{story.id}/bracket").status_code == 409


def test_the_tournament_page_of_a_knockout_is_its_bracket(client, svc):
    story = six_player_knockout(svc, upto=2)
    for path in ("", "/bracket"):
        response = client.get(f"/t/{story.id}{path}")
        text = response.get_data(as_text=True)
        assert response.status_code == 200 and 'id="section-winners"' in text
        assert "Round 2 is paired but not yet published" in text
        assert "Crosstable" not in text and "C.07" not in text


def test_round_names_follow_the_brackets_size():
    from services.standings.domain.bracket import round_name, section_title

    assert [round_name("knockout", "winners", r, 20) for r in range(1, 6)] == [
        "Round 1",
        "Round 2",
        "Quarter-finals",
        "Semi-finals",
        "Final",
    ]
    # a double knockout of 6 (8 slots): 3 winners rounds, 4 losers rounds
    assert [round_name("double_knockout", "winners", r, 6) for r in (1, 2, 3)] == [
        "Winners round 1",
        "Winners round 2",
        "Winners' final",
    ]
    assert [round_name("double_knockout", "losers", r, 6) for r in (1, 2, 3, 4)] == [
        "Losers round 1",
        "Losers round 2",
        "Losers round 3",
        "Losers' final",
    ]
    assert [round_name("double_knockout", "grand_final", r, 6) for r in (1, 2)] == [
        "Grand final",
        "Second final",
    ]
    assert (section_title("knockout", "winners"), section_title("double_knockout", "winners")) == (
        "Bracket",
        "Winners' bracket",
    )
