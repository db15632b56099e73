"""The README's quickstart, taken from the README itself (the ``sh`` block after ``<!-- quickstart -->``)
and run by bash as a person would paste it, against the real stack: every line must succeed, and the
tournament it creates must end with the table its results give. The same for the README's knockout from
the command line (``<!-- knockout -->``): draft, roster, seeding draw, start, reset, publish, a colour
swap, results, to the final placing. The knockout's block runs in a thread from the module's start,
while the quickstart's waits for its tournament to start and for its rounds."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import uuid
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pytest

from shared.http.auth import issue_token
from shared.testing.polling import wait_for
from tests.e2e.stack import JWT_SECRET, Stack
from tests.e2e.story import Story

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]


def quickstart(marker: str = "quickstart") -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    found = re.search(rf"<!-- {marker} -->\n```sh\n(.*?)\n```", text, flags=re.S)
    assert found, f"README.md: no ```sh block after <!-- {marker} -->"
    return found.group(1) + "\n"


def run_block(stack: Stack, home: Path, marker: str) -> str:
    """The README's block after ``<!-- marker -->`` pasted into bash -e: its standard output, each line
    no wider than 80 columns."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ARBITER_") and k != "XDG_CONFIG_HOME"}
    env |= {f"ARBITER_{service.upper()}_URL": url for service, url in stack.urls.items()}
    env |= {"ARBITER_JWT_SECRET": JWT_SECRET, "HOME": str(home), "COLUMNS": "80"}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"  # the venv's arbiter
    lines = quickstart(marker)
    assert "ARBITER_" not in lines, "the block relies on defaults a person has, not on variables"
    done = subprocess.run(
        ["bash", "-e", "-o", "pipefail", "-s"],
        input=lines,
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=420,
    )
    assert done.returncode == 0, f"stdout:\n{done.stdout}\nstderr:\n{done.stderr}\n{stack.diagnostics()}"
    out = done.stdout
    wide = [line for line in out.splitlines() if len(line) > 80]
    assert not wide, f"wider than 80 columns: {wide}\n{out}"
    subprocess.run(["arbiter", "logout"], env=env, check=True, capture_output=True)
    return out


@pytest.fixture(scope="module")
def knockout_block(stack: Stack, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Future[str]]:
    """The README's knockout block, running in a thread since the module's first test: its output."""
    with ThreadPoolExecutor(1, thread_name_prefix="readme-knockout") as pool:
        yield pool.submit(run_block, stack, tmp_path_factory.mktemp("knockout"), "knockout")


def test_readme_quickstart_runs_a_tournament_to_its_end(
    stack: Stack, tmp_path: Path, knockout_block: Future[str]
) -> None:
    out = run_block(stack, tmp_path, "quickstart")
    # before the start: the start time and the entries, by name
    assert re.search(r"Friday blitz \(platform, chess, 3\+2\): scheduled\nstarts \S+ \S+ UTC", out)
    assert "4 players entered" in out
    # every round's boards list both players by name and a game id the next line reports
    assert len(re.findall(r"Friday blitz: round \d \(", out)) == 3
    board = r"^\s*\d+(?:\.\d)?\s+[A-Z]\w+ [A-Z]\w+\s+[A-Z]\w+ [A-Z]\w+\s+(\S{36})$"  # Bd White Black Game
    listed = re.findall(board, out, flags=re.M)
    reported_ids = set(re.findall(r"^game (\S+): ", out, flags=re.M))
    assert set(listed) == reported_ids, out  # what was listed was reported
    # the final table: three rounds, 1-0 then draws then forfeit wins for Black
    final = out[out.rindex("Friday blitz (platform") :]
    assert "completed" in final and "final standings" in final
    rows = re.findall(r"^\s*(\d)\s+(\d)\s+(\w+ \w+)\s+(\S+)", final, flags=re.M)
    assert sorted(name for *_, name, _ in rows) == ["Ann Archer", "Bob Brown", "Cid Clark", "Dora Diaz"]
    reported = re.findall(r"^game \S+: (\S+) \(reported\)$", out, flags=re.M)
    assert len(reported) >= 6
    assert sum(_points(p) for *_, p in rows) == 2 * len(reported)  # platform scoring: 2 points a game


def test_readme_knockout_runs_from_its_draft_to_its_placing(
    stack: Stack, knockout_block: Future[str]
) -> None:
    """Issue 22: a knockout from the command line. White wins every game (``1-0``), so each match goes
    to the player with White, the swapped game's new White included; the reset's round 1 is gone."""
    out = knockout_block.result(timeout=600)
    published = re.search(r"^round 1 of (\S+) published: 2 matches$", out, flags=re.M)
    assert published, out
    tid = published[1]
    assert re.search(r"^seeding of Club cup drawn \(draw seed \d+\):$", out, flags=re.M), out
    assert f"{tid} is a draft again" in out
    assert f"round 2 of {tid} published: 2 matches" in out
    swapped = re.search(
        r"^game (\S+): colours swapped\n  White (\w+) Knight, Black (\w+) Knight$", out, flags=re.M
    )
    assert swapped, out
    story = Story(stack)
    bracket = wait_for(
        lambda: (b := story.bracket(uuid.UUID(tid)))["completed"] and b, timeout=60, what="the final placing"
    )
    matches = [m for s in bracket["sections"] for r in s["rounds"] for m in r["matches"]]
    assert [m["match_id"] for m in matches] == [
        "winners:1:1",
        "winners:1:2",
        "winners:2:1",
        "third_place:1:1",
    ]
    for m in matches:
        (game,) = m["games"]
        assert game["result"] == "1-0" and m["winner"] == game["white"], m
    names = {p["seed"]: p["name"] for p in bracket["seeding"]}
    game = next(g for m in matches for g in m["games"] if g["game_id"] == swapped[1])
    assert (names[game["white"]], names[game["black"]]) == (f"{swapped[2]} Knight", f"{swapped[3]} Knight")
    assert [p["place"] for p in bracket["placing"]] == ["1", "2", "3", "4"]
    assert bracket["format"]["seeding"] == "random" and bracket["format"]["third_place"] is True
    organiser = issue_token(
        JWT_SECRET, uuid.UUID(story.tournament(uuid.UUID(tid))["organiser_id"]), {"player"}
    )
    audit = story.call("registration", "GET", f"/tournaments/{tid}/audit", token=organiser)
    kinds = [e["kind"] for e in audit["entries"]]
    assert {"seeding_drawn", "tournament_reset", "colours_swapped"} <= set(kinds), kinds
    assert "Club cup (knockout, chess, 10+5)" in out and "Semi-finals" in out


def _points(text: str) -> float:
    return float(text.replace("½", ".5")) if text != "½" else 0.5
