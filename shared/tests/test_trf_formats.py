"""TRF-16 / TRF-2026 records, case-insensitive result codes, errors with line numbers, and the
round trip on generated documents (hypothesis): export → import is the identity."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared.trf import (
    ByeRecord,
    PlayerRecord,
    ResultCode,
    RoundEntry,
    TableRules,
    TrfColour,
    TrfDocument,
    TrfError,
    parse,
    write,
)

PAD = " " * 76


def player(start: int, blocks: str = "", name: str = "X") -> str:
    line = f"001 {start:4d}      {name}"
    return (line.ljust(91) + blocks) if blocks else line


TRF2026 = (
    "\n".join(
        [
            "### a comment line",
            "012 Club championship",
            "042 2026/04/01",
            "092 Individual: Swiss-System",
            "142 5",
            "152 B",
            "162  W 3.0    D 1.0    L 0.0    A 0.0    P 3.0    X 1.0",
            "172 PTS",
            "192 FIDE_DUTCH_2025",
            "202 BH/C1, BH, SB",
            "222 5400+30",
            player(1, "   2 w 1  0000 - h     3 b ="),
            player(2, "   1 b 0     3 w 1  0000 - u"),
            player(3, "0000 - H     2 b 0     1 w ="),
            "240 F 004  0001  0002",
            "260 1 3",
        ]
    )
    + "\n"
)


def test_trf_2026_records() -> None:
    doc = parse(TRF2026)
    assert doc.trf2026 and doc.total_rounds == 5 and doc.initial_colour is TrfColour.BLACK
    assert doc.start_date == dt.date(2026, 4, 1)
    assert doc.point_system["162W"] == 3 and doc.point_system["162X"] == 1
    assert (doc.rank_method, doc.type_code, doc.time_control) == ("PTS", "FIDE_DUTCH_2025", "5400+30")
    assert doc.tiebreaks == ["BH/C1", "BH", "SB"] and not doc.tiebreaks_with_points
    assert doc.byes == [ByeRecord("F", 4, (1, 2))]
    assert doc.forbidden_pairs == [(1, 3)]
    # result codes are case-insensitive
    assert doc.players[1].rounds[1] == RoundEntry(None, TrfColour.NONE, ResultCode.HALF_POINT_BYE)
    assert doc.players[2].rounds[2] == RoundEntry(None, TrfColour.NONE, ResultCode.PAIRING_ALLOCATED_BYE)
    assert write(doc) == TRF2026  # exact, lowercase codes and the comment included


def test_212_lists_points() -> None:
    doc = parse("212 PTS BH SB\n")
    assert doc.tiebreaks == ["PTS", "BH", "SB"] and doc.tiebreaks_with_points


def test_extension_records() -> None:
    text = (
        "\n".join(
            [
                player(1, "   2 w W"),
                player(2, "   1 b L"),
                "XXR 7",
                "XXC rank white1",
                "XXP 1 2",
                "XXZ 2",
                "XXA    1  1.0  1.0",
                "XXS WW=1.0 BW=1.5 HPB=0.5",
                "BBW 3.0",
            ]
        )
        + "\n"
    )
    doc = parse(text)
    assert doc.total_rounds == 7 and doc.ranking_by_rating and doc.initial_colour is TrfColour.WHITE
    assert doc.forbidden_pairs == [(1, 2)] and doc.absent_next == {2}
    assert doc.accelerations == {1: [Fraction(1), Fraction(1)]}
    assert doc.point_system == {"WW": 1, "BW": Fraction(3, 2), "HPB": Fraction(1, 2), "BBW": 3}
    assert doc.players[1].rounds[0] == RoundEntry(2, TrfColour.WHITE, ResultCode.WIN_UNRATED)
    assert write(doc) == text


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("001    1\n240 Q 001  0001\n", "<trf>:2: 240: unknown bye type 'Q'"),
        ("240 H 001  0007\n001    1\n", "<trf>:1: 240 names unknown player 7"),
        ("001    1\n260 1 9\n", "<trf>:2: 260 names unknown player 9"),
        ("XXS WW=1 QQ=2\n", "<trf>:1: XXS: unknown code 'QQ'"),
        ("162  W x.5\n", "<trf>:1: 162 W must be a decimal number"),
        ("\n\n042 31/31/2026\n", "<trf>:3: unrecognised date"),
        (player(1, "   2 w 1") + "\n" + player(2, "   1 b 0 X") + "\n", "<trf>:2: round 1: columns 100-101"),
        (
            player(1, "   2 w 1") + "\n" + player(2, "   1 b 0     1 w y") + "\n",
            "<trf>:2: round 2 (columns 102-109): unknown result code 'y'",
        ),
    ],
)
def test_bad_records_name_the_line(text: str, message: str) -> None:
    with pytest.raises(TrfError) as info:
        parse(text)
    assert message in str(info.value)


def test_changed_player_is_laid_out_again() -> None:
    doc = parse(TRF2026)
    doc.players[3].points = Fraction(3, 2)
    text = write(doc)
    assert "  1.5" in text.splitlines()[13]
    assert parse(text).players[3].points == Fraction(3, 2)


# -- generated documents -----------------------------------------------------------------------

_NAME = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz ,-.", min_size=1, max_size=33).map(str.strip).filter(bool)  # fmt: skip
_PLAYED = [ResultCode.WIN, ResultCode.DRAW, ResultCode.LOSS, ResultCode.WIN_UNRATED, ResultCode.DRAW_UNRATED, ResultCode.LOSS_UNRATED]  # fmt: skip
_NO_OPPONENT = [
    ResultCode.HALF_POINT_BYE,
    ResultCode.FULL_POINT_BYE,
    ResultCode.PAIRING_ALLOCATED_BYE,
    ResultCode.ZERO_POINT_BYE,
    ResultCode.FORFEIT_WIN,
    ResultCode.FORFEIT_LOSS,
]


_MIRROR = {
    ResultCode.WIN: ResultCode.LOSS,
    ResultCode.LOSS: ResultCode.WIN,
    ResultCode.DRAW: ResultCode.DRAW,
    ResultCode.WIN_UNRATED: ResultCode.LOSS_UNRATED,
    ResultCode.LOSS_UNRATED: ResultCode.WIN_UNRATED,
    ResultCode.DRAW_UNRATED: ResultCode.DRAW_UNRATED,
}
_OPPOSITE = {
    TrfColour.WHITE: TrfColour.BLACK,
    TrfColour.BLACK: TrfColour.WHITE,
    TrfColour.NONE: TrfColour.NONE,
}


@st.composite
def round_entries(draw: st.DrawFn, players: int) -> dict[int, RoundEntry | None]:
    """One round: some games (both lines agree: opponents, colours, mirrored results, forfeits
    as a win against a loss or two losses), the other players a bye or nothing."""
    order = draw(st.permutations(list(range(1, players + 1))))
    games = draw(st.integers(0, players // 2))
    out: dict[int, RoundEntry | None] = {}
    for i in range(games):
        a, b = order[2 * i], order[2 * i + 1]
        if draw(st.booleans()):
            colour = draw(st.sampled_from([TrfColour.WHITE, TrfColour.BLACK]))
            result = draw(st.sampled_from(_PLAYED))
            out[a], out[b] = RoundEntry(b, colour, result), RoundEntry(a, _OPPOSITE[colour], _MIRROR[result])
        else:
            colour = draw(st.sampled_from(list(TrfColour)))
            first, second = draw(
                st.sampled_from(
                    [
                        (ResultCode.FORFEIT_WIN, ResultCode.FORFEIT_LOSS),
                        (ResultCode.FORFEIT_LOSS, ResultCode.FORFEIT_WIN),
                        (ResultCode.FORFEIT_LOSS, ResultCode.FORFEIT_LOSS),
                    ]
                )
            )
            out[a], out[b] = RoundEntry(b, colour, first), RoundEntry(a, _OPPOSITE[colour], second)
    for p in order[2 * games :]:
        out[p] = draw(
            st.none() | st.sampled_from(_NO_OPPONENT).map(lambda r: RoundEntry(None, TrfColour.NONE, r))
        )
    return out


@st.composite
def documents(draw: st.DrawFn) -> TrfDocument:
    count = draw(st.integers(1, 8))
    rounds = draw(st.integers(0, 6))
    doc = TrfDocument()
    played = [draw(round_entries(count)) for _ in range(rounds)]
    for start in range(1, count + 1):
        blocks = [entries[start] for entries in played]
        while blocks and blocks[-1] is None:
            blocks.pop()
        doc.players[start] = PlayerRecord(
            start=start,
            name=draw(_NAME),
            sex=draw(st.sampled_from(["", "m", "w"])),
            title=draw(st.sampled_from(["", "GM", "IM", "WFM", "CM"])),
            rating=draw(st.none() | st.integers(1000, 2900)),
            federation=draw(st.sampled_from(["", "NOR", "GER", "FRA"])),
            fide_id=draw(st.sampled_from(["", "1503014", "24176214"])),
            birth=draw(st.sampled_from(["", "1990/01/01", "2005/12/31"])),
            points=draw(st.none() | st.integers(0, 199).map(lambda h: Fraction(h, 2))),
            rank=draw(st.none() | st.integers(1, 999)),
            rounds=blocks,
        )
    doc.name = draw(st.sampled_from(["", "Open", "Club championship 2026"]))
    doc.start_date = draw(st.none() | st.dates(dt.date(2000, 1, 1), dt.date(2030, 12, 31)))
    doc.trf2026 = draw(st.booleans())
    doc.total_rounds = draw(st.none() | st.integers(1, 15))
    doc.initial_colour = draw(st.none() | st.sampled_from([TrfColour.WHITE, TrfColour.BLACK]))
    doc.ranking_by_rating = draw(st.booleans())
    if count >= 2:
        doc.forbidden_pairs = draw(
            st.lists(st.tuples(st.integers(1, count), st.integers(1, count)), max_size=2)
        )
        doc.absent_next = draw(st.sets(st.integers(1, count), max_size=2))
        doc.byes = draw(st.lists(st.builds(ByeRecord, st.sampled_from("HFZU"), st.integers(1, 9), st.tuples(st.integers(1, count))), max_size=2))  # fmt: skip
    doc.tiebreaks = draw(
        st.lists(st.sampled_from(["BH", "BH/C1", "SB", "ARO", "DE"]), max_size=3, unique=True)
    )
    doc.tiebreaks_with_points = bool(doc.tiebreaks) and draw(st.booleans())
    doc.table_rules = TableRules(
        tiebreaks=draw(st.lists(st.sampled_from(["BH/C1", "SB", "WIN"]), max_size=3, unique=True)),
        shown=draw(st.lists(st.sampled_from(["BH", "SB"]), max_size=2, unique=True)),
        byes_as_opponents=draw(st.sampled_from([None, True, False])),
        platform_definitions=draw(st.sampled_from([None, True, False])),
        lots_seed=draw(st.sampled_from([None, "5f0c7f6e-2d1c-4c0b-9d59-8c3f3f0e2a11"])),
    )
    doc.time_control = draw(st.sampled_from(["", "5400+30", "900+10"]))
    doc.type_code = draw(st.sampled_from(["", "FIDE_DUTCH_2025"]))
    if doc.trf2026:
        doc.point_system = draw(
            st.sampled_from([{}, {"162W": Fraction(2), "162D": Fraction(1), "162L": Fraction(0)}])
        )
    else:
        doc.point_system = draw(st.sampled_from([{}, {"WW": Fraction(3), "BW": Fraction(3)}, {"BBW": Fraction(3), "BBD": Fraction(1)}]))  # fmt: skip
    return doc


def _model(doc: TrfDocument) -> tuple[object, ...]:
    return (
        doc.players, doc.name, doc.start_date, doc.total_rounds, doc.initial_colour, doc.ranking_by_rating,
        doc.forbidden_pairs, doc.absent_next, doc.byes, doc.tiebreaks, doc.tiebreaks_with_points,
        doc.time_control, doc.type_code, doc.point_system, doc.table_rules,
    )  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(documents())
def test_export_then_import_is_the_identity(doc: TrfDocument) -> None:
    text = write(doc)
    again = parse(text)
    assert _model(again) == _model(doc)
    assert write(again) == text
    assert write(again, canonical=True) == text


def test_arbiters_extension_records_are_read_and_refused_when_malformed() -> None:
    doc = parse(player(1) + "\nXAR TIEBREAKS BH/C1, SB\nXAR SHOWN BH\nXAR BYES no-opponent\nXAR LOTS abc\n")
    assert doc.table_rules == TableRules(["BH/C1", "SB"], ["BH"], False, "abc")
    assert parse(player(1) + "\nXAR DEFINITIONS platform\n").table_rules.platform_definitions is True
    assert parse(player(1) + "\nXAR DEFINITIONS C07\n").table_rules.platform_definitions is False
    assert not doc.trf2026  # an extension, not a TRF-2026 record
    for bad, message in (
        ("XAR BYES SOMETIMES", "XAR BYES is OPPONENT or NO-OPPONENT"),
        ("XAR DEFINITIONS FMJD", "XAR DEFINITIONS is PLATFORM or C07"),
        ("XAR COLOURS W", "XAR: unknown rule 'COLOURS'"),
        ("XAR SHOWN", "XAR SHOWN needs a value"),
    ):
        with pytest.raises(TrfError, match=message) as caught:
            parse(player(1) + "\n" + bad + "\n")
        assert caught.value.line == 2
