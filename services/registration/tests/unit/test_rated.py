"""Rated or friendly after the opening (RULES.md §2): beyond 2N/2B a tournament is created friendly,
and double rounds make it rated again."""

from __future__ import annotations

from pathlib import Path

import pytest

from services.registration.domain.rated import RatingSettings, rated_after_openings
from shared.openings import OpeningOption, load_table
from shared.variants import Variant

ITALIAN = load_table(Path(__file__).parents[4] / "shared/tests/data/openings/italian-sample.json", "italian")


def decide(
    opening: str, *, variant: Variant = Variant.ITALIAN, rated: bool = True, double_rounds: bool = False
):
    return rated_after_openings(
        RatingSettings(rated, variant, OpeningOption.parse(opening), double_rounds, italian=ITALIAN)
    )


@pytest.mark.parametrize(
    "opening", ["free", "random-1", "random-3", "table-1", "table-2", "thematic:S01", "thematic:S04"]
)
def test_up_to_2n_2b_a_rated_tournament_stays_rated(opening):
    assert decide(opening) == (True, None)


@pytest.mark.parametrize(
    ("opening", "what"),
    [
        ("table-3", "a draw up to 3N/3B reaches 3N/3B"),
        ("table-all", "a draw from the whole SAMPLE Italian table (tests only) reaches 3N/3B"),
        ("thematic:S06", "the thematic opening S06 reaches 3N/3B"),
    ],
)
def test_beyond_2n_2b_it_is_created_friendly_and_double_rounds_make_it_rated(opening, what):
    assert decide(opening) == (
        False,
        f"friendly: {what}, beyond 2N/2B, which one game a pairing cannot even out; "
        "switch double rounds on to make it rated",
    )
    assert decide(opening, double_rounds=True) == (
        True,
        f"rated: {what}, beyond 2N/2B, and double rounds play it with both colours",
    )


def test_the_english_table_has_no_classes_so_its_draws_count_as_beyond():
    rated, reason = decide("table-all", variant=Variant.ENGLISH)
    assert not rated and reason is not None and "has no balance class" in reason
    assert decide("thematic:001", variant=Variant.ENGLISH, double_rounds=True)[0] is True
    assert decide("random-3", variant=Variant.ENGLISH) == (True, None)


def test_a_friendly_tournament_stays_friendly_and_has_no_minimum_rating():
    decision = decide("table-1", rated=False)
    assert decision == (False, "friendly: the organiser's choice")
    assert decision.min_rating(1400) is None
    assert decide("table-3").min_rating(1400) is None
    assert decide("table-2").min_rating(1400) == 1400
