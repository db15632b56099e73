"""Every value of tests/fixtures/tiebreaks/ (FIDE TEC's TieBreakServer 1.9.57, see its README):
20 Swiss events x 2 editions (+ 5 with 2-1-0 scoring), 21 tie-breaks, points, rank (after the file's
``rank_order``) and rank after points then DE. The edition comes from the file's 042 date, the point
system from its 162 record, as in production; Swiss rules are forced as the producer's ``-s`` did."""

from __future__ import annotations

import datetime as dt
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from services.standings.domain.context import Rules, Value
from services.standings.domain.from_trf import history_from_trf, trf_edition
from services.standings.domain.history import Edition
from services.standings.domain.ranking import compute_table
from shared.trf import read
from tests.fixtures import FIXTURES

CASES = sorted((FIXTURES / "tiebreaks").glob("*.trf"))
TODAY = dt.date(2026, 11, 29)  # irrelevant: every file has a 042 date


def same(expected: Any, got: Value) -> bool:
    if expected is None or got is None:
        return expected is None and got is None
    return Fraction(str(expected)) == Fraction(got)


def compare(path: Path) -> tuple[int, list[str]]:
    reference = json.loads(path.with_suffix(".json").read_text())
    doc = read(path)
    edition = trf_edition(doc, TODAY)
    assert edition.value == reference["edition"]
    history = history_from_trf(doc, pre_determined=False)
    rules = Rules(edition=edition)
    order = [c for c in reference["rank_order"] if c != "PTS"]
    main = compute_table(history, order, rules)
    de = compute_table(history, ["DE"], rules)
    compared = 0
    wrong: list[str] = []
    for player in reference["players"]:
        start = player["start"]
        row, de_row = main.row(start), de.row(start)
        checks: list[tuple[str, Any, Value]] = [
            (code, player["tiebreaks"][code], row.tiebreaks[code]) for code in order
        ]
        checks += [
            ("points", player["points"], row.points),
            ("rank", player["rank"], row.rank),
            ("DE", player["tiebreaks"]["DE"], de_row.tiebreaks["DE"]),
            ("rank_pts_de", player["rank_pts_de"], de_row.rank),
        ]
        for code, expected, got in checks:
            compared += 1
            if not same(expected, got):
                wrong.append(f"player {start} {code}: expected {expected}, got {got}")
    return compared, wrong


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_every_reference_value(path: Path) -> None:
    compared, wrong = compare(path)
    assert compared > 0
    assert wrong == []


def test_the_reference_set_is_complete() -> None:
    # 50 inputs: 20 events x 2 editions + 5 events x 2 editions with 2-1-0 scoring
    assert len(CASES) == 50
    assert {trf_edition(read(p), TODAY) for p in CASES} == {Edition.E2024, Edition.E2026}
