"""Scoring: points are derived from outcomes by the ruleset's point system; match scoring."""

from __future__ import annotations

from fractions import Fraction

import pytest

from shared.scoring import FIDE, PLATFORM, MatchScoring, Outcome, PointSystem, Result, side_results

F = Fraction


@pytest.mark.parametrize(
    ("outcome", "fide", "platform"),
    [
        (Outcome.WHITE_WIN, (1, 0), (2, 0)),
        (Outcome.DRAW, (F(1, 2), F(1, 2)), (1, 1)),
        (Outcome.BLACK_WIN, (0, 1), (0, 2)),
        (Outcome.WHITE_FORFEIT_WIN, (1, 0), (2, 0)),
        (Outcome.BLACK_FORFEIT_WIN, (0, 1), (0, 2)),
        (Outcome.DOUBLE_FORFEIT, (0, 0), (0, 0)),
        (Outcome.NOT_PLAYED, (0, 0), (0, 0)),
    ],
)
def test_game_points(
    outcome: Outcome, fide: tuple[Fraction, Fraction], platform: tuple[Fraction, Fraction]
) -> None:
    assert FIDE.game_points(outcome) == fide
    assert PLATFORM.game_points(outcome) == platform


def test_unplayed_rounds() -> None:
    assert [FIDE.points(r) for r in (Result.PAIRING_BYE, Result.FULL_POINT_BYE, Result.HALF_POINT_BYE, Result.ZERO_POINT_BYE)] == [1, 1, F(1, 2), 0]  # fmt: skip
    # platform: the pairing-allocated bye scores like a win (RULES.md §1)
    assert PLATFORM.points(Result.PAIRING_BYE) == 2
    # every kind configurable, e.g. a half-point PAB and a forfeit loss that costs a point
    custom = PointSystem.of(3, 1, 0, pairing_bye=1, forfeit_loss=-1, double_forfeit=0)
    assert custom.points(Result.PAIRING_BYE) == 1
    assert custom.points(Result.FORFEIT_LOSS) == -1
    assert custom.game_points(Outcome.DOUBLE_FORFEIT) == (F(0), F(0))
    assert custom.game_points(Outcome.BLACK_FORFEIT_WIN) == (F(-1), F(3))
    with pytest.raises(ValueError, match="unknown unplayed round kind 'bonus'"):
        PointSystem.of(1, F(1, 2), 0, bonus=1)


def test_colour_dependent_points() -> None:
    # JaVaFo XXS lets Black's win count differently
    system = FIDE.with_values(black_win=F(3, 2))
    assert system.game_points(Outcome.BLACK_WIN) == (F(0), F(3, 2))
    assert system.game_points(Outcome.WHITE_WIN) == (F(1), F(0))


def test_results_of_a_game() -> None:
    assert side_results(Outcome.WHITE_FORFEIT_WIN) == (Result.FORFEIT_WIN, Result.FORFEIT_LOSS)
    assert side_results(Outcome.DOUBLE_FORFEIT) == (Result.FORFEIT_LOSS, Result.FORFEIT_LOSS)
    assert Result.FORFEIT_LOSS.voluntary_unplayed and not Result.FORFEIT_WIN.voluntary_unplayed
    assert not Result.PAIRING_BYE.voluntary_unplayed and Result.HALF_POINT_BYE.voluntary_unplayed


@pytest.mark.parametrize(
    ("games", "board", "match"),
    [
        # (outcome, A had White) per game; board points 1/½/0 → match points 2:0 / 1:1 / 0:2
        ([(Outcome.WHITE_WIN, True), (Outcome.BLACK_WIN, False)], (2, 0), (2, 0)),  # 2:0
        ([(Outcome.WHITE_WIN, True), (Outcome.DRAW, False)], (F(3, 2), F(1, 2)), (2, 0)),  # 1.5:0.5
        ([(Outcome.WHITE_WIN, True), (Outcome.WHITE_WIN, False)], (1, 1), (1, 1)),  # 1:1
        ([(Outcome.DRAW, True), (Outcome.DRAW, False)], (1, 1), (1, 1)),
        ([(Outcome.DRAW, True), (Outcome.WHITE_WIN, False)], (F(1, 2), F(3, 2)), (0, 2)),  # 0.5:1.5
        ([(Outcome.BLACK_WIN, True), (Outcome.WHITE_WIN, False)], (0, 2), (0, 2)),  # 0:2
    ],
)
def test_match_scoring(
    games: list[tuple[Outcome, bool]], board: tuple[Fraction, Fraction], match: tuple[Fraction, Fraction]
) -> None:
    scoring = MatchScoring()
    assert scoring.board_points(games) == board
    assert scoring.match_points(*board) == match
