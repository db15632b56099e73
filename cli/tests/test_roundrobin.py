from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner, Result

from cli.main import build_cli
from tests.fixtures import FIXTURES

REFERENCE: dict[str, list[list[list[int]]]] = json.loads((FIXTURES / "berger" / "berger.json").read_text())
SIZES = sorted(int(n) for n in REFERENCE)


def run(*args: str) -> Result:
    return CliRunner().invoke(build_cli(), list(args))


def rounds_of(result: Result) -> Any:
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["rounds"]


@pytest.mark.parametrize("players", SIZES)
def test_json_is_the_fide_table(players: int) -> None:
    assert rounds_of(run("roundrobin", str(players), "--json")) == REFERENCE[str(players)]


@pytest.mark.parametrize("players", [n - 1 for n in SIZES])
def test_odd_field_shows_the_bye_as_zero(players: int) -> None:
    phantom = players + 1
    expected = [
        [[b, 0] if a == phantom else [a, 0] if b == phantom else [a, b] for a, b in rnd]
        for rnd in REFERENCE[str(phantom)]
    ]
    assert rounds_of(run("roundrobin", str(players), "--json")) == expected


def test_double_round_robin() -> None:
    table = REFERENCE["6"]
    expected = [*table[:-2], table[-1], table[-2], *[[[b, w] for w, b in rnd] for rnd in table]]
    assert rounds_of(run("roundrobin", "6", "--double", "--json")) == expected


@pytest.mark.parametrize("players", ["17", "18", "19", "20"])
def test_sizes_beyond_the_reference(players: str) -> None:
    rounds = rounds_of(run("roundrobin", players, "--json"))
    n = int(players)
    assert len(rounds) == n + n % 2 - 1
    assert all(len(rnd) == (n + 1) // 2 for rnd in rounds)


def test_readable_table() -> None:
    result = run("roundrobin", "5")
    assert result.exit_code == 0
    assert "Board 1" in result.output and "1 bye" in result.output and "2 - 5" in result.output
    assert not result.output.lstrip().startswith("{")


@pytest.mark.parametrize("players", ["2", "21", "0", "100"])
def test_player_count_out_of_range(players: str) -> None:
    result = run("roundrobin", players, "--json")
    assert result.exit_code == 2
    assert "3 to 20 players" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("args", [["roundrobin"], ["roundrobin", "x"], ["roundrobin", "6", "--triple"]])
def test_usage_errors(args: list[str]) -> None:
    result = run(*args)
    assert result.exit_code == 2 and "Error" in result.output
