"""Arbiters, withdrawals, the audit log and the seeding drawn on request over HTTP (embedded adapters,
SQLite): every status and problem type, and every refused request leaves every table as it was."""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any

import pytest

from services.registration.service_layer.commands import StartDueTournaments
from services.registration.tests.helpers import NOW, create, problem, published, register, tables, token
from shared.events import DecisionBy, GameFinished, wrap
from shared.scoring import Outcome
from shared.seed_draw import draw_order


def refused(svc, request, status: int, slug: str) -> dict[str, Any]:
    before = tables(svc)
    body = problem(request(), status, slug)
    assert tables(svc) == before, f"{slug} changed the stored state"
    return body


def knockout(client, org, n: int = 4, start: bool = True, **fmt) -> tuple[str, list[uuid.UUID]]:
    body = {"name": "Cup", "ruleset": "knockout", "time_control": {"base_seconds": 600}, "knockout": fmt}
    tid = client.post("/tournaments", json=body, headers=token(org)).json["id"]
    players = [register(client, f"P{i}", rating=1500 + i) for i in range(n)]
    for p in players:
        r = client.post(f"/tournaments/{tid}/entries", json={"player_id": str(p)}, headers=token(org))
        assert r.status_code == 201, r.json
    if start:
        assert client.post(f"/tournaments/{tid}/start", headers=token(org)).status_code == 200
    return tid, players


def appoint(client, tid, org, account, games=None):
    body: dict[str, Any] = {"account_id": str(account)}
    if games is not None:
        body["games"] = [str(g) for g in games]
    return client.post(f"/tournaments/{tid}/arbiters", json=body, headers=token(org))


def withdraw(client, tid, who, player, reason="ill", exclude=False, roles=("player",)):
    body = {"player_id": str(player), "reason": reason, "exclude": exclude}
    return client.post(f"/tournaments/{tid}/withdrawals", json=body, headers=token(who, *roles))


@pytest.fixture
def cup(client):
    org, whole, scoped, stranger = (register(client, n) for n in ("Org", "Whole", "Scoped", "Stranger"))
    tid, players = knockout(client, org)
    game = uuid.uuid4()
    assert appoint(client, tid, org, whole).status_code == 201
    assert appoint(client, tid, org, scoped, [game]).status_code == 201
    return {
        "tid": tid,
        "org": org,
        "whole": whole,
        "scoped": scoped,
        "stranger": stranger,
        "players": players,
    }


def test_appointing_and_revoking_arbiters(client, svc, clock):
    org, ann, bea = register(client, "Org"), register(client, "Ann"), register(client, "Bea")
    tid = create(client, org).json["id"]
    games = sorted([uuid.uuid4(), uuid.uuid4()], key=str)
    r = appoint(client, tid, org, ann)
    assert r.status_code == 201
    assert r.json == {
        "account_id": str(ann),
        "name": "Ann",
        "games": None,
        "appointed_at": "2026-06-01T12:00:00Z",
    }
    clock.advance(60)
    r = appoint(client, tid, org, bea, reversed(games))
    assert r.json["games"] == [str(g) for g in games]
    listed = client.get(f"/tournaments/{tid}/arbiters", headers=token(org)).json
    assert listed == {
        "tournament_id": tid,
        "organiser_id": str(org),
        "arbiters": [
            {"account_id": str(ann), "name": "Ann", "games": None, "appointed_at": "2026-06-01T12:00:00Z"},
            {
                "account_id": str(bea),
                "name": "Bea",
                "games": [str(g) for g in games],
                "appointed_at": "2026-06-01T12:01:00Z",
            },
        ],
    }
    for reader in (ann, bea):  # every arbiter reads the list, whatever their scope
        assert client.get(f"/tournaments/{tid}/arbiters", headers=token(reader)).status_code == 200
    r = client.delete(f"/tournaments/{tid}/arbiters/{ann}", headers=token(org))
    assert r.status_code == 200 and [a["account_id"] for a in r.json["arbiters"]] == [str(bea)]
    assert [e.payload["arbiter_id"] for e in published(svc, "arbiter.appointed")] == [str(ann), str(bea)]
    (revoked,) = published(svc, "arbiter.revoked")
    assert revoked.payload == {
        "tournament_id": tid,
        "arbiter_id": str(ann),
        "decision": {"by": str(org), "role": "organiser", "at": "2026-06-01T12:01:00Z", "reason": None},
    }
    problem(client.get(f"/tournaments/{tid}/arbiters", headers=token(ann)), 403, "not-an-arbiter-here")


def test_refused_appointments(client, svc):
    org, ann, stranger = register(client, "Org"), register(client, "Ann"), register(client, "Stranger")
    guest = register(client, "Guest", kind="guest")
    tid = create(client, org).json["id"]
    url = f"/tournaments/{tid}/arbiters"
    refused(svc, lambda: client.post(url, json={"account_id": str(ann)}), 401, "unauthorized")
    refused(
        svc,
        lambda: client.post(url, json={"account_id": str(ann)}, headers={"Authorization": "Bearer x.y.z"}),
        401,
        "unauthorized",
    )
    refused(svc, lambda: appoint(client, tid, stranger, ann), 403, "not-organiser")
    refused(
        svc,
        lambda: client.post(
            url, json={"account_id": str(ann)}, headers=token(stranger, "arbiter", "service")
        ),
        403,
        "not-organiser",
    )
    refused(svc, lambda: appoint(client, uuid.uuid4(), org, ann), 404, "tournament-not-found")
    refused(svc, lambda: appoint(client, tid, org, uuid.uuid4()), 404, "account-not-found")
    refused(svc, lambda: appoint(client, tid, org, guest), 403, "account-kind-refused")
    refused(svc, lambda: appoint(client, tid, org, org), 422, "invalid-appointment")
    refused(svc, lambda: appoint(client, tid, org, ann, []), 422, "validation-error")
    refused(
        svc,
        lambda: client.post(url, json={"account_id": "nope"}, headers=token(org)),
        422,
        "validation-error",
    )
    refused(svc, lambda: client.delete(f"{url}/{ann}", headers=token(org)), 404, "arbiter-not-appointed")
    assert appoint(client, tid, org, ann).status_code == 201
    refused(svc, lambda: client.delete(f"{url}/{ann}", headers=token(ann)), 403, "not-organiser")
    refused(svc, lambda: client.delete(f"{url}/{ann}"), 401, "unauthorized")
    problem(client.get(url), 401, "unauthorized")
    problem(client.get(url, headers=token(stranger, "arbiter")), 403, "not-an-arbiter-here")
    problem(
        client.get(f"/tournaments/{uuid.uuid4()}/arbiters", headers=token(org)), 404, "tournament-not-found"
    )
    assert client.post(f"/tournaments/{tid}/cancel", headers=token(org)).status_code == 200
    refused(svc, lambda: appoint(client, tid, org, stranger), 409, "tournament-closed")
    refused(svc, lambda: client.delete(f"{url}/{ann}", headers=token(org)), 409, "tournament-closed")


def test_withdrawals_and_exclusions(client, svc, cup):
    tid, org, p = cup["tid"], cup["org"], cup["players"]
    r = withdraw(client, tid, cup["whole"], p[0], reason="ill")
    assert r.status_code == 201, r.json
    by_player = {e["player_id"]: (e["status"], e["withdrawn_at"]) for e in r.json["entries"]}
    assert by_player == {
        str(p[0]): ("withdrawn", "2026-06-01T12:00:00Z"),
        str(p[1]): ("active", None),
        str(p[2]): ("active", None),
        str(p[3]): ("active", None),
    }
    r = withdraw(client, tid, org, p[1], reason="threatened the arbiter", exclude=True)
    assert r.status_code == 201
    shown = {e["player_id"]: e["status"] for e in client.get(f"/tournaments/{tid}").json["entries"]}
    assert [shown[str(player)] for player in p] == ["withdrawn", "excluded", "active", "active"]
    assert [(e.payload["player_id"], e.payload["excluded"]) for e in published(svc, "player.withdrawn")] == [
        (str(p[0]), False),
        (str(p[1]), True),
    ]


def test_refused_withdrawals(client, svc, cup):
    tid, org, p = cup["tid"], cup["org"], cup["players"]
    url = f"/tournaments/{tid}/withdrawals"
    body = {"player_id": str(p[2]), "reason": "ill"}
    refused(svc, lambda: client.post(url, json=body), 401, "unauthorized")
    refused(svc, lambda: withdraw(client, tid, cup["scoped"], p[2]), 403, "not-an-arbiter-here")
    refused(svc, lambda: withdraw(client, tid, cup["stranger"], p[2]), 403, "not-an-arbiter-here")
    refused(
        svc,
        lambda: withdraw(client, tid, cup["stranger"], p[2], roles=("arbiter",)),
        403,
        "not-an-arbiter-here",
    )
    refused(
        svc,
        lambda: withdraw(client, tid, cup["stranger"], p[2], roles=("service",)),
        403,
        "not-an-arbiter-here",
    )
    refused(svc, lambda: withdraw(client, tid, p[2], p[2]), 403, "not-an-arbiter-here")
    refused(svc, lambda: withdraw(client, tid, p[3], p[2]), 403, "not-an-arbiter-here")
    refused(svc, lambda: withdraw(client, tid, cup["whole"], p[2], exclude=True), 403, "not-organiser")
    refused(svc, lambda: withdraw(client, tid, org, p[2], reason="   "), 422, "reason-required")
    refused(svc, lambda: withdraw(client, tid, org, p[2], reason=""), 422, "reason-required")
    refused(svc, lambda: withdraw(client, tid, org, p[2], reason="x" * 501), 422, "validation-error")
    refused(
        svc,
        lambda: client.post(url, json={"player_id": str(p[2])}, headers=token(org)),
        422,
        "validation-error",
    )
    refused(svc, lambda: withdraw(client, tid, org, cup["stranger"]), 404, "player-not-entered")
    refused(svc, lambda: withdraw(client, uuid.uuid4(), org, p[2]), 404, "tournament-not-found")
    assert withdraw(client, tid, org, p[2]).status_code == 201
    refused(svc, lambda: withdraw(client, tid, org, p[2]), 409, "already-withdrawn")
    draft, entered = knockout(client, org, start=False)
    refused(svc, lambda: withdraw(client, draft, org, entered[0]), 409, "not-started")


def test_a_platform_player_is_excluded_never_withdrawn(client, svc, clock):
    org = register(client, "Org")
    tid = create(client, org).json["id"]
    players = [register(client, f"P{i}") for i in range(4)]
    for p in players:
        client.post(f"/tournaments/{tid}/entries", json={}, headers=token(p))
    refused(svc, lambda: withdraw(client, tid, org, players[0], exclude=True), 409, "not-started")
    clock.advance(30 * 60)
    svc.bus.handle(StartDueTournaments())
    body = refused(svc, lambda: withdraw(client, tid, org, players[0]), 409, "no-leaving-after-start")
    assert "only the organiser can exclude" in body["detail"]
    assert withdraw(client, tid, org, players[0], reason="cheating", exclude=True).status_code == 201


def test_the_audit_log(client, svc, cup, clock):
    tid, org, p = cup["tid"], cup["org"], cup["players"]
    clock.advance(120)
    withdraw(client, tid, org, p[3], reason="no show", exclude=True)
    game = uuid.uuid4()
    entered = GameFinished(
        tournament_id=uuid.UUID(tid),
        game_id=game,
        round=1,
        white=p[0],
        black=p[3],
        outcome=Outcome.WHITE_FORFEIT_WIN,
        reason="exclusion",
        moves=0,
        finished_at=NOW + dt.timedelta(seconds=121),
        decision=DecisionBy(
            by=cup["whole"], role="arbiter", at=NOW + dt.timedelta(seconds=90), reason="late"
        ),
    )
    (audit,) = [s for s in svc.subscriptions if s.queue == "registration.audit"]
    audit.handler(wrap(entered, entered.tournament_id), entered)
    url = f"/tournaments/{tid}/audit"
    log = client.get(url, headers=token(cup["scoped"])).json
    assert log["tournament_id"] == tid
    assert [(e["kind"], e["role"]) for e in log["entries"]] == [
        ("arbiter_appointed", "organiser"),
        ("arbiter_appointed", "organiser"),
        ("result_entered", "arbiter"),
        ("player_excluded", "organiser"),
    ]
    assert log["entries"][2:] == [
        {
            "at": "2026-06-01T12:01:30Z",
            "by": str(cup["whole"]),
            "role": "arbiter",
            "kind": "result_entered",
            "subject": {"kind": "game", "id": str(game), "round": 1},
            "detail": "result +/- (exclusion)",
            "reason": "late",
        },
        {
            "at": "2026-06-01T12:02:00Z",
            "by": str(org),
            "role": "organiser",
            "kind": "player_excluded",
            "subject": {"kind": "player", "id": str(p[3]), "round": None},
            "detail": "P3 excluded",
            "reason": "no show",
        },
    ]
    assert client.get(url, headers=token(org)).status_code == 200
    assert client.get(url, headers=token(cup["whole"])).status_code == 200
    problem(client.get(url), 401, "unauthorized")
    problem(client.get(url, headers={"Authorization": "Bearer nope"}), 401, "unauthorized")
    problem(client.get(url, headers=token(cup["stranger"], "arbiter")), 403, "not-an-arbiter-here")
    problem(client.get(url, headers=token(p[0])), 403, "not-an-arbiter-here")
    problem(client.get(f"/tournaments/{uuid.uuid4()}/audit", headers=token(org)), 404, "tournament-not-found")


def test_the_random_seeding_drawn_on_request(client, svc):
    org = register(client, "Org")
    tid, players = knockout(client, org, start=False, seeding="random")
    url = f"/tournaments/{tid}/seeding/draw"
    assert client.get(f"/tournaments/{tid}").json["knockout"]["draw_order"] is None
    refused(svc, lambda: client.post(url, headers=token(players[0])), 403, "not-organiser")
    refused(svc, lambda: client.post(url), 401, "unauthorized")
    r = client.post(url, headers=token(org))
    assert r.status_code == 200, r.json
    seed = r.json["knockout"]["draw_seed"]
    drawn = list(draw_order((str(p) for p in players), seed))
    assert r.json["knockout"]["draw_order"] == drawn
    assert client.get(f"/tournaments/{tid}").json["knockout"]["draw_order"] == drawn
    refused(svc, lambda: client.post(url, headers=token(org)), 409, "seeding-already-drawn")
    started = client.post(f"/tournaments/{tid}/start", headers=token(org)).json
    assert started["knockout"]["draw_seed"] == seed
    roster = published(svc, "tournament.started")[0].payload["roster"]
    assert [r["player_id"] for r in roster] == drawn
    refused(svc, lambda: client.post(url, headers=token(org)), 409, "not-a-draft")
    by_rating, _ = knockout(client, org, start=False)
    refused(
        svc,
        lambda: client.post(f"/tournaments/{by_rating}/seeding/draw", headers=token(org)),
        409,
        "seeding-not-random",
    )


def test_byes_on_request_is_a_setting(client, svc):
    r = create(client, register(client, "Org"), byes_on_request=True)
    assert r.status_code == 201 and r.json["byes_on_request"] is True
    assert published(svc, "tournament.scheduled")[0].payload["settings"]["byes_on_request"] is True
    assert create(client, register(client, "Org2")).json["byes_on_request"] is False
    body = {
        "name": "Cup",
        "ruleset": "knockout",
        "time_control": {"base_seconds": 600},
        "byes_on_request": True,
    }
    org = register(client, "Org3")
    refused(svc, lambda: client.post("/tournaments", json=body, headers=token(org)), 422, "invalid-settings")


def test_only_the_service_mirrors_accounts(client, svc):
    body = {"name": "Ann"}
    refused(
        svc,
        lambda: client.post("/accounts", json=body, headers=token(uuid.uuid4(), "arbiter")),
        403,
        "forbidden",
    )
    assert client.post("/accounts", json=body, headers=token(uuid.uuid4(), "service")).status_code == 201


def test_the_new_endpoints_are_documented(client):
    doc = client.get("/openapi.json").json
    paths = doc["paths"]
    assert set(paths["/tournaments/{tournament_id}/arbiters"]) == {"get", "post"}
    assert set(paths["/tournaments/{tournament_id}/arbiters/{account_id}"]) == {"delete"}
    assert set(paths["/tournaments/{tournament_id}/withdrawals"]) == {"post"}
    assert set(paths["/tournaments/{tournament_id}/audit"]) == {"get"}
    assert set(paths["/tournaments/{tournament_id}/seeding/draw"]) == {"post"}
    assert {"401", "403", "404"} <= set(paths["/tournaments/{tournament_id}/audit"]["get"]["responses"])
    assert {"401", "403", "404", "409", "422"} <= set(
        paths["/tournaments/{tournament_id}/withdrawals"]["post"]["responses"]
    )


def test_a_retried_withdrawal_with_its_idempotency_key_is_replayed(client, svc, cup):
    tid, org, p = cup["tid"], cup["org"], cup["players"]
    headers = {**token(org), "Idempotency-Key": "withdraw-p0"}
    body = {"player_id": str(p[0]), "reason": "ill"}
    first = client.post(f"/tournaments/{tid}/withdrawals", json=body, headers=headers)
    again = client.post(f"/tournaments/{tid}/withdrawals", json=body, headers=headers)
    assert first.status_code == again.status_code == 201
    assert again.json == first.json and again.headers["Idempotent-Replayed"] == "true"
    assert len(published(svc, "player.withdrawn")) == 1
    assert again.headers["Roster-Revision"] == first.headers["Roster-Revision"]  # what the answer said


def test_each_roster_change_answers_the_roster_revision_it_produced(client, svc, cup):
    """Every roster change is the tournament's next roster revision: its answer says it (body and header),
    its event carries it, and a refused change or an appointment produces none (docs/api.md, "Causal
    commands")."""
    tid, org, p = cup["tid"], cup["org"], cup["players"]
    shown = client.get(f"/tournaments/{tid}")
    start = shown.json["roster_revision"]
    assert start == 5 and shown.headers["Roster-Revision"] == "5"  # four entries, then the start
    [started] = published(svc, "tournament.started")
    assert started.payload["roster_revision"] == 5
    first = withdraw(client, tid, cup["whole"], p[0])
    assert (first.json["roster_revision"], first.headers["Roster-Revision"]) == (6, "6")
    refused(svc, lambda: withdraw(client, tid, org, p[0]), 409, "already-withdrawn")
    appointed = appoint(client, tid, org, cup["stranger"])
    assert appointed.headers["Roster-Revision"] == "6"  # an appointment is not a roster change
    second = withdraw(client, tid, org, p[1], exclude=True)
    assert (second.json["roster_revision"], second.headers["Roster-Revision"]) == (7, "7")
    assert [e.payload["roster_revision"] for e in published(svc, "player.withdrawn")] == [6, 7]
    assert client.get(f"/tournaments/{tid}").json["roster_revision"] == 7
