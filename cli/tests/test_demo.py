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
    assert all(
        set(g) == {"white", "black", "result", "opening", "leg", "started_at", "finished_at"} for g in games
    )
    assert {g["leg"] for g in games} == {1}
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


def test_the_four_player_demo_plays_each_pairings_legs_one_after_the_other():
    """`arbiter demo --players 4 --json`: double rounds (RULES.md §2), every leg 2 started when its leg 1
    ended, never before; its table shows each leg's start and end."""
    import datetime as dt
    import json

    result = CliRunner().invoke(build_cli(), ["demo", "--players", "4", "--json"])
    assert result.exit_code == 0, result.output
    rounds = json.loads(result.stdout)["rounds"]
    assert len(rounds) == 3 and all(len(r) == 4 for r in rounds)
    for games in rounds:
        firsts = {(g["white"], g["black"]): g for g in games if g["leg"] == 1}
        for second in (g for g in games if g["leg"] == 2):
            first = firsts[(second["black"], second["white"])]  # the same pairing, colours swapped
            if second["started_at"] is None:  # not played: a forfeit (busy), ended with its leg 1
                assert second["finished_at"] == first["finished_at"] and second["result"] in ("+/-", "-/+")
                continue
            assert second["started_at"] == first["finished_at"] or dt.datetime.fromisoformat(
                second["started_at"]
            ) > dt.datetime.fromisoformat(first["finished_at"])
            assert dt.datetime.fromisoformat(first["started_at"]) < dt.datetime.fromisoformat(
                first["finished_at"]
            )
    table = CliRunner().invoke(build_cli(), ["demo", "--players", "4"], env={"COLUMNS": "160"}).output
    assert re.search(r"┃ Start\s+┃ End\s+┃", table)
    assert len(re.findall(r"^│ +\db │.*│ (?:\d\d:\d\d:\d\d|—) +│ \d\d:\d\d:\d\d │$", table, flags=re.M)) == 6


def test_the_demo_refuses_an_opening_the_variant_cannot_draw():
    result = CliRunner().invoke(build_cli(), ["demo", "--variant", "chess", "--opening", "table-2"])
    assert result.exit_code == 2
    assert "--opening" in result.output and "English and Italian draughts" in result.output
    assert "Traceback" not in result.output


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


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--format", "knockout", "--json"],
            "--json is offered for --format platform, --format group-playoff and --format arena",
        ),
        (["--format", "fide-rapid", "--variant", "english"], "--variant goes with --format platform"),
        (
            ["--format", "knockout", "--opening", "random-1"],
            "openings are drawn in platform tournaments only",
        ),
        (["--trf", "final.trf"], "--trf goes with --format fide-rapid"),
    ],
)
def test_the_demo_refuses_options_of_another_format(args, message):
    result = CliRunner().invoke(build_cli(), ["demo", *args])
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output
