"""The clocks service over HTTP with the embedded adapters: a game played through, the events it
publishes, and every bad input's problem type."""

from __future__ import annotations

import uuid

import pytest

from services.clocks.service_layer.commands import CheckFlags
from services.clocks.tests.conftest import a_round, announce, published, token

STAFF = uuid.uuid4()


def move(client, game_id, player, **body):
    return client.post(f"/games/{game_id}/moves", json=body, headers=token(player))


def result(client, game_id, who, outcome="1-0", reason="resignation", *roles):
    return client.post(
        f"/games/{game_id}/result", json={"outcome": outcome, "reason": reason}, headers=token(who, *roles)
    )


def problem(r, status, slug):
    assert r.status_code == status, r.json
    assert r.content_type == "application/problem+json"
    assert r.json["type"] == f"/problems/{slug}"
    assert "Traceback" not in r.get_data(as_text=True)


def test_a_game_played_through(client, svc, clock):
    pairing = a_round(2, base=180, increment=2)
    announce(svc, pairing)
    g = pairing.game(1)
    body = client.get(f"/games/{g.game_id}").json
    assert body["status"] == "running" and body["white"] == {"player_id": str(g.white), "moved": False}
    assert body["clock"]["to_move"] == "white" and body["clock"]["white_ms"] == 180_000
    clock.advance(10)
    r = move(client, g.game_id, g.white)
    assert r.status_code == 200, r.json
    assert (r.json["to_move"], r.json["white_ms"], r.json["black_ms"]) == ("black", 172_000, 180_000)
    assert r.json["deadline"].startswith("2026-06-01T12:03:10")
    clock.advance(30)
    assert move(client, g.game_id, g.black).json["black_ms"] == 152_000
    clock.advance(20)
    body = client.get(f"/games/{g.game_id}").json
    assert (body["clock"]["white_ms"], body["moves"], body["both_moved"]) == (152_000, 2, True)
    r = result(client, g.game_id, g.white, "0-1", "resignation")
    assert r.status_code == 200, r.json
    assert r.json["result"]["outcome"] == "0-1" and r.json["status"] == "finished"
    assert r.json["clock"]["state"] == "stopped" and r.json["clock"]["deadline"] is None
    [finished] = published(svc, "game.finished")
    assert finished.payload["game_id"] == str(g.game_id)
    assert (finished.payload["outcome"], finished.payload["reason"], finished.payload["moves"]) == (
        "0-1",
        "resignation",
        2,
    )
    assert len(published(svc, "game.started")) == 2


def test_a_tournaments_games_by_round(client, svc):
    first = a_round(2)
    announce(svc, first)
    second = a_round(1, round=2, tournament_id=first.tournament_id, organiser_id=first.organiser_id)
    announce(svc, second)
    games = client.get(f"/tournaments/{first.tournament_id}/games").json["games"]
    assert [(g["round"], g["board"]) for g in games] == [(1, 1), (1, 2), (2, 1)]
    games = client.get(f"/tournaments/{first.tournament_id}/games?round=2").json["games"]
    assert [g["id"] for g in games] == [str(second.game(1).game_id)]
    assert client.get(f"/tournaments/{uuid.uuid4()}/games").json == {"games": []}
    problem(client.get(f"/tournaments/{first.tournament_id}/games?round=0"), 422, "validation-error")


def test_the_flag_falls_and_the_api_shows_it(client, svc, clock):
    pairing = a_round(1, base=60, increment=0)
    announce(svc, pairing)
    g = pairing.game(1)
    clock.advance(61)
    assert client.get(f"/games/{g.game_id}").json["clock"]["white_ms"] == 0
    svc.bus.handle(CheckFlags())
    body = client.get(f"/games/{g.game_id}").json
    assert body["status"] == "finished" and body["both_moved"] is False
    assert body["result"] == {
        "outcome": "0-1",
        "reason": "time",
        "finished_at": "2026-06-01T12:01:00Z",
        "decision": None,  # nobody decided it: the clock did
        "corrected": False,
        "corrections": [],
    }
    assert body["clock"]["flagged"] == "white"


def test_a_late_move_is_refused_and_ends_the_game(client, svc, clock):
    pairing = a_round(1, base=60, increment=0)
    announce(svc, pairing)
    g = pairing.game(1)
    clock.advance(60)
    r = move(client, g.game_id, g.white)
    problem(r, 409, "flag-fallen")
    assert (
        r.json["detail"] == "white's time ran out at 2026-06-01T12:01:00+00:00: the game is over, 0-1 on time"
    )
    assert client.get(f"/games/{g.game_id}").json["result"]["reason"] == "time"
    assert len(published(svc, "game.finished")) == 1


def test_a_late_result_is_refused_and_the_game_ends_on_time(client, svc, clock):
    pairing = a_round(1, base=60, increment=0)
    announce(svc, pairing)
    g = pairing.game(1)
    clock.advance(5)
    assert move(client, g.game_id, g.white).status_code == 200
    clock.advance(70)  # Black's flag fell at 65 s
    problem(result(client, g.game_id, g.white, "1/2-1/2", "agreement"), 409, "flag-fallen")
    body = client.get(f"/games/{g.game_id}").json
    assert (body["result"]["outcome"], body["result"]["reason"], body["result"]["finished_at"]) == (
        "1-0",
        "time",
        "2026-06-01T12:01:05Z",
    )
    [finished] = published(svc, "game.finished")
    assert (finished.payload["outcome"], finished.payload["moves"]) == ("1-0", 1)
    problem(result(client, g.game_id, g.white, "1/2-1/2", "agreement"), 409, "game-finished")


def test_a_service_reports_a_move_for_the_player_to_move(client, svc):
    pairing = a_round(1)
    announce(svc, pairing)
    g = pairing.game(1)
    r = client.post(
        f"/games/{g.game_id}/moves", json={"player_id": str(g.white)}, headers=token(STAFF, "service")
    )
    assert r.status_code == 200 and r.json["to_move"] == "black"
    problem(
        client.post(f"/games/{g.game_id}/moves", json={"player_id": str(g.black)}, headers=token(g.white)),
        403,
        "forbidden",
    )
    problem(
        client.post(
            f"/games/{g.game_id}/moves", json={"player_id": str(g.white)}, headers=token(STAFF, "service")
        ),
        409,
        "not-your-turn",
    )


def test_bad_input_gets_stable_problems(client, svc, clock):
    pairing = a_round(1)
    announce(svc, pairing)
    g = pairing.game(1)
    stranger = uuid.uuid4()

    problem(client.get(f"/games/{uuid.uuid4()}"), 404, "game-not-found")
    problem(client.get("/games/not-a-uuid"), 404, "not-found")
    problem(move(client, uuid.uuid4(), g.white), 404, "game-not-found")
    problem(result(client, uuid.uuid4(), STAFF, "1-0", "forfeit", "arbiter"), 404, "game-not-found")
    problem(move(client, g.game_id, g.black), 409, "not-your-turn")
    problem(move(client, g.game_id, stranger), 403, "not-a-player")
    problem(result(client, g.game_id, stranger), 403, "not-your-game")
    problem(
        client.post(f"/games/{g.game_id}/moves", json={}, headers={"Authorization": "Bearer not.a.jwt"}),
        401,
        "unauthorized",
    )
    problem(client.post(f"/games/{g.game_id}/moves", json={}), 401, "unauthorized")
    problem(result(client, g.game_id, g.white, "2-0"), 422, "validation-error")
    problem(result(client, g.game_id, g.white, "+-"), 422, "validation-error")  # the wire says +/-
    # what the document forbids (no "*", a reason that is a short lowercase code) is refused by its schema
    problem(result(client, g.game_id, pairing.organiser_id, "*", "annulled"), 422, "validation-error")
    problem(result(client, g.game_id, g.white, "1-0", ""), 422, "validation-error")
    problem(result(client, g.game_id, g.white, "1-0", "Resigned!"), 422, "validation-error")
    problem(
        client.post(f"/games/{g.game_id}/result", json={"outcome": "1-0"}, headers=token(g.white)),
        422,
        "validation-error",
    )
    problem(
        client.post(f"/games/{g.game_id}/moves", json={"extra": 1}, headers=token(g.white)),
        422,
        "validation-error",
    )
    r = client.post(
        f"/games/{g.game_id}/result",
        data="{nope",
        headers={**token(g.white), "Content-Type": "application/json"},
    )
    assert r.status_code in (400, 422) and r.content_type == "application/problem+json"
    assert result(client, g.game_id, g.white, "0-1").status_code == 200
    problem(result(client, g.game_id, g.black, "1-0"), 409, "game-finished")
    problem(move(client, g.game_id, g.white), 409, "game-finished")
    assert len(published(svc, "game.finished")) == 1


def test_a_move_needs_no_body(client, svc):
    pairing = a_round(1)
    announce(svc, pairing)
    g = pairing.game(1)
    r = client.post(f"/games/{g.game_id}/moves", headers=token(g.white))
    assert r.status_code == 200, r.json


def test_openapi_document_lists_the_endpoints(client):
    doc = client.get("/openapi.json").json
    assert {
        "/games/{game_id}",
        "/games/{game_id}/moves",
        "/games/{game_id}/result",
        "/tournaments/{tournament_id}/games",
    } <= set(doc["paths"])
    assert "bearer" in doc["components"]["securitySchemes"]
    assert {"ResultBody", "GameOut", "ClockOut"} <= set(doc["components"]["schemas"])


@pytest.mark.parametrize("path", ["/healthz", "/readyz"])
def test_probes(client, path):
    r = client.get(path)
    assert r.status_code in (200, 503)
    if path == "/readyz":
        assert r.json["checks"]["deadlines"] == "ok" and r.json["checks"]["database"] == "ok"


def test_the_clock_reads_as_of_now(client, svc, clock):
    pairing = a_round(1, base=0, increment=0, days=2)
    announce(svc, pairing)
    g = pairing.game(1)
    clock.advance(3600)
    body = client.get(f"/games/{g.game_id}").json["clock"]
    assert body["white_ms"] == 2 * 86_400_000 - 3_600_000 and body["black_ms"] == 2 * 86_400_000
    assert body["as_of"] == "2026-06-01T13:00:00Z" and body["time_control"]["days_per_move"] == 2


def test_input_the_database_cannot_hold_is_a_422(client, svc):
    pairing = a_round(2)
    announce(svc, pairing)
    g = pairing.game(1)
    games = f"/tournaments/{pairing.tournament_id}/games"
    problem(client.get(games, query_string={"round": 2**31}), 422, "validation-error")
    assert client.get(games, query_string={"round": 2**31 - 1}).json == {"games": []}
    problem(result(client, g.game_id, g.white, "1-0", "resig\x00nation"), 422, "validation-error")
    problem(result(client, g.game_id, g.white, "1-0", "r" * 41), 422, "validation-error")
