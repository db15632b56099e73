"""Conformance: every reference case pairs exactly as bbpPairings v6 paired it.

``tests/fixtures/dutch`` holds 60 tournaments cut after round k with the engine's pairing of
round k+1 (see its README); ``tests/fixtures/dutch-extra`` holds regression cases found by
comparing with bbpPairings on generated tournaments. The pairs with their colours and the bye
must match as a set; the board order is checked separately.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from services.pairing.domain.dutch import from_trf, pair_round
from shared.trf import read
from tests.fixtures import DUTCH_CASES, FIXTURES, expected_dutch_pairs

CASES = DUTCH_CASES
_expected = expected_dutch_pairs


def test_the_reference_set_is_complete() -> None:
    assert len(list((FIXTURES / "dutch").glob("*.trf"))) == 60


@pytest.mark.parametrize("case", CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_pairs_colours_and_bye_match(case: Path) -> None:
    games, bye = _expected(case)
    pairing = pair_round(from_trf(read(case)))
    assert set(pairing.games) == set(games)
    assert len(pairing.games) == len(games)
    assert pairing.bye == bye


@pytest.mark.parametrize("case", CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_board_order_matches(case: Path) -> None:
    games, _ = _expected(case)
    assert list(pair_round(from_trf(read(case))).games) == games


def test_output_is_byte_identical_to_the_reference() -> None:
    case = FIXTURES / "dutch" / "017.trf"
    text = "\n".join(pair_round(from_trf(read(case))).lines()) + "\n"
    assert text == case.with_suffix(".pairs").read_text()
