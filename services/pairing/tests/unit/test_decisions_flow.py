"""The pairing service taking the decisions of organisers and arbiters, from the events it consumes and
the commands its API hands the bus, on SQLite and on the in-memory fakes: corrections (the next Swiss
pairing uses them), appointments kept before the start and out of order, withdrawals, byes on request,
a knockout reset and started again, swapped colours."""

from __future__ import annotations

import datetime as dt
import uuid
from fractions import Fraction

import pytest

from services.pairing.domain import errors
from services.pairing.domain.dutch import model as dutch
from services.pairing.domain.dutch.engine import pair_round
from services.pairing.service_layer import commands
from services.pairing.tests.helpers import (
    NOW,
    appointed,
    deliver,
    knockout_started,
    published,
    revoked,
    started,
    withdrawn,
)
from shared import events
from shared.commands import Actor
from shared.events import GameOutcome
from shared.scoring import Outcome

W, D, B = GameOutcome.WHITE_WIN, GameOutcome.DRAW, GameOutcome.BLACK_WIN
POINTS = {W: (2, 0), D: (1, 1), B: (0, 2)}


@pytest.fixture
def svc(service):
    return service


def rounds(svc, number: int | None = None) -> list[events.RoundPaired]:
    paired = [events.RoundPaired.model_validate(e.payload) for e in published(svc, "round.paired")]
    return [p for p in paired if number is None or p.round == number]


def result(rp: events.RoundPaired, game: events.PairedGame, outcome: GameOutcome) -> events.GameFinished:
    return events.GameFinished(
        tournament_id=rp.tournament_id,
        game_id=game.game_id,
        round=rp.round,
        white=game.white,
        black=game.black,
        outcome=outcome,
        reason="reported",
        finished_at=NOW,
    )


def play(svc, rp: events.RoundPaired, outcomes: dict[uuid.UUID, GameOutcome]) -> None:
    for game in rp.games:
        deliver(svc, result(rp, game, outcomes[game.game_id]), rp.tournament_id)


def by(account: uuid.UUID) -> Actor:
    return Actor(account, roles=frozenset({"player"}))


# -- the Swiss: a round-2 result corrected after round 3 is paired -------------------------------------
def by_hand(
    ev: events.TournamentStarted,
    paired: list[events.RoundPaired],
    outcomes: dict[uuid.UUID, GameOutcome],
) -> list[tuple[int, int]]:
    """The next round as the Dutch engine pairs it from the history told by the events (platform scoring:
    2/1/0, the pairing-allocated bye 2; never the same two players twice; the initial colour drawn from
    the tournament id), built here from the events, not by the service."""
    seed = {r.player_id: r.seed for r in ev.roster}
    history: dict[int, list[dutch.RoundRecord]] = {s: [] for s in seed.values()}
    met: set[frozenset[int]] = set()
    for rp in paired:
        for g in rp.games:
            w, b = seed[g.white], seed[g.black]
            pw, pb = POINTS[outcomes[g.game_id]]
            history[w].append(dutch.RoundRecord(dutch.RoundKind.PLAYED, Fraction(pw), b, dutch.Colour.WHITE))
            history[b].append(dutch.RoundRecord(dutch.RoundKind.PLAYED, Fraction(pb), w, dutch.Colour.BLACK))
            met.add(frozenset((w, b)))
        for bye in rp.byes:
            history[seed[bye.player_id]].append(dutch.RoundRecord(dutch.RoundKind.PAB, Fraction(2)))
    data = dutch.RoundInput(
        players=tuple(dutch.PlayerHistory(s, tuple(rs)) for s, rs in sorted(history.items())),
        total_rounds=paired[0].total_rounds,
        initial_colour=dutch.Colour.WHITE if ev.tournament_id.int % 2 == 0 else dutch.Colour.BLACK,
        forbidden_pairs=frozenset(met),
        points=dutch.PairingPoints(win=Fraction(2), draw=Fraction(1), loss=Fraction(0)),
    )
    return list(pair_round(data).games)


def test_a_swiss_corrected_after_the_next_round_is_paired_pairs_on_the_corrected_scores(svc):
    ev = started(9)  # a Swiss of five rounds, with a bye each round
    deliver(svc, ev, ev.tournament_id)
    seed = {r.player_id: r.seed for r in ev.roster}
    outcomes: dict[uuid.UUID, GameOutcome] = {}

    def decide(rp: events.RoundPaired) -> None:  # the better seed wins; seeds 4 and 5 draw everything
        for g in rp.games:
            w, b = seed[g.white], seed[g.black]
            outcomes[g.game_id] = D if {w, b} & {4, 5} else (W if w < b else B)

    for number in (1, 2):
        [rp] = rounds(svc, number)
        decide(rp)
        play(svc, rp, outcomes)
    [third] = rounds(svc, 3)
    decide(third)
    paired = [rounds(svc, n)[0] for n in (1, 2, 3)]
    as_played = by_hand(ev, paired, outcomes)
    # the correction: the first round-2 result (of those tried in board order) whose correction changes
    # round 4 as the Dutch engine pairs it
    second = paired[1]
    game, corrected = next(
        (g, o)
        for g in second.games
        for o in (W, D, B)
        if o != outcomes[g.game_id] and by_hand(ev, paired, {**outcomes, g.game_id: o}) != as_played
    )
    organiser = by(ev.organiser_id)
    answer = svc.bus.handle(commands.CorrectResult(organiser, game.game_id, Outcome(corrected), "misread"))
    assert (answer.round, answer.old_outcome, answer.outcome) == (2, outcomes[game.game_id], corrected)
    [sent] = published(svc, "game.result_corrected")
    assert sent.payload["old_outcome"] == outcomes[game.game_id] and sent.payload["outcome"] == corrected
    assert sent.payload["decision"]["role"] == "organiser" and sent.payload["decision"]["reason"] == "misread"
    outcomes[game.game_id] = corrected
    assert rounds(svc, 3) == [third]  # round 3 stands: not paired again
    assert published(svc, "round.completed")[-1].payload["round"] == 2  # and round 2 closed once
    assert len(published(svc, "round.completed")) == 2

    play(svc, third, outcomes)
    [fourth] = rounds(svc, 4)
    assert [(seed[g.white], seed[g.black]) for g in fourth.games] == by_hand(ev, paired, outcomes)
    assert by_hand(ev, paired, outcomes) != as_played


def test_a_correction_in_a_round_still_being_played_does_not_close_it(svc):
    ev = started(8)
    deliver(svc, ev, ev.tournament_id)
    [first] = rounds(svc, 1)
    done, *others = first.games
    deliver(svc, result(first, done, W), ev.tournament_id)
    svc.bus.handle(commands.CorrectResult(by(ev.organiser_id), done.game_id, Outcome.DRAW, "misread"))
    assert published(svc, "round.completed") == []
    with pytest.raises(errors.GameNotFinished):
        svc.bus.handle(commands.CorrectResult(by(ev.organiser_id), others[0].game_id, Outcome.DRAW, "x"))
    for g in others:
        deliver(svc, result(first, g, W), ev.tournament_id)
    assert len(published(svc, "round.completed")) == 1 and len(rounds(svc, 2)) == 1
    deliver(svc, result(first, done, B), ev.tournament_id)  # the clocks' result again: the correction stands
    with svc.uow() as uow:
        t = uow.tournaments.get(ev.tournament_id)
    assert t.game(done.game_id).outcome is Outcome.DRAW


# -- appointments ---------------------------------------------------------------------------------------------
def test_an_arbiter_appointed_before_the_start_corrects_its_games(svc):
    ev = started(8)
    arbiter = uuid.uuid4()
    deliver(svc, appointed(ev, arbiter), ev.tournament_id)  # before tournament.started: kept, no waiting
    assert svc.broker.dead_letters("pairing.arbiters") == []
    deliver(svc, ev, ev.tournament_id)
    [first] = rounds(svc, 1)
    game = first.games[0]
    deliver(svc, result(first, game, W), ev.tournament_id)
    svc.bus.handle(commands.CorrectResult(by(arbiter), game.game_id, Outcome.BLACK_WIN, "wrong board"))
    [sent] = published(svc, "game.result_corrected")
    assert sent.payload["decision"]["by"] == str(arbiter) and sent.payload["decision"]["role"] == "arbiter"
    deliver(svc, revoked(ev, arbiter, at=NOW + dt.timedelta(minutes=1)), ev.tournament_id)
    with pytest.raises(errors.NotAnArbiterHere):
        svc.bus.handle(commands.CorrectResult(by(arbiter), game.game_id, Outcome.DRAW, "again"))


def test_appointments_arriving_out_of_order_keep_the_latest_decision(svc):
    ev = started(8)
    arbiter, game = uuid.uuid4(), uuid.uuid4()
    later = NOW + dt.timedelta(minutes=1)
    deliver(svc, revoked(ev, arbiter, at=later), ev.tournament_id)  # the revocation overtook it
    deliver(svc, appointed(ev, arbiter, at=NOW), ev.tournament_id)
    with svc.uow() as uow:
        kept = uow.arbiters.get(ev.tournament_id)
    assert kept.appointments() == ()
    deliver(svc, appointed(ev, arbiter, [game], at=later + dt.timedelta(minutes=1)), ev.tournament_id)
    with svc.uow() as uow:
        [appointment] = uow.arbiters.get(ev.tournament_id).appointments()
    assert (appointment.arbiter_id, appointment.games) == (arbiter, frozenset({game}))


# -- withdrawals ----------------------------------------------------------------------------------------------
def test_a_withdrawn_swiss_player_is_not_paired_again_and_may_arrive_before_the_start(svc):
    ev = started(8, ruleset="fide-rapid")
    leaving = ev.roster[2].player_id
    deliver(svc, withdrawn(ev, leaving), ev.tournament_id)  # before tournament.started: waits for it
    deliver(svc, ev, ev.tournament_id)
    assert svc.broker.dead_letters("pairing.player_withdrawn") == []
    for number in (1, 2, 3, 4):
        [rp] = rounds(svc, number)
        assert leaving not in {p for g in rp.games for p in (g.white, g.black)} | {
            b.player_id for b in rp.byes
        }
        play(svc, rp, {g.game_id: W for g in rp.games})
    assert len(published(svc, "tournament.completed")) == 1


def test_a_withdrawal_after_round_one_keeps_its_games(svc):
    ev = started(8, ruleset="fide-rapid")
    deliver(svc, ev, ev.tournament_id)
    [first] = rounds(svc, 1)
    leaving = first.games[0].white
    *most, last = first.games
    for g in most:
        deliver(svc, result(first, g, W), ev.tournament_id)
    deliver(svc, withdrawn(ev, leaving), ev.tournament_id)
    deliver(svc, withdrawn(ev, leaving), ev.tournament_id)  # twice: the first stands
    deliver(svc, result(first, last, W), ev.tournament_id)  # round 2 is paired now
    [second] = rounds(svc, 2)
    assert leaving not in {p for g in second.games for p in (g.white, g.black)}
    assert [b.kind for b in second.byes] == ["pairing_allocated"]
    with svc.uow() as uow:
        t = uow.tournaments.get(ev.tournament_id)
    assert t.game(first.games[0].game_id).outcome is Outcome.WHITE_WIN
    assert list(t.withdrawals) == [t.seed_of(leaving)]


def test_an_excluded_platform_player_stays_in_the_draw(svc):
    ev = started(8)
    deliver(svc, ev, ev.tournament_id)
    [first] = rounds(svc, 1)
    excluded = first.games[0].black
    deliver(svc, withdrawn(ev, excluded, excluded=True), ev.tournament_id)
    play(svc, first, {g.game_id: W for g in first.games})
    [second] = rounds(svc, 2)
    assert excluded in {p for g in second.games for p in (g.white, g.black)}


def test_a_withdrawal_of_a_stranger_is_dead_lettered(svc):
    ev = started(8)
    deliver(svc, ev, ev.tournament_id)
    deliver(svc, withdrawn(ev, uuid.uuid4()), ev.tournament_id)
    [dead] = svc.broker.dead_letters("pairing.player_withdrawn")
    assert "does not play" in dead.reason


def test_a_knockout_withdrawal_is_decided_by_the_forfeits_the_clocks_send(svc):
    ev = knockout_started(4)
    deliver(svc, ev, ev.tournament_id)
    seed = {r.player_id: r.seed for r in ev.roster}
    four = ev.roster[3].player_id
    deliver(svc, withdrawn(ev, four), ev.tournament_id)
    [first] = rounds(svc, 1)
    for g in (g for g in first.games if four in (g.white, g.black)):
        outcome = GameOutcome.BLACK_FORFEIT_WIN if g.white == four else GameOutcome.WHITE_FORFEIT_WIN
        deliver(svc, result(first, g, outcome), ev.tournament_id)
    [decided] = [events.MatchDecided.model_validate(e.payload) for e in published(svc, "match.decided")]
    assert (decided.match_id, seed[decided.winner], decided.how) == ("winners:1:1", 1, "regular")


# -- byes on request ------------------------------------------------------------------------------------------
def test_a_bye_on_request_is_announced_and_listed_in_its_round(svc):
    ev = started(8, ruleset="fide-rapid", byes_on_request=True)
    deliver(svc, ev, ev.tournament_id)
    player = ev.roster[0].player_id
    request = svc.bus.handle(commands.RequestBye(by(player), ev.tournament_id, player, 2))
    assert request.round == 2
    [asked] = published(svc, "bye.requested")
    assert asked.payload["kind"] == "zero_point" and asked.payload["decision"]["role"] == "player"
    with pytest.raises(errors.ByeAlreadyRequested):
        svc.bus.handle(commands.RequestBye(by(ev.organiser_id), ev.tournament_id, player, 2))
    [first] = rounds(svc, 1)
    play(svc, first, {g.game_id: W for g in first.games})
    [second] = rounds(svc, 2)
    assert [(b.player_id, b.kind) for b in second.byes if b.kind == "zero_point"] == [(player, "zero_point")]
    assert len(second.byes) == 2  # and the pairing-allocated bye: seven players were paired
    assert player not in {p for g in second.games for p in (g.white, g.black)}
    with pytest.raises(errors.RoundAlreadyPaired):
        svc.bus.handle(commands.TakeBackBye(by(player), ev.tournament_id, player, 2))


# -- a knockout reset to its draft, started again ------------------------------------------------------------
def test_a_reset_knockout_starts_afresh_with_new_games(svc):
    ev = knockout_started(4)
    deliver(svc, ev, ev.tournament_id)
    [before] = rounds(svc, 1)
    with pytest.raises(errors.NotOrganiser):
        svc.bus.handle(commands.ResetTournament(by(uuid.uuid4()), ev.tournament_id))
    svc.bus.handle(commands.ResetTournament(by(ev.organiser_id), ev.tournament_id))
    [reset] = published(svc, "tournament.reset")
    assert reset.payload["decision"]["by"] == str(ev.organiser_id)
    with svc.uow() as uow:
        assert uow.lock(ev.tournament_id) is None
    again = ev.model_copy(update={"started_at": NOW + dt.timedelta(minutes=10)})
    deliver(svc, again, ev.tournament_id)  # a new envelope: the inbox lets it in, nothing "exists"
    [_, after] = rounds(svc, 1)
    assert {g.game_id for g in before.games}.isdisjoint({g.game_id for g in after.games})
    assert [m.players for m in after.matches] == [m.players for m in before.matches]


KNOCKOUT_QUEUES = (
    "pairing.tournament_started",
    "pairing.game_finished",
    "pairing.colours_swapped",
    "pairing.player_withdrawn",
    "pairing.round_due",
)


def dead(svc) -> list:
    """What the queues a knockout's news reaches dead-lettered (taken off them)."""
    return [d for q in KNOCKOUT_QUEUES for d in svc.broker.dead_letters(q)]


def reset(svc, ev: events.TournamentStarted) -> events.TournamentReset:
    svc.bus.handle(commands.ResetTournament(by(ev.organiser_id), ev.tournament_id))
    return events.TournamentReset.model_validate(published(svc, "tournament.reset")[-1].payload)


def swapped(ev: events.TournamentStarted, game: events.PairedGame, at: dt.datetime = NOW):
    return events.GameColoursSwapped(
        tournament_id=ev.tournament_id,
        game_id=game.game_id,
        round=1,
        white=game.black,
        black=game.white,
        decision=events.DecisionBy(by=ev.organiser_id, role="organiser", at=at),
    )


def test_a_knockout_started_again_at_the_same_time_names_new_games(service):
    """Game ids derive from the start; a start after a reset counts the resets before it, so its games
    are never taken for removed ones, even started at the very same time (a fake clock)."""
    ev = knockout_started(4)
    deliver(service, ev, ev.tournament_id)
    [before] = rounds(service, 1)
    reset(service, ev)
    deliver(service, ev, ev.tournament_id)  # a new envelope of the same start: the same start time
    [_, after] = rounds(service, 1)
    assert {g.game_id for g in before.games}.isdisjoint({g.game_id for g in after.games})
    with service.uow() as uow:
        e = uow.eliminations.get(ev.tournament_id)
    assert e is not None and e.restarts == 1 and e.heading.started_at == ev.started_at
    reset(service, ev)  # reset again at the same instant: its own record, start number 1
    with service.uow() as uow:
        resets = uow.resets.of(ev.tournament_id)
    assert [(r.start, r.at) for r in resets.resets] == [(0, NOW), (1, NOW)]
    published_rounds = published(service, "round.published")
    assert published_rounds == []  # (nothing was published)
    undone = [
        events.TournamentReset.model_validate(e.payload) for e in published(service, "tournament.reset")
    ]
    assert [u.restarts for u in undone] == [0, 1]


def test_a_reset_names_the_games_it_removed(service):
    ev = knockout_started(4)
    deliver(service, ev, ev.tournament_id)
    [first] = rounds(service, 1)
    undone = reset(service, ev)
    assert sorted(undone.games) == sorted(g.game_id for g in first.games)
    with service.uow() as uow:
        assert uow.resets.of(ev.tournament_id).removed(first.games[0].game_id)


def test_news_of_games_a_reset_removed_is_settled(service, caplog):
    """Issue 22: a colour swap followed at once by a reset dead-lettered ``game.colours_swapped`` with
    ``TournamentNotFound``. News of a game the reset removed is acknowledged and logged, before the new
    start and after it."""
    ev = knockout_started(4)
    deliver(service, ev, ev.tournament_id)
    [first] = rounds(service, 1)
    g1, g2, g3, _ = first.games
    reset(service, ev)
    with caplog.at_level("INFO", logger="services.pairing.service_layer.settled"):
        deliver(service, swapped(ev, g1), ev.tournament_id)  # swapped, then reset: two quick clicks
        deliver(service, result(first, g2, W), ev.tournament_id)  # a result in flight at the reset
        again = ev.model_copy(update={"started_at": NOW + dt.timedelta(minutes=10)})
        deliver(service, again, ev.tournament_id)
        deliver(service, swapped(ev, g3), ev.tournament_id)  # after the new start too
        deliver(service, result(first, g3, B), ev.tournament_id)
    assert dead(service) == []
    assert [r.getMessage().split(" for game ")[0] for r in caplog.records] == [
        "game.colours_swapped",
        "game.finished",
        "game.colours_swapped",
        "game.finished",
    ]
    assert all("removed by the reset" in r.getMessage() for r in caplog.records)
    [_, after] = rounds(service, 1)
    with service.uow() as uow:
        e = uow.eliminations.get(ev.tournament_id)
    assert e is not None and all(g.outcome is None for m in e.matches.values() for g in m.games)
    assert {g.game_id for m in e.matches.values() for g in m.games} == {g.game_id for g in after.games}


def test_news_of_a_tournament_never_heard_of_is_not_settled(service):
    """Only what a reset removed is settled: a game of a tournament pairing never had still fails."""
    ev = knockout_started(4)
    deliver(service, ev, ev.tournament_id)
    [first] = rounds(service, 1)
    stranger = ev.model_copy(update={"tournament_id": uuid.uuid4()})
    deliver(service, swapped(stranger, first.games[0]), stranger.tournament_id)
    [letter] = dead(service)
    assert "TournamentNotFound" in letter.reason
    other = first.games[0].model_copy(update={"game_id": uuid.uuid4()})  # a game it never paired
    reset(service, ev)
    deliver(service, swapped(ev, other), ev.tournament_id)
    [letter] = dead(service)
    assert "TournamentNotFound" in letter.reason


def test_a_withdrawal_from_a_reset_knockout_is_settled(service, caplog):
    """A withdrawal decided before the reset (then the reset: two quick clicks), heard after it: settled
    while the knockout is a draft and once it started again (registration does not seed the player)."""
    ev = knockout_started(5)
    deliver(service, ev, ev.tournament_id)
    gone = ev.roster[4].player_id  # seed 5
    left = withdrawn(ev, gone)  # decided at NOW, the reset comes after it
    service.clock.advance(60)  # type: ignore[attr-defined]
    reset(service, ev)
    with caplog.at_level("INFO", logger="services.pairing.service_layer.settled"):
        deliver(service, left, ev.tournament_id)
        roster = [r for r in ev.roster if r.player_id != gone]
        again = ev.model_copy(update={"started_at": NOW + dt.timedelta(minutes=10), "roster": roster})
        deliver(service, again, ev.tournament_id)
        deliver(service, left, ev.tournament_id)  # again (a new envelope), after the new start
    assert dead(service) == []
    assert len(caplog.records) == 2 and all("player.withdrawn" in r.getMessage() for r in caplog.records)
    with service.uow() as uow:
        e = uow.eliminations.get(ev.tournament_id)
    assert e is not None and len(e.players) == 4 and e.withdrawals == {}


def test_a_withdrawal_after_the_reset_waits_for_the_new_start(service):
    """Decided after the reset, a withdrawal may belong to the start that follows (its tournament.started
    not heard yet): it waits for it, as any withdrawal before its start, and then counts."""
    ev = knockout_started(4)
    deliver(service, ev, ev.tournament_id)
    service.clock.advance(60)  # type: ignore[attr-defined]
    reset(service, ev)
    later = NOW + dt.timedelta(minutes=20)
    left = withdrawn(ev, ev.roster[3].player_id)
    left = left.model_copy(update={"decision": left.decision.model_copy(update={"at": later})})
    deliver(service, left, ev.tournament_id)  # not ready: parked
    with service.uow() as uow:
        assert uow.lock(ev.tournament_id) is None
    again = ev.model_copy(update={"started_at": NOW + dt.timedelta(minutes=10)})
    deliver(service, again, ev.tournament_id)
    service.broker.run_until_idle()
    with service.uow() as uow:
        e = uow.eliminations.get(ev.tournament_id)
    assert e is not None and set(e.withdrawals) == {4}
    assert dead(service) == []


def test_a_round_due_for_a_knockout_reset_before_its_pairing_is_settled(service, caplog):
    from services.pairing.adapters.wire import RoundDue

    ev = knockout_started(4)
    deliver(service, ev, ev.tournament_id)
    reset(service, ev)
    with caplog.at_level("INFO", logger="services.pairing.service_layer.settled"):
        deliver(service, RoundDue(tournament_id=ev.tournament_id, round=1), ev.tournament_id)
    assert dead(service) == [] and "pairing.round_due (round 1)" in caplog.text
    deliver(service, RoundDue(tournament_id=uuid.uuid4(), round=1), ev.tournament_id)
    [letter] = dead(service)  # one never heard of is still an error
    assert "TournamentNotFound" in letter.reason


def test_a_platform_tournament_is_not_reset(svc):
    ev = started(8)
    deliver(svc, ev, ev.tournament_id)
    with pytest.raises(errors.ResetNotAllowed):
        svc.bus.handle(commands.ResetTournament(by(ev.organiser_id), ev.tournament_id))


# -- colours ------------------------------------------------------------------------------------------------------
def test_swapped_colours_reach_the_tie_break_games(svc):
    ev = knockout_started(4)
    deliver(svc, ev, ev.tournament_id)
    [first] = rounds(svc, 1)
    g1, g2 = (g for g in first.games if g.match_id == "winners:1:1")
    swapped = events.GameColoursSwapped(
        tournament_id=ev.tournament_id,
        game_id=g1.game_id,
        round=1,
        white=g1.black,
        black=g1.white,
        decision=events.DecisionBy(by=ev.organiser_id, role="organiser", at=NOW),
    )
    deliver(svc, swapped, ev.tournament_id)
    as_swapped = g1.model_copy(update={"white": g1.black, "black": g1.white})
    deliver(svc, result(first, as_swapped, W), ev.tournament_id)
    deliver(svc, result(first, g2, B), ev.tournament_id)  # 1-1: g1's White won, g2's Black won
    again = rounds(svc, 1)[-1]
    t1, t2 = (g for g in again.games if g.match_id == "winners:1:1" and g.number > 2)
    assert (t1.white, t2.white) == (g1.black, g1.white)  # the tie-break follows the swapped game 1
    assert not t1.rated and not t2.rated
