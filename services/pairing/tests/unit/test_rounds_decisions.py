"""A round robin or a Swiss under the arbiter's authority, as its aggregate decides: corrections,
withdrawals (who stays in the draw), byes on request, swapped colours."""

from __future__ import annotations

import copy
import datetime as dt
import uuid

import pytest

from services.pairing.domain import events
from services.pairing.domain.changes import ColoursSet, OutcomeCorrected, WithdrawalRecorded
from services.pairing.domain.errors import (
    ByeAlreadyRequested,
    ByeNotFound,
    ByesNotOffered,
    ColoursFixed,
    EventMismatch,
    GameNotFinished,
    GameNotFound,
    InvalidOutcome,
    NotAnArbiterHere,
    NothingToCorrect,
    NotYourBye,
    PlayerAlreadyWithdrawn,
    PlayerNotFound,
    RoundAlreadyPaired,
    RoundOutOfRange,
)
from services.pairing.domain.heading import Heading, Player
from services.pairing.domain.rounds.pairers import pairers
from services.pairing.domain.rounds.tournament import ByeRequestAdded, ByeRequestRemoved, PairingTournament
from shared.authority import Appointment, Authority, Role
from shared.scoring import Outcome
from shared.time_control import RateOfPlay
from shared.vocabulary import ByeKind, Ruleset, System

NOW = dt.datetime(2026, 6, 1, 12, tzinfo=dt.UTC)
ORGANISER = uuid.UUID(int=1000)
ARBITER = uuid.UUID(int=2000)
WHO = Authority.of(ORGANISER)


def tournament(n: int, ruleset: Ruleset = Ruleset.PLATFORM, **options) -> PairingTournament:
    heading = Heading(uuid.UUID(int=10_000 + n), ORGANISER, "Open", ruleset, RateOfPlay(600, 5), NOW)
    t = PairingTournament.start(
        heading, tuple(Player(s, uuid.UUID(int=s), f"P{s}") for s in range(1, n + 1)), threshold=7, **options
    )
    t.collect_events()
    return t


def pid(seed: int) -> uuid.UUID:
    return uuid.UUID(int=seed)


def pair(t: PairingTournament, number: int):
    rnd = t.pair_round(number, pairers()[t.system], now=NOW)
    settle(t)
    return rnd


def play(t: PairingTournament, rnd, outcome: Outcome = Outcome.WHITE_WIN) -> None:
    for g in rnd.games:
        g.outcome = outcome
    rnd.completed = True


def settle(t: PairingTournament) -> None:
    t.collect_events()
    t.take_changes()


def refused(t: PairingTournament, error: type[Exception], call) -> Exception:
    before = (
        copy.deepcopy(t.rounds),
        copy.deepcopy(t.withdrawals),
        copy.deepcopy(t.bye_requests),
        t.status,
    )
    with pytest.raises(error) as caught:
        call()
    assert (t.rounds, t.withdrawals, t.bye_requests, t.status) == before
    assert t.collect_events() == [] and t.take_changes() == []
    return caught.value


def correct(t: PairingTournament, game_id: uuid.UUID, outcome: Outcome, *, by=ORGANISER, who=WHO):
    return t.correct_result(game_id, outcome, authority=who, by=by, reason="misread", at=NOW)


def ask(t: PairingTournament, seed: int, number: int, *, by: uuid.UUID | None = None, who=WHO):
    return t.request_bye(pid(seed), number, authority=who, by=by or pid(seed), at=NOW)


# -- corrections -------------------------------------------------------------------------------------------
def test_a_correction_replaces_the_outcome_and_leaves_the_round_as_it_was():
    t = tournament(8)
    rnd = pair(t, 1)
    first, second, *_ = rnd.games
    first.outcome = Outcome.WHITE_WIN  # the round is still being played
    game = correct(t, first.game_id, Outcome.DRAW)
    assert game.outcome is Outcome.DRAW and not rnd.completed
    assert t.take_changes() == [OutcomeCorrected(first.game_id, Outcome.DRAW)]
    [corrected] = t.collect_events()
    assert corrected == events.ResultCorrected(
        t.id,
        first.game_id,
        1,
        pid(first.white),
        pid(first.black),
        Outcome.WHITE_WIN,
        Outcome.DRAW,
        corrected.decision,
    )
    assert (corrected.decision.role, corrected.decision.reason) == (Role.ORGANISER, "misread")
    refused(t, GameNotFinished, lambda: correct(t, second.game_id, Outcome.DRAW))
    refused(t, NothingToCorrect, lambda: correct(t, first.game_id, Outcome.DRAW))
    refused(t, InvalidOutcome, lambda: correct(t, first.game_id, Outcome.NOT_PLAYED))
    refused(t, GameNotFound, lambda: correct(t, uuid.uuid4(), Outcome.DRAW))


def test_who_may_correct_a_result():
    t = tournament(8)
    rnd = pair(t, 1)
    game, other = rnd.games[:2]
    game.outcome = Outcome.BLACK_WIN
    named = Authority.of(ORGANISER, [Appointment(ARBITER, frozenset({other.game_id}))])
    refused(t, NotAnArbiterHere, lambda: correct(t, game.game_id, Outcome.DRAW, by=ARBITER, who=named))
    refused(t, NotAnArbiterHere, lambda: correct(t, game.game_id, Outcome.DRAW, by=pid(game.white)))
    refused(t, NotAnArbiterHere, lambda: correct(t, game.game_id, Outcome.DRAW, by=ARBITER))  # not appointed
    mine = Authority.of(ORGANISER, [Appointment(ARBITER, frozenset({game.game_id}))])
    correct(t, game.game_id, Outcome.DRAW, by=ARBITER, who=mine)
    assert t.collect_events()[0].decision.role is Role.ARBITER


def test_the_next_swiss_pairing_uses_the_corrected_score():
    t = tournament(8)
    first = pair(t, 1)
    play(t, first)  # every White won
    second_before = t.pair_round(2, pairers()[System.SWISS], now=NOW)
    t.rounds.pop()  # undo: pair round 2 again after a correction
    correct(t, first.games[0].game_id, Outcome.BLACK_WIN)  # Black won on board 1 after all
    second_after = t.pair_round(2, pairers()[System.SWISS], now=NOW)
    pairs = [{(g.white, g.black) for g in r.games} for r in (second_before, second_after)]
    assert pairs[0] != pairs[1]
    winners = {first.games[0].black} | {g.white for g in first.games[1:]}
    assert {s for g in second_after.games for s in (g.white, g.black) if s in winners} == winners
    for g in second_after.games:  # winners meet winners
        assert (g.white in winners) == (g.black in winners)


# -- withdrawals -------------------------------------------------------------------------------------------
def test_a_withdrawal_is_recorded_once_and_names_a_player():
    t = tournament(8, Ruleset.FIDE_RAPID)
    assert t.withdraw(pid(3), excluded=False, reason="ill", at=NOW)
    assert not t.withdraw(pid(3), excluded=True, reason="again", at=NOW)
    assert t.take_changes() == [WithdrawalRecorded(3)]
    assert t.collect_events() == []  # registration announced it; pairing only records it
    with pytest.raises(PlayerNotFound):
        t.withdraw(uuid.uuid4(), excluded=False, reason="", at=NOW)


@pytest.mark.parametrize(
    ("ruleset", "excluded", "stays"),
    [
        (Ruleset.FIDE_RAPID, False, False),
        (Ruleset.FIDE_RAPID, True, False),
        (Ruleset.PLATFORM, True, True),  # nobody leaves a platform event: the excluded player forfeits
        (Ruleset.PLATFORM, False, False),
    ],
)
def test_who_a_swiss_pairs_after_a_withdrawal(ruleset, excluded, stays):
    t = tournament(8, ruleset)
    first = pair(t, 1)
    play(t, first)
    t.withdraw(pid(5), excluded=excluded, reason="left", at=NOW)
    second = pair(t, 2)
    paired = {s for g in second.games for s in (g.white, g.black)} | {b.seed for b in second.byes}
    assert (5 in paired) is stays
    assert len(paired) == (8 if stays else 7)
    assert any(5 in (g.white, g.black) for g in first.games)  # their games so far stand
    if not stays:
        assert [(b.seed, b.kind) for b in second.byes if b.kind is ByeKind.PAIRING_ALLOCATED] != []


def test_a_round_robin_keeps_its_schedule_after_a_withdrawal():
    t = tournament(6)
    play(t, pair(t, 1))
    t.withdraw(pid(2), excluded=True, reason="", at=NOW)
    t.withdraw(pid(3), excluded=False, reason="", at=NOW)
    second = pair(t, 2)
    assert len(second.games) == 3 and second.byes == []


# -- byes on request ---------------------------------------------------------------------------------------
def test_a_requested_bye_leaves_the_player_out_of_that_round():
    t = tournament(8, Ruleset.FIDE_RAPID, byes_on_request=True)
    play(t, pair(t, 1))
    request = ask(t, 4, 2)
    assert (request.round, request.seed, request.decision.role) == (2, 4, Role.PLAYER)
    [asked] = t.collect_events()
    assert asked == events.ByeRequested(t.id, pid(4), 2, request.decision, ByeKind.ZERO_POINT)
    assert t.take_changes() == [ByeRequestAdded(request)]
    ask(t, 6, 2, by=ORGANISER)
    ask(t, 7, 3, by=ARBITER, who=Authority.of(ORGANISER, [Appointment(ARBITER)]))
    second = pair(t, 2)
    paired = {s for g in second.games for s in (g.white, g.black)}
    assert paired == {1, 2, 3, 5, 7, 8} and len(second.games) == 3
    assert [(b.seed, b.kind) for b in second.byes] == [(4, ByeKind.ZERO_POINT), (6, ByeKind.ZERO_POINT)]
    [paired_event] = [e for e in t.rounds[1:2]]
    assert paired_event is second


def test_a_requested_bye_and_the_pairing_allocated_bye_in_one_round():
    t = tournament(8, Ruleset.FIDE_RAPID, byes_on_request=True)
    play(t, pair(t, 1))
    ask(t, 1, 2)
    second = pair(t, 2)
    kinds = sorted((b.kind.value, b.seed != 1) for b in second.byes)
    assert kinds == [("pairing_allocated", True), ("zero_point", False)]


def test_the_rules_of_a_bye_on_request():
    t = tournament(8, Ruleset.FIDE_RAPID, byes_on_request=True)
    play(t, pair(t, 1))
    refused(t, RoundAlreadyPaired, lambda: ask(t, 2, 1))
    refused(t, RoundOutOfRange, lambda: ask(t, 2, t.total_rounds + 1))
    refused(t, PlayerNotFound, lambda: t.request_bye(uuid.uuid4(), 2, authority=WHO, by=ORGANISER, at=NOW))
    refused(t, NotYourBye, lambda: ask(t, 2, 2, by=pid(3)))  # another player
    refused(
        t,
        NotYourBye,
        lambda: ask(t, 2, 2, by=ARBITER, who=Authority.of(ORGANISER, [Appointment(ARBITER, frozenset())])),
    )
    ask(t, 2, 2)
    settle(t)
    refused(t, ByeAlreadyRequested, lambda: ask(t, 2, 2, by=ORGANISER))
    t.withdraw(pid(5), excluded=False, reason="", at=NOW)
    settle(t)
    refused(t, PlayerAlreadyWithdrawn, lambda: ask(t, 5, 3))


def test_a_bye_is_taken_back_before_its_round_is_paired():
    t = tournament(8, Ruleset.FIDE_RAPID, byes_on_request=True)
    play(t, pair(t, 1))
    ask(t, 2, 2)
    ask(t, 3, 3)
    settle(t)
    refused(t, NotYourBye, lambda: t.take_back_bye(pid(2), 2, authority=WHO, by=pid(3), at=NOW))
    refused(t, ByeNotFound, lambda: t.take_back_bye(pid(2), 3, authority=WHO, by=pid(2), at=NOW))
    t.take_back_bye(pid(2), 2, authority=WHO, by=pid(2), at=NOW)
    assert t.take_changes() == [ByeRequestRemoved(2, 2)]
    # announced, so that the standings' TRF of round 2 pairs 2 again (issue 22)
    [taken_back] = t.collect_events()
    assert isinstance(taken_back, events.ByeTakenBack)
    assert (taken_back.player_id, taken_back.round, taken_back.decision.role) == (pid(2), 2, Role.PLAYER)
    second = pair(t, 2)
    assert all(b.kind is not ByeKind.ZERO_POINT for b in second.byes)
    refused(t, RoundAlreadyPaired, lambda: t.take_back_bye(pid(3), 2, authority=WHO, by=ORGANISER, at=NOW))


@pytest.mark.parametrize(("players", "offered"), [(8, False), (6, True)])
def test_byes_on_request_only_in_a_swiss_that_offers_them(players, offered):
    t = tournament(players, Ruleset.FIDE_RAPID, byes_on_request=offered)  # 6: a round robin
    refusal = refused(t, ByesNotOffered, lambda: ask(t, 2, 2))
    assert ("round robin" in str(refusal)) is offered


def test_a_withdrawn_player_with_a_bye_is_not_listed_in_its_round():
    t = tournament(8, Ruleset.FIDE_RAPID, byes_on_request=True)
    play(t, pair(t, 1))
    ask(t, 2, 2)
    t.withdraw(pid(2), excluded=False, reason="", at=NOW)
    second = pair(t, 2)
    assert 2 not in {b.seed for b in second.byes} | {s for g in second.games for s in (g.white, g.black)}


# -- colours -----------------------------------------------------------------------------------------------
def test_colours_of_a_game_not_played_yet_follow_the_swap():
    t = tournament(8)
    rnd = pair(t, 1)
    game = rnd.games[0]
    w, b = game.white, game.black
    assert t.swap_colours(game.game_id, pid(b), pid(w))
    assert (game.white, game.black) == (b, w)
    assert t.take_changes() == [ColoursSet(game.game_id, b, w)]
    assert not t.swap_colours(game.game_id, pid(b), pid(w))
    with pytest.raises(EventMismatch):
        t.swap_colours(game.game_id, pid(b), pid(rnd.games[1].white))
    game.outcome = Outcome.DRAW
    with pytest.raises(ColoursFixed):
        t.swap_colours(game.game_id, pid(w), pid(b))
