"""Knockout and double-knockout drafts over HTTP with the embedded adapters (RULES.md §4): the organiser
keeps the roster, changes the settings while it is a draft and starts it; the roster is seeded by
rating, a custom order or a recorded random draw."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest

from services.registration.domain import errors, rulesets
from services.registration.domain.account import Account
from services.registration.domain.knockout import KnockoutFormat
from services.registration.domain.rulesets import knockout as knockouts
from services.registration.domain.tournament import RateOfPlay, Settings
from services.registration.tests.helpers import NOW, problem, published, register, token
from shared.events import TournamentStarted
from shared.seed_draw import draw_order
from shared.vocabulary import Ruleset


def draft(client, organiser, ruleset="knockout", **kw):
    body = {"name": "Club knockout", "ruleset": ruleset, "time_control": {"base_seconds": 600}}
    body.update(kw)
    return client.post("/tournaments", json=body, headers=token(organiser))


def add(client, tid, organiser, player):
    return client.post(
        f"/tournaments/{tid}/entries", json={"player_id": str(player)}, headers=token(organiser)
    )


def roster(client, n: int, rating_of=lambda i: 2000 - 10 * i) -> list[uuid.UUID]:
    """n accounts, rated in rapid (10+0) by ``rating_of`` and 1500 in blitz."""
    ids = []
    for i in range(1, n + 1):
        body = {"name": f"P{i}", "ratings": {"chess:rapid": rating_of(i), "chess:blitz": 1500}}
        r = client.post("/accounts", json=body, headers=token(uuid.uuid4(), "service"))
        ids.append(uuid.UUID(r.json["id"]))
    return ids


def started_roster(svc) -> list[tuple[int, uuid.UUID, int | None]]:
    event = TournamentStarted.model_validate(published(svc, "tournament.started")[-1].payload)
    return [(r.seed, r.player_id, r.rating) for r in event.roster]


def test_a_draft_with_the_default_format(client, svc):
    org = register(client, "Org")
    r = draft(client, org)
    assert r.status_code == 201, r.json
    body = r.json
    assert (body["status"], body["starts_at"], body["ruleset"], body["seats"]) == (
        "draft",
        None,
        "knockout",
        128,
    )
    assert body["knockout"] == {
        "games_per_match": 2,
        "seeding": "rating",
        "custom_order": [],
        "third_place": False,
        "second_final": True,
        "tiebreak_plan": {
            "stages": [
                {"games": 2, "time_control": {"base_seconds": 900, "increment_seconds": 10}},
                {"games": 2, "time_control": {"base_seconds": 300, "increment_seconds": 3}},
            ],
            "sudden_death": {"base_seconds": 180, "increment_seconds": 2},
        },
        "draw_seed": None,
        "draw_order": None,
    }
    assert published(svc, "tournament.scheduled") == []  # nothing is scheduled
    assert client.get("/tournaments?status=draft").json["tournaments"][0]["id"] == body["id"]
    assert draft(client, org, "double-knockout").json["seats"] == 64


def test_the_organiser_keeps_the_roster(client, svc):
    org, other = register(client, "Org"), register(client, "Other")
    guest = register(client, "Guest", kind="guest")
    players = roster(client, 5)
    tid = draft(client, org).json["id"]
    for p in players:
        assert add(client, tid, org, p).status_code == 201
    entered = client.get(f"/tournaments/{tid}").json["entries"]
    assert sorted(e["player_id"] for e in entered) == sorted(str(p) for p in players)
    assert len(published(svc, "player.joined")) == 5
    problem(
        client.post(f"/tournaments/{tid}/entries", json={}, headers=token(other)),
        403,
        "roster-kept-by-organiser",
    )
    problem(add(client, tid, other, other), 403, "roster-kept-by-organiser")
    problem(add(client, tid, org, guest), 403, "account-kind-refused")
    problem(add(client, tid, org, players[0]), 409, "already-joined")
    problem(add(client, tid, org, uuid.uuid4()), 404, "account-not-found")
    problem(
        client.delete(f"/tournaments/{tid}/entries/{players[1]}", headers=token(players[1])),
        403,
        "not-organiser",
    )
    r = client.delete(f"/tournaments/{tid}/entries/{players[1]}", headers=token(org))
    assert r.status_code == 200 and len(r.json["entries"]) == 4
    # the arbiter role of a token grants nothing by itself; an arbiter the organiser appointed for the
    # whole tournament keeps the roster with them
    arbiter = register(client, "Arbiter")
    problem(add(client, tid, arbiter, players[1]), 403, "roster-kept-by-organiser")
    problem(
        client.post(
            f"/tournaments/{tid}/entries",
            json={"player_id": str(players[1])},
            headers=token(arbiter, "arbiter"),
        ),
        403,
        "roster-kept-by-organiser",
    )
    r = client.post(f"/tournaments/{tid}/arbiters", json={"account_id": str(arbiter)}, headers=token(org))
    assert r.status_code == 201, r.json
    assert add(client, tid, arbiter, players[1]).status_code == 201
    r = client.delete(f"/tournaments/{tid}/entries/{players[2]}", headers=token(arbiter))
    assert r.status_code == 200 and len(r.json["entries"]) == 4


def test_settings_change_only_while_a_draft(client, svc):
    org, other = register(client, "Org"), register(client, "Other")
    tid = draft(client, org).json["id"]
    plan = {"stages": [{"games": 1, "time_control": {"base_seconds": 300, "increment_seconds": 2}}],
            "sudden_death": {"base_seconds": 120, "increment_seconds": 1}}  # fmt: skip
    r = client.patch(
        f"/tournaments/{tid}",
        json={
            "name": "Renamed",
            "knockout": {"games_per_match": 4, "third_place": True, "tiebreak_plan": plan},
        },
        headers=token(org),
    )
    assert r.status_code == 200, r.json
    assert (r.json["name"], r.json["knockout"]["games_per_match"], r.json["knockout"]["third_place"]) == (
        "Renamed",
        4,
        True,
    )
    assert r.json["knockout"]["tiebreak_plan"] == plan
    problem(client.patch(f"/tournaments/{tid}", json={"knockout": {"games_per_match": 3}}, headers=token(org)),
            422, "invalid-settings")  # fmt: skip
    problem(
        client.patch(f"/tournaments/{tid}", json={"name": "x"}, headers=token(other)), 403, "not-organiser"
    )
    problem(
        client.patch(f"/tournaments/{uuid.uuid4()}", json={}, headers=token(org)), 404, "tournament-not-found"
    )
    problem(
        client.patch(f"/tournaments/{tid}", json={"seats": 8}, headers=token(org)), 422, "validation-error"
    )
    dk = draft(client, org, "double-knockout").json["id"]
    problem(client.patch(f"/tournaments/{dk}", json={"knockout": {"third_place": True}}, headers=token(org)),
            422, "invalid-settings")  # fmt: skip


def test_start_seeds_by_rating_in_the_tournaments_time_control(client, svc):
    org = register(client, "Org")
    # rapid ratings give the seeds 1..5 in order; everybody's blitz rating is equal
    players = roster(client, 5)
    tid = draft(client, org, time_control={"base_seconds": 180, "increment_seconds": 2}).json["id"]
    for p in reversed(players):
        add(client, tid, org, p)
    problem(
        client.post(f"/tournaments/{tid}/start", headers=token(register(client, "X"))), 403, "not-organiser"
    )
    client.patch(f"/tournaments/{tid}", json={"time_control": {"base_seconds": 600}}, headers=token(org))
    r = client.post(f"/tournaments/{tid}/start", headers=token(org))
    assert r.status_code == 200, r.json
    assert r.json["status"] == "started" and r.json["starts_at"] == NOW.isoformat().replace("+00:00", "Z")
    assert started_roster(svc) == [(i, p, 2000 - 10 * i) for i, p in enumerate(players, start=1)]
    settings = published(svc, "tournament.started")[-1].payload["settings"]
    assert settings["ruleset"] == "knockout" and settings["knockout"]["format"] == "knockout"
    assert settings["knockout"]["seeding"] == "rating" and settings["knockout"]["games_per_match"] == 2
    # the roster and the settings are fixed now
    problem(client.post(f"/tournaments/{tid}/start", headers=token(org)), 409, "not-a-draft")
    problem(client.patch(f"/tournaments/{tid}", json={"name": "x"}, headers=token(org)), 409, "not-a-draft")
    problem(add(client, tid, org, register(client, "Late")), 409, "not-a-draft")
    problem(client.delete(f"/tournaments/{tid}/entries/{players[0]}", headers=token(org)), 409, "not-a-draft")
    problem(client.post(f"/tournaments/{tid}/cancel", headers=token(org)), 409, "cannot-cancel")


def test_too_few_players_cannot_start(client, svc):
    org = register(client, "Org")
    tid = draft(client, org).json["id"]
    for p in roster(client, 3):
        add(client, tid, org, p)
    body = problem(client.post(f"/tournaments/{tid}/start", headers=token(org)), 409, "too-few-players")
    assert body["detail"] == "a knockout needs at least 4 players; the roster has 3"
    assert published(svc, "tournament.started") == []


def test_a_custom_order_must_name_every_player(client, svc):
    org = register(client, "Org")
    players = roster(client, 4)
    tid = draft(client, org).json["id"]
    for p in players[:3]:
        add(client, tid, org, p)
    order = [players[2], players[0], players[1]]
    problem(
        client.patch(
            f"/tournaments/{tid}",
            json={"knockout": {"seeding": "custom", "custom_order": [str(p) for p in players]}},
            headers=token(org),
        ),
        422,
        "invalid-settings",
    )  # fmt: skip  (players[3] is not entered)
    r = client.patch(
        f"/tournaments/{tid}",
        json={"knockout": {"seeding": "custom", "custom_order": [str(p) for p in order]}},
        headers=token(org),
    )
    assert r.status_code == 200 and r.json["knockout"]["custom_order"] == [str(p) for p in order]
    add(client, tid, org, players[3])
    body = problem(client.post(f"/tournaments/{tid}/start", headers=token(org)), 409, "seeding-incomplete")
    assert str(players[3]) in body["detail"]
    client.delete(f"/tournaments/{tid}/entries/{players[0]}", headers=token(org))  # leaves the order too
    assert client.get(f"/tournaments/{tid}").json["knockout"]["custom_order"] == [
        str(players[2]),
        str(players[1]),
    ]
    client.patch(
        f"/tournaments/{tid}",
        json={"knockout": {"custom_order": [str(p) for p in (players[3], players[2], players[1])]}},
        headers=token(org),
    )
    add(client, tid, org, players[0])
    problem(client.post(f"/tournaments/{tid}/start", headers=token(org)), 409, "seeding-incomplete")
    client.patch(
        f"/tournaments/{tid}",
        json={
            "knockout": {"custom_order": [str(p) for p in (players[3], players[2], players[1], players[0])]}
        },
        headers=token(org),
    )
    assert client.post(f"/tournaments/{tid}/start", headers=token(org)).status_code == 200
    assert [pid for _, pid, _ in started_roster(svc)] == [players[3], players[2], players[1], players[0]]


def test_a_random_seeding_is_drawn_at_the_start_and_kept(client, svc):
    org = register(client, "Org")
    players = roster(client, 8)
    tid = draft(client, org, "double-knockout", knockout={"seeding": "random"}).json["id"]
    for p in players:
        add(client, tid, org, p)
    r = client.post(f"/tournaments/{tid}/start", headers=token(org))
    draw_seed = r.json["knockout"]["draw_seed"]
    assert isinstance(draw_seed, int)
    order = [pid for _, pid, _ in started_roster(svc)]
    assert [str(p) for p in order] == list(draw_order((str(p) for p in players), draw_seed))
    settings = published(svc, "tournament.started")[-1].payload["settings"]["knockout"]
    assert (settings["format"], settings["seeding"], settings["draw_seed"]) == (
        "double_knockout",
        "random",
        draw_seed,
    )
    assert client.get(f"/tournaments/{tid}").json["knockout"]["draw_seed"] == draw_seed


def test_platform_and_knockout_settings_do_not_mix(client, svc):
    org = register(client, "Org")
    starts = (NOW + dt.timedelta(minutes=30)).isoformat()
    problem(draft(client, org, starts_at=starts), 422, "invalid-settings")
    problem(draft(client, org, seats=16), 422, "invalid-settings")
    problem(draft(client, org, password="x"), 422, "invalid-settings")
    problem(draft(client, org, knockout={"games_per_match": 5}), 422, "invalid-settings")
    problem(draft(client, org, "double-knockout", knockout={"third_place": True}), 422, "invalid-settings")
    problem(draft(client, org, knockout={"second_final": False}), 422, "invalid-settings")
    problem(draft(client, org, ruleset="platform"), 422, "invalid-settings")  # no start time
    problem(draft(client, org, ruleset="platform", starts_at=starts, knockout={}), 422, "invalid-settings")
    platform = draft(client, org, ruleset="platform", starts_at=starts).json["id"]
    problem(client.post(f"/tournaments/{platform}/start", headers=token(org)), 409, "not-a-draft")
    problem(
        client.patch(f"/tournaments/{platform}", json={"name": "x"}, headers=token(org)), 409, "not-a-draft"
    )


def test_knockouts_are_not_bound_by_the_one_running_competition_rule(client, svc):
    org = register(client, "Org")
    starts = (NOW + dt.timedelta(minutes=30)).isoformat()
    assert draft(client, org, ruleset="platform", starts_at=starts).status_code == 201
    ids = [draft(client, org).json["id"] for _ in range(2)]
    players = roster(client, 4)
    for tid in ids:
        for p in players:
            add(client, tid, org, p)
        assert client.post(f"/tournaments/{tid}/start", headers=token(org)).status_code == 200
    problem(draft(client, org, ruleset="platform", starts_at=starts), 409, "organiser-busy")


def test_a_draft_can_be_cancelled(client, svc):
    org = register(client, "Org")
    tid = draft(client, org).json["id"]
    r = client.post(f"/tournaments/{tid}/cancel", headers=token(org))
    assert r.status_code == 200 and r.json["status"] == "cancelled"
    problem(client.post(f"/tournaments/{tid}/start", headers=token(org)), 409, "not-a-draft")


@pytest.mark.parametrize(("ruleset", "cap"), [(Ruleset.KNOCKOUT, 128), (Ruleset.DOUBLE_KNOCKOUT, 64)])
def test_the_roster_holds_at_most_128_or_64_players(ruleset, cap):
    organiser = Account(uuid.uuid4(), "Org")
    settings = Settings("Cap", None, RateOfPlay(600), ruleset=ruleset, knockout=KnockoutFormat())
    t = rulesets.create(organiser, settings, now=NOW)
    for i in range(cap):
        knockouts.add_player(t, Account(uuid.uuid4(), f"P{i}"), now=NOW)
    with pytest.raises(errors.TournamentFull, match=f"at most {cap} players"):
        knockouts.add_player(t, Account(uuid.uuid4(), "One too many"), now=NOW)
