"""Pairing's decision endpoints over HTTP: every status and problem type each answers, who may call it
(no token, a malformed or expired one, a player, another organiser, an arbiter out of scope or in it,
the organiser, the game server), and that every refusal leaves the database exactly as it was."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest

from services.pairing.tests.helpers import (
    NOW,
    Api,
    appointed,
    deliver,
    knockout_started,
    published,
    started,
    token,
    withdrawn,
)
from shared import events
from shared.events import GameOutcome


def result(rp: events.RoundPaired, game: events.PairedGame, outcome: GameOutcome) -> events.GameFinished:
    return events.GameFinished(
        tournament_id=rp.tournament_id,
        game_id=game.game_id,
        round=rp.round,
        white=game.white,
        black=game.black,
        outcome=outcome,
        reason="reported",
        finished_at=NOW,
    )


def round_paired(svc, number: int) -> events.RoundPaired:
    return [
        events.RoundPaired.model_validate(e.payload)
        for e in published(svc, "round.paired")
        if e.payload["round"] == number
    ][-1]


def authentication_is_required(api: Api, method: str, path: str, body) -> None:
    api.refused(401, "unauthorized", method, path, json=body)
    api.refused(401, "unauthorized", method, path, {"Authorization": "Bearer nope"}, body)
    expired = token(uuid.uuid4(), ttl=-dt.timedelta(minutes=1))
    api.refused(401, "unauthorized", method, path, expired, body)


# -- corrections ------------------------------------------------------------------------------------------
def test_correcting_a_result_over_http(svc, api: Api):
    ev = started(8)
    deliver(svc, ev, ev.tournament_id)
    first = round_paired(svc, 1)
    game, other, unplayed = first.games[:3]
    deliver(svc, result(first, game, GameOutcome.WHITE_WIN), ev.tournament_id)
    deliver(svc, result(first, other, GameOutcome.DRAW), ev.tournament_id)
    scoped, whole, elsewhere = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    deliver(svc, appointed(ev, scoped, [game.game_id]), ev.tournament_id)
    deliver(svc, appointed(ev, whole), ev.tournament_id)
    deliver(svc, appointed(ev, elsewhere, [other.game_id]), ev.tournament_id)
    url = f"/games/{game.game_id}/correction"
    body = {"outcome": "0-1", "reason": "the arbiter misread the scoresheet"}

    authentication_is_required(api, "POST", url, body)
    organiser = token(ev.organiser_id)
    for bad in (
        {"outcome": "0-1"},
        {"outcome": "0-1", "reason": ""},
        {"outcome": "0-1", "reason": "   "},
        {"outcome": "*", "reason": "x"},
        {"outcome": "2-0", "reason": "x"},
        {"outcome": "0-1", "reason": "x", "extra": 1},
        {"outcome": "0-1", "reason": "x" * 501},
    ):
        api.refused(422, "validation-error", "POST", url, organiser, bad)
    api.refused(404, "game-not-found", "POST", f"/games/{uuid.uuid4()}/correction", organiser, body)
    for who in (
        token(game.white),  # a player of the game
        token(first.games[3].white),  # a player not in the game
        token(uuid.uuid4()),  # another organiser
        token(elsewhere, "arbiter"),  # an arbiter out of scope
        token(uuid.uuid4(), "arbiter"),  # an arbiter of another tournament
        token(uuid.uuid4(), "service"),  # the game server does not correct
    ):
        api.refused(403, "not-an-arbiter-here", "POST", url, who, body)
    api.refused(409, "game-not-finished", "POST", f"/games/{unplayed.game_id}/correction", organiser, body)
    api.refused(409, "nothing-to-correct", "POST", url, organiser, {**body, "outcome": "1-0"})

    answer = api.ok(200, "POST", url, token(scoped, "arbiter"), body)
    assert answer == {
        "tournament_id": str(ev.tournament_id),
        "game_id": str(game.game_id),
        "round": 1,
        "old_outcome": "1-0",
        "outcome": "0-1",
    }
    api.ok(200, "POST", url, token(whole), {**body, "outcome": "1/2-1/2"})
    api.ok(200, "POST", url, organiser, {**body, "outcome": "-/+"})
    sent = [e.payload for e in published(svc, "game.result_corrected")]
    assert [(p["old_outcome"], p["outcome"], p["decision"]["role"]) for p in sent] == [
        ("1-0", "0-1", "arbiter"),
        ("0-1", "1/2-1/2", "arbiter"),
        ("1/2-1/2", "-/+", "organiser"),
    ]
    games = api.ok(200, "GET", f"/tournaments/{ev.tournament_id}/rounds/1")["games"]
    assert next(g for g in games if g["game_id"] == str(game.game_id))["outcome"] == "-/+"


def test_a_correction_that_changes_who_advances_repairs_the_next_match_until_it_has_a_result(svc, api: Api):
    """RULES.md §4: refused once that player's next match has a result; before, the next match (paired,
    no result) is paired again with the new winner, and its old games are announced as cancelled."""
    ev = knockout_started(4, games=1)
    deliver(svc, ev, ev.tournament_id)
    first = round_paired(svc, 1)
    api.ok(200, "POST", f"/tournaments/{ev.tournament_id}/rounds/1/publish", token(ev.organiser_id))
    for g in first.games:
        deliver(svc, result(first, g, GameOutcome.WHITE_WIN), ev.tournament_id)
    game = next(g for g in first.games if g.match_id == "winners:1:1")
    other = next(g for g in first.games if g.match_id == "winners:1:2")
    final = round_paired(svc, 2)
    assert {final.games[0].white, final.games[0].black} == {game.white, other.white}
    url = f"/games/{game.game_id}/correction"
    api.ok(200, "POST", url, token(ev.organiser_id), {"outcome": "0-1", "reason": "wrong winner"})
    again = round_paired(svc, 2)
    [match] = again.matches
    assert set(match.players) == {game.black, other.white}  # the new winner of winners:1:1 advances
    [new_game] = again.games
    assert {new_game.white, new_game.black} == {game.black, other.white}
    assert again.games_cancelled == [final.games[0].game_id] and new_game.game_id != final.games[0].game_id
    assert new_game.label == final.games[0].label
    deliver(svc, result(again, new_game, GameOutcome.DRAW), ev.tournament_id)  # the final has a result
    problem = api.refused(
        409,
        "correction-changes-advancement",
        "POST",
        url,
        token(ev.organiser_id),
        {"outcome": "1-0", "reason": "wrong again"},
    )
    assert (problem["match_id"], problem["next_match_id"]) == ("winners:1:1", "winners:2:1")
    assert "has a result" in problem["detail"]
    api.ok(200, "POST", url, token(ev.organiser_id), {"outcome": "-/+", "reason": "forfeit"})  # same winner


# -- byes on request --------------------------------------------------------------------------------------
def test_asking_for_a_bye_over_http(svc, api: Api):
    ev = started(8, ruleset="fide-rapid", byes_on_request=True)
    deliver(svc, ev, ev.tournament_id)
    scoped, whole = uuid.uuid4(), uuid.uuid4()
    deliver(svc, appointed(ev, scoped, [round_paired(svc, 1).games[0].game_id]), ev.tournament_id)
    deliver(svc, appointed(ev, whole), ev.tournament_id)
    tid = ev.tournament_id
    url = f"/tournaments/{tid}/byes"
    one, two, three, four = (r.player_id for r in ev.roster[:4])
    body = {"player_id": str(one), "round": 2}

    authentication_is_required(api, "POST", url, body)
    for bad in (
        {"player_id": str(one)},
        {**body, "round": 0},
        {**body, "round": 2**31},
        {**body, "reason": " "},
    ):
        api.refused(422, "validation-error", "POST", url, token(one), bad)
    api.refused(404, "tournament-not-found", "POST", f"/tournaments/{uuid.uuid4()}/byes", token(one), body)
    api.refused(
        404, "player-not-found", "POST", url, token(ev.organiser_id), {**body, "player_id": str(uuid.uuid4())}
    )
    for who in (token(two), token(scoped, "arbiter"), token(uuid.uuid4()), token(uuid.uuid4(), "service")):
        api.refused(403, "not-your-bye", "POST", url, who, body)
    api.refused(409, "round-already-paired", "POST", url, token(one), {**body, "round": 1})
    api.refused(422, "round-out-of-range", "POST", url, token(one), {**body, "round": 5})

    asked = api.ok(201, "POST", url, token(one), body)
    assert (asked["player_id"], asked["round"], asked["kind"], asked["decision"]["role"]) == (
        str(one),
        2,
        "zero_point",
        "player",
    )
    api.refused(409, "bye-already-requested", "POST", url, token(ev.organiser_id), body)
    assert (
        api.ok(201, "POST", url, token(whole), {"player_id": str(two), "round": 3})["decision"]["role"]
        == "arbiter"
    )
    api.ok(201, "POST", url, token(ev.organiser_id), {"player_id": str(three), "round": 2, "reason": "exam"})
    deliver(svc, withdrawn(ev, four), tid)
    api.refused(409, "player-withdrawn", "POST", url, token(four), {"player_id": str(four), "round": 2})
    shown = api.ok(200, "GET", f"/tournaments/{tid}")
    assert [(b["round"], b["player_id"]) for b in shown["bye_requests"]] == [
        (2, str(one)),
        (2, str(three)),
        (3, str(two)),
    ]
    assert shown["byes_on_request"] is True
    assert [p["withdrawn"] for p in shown["players"]] == [
        False,
        False,
        False,
        True,
        False,
        False,
        False,
        False,
    ]

    gone = f"{url}/{three}/2"
    authentication_is_required(api, "DELETE", gone, None)
    api.refused(403, "not-your-bye", "DELETE", gone, token(one))
    api.refused(404, "bye-not-found", "DELETE", f"{url}/{three}/3", token(three))
    api.refused(
        404, "tournament-not-found", "DELETE", f"/tournaments/{uuid.uuid4()}/byes/{three}/2", token(three)
    )
    left = api.ok(200, "DELETE", gone, token(three))
    assert [(r["round"], r["player_id"]) for r in left["requests"]] == [(2, str(one)), (3, str(two))]

    first = round_paired(svc, 1)
    for g in first.games:
        deliver(svc, result(first, g, GameOutcome.DRAW), tid)
    second = api.ok(200, "GET", f"/tournaments/{tid}/rounds/2")
    seed = {r.player_id: r.seed for r in ev.roster}
    assert second["requested_byes"] == [seed[one]]
    api.refused(409, "round-already-paired", "DELETE", f"{url}/{one}/2", token(one))


@pytest.mark.parametrize("kind", ["platform", "knockout"])
def test_no_byes_where_they_are_not_offered(svc, api: Api, kind):
    ev = started(8) if kind == "platform" else knockout_started(4)
    deliver(svc, ev, ev.tournament_id)
    player = ev.roster[0].player_id
    url = f"/tournaments/{ev.tournament_id}/byes"
    api.refused(409, "byes-not-offered", "POST", url, token(player), {"player_id": str(player), "round": 2})
    api.refused(409, "byes-not-offered", "DELETE", f"{url}/{player}/2", token(ev.organiser_id))


# -- reset --------------------------------------------------------------------------------------------------
def test_resetting_a_knockout_over_http(svc, api: Api):
    ev = knockout_started(4)
    deliver(svc, ev, ev.tournament_id)
    arbiter = uuid.uuid4()
    deliver(svc, appointed(ev, arbiter), ev.tournament_id)
    url = f"/tournaments/{ev.tournament_id}/reset"
    authentication_is_required(api, "POST", url, None)
    api.refused(
        404, "tournament-not-found", "POST", f"/tournaments/{uuid.uuid4()}/reset", token(ev.organiser_id)
    )
    for who in (token(arbiter, "arbiter"), token(ev.roster[0].player_id), token(uuid.uuid4(), "service")):
        api.refused(403, "not-organiser", "POST", url, who)
    assert api.ok(200, "POST", url, token(ev.organiser_id)) == {
        "tournament_id": str(ev.tournament_id),
        "reset": True,
    }
    api.refused(404, "tournament-not-found", "GET", f"/tournaments/{ev.tournament_id}")
    assert len(published(svc, "tournament.reset")) == 1

    again = knockout_started(4)
    deliver(svc, again, again.tournament_id)
    first = round_paired(svc, 1)
    deliver(svc, result(first, first.games[0], GameOutcome.DRAW), again.tournament_id)
    api.refused(
        409,
        "reset-not-allowed",
        "POST",
        f"/tournaments/{again.tournament_id}/reset",
        token(again.organiser_id),
    )
    platform = started(8)
    deliver(svc, platform, platform.tournament_id)
    api.refused(
        409,
        "reset-not-allowed",
        "POST",
        f"/tournaments/{platform.tournament_id}/reset",
        token(platform.organiser_id),
    )


# -- publishing: an arbiter of the whole tournament may --------------------------------------------------------
def test_who_publishes_a_knockout_round(svc, api: Api):
    ev = knockout_started(4)
    deliver(svc, ev, ev.tournament_id)
    scoped, whole = uuid.uuid4(), uuid.uuid4()
    deliver(svc, appointed(ev, scoped, [round_paired(svc, 1).games[0].game_id]), ev.tournament_id)
    deliver(svc, appointed(ev, whole), ev.tournament_id)
    url = f"/tournaments/{ev.tournament_id}/rounds/1/publish"
    for who in (token(scoped, "arbiter"), token(uuid.uuid4(), "arbiter"), token(uuid.uuid4(), "service")):
        api.refused(403, "not-organiser", "POST", url, who)
    assert api.ok(200, "POST", url, token(whole, "arbiter"))["published"] is True


def test_the_tournament_shows_withdrawn_and_excluded_players(svc, api: Api):
    ev = started(8)
    deliver(svc, ev, ev.tournament_id)
    deliver(svc, withdrawn(ev, ev.roster[1].player_id, excluded=True), ev.tournament_id)
    players = api.ok(200, "GET", f"/tournaments/{ev.tournament_id}")["players"]
    assert [(p["seed"], p["withdrawn"], p["excluded"]) for p in players[:3]] == [
        (1, False, False),
        (2, True, True),
        (3, False, False),
    ]
    assert players[1]["withdrawn_at"] is not None
