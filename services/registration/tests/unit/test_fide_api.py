"""A `fide-rapid` event over HTTP (embedded adapters, SQLite): creating it, its players entered, imported
(CSV and TRF), corrected, removed and confirmed, the starting-rank list, the start and a late entry; every
status and problem type, and every refused request leaves every table as it was."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from services.registration.tests.helpers import create_fide, problem, published, register, tables, token
from shared.events import RoundPaired, TimeControl, TournamentStarted, wrap


def refused(svc, request, status: int, slug: str) -> dict[str, Any]:
    before = tables(svc)
    body = problem(request(), status, slug)
    assert tables(svc) == before, f"{slug} changed the stored state"
    return body


def add(client, tid, who, name="Ann", **profile):
    return client.post(f"/tournaments/{tid}/players", json={"name": name, **profile}, headers=token(who))


def upload(client, tid, who, text: str, content_type: str = "text/csv", **headers):
    return client.post(
        f"/tournaments/{tid}/players/import",
        data=text.encode(),
        headers={**token(who), "Content-Type": content_type, **headers},
    )


@pytest.fixture
def event(client) -> dict[str, Any]:
    org, whole, scoped, stranger = (register(client, n) for n in ("Org", "Whole", "Scoped", "Stranger"))
    r = create_fide(client, org, fide={"rounds": 5, "place": "Bern", "start_date": "2026-06-06"})
    assert r.status_code == 201, r.json
    tid = r.json["id"]
    for account, games in ((whole, None), (scoped, [str(uuid.uuid4())])):
        body = {"account_id": str(account), "games": games}
        assert client.post(f"/tournaments/{tid}/arbiters", json=body, headers=token(org)).status_code == 201
    return {"tid": tid, "org": org, "whole": whole, "scoped": scoped, "stranger": stranger}


def test_creating_an_event(client, svc) -> None:
    org = register(client, "Org")
    r = create_fide(client, org, rated=False)
    assert r.status_code == 201, r.json
    assert r.headers["Location"] == f"/tournaments/{r.json['id']}"
    body = r.json
    assert (body["ruleset"], body["status"], body["starts_at"], body["byes_on_request"], body["rated"]) == (
        "fide-rapid",
        "scheduled",
        None,
        True,
        False,
    )
    assert body["fide"] == {
        "rounds": 5,
        "system": "swiss",
        "place": "",
        "start_date": None,
        "end_date": None,
        "acceleration": False,
        "clocks": "board",
        "default_time_minutes": 10,
        "late_entry_bye": "zero",
        "federation": "",
        "chief_arbiter": "",
        "deputy_arbiters": [],
        "rounds_paired": 0,
    }
    assert body["knockout"] is None and body["entries"] == []
    assert published(svc, "tournament.scheduled") == []
    rr = create_fide(
        client, org, fide={"system": "round_robin", "clocks": "server", "late_entry_bye": "half"}
    )
    assert rr.status_code == 201 and rr.json["fide"]["rounds"] is None


def test_the_officials_of_record_for_the_trf(client, svc) -> None:
    """The organising federation, the chief arbiter and the deputies (TRF 032, 102, 112): trimmed, the
    federation in capitals; a federation that is no three-letter code is refused."""
    org = register(client, "Org")
    officials = {
        "federation": "sui",
        "chief_arbiter": " IA  Hans Muster 1300100 ",
        "deputy_arbiters": ["FA Eva", " "],
    }
    r = create_fide(client, org, fide={"rounds": 5, **officials})
    assert r.status_code == 201, r.json
    fide = r.json["fide"]
    assert (fide["federation"], fide["chief_arbiter"], fide["deputy_arbiters"]) == (
        "SUI", "IA Hans Muster 1300100", ["FA Eva"],
    )  # fmt: skip
    bad = create_fide(client, org, fide={"rounds": 5, "federation": "S1I"})
    assert "three-letter code" in problem(bad, 422, "invalid-settings")["detail"]


@pytest.mark.parametrize(
    ("kw", "slug", "detail"),
    [
        (
            {"time_control": {"base_seconds": 600}},
            "time-control-not-rapid",
            "FIDE rapid is more than 10 and less than 60 minutes for 60 moves (base + 60 × increment);"
            " 10+0 is 10 minutes",
        ),
        (
            {"time_control": {"base_seconds": 3000, "increment_seconds": 10}},
            "time-control-not-rapid",
            "50+10 is 60 minutes",
        ),
        ({"fide": {"system": "round_robin", "rounds": 5}}, "invalid-settings", "leave fide.rounds out"),
        ({"fide": {}}, "invalid-settings", "a Swiss needs its number of rounds"),
        ({"fide": None}, "invalid-settings", "needs its fide settings"),
        (
            {"fide": {"rounds": 5, "start_date": "2026-06-07", "end_date": "2026-06-06"}},
            "invalid-settings",
            "before the start date",
        ),
        ({"seats": 30, "threshold": 9}, "invalid-settings", "not a fide-rapid setting: seats, threshold"),
        ({"password": "x"}, "invalid-settings", "not a fide-rapid setting: password"),
        ({"starts_at": "2026-06-01T13:00:00Z"}, "invalid-settings", "no scheduled start"),
        ({"byes_on_request": False}, "invalid-settings", "zero-point byes on request"),
        ({"variant": "italian"}, "invalid-settings", "FIDE rapid is chess"),
        ({"fide": {"rounds": 31}}, "validation-error", None),
        ({"fide": {"rounds": 5, "system": "dutch"}}, "validation-error", None),
        ({"fide": {"rounds": 5, "default_time_minutes": 61}}, "validation-error", None),
        ({"fide": {"rounds": 5, "colour": "white"}}, "validation-error", None),
    ],
)
def test_refused_events(client, svc, kw, slug, detail) -> None:
    org = register(client, "Org")
    body = refused(svc, lambda: create_fide(client, org, **kw), 422, slug)
    if detail is not None:
        assert detail in body["detail"]


def test_fide_settings_on_another_ruleset_are_refused(client, svc) -> None:
    org = register(client, "Org")
    body = {
        "name": "Cup",
        "ruleset": "knockout",
        "time_control": {"base_seconds": 600},
        "fide": {"rounds": 5},
    }
    refused(svc, lambda: client.post("/tournaments", json=body, headers=token(org)), 422, "invalid-settings")


def test_entering_people_by_hand(client, svc, event, clock) -> None:
    tid, org = event["tid"], event["org"]
    r = add(
        client,
        tid,
        org,
        "Carlsen, Magnus",
        fide_id=1503014,
        federation="nor",
        title="GM",
        sex="m",
        birth_year=1990,
        rating_standard=2830,
        rating_rapid=2820,
    )
    assert r.status_code == 201, r.json
    pid = r.json["player_id"]
    assert r.headers["Location"] == f"/tournaments/{tid}/players/{pid}"
    assert r.json == {
        "player_id": pid,
        "name": "Carlsen, Magnus",
        "rating": 2830,
        "status": "active",
        "withdrawn_at": None,
        "profile": {
            "fide_id": 1503014,
            "federation": "NOR",
            "title": "GM",
            "sex": "m",
            "birth_year": 1990,
            "rating_standard": 2830,
            "rating_rapid": 2820,
        },
        "by_hand": True,
        "from_round": None,
        "paused": False,
        "roster_revision": 1,  # the first roster change, also in the header
    }
    assert r.headers["Roster-Revision"] == "1"
    clock.advance(1)
    newcomer = add(client, tid, event["whole"], "Newcomer")
    assert newcomer.json["profile"] is None
    assert (newcomer.json["roster_revision"], newcomer.headers["Roster-Revision"]) == (2, "2")
    shown = client.get(f"/tournaments/{tid}").json["entries"]
    assert [e["name"] for e in shown] == ["Carlsen, Magnus", "Newcomer"]
    assert [p.payload["name"] for p in published(svc, "player.joined")] == ["Carlsen, Magnus", "Newcomer"]


def test_refused_entries(client, svc, event) -> None:
    tid, org = event["tid"], event["org"]
    add(client, tid, org, "Carlsen", fide_id=1503014)
    url = f"/tournaments/{tid}/players"
    refused(svc, lambda: client.post(url, json={"name": "Ann"}), 401, "unauthorized")
    refused(svc, lambda: add(client, tid, event["scoped"]), 403, "not-an-arbiter-here")
    refused(svc, lambda: add(client, tid, event["stranger"]), 403, "not-an-arbiter-here")
    refused(svc, lambda: add(client, uuid.uuid4(), org), 404, "tournament-not-found")
    body = refused(svc, lambda: add(client, tid, org, "Impostor", fide_id=1503014), 409, "duplicate-fide-id")
    assert body["detail"] == "Impostor: FIDE id 1503014 is also that of Carlsen (entered already)"
    for bad in (
        {"title": "XX"},
        {"federation": "S1I"},
        {"sex": "x"},
        {"fide_id": 0},
        {"rating_standard": 4001},
        {"birth_year": 1800},
        {"elo": 2000},
    ):
        refused(svc, lambda bad=bad: add(client, tid, org, **bad), 422, "validation-error")
    refused(svc, lambda: add(client, tid, org, "   "), 422, "invalid-player")
    platform = client.post(
        "/tournaments",
        json={
            "name": "Blitz",
            "starts_at": "2026-06-01T13:00:00Z",
            "time_control": {"base_seconds": 180, "increment_seconds": 2},
        },
        headers=token(org),
    ).json["id"]
    refused(svc, lambda: add(client, platform, org), 409, "accounts-only")


CSV = """name,fide_id,federation,title,sex,birth_year,rating_standard,rating_rapid
"Meier, Anna",,SUI,WFM,w,2001,2105,
"Carlsen, Magnus",1503014,NOR,GM,m,1990,2830,2820
Newcomer,,,,,,,
"""


def test_importing_a_csv_list(client, svc, event) -> None:
    r = upload(client, event["tid"], event["whole"], CSV)
    assert r.status_code == 201, r.json
    assert r.json["tournament_id"] == event["tid"]
    assert [(p["name"], p["rating"], p["by_hand"]) for p in r.json["players"]] == [
        ("Meier, Anna", 2105, True),
        ("Carlsen, Magnus", 2830, True),
        ("Newcomer", None, True),
    ]
    ranked = client.get(f"/tournaments/{event['tid']}/players").json
    assert [(p["rank"], p["name"]) for p in ranked["players"]] == [
        (1, "Carlsen, Magnus"),
        (2, "Meier, Anna"),
        (3, "Newcomer"),
    ]


def test_importing_a_trf_file(client, svc, event) -> None:
    trf = (
        "012 Rapid open\n"
        "001    1 m  g Carlsen, Magnus                   2830 NOR     1503014 1990/11/30\n"
        "001    2 w wf Meier, Anna                       2105 SUI           0 2001\n"
    )
    r = upload(client, event["tid"], event["org"], trf, "text/plain; charset=utf-8")
    assert r.status_code == 201, r.json
    assert [(p["name"], p["profile"]) for p in r.json["players"]] == [
        (
            "Carlsen, Magnus",
            {
                "fide_id": 1503014,
                "federation": "NOR",
                "title": "GM",
                "sex": "m",
                "birth_year": 1990,
                "rating_standard": 2830,
                "rating_rapid": None,
            },
        ),
        (
            "Meier, Anna",
            {
                "fide_id": None,
                "federation": "SUI",
                "title": "WFM",
                "sex": "w",
                "birth_year": 2001,
                "rating_standard": 2105,
                "rating_rapid": None,
            },
        ),
    ]


def test_a_refused_import_imports_nothing(client, svc, event) -> None:
    tid, org = event["tid"], event["org"]
    add(client, tid, org, "Carlsen, M.", fide_id=1503014)
    body = refused(
        svc, lambda: upload(client, tid, org, CSV + "Broken,x1,,,,,,\n"), 422, "invalid-player-line"
    )
    assert (body["line"], body["detail"]) == (5, "line 5: fide_id: a whole number, got 'x1'")
    body = refused(
        svc, lambda: upload(client, tid, org, "001    1 bad\n", "text/plain"), 422, "invalid-player-line"
    )
    assert body["line"] == 1
    body = refused(svc, lambda: upload(client, tid, org, ""), 422, "invalid-player-line")
    assert (body["line"], body["detail"]) == (None, "the CSV file lists no players")
    body = refused(svc, lambda: upload(client, tid, org, CSV), 409, "duplicate-fide-id")
    assert (
        body["detail"]
        == "line 3 (Carlsen, Magnus): FIDE id 1503014 is also that of Carlsen, M. (entered already)"
    )
    twice = "name,fide_id\nAnn,7\nBob,7\n"
    body = refused(svc, lambda: upload(client, tid, org, twice), 409, "duplicate-fide-id")
    assert body["detail"] == "line 3 (Bob): FIDE id 7 is also that of line 2 (Ann)"
    refused(svc, lambda: upload(client, tid, org, CSV, "application/json"), 415, "unsupported-media-type")
    refused(svc, lambda: upload(client, tid, event["scoped"], "garbage"), 403, "not-an-arbiter-here")
    refused(
        svc,
        lambda: client.post(
            f"/tournaments/{tid}/players/import", data=b"name\nA\n", headers={"Content-Type": "text/csv"}
        ),
        401,
        "unauthorized",
    )
    refused(svc, lambda: upload(client, uuid.uuid4(), org, CSV), 404, "tournament-not-found")


def test_an_import_is_idempotent_with_a_key(client, svc, event) -> None:
    first = upload(client, event["tid"], event["org"], "name\nAnn\n", **{"Idempotency-Key": "list-1"})
    again = upload(client, event["tid"], event["org"], "name\nAnn\n", **{"Idempotency-Key": "list-1"})
    assert (first.status_code, again.status_code, again.headers.get("Idempotent-Replayed")) == (
        201,
        201,
        "true",
    )
    assert len(client.get(f"/tournaments/{event['tid']}").json["entries"]) == 1


def test_correcting_and_removing_players_before_the_start(client, svc, event) -> None:
    tid, org = event["tid"], event["org"]
    ann = add(client, tid, org, "Meier, A.", federation="SUI", title="WFM", rating_standard=2100).json[
        "player_id"
    ]
    url = f"/tournaments/{tid}/players/{ann}"
    r = client.patch(
        url, json={"name": "Meier, Anna", "title": None, "rating_rapid": 2050}, headers=token(event["whole"])
    )
    assert r.status_code == 200, r.json
    assert (r.json["name"], r.json["rating"], r.json["profile"]) == (
        "Meier, Anna",
        2100,
        {
            "fide_id": None,
            "federation": "SUI",
            "title": None,
            "sex": None,
            "birth_year": None,
            "rating_standard": 2100,
            "rating_rapid": 2050,
        },
    )
    bob = add(client, tid, org, "Bob", fide_id=7).json["player_id"]
    refused(svc, lambda: client.patch(url, json={"fide_id": 7}, headers=token(org)), 409, "duplicate-fide-id")
    refused(
        svc,
        lambda: client.patch(url, json={"name": "X"}, headers=token(event["scoped"])),
        403,
        "not-an-arbiter-here",
    )
    refused(svc, lambda: client.patch(url, json={"name": ""}, headers=token(org)), 422, "invalid-player")
    missing = f"/tournaments/{tid}/players/{uuid.uuid4()}"
    refused(
        svc, lambda: client.patch(missing, json={"name": "X"}, headers=token(org)), 404, "player-not-entered"
    )
    r = client.delete(f"/tournaments/{tid}/players/{bob}", headers=token(org))
    assert r.status_code == 200 and [e["name"] for e in r.json["entries"]] == ["Meier, Anna"]
    refused(
        svc,
        lambda: client.delete(f"/tournaments/{tid}/players/{bob}", headers=token(org)),
        404,
        "player-not-entered",
    )


def test_accounts_join_and_are_confirmed(client, svc, event) -> None:
    tid = event["tid"]
    ann = register(client, "Ann")
    r = client.post(
        f"/tournaments/{tid}/entries",
        json={"profile": {"fide_id": 42, "rating_standard": 1950}},
        headers=token(ann),
    )
    assert r.status_code == 201, r.json
    (entry,) = r.json["entries"]
    assert (entry["status"], entry["rating"], entry["by_hand"]) == ("unconfirmed", 1950, False)
    assert published(svc, "player.joined") == []
    assert client.get(f"/tournaments/{tid}/players").json["players"] == []  # not in the roster yet
    url = f"/tournaments/{tid}/entries/{ann}/confirm"
    refused(svc, lambda: client.post(url, headers=token(ann)), 403, "not-an-arbiter-here")
    r = client.post(url, headers=token(event["whole"]))
    assert r.status_code == 200 and r.json["entries"][0]["status"] == "active"
    assert [p.payload["player_id"] for p in published(svc, "player.joined")] == [str(ann)]
    refused(svc, lambda: client.post(url, headers=token(event["org"])), 409, "already-confirmed")
    refused(
        svc,
        lambda: client.post(
            f"/tournaments/{tid}/entries/{uuid.uuid4()}/confirm", headers=token(event["org"])
        ),
        404,
        "player-not-entered",
    )
    platform_org = register(client, "Other")
    body = {"name": "Blitz", "starts_at": "2026-06-01T13:00:00Z", "time_control": {"base_seconds": 180}}
    platform = client.post("/tournaments", json=body, headers=token(platform_org)).json["id"]
    bob = register(client, "Bob")
    refused(
        svc,
        lambda: client.post(
            f"/tournaments/{platform}/entries", json={"profile": {"fide_id": 1}}, headers=token(bob)
        ),
        422,
        "invalid-player",
    )
    refused(
        svc,
        lambda: client.post(f"/tournaments/{platform}/entries/{bob}/confirm", headers=token(platform_org)),
        409,
        "accounts-only",
    )


def test_starting_and_a_late_entry(client, svc, event) -> None:
    tid, org = event["tid"], event["org"]
    for i in range(5):
        add(client, tid, org, f"P{i}", rating_standard=2000 + i)
    start = f"/tournaments/{tid}/start"
    body = refused(svc, lambda: client.post(start, headers=token(event["whole"])), 409, "too-few-players")
    assert "a 5-round Swiss needs at least 6 players" in body["detail"]
    add(client, tid, org, "P5", title="GM", rating_standard=2000)
    refused(svc, lambda: client.post(start, headers=token(event["scoped"])), 403, "not-an-arbiter-here")
    r = client.post(start, headers=token(event["whole"]))
    assert r.status_code == 200, r.json
    assert (r.json["status"], r.json["starts_at"], r.json["fide"]["end_date"]) == (
        "started",
        "2026-06-01T12:00:00Z",
        "2026-06-06",
    )
    (started,) = published(svc, "tournament.started")
    roster = TournamentStarted.model_validate(started.payload).roster
    assert [(s.seed, s.name) for s in roster] == [
        (1, "P4"),
        (2, "P3"),
        (3, "P2"),
        (4, "P1"),
        (5, "P5"),
        (6, "P0"),
    ]
    refused(svc, lambda: client.post(start, headers=token(org)), 409, "already-started")
    refused(svc, lambda: upload(client, tid, org, "name\nLate\n"), 409, "registration-closed")
    paired = RoundPaired(
        tournament_id=uuid.UUID(tid),
        organiser_id=org,
        round=1,
        total_rounds=5,
        system="swiss",
        games=[],
        time_control=TimeControl(base_seconds=900, increment_seconds=10),
    )
    (subscription,) = [s for s in svc.subscriptions if "round.paired" in s.routing_keys]
    subscription.handler(wrap(paired, paired.tournament_id), paired)
    r = add(client, tid, event["whole"], "Late")
    assert (r.status_code, r.json["from_round"]) == (201, 2)
    assert client.get(f"/tournaments/{tid}").json["fide"]["rounds_paired"] == 1
    joined = published(svc, "player.joined")[-1].payload
    assert (joined["late"], joined["from_round"]) == (True, 2)
    ranked = client.get(f"/tournaments/{tid}/players").json["players"]
    assert [p["name"] for p in ranked][-1] == "Late"
