"""The registration rules, on the domain objects alone."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest

from services.registration.domain import errors, events, rulesets
from services.registration.domain.account import Account, AccountKind
from services.registration.domain.entries import seed
from services.registration.domain.rulesets.arena import ARENA_SEATS
from services.registration.domain.tournament import RateOfPlay, Settings, Status, Tournament
from shared.vocabulary import CancelReason, Ruleset

NOW = dt.datetime(2026, 6, 1, 12, 0, tzinfo=dt.UTC)


def settings(**kw) -> Settings:
    base = dict(name="Sunday blitz", starts_at=NOW + dt.timedelta(hours=1), time_control=RateOfPlay(180, 2))
    base.update(kw)
    return Settings(**base)


def account(name="Ann", kind=AccountKind.REGISTERED, rating=None) -> Account:
    return Account(uuid.uuid4(), name, kind, {"chess:blitz": rating} if rating else {})


def tournament(**kw) -> Tournament:
    return rulesets.create(account("Org"), settings(**kw), now=NOW)


@pytest.mark.parametrize(
    ("kw", "error"),
    [
        ({"seats": 3}, "seats must be 4–200"),
        ({"seats": 201}, "seats must be 4–200"),
        ({"minimum": 3}, "the minimum must be 4–"),
        ({"seats": 10, "minimum": 11}, "the minimum must be 4–10"),
        ({"threshold": 6}, "threshold must be 7–20"),
        ({"threshold": 21}, "threshold must be 7–20"),
        ({"starts_at": NOW + dt.timedelta(minutes=4)}, "5 min to 14 days ahead"),
        ({"starts_at": NOW + dt.timedelta(days=14, seconds=1)}, "5 min to 14 days ahead"),
        ({"min_rating": 1050}, "steps of 100"),
        ({"min_rating": 2100}, "1000–2000"),
        ({"min_rating": 1500, "rated": False}, "only rated"),
        ({"ruleset": Ruleset.GROUP_PLAYOFF}, "needs its group_playoff settings"),
    ],
)
def test_settings_are_validated(kw, error):
    with pytest.raises(errors.InvalidSettings, match=error):
        tournament(**kw)


@pytest.mark.parametrize(
    ("kw", "error"),
    [
        ({"starts_at": None}, "an arena needs its start time"),
        ({"name": " "}, "an arena needs a name"),
        ({"seats": 3}, "not an arena setting: seats"),
        ({"minimum": 10, "threshold": 12}, "not an arena setting: minimum, threshold"),
        ({"starts_at": NOW + dt.timedelta(minutes=4)}, "5 min to 14 days ahead"),
        ({"min_rating": 1500, "rated": False}, "only rated"),
        ({"arena_minutes": 9}, "10 minutes to 8 hours"),
    ],
)
def test_arena_settings_are_validated_as_an_arena_s(kw, error):
    """An arena is validated on its own path, not as a platform tournament with made-up seats: the
    messages name the arena, and the platform's settings are refused instead of overwritten."""
    with pytest.raises(errors.InvalidSettings, match=error):
        tournament(**{"ruleset": Ruleset.ARENA, "arena_minutes": 60, **kw})


def test_an_arena_keeps_its_ruleset_and_has_no_seat_limit():
    arena = tournament(ruleset=Ruleset.ARENA, arena_minutes=60)
    assert (arena.ruleset, arena.seats, arena.minimum) == (Ruleset.ARENA, ARENA_SEATS, 0)


def test_start_window_edges_are_inclusive():
    assert tournament(starts_at=NOW + dt.timedelta(minutes=5)).status is Status.SCHEDULED
    assert tournament(starts_at=NOW + dt.timedelta(days=14)).status is Status.SCHEDULED


@pytest.mark.parametrize("kind", [AccountKind.GUEST, AccountKind.COMPUTER])
def test_guests_and_computers_neither_create_nor_join(kind):
    with pytest.raises(errors.AccountKindRefused):
        rulesets.create(account(kind=kind), settings(), now=NOW)
    with pytest.raises(errors.AccountKindRefused):
        tournament().join(account(kind=kind), now=NOW)


def test_busy_organiser_is_refused():
    with pytest.raises(errors.OrganiserBusy):
        rulesets.create(account(), settings(), now=NOW, organiser_busy=True)


def test_join_and_leave_until_the_start():
    t = tournament(seats=4)
    players = [account(f"P{i}") for i in range(4)]
    for p in players:
        t.join(p, now=NOW)
    with pytest.raises(errors.TournamentFull):
        t.join(account("late"), now=NOW)
    with pytest.raises(errors.AlreadyJoined):
        t.join(players[0], now=NOW)
    t.leave(players[0].id, now=NOW)
    assert len(t.entries) == 3
    with pytest.raises(errors.NotJoined):
        t.leave(players[0].id, now=NOW)
    with pytest.raises(errors.RegistrationClosed):
        t.join(players[0], now=t.starts_at)
    with pytest.raises(errors.RegistrationClosed):
        t.leave(players[1].id, now=t.starts_at)


def test_private_and_rating_floor():
    t = tournament(password="s3cret", min_rating=1500)
    with pytest.raises(errors.WrongPassword):
        t.join(account(rating=1600), now=NOW, password="guess")
    with pytest.raises(errors.RatingTooLow, match="at least 1500"):
        t.join(account(rating=1400), now=NOW, password="s3cret")
    with pytest.raises(errors.RatingTooLow, match="yours: none"):
        t.join(account(), now=NOW, password="s3cret")
    t.join(account(rating=1500), now=NOW, password="s3cret")
    assert t.password_hash and "s3cret" not in t.password_hash


def test_start_cancels_below_the_minimum():
    t = tournament(minimum=5)
    for i in range(4):
        t.join(account(f"P{i}"), now=NOW)
    assert t.start(t.starts_at) is None
    assert t.status is Status.CANCELLED
    assert t.status_reason == "too few players: 4 present, at least 5 needed"


def test_start_seeds_by_rating_unrated_last_ties_by_name():
    t = tournament()
    for name, rating in [("Bea", 1500), ("Ann", 1500), ("Cid", None), ("Dan", 1900), ("Eve", 1200)]:
        t.join(account(name, rating=rating), now=NOW)
    roster = t.start(t.starts_at)
    assert roster is not None and t.status is Status.STARTED
    assert [(s.seed, s.name) for s in roster] == [(1, "Dan"), (2, "Ann"), (3, "Bea"), (4, "Eve"), (5, "Cid")]
    with pytest.raises(errors.CannotCancel):
        t.cancel(now=t.starts_at)


def test_seed_is_stable_for_equal_entries():
    t = tournament()
    for i in range(6):
        t.join(account("Same", rating=1500), now=NOW + dt.timedelta(seconds=i))
    assert [s.player_id for s in seed(t.entries)] == [e.player_id for e in t.entries]


def test_the_tournament_records_what_happens_to_it():
    t = tournament(seats=4, threshold=9)
    (scheduled,) = t.collect_events()
    assert scheduled == events.TournamentScheduled(
        t.id, t.organiser_id, "Sunday blitz", t.starts_at, 4, 4, t.play_settings()
    )
    assert scheduled.settings.ruleset is Ruleset.PLATFORM and scheduled.settings.bracket is None
    ann, bea = account("Ann", rating=1500), account("Bea")
    t.join(ann, now=NOW)
    t.join(bea, now=NOW)
    t.leave(bea.id, now=NOW)
    with pytest.raises(errors.AlreadyJoined):  # a refused change records nothing
        t.join(ann, now=NOW)
    assert t.collect_events() == [  # each roster change is the next roster revision, and says so
        events.PlayerJoined(t.id, ann.id, "Ann", 1500, roster_revision=1),
        events.PlayerJoined(t.id, bea.id, "Bea", None, roster_revision=2),
        events.PlayerLeft(t.id, bea.id, roster_revision=3),
    ]
    assert t.roster_revision == 3  # the refused join produced none
    for i in range(3):
        t.join(account(f"P{i}"), now=NOW)
    t.collect_events()
    roster = t.start(t.starts_at)
    assert t.collect_events() == [
        events.TournamentStarted(
            t.id, t.organiser_id, t.name, t.starts_at, t.play_settings(), tuple(roster), roster_revision=7
        )
    ]
    assert t.collect_events() == [] and t.roster_revision == 7


def test_a_cancellation_records_why():
    t = tournament()
    t.collect_events()
    t.cancel(now=NOW)
    assert t.collect_events() == [
        events.TournamentCancelled(t.id, CancelReason.ORGANISER, "cancelled by the organiser", 0)
    ]
    few = tournament(minimum=5)
    few.join(account(), now=NOW)
    few.collect_events()
    assert few.start(few.starts_at) is None
    assert few.collect_events() == [
        events.TournamentCancelled(
            few.id, CancelReason.TOO_FEW_PLAYERS, "too few players: 1 present, at least 5 needed", 1
        )
    ]


def test_the_roster_changes_are_what_the_repository_must_write():
    t = tournament()
    saved, gone, fleeting = account("Saved"), account("Gone"), account("Fleeting")
    t.join(saved, now=NOW)
    t.join(gone, now=NOW)
    first = t.collect_roster_changes()
    assert list(first.added) == [saved.id, gone.id] and not first.removed
    t.leave(gone.id, now=NOW)
    t.join(fleeting, now=NOW)
    t.leave(fleeting.id, now=NOW)  # entered and left before any save: nothing to write
    second = t.collect_roster_changes()
    assert (second.added, second.removed, second.rerated) == ({}, {gone.id}, {})
    assert t.collect_roster_changes() == type(second)()
