from fractions import Fraction
from pathlib import Path

import pytest

from shared.trf import ResultCode, TrfColour, TrfError, parse, read, write
from tests.fixtures import FIXTURES

REFERENCE_FILES = sorted((FIXTURES / "dutch").glob("*.trf")) + sorted((FIXTURES / "tiebreaks").glob("*.trf"))

LINE = (
    "001    3      Test0003 Player0003               2545                             2.0    3"
    "     9 w 1  0000 - H     2 b ="
)


@pytest.mark.parametrize("path", REFERENCE_FILES, ids=lambda p: p.name)
def test_export_of_import_is_exact(path: Path) -> None:
    assert write(read(path)) == path.read_text()


def test_player_line_columns() -> None:
    doc = parse(
        LINE
        + "\n"
        + LINE.replace("001    3", "001    9").replace("     9 w 1", "     3 b 0").replace("     2 b =", "")
        + "\n"
        + "001    2      X".ljust(91)
        + " " * 20
        + "   3 w ="
        + "\nXXR 5\nXXC black1\n"
    )
    p = doc.players[3]
    assert (p.name, p.rating, p.points, p.rank) == ("Test0003 Player0003", 2545, Fraction(2), 3)
    assert p.rounds[0] is not None and p.rounds[0].opponent == 9 and p.rounds[0].colour is TrfColour.WHITE
    assert p.rounds[1] is not None and p.rounds[1].opponent is None
    assert p.rounds[1].result is ResultCode.HALF_POINT_BYE
    assert p.rounds[2] is not None and p.rounds[2].result is ResultCode.DRAW
    assert doc.total_rounds == 5 and doc.initial_colour is TrfColour.BLACK


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("012 x\n001    1      A\n001    1      B\n", "<trf>:3: start number 1 already given on line 2"),
        ("001    1      A" + " " * 76 + "   7 w 1\n", "<trf>:1: round 1: unknown opponent 7"),
        ("001    1      A" + " " * 76 + "   2 x 1\n001    2\n", "colour must be w, b or -"),
        ("001    1      A" + " " * 76 + "   2 w Q\n001    2\n", "unknown result code 'Q'"),
        ("001   x1\n", "<trf>:1: the start number in columns 5-8 must be a number"),
        ("XXR many\n", "<trf>:1: XXR needs the number of rounds"),
        ("001    1                                       12a4\n", "the rating in columns 49-52"),
    ],
)
def test_bad_lines_name_the_line(text: str, message: str) -> None:
    with pytest.raises(TrfError) as info:
        parse(text)
    assert message in str(info.value)


def test_unreadable_file_is_a_trf_error(tmp_path: Path) -> None:
    with pytest.raises(TrfError, match="cannot read file"):
        read(tmp_path / "missing.trf")


def _two(first: str, second: str) -> str:
    """Players 1 and 2 with one round block each (line 2 and line 3)."""
    return (
        "012 x\n" + "001    1      A".ljust(91) + first + "\n" + "001    2      B".ljust(91) + second + "\n"
    )


@pytest.mark.parametrize(
    ("first", "second", "message"),
    [
        (
            "   2 w 1",
            "",
            "<trf>:2: round 1: player 1 plays 2, but player 2 has no game in that round (line 3)",
        ),
        (
            "   2 w 1",
            "0000 - H",
            "<trf>:2: round 1: player 1 plays 2, but player 2 has no game in that round",
        ),
        ("   2 w 1", "   2 w 1", "<trf>:3: round 1: player 2 paired with themselves"),
        (
            "   2 w 1",
            "   1 w 0",
            "<trf>:2: round 1: player 1 plays 2 with white, but player 2 has white (line 3)",
        ),
        ("   2 w +", "   1 - -", "<trf>:2: round 1: player 1 plays 2 with white, but player 2 has no colour"),
        (
            "   2 w 1",
            "   1 b 1",
            "<trf>:2: round 1: player 1 plays 2, result '1', but player 2's result is '1'",
        ),
        ("   2 w =", "   1 b 0", "player 2's result is '0' (line 3)"),
        ("   2 w +", "   1 b 0", "player 2's result is '0' (line 3)"),
        ("   2 w +", "   1 b +", "player 2's result is '+' (line 3)"),
    ],
)
def test_games_whose_lines_disagree_are_refused_naming_both_lines(
    first: str, second: str, message: str
) -> None:
    with pytest.raises(TrfError) as info:
        parse(_two(first, second))
    assert message in str(info.value)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("   2 w 1", "   1 b 0"),
        ("   2 b =", "   1 w ="),
        ("   2 w W", "   1 b L"),
        ("   2 w 1", "   1 b L"),  # a win and a loss, whichever letters
        ("   2 w +", "   1 b -"),
        ("   2 - -", "   1 - +"),
        ("   2 - -", "   1 - -"),  # a double forfeit
    ],
)
def test_games_whose_lines_agree_are_read(first: str, second: str) -> None:
    doc = parse(_two(first, second))
    assert doc.players[1].rounds[0] is not None and doc.players[1].rounds[0].opponent == 2


def test_a_number_in_other_digits_is_bad_input_not_a_crash(tmp_path):
    """str.isdigit() takes '²' (and other scripts' digits), which int() refuses: the reader must say so."""
    from shared.trf import TrfError, read

    path = tmp_path / "odd.trf"
    path.write_text(
        "XXR 1\n001    ²      Test                              1500                             0.0    1\n"
    )
    with pytest.raises(TrfError, match="must be a number"):
        read(path)
