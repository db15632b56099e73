"""A knockout match game by game (RULES.md §4): regular games with alternating colours, an early end once
one player cannot be caught, tie-break stages, and the sudden-death game."""

from __future__ import annotations

import itertools

import pytest

from services.pairing.domain.elimination.match_play import (
    GameKind,
    MatchFormat,
    MatchPlayError,
    PlannedGame,
    progress,
    regular_games,
    stage_games,
)
from shared.scoring import Outcome
from shared.time_control import DEFAULT_PLAN, RateOfPlay, Stage, TieBreakSchedule
from shared.vocabulary import DecidedIn

W, D, B = Outcome.WHITE_WIN, Outcome.DRAW, Outcome.BLACK_WIN
RAPID = RateOfPlay(25 * 60, 10)


def fmt(games: int = 2, plan: TieBreakSchedule = DEFAULT_PLAN) -> MatchFormat:
    return MatchFormat(games, RAPID, plan)


def play(f: MatchFormat, first_white: int, outcomes: list[Outcome | None]):
    """Pair the regular games, then keep adding what progress() asks for, giving each game the next
    outcome; returns the final progress and every game paired."""
    games: list[PlannedGame] = list(regular_games(f, first_white))
    results: dict[int, Outcome | None] = {}
    queue = list(outcomes)
    while True:
        for g in games:
            if g.number not in results and queue:
                results[g.number] = queue.pop(0)
        state = progress(f, first_white, [(g, results.get(g.number)) for g in games])
        if not state.to_pair:
            return state, games
        games.extend(state.to_pair)


def test_regular_games_alternate_colours_from_the_drawn_first_game():
    games = regular_games(fmt(6), first_white=1)
    assert [g.white for g in games] == [1, 0, 1, 0, 1, 0]
    assert [g.label for g in games] == [f"Game {n}" for n in range(1, 7)]
    assert {g.kind for g in games} == {GameKind.REGULAR} and {g.time_control for g in games} == {RAPID}
    assert regular_games(fmt(1), 0)[0].label == "Game"


def test_a_two_game_match_won_one_and_a_half_to_a_half():
    # slot 0 has White in game 1: wins it, then draws with Black
    state, games = play(fmt(2), 0, [W, D])
    assert (state.winner, state.how, state.not_needed) == (0, DecidedIn.REGULAR, ())
    assert len(games) == 2


def test_the_match_waits_for_its_games():
    state, _ = play(fmt(2), 0, [W])  # 1-0 with one game left: can still be caught
    assert not state.decided and state.to_pair == ()


def test_a_player_who_cannot_be_caught_wins_and_the_rest_is_not_needed():
    # four games; slot 1 has White in game 1. Slot 1 wins games 1 (White) and 2 (Black), draws game 3:
    # 2.5-0.5 with one game left
    state, _ = play(fmt(4), 1, [W, B, D])
    assert (state.winner, state.how, state.not_needed) == (1, DecidedIn.REGULAR, (4,))
    # 2-1 with one game left can be caught: game 4 is played
    state, _ = play(fmt(4), 0, [W, W, W])  # slot 0: won 1 (White), lost 2 (Black), won 3
    assert not state.decided
    # six games: 3.5-0.5 after four is decided, games 5 and 6 not needed
    state, _ = play(fmt(6), 0, [W, B, D, B])
    assert (state.winner, state.not_needed) == (0, (5, 6))


def test_results_may_come_in_any_order():
    f = fmt(4)
    games = regular_games(f, 0)
    # games 2, 3 and 4 known (slot 0 won all three), game 1 still open: 3-0 with one left
    state = progress(f, 0, [(games[0], None), (games[1], B), (games[2], W), (games[3], B)])
    assert (state.winner, state.not_needed) == (0, (1,))


def test_a_level_match_opens_tie_break_stage_one_with_the_first_games_colours():
    state, games = play(fmt(2), 1, [W, W])  # 1-1
    assert state.to_pair == () and not state.decided
    stage_one = [g for g in games if g.stage == 1]
    assert [(g.number, g.white, g.label) for g in stage_one] == [
        (3, 1, "Tie-break 1 (15+10), game 1"),
        (4, 0, "Tie-break 1 (15+10), game 2"),
    ]
    assert {g.time_control for g in stage_one} == {RateOfPlay(900, 10)}
    assert {g.kind for g in stage_one} == {GameKind.TIEBREAK}


def test_a_stage_is_scored_on_its_own():
    # regular 1-1, stage 1: slot 0 (White in game 1) wins game 3 with White and draws game 4
    state, games = play(fmt(2), 0, [W, W, W, D])
    assert (state.winner, state.how) == (0, DecidedIn.TIEBREAK)
    assert len(games) == 4


def test_level_stages_lead_to_sudden_death_where_a_draw_sends_black_through():
    state, games = play(fmt(2), 0, [D, D, D, D, W, W, D])
    sudden = games[-1]
    assert (sudden.number, sudden.kind, sudden.white, sudden.label) == (
        7,
        GameKind.SUDDEN_DEATH,
        0,
        "Sudden death (3+2)",
    )
    assert [g.stage for g in games] == [0, 0, 1, 1, 2, 2, 3]
    assert (state.winner, state.how) == (1, DecidedIn.SUDDEN_DEATH)  # slot 1 had Black


@pytest.mark.parametrize(
    ("outcome", "winner"),
    [
        (Outcome.WHITE_WIN, 1),
        (Outcome.BLACK_WIN, 0),
        (Outcome.DRAW, 0),
        (Outcome.WHITE_FORFEIT_WIN, 1),
        (Outcome.BLACK_FORFEIT_WIN, 0),
        (Outcome.DOUBLE_FORFEIT, 0),
    ],
)
def test_sudden_death(outcome, winner):
    plan = TieBreakSchedule((), RateOfPlay(180, 2))
    state, games = play(fmt(1, plan), 1, [D, outcome])  # slot 1 has White in game 1 and in sudden death
    assert games[-1].white == 1
    assert (state.winner, state.how) == (winner, DecidedIn.SUDDEN_DEATH)


def test_forfeits_count_as_wins_and_a_double_forfeit_as_nothing():
    state, _ = play(fmt(2), 0, [Outcome.WHITE_FORFEIT_WIN, Outcome.WHITE_FORFEIT_WIN])  # 1-1
    assert not state.decided
    state, _ = play(fmt(2), 0, [Outcome.DOUBLE_FORFEIT, Outcome.WHITE_FORFEIT_WIN])  # 0-1
    assert (state.winner, state.how) == (1, DecidedIn.REGULAR)


def test_a_one_game_stage():
    plan = TieBreakSchedule((Stage(1, RateOfPlay(300, 3)),), RateOfPlay(180, 2))
    state, games = play(fmt(1, plan), 0, [D, B])
    assert [g.label for g in games] == ["Game", "Tie-break 1 (5+3)"]
    assert (state.winner, state.how) == (1, DecidedIn.TIEBREAK)


def test_every_match_ends_with_exactly_one_winner():
    """Every sequence of outcomes ends the match, with a winner, within the plan's games."""
    f = fmt(2)
    plan_games = 2 + sum(s.games for s in f.plan.stages) + 1
    for outcomes in itertools.product([W, D, B], repeat=plan_games):
        state, games = play(f, 0, list(outcomes))
        assert state.decided and state.winner in (0, 1)
        assert len(games) <= plan_games


@pytest.mark.parametrize("games", [0, 3, 5, 7])
def test_only_1_2_4_or_6_regular_games(games):
    with pytest.raises(MatchPlayError, match="1, 2, 4 or 6"):
        fmt(games)


def test_a_plan_has_at_most_five_stages_of_one_or_two_games():
    stage = Stage(2, RAPID)
    with pytest.raises(MatchPlayError, match="at most 5"):
        fmt(2, TieBreakSchedule((stage,) * 6, RAPID))
    with pytest.raises(MatchPlayError, match="1 or 2 games"):
        fmt(2, TieBreakSchedule((Stage(3, RAPID),), RAPID))
    with pytest.raises(MatchPlayError, match="stages 1 to 2"):
        stage_games(fmt(2), 0, 4, 3)
    with pytest.raises(MatchPlayError, match="regular games"):
        progress(fmt(2), 0, [])
