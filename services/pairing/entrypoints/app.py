"""Pairing's HTTP API (gunicorn: ``services.pairing.entrypoints.app:create_app()``): read-only views
of the format state; pairing itself is driven by events."""

from __future__ import annotations

import uuid

from flask import Response
from flask_openapi3.blueprint import APIBlueprint
from flask_openapi3.models.tag import Tag
from flask_openapi3.openapi import OpenAPI

from services.pairing.bootstrap import Pairing, bootstrap
from services.pairing.domain import errors
from services.pairing.domain.elimination.elimination import Elimination
from services.pairing.domain.rounds.tournament import PairingTournament
from services.pairing.entrypoints.schemas import RoundOut, RoundPath, TournamentOut, TournamentPath
from services.pairing.service_layer import commands
from shared.health import readiness
from shared.http.app import OPTIONAL_SECURITY, SECURITY, create_openapi_app, json_response
from shared.http.auth import authenticate_writes, optional_principal, principal
from shared.http.limits import http_limits
from shared.http.openapi import problems
from shared.http.problems import install_domain_errors, not_found

DOMAIN_STATUSES: dict[type[Exception], int] = {
    errors.TournamentNotFound: 404,
    errors.RoundNotFound: 404,
    errors.NotAllowed: 403,
    errors.PairingError: 409,
}


def create_app(service: Pairing | None = None) -> OpenAPI:
    svc = service or bootstrap()
    app = create_openapi_app(
        __name__,
        title="Arbiter pairing",
        version="1",
        readiness=readiness(svc.engine),
        limits=http_limits(svc.settings),
    )
    install_domain_errors(app, DOMAIN_STATUSES)
    secret = svc.settings.jwt_secret.get_secret_value()
    api = APIBlueprint("pairings", __name__, abp_tags=[Tag(name="pairings")])
    authenticate_writes(api, secret)

    def load(tournament_id: uuid.UUID) -> tuple[PairingTournament, Elimination | None, bool]:
        """The tournament, its knockout (if it is one), and whether the caller may see unpublished
        rounds (its organiser, or staff: an optional bearer token on the read)."""
        who = optional_principal(secret)
        found = svc.views.tournament(tournament_id)
        if found is None:
            raise not_found("tournament", tournament_id)
        t, e = found
        visible = who is not None and (who.subject == t.organiser_id or who.is_staff)
        return t, e, visible

    @api.get(
        "/tournaments/<uuid:tournament_id>",
        responses={200: TournamentOut, **problems(401, 404)},
        security=OPTIONAL_SECURITY,
    )
    def get_tournament(path: TournamentPath) -> Response:
        """The system chosen at the start, the players by seed and every round paired so far; a
        knockout's format and matches. A knockout round's pairings are shown once it is published (to
        its organiser at once: send their bearer token)."""
        t, e, visible = load(path.tournament_id)
        return json_response(TournamentOut.of(t, e, visible=visible))

    @api.get(
        "/tournaments/<uuid:tournament_id>/rounds/<int:number>",
        responses={200: RoundOut, **problems(401, 404)},
        security=OPTIONAL_SECURITY,
    )
    def get_round(path: RoundPath) -> Response:
        t, e, visible = load(path.tournament_id)
        rnd = t.round(path.number)
        if rnd is None:
            raise not_found("round", path.number)
        return json_response(RoundOut.of(rnd, e, visible=visible))

    @api.post(
        "/tournaments/<uuid:tournament_id>/rounds/<int:number>/publish",
        responses={200: RoundOut, **problems(401, 403, 404, 409)},
        security=SECURITY,
    )
    def publish_round(path: RoundPath) -> Response:
        """The organiser publishes a paired knockout round (``round.published``): its pairings become
        public and its games may start. Publishing it again changes nothing."""
        who = principal()
        svc.bus.handle(commands.PublishRound(who.actor(), path.tournament_id, path.number))
        t, e, _ = load(path.tournament_id)
        rnd = t.round(path.number)
        assert rnd is not None
        return json_response(RoundOut.of(rnd, e))

    app.register_api(api)
    app.extensions["arbiter"] = svc
    return app
