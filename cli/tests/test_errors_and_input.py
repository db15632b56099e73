"""What every command shares: errors in one format on standard error, ``-`` for standard input,
files whose games disagree refused naming both lines; and ``standings --preset``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cli.main import build_cli, main
from services.standings.domain.presets import PRESETS
from tests.fixtures import FIXTURES

DUTCH_017 = FIXTURES / "dutch" / "017.trf"
HELD_5 = FIXTURES / "held" / "swiss_5.trf"


def run(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(build_cli(), list(args), input=stdin)


# -- one format -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["pair", "--dutch", "missing.trf", "-p"], 2, "Error: missing.trf: cannot read file"),
        (["check", "--dutch", "missing.trf"], 2, "Error: missing.trf: cannot read file"),
        (["standings", "missing.trf"], 2, "Error: missing.trf: cannot read file"),
        (["crosstable", "missing.trf"], 2, "Error: missing.trf: cannot read file"),
        (["trf", "missing.trf"], 2, "Error: missing.trf: cannot read file"),
        (["roundrobin", "2"], 2, "Error: Invalid value for N: a round robin needs 3 to 20 players"),
        (["roundrobin"], 2, "Error: Missing argument 'N'. See 'arbiter roundrobin -h'."),
        (["bracket", "single", "3"], 2, "Error: "),
        (["generate", "--players", "5", "--rounds", "6"], 1, "Error: round 6 cannot be paired"),
        (["nope"], 2, "Error: No such command 'nope'. See 'arbiter -h'."),
        (["standings", str(HELD_5), "--preset", "nope"], 2, "Error: Invalid value for '--preset'"),
    ],
)
def test_every_command_reports_errors_in_one_line_on_standard_error(
    args: list[str], code: int, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(args) == code
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(message), captured.err
    assert len(captured.err.splitlines()) == 1 and "Traceback" not in captured.err


def test_no_valid_pairing_keeps_exit_1_in_the_same_format(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "t.trf"
    path.write_text(
        "XXR 3\n" + "001    1      A".ljust(91) + "   2 w 1\n" + "001    2      B".ljust(91) + "   1 b 0\n"
    )
    assert main(["pair", "--dutch", str(path), "-p"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"Error: {path}: No valid pairing exists: ")


# -- standard input ---------------------------------------------------------------------------------


def test_pair_reads_standard_input() -> None:
    result = run("pair", "--dutch", "-", "-p", stdin=DUTCH_017.read_text())
    assert result.exit_code == 0
    assert result.output == DUTCH_017.with_suffix(".pairs").read_text()


@pytest.mark.parametrize("command", ["standings", "crosstable", "trf"])
def test_tables_read_standard_input(command: str) -> None:
    from_file = run(command, str(HELD_5))
    from_stdin = run(command, "-", stdin=HELD_5.read_text())
    assert from_stdin.exit_code == 0
    assert from_stdin.output.replace("swiss_5.trf", "-") == from_file.output.replace("swiss_5.trf", "-")


def test_errors_on_standard_input_name_it() -> None:
    result = run("standings", "-", stdin="012 x\n001    1      A" + " " * 76 + "   2 w Q\n")
    assert result.exit_code == 2
    assert result.output.startswith("Error: <stdin>:2: round 1")


# -- games that disagree ----------------------------------------------------------------------------


def _disagreeing(tmp_path: Path, replace: tuple[str, str]) -> Path:
    """Reference case 017 with one block of player 3's line (line 4) changed."""
    lines = DUTCH_017.read_text().splitlines()
    assert lines[3].startswith("001    3")
    lines[3] = lines[3].replace(*replace)
    path = tmp_path / "disagree.trf"
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize(
    ("replace", "message"),
    [
        # player 3's round-1 opponent is 9, whose line names 3: now 3's line names 11
        (("     9 w 1", "    11 w 1"), "round 1: player 3 plays 11, but player 11 plays 5 (line 12)"),
        (
            ("     9 w 1", "     9 b 1"),
            "round 1: player 3 plays 9 with black, but player 9 has black (line 10)",
        ),
        (
            ("     9 w 1", "     9 w ="),
            "round 1: player 3 plays 9, result '=', but player 9's result is '0' (line 10)",
        ),
    ],
)
@pytest.mark.parametrize("command", [["pair", "--dutch"], ["standings"], ["check", "--dutch"], ["trf"]])
def test_a_file_whose_games_disagree_is_refused_naming_both_lines(
    tmp_path: Path, command: list[str], replace: tuple[str, str], message: str
) -> None:
    path = _disagreeing(tmp_path, replace)
    extra = ["-p"] if command[0] == "pair" else []
    result = run(*command, str(path), *extra)
    assert result.exit_code == 2
    assert result.output == f"Error: {path}:4: {message}\n"


# -- presets ----------------------------------------------------------------------------------------


def _json(*args: str) -> list[dict[str, object]]:
    result = run("standings", str(HELD_5), "--json", *args)
    assert result.exit_code == 0, result.output
    rows: list[dict[str, object]] = json.loads(result.output)
    return rows


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_a_preset_ranks_by_its_tiebreaks_and_shows_its_columns(name: str) -> None:
    ruleset = PRESETS[name]
    rows = _json("--preset", name)
    codes = [tb.code for tb in ruleset.tiebreaks]
    assert all(list(row["tiebreaks"]) == codes for row in rows)  # type: ignore[call-overload]
    shown = [tb.code for tb in ruleset.shown if tb not in ruleset.tiebreaks]
    assert all(list(row.get("shown", {})) == shown for row in rows)  # type: ignore[call-overload]


def test_tiebreaks_override_the_preset() -> None:
    rows = _json("--preset", "platform-swiss", "--tiebreaks", "SB,BH")
    assert list(rows[0]["tiebreaks"]) == ["SB", "BH"]  # type: ignore[call-overload]


def test_platform_swiss_counts_no_bye_as_an_opponent() -> None:
    # held swiss_5 has half-point byes: with fide-rapid's tie-breaks but the platform's bye rule,
    # BH differs from fide-rapid's (a bye counts as a dummy opponent there)
    fide = {r["start"]: r["tiebreaks"]["BH"] for r in _json("--preset", "fide-rapid")}  # type: ignore[index]
    platform = {r["start"]: r["tiebreaks"]["BH"] for r in _json("--preset", "platform-swiss", "-t", "BH")}  # type: ignore[index]
    assert fide != platform


def test_the_table_names_the_shown_columns() -> None:
    result = run("standings", str(HELD_5), "--preset", "platform-swiss")
    assert result.exit_code == 0
    assert "tie-breaks: BH-C1, SB, WIN; shown for information: BH" in result.output
