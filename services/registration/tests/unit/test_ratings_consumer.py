"""Registration's ratings (RULES.md §2 "Rating"): ``game.finished`` moves both players' Glicko-2 ratings
in the tournament's variant and speed class when the game is rated, and publishes ``rating.updated``;
games that are not rated move nothing. On the in-memory fakes, through the subscription bootstrap
builds."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest

from services.registration.domain.rating import NEWCOMER, Glicko2Rating, rate_game
from services.registration.service_layer import commands
from services.registration.tests.helpers import NOW
from services.registration.tests.helpers import InMemoryRegistration as Registration
from shared import events
from shared.events import GameOutcome


@pytest.fixture
def reg() -> Registration:
    return Registration()


def started(
    reg: Registration, ratings=(1700, None, 1500, 1500), **settings
) -> tuple[uuid.UUID, list[uuid.UUID]]:
    org = reg.account("Org")
    tid = reg.platform(org, **settings)
    players = [reg.account(f"P{i}", {} if r is None else {"chess:blitz": r}) for i, r in enumerate(ratings)]
    for p in players:
        reg.join(tid, p)
    reg.clock.advance(30 * 60)
    assert reg.bus.handle(commands.StartDueTournaments()) == 1
    return tid, players


def finished(tid, white, black, outcome=GameOutcome.WHITE_WIN, *, game_id=None, **kw) -> events.GameFinished:
    return events.GameFinished(
        tournament_id=tid,
        game_id=game_id or uuid.uuid4(),
        round=1,
        white=white,
        black=black,
        outcome=outcome,
        reason=kw.pop("reason", "resignation"),
        moves=kw.pop("moves", 40),
        finished_at=NOW + dt.timedelta(hours=1),
        **kw,
    )


def shown(reg: Registration, account_id: uuid.UUID) -> dict[str, int]:
    with reg.db.uow() as uow:
        account = uow.accounts.get(account_id)
        assert account is not None
        return account.ratings


def test_a_rated_game_moves_both_ratings_by_the_glicko_2_step(reg):
    tid, players = started(reg)
    a, b = players[0], players[1]
    reg.hear(finished(tid, a, b, GameOutcome.BLACK_WIN, both_moved=True))
    want_a, want_b = rate_game(Glicko2Rating(1700.0), NEWCOMER, GameOutcome.BLACK_WIN)
    updates = {e.payload["account_id"]: e.payload for e in reg.published("rating.updated")}
    assert set(updates) == {str(a), str(b)}
    assert (updates[str(a)]["previous"], updates[str(a)]["rating"]) == (1700, round(want_a.rating))
    assert (updates[str(b)]["previous"], updates[str(b)]["rating"]) == (1500, round(want_b.rating))
    assert updates[str(a)]["key"] == "chess:blitz" and updates[str(a)]["games"] == 1
    assert updates[str(b)]["deviation"] == pytest.approx(want_b.deviation)
    assert updates[str(b)]["volatility"] == pytest.approx(want_b.volatility)
    assert round(want_a.rating) < 1700 and round(want_b.rating) > 1500  # the upset moves both
    assert shown(reg, a)["chess:blitz"] == round(want_a.rating)  # the floor reads the current rating
    assert shown(reg, b)["chess:blitz"] == round(want_b.rating)


def test_the_next_game_starts_from_the_ratings_after_the_last(reg):
    tid, players = started(reg)
    a, b = players[0], players[1]
    reg.hear(finished(tid, a, b, GameOutcome.DRAW))
    reg.hear(finished(tid, b, a, GameOutcome.DRAW))
    first_a, first_b = rate_game(Glicko2Rating(1700.0), NEWCOMER, GameOutcome.DRAW)
    second_b, second_a = rate_game(first_b, first_a, GameOutcome.DRAW)
    last = {e.payload["account_id"]: e.payload for e in reg.published("rating.updated")}
    assert last[str(a)]["rating"] == round(second_a.rating) and last[str(a)]["games"] == 2
    assert last[str(b)]["rating"] == round(second_b.rating)


@pytest.mark.parametrize(
    ("outcome", "kw", "why"),
    [
        (GameOutcome.WHITE_WIN, {"both_moved": False}, "one side never moved"),
        (GameOutcome.WHITE_WIN, {"moves": 1}, "one side never moved"),
        (GameOutcome.WHITE_FORFEIT_WIN, {"reason": "forfeit"}, "a player busy elsewhere"),
        (GameOutcome.DOUBLE_FORFEIT, {"reason": "forfeit"}, "both absent"),
        (GameOutcome.DRAW, {"rated": False}, "a tie-break or sudden-death game"),
    ],
)
def test_games_that_are_not_rated_move_nothing(reg, outcome, kw, why):
    tid, players = started(reg)
    a, b = players[0], players[1]
    reg.hear(finished(tid, a, b, outcome, **kw))
    assert reg.published("rating.updated") == [], why
    assert shown(reg, a) == {"chess:blitz": 1700} and shown(reg, b) == {}


def test_a_friendly_tournament_moves_no_rating(reg):
    tid, players = started(reg, rated=False)
    a, b = players[0], players[1]
    reg.hear(finished(tid, a, b))
    assert reg.published("rating.updated") == []


def test_a_game_heard_twice_is_rated_once(reg):
    tid, players = started(reg)
    c, d = players[2], players[3]
    game = finished(tid, c, d)
    reg.hear(game)
    reg.hear(game.model_copy())  # republished: a new envelope, the same game
    assert len(reg.published("rating.updated")) == 2


def test_a_game_of_a_tournament_registration_does_not_know_changes_nothing(reg):
    _, players = started(reg)
    reg.hear(finished(uuid.uuid4(), players[0], players[1]))
    assert reg.published("rating.updated") == []


def test_the_variant_and_speed_class_key_the_rating(reg):
    tid, players = started(reg, variant="russian")
    c, d = players[2], players[3]
    reg.hear(finished(tid, c, d))
    keys = {e.payload["key"] for e in reg.published("rating.updated")}
    assert keys == {"russian:blitz"}
    assert shown(reg, c)["russian:blitz"] > 1500 > shown(reg, d)["russian:blitz"]


def test_a_fide_rapid_game_moves_no_platform_rating(reg):
    """FIDE rates an over-the-board rapid event; the platform's ratings stay as they were."""
    org = reg.account("Arbiter")
    tid = reg.fide(org)
    a, b = reg.account("A", {"chess:rapid": 1800}), reg.account("B", {"chess:rapid": 1750})
    reg.join(tid, a, by=org)
    reg.join(tid, b, by=org)
    reg.hear(finished(tid, a, b, both_moved=True))
    assert reg.published("rating.updated") == []
    assert shown(reg, a) == {"chess:rapid": 1800} and shown(reg, b) == {"chess:rapid": 1750}


def test_a_group_playoff_game_moves_both_correspondence_ratings(reg):
    """Issue 11: the 4T1 event's correspondence games are rated, under the correspondence key."""
    org = reg.account("Organiser")
    tid = reg.group_playoff(org)
    a = reg.account("A", {"chess:correspondence": 1800})
    b = reg.account("B", {"chess:correspondence": 1750})
    reg.hear(finished(tid, a, b, GameOutcome.BLACK_WIN, moves=31))
    want_a, want_b = rate_game(Glicko2Rating(1800.0), Glicko2Rating(1750.0), GameOutcome.BLACK_WIN)
    updates = {e.payload["account_id"]: e.payload for e in reg.published("rating.updated")}
    assert {u["key"] for u in updates.values()} == {"chess:correspondence"}
    assert updates[str(a)]["rating"] == round(want_a.rating) < 1800
    assert updates[str(b)]["rating"] == round(want_b.rating) > 1750


def test_a_group_playoff_withdrawal_scored_0_2_moves_no_rating(reg):
    """A withdrawal's matches are scored 0:2 by forfeit: no game was played, nothing is rated."""
    org = reg.account("Organiser")
    tid = reg.group_playoff(org)
    a = reg.account("A", {"chess:correspondence": 1800})
    b = reg.account("B", {"chess:correspondence": 1750})
    reg.hear(finished(tid, a, b, GameOutcome.WHITE_FORFEIT_WIN, reason="withdrawal", moves=12))
    assert reg.published("rating.updated") == []
