"""The adapter from a TRF document to the tie-break history model."""

from __future__ import annotations

from fractions import Fraction

from services.standings.domain.from_trf import history_from_trf, is_pre_determined, point_system_from_trf
from shared.scoring import Result
from shared.trf import parse, read
from tests.fixtures import FIXTURES

F = Fraction


def line(start: int, blocks: str) -> str:
    return f"001 {start:4d}      P{start}".ljust(91) + blocks


def test_point_system_from_162() -> None:
    # the reference files' record: win 2, draw 1, loss 0, zero-point absence 0, PAB 2, HPB 1
    system = point_system_from_trf(read(FIXTURES / "tiebreaks" / "dutch_008.s210.2024.trf"))
    assert (system.win, system.draw, system.loss) == (2, 1, 0)
    assert (system.pairing_bye, system.half_point_bye, system.zero_point_bye) == (2, 1, 0)
    assert system.forfeit_win == 2


def test_point_system_from_xxs_and_bb() -> None:
    xxs = point_system_from_trf(parse("XXS WW=3 BW=3 WD=1 BD=1 PAB=1 FL=-1\n"))
    assert (xxs.win, xxs.draw, xxs.pairing_bye, xxs.forfeit_loss) == (3, 1, 1, -1)
    assert xxs.points(Result.WIN, black=True) == 3
    bb = point_system_from_trf(parse("BBW 3.0\nBBD 1.0\n"))
    # BBU defaults to the win (bbpPairings), the other values to 1-½-0 defaults
    assert (bb.win, bb.draw, bb.pairing_bye, bb.loss) == (3, 1, 3, 0)
    default = point_system_from_trf(parse("012 x\n"))
    assert (default.win, default.draw) == (1, F(1, 2))


def test_162_p_and_z_score_the_history() -> None:
    # as bbpPairings reads 162: P is the pairing-allocated bye, Z both the zero-point bye and the
    # forfeit loss; the points of each round come from them, whatever the score column says
    text = "\n".join(
        [
            "162  W 3.0    D 1.0    Z 0.5    P 1.0",
            line(1, "   2 w +  0000 - U"),
            line(2, "   1 b -  0000 - Z"),
            line(3, "0000 - U     4 w 1"),
            line(4, "0000 - Z     3 b 0"),
        ]
    )
    history = history_from_trf(parse(text + "\n"))
    assert history.entry(1, 1).points == 3 and history.entry(1, 2).points == 1
    assert history.entry(2, 1).points == F(1, 2) and history.entry(2, 2).points == F(1, 2)
    assert history.entry(3, 1).result is Result.PAIRING_BYE and history.entry(3, 1).points == 1
    assert history.entry(4, 1).points == F(1, 2) and history.entry(4, 2).points == 0


def test_pre_determined_by_type_record_or_size() -> None:
    four_rr = "\n".join([line(1, "   2 w 1"), line(2, "   1 b 0"), line(3, "   4 w ="), line(4, "   3 b =")])
    # 4 players, 1 round: more players than rounds + 1 → Swiss unless the type says otherwise
    assert not is_pre_determined(parse(four_rr + "\n"))
    assert is_pre_determined(parse("092 Round robin\n" + four_rr + "\n"))
    assert is_pre_determined(parse("XXR 3\n" + four_rr + "\n"))  # 4 players <= 3 rounds + 1
    assert not is_pre_determined(parse("192 FIDE_DUTCH_2025\nXXR 3\n" + four_rr + "\n"))


def test_rounds_and_entries() -> None:
    # round 2 holds only a pre-booked half-point bye (no pairing yet): the tie-breaks look at round 1
    text = "\n".join(
        [
            line(1, "   2 w -  0000 - H"),
            line(2, "   1 b -"),
            line(3, "0000 - U"),
        ]
    )
    history = history_from_trf(parse(text + "\n"))
    assert history.rounds == 1
    # 1 and 2 both forfeited: a double forfeit, both score the double-forfeit points (0)
    assert history.entry(1, 1).result is Result.FORFEIT_LOSS
    assert history.entry(1, 1).opponent == 2 and history.entry(1, 1).points == 0
    assert history.entry(3, 1).result is Result.PAIRING_BYE and history.entry(3, 1).points == 1
    # the unrated result letters are games played over the board
    played = history_from_trf(parse(line(1, "   2 w W") + "\n" + line(2, "   1 b L") + "\n"))
    assert played.entry(1, 1).played and played.entry(1, 1).result is Result.WIN


def test_point_system_inferred_from_the_score_column() -> None:
    # no scoring record: 2-1-0 totals (win 2, PAB 2) are recognised; so is a half-point PAB
    two = "\n".join(
        [
            "001    1      A".ljust(80) + " 2.0".ljust(11) + "   2 w 1",
            "001    2      B".ljust(80) + " 0.0".ljust(11) + "   1 b 0",
            "001    3      C".ljust(80) + " 2.0".ljust(11) + "0000 - U",
        ]
    )
    system = point_system_from_trf(parse(two + "\n"))
    assert (system.win, system.draw, system.pairing_bye) == (2, 1, 2)
    # A 1.0 (a win), B 0.0, C 0.5 (the PAB): 1-½-0 with a half-point PAB
    half = two.replace(" 2.0", " 1.0", 1).replace("C".ljust(66) + " 2.0", "C".ljust(66) + " 0.5")
    system = point_system_from_trf(parse(half + "\n"))
    assert (system.win, system.pairing_bye) == (1, F(1, 2))
    # every reference file without a 162 record is 1-½-0 with a full-point PAB
    plain = point_system_from_trf(read(FIXTURES / "tiebreaks" / "dutch_060.2026.trf"))
    assert (plain.win, plain.draw, plain.pairing_bye) == (1, F(1, 2), 1)
