"""The fide-rapid endpoints over HTTP (embedded adapters): a board game as the API shows it, absences
(``POST /games/{id}/absence``) and penalties (``POST /games/{id}/penalties``) with their statuses and
problem types as a table of callers and bodies, incidents on the game's page, the default time on the
server's clock, and the boards of a round for the CLI. Every refusal leaves the stored state exactly as
it was."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
import sqlalchemy as sa

from services.clocks.adapters import orm
from services.clocks.tests.conftest import NOW, Pairing, a_round, announce, published, token
from shared import events
from shared.events import Envelope, wrap
from shared.vocabulary import Ruleset


def started(p: Pairing, clocks: str = "board") -> Envelope:
    settings = events.TournamentSettings(
        ruleset=Ruleset.FIDE_RAPID,
        time_control=p.time_control,
        fide=events.FideSettings(rounds=5, clocks=clocks),
    )
    event = events.TournamentStarted(
        tournament_id=p.tournament_id,
        organiser_id=p.organiser_id,
        name="Rapid open",
        started_at=NOW,
        settings=settings,
        roster=[],
    )
    return wrap(event, p.tournament_id)


def appointed(p: Pairing, arbiter: uuid.UUID, games: list[uuid.UUID] | None = None) -> Envelope:
    decision = events.DecisionBy(by=p.organiser_id, role="organiser", at=NOW)
    event = events.ArbiterAppointed(
        tournament_id=p.tournament_id, arbiter_id=arbiter, games=games, decision=decision
    )
    return wrap(event, p.tournament_id)


def problem(r, status: int, slug: str) -> None:
    assert r.status_code == status, r.json
    assert r.content_type == "application/problem+json"
    assert r.json["type"] == f"/problems/{slug}"


def stored_state(svc) -> dict[str, list[tuple[Any, ...]]]:
    tables = (orm.games, orm.clock_changes, orm.outbox, orm.inbox, orm.tournaments, orm.arbiters)
    with svc.engine.connect() as conn:
        return {t.name: sorted(map(tuple, conn.execute(sa.select(t)).all()), key=repr) for t in tables}


@dataclass
class Board:
    """A board-clock round of two games, an arbiter for the tournament and one for board 2 only."""

    round: Pairing
    arbiter: uuid.UUID
    board2_arbiter: uuid.UUID

    @property
    def game(self) -> events.PairedGame:
        return self.round.game(1)


@pytest.fixture
def board(svc) -> Board:
    p = a_round(2, base=900, increment=10)
    b = Board(p, uuid.uuid4(), uuid.uuid4())
    for envelope in (
        started(p),
        appointed(p, b.arbiter),
        appointed(p, b.board2_arbiter, [p.game(2).game_id]),
        p.envelope(),
    ):
        announce(svc, envelope)
    return b


Headers = Callable[[Board], dict[str, str]]
NOBODY: Headers = lambda b: {}  # noqa: E731
ARBITER: Headers = lambda b: token(b.arbiter, "arbiter")  # noqa: E731
ORGANISER: Headers = lambda b: token(b.round.organiser_id)  # noqa: E731
OTHER_BOARDS_ARBITER: Headers = lambda b: token(b.board2_arbiter, "arbiter")  # noqa: E731
UNAPPOINTED_ARBITER: Headers = lambda b: token(uuid.uuid4(), "arbiter")  # noqa: E731
SERVICE: Headers = lambda b: token(uuid.uuid4(), "service")  # noqa: E731
PLAYER: Headers = lambda b: token(b.game.white)  # noqa: E731
STRANGER: Headers = lambda b: token(uuid.uuid4())  # noqa: E731


def test_a_board_game_as_the_api_shows_it(client, board):
    r = client.get(f"/games/{board.game.game_id}")
    assert r.status_code == 200
    body = r.json
    assert (body["status"], body["clocks"], body["default_time_seconds"], body["both_moved"]) == (
        "running",
        "board",
        None,
        None,
    )
    assert body["clock"]["state"] == "board" and body["clock"]["deadline"] is None
    assert (body["clock"]["white_ms"], body["clock"]["black_ms"]) == (None, None)
    assert body["incidents"] == []


def test_a_move_on_a_board_game_is_refused(client, svc, board):
    before = stored_state(svc)
    r = client.post(f"/games/{board.game.game_id}/moves", headers=token(board.game.white))
    problem(r, 409, "board-clock")
    assert stored_state(svc) == before


# -- absences ------------------------------------------------------------------------------------------
ABSENCE_TABLE = [
    ("no token", NOBODY, lambda b: {"player_id": str(b.game.white)}, 401, "unauthorized"),
    ("the game server", SERVICE, lambda b: {"player_id": str(b.game.white)}, 403, "not-organiser"),
    ("a player of the game", PLAYER, lambda b: {"player_id": str(b.game.black)}, 403, "own-game"),
    ("a stranger", STRANGER, lambda b: {"player_id": str(b.game.white)}, 403, "not-organiser"),
    (
        "an arbiter of another board",
        OTHER_BOARDS_ARBITER,
        lambda b: {"player_id": str(b.game.white)},
        403,
        "not-an-arbiter-here",
    ),
    (
        "an arbiter appointed nowhere",
        UNAPPOINTED_ARBITER,
        lambda b: {"player_id": str(b.game.white)},
        403,
        "not-an-arbiter-here",
    ),
    (
        "someone else's absence",
        ARBITER,
        lambda b: {"player_id": str(uuid.uuid4())},
        422,
        "player-not-in-game",
    ),
    ("no player", ARBITER, lambda b: {}, 422, "validation-error"),
    (
        "an unknown field",
        ARBITER,
        lambda b: {"player_id": str(b.game.white), "late": True},
        422,
        "validation-error",
    ),
    ("white absent", ARBITER, lambda b: {"player_id": str(b.game.white)}, 200, "-/+"),
    ("black absent", ORGANISER, lambda b: {"player_id": str(b.game.black)}, 200, "+/-"),
    ("both absent", ARBITER, lambda b: {"player_id": str(b.game.black), "opponent_absent": True}, 200, "-/-"),
]


@pytest.mark.parametrize(
    ("headers", "body", "status", "expected"),
    [c[1:] for c in ABSENCE_TABLE],
    ids=[c[0] for c in ABSENCE_TABLE],
)
def test_who_records_an_absence(client, svc, board, clock, headers, body, status, expected):
    clock.advance(600)
    before = stored_state(svc)
    r = client.post(f"/games/{board.game.game_id}/absence", json=body(board), headers=headers(board))
    if status != 200:
        problem(r, status, expected)
        assert stored_state(svc) == before
        return
    assert r.status_code == 200, r.json
    assert (r.json["status"], r.json["result"]["outcome"], r.json["result"]["reason"]) == (
        "finished",
        expected,
        "default_time",
    )
    assert r.json["result"]["finished_at"] == "2026-06-01T12:10:00Z"
    [finished] = published(svc, "game.finished")
    assert finished.payload["outcome"] == expected and finished.payload["reason"] == "default_time"


def test_an_absence_after_the_result_and_for_an_unknown_game(client, svc, board):
    url = f"/games/{board.game.game_id}/absence"
    r = client.post(url, json={"player_id": str(board.game.white)}, headers=ARBITER(board))
    assert r.status_code == 200
    before = stored_state(svc)
    problem(
        client.post(url, json={"player_id": str(board.game.black)}, headers=ARBITER(board)),
        409,
        "game-finished",
    )
    problem(
        client.post(
            f"/games/{uuid.uuid4()}/absence",
            json={"player_id": str(board.game.black)},
            headers=ARBITER(board),
        ),
        404,
        "game-not-found",
    )
    assert stored_state(svc) == before


# -- penalties -----------------------------------------------------------------------------------------
def body_for(kind: str, **extra: Any) -> Callable[[Board], dict[str, Any]]:
    return lambda b: {"player_id": str(b.game.black), "kind": kind, **extra}


PENALTY_TABLE = [
    ("no token", NOBODY, body_for("illegal_move"), 401, "unauthorized"),
    ("the game server", SERVICE, body_for("illegal_move"), 403, "not-organiser"),
    ("a player of the game", PLAYER, body_for("illegal_move"), 403, "own-game"),
    ("a stranger", STRANGER, body_for("illegal_move"), 403, "not-organiser"),
    (
        "an arbiter of another board",
        OTHER_BOARDS_ARBITER,
        body_for("illegal_move"),
        403,
        "not-an-arbiter-here",
    ),
    ("an unknown kind", ARBITER, body_for("touched_piece"), 422, "validation-error"),
    (
        "a negative time",
        ARBITER,
        body_for("displaced_pieces", white_ms=-1, black_ms=0),
        422,
        "validation-error",
    ),
    ("an empty reason", ARBITER, body_for("illegal_move", reason=""), 422, "validation-error"),
    ("displaced pieces without the times", ARBITER, body_for("displaced_pieces"), 422, "times-required"),
    (
        "displaced pieces with one time",
        ARBITER,
        body_for("displaced_pieces", white_ms=5),
        422,
        "times-required",
    ),
    (
        "someone else's penalty",
        ARBITER,
        lambda b: {"player_id": str(uuid.uuid4()), "kind": "illegal_move"},
        422,
        "player-not-in-game",
    ),
    ("an illegal move", ARBITER, body_for("illegal_move"), 201, ("illegal_move", 1, "extra_minute")),
    (
        "by the organiser",
        ORGANISER,
        body_for("illegal_move", reason="en passant too late"),
        201,
        ("illegal_move", 1, "extra_minute"),
    ),
    (
        "displaced pieces",
        ARBITER,
        body_for("displaced_pieces", white_ms=300_000, black_ms=240_000),
        201,
        ("displaced_pieces", 1, "warning"),
    ),
    (
        "displaced pieces under a minute",
        ARBITER,
        body_for("displaced_pieces", white_ms=300_000, black_ms=40_000),
        201,
        ("displaced_pieces", 1, "extra_minute"),
    ),
]


@pytest.mark.parametrize(
    ("headers", "body", "status", "expected"),
    [c[1:] for c in PENALTY_TABLE],
    ids=[c[0] for c in PENALTY_TABLE],
)
def test_who_penalises_what(client, svc, board, clock, headers, body, status, expected):
    clock.advance(1_200)
    before = stored_state(svc)
    sent = body(board)
    r = client.post(f"/games/{board.game.game_id}/penalties", json=sent, headers=headers(board))
    if status != 201:
        problem(r, status, expected)
        assert stored_state(svc) == before
        return
    assert r.status_code == 201, r.json
    kind, occurrence, consequence = expected
    [incident] = r.json["incidents"]
    assert (incident["kind"], incident["occurrence"], incident["consequence"]) == expected
    assert (incident["player_id"], incident["side"], incident["at"]) == (
        str(board.game.black),
        "black",
        "2026-06-01T12:20:00Z",
    )
    assert (incident["white_ms"], incident["black_ms"]) == (sent.get("white_ms"), sent.get("black_ms"))
    assert incident["decision"]["reason"] == sent.get("reason")
    assert client.get(f"/games/{board.game.game_id}").json["incidents"] == r.json["incidents"]
    [penalised] = published(svc, "game.penalised")
    assert (penalised.payload["kind"], penalised.payload["occurrence"], penalised.payload["consequence"]) == (
        kind,
        occurrence,
        consequence,
    )
    assert r.json["status"] == "running" and published(svc, "game.finished") == []


def test_the_second_illegal_move_ends_the_game_over_http(client, svc, board):
    url, body = (
        f"/games/{board.game.game_id}/penalties",
        {"player_id": str(board.game.white), "kind": "illegal_move"},
    )
    assert client.post(url, json=body, headers=ARBITER(board)).status_code == 201
    r = client.post(url, json=body, headers=ARBITER(board))
    assert r.status_code == 201
    assert (r.json["status"], r.json["result"]["outcome"], r.json["result"]["reason"]) == (
        "finished",
        "0-1",
        "illegal_move",
    )
    assert [i["consequence"] for i in r.json["incidents"]] == ["extra_minute", "loss"]
    assert r.json["result"]["decision"]["role"] == "arbiter"
    before = stored_state(svc)
    problem(client.post(url, json=body, headers=ARBITER(board)), 409, "game-finished")
    assert stored_state(svc) == before


def test_server_clocks(client, svc, clock):
    p = a_round(1, base=900, increment=10)
    arbiter = uuid.uuid4()
    for envelope in (started(p, "server"), appointed(p, arbiter), p.envelope()):
        announce(svc, envelope)
    g = p.game(1)
    shown = client.get(f"/games/{g.game_id}").json
    assert (shown["clocks"], shown["default_time_seconds"], shown["clock"]["deadline"]) == (
        "server",
        600,
        "2026-06-01T12:10:00Z",
    )
    url = f"/games/{g.game_id}/penalties"
    before = stored_state(svc)
    stated = {"player_id": str(g.white), "kind": "displaced_pieces", "white_ms": 1, "black_ms": 1}
    problem(client.post(url, json=stated, headers=token(arbiter, "arbiter")), 422, "times-from-the-clock")
    assert stored_state(svc) == before
    clock.advance(30)
    r = client.post(url, json={"player_id": str(g.white), "kind": "illegal_move"}, headers=token(arbiter))
    assert r.status_code == 201 and r.json["clock"]["black_ms"] == 960_000
    assert (r.json["incidents"][0]["white_ms"], r.json["incidents"][0]["black_ms"]) == (870_000, 900_000)
    clock.advance(600)  # nobody moved: the default time has passed
    r = client.post(f"/games/{g.game_id}/moves", headers=token(g.white))
    problem(r, 409, "default-time-passed")
    assert "default time" in r.json["detail"]
    finished = client.get(f"/games/{g.game_id}").json
    assert (finished["result"]["outcome"], finished["result"]["reason"]) == ("-/+", "default_time")
    assert finished["result"]["finished_at"] == "2026-06-01T12:10:00Z"
    [event] = published(svc, "game.finished")
    assert event.payload["reason"] == "default_time" and event.payload["decision"] is None


def test_the_boards_of_a_round_name_the_games(client, board):
    r = client.get(f"/tournaments/{board.round.tournament_id}/games?round=1")
    assert [(g["board"], g["id"], g["white"]["player_id"]) for g in r.json["games"]] == [
        (b, str(board.round.game(b).game_id), str(board.round.game(b).white)) for b in (1, 2)
    ]
    assert client.get(f"/tournaments/{board.round.tournament_id}/games?round=2").json["games"] == []


def test_the_openapi_document_lists_the_new_endpoints(client):
    doc = client.get("/openapi.json").json
    paths = doc["paths"]
    assert {"200", "403", "409", "422"} <= set(paths["/games/{game_id}/absence"]["post"]["responses"])
    assert {"201", "403", "409", "422"} <= set(paths["/games/{game_id}/penalties"]["post"]["responses"])
    assert {"AbsenceBody", "PenaltyBody", "IncidentOut"} <= set(doc["components"]["schemas"])
