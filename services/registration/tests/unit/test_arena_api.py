"""Arenas in registration over HTTP (RULES.md §3, issue 12): created with a duration, joined, paused and
left before and during the arena, the events on the wire, and the bad input."""

from __future__ import annotations

import datetime as dt
import uuid

import sqlalchemy as sa

from services.registration.adapters import orm
from services.registration.service_layer.commands import StartDueTournaments
from services.registration.tests.helpers import NOW, create, problem, published, register, token
from shared.events import TournamentCompleted, wrap


def arena(client, org, **kw):
    body = {
        "ruleset": "arena",
        "duration_minutes": 60,
        "time_control": {"base_seconds": 180, "increment_seconds": 2},
    }
    body.update(kw)
    return create(client, org, **body)


def test_an_arena_is_created_with_its_duration_and_announced(client, svc):
    org = register(client, "Org")
    r = arena(client, org)
    assert r.status_code == 201, r.json
    body = r.json
    assert body["ruleset"] == "arena" and body["duration_minutes"] == 60
    starts = dt.datetime.fromisoformat(body["starts_at"])
    assert dt.datetime.fromisoformat(body["ends_at"]) == starts + dt.timedelta(minutes=60)
    scheduled = published(svc, "tournament.scheduled")[0].payload
    assert scheduled["settings"]["ruleset"] == "arena"
    assert scheduled["settings"]["arena"] == {"duration_minutes": 60}
    # one running competition per organiser, arenas included
    problem(arena(client, org), 409, "organiser-busy")
    problem(create(client, org), 409, "organiser-busy")


def test_bad_arena_settings_are_422(client):
    org = register(client, "Org")
    for minutes in (9, 481):
        body = problem(arena(client, org, duration_minutes=minutes), 422, "invalid-settings")
        assert "10 minutes to 8 hours" in body["detail"]
    problem(arena(client, org, duration_minutes=0), 422, "validation-error")  # at least 1: the schema
    problem(arena(client, org, duration_minutes=None), 422, "invalid-settings")
    problem(arena(client, org, seats=20), 422, "invalid-settings")
    other = register(client, "Other org")
    announced = create(client, other, duration_minutes=60)  # a platform tournament: its announced duration
    assert announced.status_code == 201 and announced.json["duration_minutes"] == 60
    assert announced.json["ends_at"] is None and announced.json["ruleset"] == "platform"
    late = (NOW + dt.timedelta(days=15)).isoformat()
    problem(arena(client, org, starts_at=late), 422, "start-out-of-range")
    problem(
        arena(client, org, time_control={"base_seconds": 0, "increment_seconds": 0, "days_per_move": 3}),
        422,
        "invalid-settings",
    )
    assert arena(client, org, duration_minutes=10).status_code == 201
    other = register(client, "Other")
    assert arena(client, other, duration_minutes=480).status_code == 201


def test_players_join_pause_and_leave_during_the_arena(client, svc, clock):
    org = register(client, "Org")
    tid = arena(client, org).json["id"]
    a, b, c, d = (register(client, n, rating=1500 + i) for i, n in enumerate("ABCD"))
    for p in (a, b):
        assert client.post(f"/tournaments/{tid}/entries", json={}, headers=token(p)).status_code == 201
    # paused before the start: not in the roster, and back when they join again
    assert client.post(f"/tournaments/{tid}/entries", json={}, headers=token(c)).status_code == 201
    r = client.post(f"/tournaments/{tid}/entries/{c}/pause", headers=token(c))
    assert r.status_code == 200 and [e["paused"] for e in r.json["entries"]] == [False, False, True]
    clock.advance(30 * 60)
    assert svc.bus.handle(StartDueTournaments()) == 1  # an arena starts with whoever is there
    roster = published(svc, "tournament.started")[0].payload["roster"]
    assert {e["player_id"] for e in roster} == {str(a), str(b)}
    # after the start: join, pause, come back, leave and come back again
    assert client.post(f"/tournaments/{tid}/entries", json={}, headers=token(d)).status_code == 201
    assert client.post(f"/tournaments/{tid}/entries", json={}, headers=token(c)).status_code == 201
    problem(client.post(f"/tournaments/{tid}/entries", json={}, headers=token(c)), 409, "already-joined")
    assert client.post(f"/tournaments/{tid}/entries/{a}/pause", headers=token(a)).status_code == 200
    assert (
        client.post(f"/tournaments/{tid}/entries/{a}/pause", headers=token(a)).status_code == 200
    )  # no news
    problem(client.post(f"/tournaments/{tid}/entries/{a}/pause", headers=token(b)), 403, "not-allowed")
    assert client.delete(f"/tournaments/{tid}/entries/{b}", headers=token(b)).status_code == 200
    entries = {e["player_id"]: e["paused"] for e in client.get(f"/tournaments/{tid}").json["entries"]}
    assert entries == {str(a): True, str(b): True, str(c): False, str(d): False}  # b's games stand
    assert client.post(f"/tournaments/{tid}/entries", json={}, headers=token(b)).status_code == 201
    joined = [e.payload["player_id"] for e in published(svc, "player.joined")]
    assert joined == [str(a), str(b), str(c), str(d), str(c), str(b)]
    assert [e.payload["player_id"] for e in published(svc, "player.paused")] == [str(c), str(a)]
    assert [e.payload["player_id"] for e in published(svc, "player.left")] == [str(b)]


def test_nobody_joins_a_finished_arena(client, svc, clock):
    org = register(client, "Org")
    tid = arena(client, org, duration_minutes=10).json["id"]
    p, q = register(client, "P"), register(client, "Q")
    clock.advance(30 * 60)
    svc.bus.handle(StartDueTournaments())
    clock.advance(11 * 60)  # past its end: over, even before pairing says it completed
    body = problem(
        client.post(f"/tournaments/{tid}/entries", json={}, headers=token(p)), 409, "registration-closed"
    )
    assert "the arena is over" in body["detail"]
    event = TournamentCompleted(
        tournament_id=uuid.UUID(tid), organiser_id=org, rounds=0, completed_at=clock.now()
    )
    svc.subscriptions[0].handler(wrap(event, uuid.UUID(tid)), event)
    assert client.get(f"/tournaments/{tid}").json["status"] == "completed"
    problem(client.post(f"/tournaments/{tid}/entries", json={}, headers=token(q)), 409, "registration-closed")
    again = (clock.now() + dt.timedelta(hours=1)).isoformat()
    assert arena(client, org, starts_at=again).status_code == 201  # the organiser is free again


def test_an_arenas_start_and_entries_are_routed_to_the_arena_queues_and_other_tournaments_are_not(
    client, svc, clock
):
    """Published as ``tournament.started.arena``, ``player.joined.arena``, ``player.left.arena``
    (shared.events.QUALIFIERS): the arena queues bind those alone; a platform tournament's keep their
    bare types."""
    tid = arena(client, register(client, "Org")).json["id"]
    other = create(client, register(client, "Other org")).json["id"]
    a, b = register(client, "A", rating=1500), register(client, "B", rating=1510)
    for t in (tid, other):
        for p in (a, b):
            assert client.post(f"/tournaments/{t}/entries", json={}, headers=token(p)).status_code == 201
    assert client.delete(f"/tournaments/{other}/entries/{b}", headers=token(b)).status_code == 200
    clock.advance(30 * 60)
    assert svc.bus.handle(StartDueTournaments()) == 2  # the other cancels itself: one player
    assert client.delete(f"/tournaments/{tid}/entries/{b}", headers=token(b)).status_code == 200
    with svc.engine.connect() as conn:
        rows = conn.execute(
            sa.select(orm.outbox.c.type, orm.outbox.c.tournament_id).order_by(orm.outbox.c.id)
        )
        keys = {(str(r.tournament_id), r.type) for r in rows}
    assert {k for t, k in keys if t == tid} >= {
        "player.joined.arena",
        "tournament.started.arena",
        "player.left.arena",
    }
    assert not {k for t, k in keys if t == tid} & {"player.joined", "tournament.started", "player.left"}
    assert {k for t, k in keys if t == other} == {
        "tournament.scheduled",
        "player.joined",
        "player.left",
        "tournament.cancelled",
    }
