"""The README's quickstart, taken from the README itself (the ``sh`` block after ``<!-- quickstart -->``)
and run by bash as a person would paste it, against the real stack: every line must succeed, and the
tournament it creates must end with the table its results give."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.stack import JWT_SECRET, Stack

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]


def quickstart() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    found = re.search(r"<!-- quickstart -->\n```sh\n(.*?)\n```", text, flags=re.S)
    assert found, "README.md: no ```sh block after <!-- quickstart -->"
    return found.group(1) + "\n"


def test_readme_quickstart_runs_a_tournament_to_its_end(stack: Stack, tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ARBITER_") and k != "XDG_CONFIG_HOME"}
    env |= {f"ARBITER_{service.upper()}_URL": url for service, url in stack.urls.items()}
    env |= {"ARBITER_JWT_SECRET": JWT_SECRET, "HOME": str(tmp_path), "COLUMNS": "80"}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"  # the venv's arbiter
    lines = quickstart()
    assert "ARBITER_" not in lines, "the quickstart relies on defaults a person has, not on variables"
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
    subprocess.run(["arbiter", "logout"], env=env, check=True, capture_output=True)


def _points(text: str) -> float:
    return float(text.replace("½", ".5")) if text != "½" else 0.5
