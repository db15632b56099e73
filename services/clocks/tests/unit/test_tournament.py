"""What the clocks know of a tournament, on the aggregate alone: appointments in the order the organiser
decided them, withdrawals and the forfeits they make, and who decides about a game."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest

from services.clocks.domain import errors
from services.clocks.domain.clock import ClockRate
from services.clocks.domain.endings import Forfeit
from services.clocks.domain.game import Game, Outcome
from services.clocks.domain.tournament import ArbiterPost, Tournament, Withdrawal, deciding_role
from shared.authority import Appointment, Authority, Decided, Role
from shared.vocabulary import Ruleset

T0 = dt.datetime(2026, 6, 1, 12, 0, tzinfo=dt.UTC)
ORGANISER, ARBITER, WHITE, BLACK = (uuid.uuid4() for _ in range(4))


def at(seconds: float) -> dt.datetime:
    return T0 + dt.timedelta(seconds=seconds)


def game(white: uuid.UUID = WHITE, black: uuid.UUID = BLACK) -> Game:
    return Game.pair(
        game_id=uuid.uuid4(),
        tournament_id=uuid.uuid4(),
        organiser_id=ORGANISER,
        round=1,
        board=1,
        white=white,
        black=black,
        control=ClockRate(180, 0),
        at=T0,
    )


def test_the_start_names_the_organiser_and_the_ruleset():
    t = Tournament(uuid.uuid4())
    assert t.organiser_id is None and t.players_run_games is False
    assert t.start(ORGANISER, Ruleset.GROUP_PLAYOFF) is True
    assert t.start(ORGANISER, Ruleset.GROUP_PLAYOFF) is False  # redelivered: nothing new
    assert (t.organiser_id, t.players_run_games) == (ORGANISER, True)
    assert Tournament(uuid.uuid4(), ORGANISER, Ruleset.PLATFORM).players_run_games is False


def test_appointments_for_the_tournament_or_named_games_and_revocation():
    t = Tournament(uuid.uuid4(), ORGANISER, Ruleset.KNOCKOUT)
    one, other = uuid.uuid4(), uuid.uuid4()
    assert t.appoint(ARBITER, frozenset({one}), at(1)) is True
    authority = t.authority(ORGANISER)
    assert authority.is_arbiter(ARBITER, one) and not authority.is_arbiter(ARBITER, other)
    assert t.appoint(ARBITER, None, at(2)) is True  # the new scope replaces the old
    assert t.authority(ORGANISER).is_arbiter(ARBITER, other)
    assert t.revoke(ARBITER, at(3)) is True
    assert not t.authority(ORGANISER).is_arbiter(ARBITER, one)
    assert [type(c) for c in t.collect_changes()] == [ArbiterPost, ArbiterPost, ArbiterPost]


def test_a_decision_arriving_late_changes_nothing():
    t = Tournament(uuid.uuid4())
    assert t.revoke(ARBITER, at(5)) is True  # the revocation overtook its appointment
    assert t.appoint(ARBITER, None, at(4)) is False
    assert not t.authority(ORGANISER).is_arbiter(ARBITER)
    assert t.appoint(ARBITER, None, at(6)) is True  # appointed again, later
    assert t.authority(ORGANISER).is_arbiter(ARBITER)


def test_before_the_start_the_games_organiser_stands_in():
    t = Tournament(uuid.uuid4())
    t.appoint(ARBITER, None, at(1))
    authority = t.authority(ORGANISER)
    assert authority.is_organiser(ORGANISER) and authority.is_arbiter(ARBITER)


def test_a_player_withdraws_once():
    t = Tournament(uuid.uuid4())
    decision = Decided(ORGANISER, Role.ORGANISER, at(1), "ill")
    assert t.withdraw(Withdrawal(WHITE, False, "ill", decision)) is True
    assert t.withdraw(Withdrawal(WHITE, True, "again", decision)) is False
    assert t.withdrawn[WHITE].excluded is False and len(t.collect_changes()) == 1


def test_the_forfeits_a_withdrawal_makes():
    t = Tournament(uuid.uuid4())
    withdrew = Decided(ORGANISER, Role.ARBITER, at(1), "ill")
    excluded = Decided(ORGANISER, Role.ORGANISER, at(2), "misconduct")
    assert t.forfeit_of(game()) is None
    t.withdraw(Withdrawal(WHITE, False, "ill", withdrew))
    assert t.forfeit_of(game()) == Forfeit(Outcome.BLACK_FORFEIT_WIN, "withdrawal", withdrew)
    assert t.forfeit_of(game(BLACK, WHITE)) == Forfeit(Outcome.WHITE_FORFEIT_WIN, "withdrawal", withdrew)
    t.withdraw(Withdrawal(BLACK, True, "misconduct", excluded))
    assert t.forfeit_of(game()) == Forfeit(Outcome.DOUBLE_FORFEIT, "withdrawal", withdrew)  # White's first
    assert t.forfeit_of(game(), cause=BLACK) == Forfeit(Outcome.DOUBLE_FORFEIT, "exclusion", excluded)


def authority() -> Authority:
    return Authority.of(ORGANISER, [Appointment(ARBITER)])


@pytest.mark.parametrize(
    ("actor", "service", "arbiter_token", "result", "expected"),
    [
        (ORGANISER, False, False, True, Role.ORGANISER),
        (ORGANISER, False, False, False, Role.ORGANISER),
        (ARBITER, False, True, True, Role.ARBITER),
        (ARBITER, False, False, False, Role.ARBITER),  # the appointment counts, not the token
        (uuid.uuid4(), True, False, True, Role.SERVICE),
        (uuid.uuid4(), True, False, False, errors.NotOrganiser),  # the game server swaps no colours
        (uuid.uuid4(), False, True, True, errors.NotAnArbiterHere),
        (uuid.uuid4(), False, True, False, errors.NotAnArbiterHere),
        (uuid.uuid4(), False, False, True, errors.NotYourGame),
        (uuid.uuid4(), False, False, False, errors.NotOrganiser),
        (WHITE, False, True, False, errors.OwnGame),
    ],
)
def test_who_decides_about_a_game(actor, service, arbiter_token, result, expected):
    def decide() -> Role:
        return deciding_role(
            game(), actor, service=service, arbiter_token=arbiter_token, authority=authority, result=result
        )

    if isinstance(expected, Role):
        assert decide() is expected
    else:
        with pytest.raises(expected):
            decide()


def test_an_arbiter_named_for_other_games_is_out_of_scope():
    g = game()
    scoped = Tournament(uuid.uuid4(), ORGANISER)
    scoped.appoint(ARBITER, frozenset({uuid.uuid4()}), at(1))
    with pytest.raises(errors.NotAnArbiterHere):
        deciding_role(
            g, ARBITER, service=False, arbiter_token=True, authority=lambda: scoped.authority(ORGANISER)
        )
    scoped.appoint(ARBITER, frozenset({g.id}), at(2))
    assert (
        deciding_role(
            g, ARBITER, service=False, arbiter_token=True, authority=lambda: scoped.authority(ORGANISER)
        )
        is Role.ARBITER
    )


def test_the_organiser_and_the_game_server_need_no_lookup():
    def no_lookup() -> Authority:
        raise AssertionError("asked")

    g = game()
    assert (
        deciding_role(g, ORGANISER, service=False, arbiter_token=False, authority=no_lookup) is Role.ORGANISER
    )
    assert (
        deciding_role(g, uuid.uuid4(), service=True, arbiter_token=False, authority=no_lookup) is Role.SERVICE
    )
