"""Double rounds on the aggregates alone (``domain/legs.py``, :meth:`Game.begin`): a round's legs are
linked, leg 2 waits for leg 1 and begins when it is over; a game whose turn comes after its
tournament's close is drawn at the close; a forfeit ends it before it starts."""

from __future__ import annotations

import datetime as dt
import uuid

from services.clocks.domain import legs
from services.clocks.domain.clock import ClockRate
from services.clocks.domain.endings import Forfeit, GameStatus
from services.clocks.domain.events import GameFinished, GameStarted
from services.clocks.domain.game import Game, Outcome

T0 = dt.datetime(2026, 6, 1, 12, 0, tzinfo=dt.UTC)
TID = uuid.uuid4()


def at(seconds: float) -> dt.datetime:
    return T0 + dt.timedelta(seconds=seconds)


def paired(
    board: int,
    leg: int,
    white: uuid.UUID,
    black: uuid.UUID,
    *,
    match_id: str | None = None,
    number: int | None = None,
    closes_at: dt.datetime | None = None,
    tournament_id: uuid.UUID = TID,
) -> Game:
    return Game.pair(
        game_id=uuid.uuid4(),
        tournament_id=tournament_id,
        organiser_id=uuid.uuid4(),
        round=2,
        board=board,
        leg=leg,
        white=white,
        black=black,
        control=ClockRate(60, 0),
        at=T0,
        match_id=match_id,
        number=number,
        closes_at=closes_at,
    )


def pairing(board: int = 1, **kwargs) -> tuple[Game, Game]:
    a, b = uuid.uuid4(), uuid.uuid4()
    return paired(board, 1, a, b, **kwargs), paired(board, 2, b, a, **kwargs)


def test_each_leg_1_learns_its_leg_2_and_the_legs_2_wait():
    one, two = pairing(1)
    three, four = pairing(2)
    single = paired(3, 1, uuid.uuid4(), uuid.uuid4())
    waiting = legs.link([four, one, single, three, two])  # in any order
    assert waiting == {two.id, four.id}
    assert (one.next_leg, three.next_leg) == (two.id, four.id)
    assert two.next_leg is None and four.next_leg is None and single.next_leg is None


def test_a_knockout_matchs_games_are_not_legs():
    a, b = uuid.uuid4(), uuid.uuid4()
    games = [paired(1, leg, a, b, match_id="winners:1:1", number=leg) for leg in (1, 2)]
    assert legs.link(games) == set()
    assert [g.next_leg for g in games] == [None, None]


def test_legs_of_other_rounds_or_tournaments_are_not_linked():
    one, _ = pairing(1)
    _, other = pairing(1, tournament_id=uuid.uuid4())
    assert legs.link([one, other]) == set() and one.next_leg is None


def test_leg_2s_turn_comes_when_leg_1_is_over():
    one, two = pairing()
    legs.link([one, two])
    one.begin(T0)
    assert not legs.turn_has_come(two, one)  # leg 1 still running
    one.report_result(Outcome.WHITE_WIN, "resignation", at(90))
    assert legs.turn_has_come(two, one)
    two.begin(at(91))
    assert (two.status, two.started_at, two.deadline) == (GameStatus.RUNNING, at(91), at(151))
    assert not legs.turn_has_come(two, one)  # begun: its turn does not come twice
    other, _ = pairing(2)
    other.report_result(Outcome.DRAW, "agreement", at(5))
    assert not legs.turn_has_come(two, other)  # not its leg 1


def test_a_leg_2_already_ended_does_not_begin():
    one, two = pairing()
    legs.link([one, two])
    one.begin(T0)
    forfeit = Forfeit(Outcome.WHITE_FORFEIT_WIN, "withdrawal", None)
    two.forfeit(forfeit, at(3))
    one.forfeit(Forfeit(Outcome.BLACK_FORFEIT_WIN, "withdrawal", None), at(3))
    assert not legs.turn_has_come(two, one)


def test_begin_starts_the_game_and_its_clock():
    one, _ = pairing()
    one.begin(at(7))
    assert (one.status, one.started_at, one.deadline) == (GameStatus.RUNNING, at(7), at(67))
    assert [type(e) for e in one.collect_events()] == [GameStarted]


def test_begin_with_a_forfeit_ends_the_game_unplayed():
    one, _ = pairing()
    one.begin(at(7), Forfeit(Outcome.BLACK_FORFEIT_WIN, "busy", None))
    assert (one.status, one.outcome, one.reason, one.finished_at) == (
        GameStatus.FINISHED,
        Outcome.BLACK_FORFEIT_WIN,
        "busy",
        at(7),
    )
    assert one.started_at is None and [type(e) for e in one.collect_events()] == [GameFinished]


def test_a_game_whose_turn_comes_after_the_close_is_drawn_at_the_close():
    _, two = pairing(closes_at=at(600))
    two.begin(at(640), Forfeit(Outcome.BLACK_FORFEIT_WIN, "busy", None))  # the close comes first
    assert (two.status, two.outcome, two.reason, two.finished_at, two.both_moved) == (
        GameStatus.FINISHED,
        Outcome.DRAW,
        "tournament_closed",
        at(600),
        False,
    )
    assert two.started_at is None and [type(e) for e in two.collect_events()] == [GameFinished]


def test_a_game_whose_turn_comes_before_the_close_starts_and_is_drawn_at_the_close():
    _, two = pairing(closes_at=at(600))
    two.begin(at(590))
    assert (two.status, two.deadline) == (GameStatus.RUNNING, at(600))  # the close before its flag
    assert two.check_flag(at(600)) and (two.outcome, two.reason) == (Outcome.DRAW, "tournament_closed")
