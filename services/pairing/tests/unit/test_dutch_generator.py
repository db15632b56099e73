"""The random tournament generator: Baku acceleration, the rates, Elo results, determinism."""

from __future__ import annotations

import ast
from fractions import Fraction
from pathlib import Path

import pytest

from services.pairing.domain.dutch import generator
from services.pairing.domain.dutch.generator import GenerationError, Profile, Scoring, generate
from shared.trf import ResultCode, write
from shared.trf.acceleration import baku


def test_baku_group_a_and_virtual_points() -> None:
    # group A: half the field rounded up to an even number; virtual points in the first half of
    # the rounds (rounded up): a win's in the first half of those (rounded up), a draw's after
    assert baku(10, 5, Fraction(1), Fraction(1, 2)) == {p: [1, 1, Fraction(1, 2)] for p in range(1, 7)}
    assert baku(13, 9, Fraction(2), Fraction(1)) == {p: [2, 2, 2, 1, 1] for p in range(1, 9)}
    assert baku(4, 1, Fraction(1), Fraction(1, 2)) == {1: [1], 2: [1]}


def test_the_generator_re_exports_nothing() -> None:
    """``baku`` lives in ``shared.trf.acceleration``, where the pairing and the standings import it;
    the generator uses it and does not offer it as its own (``import x as x`` re-exports under mypy)."""
    tree = ast.parse(Path(generator.__file__).read_text())
    re_exported = [
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
        if alias.asname == alias.name
    ]
    assert re_exported == []


def test_the_same_profile_gives_the_same_tournament() -> None:
    profile = Profile(players=25, rounds=7, seed=5, forfeit_rate=0.05, bye_rate=0.05, absent_rate=0.02)
    assert write(generate(profile)) == write(generate(profile))
    assert write(generate(profile)) != write(generate(Profile(players=25, rounds=7, seed=6)))


def _results(profile: Profile) -> list[ResultCode]:
    doc = generate(profile)
    return [entry.result for player in doc.players.values() for entry in player.rounds if entry is not None]


def test_without_rates_every_round_is_a_game_or_the_pab() -> None:
    results = set(_results(Profile(players=21, rounds=6, seed=2, draw_rate=0.0)))
    assert results == {ResultCode.WIN, ResultCode.LOSS, ResultCode.PAIRING_ALLOCATED_BYE}


def test_rates_bring_draws_forfeits_byes_and_absences() -> None:
    profile = Profile(players=40, rounds=7, seed=3, forfeit_rate=0.2, bye_rate=0.2, absent_rate=0.05)
    results = set(_results(profile))
    expected = {ResultCode.DRAW, ResultCode.FORFEIT_WIN, ResultCode.FORFEIT_LOSS, ResultCode.HALF_POINT_BYE}
    assert expected | {ResultCode.ZERO_POINT_BYE} <= results


def test_stronger_players_score_more() -> None:
    doc = generate(Profile(players=60, rounds=9, seed=4, draw_rate=0.0))
    points = [doc.players[p].points or 0 for p in sorted(doc.players)]
    assert sum(points[:15]) > 2 * sum(points[-15:])


def test_a_withdrawn_player_stays_out() -> None:
    doc = generate(Profile(players=30, rounds=8, seed=9, absent_rate=0.05))
    for player in doc.players.values():
        absent = [e is not None and e.result is ResultCode.ZERO_POINT_BYE for e in player.rounds]
        if any(absent):
            assert all(absent[absent.index(True) :])


def test_platform_scoring_is_written_for_both_readers() -> None:
    doc = generate(Profile(players=8, rounds=3, scoring=Scoring.PLATFORM))
    assert doc.point_system == {"W": 2, "D": 1, "PAB": 2, "BBW": 2, "BBD": 1}
    assert sum(p.points or 0 for p in doc.players.values()) == 8 * 3  # 2 points a game or PAB


def test_a_round_that_cannot_be_paired_keeps_the_rounds_before() -> None:
    with pytest.raises(GenerationError) as info:
        generate(Profile(players=4, rounds=5))
    assert info.value.round == 4
    assert info.value.document.rounds_played == 3


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"players": 1, "rounds": 3}, "--players must be 2 to 9999"),
        ({"players": 8, "rounds": 0}, "--rounds must be 1 to 99"),
        ({"players": 8, "rounds": 3, "draw_rate": 1.2}, "--draw-rate must be between 0 and 1"),
    ],
)
def test_bad_profiles_are_refused(values: dict[str, int | float], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Profile(**values)  # type: ignore[arg-type]
