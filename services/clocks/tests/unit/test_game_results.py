"""Who reports what, on the Game aggregate alone (RULES.md §5, the results-authority issue): a player's
own loss, claims the opponent confirms, disputes that wait for the arbiter, results entered by those who
decide, forfeits, colour swaps before the first move, corrections."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest

from services.clocks.domain import errors
from services.clocks.domain.clock import ChangeKind, Clock, ClockRate, ClockState, Side
from services.clocks.domain.endings import Claim, Correction, FlagFall, Forfeit, GameStatus
from services.clocks.domain.events import GameColoursSwapped, GameFinished
from services.clocks.domain.game import Game, Outcome
from shared.authority import Decided, Role

T0 = dt.datetime(2026, 6, 1, 12, 0, tzinfo=dt.UTC)
WHITE, BLACK, ARBITER = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
FORFEITS = (Outcome.WHITE_FORFEIT_WIN, Outcome.BLACK_FORFEIT_WIN, Outcome.DOUBLE_FORFEIT)


def at(seconds: float) -> dt.datetime:
    return T0 + dt.timedelta(seconds=seconds)


def game(base: int = 180, inc: int = 0, *, start: bool = True, rated: bool = True) -> Game:
    g = Game.pair(
        game_id=uuid.uuid4(),
        tournament_id=uuid.uuid4(),
        organiser_id=uuid.uuid4(),
        round=1,
        board=1,
        white=WHITE,
        black=BLACK,
        control=ClockRate(base, inc),
        at=T0,
        rated=rated,
    )
    if start:
        g.start(T0)
        g.collect_events()
    return g


def played(moves: int = 2) -> Game:
    g = game()
    for n in range(moves):
        g.move(WHITE if n % 2 == 0 else BLACK, at(n + 1))
    return g


def finished_events(g: Game) -> list[GameFinished]:
    return [e for e in g.collect_events() if isinstance(e, GameFinished)]


def group_playoff() -> bool:
    return True


# -- a player's own loss ---------------------------------------------------------------------------
@pytest.mark.parametrize(("player", "outcome"), [(WHITE, Outcome.BLACK_WIN), (BLACK, Outcome.WHITE_WIN)])
def test_a_players_own_loss_is_final_at_once(player, outcome):
    g = played()
    assert g.claim(player, outcome, "resignation", at(10)) is None
    assert (g.status, g.outcome, g.reason, g.finished_at) == (
        GameStatus.FINISHED,
        outcome,
        "resignation",
        at(10),
    )
    assert g.clock.state is ClockState.STOPPED and g.deadline is None
    [event] = finished_events(g)
    assert event.decision is None  # the game ended on the board, like a flag fall: nobody decided it
    assert (event.outcome, event.rated, event.both_moved) == (outcome, True, True)


def test_a_player_reports_only_a_game_they_play():
    with pytest.raises(errors.NotYourGame):
        played().claim(uuid.uuid4(), Outcome.DRAW, "agreement", at(5))


@pytest.mark.parametrize("outcome", [Outcome.WHITE_WIN, *FORFEITS])
def test_a_win_for_oneself_and_every_forfeit_are_not_a_players_to_report(outcome):
    g = played()
    with pytest.raises(errors.ResultNotAllowed):
        g.claim(WHITE, outcome, "resignation", at(5))
    assert g.status is GameStatus.RUNNING and g.claims == {} and g.collect_events() == []


def test_a_forfeit_is_not_a_players_even_where_players_run_their_games():
    with pytest.raises(errors.ResultNotAllowed):
        played().claim(BLACK, Outcome.WHITE_FORFEIT_WIN, "absent", at(5), players_run_games=group_playoff)


def test_the_ruleset_is_asked_only_for_a_players_win():
    asked: list[bool] = []

    def ruleset() -> bool:
        asked.append(True)
        return False

    g = played()
    g.claim(WHITE, Outcome.DRAW, "agreement", at(5), players_run_games=ruleset)
    g.claim(WHITE, Outcome.BLACK_WIN, "resignation", at(6), players_run_games=ruleset)
    assert asked == []
    with pytest.raises(errors.ResultNotAllowed):
        played().claim(BLACK, Outcome.BLACK_WIN, "checkmate", at(5), players_run_games=ruleset)
    assert asked == [True]


# -- claims confirmed, lapsed, disputed --------------------------------------------------------------
def test_a_draw_counts_once_the_opponent_confirms_it():
    g = played()
    assert g.claim(WHITE, Outcome.DRAW, "agreement", at(10)) is None
    assert g.status is GameStatus.RUNNING and g.claims == {
        Side.WHITE: Claim(Outcome.DRAW, "agreement", at(10))
    }
    assert g.clock.running and g.deadline is not None  # a pending claim does not stop the clock
    assert g.collect_events() == []
    g.claim(BLACK, Outcome.DRAW, "repetition", at(12))
    assert (g.status, g.outcome, g.reason, g.claims) == (GameStatus.FINISHED, Outcome.DRAW, "agreement", {})
    assert g.decision == Decided(BLACK, Role.PLAYER, at(12))  # the confirmation decided it
    [event] = finished_events(g)
    assert event.decision == g.decision and event.finished_at == at(12)


def test_the_claimant_repeating_or_changing_a_claim_keeps_one_claim():
    g = played()
    g.claim(WHITE, Outcome.DRAW, "agreement", at(10))
    g.claim(WHITE, Outcome.DRAW, "agreement", at(11))
    assert g.claims == {Side.WHITE: Claim(Outcome.DRAW, "agreement", at(11))} and not g.finished


def test_a_move_declines_a_pending_claim():
    g = played(1)  # Black to move
    g.claim(WHITE, Outcome.DRAW, "agreement", at(3))
    g.move(BLACK, at(4))
    assert g.claims == {}
    g.claim(BLACK, Outcome.DRAW, "agreement", at(5))  # a new offer, not a confirmation
    assert g.claims == {Side.BLACK: Claim(Outcome.DRAW, "agreement", at(5))} and not g.finished


def test_a_resignation_ends_a_game_with_a_pending_claim():
    g = played()
    g.claim(WHITE, Outcome.DRAW, "agreement", at(10))
    g.claim(BLACK, Outcome.WHITE_WIN, "resignation", at(11))
    assert (g.outcome, g.reason, g.decision, g.claims) == (Outcome.WHITE_WIN, "resignation", None, {})


def test_the_flag_falls_while_a_claim_waits():
    g = game(60, 0)
    g.move(WHITE, at(5))
    g.claim(WHITE, Outcome.DRAW, "agreement", at(6))  # Black's flag falls at 65 s
    flag = g.claim(BLACK, Outcome.DRAW, "agreement", at(70))
    assert flag == FlagFall(Side.BLACK, at(65), Outcome.WHITE_WIN)
    assert (g.outcome, g.reason, g.finished_at, g.claims) == (Outcome.WHITE_WIN, "time", at(65), {})
    assert g.check_flag(at(66)) is False


def test_a_player_cannot_report_a_game_not_started():
    with pytest.raises(errors.GameNotStarted):
        game(start=False).claim(WHITE, Outcome.BLACK_WIN, "resignation", T0)


def test_where_players_run_their_games_a_win_is_claimed_and_confirmed():
    g = played()
    g.claim(WHITE, Outcome.WHITE_WIN, "checkmate", at(10), players_run_games=group_playoff)
    assert not g.finished and g.claims[Side.WHITE].outcome is Outcome.WHITE_WIN
    g.claim(BLACK, Outcome.WHITE_WIN, "checkmate", at(20), players_run_games=group_playoff)
    assert (g.outcome, g.reason, g.decision) == (
        Outcome.WHITE_WIN,
        "checkmate",
        Decided(BLACK, Role.PLAYER, at(20)),
    )


def test_different_claims_are_a_dispute_that_stops_both_clocks():
    g = played()
    g.claim(WHITE, Outcome.WHITE_WIN, "checkmate", at(10), players_run_games=group_playoff)
    g.claim(BLACK, Outcome.DRAW, "stalemate", at(12), players_run_games=group_playoff)
    assert g.status is GameStatus.DISPUTED and g.disputed
    assert set(g.claims) == {Side.WHITE, Side.BLACK}
    assert g.clock.state is ClockState.STOPPED and g.deadline is None
    assert [c.reason for c in g.clock.changes][-1] == "disputed"
    assert g.check_flag(at(10_000)) is False  # no flag falls while the arbiter decides
    with pytest.raises(errors.ResultDisputed):
        g.move(WHITE, at(13))
    assert g.collect_events() == []


def test_the_arbiter_decides_a_dispute():
    g = played()
    g.claim(WHITE, Outcome.WHITE_WIN, "checkmate", at(10), players_run_games=group_playoff)
    g.claim(BLACK, Outcome.DRAW, "stalemate", at(12), players_run_games=group_playoff)
    decision = Decided(ARBITER, Role.ARBITER, at(500))
    assert g.report_result(Outcome.DRAW, "stalemate", at(500), decision=decision) is None
    assert (g.status, g.outcome, g.decision, g.claims, g.finished_at) == (
        GameStatus.FINISHED,
        Outcome.DRAW,
        decision,
        {},
        at(500),
    )
    [event] = finished_events(g)
    assert event.decision == decision


def test_a_player_ends_a_dispute_by_conceding_or_by_agreeing():
    g = played()
    g.claim(WHITE, Outcome.WHITE_WIN, "checkmate", at(10), players_run_games=group_playoff)
    g.claim(BLACK, Outcome.DRAW, "stalemate", at(12), players_run_games=group_playoff)
    g.claim(BLACK, Outcome.BLACK_WIN, "checkmate", at(13), players_run_games=group_playoff)  # still apart
    assert g.disputed
    g.claim(WHITE, Outcome.BLACK_WIN, "checkmate", at(14), players_run_games=group_playoff)  # agrees
    assert (g.outcome, g.decision) == (Outcome.BLACK_WIN, Decided(WHITE, Role.PLAYER, at(14)))


def test_a_disputed_game_at_the_tournaments_close_is_drawn_and_can_be_cancelled():
    g = played()
    g.claim(WHITE, Outcome.WHITE_WIN, "checkmate", at(10), players_run_games=group_playoff)
    g.claim(BLACK, Outcome.BLACK_WIN, "checkmate", at(12), players_run_games=group_playoff)
    assert g.close(at(20)) is True and (g.outcome, g.reason) == (Outcome.DRAW, "tournament_closed")
    h = played()
    h.claim(WHITE, Outcome.WHITE_WIN, "checkmate", at(10), players_run_games=group_playoff)
    h.claim(BLACK, Outcome.BLACK_WIN, "checkmate", at(12), players_run_games=group_playoff)
    assert h.cancel(at(20)) is True and h.status is GameStatus.CANCELLED and h.claims == {}


# -- results entered by those who decide -------------------------------------------------------------
@pytest.mark.parametrize("outcome", [Outcome.WHITE_WIN, Outcome.DRAW, *FORFEITS])
def test_an_entered_result_is_final_with_its_decision(outcome):
    g = played()
    decision = Decided(ARBITER, Role.ARBITER, at(9))
    g.report_result(outcome, "arbiter", at(9), decision=decision)
    assert (g.outcome, g.decision) == (outcome, decision)
    assert finished_events(g)[0].decision == decision


def test_an_entered_result_replaces_a_pending_claim():
    g = played()
    g.claim(WHITE, Outcome.DRAW, "agreement", at(9))
    g.report_result(
        Outcome.BLACK_WIN, "illegal_moves", at(10), decision=Decided(ARBITER, Role.ARBITER, at(10))
    )
    assert (g.outcome, g.claims) == (Outcome.BLACK_WIN, {})


def test_an_unrated_game_says_so_when_it_finishes():
    g = game(rated=False)
    g.claim(WHITE, Outcome.BLACK_WIN, "resignation", at(3))
    assert finished_events(g)[0].rated is False


# -- forfeits -----------------------------------------------------------------------------------------
def test_a_forfeit_ends_a_running_or_a_waiting_game():
    decision = Decided(ARBITER, Role.ORGANISER, at(1), "left the venue")
    running, waiting = played(), game(start=False)
    running.forfeit(Forfeit(Outcome.WHITE_FORFEIT_WIN, "withdrawal", decision), at(5))
    waiting.forfeit(Forfeit(Outcome.DOUBLE_FORFEIT, "exclusion", decision), at(5))
    assert (running.outcome, running.reason, running.decision) == (
        Outcome.WHITE_FORFEIT_WIN,
        "withdrawal",
        decision,
    )
    assert (waiting.outcome, waiting.reason, waiting.started_at) == (
        Outcome.DOUBLE_FORFEIT,
        "exclusion",
        None,
    )
    assert running.clock.state is ClockState.STOPPED


def test_a_forfeit_after_the_flag_fell_is_a_loss_on_time():
    g = game(60, 0)
    flag = g.forfeit(Forfeit(Outcome.BLACK_FORFEIT_WIN, "withdrawal", None), at(90))
    assert flag == FlagFall(Side.WHITE, at(60), Outcome.BLACK_WIN) and g.reason == "time"


# -- colour swaps -------------------------------------------------------------------------------------
def test_colours_swap_before_the_game_starts():
    g = game(start=False)
    decision = Decided(ARBITER, Role.ORGANISER, at(1))
    assert g.swap_colours(at(1), decision) is None
    assert (g.white, g.black, g.status) == (BLACK, WHITE, GameStatus.PENDING)
    assert g.collect_events() == [GameColoursSwapped(g.tournament_id, g.id, 1, BLACK, WHITE, decision)]


def test_a_swap_in_a_running_game_gives_the_new_white_their_whole_time():
    g = game(180, 2)
    g.claim(WHITE, Outcome.DRAW, "agreement", at(3))
    g.swap_colours(at(40), Decided(ARBITER, Role.ARBITER, at(40)))
    assert (g.white, g.black, g.claims) == (BLACK, WHITE, {})  # claims named the old colours
    assert g.deadline == at(220) and g.clock.remaining_ms(Side.WHITE, at(40)) == 180_000
    assert g.clock.changes[-1].kind is ChangeKind.ADJUSTED and g.clock.changes[-1].reason == "colours_swapped"
    g.move(g.white, at(50))  # the new White (Black before) moves first
    assert g.clock.remaining_ms(Side.WHITE, at(50)) == 172_000
    history = [*g.clock.collect_changes()]
    assert Clock.replay(g.control, history) == g.clock


def test_no_swap_once_a_move_was_made_or_the_game_is_over():
    decision = Decided(ARBITER, Role.ORGANISER, at(1))
    with pytest.raises(errors.GameUnderWay):
        played(1).swap_colours(at(5), decision)
    finished = played()
    finished.claim(WHITE, Outcome.BLACK_WIN, "resignation", at(5))
    with pytest.raises(errors.GameOver):
        finished.swap_colours(at(6), decision)
    cancelled = game()
    cancelled.cancel(at(5))
    with pytest.raises(errors.GameAlreadyCancelled):
        cancelled.swap_colours(at(6), decision)


def test_no_swap_in_a_disputed_game():
    g = game()
    g.claim(WHITE, Outcome.WHITE_WIN, "checkmate", at(1), players_run_games=group_playoff)
    g.claim(BLACK, Outcome.BLACK_WIN, "checkmate", at(2), players_run_games=group_playoff)
    with pytest.raises(errors.ResultDisputed):
        g.swap_colours(at(3), Decided(ARBITER, Role.ORGANISER, at(3)))


def test_a_swap_after_whites_flag_fell_ends_the_game_on_time():
    g = game(60, 0)
    flag = g.swap_colours(at(61), Decided(ARBITER, Role.ORGANISER, at(61)))
    assert flag == FlagFall(Side.WHITE, at(60), Outcome.BLACK_WIN)
    assert (g.white, g.black, g.outcome) == (WHITE, BLACK, Outcome.BLACK_WIN)


# -- corrections --------------------------------------------------------------------------------------
def test_a_correction_changes_the_outcome_and_keeps_the_old_one():
    g = played()
    g.claim(WHITE, Outcome.BLACK_WIN, "resignation", at(5))
    g.collect_events()
    decision = Decided(ARBITER, Role.ARBITER, at(100), "wrong result entered")
    assert g.correct(Outcome.DRAW, decision) is True
    assert (g.outcome, g.reason, g.corrected) == (Outcome.DRAW, "resignation", True)
    assert g.corrections == [Correction(Outcome.BLACK_WIN, Outcome.DRAW, decision)]
    assert g.correct(Outcome.DRAW, decision) is False and len(g.corrections) == 1  # nothing new
    assert g.collect_events() == []  # pairing announced it: the game records nothing


def test_only_a_finished_game_is_corrected():
    decision = Decided(ARBITER, Role.ARBITER, at(100), "typo")
    with pytest.raises(errors.GameNotFinished):
        played().correct(Outcome.DRAW, decision)
    g = played()
    g.claim(WHITE, Outcome.BLACK_WIN, "resignation", at(5))
    with pytest.raises(errors.InvalidResult):
        g.correct(Outcome.NOT_PLAYED, decision)


def test_a_withdrawal_forfeits_a_disputed_game():
    g = played()
    g.claim(WHITE, Outcome.WHITE_WIN, "checkmate", at(10), players_run_games=group_playoff)
    g.claim(BLACK, Outcome.BLACK_WIN, "checkmate", at(12), players_run_games=group_playoff)
    assert g.forfeit(Forfeit(Outcome.BLACK_FORFEIT_WIN, "exclusion", None), at(20)) is None
    assert (g.status, g.outcome, g.reason, g.claims, g.finished_at) == (
        GameStatus.FINISHED,
        Outcome.BLACK_FORFEIT_WIN,
        "exclusion",
        {},
        at(20),
    )
