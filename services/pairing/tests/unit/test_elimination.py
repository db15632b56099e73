"""A knockout and a double knockout as the pairing service runs them: rounds, matches with their games,
byes, results, tie-breaks and the final placing."""

from __future__ import annotations

import random
import uuid

import pytest

from services.pairing.domain.elimination.bracket import MatchId
from services.pairing.domain.elimination.elimination import Elimination, bracket_from_dict, new_bracket
from services.pairing.domain.elimination.match_play import MatchFormat
from services.pairing.domain.elimination.seeding import SeedList
from services.pairing.domain.errors import RoundNotDue
from shared.scoring import Outcome
from shared.time_control import TimeControl
from shared.vocabulary import Decision, Section, Seeding

W, D, B = Outcome.WHITE_WIN, Outcome.DRAW, Outcome.BLACK_WIN


def event(fmt: str, players: int, games: int = 2, **options) -> Elimination:
    order = tuple(f"p{i}" for i in range(1, players + 1))
    return Elimination(
        uuid.UUID(int=players),
        MatchFormat(games, TimeControl(600, 5)),
        new_bracket(fmt, players, **options),
        SeedList(Seeding.CUSTOM, order),
    )


def win_for(e: Elimination, match, seed: int) -> None:
    """Play the match's games until ``seed`` has won it (every game won by ``seed``)."""
    while not match.decided:
        game = next(g for g in match.games if g.outcome is None and not g.cancelled)
        e.record(game.game_id, W if match.white(game) == seed else B)


def test_six_player_knockout_round_by_round():
    e = event("knockout", 6, third_place=True)
    assert e.rounds_total() == 3 and e.next_round_number() == 1
    assert e.byes(1) == [1, 2]
    assert [str(m.id) for m in e.walkovers(1)] == ["winners:1:1", "winners:1:3"]
    first = e.pair_round(1, lambda: 0)
    assert [(str(m.id), m.board, m.players) for m in first] == [
        ("winners:1:2", 1, (4, 5)),
        ("winners:1:4", 2, (3, 6)),
    ]
    match = first[0]
    assert [(g.planned.label, match.white(g), match.black(g)) for g in match.games] == [
        ("Game 1", 4, 5),
        ("Game 2", 5, 4),
    ]
    assert e.next_round_number() is None  # round 1 is being played
    with pytest.raises(RoundNotDue):
        e.pair_round(2, lambda: 0)
    win_for(e, first[0], 5)
    assert not e.round_decided(1)
    win_for(e, first[1], 3)
    assert e.round_decided(1) and e.next_round_number() == 2
    semis = e.pair_round(2, lambda: 1)
    assert [(str(m.id), m.players, m.first_white) for m in semis] == [
        ("winners:2:1", (1, 5), 1),
        ("winners:2:2", (2, 3), 1),
    ]
    win_for(e, semis[0], 1)
    win_for(e, semis[1], 3)
    finals = e.pair_round(3, lambda: 0)
    assert [(str(m.id), m.players) for m in finals] == [("winners:3:1", (1, 3)), ("third_place:1:1", (5, 2))]
    win_for(e, finals[0], 3)
    assert not e.bracket.is_finished()
    win_for(e, finals[1], 2)
    assert e.bracket.is_finished() and e.next_round_number() is None
    assert [(p.seed, p.rank, p.places, p.matches_won) for p in e.placings()] == [
        (3, 1, (1, 1), 3),
        (1, 2, (2, 2), 1),
        (2, 3, (3, 3), 1),
        (5, 4, (4, 4), 1),
        (4, 5, (5, 6), 0),
        (6, 5, (5, 6), 0),
    ]


def test_a_level_match_gets_its_tie_break_games_and_a_decided_one_cancels_the_rest():
    e = event("knockout", 4, games=4)
    match = e.pair_round(1, lambda: 0)[0]  # 1 v 4, seed 1 White in games 1 and 3
    ids = [g.game_id for g in match.games]
    assert e.record(ids[0], W).winner is None
    assert e.record(ids[0], B) is None  # a second result for a game: the first one stands
    assert e.record(ids[1], B).winner is None
    done = e.record(ids[2], W)  # 3-0 with one game left
    assert done.winner == 1 and match.how is Decision.REGULAR
    assert [g.game_id for g in done.cancelled] == [ids[3]] and match.games[3].cancelled
    assert e.bracket.match("winners:1:1").winner == 1
    late = e.record(ids[3], B)  # played anyway: kept, changes nothing
    assert late.winner is None and late.added == () and e.bracket.match("winners:1:1").winner == 1

    other = e.round_matches(1)[1]  # 2 v 3
    outcomes = [W, B, B, W]  # seed 2 White in games 1 and 3: 2-2
    for game, outcome in zip(list(other.games), outcomes, strict=True):
        recorded = e.record(game.game_id, outcome)
    assert [g.planned.label for g in recorded.added] == [
        "Tie-break 1 (15+10), game 1",
        "Tie-break 1 (15+10), game 2",
    ]
    assert len({g.game_id for g in other.games}) == 6
    assert e.record(recorded.added[0].game_id, W).winner is None
    assert e.record(recorded.added[1].game_id, D).winner == 2 and other.how is Decision.TIEBREAK


def test_game_ids_are_the_same_whenever_a_round_is_paired():
    one, two = event("knockout", 8), event("knockout", 8)
    ids = [[g.game_id for m in e.pair_round(1, lambda: 0) for g in m.games] for e in (one, two)]
    assert ids[0] == ids[1] and len(set(ids[0])) == 8


def test_the_state_survives_plain_data():
    e = event("double_knockout", 5)
    first = e.pair_round(1, lambda: 0)
    for m in first:
        win_for(e, m, max(m.players))
    again = bracket_from_dict(e.bracket.to_dict())
    assert again.to_dict() == e.bracket.to_dict() and again.format == "double_knockout"


@pytest.mark.parametrize("players", [4, 5, 6, 7, 8, 11, 16, 23])
@pytest.mark.parametrize("second_final", [True, False])
def test_double_knockout_rounds_hold_every_ready_match(players, second_final):
    """Random results: each round is every match both of whose players are known, nobody plays twice in
    a round, and the announced number of rounds is what is played."""
    rng = random.Random(players * 2 + second_final)
    e = event("double_knockout", players, games=1, second_final=second_final)
    rounds = 0
    while (number := e.next_round_number()) is not None:
        ready = {m.id for m in e.bracket.ready_matches()}
        paired = e.pair_round(number, lambda: rng.randrange(2))
        rounds += 1
        assert {m.id for m in paired} == ready
        seeds = [s for m in paired for s in m.players]
        assert len(seeds) == len(set(seeds))
        for m in paired:
            win_for(e, m, rng.choice(m.players))
    assert e.bracket.is_finished()
    assert rounds == e.rounds_total()


def test_the_second_final_adds_a_round():
    e = event("double_knockout", 4, games=1)
    planned = e.rounds_total()
    while (number := e.next_round_number()) is not None:
        for m in e.pair_round(number, lambda: 0):
            # the better seed wins, except the grand final: the losers'-bracket player takes it
            loser_bracket_player = m.id == MatchId(Section.GRAND_FINAL, 1, 1)
            win_for(e, m, m.players[1] if loser_bracket_player else min(m.players))
    assert e.paired_rounds == planned + 1 == e.rounds_total()
    assert e.bracket.match(MatchId(Section.GRAND_FINAL, 2, 1)).status.value == "decided"


def test_knockout_rounds_follow_the_winners_rounds_even_when_a_later_match_is_known():
    # five players: 2 v 3 of round 2 is known at once (both came through byes), but waits for round 2
    e = event("knockout", 5)
    assert {str(m.id) for m in e.bracket.ready_matches()} == {"winners:1:2", "winners:2:2"}
    assert [str(m.id) for m in e.pair_round(1, lambda: 0)] == ["winners:1:2"]
    assert e.byes(1) == [1, 2, 3]
