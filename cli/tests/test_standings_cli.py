"""``arbiter standings | crosstable | trf`` through click's runner, errors included."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cli.main import build_cli, main
from tests.fixtures import FIXTURES

DUTCH_010 = FIXTURES / "tiebreaks" / "dutch_010.2024.trf"
HELD_5 = FIXTURES / "held" / "swiss_5.trf"


def run(*args: str) -> Result:
    return CliRunner().invoke(build_cli(), list(args))


def test_json_matches_the_reference_values() -> None:
    result = run(
        "standings", str(DUTCH_010), "--tiebreaks", "BH,BH/C1,SB,ARO,DE", "--json", "--pairing", "swiss"
    )
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    reference = {p["start"]: p for p in json.loads(DUTCH_010.with_suffix(".json").read_text())["players"]}
    assert [set(r) for r in rows] == [{"start", "name", "rating", "rank", "points", "tiebreaks"}] * 8
    for row in rows:
        ref = reference[row["start"]]
        assert row["points"] == ref["points"]
        assert list(row["tiebreaks"]) == ["BH", "BH-C1", "SB", "ARO", "DE"]
        for code in ("BH", "BH-C1", "SB", "ARO"):
            assert row["tiebreaks"][code] == ref["tiebreaks"][code]
    # the worked example of the reference README: player 1 BH 14.0 (2024), ahead of player 2
    assert rows[0]["start"] == 1 and rows[0]["tiebreaks"]["BH"] == 14.0


def test_edition_can_be_forced() -> None:
    # dutch_010 player 1: BH 14.0 under the 2024 rules, 12.5 under the 2026 rules
    result = run("standings", str(DUTCH_010), "-t", "BH", "--edition", "2026", "--json")
    assert result.exit_code == 0, result.output
    first = {r["start"]: r for r in json.loads(result.output)}[1]
    assert first["tiebreaks"]["BH"] == 12.5


def test_default_tiebreaks_are_the_fide_rapid_preset(tmp_path: Path) -> None:
    result = run("standings", str(HELD_5), "--json")
    assert result.exit_code == 0, result.output
    assert list(json.loads(result.output)[0]["tiebreaks"]) == ["BH", "BH-C1", "SB", "ARO"]
    # a TRF-2026 202 record gives the list instead
    with_202 = tmp_path / "with202.trf"
    with_202.write_text("202 SB, BH/C1\n" + HELD_5.read_text())
    result = run("standings", str(with_202), "--json")
    assert list(json.loads(result.output)[0]["tiebreaks"]) == ["SB", "BH-C1"]


def test_table_output() -> None:
    result = run("standings", str(HELD_5))
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    header = next(line for line in lines if "Rank" in line)
    for column in ("No", "Name", "Pts", "BH", "BH-C1", "SB", "ARO"):
        assert column in header
    first = next(line for line in lines if "Bruno" in line)
    assert first.split()[0] == "1"  # Bruno (4.0) is first
    assert "C.07 edition 2024" in result.output


def test_crosstable() -> None:
    result = run("crosstable", str(FIXTURES / "held" / "round_robin.trf"))
    assert result.exit_code == 0, result.output
    alyx = next(line for line in result.output.splitlines() if "Alyx" in line)
    assert alyx.split() == ["1", "1", "Alyx", "2200", "5w½", "2w1", "3b1", "4w0", "6b1", "3½"]


def test_crosstable_json_gives_names_and_every_round() -> None:
    result = run("crosstable", str(FIXTURES / "held" / "round_robin.trf"), "--json")
    assert result.exit_code == 0, result.output
    alyx = json.loads(result.output)[0]
    assert (alyx["rank"], alyx["start"], alyx["name"], alyx["rating"], alyx["points"]) == (
        1,
        1,
        "Alyx",
        2200,
        3.5,
    )
    assert [(r["opponent"], r["colour"], r["result"]) for r in alyx["rounds"]] == [
        (5, "w", "="),
        (2, "w", "1"),
        (3, "b", "1"),
        (4, "w", "0"),
        (6, "b", "1"),
    ]


def test_standings_json_names_the_players() -> None:
    rows = json.loads(run("standings", str(HELD_5), "--json").output)
    assert rows[0]["name"].startswith("Bruno")


@pytest.mark.parametrize("command", ["standings", "crosstable"])
def test_tables_fit_80_columns_with_half_points_as_one_sign(command: str) -> None:
    result = run(command, str(FIXTURES / "held" / "round_robin.trf"))
    assert max(len(line) for line in result.output.splitlines()) <= 80
    assert "½" in result.output and ".5" not in result.output


def test_trf_round_trip_prints_the_file() -> None:
    result = run("trf", str(DUTCH_010))
    assert result.exit_code == 0
    assert result.output == DUTCH_010.read_text()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["standings", "missing.trf"], "missing.trf: cannot read file"),
        (["standings", str(HELD_5), "-t", "BH,NOPE"], "unknown tie-break code 'NOPE'"),
        (["standings", str(HELD_5), "--edition", "2025"], "'2025' is not one of '2024', '2026'"),
        (["crosstable", "missing.trf"], "missing.trf: cannot read file"),
        (["trf", "missing.trf"], "missing.trf: cannot read file"),
    ],
)
def test_errors_exit_2_without_a_traceback(args: list[str], message: str) -> None:
    result = run(*args)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit)


def test_bad_line_is_named(tmp_path: Path) -> None:
    bad = tmp_path / "bad.trf"
    bad.write_text("012 x\n001    1      A" + " " * 76 + "   2 w Q\n")
    result = run("standings", str(bad))
    assert result.exit_code == 2
    assert f"{bad}:2: round 1" in result.output and "unknown result code 'Q'" in result.output


def test_bad_202_record_is_named(tmp_path: Path) -> None:
    bad = tmp_path / "bad202.trf"
    bad.write_text("012 x\n202 BH, XYZ\n" + HELD_5.read_text())
    result = run("standings", str(bad))
    assert result.exit_code == 2
    assert f"{bad}:2: unknown tie-break code 'XYZ'" in result.output


def test_main_returns_the_exit_status(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["standings", "missing.trf"]) == 2
    assert "cannot read file" in capsys.readouterr().err
    assert main(["trf", str(DUTCH_010)]) == 0


# Files that are no tournament report: every command says so, naming the file (and the line where
# there is one), and exits 2 without a traceback.
BAD_FILES = {
    "empty": (b"", "empty.trf: the file is empty: no player (001) lines"),
    "blank": (b"\n\r\n  \n", "blank.trf: the file is empty"),
    "prose": (
        b"Results of the club championship\nRound 1: Alice beat Bob.\n",
        "prose.trf:1: no player (001) lines, and this line is no TRF record: 'Results of the club championship'",
    ),
    "headers": (b"012 Club championship\r042 2026/04/01\rXXR 5\r", "headers.trf: no player (001) lines"),
    "random": (random.Random(7).randbytes(4000), "random.trf:2: control character 0x0e in column 3"),
    "utf16": ("012 Club\n".encode("utf-16"), "utf16.trf:1: control character 0x00 in column 4"),
}


@pytest.mark.parametrize("command", ["standings", "crosstable", "trf"])
@pytest.mark.parametrize("kind", sorted(BAD_FILES))
def test_a_file_that_is_no_tournament_exits_2(tmp_path: Path, command: str, kind: str) -> None:
    content, message = BAD_FILES[kind]
    path = tmp_path / f"{kind}.trf"
    path.write_bytes(content)
    result = run(command, str(path))
    assert result.exit_code == 2
    assert result.output.startswith("Error: ") and f"{tmp_path}/{message}" in result.output
    assert len(result.output.splitlines()) == 1 and "Traceback" not in result.output
    assert isinstance(result.exception, SystemExit)


def test_cr_only_file_with_a_162_record(tmp_path: Path) -> None:
    # bbpPairings writes CR line endings; 162 P is the pairing-allocated bye, Z the forfeit loss
    blocks = {1: "   2 w +", 2: "   1 b -", 3: "0000 - U"}
    lines = ["012 CR file", "162  W 3.0    D 1.0    Z 0.5    P 1.0"] + [
        f"001 {s:4d}      P{s}".ljust(91) + blocks[s] for s in (1, 2, 3)
    ]
    path = tmp_path / "cr.trf"
    path.write_bytes("\r".join(lines).encode() + b"\r")
    result = run("standings", str(path), "--json", "-t", "BH")
    assert result.exit_code == 0, result.output
    assert {row["start"]: row["points"] for row in json.loads(result.output)} == {1: 3.0, 2: 0.5, 3: 1.0}


def test_byes_as_no_opponent_is_the_platform_rule() -> None:
    # swiss_5 has pairing-allocated byes: under C.07 each is a game against a dummy opponent; under
    # the platform's "a bye is no opponent" it adds nothing to BH
    from services.standings.domain.context import Rules
    from services.standings.domain.from_trf import history_from_trf
    from services.standings.domain.history import Edition
    from services.standings.domain.ranking import compute_table
    from shared.trf import read

    def bh(*extra: str) -> dict[int, float]:
        result = run("standings", str(HELD_5), "-t", "BH", "--edition", "2024", "--json", *extra)
        assert result.exit_code == 0, result.output
        return {r["start"]: r["tiebreaks"]["BH"] for r in json.loads(result.output)}

    rules = Rules(edition=Edition.E2024, byes_as_opponents=False)
    expected = compute_table(history_from_trf(read(HELD_5)), "BH", rules)
    assert bh("--byes", "no-opponent") == {r.start: float(r.tiebreaks["BH"]) for r in expected.rows}
    assert bh("--byes", "no-opponent") != bh() == bh("--byes", "opponent")
