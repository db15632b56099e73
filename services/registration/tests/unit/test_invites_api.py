"""Private tournaments (RULES.md §2): the password stored as an argon2id hash, never in clear, and
revocable invite links the organiser creates; a link lets its holder join without the password."""

from __future__ import annotations

import sqlalchemy as sa

from services.registration.adapters.orm import tournaments
from services.registration.tests.helpers import create, problem, register, token


def a_private_tournament(client) -> tuple[str, object]:
    org = register(client, "Org")
    r = create(client, org, password="s3cret words")
    assert r.status_code == 201 and r.json["private"] is True
    return r.json["id"], org


def join(client, tid, player, **body):
    return client.post(f"/tournaments/{tid}/entries", json=body, headers=token(player))


def test_the_password_is_stored_as_an_argon2id_hash(client, svc):
    tid, _ = a_private_tournament(client)
    with svc.engine.connect() as conn:
        stored = conn.execute(sa.select(tournaments.c.password_hash)).scalar_one()
    assert stored.startswith("$argon2id$") and "s3cret" not in stored
    problem(join(client, tid, register(client, "Ann"), password="wrong"), 403, "wrong-password")
    assert join(client, tid, register(client, "Bob"), password="s3cret words").status_code == 201


def test_an_invite_link_lets_its_holder_join_until_it_is_revoked(client, svc, clock):
    tid, org = a_private_tournament(client)
    r = client.post(f"/tournaments/{tid}/invites", json={}, headers=token(org))
    assert r.status_code == 201, r.json
    link = r.json
    assert len(link["token"]) >= 40 and link["revoked_at"] is None and link["expires_at"] is None
    assert join(client, tid, register(client, "Ann"), invite=link["token"]).status_code == 201
    listed = client.get(f"/tournaments/{tid}/invites", headers=token(org)).json["invites"]
    assert [i["token"] for i in listed] == [link["token"]]
    r = client.delete(f"/tournaments/{tid}/invites/{link['token']}", headers=token(org))
    assert r.status_code == 200 and r.json["revoked_at"] is not None
    body = problem(
        join(client, tid, register(client, "Bob"), invite=link["token"]), 403, "invite-link-revoked"
    )
    assert "revoked" in body["detail"]


def test_an_expired_or_unknown_link_is_a_403(client, svc, clock):
    tid, org = a_private_tournament(client)
    link = client.post(f"/tournaments/{tid}/invites", json={"valid_for_minutes": 10}, headers=token(org)).json
    clock.advance(11 * 60)
    problem(join(client, tid, register(client, "Ann"), invite=link["token"]), 403, "invite-link-expired")
    problem(join(client, tid, register(client, "Bob"), invite="not-a-link"), 403, "invite-link-invalid")
    other, other_org = a_private_tournament_of(client, "Org 2")
    theirs = client.post(f"/tournaments/{other}/invites", json={}, headers=token(other_org)).json
    problem(join(client, tid, register(client, "Cy"), invite=theirs["token"]), 403, "invite-link-invalid")


def a_private_tournament_of(client, name):
    org = register(client, name)
    return create(client, org, password="another").json["id"], org


def test_only_the_organiser_of_a_private_tournament_makes_links(client):
    tid, _ = a_private_tournament(client)
    someone = register(client, "Someone")
    problem(client.post(f"/tournaments/{tid}/invites", json={}, headers=token(someone)), 403, "not-organiser")
    problem(client.get(f"/tournaments/{tid}/invites", headers=token(someone)), 403, "not-organiser")
    public = create(client, register(client, "Org 3")).json
    # a tournament without a password has no links: the request is well formed, the tournament's state
    # refuses it (409; it was a 422, which the document gives a request its schema refuses)
    headers = token(public["organiser_id"])
    problem(client.post(f"/tournaments/{public['id']}/invites", json={}, headers=headers), 409, "not-private")
    problem(
        client.delete(f"/tournaments/{public['id']}/invites/sometoken", headers=headers), 409, "not-private"
    )
