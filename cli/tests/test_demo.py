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


def test_the_knockout_demo_withdraws_a_player_and_is_refused_a_correction():
    """Issue 9's demo: a semi-finalist withdrawn as round 2 begins forfeits both games of the match (the
    forfeit chain), and the third-place match too when it is paired; then a correction of round 1 that
    would change who went through is refused, since that player's semi-final already has a result."""
    result = CliRunner().invoke(
        build_cli(), ["demo", "--format", "knockout", "--players", "6"], env={"COLUMNS": "240"}
    )
    assert result.exit_code == 0, result.output
    out = result.output
    withdrawal = re.search(
        r"^Withdrawal: (\w+) \((\d)\) is withdrawn by the organiser, reason \"fell ill\"\. "
        r"Forfeit chain: (winners:2:\d) goes to (\w+) \((\d)\) by forfeit: game 1 ([-+/]+), game 2 ([-+/]+) ",
        out,
        flags=re.M,
    )
    assert withdrawal, out
    name, seed, match, opponent, opponent_seed = withdrawal.groups()[:5]
    assert {withdrawal[6], withdrawal[7]} <= {"+/-", "-/+"} and withdrawal[6] != withdrawal[
        7
    ]  # colours alternate
    # the semi-final: the opponent goes through on two forfeit wins; the withdrawn player is last in round 2
    assert re.search(
        rf"Semi-finals\s+│ {opponent} \({opponent_seed}\)\s+│ 2–0\s+│ {name} \({seed}\)\s+│ \+/-, \+/-\s+│ {opponent}",
        out,
    ), out
    # the chain goes on: with no current match, they lose the third-place match when it is paired
    assert re.search(rf"Third-place match\s+│ {name} \({seed}\)\s+│ 0–2\s+│ .*│ -/\+, -/\+", out), out
    refused = re.search(
        r"^Correction asked: Game \d of (winners:1:\d) \((\w+) v \w+\) (1-0|0-1) → (1-0|0-1), which would no "
        r"longer put (\w+) through; (\w+)'s next match, (winners:2:\d), already has a result\.\n"
        r"Correction refused \(409 correction-changes-advancement, match (winners:1:\d)\): .*\1.*\7",
        out,
        flags=re.M,
    )
    assert refused, out
    assert refused[3] != refused[4] and refused[2] == refused[5] == refused[6] and refused[1] == refused[8]
    assert refused[7] != match  # the player whose match was forfeited is not the one corrected
