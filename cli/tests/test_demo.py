"""`arbiter demo --format knockout|double-knockout`: a whole knockout in one process, to its placing."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from cli.main import build_cli


@pytest.mark.parametrize(
    ("ruleset", "players", "places"),
    [
        ("knockout", 6, ["1", "2", "3", "4", "5–6", "5–6"]),  # with the third-place match
        ("double-knockout", 5, ["1", "2", "3", "4", "5"]),
    ],
)
def test_the_demo_runs_a_knockout_to_its_final_placing(ruleset, players, places):
    result = CliRunner().invoke(
        build_cli(), ["demo", "--format", ruleset, "--players", str(players)], terminal_width=160
    )
    assert result.exit_code == 0, result.output
    assert f"Arbiter demo {ruleset}: {players} players seeded by rating" in result.output
    placing = result.output[result.output.index("Final placing") :]
    rows = re.findall(r"^│\s+(\d+(?:–\d+)?) │\s+(\d+) │", placing, flags=re.M)
    assert [place for place, _seed in rows] == places
    assert sorted(int(seed) for _place, seed in rows) == list(range(1, players + 1))
