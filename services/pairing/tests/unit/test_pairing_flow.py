"""The pairing service from tournament.started to tournament.completed, on SQLite and on the in-memory
fakes."""

from __future__ import annotations

import itertools

import pytest

from services.pairing.adapters.wire import RoundDue
from services.pairing.domain.rounds.berger import round_robin
from services.pairing.tests.helpers import deliver, finish, published, started
from shared import events
from shared.events import GameOutcome


@pytest.fixture
def svc(service):
    return service


def play_all(svc, tid) -> None:
    seen = 0
    while True:
        rounds = published(svc, "round.paired")
        if len(rounds) == seen:
            return
        latest = rounds[-1]
        seen = len(rounds)
        for result in finish(latest):
            deliver(svc, result, tid)


def seeds_of(svc, event) -> dict:
    return {r.player_id: r.seed for r in event.roster}


def test_six_player_round_robin_follows_the_berger_table(svc):
    ev = started(6)
    deliver(svc, ev, ev.tournament_id)
    play_all(svc, ev.tournament_id)
    seed = seeds_of(svc, ev)
    paired = [events.RoundPaired.model_validate(e.payload) for e in published(svc, "round.paired")]
    table = round_robin(6)
    assert [p.round for p in paired] == [1, 2, 3, 4, 5]
    for rp, expected in zip(paired, table, strict=True):
        assert [(seed[g.white], seed[g.black]) for g in rp.games] == [tuple(p) for p in expected]
        assert rp.system == "round_robin" and rp.total_rounds == 5 and rp.byes == []
    assert len(published(svc, "round.completed")) == 5
    done = published(svc, "tournament.completed")
    assert len(done) == 1 and done[0].payload["rounds"] == 5


def test_odd_field_gives_a_pairing_allocated_bye_each_round(svc):
    ev = started(5)
    deliver(svc, ev, ev.tournament_id)
    play_all(svc, ev.tournament_id)
    seed = seeds_of(svc, ev)
    paired = [events.RoundPaired.model_validate(e.payload) for e in published(svc, "round.paired")]
    assert len(paired) == 5
    byes = [seed[b.player_id] for rp in paired for b in rp.byes]
    assert sorted(byes) == [1, 2, 3, 4, 5]  # everybody sits out once
    assert all(b.kind == "pairing_allocated" for rp in paired for b in rp.byes)
    met = {frozenset((seed[g.white], seed[g.black])) for rp in paired for g in rp.games}
    assert met == {frozenset(p) for p in itertools.combinations(range(1, 6), 2)}


@pytest.mark.parametrize("double_rounds", [False, True])
def test_four_players_play_three_rounds_of_two_games_a_pairing(svc, double_rounds):
    """RULES.md §2: each round has both games of every pairing, colours swapped; six games each, never
    twelve, whatever the organiser chose."""
    ev = started(4, double_rounds=double_rounds)
    deliver(svc, ev, ev.tournament_id)
    play_all(svc, ev.tournament_id)
    seed = seeds_of(svc, ev)
    paired = [events.RoundPaired.model_validate(e.payload) for e in published(svc, "round.paired")]
    assert [(rp.round, rp.total_rounds, rp.system) for rp in paired] == [
        (r, 3, "round_robin") for r in (1, 2, 3)
    ]
    games_each: dict = {}
    for rp, table_round in zip(paired, round_robin(4), strict=True):
        legs = {(g.board, g.leg): (seed[g.white], seed[g.black]) for g in rp.games}
        assert len(rp.games) == 4 and rp.byes == []
        for board, pairing in enumerate(table_round, start=1):
            assert legs[(board, 1)] == tuple(pairing)  # the Berger table once
            assert legs[(board, 2)] == (pairing.black, pairing.white)  # colours swapped
        for g in rp.games:
            games_each[g.white] = games_each.get(g.white, 0) + 1
            games_each[g.black] = games_each.get(g.black, 0) + 1
    assert sorted(games_each.values()) == [6, 6, 6, 6]
    met = [frozenset((seed[g.white], seed[g.black])) for rp in paired for g in rp.games]
    assert all(met.count(pair) == 2 for pair in met) and len(set(met)) == 6
    done = published(svc, "tournament.completed")
    assert len(done) == 1 and done[0].payload["rounds"] == 3


def test_double_rounds_play_each_pairing_twice_with_colours_swapped(svc):
    ev = started(6, double_rounds=True)
    deliver(svc, ev, ev.tournament_id)
    first = events.RoundPaired.model_validate(published(svc, "round.paired")[0].payload)
    assert len(first.games) == 6
    legs = {(g.board, g.leg): g for g in first.games}
    for board in (1, 2, 3):
        one, two = legs[(board, 1)], legs[(board, 2)]
        assert (one.white, one.black) == (two.black, two.white)


def test_redelivered_events_have_one_effect(svc):
    ev = started(6)
    env = deliver(svc, ev, ev.tournament_id)
    svc.broker.publish([env])  # the same envelope again
    svc.broker.run_until_idle()
    assert len(published(svc, "round.paired")) == 1
    results = finish(published(svc, "round.paired")[0])
    first = events.wrap(results[0], ev.tournament_id)
    for _ in range(3):
        svc.broker.publish([first])
        svc.broker.run_until_idle()
    for r in results[1:]:
        deliver(svc, r, ev.tournament_id)
    assert len(published(svc, "round.completed")) == 1
    assert len(published(svc, "round.paired")) == 2


def test_a_second_result_for_a_game_changes_nothing(svc):
    ev = started(6)
    deliver(svc, ev, ev.tournament_id)
    results = finish(published(svc, "round.paired")[0])
    deliver(svc, results[0], ev.tournament_id)
    deliver(svc, results[0].model_copy(update={"outcome": GameOutcome.BLACK_WIN}), ev.tournament_id)
    with svc.uow() as uow:
        t = uow.tournaments.get(ev.tournament_id)
    assert t.rounds[0].games[0].outcome is GameOutcome.WHITE_WIN


def test_pairing_a_round_twice_is_a_no_op(svc):
    ev = started(6)
    deliver(svc, ev, ev.tournament_id)
    due = RoundDue(tournament_id=ev.tournament_id, round=1)
    deliver(svc, due, ev.tournament_id)  # a second worker's job for the same round
    assert len(published(svc, "round.paired")) == 1


def test_swiss_for_a_field_at_the_threshold_never_pairs_twice(svc):
    ev = started(9, threshold=7)
    deliver(svc, ev, ev.tournament_id)

    def outcome(game):  # the higher seed wins, with a draw on every third board
        if game.board % 3 == 0:
            return GameOutcome.DRAW
        return GameOutcome.WHITE_WIN if seed[game.white] < seed[game.black] else GameOutcome.BLACK_WIN

    seed = seeds_of(svc, ev)
    seen = 0
    while len(published(svc, "round.paired")) > seen:
        latest = published(svc, "round.paired")[-1]
        seen += 1
        for result in finish(latest, outcome):
            deliver(svc, result, ev.tournament_id)
    paired = [events.RoundPaired.model_validate(e.payload) for e in published(svc, "round.paired")]
    assert len(paired) == 5 and all(p.system == "swiss" and p.total_rounds == 5 for p in paired)
    pairs = [frozenset((seed[g.white], seed[g.black])) for rp in paired for g in rp.games]
    assert len(pairs) == len(set(pairs)) == 5 * 4
    byes = [seed[b.player_id] for rp in paired for b in rp.byes]
    assert len(byes) == len(set(byes)) == 5  # odd field: one bye a round, never twice to the same player
    # round 1 of the Dutch system: top half against bottom half
    assert sorted(frozenset((seed[g.white], seed[g.black])) for g in paired[0].games) == sorted(
        frozenset(p) for p in [(1, 5), (2, 6), (3, 7), (4, 8)]
    )
    assert [seed[b.player_id] for b in paired[0].byes] == [9]
    assert len(published(svc, "tournament.completed")) == 1


def test_swiss_round_input_scores_platform_points_and_sums_double_rounds(svc):
    from services.pairing.domain.rounds.swiss import round_input

    ev = started(8, threshold=7, double_rounds=True)
    deliver(svc, ev, ev.tournament_id)
    first = published(svc, "round.paired")[0]
    rp = events.RoundPaired.model_validate(first.payload)
    seed = seeds_of(svc, ev)
    board1 = [g for g in rp.games if g.board == 1]
    outcomes = {board1[0].game_id: GameOutcome.WHITE_WIN, board1[1].game_id: GameOutcome.DRAW}
    for result in finish(first, lambda g: outcomes.get(g.game_id, GameOutcome.DRAW)):
        deliver(svc, result, ev.tournament_id)
    with svc.uow() as uow:
        t = uow.tournaments.get(ev.tournament_id)
    data = round_input(t, 2)
    white1 = seed[board1[0].white]
    black1 = seed[board1[0].black]
    record_w = data.players[white1 - 1].rounds[0]
    record_b = data.players[black1 - 1].rounds[0]
    # leg 1: White wins (2-0); leg 2, colours swapped: drawn (1-1) → 3 and 1 for the round
    assert (record_w.points, record_b.points) == (3, 1)
    assert record_w.colour.value == "w" and record_b.colour.value == "b"
    assert data.points.win == 4 and frozenset((white1, black1)) in data.forbidden_pairs
