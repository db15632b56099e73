"""Entries of a group-playoff event over HTTP (RULES.md §5): the entry window with its closing date, the
rating window, arrival order with the organiser's confirmations and refusals, non-creators last, the
first eight and the waiting list, the replacement before the start, and the start with the groups' lot."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest

from services.registration.domain import errors
from services.registration.domain.group_playoff import (
    GroupFormat,
    all_lower_case,
    check_entry,
    field,
    validate,
)
from services.registration.tests.helpers import NOW, STAFF, problem, published, token
from shared.time_control import RateOfPlay

CLOSES = NOW + dt.timedelta(days=14)
CORRESPONDENCE = RateOfPlay(0, 0, 2)


def account(client, name: str, rating: int | None) -> uuid.UUID:
    body = {"name": name, "kind": "registered", "ratings": {"chess:correspondence": rating} if rating else {}}
    r = client.post("/accounts", json=body, headers=token(STAFF, "service"))
    assert r.status_code == 201, r.json
    return uuid.UUID(r.json["id"])


def create_event(client, organiser: uuid.UUID, **group) -> str:
    body = {
        "name": "4T1 correspondence",
        "ruleset": "group-playoff",
        "time_control": {"base_seconds": 0, "increment_seconds": 0, "days_per_move": 2},
        "group_playoff": {"closes_at": CLOSES.isoformat(), "expected_start": "2026-06-20", **group},
    }
    r = client.post("/tournaments", json=body, headers=token(organiser))
    assert r.status_code == 201, r.json
    return r.json["id"]


def enter(client, tid: str, player: uuid.UUID, **body):
    return client.post(f"/tournaments/{tid}/entries", json=body, headers=token(player))


def test_the_rating_window_is_strict_and_a_setting() -> None:
    fmt = GroupFormat(CLOSES)
    check_entry(fmt, 1700, "chess:correspondence", NOW)
    check_entry(fmt, 2000, "chess:correspondence", NOW)
    for rating in (1699, 2001, None):
        with pytest.raises(errors.RatingOutsideWindow, match="strictly between 1699 and 2001"):
            check_entry(fmt, rating, "chess:correspondence", NOW)
    check_entry(GroupFormat(CLOSES, rating_above=1499, rating_below=1801), 1500, "k", NOW)
    with pytest.raises(errors.RegistrationClosed):
        check_entry(fmt, 1800, "k", CLOSES)


def test_an_entry_written_all_in_lower_case_is_not_accepted_4t1_3_3() -> None:
    fmt = GroupFormat(CLOSES)
    for name in ("thommytulpe", "anna-lena 2", "émile"):
        assert all_lower_case(name)
        with pytest.raises(errors.EntryAllLowerCase, match=r"4T1 §3\(3\)"):
            check_entry(fmt, 1800, "chess:correspondence", NOW, name)
    for name in ("ThommyTulpe", "anna Lena", "Émile", "1234", "", "李娜", "mc Adam"):
        assert not all_lower_case(name)
        check_entry(fmt, 1800, "chess:correspondence", NOW, name)
    with pytest.raises(errors.RegistrationClosed):  # the closing date first: nothing is open any more
        check_entry(fmt, 1800, "k", CLOSES, "late")


def test_settings_need_a_future_closing_date_a_window_and_correspondence() -> None:
    with pytest.raises(errors.InvalidSettings, match="has passed"):
        validate(GroupFormat(NOW), CORRESPONDENCE, NOW)
    with pytest.raises(errors.InvalidSettings, match="no rating lies"):
        validate(GroupFormat(CLOSES, rating_above=1800, rating_below=1801), CORRESPONDENCE, NOW)
    with pytest.raises(errors.InvalidSettings, match="correspondence"):
        validate(GroupFormat(CLOSES), RateOfPlay(900, 10), NOW)
    with pytest.raises(errors.InvalidSettings, match="expected start"):
        validate(GroupFormat(CLOSES, expected_start=NOW.date()), CORRESPONDENCE, NOW)


def test_the_field_counts_arrival_with_non_creators_last() -> None:
    entries = [(f"p{i}", NOW + dt.timedelta(minutes=i), i not in (1, 4)) for i in range(11)]
    playing, waiting = field(entries, arrived=lambda e: e[1], creates_games=lambda e: e[2])
    assert [e[0] for e in playing] == ["p0", "p2", "p3", "p5", "p6", "p7", "p8", "p9"]
    assert [e[0] for e in waiting] == ["p10", "p1", "p4"]


def test_entries_confirmed_refused_waiting_replaced_and_started(client, svc, clock):
    org = account(client, "Organiser", None)
    tid = create_event(client, org)
    players = [account(client, f"P{i}", 1710 + 10 * i) for i in range(11)]
    for p in players[:10]:
        assert enter(client, tid, p).status_code == 201
    assert enter(client, tid, players[10], creates_games=False).status_code == 201
    # bad input: outside the window (422 stating it), a second entry (409)
    low = account(client, "Low", 1699)
    body = problem(enter(client, tid, low), 422, "rating-outside-window")
    assert "strictly between 1699 and 2001" in body["detail"]
    problem(enter(client, tid, players[0]), 409, "already-joined")
    body = problem(enter(client, tid, account(client, "thommytulpe", 1800)), 422, "entry-all-lower-case")
    assert "4T1 §3(3)" in body["detail"] and "'thommytulpe'" in body["detail"]
    assert published(svc, "player.joined") == []  # nobody confirmed yet
    # the organiser confirms nine and refuses one; an arbiter-less stranger may not
    problem(
        client.post(f"/tournaments/{tid}/entries/{players[0]}/confirm", headers=token(players[1])),
        403,
        "not-an-arbiter-here",
    )
    for p in [*players[:9], players[10]]:
        assert client.post(f"/tournaments/{tid}/entries/{p}/confirm", headers=token(org)).status_code == 200
    refused = client.post(
        f"/tournaments/{tid}/entries/{players[9]}/refuse", json={"reason": "late"}, headers=token(org)
    )
    assert refused.status_code == 200
    group = refused.json["group_playoff"]
    assert group["playing"] == [str(p) for p in players[:8]]
    assert group["waiting"] == [str(players[8]), str(players[10])]  # the non-creator last
    # a confirmed player withdraws before the start: the next on the waiting list plays
    assert (
        client.delete(f"/tournaments/{tid}/entries/{players[2]}", headers=token(players[2])).status_code
        == 200
    )
    group = client.get(f"/tournaments/{tid}").json["group_playoff"]
    assert group["playing"] == [str(p) for p in [*players[:2], *players[3:9]]]
    assert group["waiting"] == [str(players[10])]
    # the closing date passes; the organiser starts it with the eight
    clock.advance(15 * 24 * 3600)
    problem(enter(client, tid, account(client, "Late", 1800)), 409, "registration-closed")
    started = client.post(f"/tournaments/{tid}/start", headers=token(org))
    assert started.status_code == 200, started.json
    (event,) = published(svc, "tournament.started")
    roster = event.payload["roster"]
    assert [r["player_id"] for r in roster] == [str(p) for p in reversed([*players[:2], *players[3:9]])]
    assert all("creates_games" not in r for r in roster)  # the eight all create games: said by leaving it out
    settings = event.payload["settings"]
    assert settings["ruleset"] == "group-playoff" and settings["time_control"]["days_per_move"] == 2
    assert settings["group_playoff"]["drawn_by"] == str(org)
    assert isinstance(settings["group_playoff"]["lot_seed"], int)  # drawn now, recorded
    assert (
        client.get(f"/tournaments/{tid}").json["group_playoff"]["lot_seed"]
        == settings["group_playoff"]["lot_seed"]
    )


def test_a_group_playoff_event_starts_with_eight_confirmed(client, svc):
    org = account(client, "Organiser", None)
    tid = create_event(client, org)
    for i in range(7):
        p = account(client, f"P{i}", 1800)
        enter(client, tid, p)
        client.post(f"/tournaments/{tid}/entries/{p}/confirm", headers=token(org))
    problem(client.post(f"/tournaments/{tid}/start", headers=token(org)), 409, "conflict")


def test_the_roster_says_who_cannot_create_games(client, svc, clock):
    """4T1 §4(5): the other player invites where the first named cannot create games; pairing learns it
    from ``tournament.started``'s roster (``creates_games``), as the player said it at entry."""
    org = account(client, "Organiser", None)
    tid = create_event(client, org)
    players = [account(client, f"P{i}", 1800 + 10 * i) for i in range(8)]
    for i, p in enumerate(players):
        assert enter(client, tid, p, creates_games=i != 3).status_code == 201
        assert client.post(f"/tournaments/{tid}/entries/{p}/confirm", headers=token(org)).status_code == 200
    clock.advance(15 * 24 * 3600)
    assert client.post(f"/tournaments/{tid}/start", headers=token(org)).status_code == 200
    (event,) = published(svc, "tournament.started")
    cannot = [r["player_id"] for r in event.payload["roster"] if not r.get("creates_games", True)]
    assert cannot == [str(players[3])]
    assert [r.get("creates_games") for r in event.payload["roster"]].count(False) == 1  # written where false
