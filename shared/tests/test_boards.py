"""The one interface over the move generators (python-chess, pydraughts): start positions, legal
moves, notation, replaying lines. Checked against published move-generation counts (perft)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from shared.games import boards
from shared.variants import Variant

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(
    ("variant", "first_moves"),
    [("chess", 20), ("international", 9), ("english", 7), ("italian", 7), ("russian", 7)],
)
def test_every_variant_starts_with_its_legal_moves(variant, first_moves):
    start = boards.start(variant)
    assert start.variant is Variant(variant)
    assert len(boards.legal_moves(start)) == first_moves


def test_who_moves_first():
    # English draughts: Black moves first; everywhere else White
    assert [boards.white_to_move(boards.start(v)) for v in Variant] == [True, True, False, True, True]


@pytest.mark.parametrize(
    ("variant", "counts"),
    [
        ("chess", (20, 400, 8902)),  # perft 1-3 of the initial position
        ("international", (9, 81, 658)),  # 10×10 draughts perft
        ("english", (7, 49, 302)),  # checkers perft
    ],
)
def test_lines_match_published_perft(variant, counts):
    start = boards.start(variant)
    assert tuple(len(boards.branches(start, plies)) for plies in (1, 2, 3)) == counts


def test_chess_moves_are_written_in_san_and_read_in_san_or_uci():
    line = boards.replay("chess", ["e2e4", "e5", "g1f3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6", "O-O"])
    assert line.moves == ("e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6", "O-O")
    assert line.position.fen == "r1bqkbnr/1pp2ppp/p1p5/4p3/4P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 1 5"
    assert boards.notation(boards.start("chess"), "g1f3") == "Nf3"


def test_draughts_moves_are_written_as_the_variant_writes_them():
    # a capture written with a dash and leading zeros (as pydraughts' ballots do) gets its x
    english = boards.replay("english", ["09-13", "22-17", "13-22"])
    assert english.moves == ("9-13", "22-17", "13x22")
    # Russian draughts: algebraic squares (numeric ones are read too)
    russian = boards.replay("russian", ["c3-d4", "f6-g5", "g3-f4"])
    assert russian.moves == ("c3-d4", "f6-g5", "g3-f4")
    assert boards.replay("russian", ["10-14"]).moves == ("c3-d4",)
    assert boards.legal_moves(boards.start("international"))[:3] == ("31-26", "31-27", "32-27")


def test_an_illegal_move_is_named_with_its_number():
    with pytest.raises(boards.IllegalMove, match=r"move 2 \('21-18'\).*legal: 9-13"):
        boards.replay("italian", ["21-17", "21-18"])
    with pytest.raises(boards.IllegalMove, match="not a legal chess move"):
        boards.replay("chess", ["e4", "e4"])


def test_transposed_lines_reach_the_same_position():
    a = boards.replay("chess", ["e3", "e6", "Nf3"]).position
    b = boards.replay("chess", ["Nf3", "e6", "e3"]).position
    assert a.fen != b.fen and a.key == b.key  # different move counters, the same position
    assert a.key != boards.replay("chess", ["e3", "e5", "Nf3"]).position.key
    c = boards.replay("international", ["31-26", "20-25", "32-27"]).position
    d = boards.replay("international", ["32-27", "20-25", "31-26"]).position
    assert c.key == d.key


def test_an_unknown_variant_lists_the_variants():
    with pytest.raises(boards.UnknownVariant) as refused:
        boards.start("checkers")
    assert refused.value.slug == "unknown-variant"
    assert str(refused.value) == (
        "unknown variant 'checkers': the variants are chess, international, english, italian, russian"
    )


def test_importing_the_games_and_openings_loads_no_move_generator():
    """The CLI imports these modules; the generators load only when a position is asked for."""
    code = (
        "import sys, shared.games.boards, shared.openings;"
        "print(sorted(m for m in ('chess', 'draughts') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
