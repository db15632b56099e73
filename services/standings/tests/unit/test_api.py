"""The JSON API, the TRF export and the pages' HTML, on the embedded adapters."""

from __future__ import annotations

import uuid

import pytest

from services.standings.domain.from_trf import history_from_trf
from services.standings.domain.presets import preset
from services.standings.domain.ranking import compute_table
from services.standings.tests.helpers import (
    B,
    D,
    Story,
    W,
    double_rounds_swiss,
    problem,
    six_player_round_robin,
    snapshot,
)
from shared.events import GameOutcome
from shared.trf import parse


def test_standings(client, svc):
    story = six_player_round_robin(svc)
    body = client.get(f"/tournaments/{story.id}/standings").json
    assert {
        k: body[k] for k in ("name", "system", "ruleset", "after_round", "rounds_total", "completed")
    } == {
        "name": "Sunday blitz",
        "system": "round_robin",
        "ruleset": "platform",
        "after_round": 5,
        "rounds_total": 5,
        "completed": True,
    }
    assert body["tiebreaks"] == ["WIN", "DE", "SNO"] and body["shown"] == ["SB"]
    assert body["rows"][0] == {
        "rank": 1,
        "place": 1,
        "seed": 4,
        "player_id": str(story.player_ids[4]),
        "name": "Player 4",
        "rating": 1900,
        "points": 6,
        "tiebreaks": {"WIN": 3, "DE": 0, "SNO": 4},
        "shown": {"SB": 14},  # the scores of 6, 2 and 3, whom 4 beat
        "status": None,
        "status_reason": None,
        "title": None,  # a fide-rapid player's profile, where known
        "federation": None,
        "fide_id": None,
    }
    assert [r["seed"] for r in body["rows"]] == [4, 1, 6, 2, 3, 5]
    assert [r["status"] for r in body["rounds"]] == ["finished"] * 5


def test_swiss_standings_spell_codes_with_a_dash(client, svc):
    story = double_rounds_swiss(svc)
    body = client.get(f"/tournaments/{story.id}/standings").json
    assert body["tiebreaks"] == ["BH-C1", "SB", "WIN"] and body["shown"] == ["BH"]
    assert body["rows"][0]["tiebreaks"] == {"BH-C1": 19, "SB": 15.5, "WIN": 2}
    assert body["double_rounds"] is True and body["system"] == "swiss"


def test_crosstable_of_a_round_robin(client, svc):
    story = six_player_round_robin(svc)
    body = client.get(f"/tournaments/{story.id}/crosstable").json
    assert body["columns"] == ["1", "2", "3", "4", "5"]
    first = body["rows"][0]  # seed 4: lost to 1 (R4), lost by forfeit to 5 (R3)
    assert (first["place"], first["seed"], first["points"]) == (1, 4, 6)
    # places: 1 = seed 4, 2 = seed 1, 3 = seed 6, 4 = seed 2, 5 = seed 3, 6 = seed 5
    assert first["against"] == [[], ["0"], ["1"], ["1"], ["1"], ["-"]]
    assert first["rounds"][2] == {
        "round": 3,
        "leg": 1,
        "opponent": 5,
        "opponent_place": 6,
        "colour": "w",
        "result": "-",
        "points": 0,
        "bye": None,
        "corrected": False,
    }
    last = body["rows"][5]  # seed 5 won that forfeit
    assert last["against"][0] == ["+"] and last["rounds"][2]["points"] == 2


def test_crosstable_with_double_rounds_and_byes(client, svc):
    story = double_rounds_swiss(svc)
    body = client.get(f"/tournaments/{story.id}/crosstable").json
    assert body["columns"] == ["1.1", "1.2", "2.1", "2.2", "3.1", "3.2"]
    seed3 = next(r for r in body["rows"] if r["seed"] == 3)
    assert [(c["result"], c["points"]) for c in seed3["rounds"]] == [
        ("bye", 2),
        ("bye", 2),
        ("0", 0),
        ("½", 1),
        ("1", 2),
        ("1", 2),
    ]
    assert seed3["against"] is None  # a Swiss has no pair matrix


def test_round(client, svc):
    story = Story(svc, 5).start()
    story.play(1, [(2, 5, D), (3, 4, W)], bye=1)
    story.pair(2, [(5, 3), (1, 2)], bye=4)
    story.result(2, 1, 2, GameOutcome.WHITE_FORFEIT_WIN)
    body = client.get(f"/tournaments/{story.id}/rounds/2").json
    assert (body["number"], body["published"], body["status"]) == (2, True, "playing")
    games = [
        (g["board"], g["white"]["seed"], g["black"]["seed"], g["outcome"], g["result"]) for g in body["games"]
    ]
    assert games == [(1, 5, 3, None, ""), (2, 1, 2, "+/-", "+/-")]
    assert body["byes"] == [
        {
            "player": {
                "seed": 4,
                "player_id": str(story.player_ids[4]),
                "name": "Player 4",
                "rating": 1900,
                "status": None,
                "title": None,
                "federation": None,
                "fide_id": None,
                "points": 0,  # before the round: 3-4 1-0 in round 1
            },
            "kind": "pairing_allocated",
            "points": 2,
            "late": False,
        }
    ]
    first = client.get(f"/tournaments/{story.id}/rounds/1").json
    assert [g["result"] for g in first["games"]] == ["½-½", "1-0"]


def test_a_bye_with_double_rounds_is_worth_two_wins(client, svc):
    story = double_rounds_swiss(svc)
    body = client.get(f"/tournaments/{story.id}/rounds/1").json
    assert body["byes"][0]["points"] == 4
    assert [(g["board"], g["leg"], g["white"]["seed"], g["result"]) for g in body["games"]] == [
        (1, 1, 1, "1-0"),
        (2, 1, 2, "1-0"),
        (1, 2, 4, "½-½"),
        (2, 2, 5, "1-0"),
    ]


def test_before_the_first_pairing(client, svc):
    story = Story(svc, 4).start()
    body = client.get(f"/tournaments/{story.id}/standings").json
    assert (body["system"], body["rows"], body["after_round"], body["rounds"]) == (None, [], 0, [])
    assert client.get(f"/tournaments/{story.id}/crosstable").json["rows"] == []
    text = client.get(f"/tournaments/{story.id}/trf").get_data(as_text=True)
    assert sum(line.startswith("001") for line in text.splitlines()) == 4


@pytest.mark.parametrize("build", [six_player_round_robin, double_rounds_swiss])
def test_trf_export_reads_back_to_the_same_table(client, svc, build):
    story = build(svc)
    response = client.get(f"/tournaments/{story.id}/trf")
    assert response.status_code == 200 and response.mimetype == "text/plain"
    doc = parse(response.get_data(as_text=True))
    ruleset = preset("platform-round-robin" if story.system == "round_robin" else "platform-swiss")
    legs = 2 if story.double_rounds else 1
    assert doc.total_rounds == story.total_rounds * legs and doc.rounds_played == story.total_rounds * legs
    assert doc.tiebreaks == [tb.code.replace("-", "/") for tb in ruleset.tiebreaks]
    assert doc.time_control == "180+2" and doc.name == "Sunday blitz"
    history = history_from_trf(doc)
    assert history.pre_determined == (story.system == "round_robin")
    again = compute_table(history, ruleset.tiebreaks, ruleset.rules(doc.start_date, doc.start_date))
    rows = snapshot(svc, story.id)["table"]["rows"]
    assert [(r.rank, r.start, r.points, r.tiebreaks) for r in again.rows] == [
        (r["rank"], r["seed"], r["points"], r["tiebreaks"]) for r in rows
    ]
    assert all(doc.players[r["seed"]].rank == r["rank"] for r in rows)


def test_trf_blocks(client, svc):
    story = Story(svc, 5).start()
    story.play(1, [(2, 5, GameOutcome.DOUBLE_FORFEIT), (3, 4, GameOutcome.BLACK_FORFEIT_WIN)], bye=1)
    story.pair(2, [(5, 3), (1, 2)], bye=4)
    story.result(2, 5, 3, D)
    doc = parse(client.get(f"/tournaments/{story.id}/trf").get_data(as_text=True))
    blocks = {
        seed: [(e.opponent, e.colour.value, e.result.value) if e else None for e in p.rounds]
        for seed, p in doc.players.items()
    }
    assert blocks == {
        1: [(None, "-", "U")],  # round 2's game is open: a blank block (trailing blanks are dropped)
        2: [(5, "w", "-")],
        3: [(4, "w", "-"), (5, "b", "=")],
        4: [(3, "b", "+"), (None, "-", "U")],
        5: [(2, "b", "-"), (3, "w", "=")],
    }
    assert (doc.players[4].points, doc.players[2].points) == (4, 0)  # a double forfeit scores nothing


def test_names_from_users_stay_text(client, svc):
    evil = '<script>alert("x")</script>\nEve'
    story = Story(svc, 4, names=[evil, "Ann", "Bob", "Cy"]).start()
    story.play(1, [(1, 4, W), (2, 3, D)])
    assert client.get(f"/tournaments/{story.id}/standings").json["rows"][0]["name"] == evil
    for path in ("", "/crosstable", "/rounds/1"):
        html = client.get(f"/t/{story.id}{path}").get_data(as_text=True)
        assert "<script>" not in html and "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in html
    lines = client.get(f"/tournaments/{story.id}/trf").get_data(as_text=True).splitlines()
    players = [line for line in lines if line.startswith("001")]
    assert players[0][14:47].rstrip() == '<script>alert("x")</script> Eve'  # the line break became a space
    assert len(players) == 4 and not any(line.startswith("Eve") for line in lines)


def test_unknown_tournament_and_round(client, svc):
    missing = uuid.uuid4()
    for path in ("standings", "crosstable", "rounds/1", "trf"):
        body = problem(client.get(f"/tournaments/{missing}/{path}"), 404, "tournament-not-found")
        assert body["detail"] == f"no tournament {missing}"
    story = Story(svc, 4).start()
    story.pair(1, [(1, 4), (2, 3)])
    problem(client.get(f"/tournaments/{story.id}/rounds/2"), 404, "round-not-found")
    problem(client.get(f"/tournaments/{story.id}/rounds/0"), 404, "round-not-found")
    problem(client.get("/tournaments/not-a-uuid/standings"), 404, "not-found")


def test_a_knockout_has_no_table_crosstable_or_trf(client, svc):
    story = Story(svc, 4, system="knockout", rounds=2, ruleset="knockout").start()
    story.play(1, [(1, 4, W), (2, 3, W)])
    for path in ("standings", "crosstable", "trf"):
        body = problem(client.get(f"/tournaments/{story.id}/{path}"), 409, "not-a-table")
        assert "bracket" in body["detail"]
    body = client.get(f"/tournaments/{story.id}/rounds/1").json  # a knockout round, not yet published
    assert (body["published"], body["status"], body["games"], body["byes"]) == (False, "unpublished", [], [])


def test_a_table_under_a_ruleset_without_table_rules(client, svc):
    story = Story(svc, 4, system="swiss", rounds=3, ruleset="group-playoff").start()
    story.play(1, [(1, 4, W), (2, 3, W)])
    body = problem(client.get(f"/tournaments/{story.id}/standings"), 409, "unsupported-ruleset")
    assert "group-playoff" in body["detail"]


def test_pages_answer_html(client, svc):
    story = Story(svc, 4).start()
    story.play(1, [(1, 4, W), (2, 3, D)])
    for path in ("", "/crosstable", "/rounds/1"):
        response = client.get(f"/t/{story.id}{path}")
        assert response.status_code == 200 and response.mimetype == "text/html"
    missing = client.get(f"/t/{uuid.uuid4()}")
    assert (missing.status_code, missing.mimetype) == (404, "text/html")
    assert "No tournament" in missing.get_data(as_text=True)
    assert client.get(f"/t/{story.id}/rounds/9").status_code == 404
    assert client.get("/t/nonsense").mimetype == "text/html"
    assert client.get("/static/standings.css").status_code == 200


def test_openapi_documents_the_json_api_only(client):
    paths = client.get("/openapi.json").json["paths"]
    assert sorted(paths) == [
        "/tournaments/{tournament_id}/arena",
        "/tournaments/{tournament_id}/bracket",
        "/tournaments/{tournament_id}/crosstable",
        "/tournaments/{tournament_id}/crosstable.csv",
        "/tournaments/{tournament_id}/crosstable.pdf",
        "/tournaments/{tournament_id}/csv",
        "/tournaments/{tournament_id}/group-playoff",
        "/tournaments/{tournament_id}/pairings.csv",
        "/tournaments/{tournament_id}/pairings.pdf",
        "/tournaments/{tournament_id}/players/{seed}",
        "/tournaments/{tournament_id}/rounds/{number}",
        "/tournaments/{tournament_id}/rounds/{number}/pairings.csv",
        "/tournaments/{tournament_id}/rounds/{number}/pairings.pdf",
        "/tournaments/{tournament_id}/standings",
        "/tournaments/{tournament_id}/standings.csv",
        "/tournaments/{tournament_id}/standings.pdf",
        "/tournaments/{tournament_id}/trf",
        "/tournaments/{tournament_id}/trf16",
    ]
    spec = client.get("/openapi.json").json
    for path, kind in (("trf16", "text/plain"), ("csv", "text/csv")):
        answers = spec["paths"]["/tournaments/{tournament_id}/" + path]["get"]["responses"]
        assert kind in answers["200"]["content"]
        assert "application/problem+json" in answers["404"]["content"] and "409" in answers
    assert client.get("/healthz").json == {"status": "ok"}


# -- the arbiter's decisions in the answers -------------------------------------------------------------


def test_a_corrected_result_is_marked_in_the_round_and_the_crosstable(client, svc):
    story = Story(svc, 4, system="swiss", rounds=2).start()
    story.play(1, [(1, 3, W), (2, 4, D)])
    story.correct(1, 1, 3, GameOutcome.BLACK_WIN, reason="scoresheets swapped", role="organiser")
    games = client.get(f"/tournaments/{story.id}/rounds/1").json["games"]
    first, second = games
    assert (first["outcome"], first["result"], first["corrected"], first["old_outcome"]) == (
        "0-1",
        "0-1",
        True,
        "1-0",
    )
    [correction] = first["corrections"]
    assert {
        k: correction[k] for k in ("old_outcome", "old_result", "outcome", "result", "reason", "role")
    } == {
        "old_outcome": "1-0",
        "old_result": "1-0",
        "outcome": "0-1",
        "result": "0-1",
        "reason": "scoresheets swapped",
        "role": "organiser",
    }
    assert (second["corrected"], second["old_outcome"], second["corrections"], second["rated"]) == (
        False,
        None,
        [],
        True,
    )
    rows = {r["seed"]: r for r in client.get(f"/tournaments/{story.id}/crosstable").json["rows"]}
    assert (rows[3]["rounds"][0]["result"], rows[3]["rounds"][0]["corrected"]) == ("1", True)
    assert (rows[2]["rounds"][0]["result"], rows[2]["rounds"][0]["corrected"]) == ("½", False)
    html = client.get(f"/t/{story.id}/rounds/1").get_data(as_text=True)
    assert 'title="corrected from 1-0 to 0-1 by the organiser: scoresheets swapped"' in html
    assert '<span class="mark corrected"' in html


def test_withdrawn_and_excluded_players_are_marked_everywhere(client, svc):
    story = Story(svc, 5, system="swiss", rounds=3).start()
    story.play(1, [(1, 4, W), (2, 5, D)], bye=3)
    story.withdraw(4, reason="<b>ill</b>")
    story.withdraw(5, excluded=True, reason="cheating")
    rows = {r["seed"]: r for r in client.get(f"/tournaments/{story.id}/standings").json["rows"]}
    assert [(rows[s]["status"], rows[s]["status_reason"]) for s in (1, 4, 5)] == [
        (None, None),
        ("withdrawn", "<b>ill</b>"),
        ("excluded", "cheating"),
    ]
    cross = {r["seed"]: r for r in client.get(f"/tournaments/{story.id}/crosstable").json["rows"]}
    assert (cross[4]["status"], cross[5]["status"], cross[1]["status"]) == ("withdrawn", "excluded", None)
    games = client.get(f"/tournaments/{story.id}/rounds/1").json["games"]
    assert [(g["white"]["status"], g["black"]["status"]) for g in games] == [
        (None, "withdrawn"),
        (None, "excluded"),
    ]
    html = client.get(f"/t/{story.id}").get_data(as_text=True)
    assert '<span class="mark withdrawn" title="withdrawn: &lt;b&gt;ill&lt;/b&gt;">withdrawn</span>' in html
    assert '<tr class="excluded">' in html and "<b>ill</b>" not in html


def test_a_zero_point_bye_on_request_in_the_round(client, svc):
    story = Story(svc, 4, system="swiss", rounds=3).start()
    story.play(1, [(1, 3, D), (2, 4, W)])
    story.play(2, [(4, 1, B)], bye=3, zero_point=[2])
    byes = client.get(f"/tournaments/{story.id}/rounds/2").json["byes"]
    assert [(b["player"]["seed"], b["kind"], b["points"]) for b in byes] == [
        (2, "zero_point", 0),  # by seed
        (3, "pairing_allocated", 2),
    ]
    html = client.get(f"/t/{story.id}/rounds/2").get_data(as_text=True)
    link = f'<a href="/t/{story.id}/players/2">Player 2</a>'
    assert f"Zero-point bye (requested): {link} (2), 0 points" in html
    cell = next(r for r in client.get(f"/tournaments/{story.id}/crosstable").json["rows"] if r["seed"] == 2)[
        "rounds"
    ][1]
    assert (cell["result"], cell["bye"], cell["points"]) == ("bye", "zero_point", 0)


def test_a_group_playoff_table(client, svc):
    story = Story(svc, 4, system="round_robin", rounds=3, double_rounds=True, ruleset="group-playoff").start()
    story.play(1, [(1, 4, W, D), (2, 3, D, D)])
    body = client.get(f"/tournaments/{story.id}/standings").json
    assert (body["edition"], body["tiebreaks"], body["shown"]) == (None, ["BP", "MP-T", "BP-T"], [])
    assert [(r["seed"], r["points"], r["tiebreaks"]["BP"]) for r in body["rows"]] == [
        (1, 2, 1.5),
        (2, 1, 1),
        (3, 1, 1),
        (4, 0, 0.5),
    ]
    html = client.get(f"/t/{story.id}").get_data(as_text=True)
    assert "Ranking: match points (Pts.), then BP (board points), MP-T (match points among the tied)" in html
    assert client.get(f"/tournaments/{story.id}/crosstable").json["rows"][0]["against"][3] == ["1", "½"]
    doc = parse(client.get(f"/tournaments/{story.id}/trf").get_data(as_text=True))
    assert (doc.players[1].points, doc.players[1].rank, doc.players[4].points) == (
        1.5,
        1,
        0.5,
    )  # board points


def test_the_table_after_round_n_leaves_out_the_bye_of_round_n_plus_1(client, svc):
    """After round 1 a player who drew and has the bye of round 2 has 1 point, not 3 (platform scoring:
    a draw 1, the bye 2): the bye is on round 2's page, and in the table once round 2 is finished."""
    story = Story(svc, 5).start()
    story.play(1, [(1, 2, D), (3, 4, W)], bye=5)
    story.pair(2, [(5, 3), (4, 2)], bye=1)
    after_1 = client.get(f"/tournaments/{story.id}/standings").json
    points = {row["seed"]: row["points"] for row in after_1["rows"]}
    assert after_1["after_round"] == 1
    assert points == {1: 1, 2: 1, 3: 2, 4: 0, 5: 2}  # 5's bye of round 1 counts, 1's of round 2 not yet
    assert after_1["rows"][0]["seed"] == 3
    round_2 = client.get(f"/tournaments/{story.id}/rounds/2").json
    assert [(b["player"]["seed"], b["kind"], b["points"]) for b in round_2["byes"]] == [
        (1, "pairing_allocated", 2)
    ]
    page = client.get(f"/t/{story.id}").get_data(as_text=True)
    assert "Standings after round 1" in page
    story.result(2, 5, 3, W)
    assert {r["seed"]: r["points"] for r in client.get(f"/tournaments/{story.id}/standings").json["rows"]}[
        1
    ] == 1
    story.result(2, 4, 2, D)
    after_2 = client.get(f"/tournaments/{story.id}/standings").json
    assert after_2["after_round"] == 2
    assert {row["seed"]: row["points"] for row in after_2["rows"]} == {1: 3, 2: 2, 3: 2, 4: 1, 5: 4}


def test_a_group_playoff_event_points_to_pairings_page(client, svc):
    """The 4T1 event (system group_playoff) is not one table: its groups, matches and placing are on
    its own page; standings says where instead of calling it a bracket."""
    story = Story(svc, 8, system="group_playoff", rounds=1, ruleset="group-playoff").start()
    story.pair(1, [(1, 8), (2, 7)])
    body = client.get(f"/tournaments/{story.id}/standings").json
    assert body["status"] == 409 and "GET /tournaments/{id}/group-playoff" in body["detail"]


def test_the_group_playoff_page_of_no_event_or_of_another_kind_is_a_problem(client, svc):
    missing = client.get(f"/tournaments/{uuid.uuid4()}/group-playoff")
    assert missing.status_code == 404 and missing.json["type"].endswith("tournament-not-found")
    story = Story(svc, 4, system="swiss", rounds=2).start()
    other = client.get(f"/tournaments/{story.id}/group-playoff")
    assert other.status_code == 409 and other.json["type"].endswith("not-a-group-playoff")
    assert client.get(f"/t/{story.id}/group-playoff").status_code == 409  # the page says so too
