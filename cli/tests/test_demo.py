"""`arbiter demo --ruleset knockout|double-knockout`: a whole knockout in one process, to its placing."""

from __future__ import annotations

import itertools
import json
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
        build_cli(), ["demo", "--ruleset", ruleset, "--players", str(players)], terminal_width=160
    )
    assert result.exit_code == 0, result.output
    assert f"Arbiter demo {ruleset}: {players} players seeded by rating" in result.output
    placing = result.output[result.output.index("Final placing") :]
    rows = re.findall(r"^│\s+(\d+(?:–\d+)?) │\s+(\d+) │", placing, flags=re.M)
    assert [place for place, _seed in rows] == places
    assert sorted(int(seed) for _place, seed in rows) == list(range(1, players + 1))


def test_the_demo_plays_a_draughts_swiss_with_table_openings_and_a_busy_player_as_json():
    """`arbiter demo --variant english --opening table-all --json`: one JSON document (the issue's keys)."""
    from shared.openings import english_table

    args = ["demo", "--players", "8", "--variant", "english", "--opening", "table-all", "--json"]
    result = CliRunner().invoke(build_cli(), args)
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert {"rated", "rounds", "final"} <= set(
        report
    )  # what independent checkers read (issue 22: only added to)
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
    assert all({"player", "rank", "points"} <= set(row) for row in report["final"])


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
    would change who went through is refused, since that player's semi-final already has a result.
    Every game is written White first (issue 22): ``4–1 -/+`` is seed 4 with White, who forfeited."""
    result = CliRunner().invoke(
        build_cli(), ["demo", "--ruleset", "knockout", "--players", "6"], env={"COLUMNS": "240"}
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
    semi = re.search(
        rf"Semi-finals\s+│ {opponent} \({opponent_seed}\)\s+│ 2–0\s+│ {name} \({seed}\)\s+│ (.*?)\s+│ {opponent}",
        out,
    )
    assert semi, out
    assert _forfeits_won_by(semi[1], opponent_seed, seed), semi[1]
    # the chain goes on: with no current match, they lose the third-place match when it is paired
    third = re.search(rf"Third-place match\s+│ {name} \({seed}\)\s+│ 0–2\s+│ \w+ \((\d)\)\s+│ (.*?)\s+│", out)
    assert third, out
    assert _forfeits_won_by(third[2], third[1], seed), third[2]
    refused = re.search(
        r"^Correction asked: Game \d of (winners:1:\d) \((\w+) v (\w+)\) (1-0|0-1) → (1-0|0-1), which would no "
        r"longer put (\w+) through; (\w+)'s next match, (winners:2:\d), already has a result\.\n"
        r"Correction refused \(409 correction-changes-advancement, match (winners:1:\d)\): .*\1.*\8",
        out,
        flags=re.M,
    )
    assert refused, out
    first, white, black, outcome, flipped, through, again, next_match, named = refused.groups()
    assert outcome != flipped and through == again and first == named
    assert through == (white if outcome == "1-0" else black)  # White v Black, White's result first
    assert next_match != match  # the player whose match was forfeited is not the one corrected


def _forfeits_won_by(games: str, winner: str, loser: str) -> bool:
    """``games`` (a knockout row's: ``1–4 +/-, 4–1 -/+``, White–Black by seed, White's result first) are
    every one of them a forfeit won by ``winner`` over ``loser``."""
    found = re.findall(r"(\d)–(\d) ([-+/]+)", games)
    return len(found) == 2 and all(
        {white, black} == {winner, loser} and result == ("+/-" if white == winner else "-/+")
        for white, black, result in found
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--ruleset", "knockout", "--json"],
            "--json is offered for --ruleset platform, --ruleset group-playoff and --ruleset arena",
        ),
        (["--ruleset", "fide-rapid", "--variant", "english"], "--variant goes with --ruleset platform"),
        (
            ["--ruleset", "knockout", "--opening", "random-1"],
            "openings are drawn in platform tournaments only",
        ),
        (["--trf", "final.trf"], "--trf goes with --ruleset fide-rapid"),
    ],
)
def test_the_demo_refuses_options_of_another_format(args, message):
    result = CliRunner().invoke(build_cli(), ["demo", *args])
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output


RESULTS = {"1-0", "½-½", "0-1", "+/-", "-/+", "-/-"}  # White first, a draw ½-½ (issue 22)


def _demo(*args: str) -> str:
    result = CliRunner().invoke(build_cli(), ["demo", *args], terminal_width=200)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize(
    "args",
    [["--opening", "random-1"], ["--opening", "random-3"], ["--variant", "russian", "--opening", "random-1"]],
)
def test_the_demo_plays_from_whichever_side_the_opening_leaves_to_move(args):
    """Issue 22: a drawn opening of an odd number of plies leaves Black to move; the clocks rightly
    refuse White's move, and the demo stopped after round 1 ("round 1 ended but nothing followed it").
    It asks the game who moves, and plays the round robin of six to its end."""
    report = json.loads(_demo("--players", "6", *args, "--json"))
    games = [g for rnd in report["rounds"] for g in rnd]
    assert len(report["rounds"]) == 5 and len(games) == 15
    assert all(g["result"] in RESULTS for g in games), games
    assert all(g["opening"] for g in games if g["result"] in ("1-0", "½-½", "0-1"))
    assert report["final"][0]["rank"] == 1 and len(report["final"]) == 6


def test_the_side_to_move_first_is_the_game_s_own():
    """The clock's side to move while it runs, else the board's in the starting position (the opening's)."""
    from cli.demos.platform import first_to_move

    after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    game = {"variant": "chess", "moves": 0, "position": start, "opening": {"fen": after_e4}}
    assert first_to_move(game | {"clock": {"to_move": "black"}}) == "black"
    assert first_to_move(game | {"clock": {"to_move": None}}) == "black"  # not started: the board says
    assert first_to_move(game | {"clock": {"to_move": None}, "opening": None}) == "white"


def _without_real_time(output: str) -> str:
    body, _, took = output.rpartition("\nFinished in ")
    assert took.endswith(" s of real time.\n"), output
    return body


@pytest.fixture(scope="module")
def seven_players() -> str:
    """``arbiter demo --players 7 --json`` (the default seed), run once for the tests that read it."""
    return _demo("--players", "7", "--json")


def test_the_same_seed_gives_the_same_platform_run(seven_players):
    """Issue 22: the tournament's id (which draws the first colour), the accounts' ids (the busy player
    is drawn among them) and the simulated start came from the machine, not from ``--seed``."""
    first = seven_players
    assert _demo("--players", "7", "--json", "--seed", "2026") == first  # 2026: the default
    assert _demo("--players", "7", "--json", "--seed", "7") != first
    text = _without_real_time(_demo("--players", "4", "--seed", "3"))
    assert _without_real_time(_demo("--players", "4", "--seed", "3")) == text
    assert "starts 09:05" in text  # the simulated clock starts at a fixed time


@pytest.mark.parametrize("ruleset", ["knockout", "double-knockout"])
def test_the_same_seed_gives_the_same_knockout(ruleset):
    """The colours of each match's first game are drawn by pairing: from the seed too (issue 22)."""
    first = _without_real_time(_demo("--ruleset", ruleset, "--players", "6", "--seed", "11"))
    assert _without_real_time(_demo("--ruleset", ruleset, "--players", "6", "--seed", "11")) == first


def test_the_platform_json_carries_the_byes_and_each_player_s_tie_breaks(seven_players):
    """Issue 22: with an odd field every round has a bye, and a shared rank shows why (equal points and
    tie-breaks); a lower rank is worse on points or the first tie-break that differs."""
    report = json.loads(seven_players)
    everyone = {row["player"] for row in report["final"]}
    assert [bye["round"] for bye in report["byes"]] == list(range(1, len(report["rounds"]) + 1))
    for rnd, bye in zip(report["rounds"], report["byes"], strict=True):
        playing = {g["white"] for g in rnd} | {g["black"] for g in rnd}
        assert bye["kind"] == "pairing_allocated" and bye["player"] not in playing
        assert playing | {bye["player"]} == everyone
    codes = report["tiebreaks"]
    assert codes == ["BH-C1", "SB", "WIN"]  # the platform Swiss preset, in ranking order
    assert all(list(row["tiebreaks"]) == codes for row in report["final"])

    def key(row: dict) -> tuple:
        return (row["points"], *(row["tiebreaks"][c] for c in codes))

    for above, below in itertools.pairwise(report["final"]):
        assert (key(above) == key(below)) == (above["rank"] == below["rank"]), (above, below)
        assert key(above) >= key(below)


def test_every_format_writes_results_white_first_with_a_draw_as_half_half():
    """One notation in every demo's text and JSON (issue 22): ``1-0``, ``½-½``, ``0-1``, never ``1/2-1/2``."""
    platform = _demo("--players", "4", "--seed", "5")
    knockout = _demo("--ruleset", "knockout", "--players", "4", "--seed", "5")
    arena = _demo("--ruleset", "arena", "--players", "4", "--minutes", "10", "--tc", "1+0", "--json")
    group_playoff = _demo("--ruleset", "group-playoff")  # its --json: cli/tests/test_demo_group_playoff.py
    for output in (platform, knockout, arena, group_playoff):
        assert "1/2" not in output
    assert re.search(r"│ ½-½ ", platform) and re.search(r"\d–\d ½-½", knockout) and "½-½" in group_playoff
    assert {g["result"] for g in json.loads(arena)["games"]} <= RESULTS


def test_format_is_the_hidden_old_name_of_ruleset():
    """``--format`` named the ruleset before ``--ruleset`` did (issue 24): scripts that still pass it run
    the same demo, the help shows only ``--ruleset``, and the two names cannot disagree."""
    old = _without_real_time(_demo("--format", "knockout", "--players", "4", "--seed", "5"))
    assert old == _without_real_time(_demo("--ruleset", "knockout", "--players", "4", "--seed", "5"))
    shown = CliRunner().invoke(build_cli(), ["demo", "--help"], terminal_width=200)
    assert shown.exit_code == 0 and "--ruleset" in shown.output and "--format" not in shown.output
    both = CliRunner().invoke(build_cli(), ["demo", "--ruleset", "arena", "--format", "knockout"])
    assert both.exit_code == 2 and "contradict each other" in both.output
