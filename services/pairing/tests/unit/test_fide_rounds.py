"""`fide-rapid` rounds as the aggregate decides them (RULES.md §6): paired on an arbiter's command, published
by them, absent and withdrawn players and requested byes left out, an excused absence paired again, late
entries from their round, Baku acceleration, and the TRF document each pairing is made from."""

from __future__ import annotations

import datetime as dt
import uuid
from fractions import Fraction

import pytest

from services.pairing.domain import events
from services.pairing.domain.dutch import pair_round
from services.pairing.domain.dutch.trf_adapter import published_round, round_input
from services.pairing.domain.errors import (
    AbsenceAlreadyExcused,
    AbsenceNotFound,
    ExcuseTooLate,
    NotAnArbiterHere,
    NotOrganiser,
    PairedWhenDue,
    RoundAlreadyPaired,
    RoundNotDue,
    RoundNotPaired,
    RoundOutOfRange,
    RoundUnfinished,
)
from services.pairing.domain.heading import Heading, Player
from services.pairing.domain.rounds import fide
from services.pairing.domain.rounds.pairers import fide_pairers
from services.pairing.domain.rounds.platform import Plan
from services.pairing.domain.rounds.results import RoundResults
from services.pairing.domain.rounds.tournament import (
    FideRules,
    PairingTournament,
    RoundDropped,
)
from shared.authority import Appointment, Authority
from shared.scoring import Outcome
from shared.time_control import RateOfPlay
from shared.trf import parse, write
from shared.vocabulary import ByeKind, Ruleset, System

NOW = dt.datetime(2026, 6, 1, 12, tzinfo=dt.UTC)
ORGANISER = uuid.UUID(int=1000)
ARBITER = uuid.UUID(int=2000)
STRANGER = uuid.UUID(int=3000)
WHO = Authority.of(ORGANISER, [Appointment(ARBITER, None)])


def pid(seed: int) -> uuid.UUID:
    return uuid.UUID(int=seed)


def event(
    n: int,
    *,
    rounds: int = 5,
    system: System = System.SWISS,
    acceleration: bool = False,
    late_bye: ByeKind = ByeKind.ZERO_POINT,
) -> PairingTournament:
    heading = Heading(
        uuid.UUID(int=10_000 + n), ORGANISER, "Rapid", Ruleset.FIDE_RAPID, RateOfPlay(900, 10), NOW
    )
    players = tuple(Player(s, pid(s), f"P{s}", 2400 - 10 * s) for s in range(1, n + 1))
    t = PairingTournament.start(
        heading,
        players,
        threshold=0,
        byes_on_request=True,
        fide=FideRules(acceleration, late_bye),
        fide_plan=Plan(system, rounds, False),
    )
    return t


def pair(t: PairingTournament, number: int, by: uuid.UUID = ARBITER):
    rnd = t.pair_on_command(number, fide_pairers()[t.system], authority=WHO, by=by, now=NOW)
    t.take_changes()
    return rnd


def publish(t: PairingTournament, number: int) -> list[object]:
    t.publish_round(number, authority=WHO, by=ARBITER, at=NOW)
    t.take_changes()
    return t.collect_events()


def finish(t: PairingTournament, number: int, results: dict[int, tuple[Outcome, str]] | None = None) -> None:
    """Every board of the round gets a result: White wins unless ``results`` says (board → outcome, reason)."""
    rnd = t.round(number)
    assert rnd is not None
    for g in rnd.games:
        outcome, reason = (results or {}).get(g.board, (Outcome.WHITE_WIN, "reported"))
        g.outcome, g.reason = outcome, reason


def test_a_fide_event_waits_for_its_arbiters_no_round_falls_due():
    t = event(8)
    assert t.collect_events() == []
    assert t.rounds == []


def test_a_paired_round_is_unpublished_until_an_arbiter_publishes_it_and_only_then_announced():
    t = event(8)
    rnd = pair(t, 1)
    assert not rnd.published and len(rnd.games) == 4
    assert t.collect_events() == []  # nothing goes out: the clocks create no games yet
    out = publish(t, 1)
    assert [type(e) for e in out] == [events.RoundPaired]
    assert rnd.published
    assert publish(t, 1) == []  # again: nothing changes


def test_pairing_again_before_publishing_replaces_the_pairing():
    t = event(8)
    pair(t, 1)
    t.rounds[0].games.clear()  # whatever was there goes
    rnd = t.pair_on_command(1, fide_pairers()[t.system], authority=WHO, by=ARBITER, now=NOW)
    assert [type(c) for c in t.take_changes()][:1] == [RoundDropped]
    assert len(rnd.games) == 4 and len(t.rounds) == 1


def test_only_the_organiser_or_an_arbiter_of_the_event_pairs_and_publishes():
    t = event(8)
    with pytest.raises(NotAnArbiterHere):
        pair(t, 1, by=STRANGER)
    game_arbiter = Authority.of(ORGANISER, [Appointment(STRANGER, frozenset({uuid.uuid4()}))])
    with pytest.raises(NotAnArbiterHere):
        t.pair_on_command(1, fide_pairers()[t.system], authority=game_arbiter, by=STRANGER, now=NOW)
    pair(t, 1, by=ORGANISER)
    with pytest.raises(NotOrganiser):
        t.publish_round(1, authority=WHO, by=STRANGER, at=NOW)


def test_rounds_are_paired_in_order_and_only_within_the_event():
    t = event(8, rounds=3)
    with pytest.raises(RoundNotDue):
        pair(t, 2)
    with pytest.raises(RoundOutOfRange):
        pair(t, 4)
    pair(t, 1)
    with pytest.raises(RoundNotDue):  # round 1 is not published yet
        pair(t, 2)
    with pytest.raises(RoundNotPaired):
        t.publish_round(2, authority=WHO, by=ARBITER, at=NOW)
    publish(t, 1)
    with pytest.raises(RoundAlreadyPaired):
        pair(t, 1)


def test_pairing_while_the_round_before_lacks_results_names_the_boards():
    t = event(8)
    pair(t, 1)
    publish(t, 1)
    rnd = t.round(1)
    assert rnd is not None
    rnd.games[0].outcome = Outcome.DRAW
    rnd.games[2].outcome = Outcome.WHITE_WIN
    with pytest.raises(RoundUnfinished) as refused:
        pair(t, 2)
    assert refused.value.boards == [2, 4] and refused.value.round == 1
    assert "boards 2, 4" in refused.value.detail


def test_a_platform_tournament_is_not_paired_on_command():
    heading = Heading(uuid.uuid4(), ORGANISER, "Blitz", Ruleset.PLATFORM, RateOfPlay(180, 2), NOW)
    t = PairingTournament.start(heading, tuple(Player(s, pid(s), f"P{s}") for s in range(1, 9)), threshold=7)
    with pytest.raises(PairedWhenDue):
        t.pair_on_command(1, fide_pairers()[t.system], authority=WHO, by=ARBITER, now=NOW)


def test_a_bye_request_leaves_the_player_out_and_is_refused_once_the_round_is_paired():
    t = event(8)
    t.request_bye(pid(3), 1, authority=WHO, by=pid(3), at=NOW)
    rnd = pair(t, 1)
    seeds = {s for g in rnd.games for s in (g.white, g.black)}
    assert 3 not in seeds
    assert (3, ByeKind.ZERO_POINT) in [(b.seed, b.kind) for b in rnd.byes]
    with pytest.raises(RoundAlreadyPaired):
        t.request_bye(pid(5), 1, authority=WHO, by=pid(5), at=NOW)


def test_the_withdrawn_are_not_paired():
    t = event(8)
    t.withdraw(pid(2), excluded=False, reason="ill", at=NOW)
    rnd = pair(t, 1)
    assert 2 not in {s for g in rnd.games for s in (g.white, g.black)}
    assert [b.seed for b in rnd.byes if b.kind is ByeKind.PAIRING_ALLOCATED] != []  # seven players: a bye


def _round_with_absence(t: PairingTournament) -> tuple[int, int]:
    """Round 1 paired, published and finished; board 1's Black lost at the default time."""
    pair(t, 1)
    publish(t, 1)
    finish(t, 1, {1: (Outcome.WHITE_FORFEIT_WIN, fide.DEFAULT_TIME)})
    rnd = t.round(1)
    assert rnd is not None
    board = next(g for g in rnd.games if g.board == 1)
    return board.black, board.white


def test_an_unexcused_absence_leaves_the_player_out_and_is_reported_when_the_next_round_is_published():
    t = event(8)
    absent, _ = _round_with_absence(t)
    assert t.absent(2) == {absent}
    rnd = pair(t, 2)
    assert absent not in {s for g in rnd.games for s in (g.white, g.black)}
    out = publish(t, 2)
    unexcused = [e for e in out if isinstance(e, events.AbsenceUnexcused)]
    assert [(e.player_id, e.round) for e in unexcused] == [(pid(absent), 1)]


def test_an_excused_absence_puts_the_player_back_and_drops_an_unpublished_pairing():
    t = event(8)
    absent, _ = _round_with_absence(t)
    pair(t, 2)
    dropped = t.excuse_absence(pid(absent), 1, authority=WHO, by=ARBITER, at=NOW, reason="train late")
    assert dropped and t.round(2) is None
    assert [type(e) for e in t.collect_events()] == [events.AbsenceExcused]
    t.take_changes()
    rnd = pair(t, 2)
    assert absent in {s for g in rnd.games for s in (g.white, g.black)}
    assert not any(isinstance(e, events.AbsenceUnexcused) for e in publish(t, 2))


def test_an_excuse_is_refused_after_the_next_round_is_published_twice_or_without_an_absence():
    t = event(8)
    absent, present = _round_with_absence(t)
    with pytest.raises(AbsenceNotFound):
        t.excuse_absence(pid(present), 1, authority=WHO, by=ARBITER, at=NOW)
    with pytest.raises(NotAnArbiterHere):
        t.excuse_absence(pid(absent), 1, authority=WHO, by=STRANGER, at=NOW)
    assert not t.excuse_absence(pid(absent), 1, authority=WHO, by=ARBITER, at=NOW)
    with pytest.raises(AbsenceAlreadyExcused):
        t.excuse_absence(pid(absent), 1, authority=WHO, by=ARBITER, at=NOW)
    t2 = event(10)
    absent2, _ = _round_with_absence(t2)
    pair(t2, 2)
    publish(t2, 2)
    with pytest.raises(ExcuseTooLate):
        t2.excuse_absence(pid(absent2), 1, authority=WHO, by=ARBITER, at=NOW)


def test_a_forfeit_that_is_not_at_the_default_time_is_no_absence():
    t = event(8)
    pair(t, 1)
    publish(t, 1)
    finish(t, 1, {1: (Outcome.WHITE_FORFEIT_WIN, "forfeit")})
    assert t.absentees(1) == frozenset() and t.absent(2) == frozenset()


def test_a_late_entry_plays_from_its_round_with_byes_for_the_rounds_missed():
    t = event(8, late_bye=ByeKind.HALF_POINT)
    pair(t, 1)
    publish(t, 1)
    late = t.add_late(uuid.UUID(int=99), "Late", 2500, 2)
    assert late is not None and late.seed == 9 and late.from_round == 2
    assert t.add_late(uuid.UUID(int=99), "Late", 2500, 2) is None  # heard again
    finish(t, 1)
    assert fide.points_before(t, 2)[9] == Fraction(1, 2)  # the missed round scores as the settings say
    rnd = pair(t, 2)
    assert 9 in {s for g in rnd.games for s in (g.white, g.black)} | {b.seed for b in rnd.byes}


def test_a_late_entry_for_a_round_paired_meanwhile_starts_in_the_next_one():
    t = event(8)
    pair(t, 1)
    late = t.add_late(uuid.UUID(int=99), "Late", None, 1)
    assert late is not None and late.from_round == 2
    assert 9 in t.absent(1)


def test_baku_acceleration_gives_group_a_its_virtual_points():
    t = event(12, rounds=5, acceleration=True)
    acc = fide.accelerations(t)
    assert sorted(acc) == list(range(1, 7))  # 2 × ⌈12/4⌉
    assert acc[1] == [Fraction(1), Fraction(1), Fraction(1, 2)]  # ⌈5/2⌉ rounds: full, then half
    data = fide.round_input(t, 1)
    assert data.players[0].accelerations == (Fraction(1), Fraction(1), Fraction(1, 2))
    rnd = pair(t, 1)  # group A pairs among itself in round 1: 1-4, 2-5, 3-6 as a group of six
    top = {frozenset((g.white, g.black)) for g in rnd.games if g.white <= 6 and g.black <= 6}
    assert len(top) == 3


def test_a_round_robin_follows_the_berger_table():
    t = event(6, rounds=5, system=System.ROUND_ROBIN)
    rnd = pair(t, 1)
    assert {frozenset((g.white, g.black)) for g in rnd.games} == {
        frozenset((1, 6)),
        frozenset((2, 5)),
        frozenset((3, 4)),
    }


def test_the_results_of_a_fide_round_make_no_round_due():
    results = RoundResults(uuid.uuid4(), ORGANISER, 1, 5, {uuid.UUID(int=1): None}, on_command=True)
    results.record_result(uuid.UUID(int=1), Outcome.DRAW, finished_at=NOW, now=NOW)
    assert [type(e) for e in results.collect_events()] == [events.RoundCompleted]


def _play(t: PairingTournament, rounds: int) -> None:
    """Pair, publish and finish ``rounds`` rounds with a mix of results, a requested bye and an absence."""
    outcomes = [Outcome.WHITE_WIN, Outcome.DRAW, Outcome.BLACK_WIN, Outcome.DRAW]
    for number in range(1, rounds + 1):
        if number == 2:
            t.request_bye(pid(4), 2, authority=WHO, by=pid(4), at=NOW)
        pair(t, number)
        publish(t, number)
        results = {g.board: (outcomes[(g.board + number) % 4], "reported") for g in t.rounds[-1].games}
        if number == 3:
            results[2] = (Outcome.BLACK_FORFEIT_WIN, fide.DEFAULT_TIME)
        finish(t, number, results)


def test_the_trf_document_re_pairs_every_round_as_it_was_paired():
    t = event(11, rounds=5, acceleration=True)
    _play(t, 5)
    text = write(fide.document(t, 5))
    assert "XXR 5" in text and "XXC " in text and "XXA" in text
    doc = parse(text)
    for number in range(1, 6):
        pairing = pair_round(round_input(doc, number))
        published = published_round(doc, number)
        assert {(b.white, b.black) for b in published.boards} == set(pairing.games)  # colours too
        assert list(published.byes) == ([pairing.bye] if pairing.bye else [])


def test_the_pairing_list_shows_points_before_the_round_and_the_byes():
    t = event(7)
    pair(t, 1)
    publish(t, 1)
    finish(t, 1)
    pair(t, 2)
    listing = fide.pairing_list(t, 2)
    assert [b.board for b in listing.boards] == [1, 2, 3]
    assert {b.white.points for b in listing.boards} | {b.black.points for b in listing.boards} <= {
        Fraction(0),
        Fraction(1),
    }
    assert len(listing.byes) == 1 and listing.byes[0].kind is ByeKind.PAIRING_ALLOCATED
    assert not listing.published
