from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from cli.main import build_cli
from tests.fixtures import FIXTURES

REFERENCE_FILES = [
    p
    for p in sorted((FIXTURES / "brackets").glob("*.json"))
    if not p.stem.endswith("except_first_grand_final")
]


def run(*args: str) -> Result:
    return CliRunner().invoke(build_cli(), list(args))


def rounds_of(result: Result) -> Any:
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["rounds"]


def reference_args(ref: dict[str, Any]) -> list[str]:
    simulate = "higher" if ref["scenario"] == "higher_seed_wins" else "lower"
    if ref["format"] == "single_elimination":
        args = ["bracket", "single", str(ref["players"])]
        args += ["--third-place"] if ref["third_place_match"] else []
    else:
        args = ["bracket", "double", str(ref["players"]), "--grand-final", ref["grand_final"]]
    return [*args, "--simulate", simulate, "--json"]


@pytest.mark.parametrize("path", REFERENCE_FILES, ids=lambda p: p.stem)
def test_simulation_is_the_reference(path: Path) -> None:
    ref = json.loads(path.read_text())
    assert rounds_of(run(*reference_args(ref))) == ref["rounds"]


def test_before_any_result_only_what_is_known() -> None:
    rounds = rounds_of(run("bracket", "double", "10", "--json"))
    # README example: round 1 for N = 10; the byes' owners are already in round 2.
    assert rounds["winners"][0] == [
        [1, None],
        [8, 9],
        [4, None],
        [5, None],
        [2, None],
        [7, 10],
        [3, None],
        [6, None],
    ]
    assert rounds["winners"][1] == [[1, None], [4, 5], [2, None], [3, 6]]
    assert rounds["winners"][2:] == [[[None, None]] * 2, [[None, None]]]
    assert [len(r) for r in rounds["losers"]] == [4, 4, 2, 2, 1, 1]
    assert all(m == [None, None] for r in rounds["losers"] for m in r)
    # The second final may still be needed, so it is listed.
    assert rounds["grand_final"] == [[[None, None]], [[None, None]]]
    assert "third_place" not in rounds


def test_sections_follow_the_options() -> None:
    assert set(rounds_of(run("bracket", "single", "8", "--json"))) == {"winners"}
    assert set(rounds_of(run("bracket", "single", "8", "--third-place", "--json"))) == {
        "winners",
        "third_place",
    }
    single_gf = rounds_of(run("bracket", "double", "8", "--grand-final", "simple", "--json"))
    assert single_gf["grand_final"] == [[[None, None]]]


def test_simulated_knockout_by_hand() -> None:
    rounds = rounds_of(run("bracket", "single", "4", "--third-place", "--simulate", "lower", "--json"))
    assert rounds == {"winners": [[[1, 4], [2, 3]], [[4, 3]]], "third_place": [[[1, 2]]]}


def test_simulated_double_knockout_by_hand() -> None:
    rounds = rounds_of(run("bracket", "double", "4", "--simulate", "higher", "--json"))
    assert rounds == {
        "winners": [[[1, 4], [2, 3]], [[1, 2]]],
        "losers": [[[4, 3]], [[2, 3]]],
        "grand_final": [[[1, 2]]],
    }


def test_largest_fields() -> None:
    single = rounds_of(run("bracket", "single", "128", "--simulate", "higher", "--json"))
    assert [len(r) for r in single["winners"]] == [64, 32, 16, 8, 4, 2, 1] and single["winners"][-1] == [
        [1, 2]
    ]
    double = rounds_of(run("bracket", "double", "64", "--simulate", "higher", "--json"))
    assert len(double["losers"]) == 10 and double["grand_final"] == [[[1, 2]]]


def test_readable_output() -> None:
    result = run("bracket", "double", "5")
    assert result.exit_code == 0
    for text in ("Winners' bracket", "Losers' bracket", "Grand final", "1 v bye", "bye v bye", "4 v 5"):
        assert text in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["bracket", "single", "3"], "4 to 128"),
        (["bracket", "single", "129"], "4 to 128"),
        (["bracket", "double", "65"], "4 to 64"),
        (["bracket", "double", "2"], "4 to 64"),
        (["bracket", "single", "8", "--grand-final", "double"], "--grand-final applies to a double knockout"),
        (["bracket", "double", "8", "--third-place"], "--third-place applies to a knockout"),
        (["bracket", "triple", "8"], "'triple' is not one of"),
        (["bracket", "single", "eight"], "not a valid integer"),
        (["bracket", "single", "8", "--simulate", "best"], "'best' is not one of"),
        (["bracket", "double", "8", "--grand-final", "reset"], "'reset' is not one of"),
        (["bracket", "single"], "Missing argument"),
    ],
)
def test_errors_exit_2_with_a_message(args: list[str], message: str) -> None:
    result = run(*args, "--json")
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def test_console_script_exit_code() -> None:
    # The real entry point, as a user runs it: a clear message on stderr, exit 2, no traceback.
    proc = subprocess.run(
        [sys.executable, "-m", "cli.main", "bracket", "double", "100", "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert "a double knockout takes 4 to 64 players, not 100" in proc.stderr
    assert "Traceback" not in proc.stderr and proc.stdout == ""
