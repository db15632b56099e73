"""Berger tables against FIDE C.05 Annex 1 (tests/fixtures/berger) and the properties every table must keep.

The player counts are few (3 … 20, single or double), so the properties are checked exhaustively rather
than sampled.
"""

from __future__ import annotations

import json
from collections import Counter
from itertools import combinations

import pytest

from services.pairing.domain.rounds.berger import (
    BYE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    BergerPairing,
    RoundRobinError,
    berger_table,
    round_robin,
    rounds_count,
)
from tests.fixtures import FIXTURES

REFERENCE: dict[str, list[list[list[int]]]] = json.loads((FIXTURES / "berger" / "berger.json").read_text())
ALL_SIZES = range(MIN_PLAYERS, MAX_PLAYERS + 1)


def as_lists(rounds):
    return [[list(pairing) for pairing in rnd] for rnd in rounds]


def games(rnd):
    return [p for p in rnd if not p.is_bye]


def colour_sequences(rounds, players):
    """Each player's colours in the games they play, in round order (a bye is no game)."""
    seq = {p: [] for p in range(1, players + 1)}
    for rnd in rounds:
        for pairing in games(rnd):
            seq[pairing.white].append("W")
            seq[pairing.black].append("B")
    return seq


def longest_run(colours):
    longest = run = 0
    previous = None
    for colour in colours:
        run = run + 1 if colour == previous else 1
        previous = colour
        longest = max(longest, run)
    return longest


def test_reference_covers_the_fide_tables():
    assert sorted(map(int, REFERENCE)) == [4, 6, 8, 10, 12, 14, 16]


@pytest.mark.parametrize("players", sorted(REFERENCE, key=int))
def test_table_is_the_fide_table(players):
    n = int(players)
    assert as_lists(berger_table(n)) == REFERENCE[players]
    assert as_lists(round_robin(n)) == REFERENCE[players]


@pytest.mark.parametrize("players", [int(n) - 1 for n in sorted(REFERENCE, key=int)])
def test_odd_field_uses_next_table_and_the_highest_number_is_the_bye(players):
    phantom = players + 1
    expected = [
        [[b, BYE] if a == phantom else [a, BYE] if b == phantom else [a, b] for a, b in rnd]
        for rnd in REFERENCE[str(phantom)]
    ]
    assert as_lists(round_robin(players)) == expected


@pytest.mark.parametrize("players", sorted(REFERENCE, key=int))
def test_double_round_robin_swaps_last_two_rounds_of_first_cycle_and_reverses_colours(players):
    table = REFERENCE[players]
    first = [*table[:-2], table[-1], table[-2]]
    second = [[[b, w] for w, b in rnd] for rnd in table]
    assert as_lists(round_robin(int(players), double=True)) == first + second


def test_three_players_by_hand():
    # The 4-player table with 4 as the bye: 1-4 2-3 / 4-3 1-2 / 2-4 3-1.
    assert as_lists(round_robin(3)) == [[[1, 0], [2, 3]], [[3, 0], [1, 2]], [[2, 0], [3, 1]]]


@pytest.mark.parametrize("double", [False, True])
@pytest.mark.parametrize("players", ALL_SIZES)
def test_every_pair_meets_exactly_once_per_cycle(players, double):
    rounds = round_robin(players, double=double)
    per_cycle = players + players % 2 - 1
    assert len(rounds) == per_cycle * (2 if double else 1) == rounds_count(players, double=double)
    cycles = [rounds[i : i + per_cycle] for i in range(0, len(rounds), per_cycle)]
    everyone = set(range(1, players + 1))
    for cycle in cycles:
        met = Counter(frozenset(p) for rnd in cycle for p in games(rnd))
        assert met == Counter(frozenset(pair) for pair in combinations(everyone, 2))
        byes = Counter(p.white for rnd in cycle for p in rnd if p.is_bye)
        assert byes == (Counter(everyone) if players % 2 else Counter())
    for rnd in rounds:
        seated = [p for pairing in rnd for p in pairing if p != BYE]
        assert sorted(seated) == sorted(everyone)
        assert len(rnd) == (players + 1) // 2
        assert all(pairing.black == BYE for pairing in rnd if pairing.is_bye)


@pytest.mark.parametrize("double", [False, True])
@pytest.mark.parametrize("players", ALL_SIZES)
def test_nobody_has_the_same_colour_three_times_running(players, double):
    for colours in colour_sequences(round_robin(players, double=double), players).values():
        assert longest_run(colours) <= 2


@pytest.mark.parametrize("players", range(4, MAX_PLAYERS + 1, 2))
def test_without_the_swap_the_cycle_boundary_would_give_three_in_a_row(players):
    # Why the swap exists (README): the unswapped double cycle breaks the rule for every even table.
    table = berger_table(players)
    naive = table + tuple(tuple(p.reversed() for p in rnd) for rnd in table)
    assert max(longest_run(c) for c in colour_sequences(naive, players).values()) == 3


@pytest.mark.parametrize("players", ALL_SIZES)
def test_colours_balance(players):
    single = colour_sequences(round_robin(players), players)
    for colours in single.values():
        assert abs(colours.count("W") - colours.count("B")) <= 1
    double = colour_sequences(round_robin(players, double=True), players)
    for colours in double.values():
        assert colours.count("W") == colours.count("B")
    # Each pair plays once with each colour over the two cycles.
    played = Counter(tuple(p) for rnd in round_robin(players, double=True) for p in games(rnd))
    assert all(played[(b, w)] == 1 for (w, b) in played)


@pytest.mark.parametrize("players", range(4, MAX_PLAYERS + 1, 2))
def test_board_order(players):
    # Board 1 holds the fixed highest number; board b pairs the players b-1 places either side of the
    # board-1 player on the circle of 1 … n-1 (White ahead of it, Black behind it).
    circle = players - 1
    for number, rnd in enumerate(berger_table(players), start=1):
        first = rnd[0]
        assert players in first
        a = first.white if first.black == players else first.black
        assert (first.white == a) == (number % 2 == 1)
        for board, pairing in enumerate(rnd[1:], start=1):
            assert (pairing.white - a) % circle == board % circle
            assert (a - pairing.black) % circle == board % circle


@pytest.mark.parametrize("players", [-1, 0, 1, 2, MAX_PLAYERS + 1, 100])
def test_player_count_out_of_range(players):
    with pytest.raises(RoundRobinError, match="3 to 20"):
        round_robin(players)
    with pytest.raises(RoundRobinError):
        rounds_count(players)


@pytest.mark.parametrize("players", [3, 5, 2, 22])
def test_berger_table_needs_an_even_count_in_range(players):
    with pytest.raises(RoundRobinError, match="even"):
        berger_table(players)


def test_pairing_helpers():
    assert BergerPairing(3, 5).reversed() == BergerPairing(5, 3)
    assert BergerPairing(3, BYE).reversed() == BergerPairing(3, BYE)
    assert BergerPairing(3, BYE).is_bye and not BergerPairing(3, 5).is_bye
