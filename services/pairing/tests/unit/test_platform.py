from __future__ import annotations

import pytest

from services.pairing.domain.errors import UnsupportedField
from services.pairing.domain.rounds.platform import double_rounds, plan, swiss_rounds
from shared.vocabulary import System


@pytest.mark.parametrize(
    ("n", "rounds"), [(7, 4), (8, 4), (9, 5), (16, 5), (17, 6), (64, 7), (100, 8), (200, 9)]
)
def test_swiss_rounds_follow_the_formula(n, rounds):
    assert swiss_rounds(n) == rounds


@pytest.mark.parametrize(
    ("n", "extra", "rounds"), [(8, True, 5), (7, True, 5), (5, True, 4), (4, True, 3), (5, False, 4)]
)
def test_extra_round_only_when_the_field_carries_it(n, extra, rounds):
    # 5 players: ceil(log2 5)+1 = 4 rounds; 5 > 4+1 is false → no extra round
    # 4 players: 3 rounds; 4 > 3+1 is false; 7 players: 4 rounds; 7 > 5 → 5 rounds
    assert swiss_rounds(n, extra_round=extra) == rounds


def test_threshold_decides_the_system():
    assert plan(6, threshold=7).system is System.ROUND_ROBIN
    assert plan(7, threshold=7).system is System.SWISS
    assert plan(19, threshold=20).system is System.ROUND_ROBIN
    assert plan(20, threshold=20).system is System.SWISS


def test_round_robin_rounds_one_cycle_whatever_the_field():
    four = plan(4, threshold=7)
    assert (four.rounds, four.double_cycle) == (3, False)
    five = plan(5, threshold=7)
    assert (five.rounds, five.double_cycle) == (5, False)
    six = plan(6, threshold=7)
    assert (six.rounds, six.double_cycle) == (5, False)


@pytest.mark.parametrize("chose", [False, True])
def test_four_players_always_play_double_rounds(chose):
    # RULES.md §2: three rounds of two games a pairing, six games each, whatever the organiser chose
    assert double_rounds(plan(4, threshold=7), 4, organiser_chose=chose) is True


@pytest.mark.parametrize("n", [3, 5, 6, 7, 8])
def test_other_fields_play_double_rounds_only_when_chosen(n):
    chosen = plan(n, threshold=7)
    assert double_rounds(chosen, n, organiser_chose=False) is False
    assert double_rounds(chosen, n, organiser_chose=True) is True


def test_a_field_of_one_is_refused():
    with pytest.raises(UnsupportedField):
        plan(1, threshold=7)
