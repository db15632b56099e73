"""IA Mario Held, *Exercises in Tie-Breaking* (FIDE Arbiters' Commission, C.07-2023, Rev. 2403220900;
https://arbiters.fide.com/news/9119): the published solutions of exercises 1-33 on the paper's three
crosstables (tests/fixtures/held/, see its README).

The paper applies the rules in force from 2024 (our 2024 edition). The 2026 edition changes only the
values affected by the new 16.4 cap; those are checked separately below, with the arithmetic.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from services.standings.domain.context import Rules, Value
from services.standings.domain.from_trf import history_from_trf
from services.standings.domain.history import Edition
from services.standings.domain.ranking import compute_table
from shared.trf import read
from tests.fixtures import FIXTURES

HELD = FIXTURES / "held"


def values(
    name: str, code: str, edition: Edition = Edition.E2024, *, pre_determined: bool = False
) -> dict[int, Value]:
    history = history_from_trf(read(HELD / name), pre_determined=pre_determined)
    table = compute_table(history, [code], Rules(edition=edition))
    return {row.start: row.tiebreaks[table.tiebreaks[0].code] for row in table.rows}


def ranks(name: str, code: str, *, pre_determined: bool) -> dict[int, int]:
    history = history_from_trf(read(HELD / name), pre_determined=pre_determined)
    table = compute_table(history, [code], Rules(edition=Edition.E2024))
    return {row.start: row.rank for row in table.rows}


def q(text: str) -> Fraction:
    return Fraction(text)


# Published solutions, Swiss 5 rounds (exercises 1-13, 17-22, 27-33), by start number.
BH = {1: "12.5", 2: "13", 3: "15.5", 4: "15", 5: "8.5", 6: "12", 7: "14.5", 8: "13.5", 9: "9", 10: "13",
      11: "13.5", 12: "11.5", 13: "14", 14: "11", 15: "12", 16: "12.5"}  # fmt: skip
BH_C1 = {1: "11", 2: "12", 3: "13", 4: "11.5", 5: "7.5", 6: "11", 7: "12.5", 8: "12", 9: "7.5", 10: "11.5",
         11: "12", 12: "9.5", 13: "12", 14: "9", 15: "11", 16: "11"}  # fmt: skip
AOB = {1: "12.60", 2: "13.60", 3: "13.40", 4: "13.38", 5: "13.40", 6: "13.25", 7: "11.90", 8: "13.00",
       9: "12.75", 10: "10.90", 11: "12.75", 12: "15.00", 13: "12.10", 14: "13.17", 15: "12.20", 16: "13.30"}  # fmt: skip
FB = {1: "13.5", 2: "13.5", 3: "15", 4: "15.5", 5: "10", 6: "12", 7: "13.5", 8: "12.5", 9: "9.5", 10: "12.5",
      11: "12.5", 12: "11.5", 13: "13.5", 14: "10.5", 15: "12", 16: "13.5"}  # fmt: skip
SB = {1: "8", 2: "9.5", 3: "10.5", 4: "9.75", 5: "4.25", 6: "6.5", 7: "3.25", 8: "5.25", 9: "2.25", 10: "1.5",
      11: "5.75", 12: "4", 13: "4.25", 14: "4.5", 15: "3.5", 16: "7.25"}  # fmt: skip
SB_C1 = {1: "7.25", 2: "8.5", 3: "9.25", 4: "8", 5: "3.25", 6: "5.5", 7: "1.25", 8: "3.75", 9: "2.25", 10: "0",
         11: "4.25", 12: "4", 13: "4.25", 14: "3", 15: "2.5", 16: "5.75"}  # fmt: skip
ARO = {1: 1820, 2: 1880, 3: 1940, 4: 1888, 5: 1690, 6: 1813, 7: 1760, 8: 1730, 9: 1975, 10: 1880, 11: 1863,
       12: 2050, 13: 1930, 14: 1800, 15: 1860, 16: 1820}  # fmt: skip
ARO_C1 = {1: 1900, 2: 1988, 3: 2000, 4: 1983, 5: 1738, 6: 1900, 7: 1838, 8: 1800, 9: 2200, 10: 1975, 11: 2000,
          12: None, 13: 2025, 14: 1900, 15: 1963, 16: 1900}  # fmt: skip
TPR = {1: 1969, 2: 2120, 3: 2089, 4: 2081, 5: 1690, 6: 1813, 7: 1611, 8: 1730, 9: 1175, 10: 1640, 11: 1776,
       12: 1250, 13: 1781, 14: 1925, 15: 1788, 16: 1969}  # fmt: skip
WIN = {1: 2, 2: 3, 3: 2, 4: 2, 5: 2, 6: 3, 7: 1, 8: 2, 9: 1, 10: 1, 11: 2, 12: 2, 13: 1, 14: 2, 15: 2, 16: 3}
WON = {1: 2, 2: 3, 3: 2, 4: 2, 5: 2, 6: 2, 7: 1, 8: 2, 9: 0, 10: 1, 11: 1, 12: 0, 13: 1, 14: 2, 15: 2, 16: 3}
BPG = {1: 2, 2: 3, 3: 2, 4: 2, 5: 2, 6: 2, 7: 3, 8: 2, 9: 1, 10: 3, 11: 2, 12: 0, 13: 3, 14: 2, 15: 3, 16: 2}
BWG = {1: 1, 2: 1, 3: 1, 4: 1, 5: 0, 6: 1, 7: 0, 8: 0, 9: 0, 10: 1, 11: 0, 12: 0, 13: 1, 14: 1, 15: 1, 16: 1}
GE = {1: 5, 2: 5, 3: 5, 4: 4, 5: 5, 6: 5, 7: 5, 8: 5, 9: 3, 10: 5, 11: 5, 12: 3, 13: 5, 14: 3, 15: 5, 16: 5}
PS = {1: "11", 2: "13", 3: "11", 4: "11.5", 5: "5", 6: "6", 7: "6", 8: "8.5", 9: "2.5", 10: "4", 11: "5.5",
      12: "7", 13: "7", 14: "6", 15: "7", 16: "10.5"}  # fmt: skip
PS_C1 = {1: "10", 2: "12", 3: "10.5", 4: "10.5", 5: "5", 6: "6", 7: "5", 8: "8", 9: "2.5", 10: "4", 11: "5",
         12: "7", 13: "6", 14: "5", 15: "7", 16: "10"}  # fmt: skip


def exact(table: dict[int, str]) -> dict[int, Value]:
    return {k: q(v) for k, v in table.items()}


SWISS_5 = [
    ("BH", exact(BH)),  # exercises 1-4
    ("BH-C1", exact(BH_C1)),  # 5-8
    ("AOB", exact(AOB)),  # 9
    ("FB", exact(FB)),  # 10
    ("SB", exact(SB)),  # 11-12
    ("SB-C1", exact(SB_C1)),  # 13
    ("ARO", dict(ARO)),  # 17
    ("ARO-C1", dict(ARO_C1)),  # 18
    ("TPR", dict(TPR)),  # 19-20
    ("WIN", dict(WIN)),  # 27
    ("WON", dict(WON)),  # 28
    ("BPG", dict(BPG)),  # 29
    ("BWG", dict(BWG)),  # 30
    ("GE", dict(GE)),  # 31
    ("PS", exact(PS)),  # 32
    ("PS-C1", exact(PS_C1)),  # 33
]


@pytest.mark.parametrize(("code", "expected"), SWISS_5, ids=[c for c, _ in SWISS_5])
def test_swiss_5_published_solutions(code: str, expected: dict[int, Value]) -> None:
    assert values("swiss_5.trf", code) == expected


def test_apro_and_ptp_published_solutions() -> None:
    # exercise 21 (APRO of the four players on 3.5) and 22 (PTP of player 3)
    apro = values("swiss_5.trf", "APRO")
    assert {s: apro[s] for s in (1, 3, 4, 16)} == {1: 1789, 3: 1904, 4: 1772, 16: 1805}
    assert values("swiss_5.trf", "PTP")[3] == 2112


def test_direct_encounter_swiss_5() -> None:
    # exercises 23-24: the 3.5 group (1, 3, 4, 16) is not separated: all share rank 2; so are
    # 5, 8, 11 on 2.5 (rank 7)
    rank = ranks("swiss_5.trf", "DE", pre_determined=False)
    assert {s: rank[s] for s in (1, 3, 4, 16)} == {1: 2, 3: 2, 4: 2, 16: 2}
    assert {s: rank[s] for s in (5, 8, 11)} == {5: 7, 8: 7, 11: 7}


def test_direct_encounter_swiss_9() -> None:
    # exercise 25: ranks after points and DE
    expected = {1: 3, 2: 5, 3: 1, 4: 3, 5: 9, 6: 2, 7: 6, 8: 6, 9: 14, 10: 9, 11: 13, 12: 14, 13: 16,
                14: 9, 15: 9, 16: 6}  # fmt: skip
    assert ranks("swiss_9.trf", "DE", pre_determined=False) == expected


def test_round_robin_published_solutions() -> None:
    # exercises 14-16 and 26: pre-determined pairings, the 5-6 forfeit counts as played
    sb = {1: "9.25", 2: "6.25", 3: "6.25", 4: "4.25", 5: "3.25", 6: "2.25"}
    sb_c1 = {1: "9.25", 2: "4.75", 3: "4.75", 4: "4.25", 5: "3.25", 6: "1.5"}
    ks = {1: "2", 2: "0.5", 3: "0.5", 4: "1", 5: "0.5", 6: "0"}
    assert values("round_robin.trf", "SB", pre_determined=True) == exact(sb)
    assert values("round_robin.trf", "SB-C1", pre_determined=True) == exact(sb_c1)
    assert values("round_robin.trf", "KS", pre_determined=True) == exact(ks)
    assert ranks("round_robin.trf", "DE", pre_determined=True) == {1: 1, 2: 2, 3: 2, 4: 6, 5: 5, 6: 4}


def test_round_robin_is_recognised_as_pre_determined() -> None:
    # 6 players, 5 rounds: no more players than rounds + 1
    assert history_from_trf(read(HELD / "round_robin.trf")).pre_determined
    assert not history_from_trf(read(HELD / "swiss_5.trf")).pre_determined


# 2026 edition: only the values touched by the 16.4 cap change.
def test_2026_cap_player_4_half_point_bye() -> None:
    # Player 4 (3.5 points) took an HPB in round 2. 2024: dummy = own score 3.5.
    # 2026: dummy = min(3.5, 0.5 x 5 rounds) = 2.5. Opponents: 12 (2.0 real; Z Z after the forfeit
    # win of round 3 count as draws → adjusted 3.0), 13 (1.5), 3 (3.5), 1 (3.5).
    # BH = 3.0 + 2.5 + 1.5 + 3.5 + 3.5 = 14.0 (2024: 15.0)
    # SB = 3.0x1 + 2.5x0.5 + 1.5x1 + 3.5x0.5 + 3.5x0.5 = 9.25 (2024: 9.75)
    assert values("swiss_5.trf", "BH", Edition.E2026)[4] == 14
    assert values("swiss_5.trf", "SB", Edition.E2026)[4] == q("9.25")


def test_2026_cap_forfeits() -> None:
    # Player 11 (2.5) won by forfeit against player 9 in round 4: 2024 dummy = 2.5; 2026 dummy =
    # min(2.5, adjusted score of 9). Player 9 (1.5): H in round 3, forfeit loss in round 4, U in
    # round 5 → the U is not voluntarily unplayed, so nothing is adjusted: 1.5.
    # BH 13.5 - 2.5 + 1.5 = 12.5; SB 5.75 - 2.5 x 1 + 1.5 x 1 = 4.75.
    assert values("swiss_5.trf", "BH", Edition.E2026)[11] == q("12.5")
    assert values("swiss_5.trf", "SB", Edition.E2026)[11] == q("4.75")
    # Player 6 (3.0) had a PAB in round 3: 2024 dummy 3.0, 2026 min(3.0, 2.5) = 2.5;
    # SB 6.5 - 3.0 x 1 + 2.5 x 1 = 6.0; SB-C1 5.5 → 5.0.
    assert values("swiss_5.trf", "SB", Edition.E2026)[6] == 6
    assert values("swiss_5.trf", "SB-C1", Edition.E2026)[6] == 5
