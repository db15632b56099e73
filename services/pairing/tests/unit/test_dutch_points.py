"""Conformance with bbpPairings v6 on files that declare their point system (``162``, ``BBx``) and
on CR-only / CR LF files.

``tests/fixtures/dutch-points`` holds 22 tournaments and bbpPairings' pairing of the next round
(see its README): the output must be identical, pairs, colours, bye and board order.
"""

from __future__ import annotations

import csv
from fractions import Fraction
from pathlib import Path

import pytest

from services.pairing.domain.dutch import RoundKind, from_trf, pair_round
from shared.trf import parse, read

FIXTURES = Path(__file__).resolve().parents[4] / "tests" / "fixtures" / "dutch-points"
CASES = sorted(FIXTURES.glob("*.trf"))
F = Fraction


def _table() -> dict[str, dict[str, str]]:
    with (FIXTURES / "cases.tsv").open(newline="") as handle:
        return {row["case"]: row for row in csv.DictReader(handle, delimiter="\t")}


def test_the_set_is_complete_and_keeps_its_line_endings() -> None:
    table = _table()
    assert sorted(table) == sorted(case.stem for case in CASES) and len(CASES) == 22
    endings = {"LF": b"\n", "CR": b"\r", "CRLF": b"\r\n"}
    for case in CASES:
        raw = case.read_bytes()
        ending = table[case.stem]["line_endings"]
        assert raw.endswith(endings[ending]), case.name
        if ending == "CR":
            assert b"\n" not in raw, case.name
        elif ending == "LF":
            assert b"\r" not in raw, case.name
        else:
            assert raw.count(b"\r\n") == raw.count(b"\n") == raw.count(b"\r"), case.name
        doc = read(case)
        assert doc.point_system, case.name  # every case declares its points
        assert doc.total_rounds == int(table[case.stem]["rounds"]), case.name
        assert from_trf(doc).rounds_played == int(table[case.stem]["paired_round"]) - 1, case.name


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.stem)
def test_output_is_identical_to_bbppairings(case: Path) -> None:
    text = "\n".join(pair_round(from_trf(read(case))).lines()) + "\n"
    assert text == case.with_suffix(".pairs").read_text()


def _player(start: int, score: str, blocks: str) -> str:
    return f"001 {start:4d}      P{start}".ljust(80) + score.rjust(4) + " " * 7 + blocks


def test_unpaired_forfeits_score_as_bbppairings_scores_them() -> None:
    # '0000 - +' is read as the pairing-allocated bye (bbpPairings: paired, no opponent, a win),
    # '0000 - -' as a zero-point bye (not paired); '1 w -' against an opponent is a forfeit loss.
    text = "\n".join(
        [
            "XXR 5",
            "162  W 3.0    D 1.0    Z 0.5    P 1.0",
            _player(1, "1.0", "0000 - +"),
            _player(2, "0.5", "0000 - -"),
            _player(3, "3.0", "   4 b +"),
            _player(4, "0.5", "   3 w -"),
        ]
    )
    data = from_trf(parse(text + "\n"))
    rounds = {p.number: p.rounds[0] for p in data.players}
    assert (rounds[1].kind, rounds[1].points, rounds[1].opponent) == (RoundKind.PAB, F(1), None)
    assert (rounds[2].kind, rounds[2].points) == (RoundKind.ZPB, F(1, 2))
    assert (rounds[3].kind, rounds[3].points, rounds[3].opponent) == (RoundKind.FORFEIT_WIN, F(3), 4)
    assert (rounds[4].kind, rounds[4].points, rounds[4].opponent) == (RoundKind.FORFEIT_LOSS, F(1, 2), 3)
    assert (data.points.win, data.points.pab_points, data.points.forfeit_loss, data.points.zero_bye) == (
        3,
        1,
        F(1, 2),
        F(1, 2),
    )


def test_crlf_cr_and_lf_files_pair_alike() -> None:
    case = FIXTURES / "162-cr.trf"
    lines = case.read_bytes().decode().split("\r")
    expected = case.with_suffix(".pairs").read_text()
    for ending in ("\n", "\r\n", "\r"):
        doc = parse(ending.join(lines))
        assert "\n".join(pair_round(from_trf(doc)).lines()) + "\n" == expected
