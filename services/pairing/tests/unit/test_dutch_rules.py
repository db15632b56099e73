"""The pieces of the Dutch engine, with expectations worked out by hand from C.04.1/C.04.3."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from services.pairing.domain.dutch import (
    Colour,
    InvalidInputError,
    NoValidPairingError,
    PairingPoints,
    PlayerHistory,
    RoundInput,
    RoundKind,
    RoundRecord,
    from_trf,
    pair_round,
)
from services.pairing.domain.dutch.colours import ColourSide, allocate, preference
from services.pairing.domain.dutch.players import Float, build_field
from shared.trf import read
from tests.fixtures import FIXTURES

W, B = Colour.WHITE, Colour.BLACK
ONE, HALF, ZERO = Fraction(1), Fraction(1, 2), Fraction(0)


def game(opponent: int, colour: Colour, points: Fraction) -> RoundRecord:
    return RoundRecord(RoundKind.PLAYED, points, opponent, colour)


def bye(kind: RoundKind, points: Fraction) -> RoundRecord:
    return RoundRecord(kind, points)


# -- colour preferences (A.6) ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("colours", "preferred", "kind"),
    [
        ((), None, "none"),
        ((W,), B, "strong"),  # colour difference +1
        ((W, B), W, "mild"),  # balanced: alternate from the last game
        ((W, W), B, "absolute"),  # difference +2, and twice the same colour
        ((W, B, B), W, "absolute"),  # difference -1 but black twice in a row
        ((B, W, W, B, W), B, "strong"),
        ((W, B, W, B, W, W, B, B), W, "absolute"),  # two blacks in a row, balanced
    ],
)
def test_colour_preference(colours: tuple[Colour, ...], preferred: Colour | None, kind: str) -> None:
    pref = preference(colours)
    assert pref.colour is preferred
    got = "absolute" if pref.absolute else "strong" if pref.strong else "mild" if pref.mild else "none"
    assert got == kind


def side(colours: tuple[Colour, ...], rank: int, score: int = 0) -> ColourSide:
    return ColourSide(preference(colours), colours, score, rank)


def test_round_one_colours_follow_the_initial_colour_and_the_rank() -> None:
    top, other = side((), 0), side((), 5)
    assert allocate(top, other, W) is W
    assert allocate(other, top, W) is B
    assert allocate(top, other, B) is B
    # an odd-ranked higher player gets the opposite of the initial colour
    assert allocate(side((), 1), side((), 6), W) is B


def test_compatible_preferences_are_both_met() -> None:
    assert allocate(side((W,), 3), side((B,), 0), W) is B


def test_absolute_preference_beats_strong() -> None:
    absolute, strong = side((W, W), 5), side((B, W, W, B, W), 0)  # both want black
    assert allocate(absolute, strong, W) is B
    assert allocate(strong, absolute, W) is W


def test_equal_strong_preferences_alternate_from_the_last_difference() -> None:
    # both want white (one black more); in their last games A had white, B black
    a, b = side((B, B, W), 0), side((B, W, B), 1)
    assert allocate(a, b, W) is B  # A alternates from its white
    assert allocate(b, a, W) is W


def test_equal_histories_give_the_higher_ranked_player_the_preference() -> None:
    a, b = side((B, W, B), 1), side((B, W, B), 0)
    assert allocate(a, b, W) is B
    assert allocate(b, a, W) is W


# -- facts per player: PAB eligibility (C.04.1 rule 4) and floats -----------------------------


def _two_round_field(records: list[RoundRecord]) -> RoundInput:
    """Player 1 with the given two rounds; players 2-4 fill in (all played against each other)."""
    others = [
        PlayerHistory(2, (game(3, W, ONE), game(4, B, HALF))),
        PlayerHistory(3, (game(2, B, ZERO), bye(RoundKind.ZPB, ZERO))),
        PlayerHistory(4, (bye(RoundKind.ZPB, ZERO), game(2, W, HALF))),
    ]
    return RoundInput(players=(PlayerHistory(1, tuple(records)), *others), total_rounds=5)


@pytest.mark.parametrize(
    ("record", "eligible"),
    [
        (bye(RoundKind.PAB, ONE), False),
        (bye(RoundKind.FPB, ONE), False),
        (RoundRecord(RoundKind.FORFEIT_WIN, ONE, opponent=4), False),
        (bye(RoundKind.HPB, HALF), True),
        (bye(RoundKind.ZPB, ZERO), True),
        (RoundRecord(RoundKind.FORFEIT_LOSS, ZERO, opponent=4), True),
    ],
)
def test_pab_eligibility(record: RoundRecord, eligible: bool) -> None:
    field = build_field(_two_round_field([record, bye(RoundKind.ZPB, ZERO)]))
    player = next(p for p in field.players if p.number == 1)
    assert player.bye_eligible is eligible


@pytest.mark.parametrize(
    ("record", "expected"),
    [
        (bye(RoundKind.HPB, HALF), Float.DOWN),  # 2025: more than a loss without playing
        (bye(RoundKind.PAB, ONE), Float.DOWN),
        (RoundRecord(RoundKind.FORFEIT_WIN, ONE, opponent=4), Float.DOWN),
        (bye(RoundKind.ZPB, ZERO), Float.NONE),
        (RoundRecord(RoundKind.FORFEIT_LOSS, ZERO, opponent=4), Float.NONE),
    ],
)
def test_unplayed_rounds_as_floats(record: RoundRecord, expected: Float) -> None:
    field = build_field(_two_round_field([bye(RoundKind.ZPB, ZERO), record]))
    player = next(p for p in field.players if p.number == 1)
    assert player.floats[0] is expected


def test_played_floats_compare_the_scores_before_the_round() -> None:
    field = build_field(_two_round_field([bye(RoundKind.ZPB, ZERO), bye(RoundKind.ZPB, ZERO)]))
    by_number = {p.number: p for p in field.players}
    # round 2: player 2 (1 point) met player 4 (0 points)
    assert by_number[2].floats[0] is Float.DOWN
    assert by_number[4].floats[0] is Float.UP
    # round 1: 2 v 3 at 0-0, no float
    assert by_number[2].floats[1] is Float.NONE


# -- whole rounds ---------------------------------------------------------------------------


def _round_one(n: int, **kwargs: object) -> RoundInput:
    return RoundInput(players=tuple(PlayerHistory(i) for i in range(1, n + 1)), total_rounds=5, **kwargs)  # type: ignore[arg-type]


def test_round_one_is_top_half_against_bottom_half() -> None:
    pairing = pair_round(_round_one(6))
    assert pairing.games == ((1, 4), (5, 2), (3, 6))
    assert pairing.bye is None


def test_round_one_odd_gives_the_bye_to_the_last_player() -> None:
    pairing = pair_round(_round_one(5, initial_colour=B))
    assert pairing.games == ((3, 1), (2, 4))
    assert pairing.bye == 5


def test_forbidden_pair_is_never_paired() -> None:
    # 1-3 would be the natural pairing; the transposition 1-4, 2-3 comes next
    pairing = pair_round(_round_one(4, forbidden_pairs=frozenset({frozenset({1, 3})})))
    assert set(pairing.games) == {(1, 4), (3, 2)}


def test_absent_players_are_not_paired() -> None:
    pairing = pair_round(_round_one(5, absent=frozenset({2})))
    assert pairing.games == ((1, 4), (5, 3))
    assert pairing.bye is None


def test_pab_goes_to_the_lowest_eligible_player() -> None:
    # PAB worth nothing here, so player 3 (PAB in round 1) is among the lowest but may not
    # have a second one; player 2 gets it and the two others meet.
    data = RoundInput(
        players=(
            PlayerHistory(1, (game(2, W, ONE),)),
            PlayerHistory(2, (game(1, B, ZERO),)),
            PlayerHistory(3, (bye(RoundKind.PAB, ZERO),)),
        ),
        total_rounds=3,
        points=PairingPoints(pab=ZERO),
    )
    pairing = pair_round(data)
    assert pairing.bye == 2
    assert pairing.games == ((3, 1),)


def test_forfeited_games_may_be_replayed_but_played_ones_not() -> None:
    forfeit = RoundInput(
        players=(
            PlayerHistory(1, (RoundRecord(RoundKind.FORFEIT_WIN, ONE, opponent=2),)),
            PlayerHistory(2, (RoundRecord(RoundKind.FORFEIT_LOSS, ZERO, opponent=1),)),
        ),
        total_rounds=3,
    )
    assert set(pair_round(forfeit).games) == {(1, 2)}
    played = RoundInput(
        players=(PlayerHistory(1, (game(2, W, ONE),)), PlayerHistory(2, (game(1, B, ZERO),))),
        total_rounds=3,
    )
    with pytest.raises(NoValidPairingError, match="absolute criteria"):
        pair_round(played)


def test_pab_rules_can_make_a_round_unpairable() -> None:
    # 1-2 met; 1-3 may meet again (forfeit) but then 2 needs a second PAB; 2-3 would give
    # the PAB to 1, who already scored a win without playing.
    data = RoundInput(
        players=(
            PlayerHistory(1, (game(2, W, ONE), RoundRecord(RoundKind.FORFEIT_WIN, ONE, opponent=3))),
            PlayerHistory(2, (game(1, B, ZERO), bye(RoundKind.PAB, ONE))),
            PlayerHistory(
                3, (bye(RoundKind.PAB, ONE), RoundRecord(RoundKind.FORFEIT_LOSS, ZERO, opponent=1))
            ),
        ),
        total_rounds=4,
    )
    with pytest.raises(NoValidPairingError):
        pair_round(data)


def test_inconsistent_history_is_rejected() -> None:
    data = RoundInput(
        players=(PlayerHistory(1, (game(2, W, ONE),)), PlayerHistory(2, (game(1, W, ZERO),))),
        total_rounds=3,
    )
    with pytest.raises(InvalidInputError, match="contradicts"):
        pair_round(data)


def _scaled(data: RoundInput, factor: int) -> RoundInput:
    players = tuple(
        replace(p, rounds=tuple(replace(r, points=r.points * factor) for r in p.rounds)) for p in data.players
    )
    ps = data.points
    points = PairingPoints(win=ps.win * factor, draw=ps.draw * factor, loss=ps.loss * factor)
    return replace(data, players=players, points=points)


@pytest.mark.parametrize("case", ["017", "031", "046"])
def test_platform_scoring_pairs_like_chess_scoring(case: str) -> None:
    # 2/1/0 is 1/½/0 doubled: every criterion compares scores, so the pairing is the same.
    data = from_trf(read(FIXTURES / "dutch" / f"{case}.trf"))
    doubled = _scaled(data, 2)
    assert doubled.points == PairingPoints.platform()
    assert pair_round(doubled) == pair_round(data)
