"""Registration's part of the authorisation matrix: each endpoint for its decisions (and the reads of
them) against every principal, checking each cell's status; a refused cell changes nothing stored."""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from services.registration.tests.helpers import register, tables, token
from shared.http.auth import issue_token
from shared.settings import DEV_JWT_SECRET

PRINCIPALS = (
    "none",
    "malformed",
    "expired",
    "stranger",  # a registered account with no part in the tournament, an arbiter role in its token
    "player",  # a player of the tournament
    "other organiser",
    "arbiter out of scope",  # appointed for one game
    "arbiter in scope",  # appointed for the whole tournament
    "organiser",
    "service",
)


@dataclass
class World:
    """A knockout with eight players, its organiser, an arbiter for the whole of it and one for a game."""

    client: Any
    tid: str
    org: uuid.UUID
    players: list[uuid.UUID]
    whole: uuid.UUID
    scoped: uuid.UUID
    stranger: uuid.UUID
    other_org: uuid.UUID

    def headers(self, principal: str) -> dict[str, str]:
        if principal == "none":
            return {}
        if principal == "malformed":
            return {"Authorization": "Bearer not.a.token"}
        if principal == "expired":
            jwt = issue_token(DEV_JWT_SECRET, self.org, {"player"}, ttl=dt.timedelta(seconds=-60))
            return {"Authorization": f"Bearer {jwt}"}
        subject, *roles = {
            "stranger": (self.stranger, "player", "arbiter"),
            "player": (self.players[0], "player"),
            "other organiser": (self.other_org, "player"),
            "arbiter out of scope": (self.scoped, "player", "arbiter"),
            "arbiter in scope": (self.whole, "player", "arbiter"),
            "organiser": (self.org, "player"),
            "service": (uuid.uuid4(), "service"),
        }[principal]
        return token(subject, *roles)


def world(client: Any, *, start: bool = True, seeding: str = "rating") -> World:
    org, other_org = register(client, "Org"), register(client, "Other organiser")
    whole, scoped, stranger = (
        register(client, "Whole"),
        register(client, "Scoped"),
        register(client, "Stranger"),
    )
    body = {
        "name": "Cup",
        "ruleset": "knockout",
        "time_control": {"base_seconds": 600},
        "knockout": {"seeding": seeding},
    }
    tid = client.post("/tournaments", json=body, headers=token(org)).json["id"]
    players = [register(client, f"P{i}") for i in range(len(PRINCIPALS) + 1)]
    for p in players:
        r = client.post(f"/tournaments/{tid}/entries", json={"player_id": str(p)}, headers=token(org))
        assert r.status_code == 201
    arbiters = f"/tournaments/{tid}/arbiters"
    for account, games in ((whole, None), (scoped, [str(uuid.uuid4())])):
        r = client.post(arbiters, json={"account_id": str(account), "games": games}, headers=token(org))
        assert r.status_code == 201
    if start:
        assert client.post(f"/tournaments/{tid}/start", headers=token(org)).status_code == 200
    return World(client, tid, org, players, whole, scoped, stranger, other_org)


@dataclass
class Case:
    act: Callable[[World, str, Any], Any]
    allowed: dict[str, int]
    prepare: Callable[[World], Any] = lambda w: None
    setup: dict[str, Any] = field(default_factory=dict)
    fresh: bool = False  # the one success can happen only once: a new world for each principal

    def statuses(self) -> dict[str, int]:
        """401 for the three bad tokens, the allowed principals' statuses, 403 for everyone else."""
        return dict.fromkeys(PRINCIPALS, 403) | {"none": 401, "malformed": 401, "expired": 401} | self.allowed


def newcomer(w: World) -> uuid.UUID:
    return register(w.client, "Newcomer")


def appointed_newcomer(w: World) -> uuid.UUID:
    account = newcomer(w)
    r = w.client.post(
        f"/tournaments/{w.tid}/arbiters", json={"account_id": str(account)}, headers=token(w.org)
    )
    assert r.status_code == 201
    return account


def next_player(w: World) -> uuid.UUID:
    return w.players.pop()


def withdraw(exclude: bool) -> Callable[[World, str, Any], Any]:
    def act(w: World, principal: str, player: uuid.UUID) -> Any:
        body = {"player_id": str(player), "reason": "the matrix", "exclude": exclude}
        return w.client.post(f"/tournaments/{w.tid}/withdrawals", json=body, headers=w.headers(principal))

    return act


def read(what: str) -> Callable[[World, str, Any], Any]:
    return lambda w, principal, _: w.client.get(f"/tournaments/{w.tid}/{what}", headers=w.headers(principal))


OFFICIALS = {"organiser": 200, "arbiter in scope": 200, "arbiter out of scope": 200}
CASES = {
    "POST arbiters": Case(
        lambda w, p, account: w.client.post(
            f"/tournaments/{w.tid}/arbiters", json={"account_id": str(account)}, headers=w.headers(p)
        ),
        {"organiser": 201},
        newcomer,
    ),
    "DELETE arbiters/{account}": Case(
        lambda w, p, account: w.client.delete(
            f"/tournaments/{w.tid}/arbiters/{account}", headers=w.headers(p)
        ),
        {"organiser": 200},
        appointed_newcomer,
    ),
    "POST withdrawals": Case(withdraw(False), {"organiser": 201, "arbiter in scope": 201}, next_player),
    "POST withdrawals (exclude)": Case(withdraw(True), {"organiser": 201}, next_player),
    "POST seeding/draw": Case(
        lambda w, p, _: w.client.post(f"/tournaments/{w.tid}/seeding/draw", headers=w.headers(p)),
        {"organiser": 200},
        setup={"start": False, "seeding": "random"},
        fresh=True,
    ),
    "GET arbiters": Case(read("arbiters"), OFFICIALS),
    "GET audit": Case(read("audit"), OFFICIALS),
}


@pytest.mark.parametrize("name", list(CASES))
def test_every_principal_gets_its_status(client, svc, name: str) -> None:
    case = CASES[name]
    w = world(client, **case.setup)
    got = {}
    for principal in PRINCIPALS:
        if case.fresh:
            w = world(client, **case.setup)
        target = case.prepare(w)
        before = tables(svc)
        response = case.act(w, principal, target)
        got[principal] = response.status_code
        if response.status_code >= 400:
            assert response.content_type == "application/problem+json"
            assert tables(svc) == before, f"{name} as {principal} changed the stored state"
    assert got == case.statuses()
