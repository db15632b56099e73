"""`arbiter demo --ruleset group-playoff --json`: the 4T1 event embedded, printed as the one document issue
11 specifies. The document is checked against the rules themselves: the group tables recomputed from its
games (shared.group_table) give the semi-finals, the matches give the placing."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest
from click.testing import CliRunner
from rich.console import Console

from cli.demos.group_playoff import GroupPlayoffDemo
from cli.main import build_cli
from shared.group_table import TableMatch, group_table
from shared.scoring import Outcome

SEED = 2026  # the demo's default
OUTCOMES = {"1-0": Outcome.WHITE_WIN, "½-½": Outcome.DRAW, "0-1": Outcome.BLACK_WIN}
PHASES = {"group", "playoff", "semi-final", "final", "third-place", "fifth-place", "seventh-place"}
POINTS = {
    "1-0": (Fraction(1), Fraction(0)),
    "½-½": (Fraction(1, 2), Fraction(1, 2)),  # one notation in every demo (issue 22)
    "0-1": (Fraction(0), Fraction(1)),
}


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> GroupPlayoffDemo:
    """The demo run once, as ``--json`` runs it (the default seed), its pages kept."""
    run = GroupPlayoffDemo(Console(), random.Random(SEED), as_json=True)
    run.document = run.run(tmp_path_factory.mktemp("demo"))  # type: ignore[attr-defined]
    return run


@pytest.fixture(scope="module")
def document(demo) -> dict:
    return demo.document


def test_the_json_document_is_the_same_on_every_run_of_a_seed(document):
    """Everything is seeded (the accounts' ids too: the groups' lot orders players by id)."""
    result = CliRunner().invoke(build_cli(), ["demo", "--ruleset", "group-playoff", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == document


def test_the_standings_page_shows_what_pairing_decided(demo):
    """The standings' projection of the events against pairing's own page (the reference): the group
    tables with their criteria, every match with its winner, the overdue game adjudicated, the placing."""
    pairing, standings, html = demo.pages["pairing"], demo.pages["standings"], demo.pages["html"]
    for group in ("I", "II"):
        mine = [
            (r["player_id"], r["rank"], Fraction(r["board_points"]), r["decided_by"])
            for r in standings["groups"][group]
        ]
        theirs = [
            (r["player_id"], r["rank"], Fraction(r["board_points"]), r["decided_by"])
            for r in pairing["groups"][group]
        ]
        assert mine == theirs
    assert {r["decided_by"] for r in standings["groups"]["I"]} == {"e", "a"}  # the play-off decided
    key = lambda m: (m["phase"] if "stage" not in m else m["stage"], tuple(m["players"]))  # noqa: E731
    assert sorted((key(m), m["winner"], m["shared"]) for m in standings["matches"]) == sorted(
        (key(m), m["winner"], m["shared"]) for m in pairing["matches"]
    )
    assert [(r["player_id"], r["place"]) for r in standings["placing"]] == [
        (r["player_id"], r["place"]) for r in pairing["placing"]
    ]
    games = [g for m in standings["matches"] for g in m["games"]]
    assert [g["how"] for g in games].count("adjudicated") == 1
    assert any(g["reason"] == "time" for g in games)  # lost on time, found by the clocks
    assert standings["deadlines"][0]["passed"] and standings["overdue"] == []  # decided since
    kinds = [a["kind"] for a in standings["announcements"]]
    assert kinds.count("playoff") == 3 and kinds.count("phase") == 2 and "deadline" in kinds
    assert standings["completed_at"] is not None
    assert 'id="group-I"' in html and 'id="placing"' in html and "(e) play-off" in html
    assert html.count('data-stage="semi-final"') == 2 and "extra game 2" in html
    # 4T1 §4(5): the player who said at entry they cannot create games is invited by the other player
    (cannot,) = [p["player_id"] for p in standings["players"] if not p["creates_games"]]
    first = [m for m in standings["matches"] if m["players"][0] == cannot]
    assert first and all(m["inviter"] == m["players"][1] for m in first)
    assert "(does not invite)" in html


def board_points(match: dict) -> tuple[Fraction, Fraction]:
    a = match["players"][0]
    pa = pb = Fraction(0)
    for g in match["games"]:
        white, black = POINTS[g["result"]]
        pa, pb = (pa + white, pb + black) if g["white"] == a else (pa + black, pb + white)
    return pa, pb


def of(document: dict, phase: str) -> list[dict]:
    return [m for m in document["matches"] if m["phase"] == phase]


def test_the_document_has_the_issues_shape(document):
    assert set(document) == {"players", "groups", "matches", "final"}
    assert len(document["players"]) == 8
    assert all(set(p) == {"player", "rating"} and 1699 < p["rating"] < 2001 for p in document["players"])
    names = {p["player"] for p in document["players"]}
    assert set(document["groups"]) == {"I", "II"}
    assert sorted(document["groups"]["I"] + document["groups"]["II"]) == sorted(names)
    for m in document["matches"]:
        assert set(m) == {"phase", "players", "games"} and m["phase"] in PHASES
        assert len(m["players"]) == 2 and set(m["players"]) <= names
        for g in m["games"]:
            assert set(g) == {"white", "black", "result"} and g["result"] in POINTS
            assert {g["white"], g["black"]} == set(m["players"])
    assert all(set(r) == {"player", "place"} for r in document["final"])
    # the seeds: the highest rated heads group I, the second group II
    by_rating = sorted(document["players"], key=lambda p: -p["rating"])
    assert (document["groups"]["I"][0], document["groups"]["II"][0]) == (
        by_rating[0]["player"],
        by_rating[1]["player"],
    )


def test_every_group_meeting_is_a_two_game_match_one_game_with_each_colour(document):
    groups = of(document, "group")
    assert len(groups) == 12
    for m in groups:
        first, second = m["games"]
        assert (first["white"], first["black"]) == (second["black"], second["white"])


def group_order(document: dict, group: str) -> list[str]:
    """The group's places recomputed by (a)-(e) from the document's games (no lot is drawn in the demo)."""
    members = document["groups"][group]
    number = {p: i + 1 for i, p in enumerate(members)}

    def matches(phase: str) -> list[TableMatch]:
        out = []
        for m in of(document, phase):
            a, b = m["players"]
            if a in number and b in number:
                games = tuple((OUTCOMES[g["result"]], g["white"] == a) for g in m["games"])
                out.append(TableMatch(number[a], number[b], games))
        return out

    table = group_table(list(number.values()), matches("group"), playoffs=matches("playoff"))
    assert len({r.rank for r in table.rows}) == 4, "every place decided without a lot"
    return [members[r.start - 1] for r in table.rows]


def test_a_three_way_tie_is_settled_by_a_playoff_round_robin(document):
    playoffs = of(document, "playoff")
    tied = {p for m in playoffs for p in m["players"]}
    assert len(playoffs) == 3 and len(tied) == 3  # everyone against everyone among the three
    assert any(tied <= set(document["groups"][g]) for g in ("I", "II"))


def test_the_semi_finals_follow_the_group_places_and_one_is_decided_by_its_extra_game(document):
    one, two = group_order(document, "I"), group_order(document, "II")
    semis = of(document, "semi-final")
    assert [m["players"] for m in semis] == [[one[0], two[1]], [two[0], one[1]]]
    decided_late = [m for m in semis if len(m["games"]) == 3]
    assert len(decided_late) == 1
    extra = decided_late[0]
    assert board_points({**extra, "games": extra["games"][:2]})[0] == 1  # 1:1 after two games
    assert extra["games"][2]["white"] == extra["players"][0]  # White to the group winner
    assert [of(document, "fifth-place")[0]["players"], of(document, "seventh-place")[0]["players"]] == [
        [one[2], two[2]],
        [one[3], two[3]],
    ]


def test_the_placing_follows_the_matches_with_a_shared_fifth_place(document):
    place = {r["player"]: r["place"] for r in document["final"]}
    assert sorted(place.values()) == [1, 2, 3, 4, 5, 5, 7, 8]
    fifth = of(document, "fifth-place")[0]
    a, b = board_points(fifth)
    assert a == b and place[fifth["players"][0]] == place[fifth["players"][1]] == 5
    final = of(document, "final")[0]
    assert len(final["games"]) == 4  # 1:1, the first extra game drawn, the second decides
    assert final["games"][3]["white"] == final["games"][2]["black"]  # colours reversed
    a, b = board_points(final)
    winner = final["players"][0] if a > b else final["players"][1]
    assert place[winner] == 1
    for phase, best in (("third-place", 3), ("seventh-place", 7)):
        m = of(document, phase)[0]
        a, b = board_points(m)
        assert a != b and place[m["players"][0 if a > b else 1]] == best
