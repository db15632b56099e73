"""Registration over HTTP with the embedded adapters: flows, events and every bad input."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest

from services.registration.entrypoints.schemas import RATING_KEYS
from services.registration.service_layer.commands import StartDueTournaments
from services.registration.tests.helpers import NOW, STAFF, create, problem, published, register, token


def test_tournament_from_creation_to_start(client, svc, clock):
    org = register(client, "Org")
    r = create(client, org)
    assert r.status_code == 201 and r.headers["Location"].startswith("/tournaments/")
    tid = r.json["id"]
    players = [register(client, f"P{i}", rating=1400 + 10 * i) for i in range(5)]
    for p in players:
        assert client.post(f"/tournaments/{tid}/entries", json={}, headers=token(p)).status_code == 201
    assert (
        client.delete(f"/tournaments/{tid}/entries/{players[0]}", headers=token(players[0])).status_code
        == 200
    )
    clock.advance(30 * 60)
    assert svc.bus.handle(StartDueTournaments()) == 1
    assert svc.bus.handle(StartDueTournaments()) == 0  # started once
    started = published(svc, "tournament.started")
    assert len(started) == 1
    roster = started[0].payload["roster"]
    assert [e["name"] for e in roster] == ["P4", "P3", "P2", "P1"]
    assert [e["seed"] for e in roster] == [1, 2, 3, 4]
    assert client.get(f"/tournaments/{tid}").json["status"] == "started"
    assert [e.type for e in svc.broker.published].count("player.joined") == 5
    assert len(published(svc, "player.left")) == 1


def test_too_few_players_cancels_with_the_reason(client, svc, clock):
    org = register(client, "Org")
    tid = create(client, org).json["id"]
    for i in range(3):
        client.post(f"/tournaments/{tid}/entries", json={}, headers=token(register(client, f"P{i}")))
    clock.advance(3600)
    svc.bus.handle(StartDueTournaments())
    body = client.get(f"/tournaments/{tid}").json
    assert body["status"] == "cancelled"
    assert body["status_reason"] == "too few players: 3 present, at least 4 needed"
    cancelled = published(svc, "tournament.cancelled")[0].payload
    assert cancelled["reason"] == "too_few_players" and cancelled["present"] == 3
    # the organiser is free again
    assert create(client, org, starts_at=(clock.now() + dt.timedelta(hours=1)).isoformat()).status_code == 201


def test_completion_frees_the_organiser(client, svc, clock):
    from shared.events import TournamentCompleted, wrap

    org = register(client, "Org")
    tid = uuid.UUID(create(client, org).json["id"])
    assert create(client, org).status_code == 409
    event = TournamentCompleted(tournament_id=tid, organiser_id=org, rounds=3, completed_at=NOW)
    env = wrap(event, tid)
    for _ in range(2):  # redelivery changes nothing
        svc.subscriptions[0].handler(env, event)
    assert client.get(f"/tournaments/{tid}").json["status"] == "completed"
    assert create(client, org).status_code == 201


def test_bad_input_gets_stable_problems(client, svc, clock):
    org = register(client, "Org")
    other = register(client, "Other")
    guest = register(client, "Guest", kind="guest")
    bot = register(client, "Bot", kind="computer")
    tid = create(client, org).json["id"]

    problem(client.get(f"/tournaments/{uuid.uuid4()}"), 404, "tournament-not-found")
    problem(
        client.post(f"/tournaments/{uuid.uuid4()}/entries", json={}, headers=token(other)),
        404,
        "tournament-not-found",
    )
    problem(
        client.post(f"/tournaments/{tid}/entries", json={}, headers=token(guest)), 403, "account-kind-refused"
    )
    problem(
        client.post(f"/tournaments/{tid}/entries", json={}, headers=token(bot)), 403, "account-kind-refused"
    )
    problem(create(client, guest), 403, "account-kind-refused")
    problem(
        create(client, other, starts_at=(NOW + dt.timedelta(minutes=2)).isoformat()),
        422,
        "start-out-of-range",
    )
    problem(
        create(client, other, starts_at=(NOW + dt.timedelta(days=15)).isoformat()), 422, "start-out-of-range"
    )
    problem(create(client, other, seats=2), 422, "validation-error")  # 4–200: the schema says so
    problem(create(client, other, seats="many"), 422, "validation-error")
    problem(create(client, org), 409, "organiser-busy")
    problem(client.post(f"/tournaments/{tid}/cancel", headers=token(other)), 403, "not-organiser")
    problem(
        client.post("/tournaments", json={}, headers={"Authorization": "Bearer not.a.jwt"}),
        401,
        "unauthorized",
    )
    problem(client.post("/tournaments", json={}), 401, "unauthorized")
    problem(client.post("/accounts", json={"name": "x"}, headers=token(other)), 403, "forbidden")
    r = client.post(
        "/tournaments", data="{nope", headers={**token(other), "Content-Type": "application/json"}
    )
    assert r.status_code in (400, 422) and r.content_type == "application/problem+json"
    clock.advance(3600)
    problem(
        client.post(f"/tournaments/{tid}/entries", json={}, headers=token(other)), 409, "registration-closed"
    )
    problem(
        client.delete(f"/tournaments/{tid}/entries/{other}", headers=token(other)), 409, "registration-closed"
    )


def test_input_the_database_cannot_hold_is_a_422(client):
    """Found as a user would: NUL bytes, names longer than their column, unknown variants, ratings
    beyond 32 bits or under unknown keys reached the database and answered 500."""
    org = register(client, "Org")
    staff = token(STAFF, "service")

    def account(**body):
        return client.post("/accounts", json={"name": "Ann", **body}, headers=staff)

    problem(account(name="A\x00nn"), 422, "validation-error")
    problem(account(name="A" * 101), 422, "validation-error")
    problem(account(ratings={"chess:blitz": 2**31}), 422, "validation-error")
    problem(account(ratings={"chess:blitz": -1}), 422, "validation-error")
    r = account(ratings={"chess:lightning": 1500})
    problem(r, 422, "validation-error")
    assert "the variant one of chess, international" in r.json["errors"][0]["msg"]
    problem(account(ratings={f"k{i}": 1500 for i in range(200)}), 422, "validation-error")
    problem(create(client, org, name="Sunday\x00blitz"), 422, "validation-error")
    problem(create(client, org, password="se\x00cret"), 422, "validation-error")
    problem(create(client, org, min_rating=2**31), 422, "validation-error")
    problem(create(client, org, ruleset="k" * 41), 422, "invalid-settings")  # an unknown ruleset
    for variant in ("v" * 41, "chess\x00", "shogi"):
        r = create(client, org, variant=variant)
        problem(r, 422, "validation-error")
    assert "'chess', 'international', 'english', 'italian' or 'russian'" in r.json["errors"][0]["msg"]
    problem(client.get("/tournaments", query_string={"status": "started\x00"}), 422, "unknown-status")


def test_ratings_are_integers_and_a_name_says_something(client):
    """true and "1800" were taken as ratings, and "   " as an account's name: the document says a rating
    is an integer and a name is not blank, and so does the server now."""
    staff = token(STAFF, "service")

    def account(**body):
        return client.post("/accounts", json={"name": "Ann", **body}, headers=staff)

    for rating in (True, "1800", 1800.5, None):
        problem(account(ratings={"chess:blitz": rating}), 422, "validation-error")
    for name in ("   ", "", "\t\n", "\u3000"):
        problem(account(name=name), 422, "validation-error")
    r = account(name=" Ann ", ratings={"chess:blitz": 1800.0})  # 1800.0 is the integer 1800 in JSON
    assert r.status_code == 201 and r.json["ratings"] == {"chess:blitz": 1800}
    doc = client.get("/openapi.json").json["components"]["schemas"]["AccountBody"]["properties"]
    ratings = doc["ratings"]
    assert ratings["additionalProperties"] is False and set(ratings["properties"]) == set(RATING_KEYS)
    assert ratings["properties"]["chess:blitz"] == {"type": "integer", "minimum": 0, "maximum": 4000}
    assert "pattern" in doc["name"]


def test_every_variant_and_its_ratings_are_accepted(client):
    ratings = {"chess:blitz": 1650, "international:rapid": 1400, "russian:correspondence": 4000}
    r = client.post("/accounts", json={"name": "Ann", "ratings": ratings}, headers=token(STAFF, "service"))
    assert r.status_code == 201 and r.json["ratings"] == ratings
    for variant in ("chess", "international", "english", "italian", "russian"):
        org = register(client, f"Org {variant}")
        r = create(client, org, variant=variant)
        assert r.status_code == 201 and r.json["variant"] == variant


def test_organiser_cancels_before_the_start(client, svc):
    org = register(client, "Org")
    tid = create(client, org).json["id"]
    r = client.post(f"/tournaments/{tid}/cancel", headers=token(org))
    assert r.status_code == 200 and r.json["status"] == "cancelled"
    assert published(svc, "tournament.cancelled")[0].payload["reason"] == "organiser"


def test_openapi_document_lists_the_endpoints(client):
    doc = client.get("/openapi.json").json
    assert {"/tournaments", "/tournaments/{tournament_id}/entries", "/accounts"} <= set(doc["paths"])
    assert "bearer" in doc["components"]["securitySchemes"]
    assert "CreateTournamentBody" in doc["components"]["schemas"]


@pytest.mark.parametrize("path", ["/healthz", "/readyz"])
def test_probes(client, path):
    assert client.get(path).status_code in (200, 503)


def test_idempotency_key_replays_the_first_creation(client, svc):
    org = register(client, "Org")
    headers = {**token(org), "Idempotency-Key": "create-42"}
    body = {
        "name": "Once",
        "starts_at": (NOW + dt.timedelta(minutes=30)).isoformat(),
        "time_control": {"base_seconds": 180, "increment_seconds": 2},
    }
    first = client.post("/tournaments", json=body, headers=headers)
    again = client.post("/tournaments", json=body, headers=headers)
    assert first.status_code == again.status_code == 201
    assert again.json == first.json and again.headers["Idempotent-Replayed"] == "true"
    assert again.headers["Location"] == first.headers["Location"]
    assert len(published(svc, "tournament.scheduled")) == 1
    problem(
        client.post("/tournaments", json={**body, "name": "Other"}, headers=headers),
        422,
        "idempotency-key-reused",
    )


def test_a_failed_request_releases_its_idempotency_key(client):
    org = register(client, "Org")
    headers = {**token(org), "Idempotency-Key": "k1"}
    bad = {"name": "x", "starts_at": NOW.isoformat(), "time_control": {"base_seconds": 180}}
    problem(client.post("/tournaments", json=bad, headers=headers), 422, "start-out-of-range")
    good = {**bad, "starts_at": (NOW + dt.timedelta(hours=1)).isoformat()}
    # the key was released: the corrected request (another body) is accepted under the same key
    assert client.post("/tournaments", json=good, headers=headers).status_code == 201


@pytest.mark.parametrize("ruleset", ["foo", "Knockout"])
def test_a_ruleset_not_offered_is_invalid_settings(client, ruleset):
    body = problem(create(client, register(client, "Org"), ruleset=ruleset), 422, "invalid-settings")
    assert body["detail"] == f"ruleset '{ruleset}' is not offered for self-registration yet"


def test_the_list_takes_a_known_status_only(client):
    org = register(client, "Org")
    tid = create(client, org).json["id"]
    assert [t["id"] for t in client.get("/tournaments?status=scheduled").json["tournaments"]] == [tid]
    assert client.get("/tournaments?status=draft").json["tournaments"] == []
    assert len(client.get("/tournaments").json["tournaments"]) == 1  # no filter
    problem(client.get("/tournaments?status="), 422, "unknown-status")  # an empty one is no status
    body = problem(client.get("/tournaments?status=Scheduled"), 422, "unknown-status")
    assert (
        body["detail"] == "status must be one of ['draft', 'scheduled', 'started', 'cancelled', 'completed']"
    )
    doc = client.get("/openapi.json").json["components"]["schemas"]
    assert doc["Ruleset"]["enum"] == [
        "platform",
        "fide-rapid",
        "knockout",
        "double-knockout",
        "group-playoff",
        "arena",
    ]
    assert doc["Status"]["enum"] == ["draft", "scheduled", "started", "cancelled", "completed"]
