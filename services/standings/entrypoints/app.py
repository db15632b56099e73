"""Standings' HTTP API and public pages (gunicorn: ``services.standings.entrypoints.app:create_app()``).
Everything is public and read-only; the table is kept by the consumer from events."""

from __future__ import annotations

from flask import Response
from flask_openapi3.blueprint import APIBlueprint
from flask_openapi3.models.tag import Tag
from flask_openapi3.openapi import OpenAPI

from services.standings.bootstrap import StandingsService, bootstrap
from services.standings.domain import errors
from services.standings.entrypoints import exports, group_playoff, pages, queries
from services.standings.entrypoints.group_playoff import GroupPlayoffPageOut
from services.standings.entrypoints.schemas.arena import ArenaOut
from services.standings.entrypoints.schemas.bracket import BracketOut
from services.standings.entrypoints.schemas.common import TournamentPath
from services.standings.entrypoints.schemas.crosstable import CrosstableOut
from services.standings.entrypoints.schemas.player import PlayerPageOut, PlayerPath
from services.standings.entrypoints.schemas.round import RoundOut, RoundPath
from services.standings.entrypoints.schemas.standings import StandingsOut
from shared.health import readiness
from shared.http.app import create_openapi_app, json_response
from shared.http.limits import http_limits
from shared.http.openapi import problems
from shared.http.problems import install_domain_errors

TRF_RESPONSE = {
    "description": "the TRF-2026 file",
    "content": {"text/plain": {"schema": {"type": "string"}}},
}
TRF16_RESPONSE = {
    "description": "the TRF-16 file (rating submission: XXR, XXC, the players' FIDE data)",
    "content": {"text/plain": {"schema": {"type": "string"}}},
}
CSV_RESPONSE = {
    "description": "the standings as CSV (a header line, then one row per player in table order)",
    "content": {"text/csv": {"schema": {"type": "string"}}},
}

CROSSTABLE_CSV_RESPONSE = {
    "description": "the crosstable as CSV (a header line, then one row per player in table order; a round's"
    " cell is the opponent's place, colour and result, e.g. 4w1, or bye)",
    "content": {"text/csv": {"schema": {"type": "string"}}},
}
PAIRINGS_CSV_RESPONSE = {
    "description": "pairing lists as CSV (a header line, a row per board with the points before the round"
    " and the result, then a row per bye)",
    "content": {"text/csv": {"schema": {"type": "string"}}},
}
PDF_RESPONSE = {
    "description": "the printed page as PDF",
    "content": {"application/pdf": {"schema": {"type": "string", "format": "binary"}}},
}

DOMAIN_STATUSES: dict[type[Exception], int] = {
    errors.NotFound: 404,
    errors.Conflict: 409,
}


def create_app(service: StandingsService | None = None) -> OpenAPI:
    svc = service or bootstrap()
    app = create_openapi_app(
        __name__,
        title="Arbiter standings",
        version="1",
        readiness=readiness(svc.engine),
        limits=http_limits(svc.settings),
    )
    install_domain_errors(app, DOMAIN_STATUSES)
    app.register_api(_api(svc))
    pages.register(app, svc)
    app.extensions["arbiter"] = svc
    return app


def _api(svc: StandingsService) -> APIBlueprint:
    api = APIBlueprint("standings", __name__, abp_tags=[Tag(name="standings")])

    @api.get(
        "/tournaments/<uuid:tournament_id>/standings", responses={200: StandingsOut, **problems(404, 409)}
    )
    def get_standings(path: TournamentPath) -> Response:
        """The table: rank, points and each tie-break by code (``BH-C1``), plus the columns shown
        for information. 409 ``not-a-table`` for a knockout (shown as a bracket)."""
        return json_response(queries.standings(svc, path.tournament_id))

    @api.get(
        "/tournaments/<uuid:tournament_id>/crosstable", responses={200: CrosstableOut, **problems(404, 409)}
    )
    def get_crosstable(path: TournamentPath) -> Response:
        """Every player's rounds in table order; for a round robin also the results of each pair."""
        return json_response(queries.crosstable(svc, path.tournament_id))

    @api.get(
        "/tournaments/<uuid:tournament_id>/rounds/<int:number>", responses={200: RoundOut, **problems(404)}
    )
    def get_round(path: RoundPath) -> Response:
        """A round's games with players and results (none while the round is unpublished)."""
        return json_response(queries.round_(svc, path.tournament_id, path.number))

    @api.get(
        "/tournaments/<uuid:tournament_id>/players/<int:seed>",
        responses={200: PlayerPageOut, **problems(404, 409)},
    )
    def get_player(path: PlayerPath) -> Response:
        """A player by start number: profile, rank, points and each tie-break by code, and every game
        of theirs in the published rounds (opponent, colour, result and points from their side; byes;
        rounds without a pairing). 404 ``player-not-found`` for a start number not on the roster."""
        return json_response(queries.player(svc, path.tournament_id, path.seed))

    @api.get("/tournaments/<uuid:tournament_id>/arena", responses={200: ArenaOut, **problems(404)})
    def get_arena(path: TournamentPath) -> Response:
        """An arena's ranking (points, games won, streak and fire marks, boosts), its games in progress
        and its finished games with each side's points; ``final`` once the ranking is frozen."""
        return json_response(queries.arena(svc, path.tournament_id))

    @api.get("/tournaments/<uuid:tournament_id>/bracket", responses={200: BracketOut, **problems(404, 409)})
    def get_bracket(path: TournamentPath) -> Response:
        """A knockout's bracket: format and tie-break plan, the seeding list, the matches of the
        published rounds with their games, results and who advances, and the final placing once it
        is completed. 409 ``not-a-bracket`` for a tournament with a table."""
        return json_response(queries.bracket(svc, path.tournament_id))

    @api.get(
        "/tournaments/<uuid:tournament_id>/group-playoff",
        responses={200: GroupPlayoffPageOut, **problems(404, 409)},
    )
    def get_group_playoff(path: TournamentPath) -> Response:
        """A group-playoff event's page (RULES.md §5): the two group tables with the criterion (a)-(f)
        that decided each place, the lots, every match with its games (inviter, extra games, how each
        was decided), the deadlines, the overdue games, the announcements and the final placing. 409
        ``not-a-group-playoff`` for another kind of tournament."""
        return json_response(group_playoff.group_playoff(svc, path.tournament_id))

    @api.get("/tournaments/<uuid:tournament_id>/trf", responses={200: TRF_RESPONSE, **problems(404, 409)})
    def get_trf(path: TournamentPath) -> Response:
        """The event as a TRF-2026 file (with double rounds each leg is a round)."""
        text = queries.trf(svc, path.tournament_id)
        response = Response(text, mimetype="text/plain")
        response.headers["Content-Disposition"] = f'inline; filename="{path.tournament_id}.trf"'
        return response

    @api.get("/tournaments/<uuid:tournament_id>/trf16", responses={200: TRF16_RESPONSE, **problems(404, 409)})
    def get_trf16(path: TournamentPath) -> Response:
        """The event as a TRF-16 file for rating submission: headers 012-132, each player's FIDE id,
        federation, title, sex and birth, ``XXR`` and ``XXC`` (and ``XXA`` with Baku acceleration),
        byes and forfeits coded as bbpPairings and JaVaFo read them."""
        text = queries.trf(svc, path.tournament_id, trf2026=False)
        response = Response(text, mimetype="text/plain")
        response.headers["Content-Disposition"] = f'inline; filename="{path.tournament_id}-trf16.trf"'
        return response

    @api.get("/tournaments/<uuid:tournament_id>/csv", responses={200: CSV_RESPONSE, **problems(404, 409)})
    def get_csv(path: TournamentPath) -> Response:
        """The standings as CSV: rank, place, start number, title, name, federation, FIDE id, rating,
        points, the tie-breaks by code, the status."""
        text = queries.standings_csv(svc, path.tournament_id)
        response = Response(text, mimetype="text/csv")
        response.headers["Content-Disposition"] = f'attachment; filename="{path.tournament_id}.csv"'
        return response

    def download(body: str | bytes, mimetype: str, filename: str) -> Response:
        response = Response(body, mimetype=mimetype)
        response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response

    def csv_file(path: TournamentPath | RoundPath, what: str, text: str) -> Response:
        return download(text, "text/csv", f"{path.tournament_id}-{what}.csv")

    def pdf_file(path: TournamentPath | RoundPath, what: str, number: int | None = None) -> Response:
        html = pages.printed(svc, path.tournament_id, "pairings" if number is not None else what, number)
        return download(exports.pdf(html), "application/pdf", f"{path.tournament_id}-{what}.pdf")

    @api.get(
        "/tournaments/<uuid:tournament_id>/standings.csv", responses={200: CSV_RESPONSE, **problems(404, 409)}
    )
    def get_standings_csv(path: TournamentPath) -> Response:
        """The standings as CSV (as ``/csv``): a header line, then one row per player in table order."""
        return csv_file(path, "standings", queries.standings_csv(svc, path.tournament_id))

    @api.get(
        "/tournaments/<uuid:tournament_id>/standings.pdf", responses={200: PDF_RESPONSE, **problems(404, 409)}
    )
    def get_standings_pdf(path: TournamentPath) -> Response:
        """The standings as PDF: the printed page (``/t/{id}/print/standings``)."""
        return pdf_file(path, "standings")

    @api.get(
        "/tournaments/<uuid:tournament_id>/crosstable.csv",
        responses={200: CROSSTABLE_CSV_RESPONSE, **problems(404, 409)},
    )
    def get_crosstable_csv(path: TournamentPath) -> Response:
        """The crosstable as CSV: one row per player in table order, one column per round (per leg)."""
        table = queries.crosstable(svc, path.tournament_id)
        return csv_file(path, "crosstable", exports.crosstable_csv(table))

    @api.get(
        "/tournaments/<uuid:tournament_id>/crosstable.pdf",
        responses={200: PDF_RESPONSE, **problems(404, 409)},
    )
    def get_crosstable_pdf(path: TournamentPath) -> Response:
        """The crosstable as PDF: the printed page (``/t/{id}/print/crosstable``)."""
        return pdf_file(path, "crosstable")

    @api.get(
        "/tournaments/<uuid:tournament_id>/pairings.csv",
        responses={200: PAIRINGS_CSV_RESPONSE, **problems(404, 409)},
    )
    def get_pairings_csv(path: TournamentPath) -> Response:
        """Every paired round's pairing list as CSV: a row per board, then a row per bye."""
        rounds = queries.pairing_rounds(svc, path.tournament_id)
        return csv_file(path, "pairings", exports.pairings_csv(rounds))

    @api.get(
        "/tournaments/<uuid:tournament_id>/pairings.pdf", responses={200: PDF_RESPONSE, **problems(404, 409)}
    )
    def get_pairings_pdf(path: TournamentPath) -> Response:
        """Every paired round's pairing list as PDF, one round a page (``/t/{id}/print/pairings``)."""
        return pdf_file(path, "pairings")

    @api.get(
        "/tournaments/<uuid:tournament_id>/rounds/<int:number>/pairings.csv",
        responses={200: PAIRINGS_CSV_RESPONSE, **problems(404)},
    )
    def get_round_pairings_csv(path: RoundPath) -> Response:
        """One round's pairing list as CSV (no rows while the round is unpublished)."""
        rounds = queries.pairing_rounds(svc, path.tournament_id, path.number)
        return csv_file(path, f"round-{path.number}", exports.pairings_csv(rounds))

    @api.get(
        "/tournaments/<uuid:tournament_id>/rounds/<int:number>/pairings.pdf",
        responses={200: PDF_RESPONSE, **problems(404)},
    )
    def get_round_pairings_pdf(path: RoundPath) -> Response:
        """One round's pairing list as PDF (``/t/{id}/print/pairings/{number}``)."""
        return pdf_file(path, f"round-{path.number}", path.number)

    return api
