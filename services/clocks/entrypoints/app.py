"""The clocks service's HTTP API (gunicorn: ``services.clocks.entrypoints.app:create_app()``)."""

from __future__ import annotations

import uuid

from flask import Response
from flask_openapi3.blueprint import APIBlueprint
from flask_openapi3.models.tag import Tag
from flask_openapi3.openapi import OpenAPI

from services.clocks.bootstrap import Clocks, bootstrap
from services.clocks.domain import errors
from services.clocks.domain.endings import DEFAULT_TIME
from services.clocks.domain.game import Game
from services.clocks.entrypoints.schemas import (
    AbsenceBody,
    ClockOut,
    GameList,
    GameOut,
    GamePath,
    GamesQuery,
    MoveBody,
    PenaltyBody,
    PresenceBody,
    ResultBody,
    TournamentPath,
)
from services.clocks.service_layer import commands
from shared.authority import Authority
from shared.games.boards import GameRuleError
from shared.health import readiness
from shared.http.app import OPTIONAL_SECURITY, SECURITY, create_openapi_app, json_response
from shared.http.auth import Principal, authenticate_writes, optional_principal, principal
from shared.http.limits import http_limits
from shared.http.openapi import problems
from shared.http.problems import install_domain_errors, not_found

DOMAIN_STATUSES: dict[type[Exception], int] = {
    errors.NotFound: 404,
    errors.NotAllowed: 403,
    errors.Conflict: 409,
    errors.Invalid: 422,
    GameRuleError: 422,
}


def create_app(service: Clocks | None = None) -> OpenAPI:
    svc = service or bootstrap()
    app = create_openapi_app(
        __name__,
        title="Arbiter clocks",
        version="1",
        readiness=readiness(svc.engine, deadlines=svc.deadlines.ping),
        limits=http_limits(svc.settings),
    )
    install_domain_errors(app, DOMAIN_STATUSES)
    secret = svc.settings.jwt_secret.get_secret_value()
    app.register_api(_games(svc, secret))
    app.register_api(_tournaments(svc, secret))
    app.extensions["arbiter"] = svc
    return app


def _games(svc: Clocks, secret: str) -> APIBlueprint:
    api = APIBlueprint("games", __name__, abp_tags=[Tag(name="games")], abp_security=SECURITY)
    authenticate_writes(api, secret)

    @api.post("/presence", responses={204: None, **problems(401, 403, 422)})
    def presence(body: PresenceBody) -> Response:
        """The game server (a ``service`` token) reports a player's presence: ``busy`` (playing elsewhere)
        when a round is paired means no game and a loss by forfeit; anyone else gets 403."""
        principal().require("service")
        svc.bus.handle(commands.ReportPresence(body.player_id, body.status))
        return Response(status=204)

    @api.post("/games/<uuid:game_id>/moves", responses={200: ClockOut, **problems(401, 403, 404, 409, 422)})
    def move(path: GamePath, body: MoveBody) -> Response:
        """The player to move completed a move: their clock stops, the opponent's runs. A service may
        report for a player with ``player_id``. A move after the flag fell ends the game on time (409)."""
        return _by_the_player(commands.MakeMove(path.game_id, _player(body), body.move))

    @api.post("/games/<uuid:game_id>/boost", responses={200: ClockOut, **problems(401, 403, 404, 409)})
    def take_boost(path: GamePath, body: MoveBody) -> Response:
        """An arena's player takes the boost before their own first move (RULES.md §3): the increment is
        dropped and the base halved unless under 40 × the increment; a win then scores double. 409
        ``boost-not-offered`` (not an arena game, 0+x), ``boost-too-late`` (after one's first move),
        ``already-boosted``, ``boost-unaffordable``. A service may take it for a player with
        ``player_id``."""
        return _by_the_player(commands.TakeBoost(path.game_id, _player(body)))

    def _player(body: MoveBody) -> uuid.UUID:
        """The caller, or the player a service acts for (``player_id``)."""
        who = principal()
        if body.player_id is not None and body.player_id != who.subject:
            who.require("service")
            return body.player_id
        return who.subject

    def _by_the_player(command: commands.MakeMove | commands.TakeBoost) -> Response:
        done: commands.Reported = svc.bus.handle(command)
        refuse_if_late(done)
        return json_response(ClockOut.of(done.game, svc.clock.now()))

    @api.post(
        "/games/<uuid:game_id>/result",
        responses={200: GameOut, 202: GameOut, **problems(401, 403, 404, 409, 422)},
    )
    def report_result(path: GamePath, body: ResultBody) -> Response:
        """Report how the game ended. A player of the game: their own loss (final), or a draw — any
        played result where the players run their own games — which the opponent confirms by posting the
        same (202 until then; a different one disputes it, 202). Its organiser, an arbiter appointed for
        it or the tournament, the game server: any result, final. 200 once the game is finished."""
        who = principal()
        command = commands.ReportResult(path.game_id, body.outcome, body.reason, who.actor())
        done: commands.Reported = svc.bus.handle(command)
        refuse_if_late(done)
        return json_response(GameOut.of(done.game, svc.clock.now()), 200 if done.game.over else 202)

    @api.post("/games/<uuid:game_id>/colours", responses={200: GameOut, **problems(401, 403, 404, 409)})
    def swap_colours(path: GamePath) -> Response:
        """Swap White and Black before the first move: the organiser or an arbiter appointed for the game
        or the tournament (``game.colours_swapped``). A running clock starts White's turn again."""
        done: commands.Reported = svc.bus.handle(commands.SwapColours(path.game_id, principal().actor()))
        refuse_if_late(done)
        return json_response(GameOut.of(done.game, svc.clock.now()))

    @api.post("/games/<uuid:game_id>/absence", responses={200: GameOut, **problems(401, 403, 404, 409, 422)})
    def record_absence(path: GamePath, body: AbsenceBody) -> Response:
        """A player is not at the board by the default time (RULES.md §6): the game ends by forfeit,
        reason ``default_time`` (``opponent_absent``: both lose, ``-/-``). The organiser or an arbiter
        appointed for the game or the tournament, within the round (409 once it has a result)."""
        command = commands.RecordAbsence(
            path.game_id, body.player_id, principal().actor(), opponent_absent=body.opponent_absent
        )
        done: commands.Reported = svc.bus.handle(command)
        refuse_if_late(done)
        return json_response(GameOut.of(done.game, svc.clock.now()))

    @api.post(
        "/games/<uuid:game_id>/penalties", responses={201: GameOut, **problems(401, 403, 404, 409, 422)}
    )
    def penalise(path: GamePath, body: PenaltyBody) -> Response:
        """Penalise a player of an unfinished game for an illegal move or displaced pieces (RULES.md §6):
        the incident is kept in the game's ``incidents`` and published (``game.penalised``); an extra
        minute for the opponent changes the server's clock; a loss ends the game. Over the board, state
        both remaining times for displaced pieces. The organiser or an arbiter appointed for the game or
        the tournament. 201 with the game."""
        command = commands.Penalise(
            path.game_id,
            body.player_id,
            body.kind,
            principal().actor(),
            white_ms=body.white_ms,
            black_ms=body.black_ms,
            reason=body.reason,
        )
        done: commands.Reported = svc.bus.handle(command)
        refuse_if_late(done)
        return json_response(GameOut.of(done.game, svc.clock.now()), 201)

    @api.get(
        "/games/<uuid:game_id>", responses={200: GameOut, **problems(401, 404)}, security=OPTIONAL_SECURITY
    )
    def get_game(path: GamePath) -> Response:
        """A game; one of an unpublished knockout round only for its organiser (send their token)."""
        game = svc.views.game(path.game_id)
        if game is None or not visible(svc, game, optional_principal(secret)):
            raise not_found("game", path.game_id)
        return json_response(GameOut.of(game, svc.clock.now()))

    return api


def refuse_if_late(done: commands.Reported) -> None:
    """A report made after the flag fell: the game was saved finished on time, and the report itself is
    refused (409 ``flag-fallen``); after the default time passed with a first move missing (server
    clocks), 409 ``default-time-passed``."""
    fall = done.flag_fall
    if fall is not None:
        raise (errors.DefaultTimePassed if fall.reason == DEFAULT_TIME else errors.FlagFallen)(fall.detail)


def visible(svc: Clocks, game: Game, who: Principal | None, authority: Authority | None = None) -> bool:
    """The games of an unpublished knockout round are shown only to its organiser, the arbiters
    appointed for them (or the tournament) and the game server."""
    if game.released:
        return True
    if who is None:
        return False
    if who.subject == game.organiser_id or "service" in who.roles:
        return True
    authority = authority or svc.views.authority(game.tournament_id, game.organiser_id)
    return authority.is_arbiter(who.subject, game.id)


def _tournaments(svc: Clocks, secret: str) -> APIBlueprint:
    api = APIBlueprint("tournament-games", __name__, abp_tags=[Tag(name="games")])

    @api.get(
        "/tournaments/<uuid:tournament_id>/games",
        responses={200: GameList, **problems(401)},
        security=OPTIONAL_SECURITY,
    )
    def list_games(path: TournamentPath, query: GamesQuery) -> Response:
        """A tournament's games by round and board (empty while none were paired); an unpublished
        knockout round's games only for its organiser (send their token)."""
        who = optional_principal(secret)
        found = svc.views.games(path.tournament_id, query.round)
        now = svc.clock.now()
        authority = None
        if who is not None and any(not g.released for g in found):
            authority = svc.views.authority(path.tournament_id, found[0].organiser_id)
        shown = [GameOut.of(g, now) for g in found if visible(svc, g, who, authority)]
        return json_response(GameList(games=shown))

    return api
