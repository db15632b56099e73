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


def test_the_demo_plays_a_draughts_swiss_with_table_openings_and_a_busy_player_as_json():
    """`arbiter demo --variant english --opening table-all --json`: one JSON document (the issue's keys)."""
    import json

    from shared.openings import english_table

    args = ["demo", "--players", "8", "--variant", "english", "--opening", "table-all", "--json"]
    result = CliRunner().invoke(build_cli(), args)
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert set(report) == {"rated", "rounds", "final"}
    assert (
        report["rated"] is False
    )  # English table openings have no balance class: friendly (docs/openings.md)
    assert len(report["rounds"]) == 4  # a Swiss of 8: ceil(log2 8) + 1
    codes = {o.code for o in english_table().openings}
    games = [g for rnd in report["rounds"] for g in rnd]
    assert all(set(g) == {"white", "black", "result", "opening"} for g in games)
    assert all(g["opening"] in codes for g in games)
    assert len({g["opening"] for g in games}) == len(games)  # never twice in a Swiss
    busy = [g for g in report["rounds"][1] if g["result"] in ("+/-", "-/+")]
    assert len(busy) == 1  # the player busy elsewhere when round 2 was paired lost by forfeit
    ranks, points = [row["rank"] for row in report["final"]], [row["points"] for row in report["final"]]
    assert (
        len(ranks) == 8
        and ranks[0] == 1
        and ranks == sorted(ranks)
        and points == sorted(points, reverse=True)
    )
    assert all(set(row) == {"player", "rank", "points"} for row in report["final"])


def test_the_demo_refuses_an_opening_the_variant_cannot_draw():
    result = CliRunner().invoke(build_cli(), ["demo", "--variant", "chess", "--opening", "table-2"])
    assert result.exit_code == 2
    assert "--opening" in result.output and "English and Italian draughts" in result.output
    assert "Traceback" not in result.output
