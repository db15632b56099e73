"""The point system a TRF file declares (162, BBx, XXS), read as bbpPairings and JaVaFo read it;
line endings; files that are no text."""

from __future__ import annotations

from fractions import Fraction

import pytest

from shared.scoring import FIDE, PointSystem, Result
from shared.trf import TrfError, declared_points, parse, write

F = Fraction


def points(*records: str) -> PointSystem:
    system = declared_points(parse("\n".join(records) + "\n"))
    assert system is not None
    return system


def test_nothing_declared() -> None:
    assert declared_points(parse("012 x\n")) is None


def test_162_letters() -> None:
    ps = points("162  W 3.0    D 1.0    L 0.5    Z 0.25   P 1.0")
    assert (ps.win, ps.draw, ps.loss, ps.pairing_bye) == (3, 1, F(1, 2), 1)
    # Z: the zero-point bye and the forfeit loss (bbpPairings); a double forfeit is two of them
    assert (ps.zero_point_bye, ps.forfeit_loss, ps.double_forfeit) == (F(1, 4),) * 3
    # W covers the forfeit win and the full-point bye, D the half-point bye (TRF-2026)
    assert (ps.forfeit_win, ps.full_point_bye, ps.half_point_bye) == (3, 3, 1)
    assert ps.black_win is None and ps.points(Result.WIN, black=True) == 3


def test_162_a_is_z_and_x_changes_nothing() -> None:
    # TRF-2026 spells the absence A; X is an unknown (adjourned) result no round block records
    assert points("162  A 0.5") == points("162  Z 0.5")
    assert points("162  W 1.0    X 7.0") == FIDE


def test_pab_follows_the_win_until_given() -> None:
    assert points("162  W 3.0    D 1.0").pairing_bye == 3
    assert points("162  P 1.0", "162  W 3.0").pairing_bye == 1  # P on an earlier line still holds
    assert points("BBU 0.5", "162  W 3.0").pairing_bye == F(1, 2)
    assert points("162  W 3.0    P 0.0", "BBW 2.0").pairing_bye == 0
    assert points("BBW 2.0").pairing_bye == 2


def test_bb_records() -> None:
    ps = points("BBW 2.0", "BBD 1.0", "BBL 0.5", "BBZ 1.0", "BBF 0.5", "BBU 1.5")
    assert (ps.win, ps.draw, ps.loss, ps.pairing_bye) == (2, 1, F(1, 2), F(3, 2))
    assert (ps.zero_point_bye, ps.forfeit_loss) == (1, F(1, 2))  # BBZ and BBF each set one
    assert points("BBZ 1.0").forfeit_loss == 0 and points("BBF 1.0").zero_point_bye == 0


def test_the_last_declaration_wins_across_records() -> None:
    assert points("162  W 9.0    D 9.0", "BBW 2.0", "BBD 1.0").win == 2
    assert points("BBW 9.0", "BBD 9.0", "162  W 3.0    D 1.0").draw == 1
    # a key declared twice counts where it was declared last
    assert points("BBW 9.0", "162  W 3.0", "BBW 2.0").win == 2
    assert points("BBZ 1.0", "162  Z 0.5").zero_point_bye == F(1, 2)
    assert points("162  Z 0.5", "BBZ 1.0").forfeit_loss == F(1, 2)


def test_xxs_as_javafo_reads_it() -> None:
    ps = points("XXS W=3 D=1")
    assert (ps.win, ps.draw, ps.forfeit_win, ps.full_point_bye, ps.half_point_bye) == (3, 1, 3, 3, 1)
    assert ps.pairing_bye == 1  # JaVaFo: PAB keeps its default, "XXS W=3 D=1" is "PAB = draw"
    white_only = points("XXS WW=3")
    assert white_only.points(Result.WIN) == 3 and white_only.points(Result.WIN, black=True) == 1
    assert points("XXS PAB=.5").pairing_bye == F(1, 2)
    assert points("XXS FL=0.5").double_forfeit == F(1, 2)


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ("162  U 0.5", "162: unknown result letter 'U' (expected one of W D L A P X Z)"),
        ("162  H 0.5", "unknown result letter 'H'"),
        ("162  W", "162 W needs its points"),
        ("162", "162 needs a result letter"),
        ("162  W 1.0    D", "162 D needs its points"),
        ("162  W 1,5", "162 W must be a decimal number"),
        ("162  3.0", "162: expected a result letter, got '3.0'"),
    ],
)
def test_bad_162_names_the_line(record: str, message: str) -> None:
    with pytest.raises(TrfError) as info:
        parse("012 x\n" + record + "\n")
    assert str(info.value).startswith("<trf>:2: ") and message in str(info.value)


def test_162_columns_as_bbppairings_writes_them() -> None:
    # the letter in column 6, the points in columns 7-10: "W10.0" has no space in between
    assert points("162  W10.0    D 5.0    P 2.5").win == 10
    doc = parse("162  W10.0    D 5.0    P 2.5\n")
    assert write(doc, canonical=True) == "162  W10.0    D 5.0    P 2.5\n"


@pytest.mark.parametrize("ending", ["\n", "\r\n", "\r"])
def test_line_endings(ending: str) -> None:
    lines = ["012 x", "001    1      A", "001    2      B", "XXR 3", "162  W 3.0"]
    doc = parse(ending.join(lines) + ending)
    assert sorted(doc.players) == [1, 2] and doc.total_rounds == 3
    assert [line.text for line in doc.lines] == lines
    with pytest.raises(TrfError, match=r"<trf>:4: XXR needs the number of rounds"):
        parse(ending.join([*lines[:3], "XXR x"]))


def test_byte_order_mark_and_end_of_file_mark() -> None:
    doc = parse("\ufeff012 x\r\n001    1      A\r\n\x1a")
    assert doc.name == "x" and list(doc.players) == [1]


def test_control_characters_mean_no_text() -> None:
    with pytest.raises(TrfError) as info:
        parse("012 x\n001    1 \x00    A\n")
    assert "<trf>:2: control character 0x00 in column 10: this is not a text file" in str(info.value)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "<trf>: the file is empty"),
        ("\n  \n", "<trf>: the file is empty"),
        ("A tournament, held in May.\n", "<trf>:1: no player (001) lines, and this line is no TRF record"),
        ("012 x\n\nHello\n", "<trf>:3: no player (001) lines, and this line is no TRF record: 'Hello'"),
        ("012 x\nXXR 5\n### note\n", "<trf>: no player (001) lines: there is no tournament to read"),
    ],
)
def test_a_tournament_needs_players(text: str, message: str) -> None:
    assert parse(text).players == {}  # as a document it is fine
    with pytest.raises(TrfError) as info:
        parse(text, need_players=True)
    assert str(info.value).startswith(message)
