"""Arena points, streaks, boost and the ranking (RULES.md §3): by hand, then properties over random arenas
(the table against a plain fold of each player's games, in any recording order, with corrections)."""

from __future__ import annotations

import datetime as dt
import itertools
import random
import uuid

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared.arena_scoring import (
    ArenaTable,
    FinishedArenaGame,
    Score,
    points,
    sheet,
)
from shared.scoring import Outcome

T = dt.datetime(2026, 6, 1, 12, 0, tzinfo=dt.UTC)
A, B, C, D = (uuid.UUID(int=k) for k in (1, 2, 3, 4))
W, L, DR = Outcome.WHITE_WIN, Outcome.BLACK_WIN, Outcome.DRAW


def game(n: int, white: uuid.UUID, black: uuid.UUID, outcome: Outcome, **boost: bool) -> FinishedArenaGame:
    return FinishedArenaGame(
        uuid.UUID(int=1000 + n), white, black, outcome, T + dt.timedelta(minutes=n), **boost
    )


def a_plays(results: str, *, boosted: str = "") -> list[FinishedArenaGame]:
    """A's games against B in order: 'w' win, 'd' draw, 'l' loss; ``boosted``: the indices A boosted."""
    outcome = {"w": W, "d": DR, "l": L}
    return [
        game(i, A, B, outcome[r], white_boost=str(i) in boosted.split(",")) for i, r in enumerate(results)
    ]


def points_of(games: list[FinishedArenaGame]) -> list[int]:
    return [e.points for e in sheet(A, games)]


# -- points by hand ---------------------------------------------------------------------------------
def test_win_two_draw_one_loss_nothing():
    assert points_of(a_plays("wdl")) == [2, 1, 0]
    assert [e.points for e in sheet(B, a_plays("wdl"))] == [0, 1, 2]


def test_from_the_third_consecutive_win_each_win_is_worth_three():
    assert points_of(a_plays("wwwww")) == [2, 2, 3, 3, 3]


@pytest.mark.parametrize("breaker", ["d", "l"])
def test_a_draw_or_a_loss_ends_the_streak(breaker):
    assert points_of(a_plays(f"www{breaker}www")) == [2, 2, 3, int(breaker == "d"), 2, 2, 3]


def test_boost_doubles_a_win_and_a_streak_win():
    assert points_of(a_plays("wwww", boosted="0,3")) == [4, 2, 3, 6]


def test_a_boosted_draw_or_loss_scores_as_without():
    assert points_of(a_plays("dl", boosted="0,1")) == [1, 0]


def test_the_rule_itself():
    assert points(Score.WIN, wins_before=0, boosted=False) == 2
    assert points(Score.WIN, wins_before=1, boosted=False) == 2
    assert points(Score.WIN, wins_before=2, boosted=False) == 3
    assert points(Score.WIN, wins_before=2, boosted=True) == 6
    assert points(Score.DRAW, wins_before=5, boosted=True) == 1
    assert points(Score.LOSS, wins_before=5, boosted=True) == 0


def test_forfeits_count_as_wins_and_losses_and_a_game_not_played_not_at_all():
    games = [
        game(0, A, B, W),
        game(1, A, B, Outcome.WHITE_FORFEIT_WIN),
        game(2, A, B, Outcome.NOT_PLAYED),
        game(3, B, A, Outcome.BLACK_FORFEIT_WIN),
        game(4, A, B, Outcome.DOUBLE_FORFEIT),
        game(5, A, B, W),
    ]
    assert points_of(games) == [2, 2, 3, 0, 2]
    assert [e.points for e in sheet(B, games)] == [0, 0, 0, 0, 0]


def test_marks_for_the_page():
    table = ArenaTable()
    for g in a_plays("wwlww", boosted="4"):
        table.record(g)
    row = table.row(A)
    assert (row.points, row.wins, row.games, row.streak, row.boosts) == (2 + 2 + 0 + 2 + 4, 4, 5, 2, 1)
    assert row.on_fire  # two in a row: the next win is worth 3
    assert [(e.streak, e.boosted) for e in row.sheet][-1] == (False, True)
    table.record(game(9, A, B, W))
    assert table.row(A).sheet[-1].streak and table.row(A).sheet[-1].points == 3
    assert not table.row(B).on_fire


# -- the ranking by hand ----------------------------------------------------------------------------
def test_points_then_games_won():
    table = ArenaTable()
    # A: two draws and a win (4 points, 1 win); B: two wins and a loss... give B 4 points with 2 wins
    table.record(game(0, A, C, DR))
    table.record(game(1, A, D, DR))
    table.record(game(2, A, C, W))
    table.record(game(3, B, C, W))
    table.record(game(4, B, D, W))
    ranking = table.ranking()
    assert [(r.player, r.points, r.wins) for r in ranking[:2]] == [(B, 4, 2), (A, 4, 1)]


def test_then_fewer_games_then_earlier_to_reach_the_score():
    table = ArenaTable()
    table.record(game(0, A, C, W))  # A: 2 points in 1 game
    table.record(game(1, B, D, W))  # B: 2 points in 2 games (a loss after)
    table.record(game(2, B, D, L))
    table.record(game(5, C, D, W))  # C: after A's win, C's own win at minute 5 → 2 points, 1 win, 2 games
    ranking = table.ranking()
    # A: 2 points from 1 game; B and C: 2 points, 1 win, 2 games, B reached 2 at minute 1, C at
    # minute 5; D: 2 points, 1 win, 3 games
    assert [r.player for r in ranking] == [A, B, C, D]
    assert [r.rank for r in ranking] == [1, 2, 3, 4]


def test_equal_on_everything_share_the_rank_listed_by_rating():
    table = ArenaTable()
    table.enter(A, 1500)
    table.enter(B, 2100)
    table.enter(C, 1800)
    ranking = table.ranking()
    assert [(r.player, r.rank) for r in ranking] == [(B, 1), (C, 1), (A, 1)]


def test_a_correction_replaces_the_game_and_a_removed_game_no_longer_counts():
    table = ArenaTable()
    games = a_plays("www")
    for g in games:
        table.record(g)
    assert table.points(A) == 7
    table.record(FinishedArenaGame(games[1].id, A, B, DR, games[1].ended_at))
    assert table.points(A) == 2 + 1 + 2
    assert table.points(B) == 1
    table.remove(games[1].id)
    assert table.points(A) == 2 + 2
    table.remove(uuid.uuid4())  # unknown: nothing


def test_a_player_cannot_play_themselves():
    with pytest.raises(ValueError):
        game(0, A, A, W)


# -- properties -------------------------------------------------------------------------------------
def random_arena(seed: int, players: int, games: int) -> list[FinishedArenaGame]:
    """Games as an arena makes them: a player is in one game at a time, games end one after another."""
    rng = random.Random(seed)
    ids = [uuid.UUID(int=rng.getrandbits(128)) for _ in range(players)]
    busy_until = dict.fromkeys(ids, T)
    now, out = T, []
    for _ in range(games):
        now += dt.timedelta(seconds=rng.randint(1, 90))
        free = [p for p in ids if busy_until[p] <= now]
        if len(free) < 2:
            continue
        white, black = rng.sample(free, 2)
        ended = now + dt.timedelta(seconds=rng.randint(30, 600))
        busy_until[white] = busy_until[black] = ended
        outcome = rng.choices(
            [W, DR, L, Outcome.WHITE_FORFEIT_WIN, Outcome.DOUBLE_FORFEIT, Outcome.NOT_PLAYED],
            [45, 15, 35, 2, 1, 2],
        )[0]
        out.append(
            FinishedArenaGame(
                uuid.UUID(int=rng.getrandbits(128)),
                white,
                black,
                outcome,
                ended,
                rng.random() < 0.2,
                rng.random() < 0.2,
            )
        )
    return out


def plain_fold(games: list[FinishedArenaGame]) -> dict[uuid.UUID, tuple[int, int, int]]:
    """(points, wins, games) per player, straight from the rules, each player's games in time order."""
    result_of = {
        W: ("w", "l"),
        Outcome.WHITE_FORFEIT_WIN: ("w", "l"),
        DR: ("d", "d"),
        L: ("l", "w"),
        Outcome.BLACK_FORFEIT_WIN: ("l", "w"),
        Outcome.DOUBLE_FORFEIT: ("l", "l"),
    }
    per_player: dict[uuid.UUID, list[tuple[dt.datetime, str, bool]]] = {}
    for g in games:
        if g.outcome is Outcome.NOT_PLAYED:
            continue
        rw, rb = result_of[g.outcome]
        per_player.setdefault(g.white, []).append((g.ended_at, rw, g.white_boost))
        per_player.setdefault(g.black, []).append((g.ended_at, rb, g.black_boost))
    out = {}
    for player, seq in per_player.items():
        total = wins = run = 0
        for _, r, boosted in sorted(seq):
            if r == "w":
                run += 1
                wins += 1
                total += (3 if run >= 3 else 2) * (2 if boosted else 1)
            else:
                run = 0
                total += 1 if r == "d" else 0
        out[player] = (total, wins, len(seq))
    return out


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 30), st.integers(0, 200))
def test_the_ranking_is_consistent_with_the_games(seed, players, count):
    games = random_arena(seed, players, count)
    order = games[:]
    random.Random(seed).shuffle(order)
    table = ArenaTable()
    for g in order:  # recording order does not matter
        table.record(g)
    ranking = table.ranking()
    expected = plain_fold(games)
    assert {r.player: (r.points, r.wins, r.games) for r in ranking if r.games} == expected
    assert all(r.points == r.wins == r.games == 0 for r in ranking if r.player not in expected)
    # sorted by points, then wins, then fewer games; ranks 1.. with shared ranks only for equal rows
    keys = [(-r.points, -r.wins, r.games) for r in ranking]
    assert keys == sorted(keys)
    assert [r.rank for r in ranking[:1]] == [1][: len(ranking)]
    for place, (before, row) in enumerate(itertools.pairwise(ranking), start=2):
        tied = (row.points, row.wins, row.games, row.reached_at) == (
            before.points,
            before.wins,
            before.games,
            before.reached_at,
        )
        assert row.rank == (before.rank if tied else place)
    # every game's points sum to what the rows hold
    assert sum(r.points for r in ranking) == sum(e.points for r in ranking for e in r.sheet)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32))
def test_corrections_leave_the_table_as_if_recorded_right_first(seed):
    games = random_arena(seed, 12, 80)
    rng = random.Random(seed)
    table = ArenaTable()
    for g in games:
        table.record(g)
    corrected = []
    for g in games:
        if rng.random() < 0.2:
            g = FinishedArenaGame(g.id, g.white, g.black, rng.choice([W, DR, L]), g.ended_at, g.white_boost)
            table.record(g)
        corrected.append(g)
    fresh = ArenaTable()
    for g in corrected:
        fresh.record(g)
    assert table.ranking() == fresh.ranking()
