"""A knockout under the arbiter's authority, as its aggregate decides (RULES.md §4): corrections and who
advances, withdrawals and their forfeit chain, the reset to the draft, swapped colours, unrated
tie-break games."""

from __future__ import annotations

import copy
import datetime as dt
import uuid

import pytest

from services.pairing.domain import events
from services.pairing.domain.changes import ColoursSet, OutcomeCorrected, WithdrawalRecorded
from services.pairing.domain.elimination.changes import (
    Erased,
    GamesAdded,
    GamesReplaced,
    MatchHowChanged,
    MatchReopened,
    MatchRepaired,
    MatchSettled,
)
from services.pairing.domain.elimination.elimination import Elimination
from services.pairing.domain.elimination.paired_matches import KnockoutMatch
from services.pairing.domain.errors import (
    ByesNotOffered,
    ColoursFixed,
    CorrectionChangesAdvancement,
    EventMismatch,
    GameNotFinished,
    GameNotFound,
    NotAnArbiterHere,
    NothingToCorrect,
    NotOrganiser,
    NotYourBye,
    PlayerNotFound,
    ResetNotAllowed,
)
from services.pairing.domain.heading import Heading, Player, Status
from shared.authority import Appointment, Authority, Role
from shared.scoring import Outcome
from shared.time_control import DEFAULT_PLAN, RateOfPlay
from shared.vocabulary import BracketFormat, DecidedIn, Ruleset, Seeding

W, D, B = Outcome.WHITE_WIN, Outcome.DRAW, Outcome.BLACK_WIN
WF, BF, XX = Outcome.WHITE_FORFEIT_WIN, Outcome.BLACK_FORFEIT_WIN, Outcome.DOUBLE_FORFEIT
NOW = dt.datetime(2026, 6, 1, 12, tzinfo=dt.UTC)
ORGANISER = uuid.UUID(int=1000)
ARBITER = uuid.UUID(int=2000)
WHO = Authority.of(ORGANISER)


def event(fmt: str, players: int, games: int = 2, *, started: dt.datetime = NOW, **options) -> Elimination:
    heading = Heading(uuid.UUID(int=players), ORGANISER, "Cup", Ruleset.KNOCKOUT, RateOfPlay(600, 5), started)
    roster = tuple(Player(i, uuid.UUID(int=i), f"P{i}") for i in range(1, players + 1))
    e = Elimination.start(
        heading,
        roster,
        format=BracketFormat(fmt),
        games_per_match=games,
        seeding=Seeding.CUSTOM,
        tiebreak_plan=DEFAULT_PLAN,
        **options,
    )
    e.collect_events()
    return e


def pair(e: Elimination, number: int) -> list[KnockoutMatch]:
    return e.pair_round(number, lambda: 0, now=NOW)  # slot 0 has White in each match's first game


def record(e: Elimination, game_id: uuid.UUID, outcome: Outcome):
    return e.record_result(game_id, outcome, finished_at=NOW, now=NOW)


def win(match: KnockoutMatch, game, seed: int) -> Outcome:
    """The outcome of ``game`` that ``seed`` wins."""
    return W if match.white(game) == seed else B


def win_for(e: Elimination, match: KnockoutMatch, seed: int) -> None:
    while not match.decided:
        game = next(g for g in match.games if g.open)
        record(e, game.game_id, win(match, game, seed))


def correct(e: Elimination, game_id: uuid.UUID, outcome: Outcome, *, by=ORGANISER, who=WHO):
    return e.correct_result(game_id, outcome, authority=who, by=by, reason="wrong score", at=NOW)


def settle(e: Elimination) -> None:
    """Forget what was recorded so far (the repository saved it)."""
    e.collect_events()
    e.take_changes()


def state(e: Elimination):
    """Everything a refusal must leave as it was."""
    matches = {
        k: (m.round, m.players, m.first_white, m.how, [(g.game_id, g.outcome, g.cancelled) for g in m.games])
        for k, m in e.matches.items()
    }
    return (e.bracket.to_dict(), matches, e.completed, e.status, copy.deepcopy(e.withdrawals))


def refused(e: Elimination, error: type[Exception], call) -> Exception:
    before = state(e)
    with pytest.raises(error) as caught:
        call()
    assert state(e) == before
    assert e.collect_events() == [] and e.take_changes() == []
    return caught.value


# -- corrections -------------------------------------------------------------------------------------------
def test_a_correction_that_keeps_the_winner_changes_the_result_only():
    e = event("knockout", 4)
    one_four = pair(e, 1)[0]
    g1, g2 = one_four.games
    record(e, g1.game_id, W)  # seed 1 White
    record(e, g2.game_id, B)  # seed 1 Black: 2-0
    settle(e)
    correct(e, g2.game_id, D)  # 1½-½: seed 1 still
    [corrected] = e.collect_events()
    assert corrected == events.ResultCorrected(
        e.id,
        g2.game_id,
        1,
        uuid.UUID(int=4),
        uuid.UUID(int=1),
        B,
        D,
        corrected.decision,
    )
    assert (corrected.decision.by, corrected.decision.role, corrected.decision.reason) == (
        ORGANISER,
        Role.ORGANISER,
        "wrong score",
    )
    assert e.take_changes() == [OutcomeCorrected(g2.game_id, D)]
    assert e.bracket.match("winners:1:1").winner == 1 and g2.outcome is D


def test_a_correction_moves_where_a_match_was_decided_when_the_winner_stays():
    e = event("knockout", 4)
    m = pair(e, 1)[0]
    g1, g2 = m.games
    record(e, g1.game_id, W)
    tb = record(e, g2.game_id, W).added  # 1-1: the tie-break stage
    record(e, tb[0].game_id, W)
    record(e, tb[1].game_id, B)  # seed 1 wins the stage
    assert m.how is DecidedIn.TIEBREAK
    settle(e)
    correct(e, g2.game_id, B)  # seed 1 won the regular games after all
    assert m.how is DecidedIn.REGULAR and e.bracket.match(m.id).winner == 1
    assert e.take_changes() == [
        OutcomeCorrected(g2.game_id, B),
        MatchHowChanged(m.id, DecidedIn.REGULAR, NOW, 2),
    ]
    corrected, decided = e.collect_events()  # decided again: the consumers show where, too
    assert isinstance(corrected, events.ResultCorrected) and isinstance(decided, events.MatchDecided)
    assert (decided.winner, decided.how, decided.games_cancelled, decided.revision) == (
        uuid.UUID(int=1),
        DecidedIn.REGULAR,
        (),
        2,
    )


def test_each_decision_of_a_match_counts_one_more():
    """``match.decided``'s revision: 1 for the first decision, one more for each after a correction
    (a new winner, or undecided and decided again), so that a consumer keeps the latest in any order."""
    e = event("knockout", 4, games=1)
    one_four, _ = pair(e, 1)
    [game] = one_four.games
    record(e, game.game_id, W)  # seed 1
    first = [x for x in e.collect_events() if isinstance(x, events.MatchDecided)]
    assert [(d.winner, d.revision) for d in first] == [(uuid.UUID(int=1), 1)]
    correct(e, game.game_id, B)  # seed 4
    correct(e, game.game_id, D)  # level: the match goes on with a tie-break game
    correct(e, game.game_id, W)  # seed 1 again
    decided = [x for x in e.collect_events() if isinstance(x, events.MatchDecided)]
    assert [(d.winner, d.revision) for d in decided] == [(uuid.UUID(int=4), 2), (uuid.UUID(int=1), 3)]
    assert one_four.decisions == 3


def test_a_new_winner_goes_into_the_bracket_while_the_next_match_is_not_paired():
    e = event("knockout", 4, games=1)
    one_four, two_three = pair(e, 1)
    [game] = one_four.games
    record(e, game.game_id, W)  # seed 1
    settle(e)
    correct(e, game.game_id, B)  # seed 4 won
    corrected, decided = e.collect_events()
    assert isinstance(corrected, events.ResultCorrected)
    assert isinstance(decided, events.MatchDecided) and decided.winner == uuid.UUID(int=4)
    assert e.bracket.match("winners:1:1").winner == 4
    assert [type(c) for c in e.take_changes()] == [OutcomeCorrected, MatchSettled]
    win_for(e, two_three, 3)
    assert [m.players for m in pair(e, 2)] == [(4, 3)]


def test_a_new_winner_repairs_the_next_match_while_it_has_no_result():
    """RULES.md §4: a result that changes who advances is refused once that player's next match has a
    result, not as soon as it is paired. A paired next match without a result is paired again."""
    e = event("knockout", 4, games=1)
    one_four, two_three = pair(e, 1)
    win_for(e, one_four, 1)
    win_for(e, two_three, 2)
    [final] = pair(e, 2)
    old_games = list(final.games)
    settle(e)
    game = one_four.games[0]
    correct(e, game.game_id, win(one_four, game, 4))  # seed 4 won after all
    corrected, decided, again = e.collect_events()
    assert isinstance(corrected, events.ResultCorrected)
    assert isinstance(decided, events.MatchDecided) and decided.winner == uuid.UUID(int=4)
    assert final.players == (4, 2) and final.first_white == 0  # the drawn White stays with its slot
    assert all(g.cancelled and g.replaced_by is not None for g in old_games)
    [new_game] = [g for g in final.games if g.counts]
    assert (new_game.planned.number, new_game.planned.label) == (2, old_games[0].planned.label)
    assert (final.white(new_game), final.black(new_game)) == (4, 2)
    assert isinstance(again, events.RoundPaired) and again.round == 2
    assert again.games_cancelled == (old_games[0].game_id,)
    assert [(g.game_id, g.white, g.black) for g in again.games] == [
        (new_game.game_id, uuid.UUID(int=4), uuid.UUID(int=2))
    ]
    assert [m.players for m in again.matches] == [(uuid.UUID(int=4), uuid.UUID(int=2))]
    changes = e.take_changes()
    assert [type(c) for c in changes] == [
        OutcomeCorrected,
        MatchSettled,
        MatchRepaired,
        GamesReplaced,
        GamesAdded,
    ]
    assert changes[2] == MatchRepaired(final.id, (4, 2), (old_games[0].game_id,), NOW)
    # the old game, played anyway, counts no more; the new one is the final's result
    assert record(e, old_games[0].game_id, W).winner is None and not final.decided
    record(e, new_game.game_id, D)  # a draw: the final is undecided (its tie-break is paired), with a result
    settle(e)
    refusal = refused(e, CorrectionChangesAdvancement, lambda: correct(e, game.game_id, W))
    assert (refusal.match_id, refusal.next_match_id) == ("winners:1:1", "winners:2:1")
    assert "has a result" in refusal.detail
    correct(e, game.game_id, BF)  # the same winner (by forfeit): allowed
    assert e.bracket.match("winners:1:1").winner == 4


def test_after_the_event_every_match_keeps_its_winner():
    e = event("knockout", 4)
    for number in (1, 2):
        for m in pair(e, number):
            win_for(e, m, min(m.players))
    assert e.status is Status.COMPLETED
    settle(e)
    [final] = e.round_matches(2)
    g1, g2 = final.games
    refusal = refused(e, CorrectionChangesAdvancement, lambda: correct(e, g1.game_id, B))  # 1-1
    assert (refusal.match_id, refusal.next_match_id) == ("winners:2:1", None)
    assert "finished" in refusal.detail
    correct(e, g2.game_id, D)  # 1½-½: still seed 1
    assert [type(x) for x in e.collect_events()] == [events.ResultCorrected]  # no second completion
    assert e.status is Status.COMPLETED and e.bracket.champion() == 1


def test_a_correction_that_levels_a_match_plays_its_tie_break_stage():
    e = event("knockout", 4)
    one_four, _ = pair(e, 1)
    g1, g2 = one_four.games
    record(e, g1.game_id, W)
    record(e, g2.game_id, B)  # 2-0 for seed 1; 2 v 3 still being played
    settle(e)
    correct(e, g2.game_id, W)  # seed 4 won game 2: 1-1
    assert not one_four.decided and "winners:1:1" not in {str(k) for k in e.bracket.results}
    corrected, again = e.collect_events()
    assert isinstance(corrected, events.ResultCorrected) and isinstance(again, events.RoundPaired)
    added = [g for g in again.games if g.match_id == "winners:1:1" and g.number > 2]
    assert [(g.label, g.rated) for g in added] == [
        ("Tie-break 1 (15+10), game 1", False),
        ("Tie-break 1 (15+10), game 2", False),
    ]
    assert [type(c) for c in e.take_changes()] == [OutcomeCorrected, MatchReopened, GamesAdded]
    t1, t2 = one_four.games[2:]
    record(e, t1.game_id, win(one_four, t1, 4))
    assert record(e, t2.game_id, D).winner == 4 and one_four.how is DecidedIn.TIEBREAK
    assert e.bracket.match("winners:1:1").winner == 4


def test_a_reopened_match_plays_again_the_games_it_had_cancelled():
    e = event("knockout", 4, games=4)
    one_four, _ = pair(e, 1)
    g1, g2, g3, g4 = one_four.games
    for g in (g1, g2, g3):
        record(e, g.game_id, win(one_four, g, 1))  # 3-0: game 4 is cancelled
    assert g4.cancelled
    settle(e)
    correct(e, g1.game_id, win(one_four, g1, 4))  # 2-1 with one game to play
    assert not one_four.decided and g4.replaced_by is not None
    g5 = one_four.games[-1]
    assert (g5.game_id, g5.planned.number, g5.planned.label) == (g4.replaced_by, 5, "Game 4")
    assert one_four.white(g5) == one_four.white(g4)
    changes = e.take_changes()
    assert [type(c) for c in changes] == [OutcomeCorrected, MatchReopened, GamesReplaced, GamesAdded]
    assert changes[2] == GamesReplaced(one_four.id, ((g4.game_id, g5.game_id),))
    [_, again] = e.collect_events()
    assert g5.game_id in {g.game_id for g in again.games}
    assert record(e, g4.game_id, W).winner is None  # the cancelled game, played anyway: counts no more
    assert not one_four.decided
    assert record(e, g5.game_id, win(one_four, g5, 1)).winner == 1  # 3-1


def test_a_correction_that_would_reopen_a_match_of_a_complete_round_is_refused():
    e = event("knockout", 4)
    one_four, two_three = pair(e, 1)
    win_for(e, one_four, 1)
    win_for(e, two_three, 2)
    settle(e)  # round 1 is complete; round 2 is due, not paired yet
    g2 = one_four.games[1]
    refusal = refused(e, CorrectionChangesAdvancement, lambda: correct(e, g2.game_id, win(one_four, g2, 4)))
    assert (refusal.match_id, refusal.next_match_id) == ("winners:1:1", None)


def test_a_new_winner_in_a_complete_round_is_paired_in_the_next():
    e = event("knockout", 4, games=1)
    one_four, two_three = pair(e, 1)
    win_for(e, one_four, 1)
    win_for(e, two_three, 2)
    settle(e)  # round 2 is due; the worker has not paired it yet
    correct(e, one_four.games[0].game_id, win(one_four, one_four.games[0], 4))
    assert [type(x) for x in e.collect_events()] == [events.ResultCorrected, events.MatchDecided]
    assert e.completed == {1}
    assert [m.players for m in pair(e, 2)] == [(4, 2)]


def test_a_correction_can_decide_a_match_still_being_played():
    e = event("knockout", 4)
    one_four, _ = pair(e, 1)
    g1, g2 = one_four.games
    record(e, g1.game_id, W)
    tb = record(e, g2.game_id, W).added  # 1-1: the tie-break stage is paired
    settle(e)
    correct(e, g2.game_id, B)  # 2-0 for seed 1 after all
    _, decided = e.collect_events()
    assert isinstance(decided, events.MatchDecided)
    assert (decided.winner, decided.how, decided.games_cancelled) == (
        uuid.UUID(int=1),
        DecidedIn.REGULAR,
        tuple(g.game_id for g in tb),
    )
    assert all(g.cancelled for g in tb)


def test_a_double_knockout_repairs_the_winners_and_the_losers_next_match():
    e = event("double_knockout", 4, games=1)
    for m in pair(e, 1):
        win_for(e, m, min(m.players))
    second = pair(e, 2)
    assert sorted(str(m.id) for m in second) == ["losers:1:1", "winners:2:1"]
    winners, losers = (e.matches[m.id] for m in sorted(second, key=lambda m: str(m.id), reverse=True))
    assert (winners.players, losers.players) == ((1, 2), (4, 3))
    old = [winners.games[0].game_id, losers.games[0].game_id]
    settle(e)
    first = e.round_matches(1)[0]
    correct(e, first.games[0].game_id, win(first, first.games[0], 4))  # 4 beat 1 after all
    assert (winners.players, losers.players) == ((4, 2), (1, 3))
    *_, again = e.collect_events()
    assert isinstance(again, events.RoundPaired) and sorted(again.games_cancelled) == sorted(old)
    assert {(m.match_id, m.players) for m in again.matches} == {
        ("winners:2:1", (uuid.UUID(int=4), uuid.UUID(int=2))),
        ("losers:1:1", (uuid.UUID(int=1), uuid.UUID(int=3))),
    }
    record(e, losers.games[-1].game_id, W)  # the losers' match has a result: no further change
    settle(e)
    refusal = refused(e, CorrectionChangesAdvancement, lambda: correct(e, first.games[0].game_id, W))
    assert (refusal.match_id, refusal.next_match_id) == ("winners:1:1", "losers:1:1")


def test_who_may_correct():
    e = event("knockout", 4, games=1)
    one_four, two_three = pair(e, 1)
    win_for(e, one_four, 1)
    settle(e)
    game = one_four.games[0]
    other = two_three.games[0].game_id
    named = Authority.of(ORGANISER, [Appointment(ARBITER, frozenset({other}))])
    refused(e, NotAnArbiterHere, lambda: correct(e, game.game_id, D, by=ARBITER, who=named))
    refused(e, NotAnArbiterHere, lambda: correct(e, game.game_id, D, by=uuid.UUID(int=1)))  # a player
    this_game = Authority.of(ORGANISER, [Appointment(ARBITER, frozenset({game.game_id}))])
    correct(e, game.game_id, WF, by=ARBITER, who=this_game)
    [corrected] = e.collect_events()  # a forfeit win for the same player: the winner stays
    assert corrected.decision.role is Role.ARBITER
    whole = Authority.of(ORGANISER, [Appointment(ARBITER)])
    correct(e, game.game_id, W, by=ARBITER, who=whole)


def test_what_cannot_be_corrected():
    e = event("knockout", 4, games=4)
    one_four, _ = pair(e, 1)
    settle(e)
    g1, g2, g3, g4 = one_four.games
    refused(e, GameNotFinished, lambda: correct(e, g1.game_id, W))
    refused(e, GameNotFound, lambda: correct(e, uuid.uuid4(), W))
    for g in (g1, g2, g3):
        record(e, g.game_id, win(one_four, g, 1))
    settle(e)
    refused(e, GameNotFinished, lambda: correct(e, g4.game_id, W))  # cancelled, never played
    refused(e, NothingToCorrect, lambda: correct(e, g1.game_id, g1.outcome))


# -- withdrawals: the forfeit chain ------------------------------------------------------------------------
def test_a_withdrawal_is_recorded_once():
    e = event("knockout", 4)
    assert e.withdraw(uuid.UUID(int=4), excluded=False, reason="ill", at=NOW)
    assert not e.withdraw(uuid.UUID(int=4), excluded=True, reason="again", at=NOW)
    assert e.take_changes() == [WithdrawalRecorded(4)] and e.withdrawals[4].reason == "ill"
    with pytest.raises(PlayerNotFound):
        e.withdraw(uuid.uuid4(), excluded=False, reason="", at=NOW)


def test_a_match_lost_by_forfeit_in_every_game_is_decided_in_its_regular_games():
    e = event("knockout", 4)
    one_four, _ = pair(e, 1)
    g1, g2 = one_four.games  # seed 4 withdrew: White in game 2
    record(e, g1.game_id, WF)
    done = record(e, g2.game_id, BF)
    assert (done.winner, one_four.how) == (1, DecidedIn.REGULAR)


def test_a_withdrawal_after_a_win_forfeits_the_tie_break_games_too():
    e = event("knockout", 4)
    one_four, _ = pair(e, 1)
    g1, g2 = one_four.games
    record(e, g1.game_id, B)  # seed 4 beat seed 1 with Black, then withdrew
    tb = record(e, g2.game_id, BF).added  # 1-1: the tie-break stage, forfeited at once by the clocks
    assert len(tb) == 2
    record(e, tb[0].game_id, WF)  # seed 1 White
    done = record(e, tb[1].game_id, BF)
    assert (done.winner, one_four.how) == (1, DecidedIn.TIEBREAK)


def test_two_withdrawn_players_forfeit_down_to_the_sudden_death_game():
    e = event("knockout", 4, games=1)
    one_four, _ = pair(e, 1)
    result = record(e, one_four.games[0].game_id, XX)
    while result.winner is None:
        result = record(e, result.added[-1].game_id, XX) if len(result.added) == 1 else _both(e, result)
    sudden = one_four.games[-1]
    assert sudden.planned.kind is DecidedIn.SUDDEN_DEATH and one_four.how is DecidedIn.SUDDEN_DEATH
    assert result.winner == one_four.black(sudden)  # nobody won it: Black goes through


def _both(e: Elimination, result):
    record(e, result.added[0].game_id, XX)
    return record(e, result.added[1].game_id, XX)


def test_a_withdrawn_top_seed_advances_through_the_bye_and_loses_the_next_match_by_forfeit():
    e = event("knockout", 5, games=1)  # seeds 1, 2, 3 have byes
    e.withdraw(uuid.UUID(int=1), excluded=False, reason="ill", at=NOW)
    [four_five] = pair(e, 1)
    win_for(e, four_five, 4)
    semi = next(m for m in pair(e, 2) if 1 in m.players)
    [game] = semi.games
    record(e, game.game_id, WF if semi.white(game) == 4 else BF)  # the clocks forfeit seed 1's game
    assert e.bracket.match(semi.id).winner == 4


# -- byes, reset, colours, rating -------------------------------------------------------------------------
def test_a_knockout_has_no_byes_on_request():
    e = event("knockout", 4)
    with pytest.raises(ByesNotOffered):
        e.refuse_bye(uuid.UUID(int=2), authority=WHO, by=uuid.UUID(int=2))
    with pytest.raises(NotYourBye):
        e.refuse_bye(uuid.UUID(int=2), authority=WHO, by=uuid.UUID(int=3))
    with pytest.raises(PlayerNotFound):
        e.refuse_bye(uuid.uuid4(), authority=WHO, by=ORGANISER)


def test_the_organiser_resets_round_one_before_any_result():
    e = event("knockout", 4)
    first = pair(e, 1)
    settle(e)
    refused(
        e,
        NotOrganiser,
        lambda: e.reset(authority=Authority.of(ORGANISER, [Appointment(ARBITER)]), by=ARBITER, at=NOW),
    )
    e.reset(authority=WHO, by=ORGANISER, at=NOW)
    games = tuple(g.game_id for m in first for g in m.games)  # round 1's, named so news of them is settled
    assert len(games) == 4 and e.take_changes() == [Erased(NOW, games, 0)]
    [reset] = e.collect_events()
    assert reset == events.TournamentReset(e.id, reset.decision, games)
    assert (reset.decision.by, reset.decision.role) == (ORGANISER, Role.ORGANISER)
    record(e, first[0].games[0].game_id, D)
    settle(e)
    refusal = refused(e, ResetNotAllowed, lambda: e.reset(authority=WHO, by=ORGANISER, at=NOW))
    assert "result" in str(refusal)


def test_no_reset_once_round_two_is_paired():
    e = event("knockout", 5, games=1)
    win_for(e, pair(e, 1)[0], 4)
    pair(e, 2)
    settle(e)
    refusal = refused(e, ResetNotAllowed, lambda: e.reset(authority=WHO, by=ORGANISER, at=NOW))
    assert "round 2" in str(refusal)


def test_a_restarted_knockout_names_new_games():
    later = NOW + dt.timedelta(minutes=5)
    ids = [
        {g.game_id for m in pair(x, 1) for g in m.games}
        for x in (event("knockout", 4), event("knockout", 4, started=later))
    ]
    assert not ids[0] & ids[1]


def test_swapped_colours_of_the_first_game_move_the_tie_break_colours():
    e = event("knockout", 4)
    one_four, _ = pair(e, 1)
    g1, g2 = one_four.games
    settle(e)
    assert (one_four.white(g1), one_four.first_white) == (1, 0)
    assert e.swap_colours(g1.game_id, uuid.UUID(int=4), uuid.UUID(int=1))
    assert not e.swap_colours(g1.game_id, uuid.UUID(int=4), uuid.UUID(int=1))  # again: nothing
    assert (one_four.white(g1), one_four.first_white) == (4, 1)
    assert e.take_changes() == [ColoursSet(g1.game_id, 4, 1)]
    record(e, g1.game_id, W)  # seed 4, White in game 1 now
    tb = record(e, g2.game_id, B).added  # seed 1 with Black in game 2 (unchanged): 1-1
    assert [one_four.white(g) for g in tb] == [4, 1]  # the stage follows the swapped first game
    with pytest.raises(ColoursFixed):
        e.swap_colours(g1.game_id, uuid.UUID(int=1), uuid.UUID(int=4))
    with pytest.raises(EventMismatch):
        e.swap_colours(g2.game_id, uuid.UUID(int=2), uuid.UUID(int=4))


def test_tie_break_and_sudden_death_games_are_unrated():
    e = event("knockout", 4, games=1)
    one_four, _ = pair(e, 1)
    [regular] = e.collect_events()
    assert {g.rated for g in regular.games} == {True}
    result = record(e, one_four.games[0].game_id, D)
    [again] = e.collect_events()
    assert [(g.number, g.rated) for g in again.games if g.match_id == "winners:1:1"] == [
        (1, True),
        *((g.planned.number, False) for g in result.added),
    ]


@pytest.mark.parametrize(
    ("fmt", "players", "leaving"),
    [
        ("knockout", 6, 1),
        ("knockout", 8, 5),
        ("double_knockout", 5, 2),
        ("double_knockout", 6, 6),
        ("double_knockout", 8, 3),
    ],
)
def test_the_forfeit_chain_runs_the_event_to_its_end(fmt, players, leaving):
    """A player withdrawn before round 1: the clocks forfeit every game paired for them (both players
    withdrawn: a double forfeit); everyone else, the better seed wins. The event ends, and the withdrawn
    player won no match — walkovers through a bye included, they go out at their first match."""
    e = event(fmt, players)
    e.withdraw(uuid.UUID(int=leaving), excluded=False, reason="ill", at=NOW)
    while (number := e.next_round_number()) is not None:
        for m in pair(e, number):
            while not m.decided:
                game = next(g for g in m.games if g.open)
                if leaving in m.players:
                    outcome = BF if m.white(game) == leaving else WF
                else:
                    outcome = win(m, game, min(m.players))
                record(e, game.game_id, outcome)
    assert e.status is Status.COMPLETED
    placing = {p.seed: p for p in e.placings()}
    assert placing[leaving].matches_won == 0
    lost = [m for m in e.matches.values() if leaving in m.players]
    assert lost and all(e.bracket.match(m.id).winner != leaving for m in lost)
    assert len(lost) == (2 if fmt == "double_knockout" else 1)


def test_a_corrected_first_grand_final_can_end_the_event():
    """The losers'-bracket player took the first grand final (the second is due, not paired yet); the
    correction gives it to the winners'-bracket player: no second final is needed, and the event ends."""
    e = event("double_knockout", 4, games=1)
    while (number := e.next_round_number()) is not None:
        for m in pair(e, number):
            gf = str(m.id) == "grand_final:1:1"
            win_for(e, m, m.players[1] if gf else min(m.players))
        if any(str(m.id) == "grand_final:1:1" and m.decided for m in e.matches.values()):
            break
    [first_final] = [m for m in e.matches.values() if str(m.id) == "grand_final:1:1"]
    settle(e)
    assert e.status is Status.RUNNING and e.next_round_number() is not None
    game = first_final.games[0]
    correct(e, game.game_id, win(first_final, game, first_final.players[0]))
    kinds = [type(x) for x in e.collect_events()]
    assert kinds == [events.ResultCorrected, events.MatchDecided, events.TournamentCompleted]
    assert e.status is Status.COMPLETED and e.next_round_number() is None
    assert e.bracket.champion() == first_final.players[0]
