"""Pairing's HTTP API (gunicorn: ``services.pairing.entrypoints.app:create_app()``): read-only views
of the format state; pairing itself is driven by events."""

from __future__ import annotations

from flask import Response
from flask_openapi3.blueprint import APIBlueprint
from flask_openapi3.models.tag import Tag
from flask_openapi3.openapi import OpenAPI

from services.pairing.bootstrap import Pairing, bootstrap
from services.pairing.domain import errors
from services.pairing.entrypoints.schemas import RoundOut, RoundPath, TournamentOut, TournamentPath
from shared.health import readiness
from shared.http.app import create_openapi_app, json_response
from shared.http.problems import install_domain_errors, not_found

DOMAIN_STATUSES: dict[type[Exception], int] = {
    errors.TournamentNotFound: 404,
    errors.RoundNotFound: 404,
    errors.PairingError: 409,
}


def create_app(service: Pairing | None = None) -> OpenAPI:
    svc = service or bootstrap()
    app = create_openapi_app(
        __name__,
        title="Arbiter pairing",
        version="1",
        readiness=readiness(svc.engine, svc.settings.amqp_url, svc.settings.redis_url),
    )
    install_domain_errors(app, DOMAIN_STATUSES)
    api = APIBlueprint("pairings", __name__, abp_tags=[Tag(name="pairings")])

    @api.get("/tournaments/<uuid:tournament_id>", responses={200: TournamentOut})
    def get_tournament(path: TournamentPath) -> Response:
        """The system chosen at the start, the players by seed and every round paired so far."""
        with svc.uow() as uow:
            t = uow.tournaments.get(path.tournament_id)
        if t is None:
            raise not_found("tournament", path.tournament_id)
        return json_response(TournamentOut.of(t))

    @api.get("/tournaments/<uuid:tournament_id>/rounds/<int:number>", responses={200: RoundOut})
    def get_round(path: RoundPath) -> Response:
        with svc.uow() as uow:
            t = uow.tournaments.get(path.tournament_id)
        if t is None:
            raise not_found("tournament", path.tournament_id)
        rnd = t.round(path.number)
        if rnd is None:
            raise not_found("round", path.number)
        return json_response(RoundOut.of(rnd))

    app.register_api(api)
    app.extensions["arbiter"] = svc
    return app
