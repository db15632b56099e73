"""``arbiter generate`` and ``arbiter check --dutch``: files, output, exit codes, standard input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cli.main import build_cli, main
from tests.fixtures import FIXTURES

DUTCH = FIXTURES / "dutch"


def run(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(build_cli(), list(args), input=stdin)


def generated(tmp_path: Path, *options: str) -> Path:
    path = tmp_path / "generated.trf"
    result = run("generate", *options, "-o", str(path))
    assert result.exit_code == 0, result.output
    return path


# -- generate ---------------------------------------------------------------------------------------


def test_generate_writes_a_tournament_paired_round_by_round(tmp_path: Path) -> None:
    path = generated(tmp_path, "--players", "15", "--rounds", "5", "--seed", "3")
    lines = path.read_text().splitlines()
    players = [line for line in lines if line.startswith("001")]
    assert len(players) == 15
    assert all(len(line) == 91 + 10 * 4 + 8 for line in players)  # five rounds of blocks
    assert "XXR 5" in lines and any(line.startswith("XXC ") for line in lines)
    assert run("check", "--dutch", str(path)).exit_code == 0


def test_the_same_seed_gives_the_same_file(tmp_path: Path) -> None:
    options = ["--players", "21", "--rounds", "6", "--forfeit-rate", "0.1", "--bye-rate", "0.1"]
    first = run("generate", *options, "--seed", "7").output
    assert first == run("generate", *options, "--seed", "7").output
    assert first != run("generate", *options, "--seed", "8").output


@pytest.mark.parametrize(
    "options",
    [
        ["--players", "11", "--rounds", "5"],
        ["--players", "30", "--rounds", "7", "--scoring", "2-1-0", "--accelerated"],
        [
            "--players",
            "16",
            "--rounds",
            "6",
            "--forfeit-rate",
            "0.1",
            "--bye-rate",
            "0.1",
            "--absent-rate",
            "0.05",
        ],
    ],
)
def test_a_generated_file_reads_back_byte_identical(tmp_path: Path, options: list[str]) -> None:
    path = generated(tmp_path, *options)
    result = run("trf", str(path))
    assert result.exit_code == 0
    assert result.output == path.read_text()


def test_scoring_and_acceleration_are_declared_for_both_readers(tmp_path: Path) -> None:
    lines = generated(
        tmp_path, "--players", "10", "--rounds", "5", "--scoring", "2-1-0", "--accelerated"
    ).read_text()
    assert "XXS W=2.0 D=1.0 PAB=2.0" in lines  # JaVaFo
    assert "BBW  2.0" in lines and "BBD  1.0" in lines  # bbpPairings: the value in columns 5-8
    # Baku: group A is the first half rounded up to an even number (6 of 10); a win's points in
    # the first 2 rounds, a draw's in the 3rd (the first half of the rounds, rounded up, is 3)
    assert "XXA    6  2.0  2.0  1.0" in lines and "XXA    7" not in lines


def test_rates_show_in_the_file(tmp_path: Path) -> None:
    text = generated(
        tmp_path,
        "--players",
        "40",
        "--rounds",
        "7",
        "--forfeit-rate",
        "0.2",
        "--bye-rate",
        "0.2",
        "--absent-rate",
        "0.05",
    ).read_text()
    for block in (" w +", " b -", "0000 - H", "0000 - Z", "0000 - U"):
        assert block in text


def test_generate_to_standard_output() -> None:
    result = run("generate", "--players", "6", "--rounds", "3")
    assert result.exit_code == 0 and result.output.startswith("012 Random Dutch tournament (seed 1)")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "1", "--rounds", "3"], "Invalid value for '--players'"),
        (["--players", "8", "--rounds", "0"], "Invalid value for '--rounds'"),
        (["--players", "8", "--rounds", "3", "--draw-rate", "1.5"], "Invalid value for '--draw-rate'"),
        (["--players", "8", "--rounds", "3", "--scoring", "3-1-0"], "Invalid value for '--scoring'"),
        (["--rounds", "3"], "Missing option '--players'"),
    ],
)
def test_bad_options_exit_2(args: list[str], message: str) -> None:
    result = run("generate", *args)
    assert result.exit_code == 2
    assert result.output.startswith("Error: ") and message in result.output


def test_a_round_that_cannot_be_paired_exits_1(tmp_path: Path) -> None:
    # five players cannot play six rounds without a rematch
    result = run("generate", "--players", "5", "--rounds", "6", "-o", str(tmp_path / "x.trf"))
    assert result.exit_code == 1
    assert result.output.startswith("Error: round ") and "cannot be paired" in result.output
    assert not (tmp_path / "x.trf").exists()


# -- check ------------------------------------------------------------------------------------------


def _deviating(tmp_path: Path) -> Path:
    """Reference case 017 with its round 4 paired as bbpPairings paired it, but the opponents
    of the first two boards exchanged."""
    games = [(1, 3), (6, 2), (4, 7), (10, 5), (12, 11)]
    blocks: dict[int, str] = {8: "0000 - U"}
    for white, black in games:
        blocks[white] = f"{black:4d} w ="
        blocks[black] = f"{white:4d} b ="
    lines = []
    for line in (DUTCH / "017.trf").read_text().splitlines():
        if line.startswith("001"):
            start = int(line[4:8])
            line = line.ljust(91 + 10 * 3 - 2) + "  " + blocks[start] if start in blocks else line
        lines.append(line)
    path = tmp_path / "deviating.trf"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_check_a_file_whose_rounds_all_match(tmp_path: Path) -> None:
    result = run("check", "--dutch", str(DUTCH / "017.trf"))
    assert result.exit_code == 0
    assert result.output.splitlines() == [
        "round 1: ok",
        "round 2: ok",
        "round 3: ok",
        "round 4: not paired",  # only half-point byes requested for it
        "3 rounds checked: 3 ok, 0 deviate",
    ]


def test_check_reports_the_deviations_and_the_reason(tmp_path: Path) -> None:
    result = run("check", "--dutch", str(_deviating(tmp_path)))
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[3] == "round 4: deviates"
    assert lines[4].split(":")[1].strip() == "1-3, 6-2"
    assert lines[5].split(":")[1].strip() == "1-2, 6-3"
    assert lines[6] == (
        "  reason: the published pairing has 2 downfloaters in bracket 2.5 where 0 are possible (C6)"
    )
    assert lines[-1] == "4 rounds checked: 3 ok, 1 deviates"


def test_check_one_round_as_json(tmp_path: Path) -> None:
    result = run("check", "--dutch", str(_deviating(tmp_path)), "--round", "4", "--json")
    assert result.exit_code == 1
    document = json.loads(result.output)
    assert document["ok"] is False and [r["round"] for r in document["rounds"]] == [4]
    checked = document["rounds"][0]
    assert checked["status"] == "deviates"
    assert checked["only_file"] == [[1, 3], [6, 2]] and checked["only_engine"] == [[1, 2], [6, 3]]
    assert checked["engine"]["bye"] == 8 and checked["file"]["byes"] == [8]
    assert checked["reason"] == {
        "kind": "quality",
        "criterion": "C6",
        "bracket": 2.5,
        "file": 2,
        "engine": 0,
        "text": "the published pairing has 2 downfloaters in bracket 2.5 where 0 are possible (C6)",
    }


def test_check_reads_standard_input() -> None:
    result = run("check", "--dutch", "-", "--json", stdin=(DUTCH / "017.trf").read_text())
    assert result.exit_code == 0
    assert json.loads(result.output)["file"] == "<stdin>"


def test_a_round_that_cannot_be_paired_again_is_reported_and_the_check_goes_on(tmp_path: Path) -> None:
    # round 2 is a rematch of round 1 in a field of two: no valid pairing exists for it
    path = tmp_path / "rematch.trf"
    path.write_text(
        "XXR 3\n"
        + "001    1      A".ljust(91) + "   2 w 1     2 b 1     2 w 1\n"
        + "001    2      B".ljust(91) + "   1 b 0     1 w 0     1 b 0\n"
    )  # fmt: skip
    result = run("check", "--dutch", str(path))
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[0] == "round 1: ok"
    assert lines[1].startswith("round 2: cannot be paired again: No valid pairing exists")
    assert lines[2] == "  reason: players 1 and 2 meet again: they played in round 1 (C1, absolute)"
    assert lines[3].startswith("round 3: cannot be paired again")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["check", str(DUTCH / "017.trf")], "--dutch"),
        (["check", "--dutch", "missing.trf"], "missing.trf: cannot read file"),
        (
            ["check", "--dutch", str(DUTCH / "017.trf"), "--round", "9"],
            "round 9 is not in the file (it has 4 rounds)",
        ),
        (["check", "--dutch", str(DUTCH / "017.trf"), "--round", "4"], "round 4 has no pairing"),
        (["check", "--dutch", str(DUTCH / "017.trf"), "--round", "0"], "Invalid value for '--round'"),
    ],
)
def test_check_bad_input_exits_2(args: list[str], message: str) -> None:
    result = run(*args)
    assert result.exit_code == 2
    assert result.output.startswith("Error: ") and message in result.output
    assert len(result.output.splitlines()) == 1


def test_check_a_file_whose_games_disagree_names_both_lines(tmp_path: Path) -> None:
    text = (DUTCH / "017.trf").read_text().splitlines()
    number = next(i for i, line in enumerate(text) if line.startswith("001    3"))
    text[number] = text[number][:91] + "  11" + text[number][95:]  # player 3's round-1 opponent: 9
    path = tmp_path / "disagree.trf"
    path.write_text("\n".join(text) + "\n")
    result = run("check", "--dutch", str(path))
    assert result.exit_code == 2
    assert "round 1: player 3 plays 11, but player 11 plays" in result.output
    assert f"{path}:{number + 1}:" in result.output and "(line " in result.output


def test_main_returns_the_checks_exit_status(tmp_path: Path) -> None:
    assert main(["check", "--dutch", str(DUTCH / "017.trf")]) == 0
    assert main(["check", "--dutch", str(_deviating(tmp_path))]) == 1
