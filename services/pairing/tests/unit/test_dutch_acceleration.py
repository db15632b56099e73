"""Conformance with bbpPairings v6 for acceleration (``XXA``) and ``XXC rank``.

``tests/fixtures/dutch-accel`` holds tournaments with ``XXA`` lines and/or ``XXC rank`` and
bbpPairings' pairing of the next round (see its README). The output must be identical: the
pairs with their colours, the bye and the board order.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from services.pairing.domain.dutch import from_trf, pair_round
from shared.trf import parse, read

FIXTURES = Path(__file__).resolve().parents[4] / "tests" / "fixtures" / "dutch-accel"
CASES = sorted(FIXTURES.glob("*.trf"))


def test_the_acceleration_set_is_complete() -> None:
    assert len(CASES) == 9
    for case in CASES:
        assert case.with_suffix(".pairs").exists()
        doc = read(case)
        assert doc.accelerations or doc.ranking_by_rating, case.name


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.stem)
def test_output_is_identical_to_bbppairings(case: Path) -> None:
    text = "\n".join(pair_round(from_trf(read(case))).lines()) + "\n"
    assert text == case.with_suffix(".pairs").read_text()


def _doc(extra: str) -> str:
    rows = []
    for n, rating in ((1, 2400), (2, 2300), (3, 2200), (4, 2100)):
        rows.append(f"001 {n:4d}      Player {n:<25}"[:48].ljust(48) + f"{rating:4d}".ljust(32) + " 0.0")
    return "\n".join(rows) + "\nXXR 5\nXXC white1\n" + extra


def test_acceleration_moves_players_into_a_higher_score_group() -> None:
    # Round 1 without acceleration: 1-3, 4-2 (top half against bottom half).
    plain = pair_round(from_trf(parse(_doc(""))))
    assert plain.games == ((1, 3), (4, 2))
    # +1 point for 3 and 4 in round 1: they form the top score group and meet. The board order
    # keeps the real scores (all 0), so 1-2 stays on board 1. (Checked with bbpPairings.)
    accelerated = pair_round(from_trf(parse(_doc("XXA    3  1.0\nXXA    4  1.0\n"))))
    assert accelerated.games == ((1, 2), (3, 4))


def test_accelerations_of_several_xxa_lines_are_joined() -> None:
    doc = parse(_doc("XXA    1  1.0\nXXA    1  0.5  0.5\n"))
    assert doc.accelerations == {1: [Fraction(1), Fraction(1, 2), Fraction(1, 2)]}


def test_xxc_rank_ranks_players_in_file_order() -> None:
    # Player 4's line comes first: with XXC rank it is the top seed of round 1. (Checked with
    # bbpPairings.)
    lines = _doc("").split("\n")
    reordered = "\n".join([lines[3], *lines[:3], *lines[4:]]).replace("XXC white1", "XXC rank white1")
    pairing = pair_round(from_trf(parse(reordered)))
    assert pairing.games == ((4, 2), (3, 1))
