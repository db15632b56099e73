from __future__ import annotations

from collections import Counter

import pytest

from services.pairing.domain.elimination.seeding import (
    Entrant,
    Seeding,
    SeedingError,
    SeedingKind,
    classic_order,
    draw_order,
    first_round,
    new_draw_seed,
)

ROSTER = [
    Entrant("p1", "Carla", 1800),
    Entrant("p2", "anna", 2100),
    Entrant("p3", "Bert", 1800),
    Entrant("p4", "Dora", None),
    Entrant("p5", "Anna", 2100),
    Entrant("p6", "Ben", None),
]


def test_classic_order_by_hand():
    assert classic_order(2) == (1, 2)
    assert classic_order(4) == (1, 4, 2, 3)
    assert classic_order(8) == (1, 8, 4, 5, 2, 7, 3, 6)
    # README of the brackets reference: 1-16, 8-9, 4-13, 5-12, 2-15, 7-10, 3-14, 6-11.
    assert classic_order(16) == (1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11)


@pytest.mark.parametrize("size", [2**k for k in range(1, 8)])
def test_classic_order_properties(size):
    order = classic_order(size)
    assert sorted(order) == list(range(1, size + 1))
    # Seed s is placed so that, if the better seed always wins, each match of every round pairs seeds
    # adding up to (players left in that round) + 1: 1 meets the lowest, 1 and 2 only in the final.
    block = size
    slots = list(order)
    while block >= 2:
        pairs = [slots[i : i + 2] for i in range(0, len(slots), 2)]
        assert all(a + b == block + 1 for a, b in pairs)
        slots = [min(p) for p in pairs]
        block //= 2
    half = size // 2
    assert (order.index(1) < half) != (order.index(2) < half)


@pytest.mark.parametrize("size", [0, 1, 3, 6, 12, 100])
def test_classic_order_needs_a_power_of_two(size):
    with pytest.raises(SeedingError):
        classic_order(size)


def test_first_round_gives_the_byes_to_the_top_seeds():
    # README example, N = 10.
    assert first_round(10, 16) == (
        (1, None),
        (8, 9),
        (4, None),
        (5, None),
        (2, None),
        (7, 10),
        (3, None),
        (6, None),
    )


def test_by_rating_highest_first_ties_by_name_unrated_last():
    seeding = Seeding.by_rating(ROSTER)
    # 2100: "Anna" and "anna" fold equal, then exact name ("Anna" < "anna"); 1800: Bert before Carla;
    # unrated: Ben before Dora.
    assert seeding.order == ("p5", "p2", "p3", "p1", "p6", "p4")
    assert seeding.kind is SeedingKind.RATING and seeding.draw_seed is None
    assert seeding.seed_of("p3") == 3 and seeding.player(1) == "p5"


def test_custom_order():
    seeding = Seeding.custom(ROSTER, ["p4", "p1", "p2", "p3", "p6", "p5"])
    assert seeding.order == ("p4", "p1", "p2", "p3", "p6", "p5")
    with pytest.raises(SeedingError, match="missing p5"):
        Seeding.custom(ROSTER, ["p4", "p1", "p2", "p3", "p6"])
    with pytest.raises(SeedingError, match="not entered: x"):
        Seeding.custom(ROSTER, ["p4", "p1", "p2", "p3", "p6", "p5", "x"])
    with pytest.raises(SeedingError, match="twice"):
        Seeding.custom(ROSTER, ["p4", "p4", "p2", "p3", "p6", "p5"])


def test_draw_is_reproducible_and_independent_of_roster_order():
    first = Seeding.drawn(ROSTER, 20240607)
    again = Seeding.drawn(list(reversed(ROSTER)), 20240607)
    assert first == again
    assert sorted(first.order) == sorted(e.id for e in ROSTER)
    assert first.draw_seed == 20240607
    others = {Seeding.drawn(ROSTER, seed).order for seed in range(50)}
    assert len(others) > 40  # 720 orders possible; different seeds give different draws


def test_draw_is_fair():
    # Deterministic seeds, so not flaky: each of 3 players is seed 1 about a third of the time.
    counts = Counter(draw_order(["a", "b", "c"], seed)[0] for seed in range(3000))
    assert all(900 < n < 1100 for n in counts.values()), counts


def test_seeding_round_trips_as_plain_data():
    for seeding in (
        Seeding.by_rating(ROSTER),
        Seeding.custom(ROSTER, ["p6", "p5", "p4", "p3", "p2", "p1"]),
        Seeding.drawn(ROSTER, new_draw_seed()),
    ):
        assert Seeding.from_dict(seeding.to_dict()) == seeding


def test_stored_draw_must_be_the_draw_of_its_seed():
    data = Seeding.drawn(ROSTER, 7).to_dict()
    data["order"] = list(reversed(data["order"]))
    with pytest.raises(SeedingError, match="not the draw"):
        Seeding.from_dict(data)
    with pytest.raises(SeedingError):
        Seeding.from_dict({"kind": "lottery", "order": []})
    with pytest.raises(SeedingError):
        Seeding(SeedingKind.RATING, ("a",), draw_seed=3)


def test_roster_errors():
    with pytest.raises(SeedingError, match="twice"):
        Seeding.by_rating([Entrant("x", "X"), Entrant("x", "Y")])
    with pytest.raises(SeedingError):
        Seeding.by_rating(ROSTER).seed_of("nobody")
    with pytest.raises(SeedingError):
        Seeding.by_rating(ROSTER).player(7)
