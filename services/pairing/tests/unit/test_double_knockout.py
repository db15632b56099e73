from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from services.pairing.domain.elimination.bracket import (
    BracketError,
    LoserOf,
    MatchId,
    MatchStatus,
    ResultRefused,
    WinnerOf,
    better_seed,
    play_out,
)
from services.pairing.domain.elimination.double_knockout import (
    DROP_IN_ORDER,
    MAX_PLAYERS,
    MIN_PLAYERS,
    DoubleKnockout,
    half_shift,
    reverse,
    reverse_half_shift,
)
from services.pairing.domain.elimination.knockout import Knockout
from shared.vocabulary import Section
from tests.fixtures import FIXTURES

W, L, GF = Section.WINNERS, Section.LOSERS, Section.GRAND_FINAL
GF1, GF2 = MatchId(GF, 1, 1), MatchId(GF, 2, 1)


def decided(bracket):
    return [m for m in bracket.matches() if m.status is MatchStatus.DECIDED]


# -- layout -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", range(MIN_PLAYERS, MAX_PLAYERS + 1))
def test_winners_bracket_is_the_knockout(players):
    dk, ko = DoubleKnockout(players), Knockout(players)
    assert [m.id for m in dk.matches(W)] == [m.id for m in ko.matches(W)]
    assert [dk.slot_sources(m.id) for m in dk.matches(W)] == [ko.slot_sources(m.id) for m in ko.matches(W)]
    assert dk.matches(W) == ko.matches(W)


@pytest.mark.parametrize("players", range(MIN_PLAYERS, MAX_PLAYERS + 1))
def test_losers_bracket_shape(players):
    dk = DoubleKnockout(players)
    k = dk.size.bit_length() - 1
    rounds = dk.rounds(L)
    assert len(rounds) == 2 * (k - 1)
    assert [len(r) for r in rounds] == [dk.size >> (2 + j // 2) for j in range(2 * (k - 1))]
    # Every winners'-bracket match sends its loser to exactly one losers'-bracket slot: round 1's in
    # pairs to losers round 1, round r's (r > 1) one per match, slot 1, to losers round 2(r - 1).
    drops = dk.drop_ins()
    assert sorted(d.source for d in drops) == sorted(m.id for m in dk.matches(W))
    for d in drops:
        if d.source.round == 1:
            assert d.target.round == 1 and d.target.number == (d.source.number + 1) // 2
            assert d.slot == 2 - d.source.number % 2
        else:
            assert d.target.round == 2 * (d.source.round - 1) and d.slot == 1
    assert dk.slot_sources(GF1) == (WinnerOf(dk.matches(W)[-1].id), WinnerOf(dk.matches(L)[-1].id))
    assert dk.slot_sources(GF2) == dk.slot_sources(GF1)
    assert [m.id for m in DoubleKnockout(players, second_final=False).matches(GF)] == [GF1]


def test_orderings_by_hand():
    assert reverse([1, 2, 3, 4]) == [4, 3, 2, 1]
    assert half_shift([1, 2, 3, 4]) == [3, 4, 1, 2]
    assert reverse_half_shift([1, 2, 3, 4]) == [2, 1, 4, 3]
    assert reverse_half_shift([1, 2, 3, 4, 5, 6, 7, 8]) == [4, 3, 2, 1, 8, 7, 6, 5]


@pytest.mark.parametrize("path", sorted((FIXTURES / "brackets").glob("double_*.json")), ids=lambda p: p.stem)
def test_drop_in_orders_are_the_ones_the_reference_used(path):
    ref = json.loads(path.read_text())
    assert ref["reference"]["seed_ordering"] == [
        "inner_outer",
        "natural",
        *DROP_IN_ORDER[ref["bracket_size"]],
    ]


def test_eight_by_hand():
    dk = DoubleKnockout(8)
    sources = {str(m.id): dk.slot_sources(m.id) for m in dk.matches(L)}
    w = lambda r, n: MatchId(W, r, n)  # noqa: E731
    lb = lambda r, n: MatchId(L, r, n)  # noqa: E731
    assert sources == {
        "losers:1:1": (LoserOf(w(1, 1)), LoserOf(w(1, 2))),
        "losers:1:2": (LoserOf(w(1, 3)), LoserOf(w(1, 4))),
        # losers of winners round 2, reversed: the top half's loser drops into the bottom half
        "losers:2:1": (LoserOf(w(2, 2)), WinnerOf(lb(1, 1))),
        "losers:2:2": (LoserOf(w(2, 1)), WinnerOf(lb(1, 2))),
        "losers:3:1": (WinnerOf(lb(2, 1)), WinnerOf(lb(2, 2))),
        "losers:4:1": (LoserOf(w(3, 1)), WinnerOf(lb(3, 1))),
    }


def test_byes_in_the_losers_bracket_by_hand():
    # N = 5, S = 8: 1, 2, 3 have byes. Losers round 1: [bye, loser of 4 v 5] and [bye, bye].
    dk = DoubleKnockout(5)
    l11, l12 = dk.rounds(L)[0]
    assert (l11.players, l11.empty, l11.status) == ((None, None), (True, False), MatchStatus.PENDING)
    assert (l12.empty, l12.status) == ((True, True), MatchStatus.VOID)
    assert [m.players for m in dk.ready_matches()] == [(4, 5), (2, 3)]
    dk = dk.record("winners:1:2", 5).record("winners:2:2", 3)
    assert dk.match("losers:1:1").status is MatchStatus.WALKOVER and dk.match("losers:1:1").winner == 4
    # Losers round 2: [loser of 2 v 3, 4] and [loser of 1 v 5, empty].
    assert dk.match("losers:2:1").players == (2, 4) and dk.match("losers:2:1").status is MatchStatus.READY
    assert dk.match("losers:2:2").players == (None, None) and dk.match("losers:2:2").empty == (False, True)
    dk = dk.record("winners:2:1", 5)
    assert dk.match("losers:2:2").status is MatchStatus.WALKOVER and dk.match("losers:2:2").winner == 1
    # Then the better seed wins: 3 beats 5 (winners' final), 2 beats 4 (L2), 1 beats 2 (L3), 1 beats 5 (L4),
    # 1 beats 3 twice (grand final and second final).
    dk = play_out(dk, better_seed)
    assert dk.champion() == 1 and dk.match(GF2).status is MatchStatus.DECIDED
    assert {p.seed: p.rank for p in dk.placings()} == {1: 1, 3: 2, 5: 3, 2: 4, 4: 5}


# -- grand final ------------------------------------------------------------------------------------


def up_to_grand_final(players=4, second_final=True):
    dk = DoubleKnockout(players, second_final=second_final)
    while (ready := dk.ready_matches()) and ready[0].id.section is not GF:
        dk = dk.record_many({m.id: better_seed(m) for m in ready})
    return dk


def test_second_final_only_when_the_losers_bracket_winner_takes_the_first():
    dk = up_to_grand_final()
    assert dk.match(GF1).players == (1, 2) and dk.match(GF1).status is MatchStatus.READY
    assert dk.match(GF2).status is MatchStatus.PENDING
    kept = dk.record(GF1, 1)
    assert kept.is_finished() and kept.champion() == 1
    assert kept.match(GF2).status is MatchStatus.NOT_NEEDED
    with pytest.raises(ResultRefused, match="not_needed"):
        kept.record(GF2, 1)
    reset = dk.record(GF1, 2)
    assert not reset.is_finished() and reset.champion() is None
    assert [m.id for m in reset.ready_matches()] == [GF2]
    assert reset.match(GF2).players == (1, 2)
    done = reset.record(GF2, 2)
    assert done.champion() == 2 and [p.seed for p in done.placings()][:2] == [2, 1]
    with pytest.raises(ResultRefused, match="grand_final:2:1"):
        done.record(GF1, 1)
    assert done.clear(GF2).record(GF1, 1).champion() == 1


def test_without_second_final_the_first_final_decides():
    dk = up_to_grand_final(second_final=False).record(GF1, 2)
    assert dk.is_finished() and dk.champion() == 2
    placings = dk.placings()
    assert [(p.seed, p.rank) for p in placings][:2] == [(2, 1), (1, 2)]
    lost = Counter(m.loser for m in decided(dk))
    assert lost[1] == 1  # the runner-up lost only once: why the second final is on by default


# -- properties under random results ----------------------------------------------------------------


def service_rounds(dk, rnd):
    """Play as the service does: each round holds every ready match of both brackets."""
    waves = []
    while ready := dk.ready_matches():
        waves.append(ready)
        dk = dk.record_many({m.id: rnd.choice(m.players) for m in ready})
    return dk, waves


@settings(max_examples=80, deadline=None)
@given(st.integers(MIN_PLAYERS, MAX_PLAYERS), st.booleans(), st.randoms(use_true_random=False))
def test_random_results(players, second_final, rnd):
    dk, waves = service_rounds(DoubleKnockout(players, second_final=second_final), rnd)
    assert dk.is_finished()
    champion = dk.champion()
    lost = Counter(m.loser for m in decided(dk))
    everyone = set(range(1, players + 1))
    assert set(lost) | {champion} == everyone
    reset_played = dk.match(GF2).status is MatchStatus.DECIDED if second_final else False
    first = dk.match(GF1)
    runner_up_once = not second_final and first.winner == first.players[1]
    for seed in everyone - {champion}:
        expected = 1 if runner_up_once and seed == first.players[0] else 2
        assert lost[seed] == expected, (seed, lost[seed])
    assert lost[champion] == (1 if reset_played or runner_up_once else 0)
    assert len(decided(dk)) == 2 * players - 2 + reset_played
    # Nobody plays twice in a service round, nor twice in a round of either bracket.
    for wave in waves:
        seated = [p for m in wave for p in m.players]
        assert len(seated) == len(set(seated))
    for section in (W, L):
        for rnd_matches in dk.rounds(section):
            seated = [p for m in rnd_matches for p in m.players if p is not None]
            assert len(seated) == len(set(seated))
    placings = dk.placings()
    assert sorted(p.seed for p in placings) == sorted(everyone)
    assert placings[0].seed == champion and placings[0].places == (1, 1)
    assert placings[-1].places[1] == players
    restored = DoubleKnockout.from_dict(json.loads(json.dumps(dk.to_dict())))
    assert restored.matches() == dk.matches() and restored.placings() == placings


# -- rematches --------------------------------------------------------------------------------------


def region(dk, mid):
    """The winners' round-1 matches below a winners' match."""
    if mid.round == 1:
        return {mid.number}
    return set().union(*(region(dk, s.match) for s in dk.slot_sources(mid)))


def feeders(dk, mid):
    """The winners' matches whose losers can reach a losers' match."""
    found = set()
    for source in dk.slot_sources(mid):
        if isinstance(source, LoserOf):
            found.add(source.match)
        elif isinstance(source, WinnerOf):
            found |= feeders(dk, source.match)
    return found


@pytest.mark.parametrize("size", [4, 8, 16, 32, 64])
def test_first_match_after_dropping_is_a_rematch_only_late(size):
    # A player dropping from winners match X can meet someone they beat only if a player who lost
    # inside X's part of the bracket can reach the other slot. With the drop-in orders this is impossible
    # for the losers of winners rounds 1-3, except in the losers' final.
    dk = DoubleKnockout(size)
    losers_final = dk.matches(L)[-1].id
    possible = set()
    for d in dk.drop_ins():
        other = dk.slot_sources(d.target)[2 - d.slot]
        if isinstance(other, WinnerOf) and any(
            region(dk, f) <= region(dk, d.source) for f in feeders(dk, other.match)
        ):
            possible.add(d.target)
    expected = {d.target for d in dk.drop_ins() if d.source.round >= 4 or d.target == losers_final}
    assert possible == expected


@settings(max_examples=40, deadline=None)
@given(st.integers(MIN_PLAYERS, MAX_PLAYERS), st.randoms(use_true_random=False))
def test_no_rematch_right_after_an_early_drop(players, rnd):
    dk = play_out(DoubleKnockout(players), lambda m: rnd.choice(m.players))
    met = {frozenset(m.players) for m in decided(dk) if m.id.section is W}
    losers_final = dk.matches(L)[-1].id
    for d in dk.drop_ins():
        target = dk.match(d.target)
        if d.source.round <= 3 and d.target != losers_final and target.status is MatchStatus.DECIDED:
            assert frozenset(target.players) not in met, target


# -- errors -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [0, 3, 65, 128])
def test_player_count_out_of_range(players):
    with pytest.raises(BracketError, match="4 to 64"):
        DoubleKnockout(players)


def test_state_as_plain_data():
    dk = DoubleKnockout(6).record("winners:1:2", 5)
    data = dk.to_dict()
    assert data == {
        "format": "double_knockout",
        "players": 6,
        "second_final": True,
        "results": {"winners:1:2": 5},
    }
    assert DoubleKnockout.from_dict(data).matches() == dk.matches()
    with pytest.raises(BracketError, match="format"):
        DoubleKnockout.from_dict({**data, "format": "knockout"})
    with pytest.raises(BracketError):
        DoubleKnockout.from_dict({**data, "third_place": True})
