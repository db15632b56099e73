"""The exports (issue 16, item 4): the TRF headers an organiser has, the TRF of every ruleset with a
table read back by ``arbiter standings`` to the page's table, and the CSV and PDF of the standings,
the crosstable and the pairing lists."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from pypdf import PdfReader

from services.standings.tests.helpers import (
    B,
    D,
    FideStory,
    Story,
    W,
    double_rounds_swiss,
    problem,
    six_player_knockout,
    six_player_round_robin,
)
from services.standings.tests.unit.test_fide_rapid import arbiter, rapid_open


def platform_swiss_with_a_bye(svc) -> Story:
    """Five players, three Swiss rounds of the platform (2/1/0): a pairing-allocated bye each round.
    The bye scores 2 but is no won game and no opponent (RULES.md §1, §2), so seed 3's WIN is 1, not 2."""
    story = Story(svc, 5, system="swiss", rounds=3).start()
    story.play(1, [(1, 4, W), (2, 5, D)], bye=3)
    story.play(2, [(3, 1, W), (4, 2, B)], bye=5)
    story.play(3, [(2, 3, D), (5, 1, B)], bye=4)
    story.complete()
    return story


def fide_rapid_round_robin(svc) -> FideStory:
    story = FideStory(svc, 4, rounds=3, system="round_robin").start()
    story.play(1, [(1, 4, W), (2, 3, D)])
    story.play(2, [(4, 3, D), (1, 2, D)])
    story.play(3, [(2, 4, B), (3, 1, B)])
    story.complete()
    return story


TOURNAMENTS = {  # every ruleset with a table, in each of its systems
    "platform-swiss": platform_swiss_with_a_bye,
    "platform-swiss-double-rounds": double_rounds_swiss,
    "platform-round-robin": six_player_round_robin,
    "fide-rapid-swiss": rapid_open,
    "fide-rapid-round-robin": fide_rapid_round_robin,
}


def page_table(client, tournament_id) -> list[tuple]:
    body = client.get(f"/tournaments/{tournament_id}/standings").json
    return [(r["rank"], r["seed"], r["points"], r["tiebreaks"], r["shown"]) for r in body["rows"]]


def read_back(path: Path) -> list[tuple]:
    """``arbiter standings FILE --json``, no option: what the file says is all it has."""
    rows = json.loads(arbiter("standings", path, "--json"))
    return [(r["rank"], r["start"], r["points"], r["tiebreaks"], r.get("shown", {})) for r in rows]


@pytest.mark.parametrize("endpoint", ["trf", "trf16"])
@pytest.mark.parametrize("kind", sorted(TOURNAMENTS))
def test_the_export_reads_back_to_the_pages_table(client, svc, tmp_path, kind, endpoint):
    story = TOURNAMENTS[kind](svc)
    path = tmp_path / f"{kind}.trf"
    path.write_text(client.get(f"/tournaments/{story.id}/{endpoint}").get_data(as_text=True))
    table = page_table(client, story.id)
    assert len(table) >= 4
    assert read_back(path) == table


def test_the_platform_bye_is_no_won_game_when_read_back(client, svc, tmp_path):
    """The reported bug: WIN 2 on the page, 3 from the export read back. The bye rule travels in
    ``XAR BYES NO-OPPONENT``; without it C.07's reading counts the bye as a won game again."""
    story = platform_swiss_with_a_bye(svc)
    text = client.get(f"/tournaments/{story.id}/trf").get_data(as_text=True)
    lines = text.splitlines()
    assert "XAR BYES NO-OPPONENT" in lines and "XAR SHOWN BH, SB" in lines
    assert "162  W 2.0    D 1.0    L 0.0    Z 0.0    P 2.0" in lines and "202 BH/C1, SB, WIN" in lines
    page = {seed: tiebreaks for _, seed, _, tiebreaks, _ in page_table(client, story.id)}
    assert page[3]["WIN"] == 1  # a win over seed 1 in round 2; the bye of round 1 is no won game
    path = tmp_path / "platform.trf"
    path.write_text(text)
    assert {row[1]: row[3] for row in read_back(path)}[3]["WIN"] == 1
    path.write_text("\n".join(line for line in lines if not line.startswith("XAR")) + "\n")
    assert {row[1]: row[3] for row in read_back(path)}[3]["WIN"] == 2  # C.07's dummy opponent


@pytest.mark.parametrize("endpoint", ["trf", "trf16"])
def test_the_platforms_definitions_of_bh_and_sb_travel_with_the_export(client, svc, tmp_path, endpoint):
    """RULES.md §2: SB is the beaten opponents' points plus half the drawn ones' (C.07's product on 2-1-0
    is twice that). ``XAR DEFINITIONS PLATFORM`` says so; without the XAR records the file reads with C.07's."""
    story = six_player_round_robin(svc)  # 4: beat 6 (5), 2 (5), 3 (4) → SB 14; C.07: 2 x 14 = 28
    text = client.get(f"/tournaments/{story.id}/{endpoint}").get_data(as_text=True)
    lines = text.splitlines()
    assert "XAR DEFINITIONS PLATFORM" in lines
    assert {row[1]: row[4] for row in page_table(client, story.id)}[4] == {"SB": 14}
    path = tmp_path / "platform.trf"
    path.write_text(text)
    assert {row[1]: row[4] for row in read_back(path)}[4] == {"SB": 14}
    path.write_text("\n".join(line for line in lines if not line.startswith("XAR")) + "\n")
    rows = json.loads(arbiter("standings", path, "--json", "--tiebreaks", "SB", "--pairing", "round-robin"))
    assert next(r for r in rows if r["start"] == 4)["tiebreaks"]["SB"] == 28  # C.07's reading
    path.write_text("\n".join(line for line in lines if line != "XAR DEFINITIONS PLATFORM") + "\n")
    rows = json.loads(arbiter("standings", path, "--json", "--preset", "platform-round-robin"))
    assert next(r for r in rows if r["start"] == 4)["shown"]["SB"] == 14  # the preset says it too


def test_the_trf16_carries_the_tiebreaks_in_its_extension(client, svc):
    story = six_player_round_robin(svc)
    lines = client.get(f"/tournaments/{story.id}/trf16").get_data(as_text=True).splitlines()
    assert "XAR TIEBREAKS WIN, DE, SNO" in lines and "XAR SHOWN SB" in lines
    assert not any(line.startswith(("202", "142", "162")) for line in lines)


def test_the_headers_an_organiser_has(client, svc):
    story = rapid_open(svc, upto=2)
    for endpoint in ("trf16", "trf"):
        lines = client.get(f"/tournaments/{story.id}/{endpoint}").get_data(as_text=True).splitlines()
        heads = [line for line in lines if line[:3].isdigit() and line[:3] != "001"]
        assert [line[:3] for line in heads][:12] == [
            "012", "022", "032", "042", "052", "062", "072", "092", "102", "112", "112", "122",
        ]  # fmt: skip
        assert heads[:12] == [
            "012 Bern Rapid Open",
            "022 Bern",
            "032 SUI",
            "042 2026/02/21",
            "052 2026/02/22",
            "062 10",
            "072 10",
            "092 Swiss",
            "102 IA Hans Muster 1300100",
            "112 FA Eva Beispiel 1300101",
            "112 NA Urs Probe",
            "122 15+10",
        ]
        dates = next(line for line in heads if line.startswith("132"))
        assert dates[91:99] == "26/06/01" and dates[101:109] == "26/06/01"  # each round's day
        one = next(line for line in lines if line.startswith("001    1"))
        assert (one[10:13].strip(), one[53:56], one[57:68].strip()) == ("g", "GER", "1300001")
    assert "XAR LOTS " + str(story.id) in lines and "XAR BYES OPPONENT" in lines


# -- CSV and PDF of the standings, the crosstable and the pairing lists --------------------------------


def csv_rows(response) -> list[list[str]]:
    assert response.status_code == 200 and response.mimetype == "text/csv"
    return list(csv.reader(io.StringIO(response.get_data(as_text=True))))


def pdf_text(response) -> str:
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    assert response.headers["Content-Disposition"].startswith('attachment; filename="')
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(response.data)).pages)


def test_the_csv_files_are_the_tables(client, svc):
    story = platform_swiss_with_a_bye(svc)
    table = client.get(f"/tournaments/{story.id}/standings").json
    response = client.get(f"/tournaments/{story.id}/standings.csv")
    assert response.headers["Content-Disposition"] == f'attachment; filename="{story.id}-standings.csv"'
    got = csv_rows(response)
    assert got[0][:9] == ["Rank", "Place", "SNo", "Title", "Name", "FED", "FIDE ID", "Rtg", "Pts"]
    assert got[0][9:14] == ["BH-C1", "SB", "WIN", "BH", "Status"]
    assert [(int(r[0]), int(r[2]), r[4], float(r[8]), *map(float, r[9:13])) for r in got[1:]] == [
        (row["rank"], row["seed"], row["name"], row["points"], *row["tiebreaks"].values(), row["shown"]["BH"])
        for row in table["rows"]
    ]

    cross = client.get(f"/tournaments/{story.id}/crosstable").json
    got = csv_rows(client.get(f"/tournaments/{story.id}/crosstable.csv"))
    assert got[0] == [
        "Place",
        "Rank",
        "SNo",
        "Title",
        "Name",
        "FED",
        "Rtg",
        "R1",
        "R2",
        "R3",
        "Pts",
        "Status",
    ]
    assert [(int(r[2]), r[4], r[7:10], float(r[10])) for r in got[1:]] == [
        (row["seed"], row["name"], [cell(c) for c in row["rounds"]], row["points"]) for row in cross["rows"]
    ]
    assert got[1][2:5] + got[1][7:11] == ["3", "", "Player 3", "bye", "3w1", "2b½", "5"]

    pairings = csv_rows(client.get(f"/tournaments/{story.id}/pairings.csv"))
    expected = []
    for number in (1, 2, 3):
        rnd = client.get(f"/tournaments/{story.id}/rounds/{number}").json
        boards = [
            [number, g["board"], g["white"]["seed"], g["result"], g["black"]["seed"]] for g in rnd["games"]
        ]
        byes = [[number, "", b["player"]["seed"], f"{b['points']:g}", ""] for b in rnd["byes"]]
        expected += boards + byes
    assert [[_int(r[0]), _int(r[1]), _int(r[3]), r[6], _int(r[7])] for r in pairings[1:]] == expected
    assert pairings[3] == ["1", "", "", "3", "Player 3", "0", "2", "", "", "", "pairing_allocated"]
    one = csv_rows(client.get(f"/tournaments/{story.id}/rounds/2/pairings.csv"))
    assert one == [pairings[0], *(r for r in pairings[1:] if r[0] == "2")]


def _int(text: str) -> int | str:
    return int(text) if text.isdigit() else text


def cell(c: dict) -> str:
    if c["bye"]:
        return "bye"
    return "" if c["opponent_place"] is None else f"{c['opponent_place']}{c['colour']}{c['result']}"


def test_the_pdf_files_are_the_printed_pages(client, svc):
    story = rapid_open(svc)
    table = client.get(f"/tournaments/{story.id}/standings").json
    text = pdf_text(client.get(f"/tournaments/{story.id}/standings.pdf"))
    lines = text.splitlines()
    assert "Bern Rapid Open" in lines[0]
    for row in table["rows"]:  # each row: rank, number, title, name, federation, ..., points, tie-breaks
        line = next(line for line in lines if f" {row['name']} " in f" {line} ")
        values = [f"{row['points']:g}", *(f"{v:g}" for v in row["tiebreaks"].values())]
        assert line.split()[-len(values) :] == values, line
    cross = pdf_text(client.get(f"/tournaments/{story.id}/crosstable.pdf"))
    assert all(row["name"] in cross for row in table["rows"]) and "Crosstable" in cross
    pairings = pdf_text(client.get(f"/tournaments/{story.id}/pairings.pdf"))
    assert [f"Round {n} of 5" in pairings for n in range(1, 6)] == [True] * 5
    one = pdf_text(client.get(f"/tournaments/{story.id}/rounds/3/pairings.pdf"))
    assert "Round 3 of 5" in one and "Round 2 of 5" not in one
    for g in client.get(f"/tournaments/{story.id}/rounds/3").json["games"]:  # a line a board
        line = next(line for line in one.splitlines() if f" {g['white']['name']} " in f" {line} ")
        white, black = line.index(g["white"]["name"]), line.rindex(g["black"]["name"])
        assert white < line.index(f" {g['result']} ") < black, line


def test_the_downloads_answer_problems(client, svc):
    for path in ("standings", "crosstable", "pairings"):
        for kind in ("csv", "pdf"):
            problem(client.get(f"/tournaments/{uuid.uuid4()}/{path}.{kind}"), 404, "tournament-not-found")
    story = platform_swiss_with_a_bye(svc)
    for kind in ("csv", "pdf"):
        problem(client.get(f"/tournaments/{story.id}/rounds/9/pairings.{kind}"), 404, "round-not-found")
    knockout = six_player_knockout(svc)
    for path in ("standings.csv", "crosstable.pdf", "pairings.csv", "pairings.pdf"):
        problem(client.get(f"/tournaments/{knockout.id}/{path}"), 409, "not-a-table")


def test_the_downloads_are_documented(client):
    spec = client.get("/openapi.json").json["paths"]
    for path, kind in (
        ("standings.csv", "text/csv"),
        ("standings.pdf", "application/pdf"),
        ("crosstable.csv", "text/csv"),
        ("crosstable.pdf", "application/pdf"),
        ("pairings.csv", "text/csv"),
        ("pairings.pdf", "application/pdf"),
        ("rounds/{number}/pairings.csv", "text/csv"),
        ("rounds/{number}/pairings.pdf", "application/pdf"),
    ):
        answers = spec["/tournaments/{tournament_id}/" + path]["get"]["responses"]
        assert kind in answers["200"]["content"]
        assert "application/problem+json" in answers["404"]["content"]
        assert ("409" in answers) == (not path.startswith("rounds"))


def test_the_service_starts_without_weasyprint():
    """PDF's libraries load with the first PDF asked for, not with the service (start-up time)."""
    code = "import sys, services.standings.entrypoints.app; print('weasyprint' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "False", done.stderr
