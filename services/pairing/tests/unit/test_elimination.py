"""A knockout and a double knockout as the pairing service runs them: rounds, matches with their games,
byes, results, tie-breaks and the final placing."""

from __future__ import annotations

import datetime as dt
import random
import uuid

import pytest

from services.pairing.domain import events
from services.pairing.domain.changes import RoundAdded
from services.pairing.domain.elimination.bracket import MatchId
from services.pairing.domain.elimination.elimination import Elimination, bracket_from_dict
from services.pairing.domain.errors import NotOrganiser, RoundNotDue, RoundNotFound, UnsupportedField
from services.pairing.domain.heading import Heading, Player, Status
from shared.authority import Appointment, Authority
from shared.scoring import Outcome
from shared.seed_draw import draw_order
from shared.time_control import DEFAULT_PLAN, RateOfPlay
from shared.vocabulary import BracketFormat, DecidedIn, Ruleset, Section, Seeding, System

W, D, B = Outcome.WHITE_WIN, Outcome.DRAW, Outcome.BLACK_WIN
NOW = dt.datetime(2026, 6, 1, 12, tzinfo=dt.UTC)


def event(fmt: str, players: int, games: int = 2, **options) -> Elimination:
    heading = Heading(
        uuid.UUID(int=players), uuid.UUID(int=1000), "Cup", Ruleset.KNOCKOUT, RateOfPlay(600, 5), NOW
    )
    roster = tuple(Player(i, uuid.UUID(int=i), f"P{i}") for i in range(1, players + 1))
    return Elimination.start(
        heading,
        roster,
        format=BracketFormat(fmt),
        games_per_match=games,
        seeding=Seeding.CUSTOM,
        tiebreak_plan=DEFAULT_PLAN,
        **options,
    )


def pair(e: Elimination, number: int, draw=lambda: 0):
    return e.pair_round(number, draw, now=NOW)


def record(e: Elimination, game_id: uuid.UUID, outcome: Outcome):
    return e.record_result(game_id, outcome, finished_at=NOW, now=NOW)


def win_for(e: Elimination, match, seed: int) -> None:
    """Play the match's games until ``seed`` has won it (every game won by ``seed``)."""
    while not match.decided:
        game = next(g for g in match.games if g.outcome is None and not g.cancelled)
        record(e, game.game_id, W if match.white(game) == seed else B)


def test_six_player_knockout_round_by_round():
    e = event("knockout", 6, third_place=True)
    assert e.rounds_total() == 3 and e.next_round_number() == 1
    assert e.byes(1) == [1, 2]
    assert [str(m.id) for m in e.walkovers(1)] == ["winners:1:1", "winners:1:3"]
    first = pair(e, 1, lambda: 0)
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
        pair(e, 2, lambda: 0)
    win_for(e, first[0], 5)
    assert not e.round_decided(1)
    win_for(e, first[1], 3)
    assert e.round_decided(1) and e.next_round_number() == 2
    semis = pair(e, 2, lambda: 1)
    assert [(str(m.id), m.players, m.first_white) for m in semis] == [
        ("winners:2:1", (1, 5), 1),
        ("winners:2:2", (2, 3), 1),
    ]
    win_for(e, semis[0], 1)
    win_for(e, semis[1], 3)
    finals = pair(e, 3, lambda: 0)
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
    match = pair(e, 1, lambda: 0)[0]  # 1 v 4, seed 1 White in games 1 and 3
    ids = [g.game_id for g in match.games]
    assert record(e, ids[0], W).winner is None
    assert record(e, ids[0], B) is None  # a second result for a game: the first one stands
    assert record(e, ids[1], B).winner is None
    done = record(e, ids[2], W)  # 3-0 with one game left
    assert done.winner == 1 and match.how is DecidedIn.REGULAR
    assert [g.game_id for g in done.cancelled] == [ids[3]] and match.games[3].cancelled
    assert e.bracket.match("winners:1:1").winner == 1
    late = record(e, ids[3], B)  # played anyway: kept, changes nothing
    assert late.winner is None and late.added == () and e.bracket.match("winners:1:1").winner == 1

    other = e.round_matches(1)[1]  # 2 v 3
    outcomes = [W, B, B, W]  # seed 2 White in games 1 and 3: 2-2
    for game, outcome in zip(list(other.games), outcomes, strict=True):
        recorded = record(e, game.game_id, outcome)
    assert [g.planned.label for g in recorded.added] == [
        "Tie-break 1 (15+10), game 1",
        "Tie-break 1 (15+10), game 2",
    ]
    assert len({g.game_id for g in other.games}) == 6
    assert record(e, recorded.added[0].game_id, W).winner is None
    assert record(e, recorded.added[1].game_id, D).winner == 2 and other.how is DecidedIn.TIEBREAK


def test_game_ids_are_the_same_whenever_a_round_is_paired():
    one, two = event("knockout", 8), event("knockout", 8)
    ids = [[g.game_id for m in pair(e, 1, lambda: 0) for g in m.games] for e in (one, two)]
    assert ids[0] == ids[1] and len(set(ids[0])) == 8


def test_the_state_survives_plain_data():
    e = event("double_knockout", 5)
    first = pair(e, 1, lambda: 0)
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
        paired = pair(e, number, lambda: rng.randrange(2))
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
        for m in pair(e, number, lambda: 0):
            # the better seed wins, except the grand final: the losers'-bracket player takes it
            loser_bracket_player = m.id == MatchId(Section.GRAND_FINAL, 1, 1)
            win_for(e, m, m.players[1] if loser_bracket_player else min(m.players))
    assert e.paired_rounds == planned + 1 == e.rounds_total()
    assert e.bracket.match(MatchId(Section.GRAND_FINAL, 2, 1)).status.value == "decided"


def test_knockout_rounds_follow_the_winners_rounds_even_when_a_later_match_is_known():
    # five players: 2 v 3 of round 2 is known at once (both came through byes), but waits for round 2
    e = event("knockout", 5)
    assert {str(m.id) for m in e.bracket.ready_matches()} == {"winners:1:2", "winners:2:2"}
    assert [str(m.id) for m in pair(e, 1, lambda: 0)] == ["winners:1:2"]
    assert e.byes(1) == [1, 2, 3]


def test_what_an_elimination_records_as_it_goes():
    e = event("knockout", 4, games=1)
    assert e.collect_events() == [events.RoundBecameDue(e.id, 1)]
    first = pair(e, 1)
    [paired] = e.collect_events()
    assert isinstance(paired, events.RoundPaired)
    assert (paired.round, paired.total_rounds, paired.system, paired.published) == (
        1,
        2,
        System.KNOCKOUT,
        False,
    )
    assert [(m.match_id, m.board, m.players) for m in paired.matches] == [
        ("winners:1:1", 1, (uuid.UUID(int=1), uuid.UUID(int=4))),
        ("winners:1:2", 2, (uuid.UUID(int=2), uuid.UUID(int=3))),
    ]
    assert [(g.match_id, g.label, g.time_control) for g in paired.games] == [
        ("winners:1:1", "Game", RateOfPlay(600, 5)),
        ("winners:1:2", "Game", RateOfPlay(600, 5)),
    ]
    assert [type(c) for c in e.take_changes()] == [RoundAdded]

    organiser, arbiter = uuid.UUID(int=1000), uuid.UUID(int=7)
    who = Authority.of(organiser, [Appointment(arbiter)])
    assert e.publish_round(1, authority=who, by=organiser, now=NOW) is True
    assert e.publish_round(1, authority=who, by=arbiter, now=NOW) is False  # once
    assert e.collect_events() == [events.RoundPublished(e.id, 1, NOW)]
    with pytest.raises(NotOrganiser):  # an arbiter of named games only does not publish rounds
        e.publish_round(
            1, authority=Authority.of(organiser, [Appointment(arbiter, frozenset())]), by=arbiter, now=NOW
        )
    with pytest.raises(RoundNotFound):
        e.publish_round(2, authority=who, by=organiser, now=NOW)

    win_for(e, first[0], 1)
    decided = e.collect_events()
    assert decided == [
        events.MatchDecided(
            e.id,
            "winners:1:1",
            1,
            Section.WINNERS,
            (uuid.UUID(int=1), uuid.UUID(int=4)),
            uuid.UUID(int=1),
            DecidedIn.REGULAR,
            (),
            NOW,
        )
    ]
    win_for(e, first[1], 3)
    assert [type(x) for x in e.collect_events()] == [
        events.MatchDecided,
        events.RoundCompleted,
        events.RoundBecameDue,
    ]
    final = pair(e, 2)
    win_for(e, final[0], 3)
    *_, done = e.collect_events()
    assert isinstance(done, events.TournamentCompleted)
    assert (done.rounds, done.completed_at) == (2, NOW)
    assert [(p.player_id, p.rank) for p in done.placing] == [
        (uuid.UUID(int=3), 1),
        (uuid.UUID(int=1), 2),
        (uuid.UUID(int=2), 3),
        (uuid.UUID(int=4), 3),
    ]
    assert e.status is Status.COMPLETED and e.completed == {1, 2}


def test_a_knockout_needs_a_roster_seeded_one_to_n_and_settings_it_can_run():
    heading = Heading(uuid.uuid4(), uuid.uuid4(), "Cup", Ruleset.KNOCKOUT, RateOfPlay(600, 5), NOW)
    gap = tuple(Player(s, uuid.uuid4(), f"P{s}") for s in (1, 2, 3, 5))
    with pytest.raises(UnsupportedField, match="seeded 1"):
        Elimination.start(
            heading, gap, format=BracketFormat.KNOCKOUT, games_per_match=1, seeding=Seeding.RATING,
            tiebreak_plan=DEFAULT_PLAN,
        )  # fmt: skip
    three = tuple(Player(s, uuid.uuid4(), f"P{s}") for s in (1, 2, 3))
    with pytest.raises(UnsupportedField, match="cannot run this knockout"):
        Elimination.start(
            heading, three, format=BracketFormat.KNOCKOUT, games_per_match=1, seeding=Seeding.RATING,
            tiebreak_plan=DEFAULT_PLAN,
        )  # fmt: skip
    drawn = draw_order([str(uuid.UUID(int=i)) for i in range(1, 5)], 1)
    four = tuple(Player(s, uuid.UUID(p), p) for s, p in enumerate(reversed(drawn), start=1))  # not the draw
    with pytest.raises(UnsupportedField, match="not the draw"):
        Elimination.start(
            heading, four, format=BracketFormat.KNOCKOUT, games_per_match=1, seeding=Seeding.RANDOM,
            draw_seed=1, tiebreak_plan=DEFAULT_PLAN,
        )  # fmt: skip
