"""A tournament of rounds as its aggregates record it: the whole tournament when a round is paired, one
round when a result comes in."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest

from services.pairing.domain import events
from services.pairing.domain.changes import Finished, OutcomeSet, RoundAdded, RoundClosed
from services.pairing.domain.errors import NotOrganiser, PublishedWhenPaired, RoundNotDue, RoundNotFound
from services.pairing.domain.heading import Heading, Player
from services.pairing.domain.rounds.pairers import pairers
from services.pairing.domain.rounds.results import RoundResults
from services.pairing.domain.rounds.tournament import PairingTournament
from shared.authority import Authority
from shared.scoring import Outcome
from shared.time_control import RateOfPlay
from shared.vocabulary import ByeKind, Ruleset, System

NOW = dt.datetime(2026, 6, 1, 12, tzinfo=dt.UTC)
LATER = NOW + dt.timedelta(hours=1)
ORGANISER = uuid.UUID(int=1000)
TC = RateOfPlay(180, 2)


def tournament(n: int, **options) -> PairingTournament:
    heading = Heading(uuid.UUID(int=n), ORGANISER, "Friday blitz", Ruleset.PLATFORM, TC, NOW)
    return PairingTournament.start(
        heading, tuple(Player(s, uuid.UUID(int=s), f"P{s}") for s in range(n, 0, -1)), threshold=7, **options
    )


def test_start_chooses_the_system_and_makes_round_one_due():
    t = tournament(5)
    assert (t.system, t.total_rounds, [p.seed for p in t.players]) == (System.ROUND_ROBIN, 5, [1, 2, 3, 4, 5])
    assert t.collect_events() == [events.RoundBecameDue(t.id, 1)]
    assert tournament(8).system is System.SWISS


def test_pairing_a_round_records_it_with_players_byes_and_the_time_control():
    t = tournament(5, double_rounds=True)
    t.collect_events()
    rnd = t.pair_round(1, pairers()[System.ROUND_ROBIN], now=NOW)
    [paired] = t.collect_events()
    assert paired == events.RoundPaired(
        t.id,
        ORGANISER,
        1,
        5,
        System.ROUND_ROBIN,
        tuple(
            events.GameInRound(g.game_id, g.board, uuid.UUID(int=g.white), uuid.UUID(int=g.black), g.leg)
            for g in rnd.games
        ),
        (events.ByeInRound(uuid.UUID(int=rnd.byes[0].seed), ByeKind.PAIRING_ALLOCATED),),
        TC,
    )
    assert [g.leg for g in rnd.games] == [1, 2, 1, 2]
    assert t.take_changes() == [RoundAdded(1, NOW)]
    with pytest.raises(RoundNotDue):
        t.pair_round(2, pairers()[System.ROUND_ROBIN], now=NOW)  # round 1 is being played


def test_a_round_of_a_round_robin_is_public_when_paired():
    t = tournament(4)
    with pytest.raises(NotOrganiser):
        t.publish_round(1, authority=Authority.of(ORGANISER), by=uuid.uuid4())
    with pytest.raises(PublishedWhenPaired, match="round_robin round is public"):
        t.publish_round(1, authority=Authority.of(ORGANISER), by=ORGANISER)


def results(number: int, total: int, games: int = 2) -> RoundResults:
    outcomes = {uuid.UUID(int=g): None for g in range(1, games + 1)}
    return RoundResults(uuid.UUID(int=99), ORGANISER, number, total, outcomes)


def test_the_last_result_of_a_round_closes_it_and_makes_the_next_due():
    r = results(2, 5)
    assert r.record_result(uuid.UUID(int=1), Outcome.DRAW, finished_at=NOW, now=LATER)
    assert r.collect_events() == [] and not r.completed
    assert not r.record_result(
        uuid.UUID(int=1), Outcome.WHITE_WIN, finished_at=NOW, now=LATER
    )  # first stands
    assert r.record_result(uuid.UUID(int=2), Outcome.BLACK_FORFEIT_WIN, finished_at=NOW, now=LATER)
    assert r.collect_events() == [
        events.RoundCompleted(r.tournament_id, 2),
        events.RoundBecameDue(r.tournament_id, 3),
    ]
    assert r.take_changes() == [
        OutcomeSet(uuid.UUID(int=1), Outcome.DRAW, NOW),
        OutcomeSet(uuid.UUID(int=2), Outcome.BLACK_FORFEIT_WIN, NOW),
        RoundClosed(2, LATER),
    ]


def test_the_last_result_of_the_last_round_completes_the_tournament():
    r = results(5, 5, games=1)
    r.record_result(uuid.UUID(int=1), Outcome.WHITE_WIN, finished_at=NOW, now=LATER)
    assert r.collect_events() == [
        events.RoundCompleted(r.tournament_id, 5),
        events.TournamentCompleted(r.tournament_id, ORGANISER, 5, LATER),
    ]
    assert r.take_changes()[-1] == Finished()


def test_a_game_of_another_round_is_refused():
    with pytest.raises(RoundNotFound):
        results(1, 5).record_result(uuid.UUID(int=7), Outcome.DRAW, finished_at=NOW, now=NOW)
