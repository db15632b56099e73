"""The 4T1 group table by hand, one table per criterion (a)-(f) (RULES.md §5).

Each match is written ``_match(a, b, first, second)``: a has White in the first game, b in the second;
board points 1/½/0, match points 2:0 (more board points), 1:1, 0:2."""

from __future__ import annotations

from fractions import Fraction as F

from shared.group_table import TableMatch, group_table
from shared.lots import draw_lots
from shared.scoring import Outcome

W, D, B = Outcome.WHITE_WIN, Outcome.DRAW, Outcome.BLACK_WIN


def _match(a: int, b: int, first: Outcome, second: Outcome) -> TableMatch:
    return TableMatch(a, b, ((first, True), (second, False)))


def _ranks(table) -> list[tuple[int, int]]:
    return [(r.start, r.rank) for r in table.rows]


def test_a_match_points_decide_first() -> None:
    # 1 beats everyone 1.5:0.5 (3 × 2 MP = 6, 4.5 BP); 2 beats 3 and 4 2:0 (4 MP, 4.5 BP: 0.5 + 2 + 2);
    # 3 and 4 draw 1:1; 3: 0.5 + 0 + 1 = 1.5 BP, 1 MP; 4 likewise 1 MP, 1.5 BP → tie left for later
    matches = [
        _match(1, 2, W, D), _match(1, 3, W, D), _match(1, 4, W, D),
        _match(2, 3, W, B), _match(2, 4, W, B), _match(3, 4, D, D),
    ]  # fmt: skip
    table = group_table([1, 2, 3, 4], matches)
    assert [(r.start, r.match_points, r.board_points) for r in table.rows[:2]] == [
        (1, 6, F(9, 2)),
        (2, 4, F(9, 2)),
    ]
    # (a) puts 1 above 2 although their board points are equal
    assert _ranks(table)[:2] == [(1, 1), (2, 2)]


def test_b_board_points_split_equal_match_points() -> None:
    # 1-2 W,B (1: 2 BP) ; 1-3 D,D ; 1-4 B,W (4: 2 BP) ; 2-3 W,D ; 2-4 W,B ; 3-4 W,B
    # MP: 1 = 2+1+0 = 3, 3 = 1+0+2 = 3; BP: 1 = 2+1+0 = 3, 3 = 1+0.5+2 = 3.5 → 3 above 1 by (b)
    matches = [
        _match(1, 2, W, B), _match(1, 3, D, D), _match(1, 4, B, W),
        _match(2, 3, W, D), _match(2, 4, W, B), _match(3, 4, W, B),
    ]  # fmt: skip
    table = group_table([1, 2, 3, 4], matches)
    assert _ranks(table) == [(2, 1), (3, 2), (1, 3), (4, 4)]
    assert table.row(3).tied_match_points is None  # (c) not needed: (b) decided


def test_c_match_points_among_the_tied() -> None:
    # 1-2 W,D: 1 1.5:0.5 → 2:0       1-3 D,W: 1 0.5:1.5 → 0:2     1-4 D,D: 1:1
    # 2-3 W,D: 2 1.5:0.5 → 2:0       2-4 D,D: 1:1                  3-4 W,B: 3 2:0
    # 1: MP 2+0+1 = 3, BP 1.5+0.5+1 = 3; 2: MP 0+2+1 = 3, BP 0.5+1.5+1 = 3 → tied on (a), (b)
    # 3: MP 2+0+2 = 4, BP 1.5+0.5+2 = 4; 4: MP 1+1+0 = 2, BP 2
    # (c) among 1 and 2: 1 won their match → 2:0 → 1 above 2
    matches = [
        _match(1, 2, W, D), _match(1, 3, D, W), _match(1, 4, D, D),
        _match(2, 3, W, D), _match(2, 4, D, D), _match(3, 4, W, B),
    ]  # fmt: skip
    table = group_table([1, 2, 3, 4], matches)
    assert [(r.start, r.match_points, r.board_points) for r in table.rows] == [
        (3, 4, 4), (1, 3, 3), (2, 3, 3), (4, 2, 2),
    ]  # fmt: skip
    assert (table.row(1).tied_match_points, table.row(2).tied_match_points) == (2, 0)
    assert _ranks(table) == [(3, 1), (1, 2), (2, 3), (4, 4)]


def test_d_board_points_among_the_tied() -> None:
    # In a group of four (d) can never decide: three players tied on (a) and (b) would need equal
    # match points among them (a cycle of wins, whose board points among them span a full point) and
    # the same match points against the fourth (which move board points by half a point at most).
    # With five players it can: 1, 2, 3 beat each other in a cycle, 2 MP each among them, with board
    # points among them 1: 2 (v 2) + 0.5 (v 3) = 2.5, 2: 0 + 1.5 = 1.5, 3: 0.5 + 1.5 = 2, and the
    # matches against 4 and 5 level them: 1 +1.5 (1.5:0.5 v 4, 0:2 v 5), 2 +2.5 (2:0, 0.5:1.5),
    # 3 +2 (2:0, 0:2) → 4 MP and 4 BP each. (d): 1 (2.5), 3 (2), 2 (1.5).
    matches = [
        _match(1, 2, W, B), _match(2, 3, W, D), _match(3, 1, W, D),
        _match(1, 4, W, D), _match(1, 5, B, W), _match(2, 4, W, B), _match(2, 5, D, W),
        _match(3, 4, W, B), _match(3, 5, B, W), _match(4, 5, D, D),
    ]  # fmt: skip
    table = group_table([1, 2, 3, 4, 5], matches)
    assert [(r.start, r.match_points, r.board_points) for r in table.rows[1:4]] == [
        (1, 4, 4),
        (3, 4, 4),
        (2, 4, 4),
    ]
    assert [table.row(s).tied_match_points for s in (1, 2, 3)] == [2, 2, 2]
    assert [table.row(s).tied_board_points for s in (1, 3, 2)] == [F(5, 2), 2, F(3, 2)]
    assert _ranks(table) == [(5, 1), (1, 2), (3, 3), (2, 4), (4, 5)]
    assert table.playoff_groups == ()


def test_e_a_two_player_playoff() -> None:
    # 1 and 2 draw everything with each other and with 3 and 4 the same way: 1-2 D,D; both beat 3
    # 2:0 and lose to 4 0:2; 3-4 D,D → 1, 2: 3 MP, 3 BP, 1:1 among them → play-off
    matches = [
        _match(1, 2, D, D), _match(1, 3, W, B), _match(2, 3, W, B),
        _match(1, 4, B, W), _match(2, 4, B, W), _match(3, 4, D, D),
    ]  # fmt: skip
    table = group_table([1, 2, 3, 4], matches)
    assert table.playoff_groups == ((1, 2),)
    assert table.row(1).playoff_needed and table.row(1).rank == table.row(2).rank
    # the play-off: 2 wins it 1.5:0.5 (2 White in game 2 wins, game 1 drawn)
    decided = group_table([1, 2, 3, 4], matches, playoffs=[_match(1, 2, D, W)])
    assert decided.playoff_groups == ()
    assert [s for s, _ in _ranks(decided)] == [4, 2, 1, 3]
    assert decided.row(2).rank < decided.row(1).rank


def test_e_a_three_way_playoff_round_robin_ordered_by_c() -> None:
    # all three group games drawn 1:1 → play-off round robin of 1, 2, 3; in the play-off 1 beats 2
    # and 2 beats 3 (2:0 each), 3 beats 1 2:0 → 2 MP, 2 BP each in the play-off: still tied → lots
    matches = [_match(1, 2, D, D), _match(1, 3, D, D), _match(2, 3, D, D)]
    cycle = [_match(1, 2, W, B), _match(2, 3, W, B), _match(3, 1, W, B)]
    assert group_table([1, 2, 3], matches, playoffs=cycle).playoff_groups == ()
    tied = group_table([1, 2, 3], matches, playoffs=cycle)
    assert {r.rank for r in tied.rows} == {1}
    # another play-off: 1 and 2 draw 1:1, both beat 3 → 1 and 2 tied on play-off (a), (b), and their
    # own play-off match is 1:1 → (c), (d) leave them tied; 3 is third
    level = [_match(1, 2, D, D), _match(1, 3, W, B), _match(2, 3, W, B)]
    table = group_table([1, 2, 3], matches, playoffs=level)
    assert [(r.start, r.rank) for r in table.rows] == [(1, 1), (2, 1), (3, 3)]
    # the play-off placed by (c): 1 beat 2 1.5:0.5, 2 beat 3 2:0, 3 beat 1 1.5:0.5 → play-off MP 2
    # each; BP 1: 1.5 + 0.5 = 2, 2: 0.5 + 2 = 2.5, 3: 0 + 1.5 = 1.5 → (b) of the play-off: 2, 1, 3
    uneven = [_match(1, 2, W, D), _match(2, 3, W, B), _match(3, 1, W, D)]
    assert [r.start for r in group_table([1, 2, 3], matches, playoffs=uneven).rows] == [2, 1, 3]


def test_f_lots_after_the_playoff_recorded_and_reproducible() -> None:
    matches = [_match(1, 2, D, D), _match(1, 3, D, D), _match(2, 3, D, D)]
    cycle = [_match(1, 2, W, B), _match(2, 3, W, B), _match(3, 1, W, B)]
    table = group_table([1, 2, 3], matches, playoffs=cycle, lots_seed="organiser 2026-12-01")
    assert table.lots == draw_lots([[1, 2, 3]], "organiser 2026-12-01")
    assert [r.start for r in table.rows] == list(table.lots.groups[0])
    assert [r.rank for r in table.rows] == [1, 2, 3]
    assert table == group_table([1, 2, 3], matches, playoffs=cycle, lots_seed="organiser 2026-12-01")
