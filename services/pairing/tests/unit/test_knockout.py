from __future__ import annotations

import json
from collections import Counter
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from services.pairing.domain.elimination.bracket import (
    BracketError,
    MatchId,
    MatchStatus,
    NotFinished,
    ResultRefused,
    better_seed,
    play_out,
)
from services.pairing.domain.elimination.knockout import MAX_PLAYERS, MIN_PLAYERS, Knockout
from shared.vocabulary import Section

W = Section.WINNERS


def wid(rnd: int, number: int) -> MatchId:
    return MatchId(W, rnd, number)


def random_play(bracket, rnd):
    return play_out(bracket, lambda m: rnd.choice(m.players))


def losses(bracket):
    return Counter(m.loser for m in bracket.matches() if m.status is MatchStatus.DECIDED)


# -- layout -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", range(MIN_PLAYERS, MAX_PLAYERS + 1))
def test_layout_for_every_size(players):
    ko = Knockout(players)
    size = ko.size
    assert size >= players > size // 2
    rounds = ko.rounds(W)
    assert len(rounds) == ko.round_count == size.bit_length() - 1
    assert [len(r) for r in rounds] == [size >> r for r in range(1, ko.round_count + 1)]
    first = rounds[0]
    # The byes go to the top seeds, one per match at most; everyone else plays in round 1.
    byes = sorted(p for m in first if any(m.empty) for p in m.players if p is not None)
    assert byes == list(range(1, size - players + 1))
    assert all(not all(m.empty) for m in first)
    seated = sorted(p for m in first for p in m.players if p is not None)
    assert seated == list(range(1, players + 1))
    assert Section.THIRD_PLACE not in ko.sections


def test_first_round_by_hand():
    assert [m.players for m in Knockout(8).rounds(W)[0]] == [(1, 8), (4, 5), (2, 7), (3, 6)]
    assert [m.players for m in Knockout(6).rounds(W)[0]] == [(1, None), (4, 5), (2, None), (3, 6)]


@pytest.mark.parametrize("players", range(MIN_PLAYERS, MAX_PLAYERS + 1))
def test_better_seeds_winning_gives_the_seeded_path(players):
    ko = play_out(Knockout(players, third_place=True), better_seed)
    size = ko.size
    for number, rnd in enumerate(ko.rounds(W), start=1):
        left = size >> (number - 1)
        for m in rnd:
            if m.status is MatchStatus.DECIDED:
                assert sum(m.players) == left + 1  # 1 v lowest, …, 1 v 4 and 2 v 3, 1 v 2
    assert ko.match(wid(ko.round_count, 1)).players == (1, 2)
    assert ko.match(MatchId(Section.THIRD_PLACE, 1, 1)).players == (4, 3)
    assert [p.seed for p in ko.placings()][:4] == [1, 2, 3, 4]


# -- playing ----------------------------------------------------------------------------------------


def test_ready_matches_before_any_result():
    # N = 5: 1, 2 and 3 have byes, so 2 v 3 of round 2 is known at once.
    ko = Knockout(5)
    assert [(str(m.id), m.players) for m in ko.ready_matches()] == [
        ("winners:1:2", (4, 5)),
        ("winners:2:2", (2, 3)),
    ]
    assert ko.match("winners:1:1").status is MatchStatus.WALKOVER
    assert ko.match("winners:2:1").players == (1, None)
    assert not ko.round_decided(1)
    ko = ko.record("winners:1:2", 5)
    assert ko.round_decided(1)
    assert ko.match("winners:2:1").players == (1, 5)


def test_third_place_is_ready_with_the_final():
    ko = Knockout(4, third_place=True)
    ko = ko.record(wid(1, 1), 4)
    assert [m.id for m in ko.ready_matches()] == [wid(1, 2)]
    ko = ko.record(wid(1, 2), 2)
    assert [(str(m.id), m.players) for m in ko.ready_matches()] == [
        ("winners:2:1", (4, 2)),
        ("third_place:1:1", (1, 3)),
    ]
    ko = ko.record(wid(2, 1), 2)
    assert not ko.is_finished() and ko.champion() == 2
    with pytest.raises(NotFinished):
        ko.placings()
    ko = ko.record("third_place:1:1", 3)
    assert ko.is_finished()
    assert [(p.seed, p.rank, p.places, p.matches_won) for p in ko.placings()] == [
        (2, 1, (1, 1), 2),
        (4, 2, (2, 2), 1),
        (3, 3, (3, 3), 1),
        (1, 4, (4, 4), 0),
    ]


def test_placing_without_third_place_by_hand():
    ko = play_out(Knockout(8), better_seed)
    got = [(p.seed, p.rank, p.places) for p in ko.placings()]
    assert got == [
        (1, 1, (1, 1)),
        (2, 2, (2, 2)),
        (3, 3, (3, 4)),
        (4, 3, (3, 4)),
        (5, 4, (5, 8)),
        (6, 4, (5, 8)),
        (7, 4, (5, 8)),
        (8, 4, (5, 8)),
    ]


@settings(max_examples=60, deadline=None)
@given(st.integers(MIN_PLAYERS, MAX_PLAYERS), st.booleans(), st.randoms(use_true_random=False))
def test_random_results(players, third_place, rnd):
    ko = random_play(Knockout(players, third_place=third_place), rnd)
    assert ko.is_finished() and ko.ready_matches() == ()
    champion = ko.champion()
    lost = losses(ko)
    assert champion not in lost
    bronze = ko.match(MatchId(Section.THIRD_PLACE, 1, 1)).loser if third_place else None
    assert all(count == (2 if seed == bronze else 1) for seed, count in lost.items())
    assert set(lost) | {champion} == set(range(1, players + 1))
    # Nobody plays twice in a round.
    for rnd_matches in ko.rounds(W):
        seated = [p for m in rnd_matches for p in m.players if p is not None]
        assert len(seated) == len(set(seated))
    placings = ko.placings()
    assert sorted(p.seed for p in placings) == list(range(1, players + 1))
    by_rank = Counter(p.rank for p in placings)
    expected = [1, 1, *([1, 1] if third_place else [2])]
    expected += [sum(m.status is MatchStatus.DECIDED for m in r) for r in reversed(ko.rounds(W)[:-2])]
    assert [by_rank[r] for r in sorted(by_rank)] == [n for n in expected if n]
    spans = sorted({p.places for p in placings})
    assert spans[0][0] == 1 and spans[-1][1] == players
    assert all(a[1] + 1 == b[0] for a, b in pairwise(spans))
    assert all(p.matches_won == ko.matches_won(p.seed) for p in placings)
    assert max(placings, key=lambda p: p.matches_won).seed == champion


@settings(max_examples=20, deadline=None)
@given(st.integers(MIN_PLAYERS, MAX_PLAYERS), st.booleans(), st.randoms(use_true_random=False))
def test_state_round_trips_through_json_at_any_point(players, third_place, rnd):
    ko = Knockout(players, third_place=third_place)
    while ready := ko.ready_matches():
        restored = Knockout.from_dict(json.loads(json.dumps(ko.to_dict())))
        assert restored.matches() == ko.matches()
        some = rnd.sample(ready, rnd.randint(1, len(ready)))
        ko = ko.record_many({m.id: rnd.choice(m.players) for m in some})
    assert Knockout.from_dict(json.loads(json.dumps(ko.to_dict()))).placings() == ko.placings()


# -- corrections and refusals -----------------------------------------------------------------------


def test_correction_is_refused_once_the_next_match_has_a_result():
    ko = Knockout(10).record(wid(1, 2), 8).record(wid(2, 1), 1)
    assert ko.record(wid(1, 2), 8).results == ko.results  # the same winner again changes nothing
    with pytest.raises(ResultRefused, match="winners:2:1"):
        ko.record(wid(1, 2), 9)
    with pytest.raises(ResultRefused):
        ko.clear(wid(1, 2))
    corrected = ko.clear(wid(2, 1)).record(wid(1, 2), 9)
    assert corrected.match(wid(2, 1)).players == (1, 9)
    assert corrected.match(wid(2, 1)).status is MatchStatus.READY


def test_correction_is_allowed_while_the_next_match_is_unplayed():
    ko = Knockout(8).record(wid(1, 1), 1).record(wid(1, 2), 4)
    ko = ko.record(wid(1, 2), 5)
    assert ko.match(wid(2, 1)).players == (1, 5)


def test_correction_through_a_walkover_is_refused():
    # N = 5: a third-place match fed by the semi-finals; the 4 v 5 winner meets 1 in round 2.
    ko = Knockout(5, third_place=True)
    ko = ko.record(wid(1, 2), 5).record(wid(2, 1), 5).record(wid(2, 2), 2)
    ko = ko.record("third_place:1:1", 1)
    with pytest.raises(ResultRefused, match="third_place"):
        ko.record(wid(2, 1), 1)


def test_refusals():
    ko = Knockout(10)
    with pytest.raises(ResultRefused, match="pending"):
        ko.record(wid(2, 1), 1)
    with pytest.raises(ResultRefused, match="walkover"):
        ko.record(wid(1, 1), 1)
    with pytest.raises(ResultRefused, match="does not play"):
        ko.record(wid(1, 2), 1)
    with pytest.raises(BracketError, match="no such match"):
        ko.record(wid(5, 1), 1)
    with pytest.raises(BracketError, match="no such match"):
        ko.record("third_place:1:1", 1)
    for text in ("winners:1", "winners:a:1", "final:1:1", "winners:1:1:1"):
        with pytest.raises(BracketError, match="not a match id"):
            ko.record(text, 1)


@pytest.mark.parametrize("players", [-4, 0, 3, 129, 256])
def test_player_count_out_of_range(players):
    with pytest.raises(BracketError, match="4 to 128"):
        Knockout(players)


def test_stored_state_is_checked():
    good = Knockout(8).record(wid(1, 1), 1).to_dict()
    assert good == {"format": "knockout", "players": 8, "third_place": False, "results": {"winners:1:1": 1}}
    with pytest.raises(BracketError, match="format"):
        Knockout.from_dict({**good, "format": "double_knockout"})
    with pytest.raises(BracketError, match="does not play"):
        Knockout.from_dict({**good, "results": {"winners:1:1": 5}})
    with pytest.raises(BracketError, match="pending"):
        Knockout.from_dict({**good, "results": {"winners:2:1": 1}})
    with pytest.raises(BracketError, match="seed number"):
        Knockout.from_dict({**good, "results": {"winners:1:1": "1"}})
    with pytest.raises(BracketError):
        Knockout.from_dict({**good, "colour": "white"})
    with pytest.raises(BracketError):
        Knockout.from_dict({**good, "players": "8"})
    with pytest.raises(BracketError, match="true or false"):
        Knockout.from_dict({**good, "third_place": "yes"})
