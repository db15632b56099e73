"""Absences in `platform` rounds (RULES.md §2 "Absence"): the game server reports presence through an
authenticated endpoint; a busy player's game is not played but lost by forfeit, the opponent getting the
win points; both absent, the pairing ends 0–0; an offline player's game is created and the clock runs."""

from __future__ import annotations

import uuid

import pytest

from services.clocks.domain.game import Outcome
from services.clocks.domain.presence import ABSENT, BUSY, Presence, absence_forfeit
from services.clocks.tests.conftest import a_round, announce, published, token

GAME_SERVER = uuid.uuid4()


def report(client, player, status, who=None, *roles):
    headers = token(who or GAME_SERVER, *(roles or ("service",)))
    return client.post("/presence", json={"player_id": str(player), "status": status}, headers=headers)


@pytest.mark.parametrize(
    ("white", "black", "outcome", "reason"),
    [
        (None, None, None, None),
        (Presence.DISCONNECTED, Presence.DISCONNECTED, None, None),  # rule (a): the clock decides
        (Presence.BUSY, None, Outcome.BLACK_FORFEIT_WIN, BUSY),
        (Presence.CONNECTED, Presence.BUSY, Outcome.WHITE_FORFEIT_WIN, BUSY),
        (Presence.BUSY, Presence.BUSY, Outcome.DOUBLE_FORFEIT, ABSENT),
        (Presence.BUSY, Presence.DISCONNECTED, Outcome.DOUBLE_FORFEIT, ABSENT),
        (Presence.DISCONNECTED, Presence.BUSY, Outcome.DOUBLE_FORFEIT, ABSENT),
    ],
)
def test_who_is_absent_decides_the_game(white, black, outcome, reason):
    forfeit = absence_forfeit(white, black)
    assert (None if forfeit is None else (forfeit.outcome, forfeit.reason)) == (
        None if outcome is None else (outcome, reason)
    )


def test_a_busy_player_loses_by_forfeit_and_both_absent_end_nil_nil(client, svc):
    pairing = a_round(3)
    busy, both_a, both_b, offline = (
        pairing.game(1).white,
        pairing.game(2).white,
        pairing.game(2).black,
        pairing.game(3).black,
    )
    for player, status in (
        (busy, "busy"),
        (both_a, "busy"),
        (both_b, "disconnected"),
        (offline, "disconnected"),
    ):
        assert report(client, player, status).status_code == 204
    announce(svc, pairing)
    finished = {e.payload["game_id"]: e.payload for e in published(svc, "game.finished")}
    one, two = finished[str(pairing.game(1).game_id)], finished[str(pairing.game(2).game_id)]
    assert (one["outcome"], one["reason"], one["moves"]) == ("-/+", "busy", 0)
    assert (two["outcome"], two["reason"]) == ("-/-", "absent")
    assert str(pairing.game(3).game_id) not in finished  # offline: created, its clock runs
    started = {e.payload["game_id"] for e in published(svc, "game.started")}
    assert started == {str(pairing.game(3).game_id)}


def test_a_player_with_a_game_running_elsewhere_is_busy(client, svc):
    first = a_round(1)
    announce(svc, first)
    elsewhere = first.game(1).black  # still playing in another tournament
    second = a_round(1)
    second = second.__class__(
        second.tournament_id,
        second.organiser_id,
        1,
        [second.game(1).model_copy(update={"white": elsewhere})],
        second.time_control,
    )
    announce(svc, second)
    [result] = [e.payload for e in published(svc, "game.finished")]
    assert (result["game_id"], result["outcome"], result["reason"]) == (
        str(second.game(1).game_id),
        "-/+",
        "busy",
    )


def test_only_the_game_server_reports_presence(client):
    player = uuid.uuid4()
    r = report(client, player, "busy", player, "player")
    assert r.status_code == 403 and r.json["type"] == "/problems/forbidden"
    assert report(client, player, "asleep").status_code == 422


def test_a_player_disconnected_after_their_first_move_has_thirty_seconds(client, svc, clock):
    from services.clocks.service_layer.commands import CheckFlags

    pairing = a_round(2, base=600, increment=0)
    announce(svc, pairing)
    gone, back = pairing.game(1), pairing.game(2)
    for g in (gone, back):
        assert client.post(f"/games/{g.game_id}/moves", json={}, headers=token(g.white)).status_code == 200
    assert report(client, gone.white, "disconnected").status_code == 204
    assert report(client, back.white, "disconnected").status_code == 204
    assert report(client, back.black, "disconnected").status_code == 204  # before a first move: nothing
    clock.advance(20)
    report(client, back.white, "connected")
    clock.advance(11)
    svc.bus.handle(CheckFlags())
    finished = [e.payload for e in published(svc, "game.finished")]
    assert [(f["game_id"], f["outcome"], f["reason"]) for f in finished] == [
        (str(gone.game_id), "0-1", "disconnected")
    ]
    assert client.get(f"/games/{back.game_id}").json["status"] == "running"


def test_a_disconnection_in_a_correspondence_game_changes_nothing(client, svc, clock):
    """Days per move (a group-playoff event's games): a player offline between moves keeps the game."""
    from services.clocks.service_layer.commands import CheckFlags

    pairing = a_round(1, base=0, increment=0, days=2)
    announce(svc, pairing)
    g = pairing.game(1)
    assert client.post(f"/games/{g.game_id}/moves", json={}, headers=token(g.white)).status_code == 200
    assert report(client, g.white, "disconnected").status_code == 204
    clock.advance(3600)
    svc.bus.handle(CheckFlags())
    assert published(svc, "game.finished") == []
    assert client.get(f"/games/{g.game_id}").json["status"] == "running"
