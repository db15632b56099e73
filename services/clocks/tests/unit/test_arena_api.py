"""Arena games in clocks over HTTP (RULES.md §3): ``arena.paired`` creates and starts them, the boost is a
clock change taken before one's own first move (409s otherwise), the boosted side's moves add no
increment, a player who never arrives loses on time, and ``game.finished`` carries the boosts."""

from __future__ import annotations

import uuid

from services.clocks.service_layer.commands import CheckFlags
from services.clocks.tests.conftest import a_round, announce, published, token
from shared import events
from shared.events import wrap
from shared.variants import Variant


def arena_pass(games: int = 1, *, base: int = 180, increment: int = 2) -> events.ArenaPaired:
    return events.ArenaPaired(
        tournament_id=uuid.uuid4(),
        organiser_id=uuid.uuid4(),
        games=[
            events.ArenaGame(game_id=uuid.uuid4(), white=uuid.uuid4(), black=uuid.uuid4())
            for _ in range(games)
        ],
        time_control=events.TimeControl(base_seconds=base, increment_seconds=increment),
        paired_at=events.utcnow(),
    )


def paired(svc, event: events.ArenaPaired) -> None:
    announce(svc, wrap(event, event.tournament_id))


def boost(client, game_id, player):
    return client.post(f"/games/{game_id}/boost", json={}, headers=token(player))


def move(client, game_id, player):
    return client.post(f"/games/{game_id}/moves", json={}, headers=token(player))


def problem(r, status, slug):
    assert r.status_code == status, r.json
    assert r.content_type == "application/problem+json"
    assert r.json["type"] == f"/problems/{slug}"


def test_an_arena_pass_creates_and_starts_its_games(client, svc):
    event = arena_pass(2)
    paired(svc, event)
    paired(svc, event)  # announced again by a worker taking over: nothing new
    for board, g in enumerate(event.games, start=1):
        body = client.get(f"/games/{g.game_id}").json
        assert body["status"] == "running" and body["board"] == board and body["round"] == 0
    assert len(published(svc, "game.started")) == 2


def test_the_boost_halves_the_base_and_drops_the_increment(client, svc, clock):
    event = arena_pass(base=180, increment=2)
    paired(svc, event)
    g = event.games[0]
    r = boost(client, g.game_id, g.white)
    assert r.status_code == 200, r.json
    assert (r.json["white_ms"], r.json["black_ms"], r.json["boosted"]) == (90_000, 180_000, ["white"])
    clock.advance(10)
    assert move(client, g.game_id, g.white).json["white_ms"] == 80_000  # no increment for White
    r = boost(client, g.game_id, g.black)  # Black boosts after White's first move, before their own
    assert r.status_code == 200 and r.json["black_ms"] == 90_000
    clock.advance(5)
    assert move(client, g.game_id, g.black).json["black_ms"] == 85_000
    problem(boost(client, g.game_id, g.black), 409, "boost-too-late")
    r = client.post(
        f"/games/{g.game_id}/result", json={"outcome": "1-0", "reason": "resignation"}, headers=token(g.black)
    )
    assert r.status_code == 200, r.json
    (finished,) = published(svc, "game.finished")
    assert finished.payload["boost"] == {"white": True, "black": True}
    assert client.get(f"/games/{g.game_id}").json["clock"]["boosted"] == ["black", "white"]


def test_a_base_under_forty_increments_is_kept_whole(client, svc):
    event = arena_pass(base=60, increment=2)  # 1+2: 60 < 80
    paired(svc, event)
    g = event.games[0]
    assert boost(client, g.game_id, g.black).json["black_ms"] == 60_000


def test_boosts_refused(client, svc):
    event = arena_pass(base=0, increment=5)
    paired(svc, event)
    g = event.games[0]
    problem(boost(client, g.game_id, g.white), 409, "boost-not-offered")  # 0+x
    event = arena_pass()
    paired(svc, event)
    g = event.games[0]
    assert boost(client, g.game_id, g.white).status_code == 200
    problem(boost(client, g.game_id, g.white), 409, "already-boosted")
    rnd = a_round(1)  # a tournament's game: no boost
    announce(svc, rnd)
    problem(boost(client, rnd.game(1).game_id, rnd.game(1).white), 409, "boost-not-offered")
    assert boost(client, uuid.uuid4(), g.white).status_code == 404
    problem(boost(client, g.game_id, uuid.uuid4()), 403, "not-a-player")  # someone else's game, as a move
    assert client.post(f"/games/{g.game_id}/boost", json={}).status_code == 401


def test_a_player_who_never_arrives_loses_on_time(client, svc, clock):
    event = arena_pass(base=60, increment=0)
    paired(svc, event)
    g = event.games[0]
    clock.advance(61)
    svc.bus.handle(CheckFlags(sweep=True))
    (finished,) = published(svc, "game.finished")
    assert (finished.payload["outcome"], finished.payload["reason"]) == ("0-1", "time")
    assert finished.payload["boost"] == {"white": False, "black": False}
    assert client.get(f"/games/{g.game_id}").json["status"] == "finished"


def test_an_arena_game_is_played_on_the_arenas_board_from_the_start(client, svc):
    event = arena_pass().model_copy(update={"variant": Variant.INTERNATIONAL})
    paired(svc, event)
    g = event.games[0]
    body = client.get(f"/games/{g.game_id}").json
    assert body["variant"] == "international" and body["opening"] is None
    r = client.post(f"/games/{g.game_id}/moves", json={"move": "e4"}, headers=token(g.white))
    assert r.status_code == 422 and r.json["type"] == "/problems/illegal-move", r.json
    r = client.post(f"/games/{g.game_id}/moves", json={"move": "32-28"}, headers=token(g.white))
    assert r.status_code == 200, r.json
    assert client.get(f"/games/{g.game_id}").json["line"] == ["32-28"]
