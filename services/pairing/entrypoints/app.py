"""Pairing's HTTP API (gunicorn: ``services.pairing.entrypoints.app:create_app()``): views of the format
state, and the decisions pairing owns — publishing a knockout round, correcting a finished game's
result, byes on request, resetting a knockout to its draft. Pairing itself is driven by events."""

from __future__ import annotations

import uuid

from flask import Response, request
from flask_openapi3.blueprint import APIBlueprint
from flask_openapi3.models.tag import Tag
from flask_openapi3.openapi import OpenAPI

from services.pairing.adapters.views import TournamentView
from services.pairing.bootstrap import Pairing, bootstrap
from services.pairing.domain import errors
from services.pairing.domain.group_playoff.competition import GamesStillOpen
from services.pairing.domain.group_playoff.tournament import page
from services.pairing.domain.roster import RETRY_AFTER_SECONDS, require_heard
from services.pairing.domain.rounds import fide
from services.pairing.entrypoints.schemas import (
    ByeBody,
    ByePath,
    ByeRequestOut,
    ByesOut,
    CorrectionBody,
    CorrectionOut,
    DeadlineBody,
    ExcuseBody,
    ExcuseOut,
    ExcusePath,
    GameLotBody,
    GamePath,
    GroupPath,
    GroupPlayoffOut,
    LotBody,
    PairingListOut,
    PhaseBody,
    PreviewOut,
    ResetOut,
    RosterRevisionQuery,
    RoundOut,
    RoundPath,
    TournamentGamePath,
    TournamentOut,
    TournamentPath,
)
from services.pairing.service_layer import commands
from shared.health import readiness
from shared.http.app import OPTIONAL_SECURITY, SECURITY, create_openapi_app, json_response
from shared.http.auth import authenticate_writes, optional_principal, principal
from shared.http.limits import http_limits
from shared.http.openapi import problems
from shared.http.problems import Problem, install_domain_errors, not_found, problem_response
from shared.scoring import Outcome
from shared.seed_draw import new_draw_seed

ROSTER_REVISION = "Roster-Revision"
"""The header of a preview's and a pairing's answer: the roster revision it was made with."""

DOMAIN_STATUSES: dict[type[Exception], int] = {
    errors.TournamentNotFound: 404,
    errors.RoundNotFound: 404,
    errors.NotFound: 404,
    errors.NotAllowed: 403,
    errors.RoundOutOfRange: 422,
    errors.InvalidOutcome: 422,
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

    @app.errorhandler(errors.RoundUnfinished)
    def _round_unfinished(exc: errors.RoundUnfinished) -> Response:
        """409 naming the round before and its boards without a result."""
        problem = Problem(409, exc.slug, "Conflict", exc.detail, round=exc.round, boards=exc.boards)
        return problem_response(problem, request.path)

    @app.errorhandler(errors.NotYetHeard)
    def _not_yet_heard(exc: errors.NotYetHeard) -> Response:
        """409 naming the roster revision asked for and the one heard; ask again after Retry-After."""
        problem = Problem(
            409, exc.slug, "Not yet heard", exc.detail, roster_revision=exc.asked, heard_revision=exc.heard
        )
        problem.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return problem_response(problem, request.path)

    @app.errorhandler(errors.CorrectionChangesAdvancement)
    def _changes_advancement(exc: errors.CorrectionChangesAdvancement) -> Response:
        """409 naming the match whose winner would change and the match it feeds that is paired."""
        problem = Problem(
            409,
            exc.slug,
            "Conflict",
            exc.detail,
            match_id=exc.match_id,
            next_match_id=exc.next_match_id,
        )
        return problem_response(problem, request.path)

    @app.errorhandler(GamesStillOpen)
    def _games_still_open(exc: GamesStillOpen) -> Response:
        """409 naming the open games of the earlier phases."""
        problem = Problem(409, exc.slug, "Conflict", exc.detail, games=list(exc.games))
        return problem_response(problem, request.path)

    secret = svc.settings.jwt_secret.get_secret_value()
    api = APIBlueprint("pairings", __name__, abp_tags=[Tag(name="pairings")])
    authenticate_writes(api, secret)

    def load(tournament_id: uuid.UUID) -> tuple[TournamentView, bool]:
        """The tournament (its knockout, who decides in it) and whether the caller may see unpublished
        rounds: its organiser, its appointed arbiters, the game server (``service``) — an optional
        bearer token on the read."""
        who = optional_principal(secret)
        view = svc.views.tournament(tournament_id)
        if view is None:
            raise not_found("tournament", tournament_id)
        visible = who is not None and (
            view.authority.is_organiser(who.subject)
            or who.subject in view.authority.appointments
            or "service" in who.roles
        )
        return view, visible

    @api.get(
        "/tournaments/<uuid:tournament_id>",
        responses={200: TournamentOut, **problems(401, 404)},
        security=OPTIONAL_SECURITY,
    )
    def get_tournament(path: TournamentPath) -> Response:
        """The system chosen at the start, the players by seed (withdrawn and excluded ones marked) and
        every round paired so far; the byes asked for; a knockout's format and matches. A knockout
        round's pairings are shown once it is published (to its organiser and arbiters at once: send
        their bearer token)."""
        view, visible = load(path.tournament_id)
        return json_response(TournamentOut.of(view.tournament, view.elimination, visible=visible))

    @api.get(
        "/tournaments/<uuid:tournament_id>/rounds/<int:number>",
        responses={200: RoundOut, **problems(401, 404)},
        security=OPTIONAL_SECURITY,
    )
    def get_round(path: RoundPath) -> Response:
        view, visible = load(path.tournament_id)
        rnd = view.tournament.round(path.number)
        if rnd is None:
            raise not_found("round", path.number)
        return json_response(RoundOut.of(rnd, view.elimination, visible=visible))

    @api.post(
        "/tournaments/<uuid:tournament_id>/rounds/<int:number>/publish",
        responses={200: RoundOut, **problems(401, 403, 404, 409)},
        security=SECURITY,
    )
    def publish_round(path: RoundPath) -> Response:
        """The organiser (or an arbiter of the whole tournament) publishes a paired knockout round
        (``round.published``): its pairings become public and its games may start; a `fide-rapid`
        round (``round.paired`` goes out only now: the clocks create its games; the absences of the
        round before nobody excused go out as ``absence.unexcused``). Publishing it again changes
        nothing."""
        who = principal()
        svc.bus.handle(commands.PublishRound(who.actor(), path.tournament_id, path.number))
        view, _ = load(path.tournament_id)
        rnd = view.tournament.round(path.number)
        assert rnd is not None
        return json_response(RoundOut.of(rnd, view.elimination))

    def fide_event(tournament_id: uuid.UUID, asked: int | None = None) -> tuple[TournamentView, bool]:
        """``load``, for a `fide-rapid` event only (409 ``paired-when-due`` for the others), once its
        roster is heard up to revision ``asked`` (409 ``not-yet-heard``; also for a tournament pairing has
        not heard of at all: its start is a roster change too)."""
        if asked is not None:  # read before the tournament: what follows is at least as new
            require_heard(tournament_id, svc.views.roster_revision(tournament_id), asked)
        view, visible = load(tournament_id)
        if view.tournament.fide is None:
            raise errors.PairedWhenDue(
                f"tournament {tournament_id} is not a fide-rapid event: its rounds are paired when due"
            )
        return view, visible

    @api.get(
        "/tournaments/<uuid:tournament_id>/rounds/<int:number>/preview",
        responses={200: PreviewOut, **problems(401, 404, 409, retry_after=(409,))},
        security=OPTIONAL_SECURITY,
    )
    def preview_round(path: RoundPath, query: RosterRevisionQuery) -> Response:
        """Before pairing round ``number`` of a `fide-rapid` event: who is present (the pairing takes
        them), who asked for a zero-point bye, who is withdrawn, who was absent from the round before
        (left out unless excused), the late entries not in yet, and the boards of the round before
        still without a result; ``roster_revision``: the roster revision it was made with. Asked with
        ``?roster_revision=N`` (registration's answer to a roster change): 409 ``not-yet-heard`` with
        ``Retry-After`` until pairing has heard every roster change up to N."""
        view, _ = fide_event(path.tournament_id, query.roster_revision)
        t = view.tournament
        if not 1 <= path.number <= t.total_rounds:
            raise not_found("round", path.number)
        revision = view.roster_revision
        headers = {ROSTER_REVISION: str(revision)}
        return json_response(PreviewOut.of(t, path.number, revision), headers=headers)

    @api.post(
        "/tournaments/<uuid:tournament_id>/rounds/<int:number>/pair",
        responses={201: PairingListOut, **problems(401, 403, 404, 409, 422, retry_after=(409,))},
        security=SECURITY,
    )
    def pair_round(path: RoundPath, query: RosterRevisionQuery) -> Response:
        """An arbiter of the whole event (or its organiser) pairs round ``number`` of a `fide-rapid`
        event: the Dutch system (Baku acceleration if set) with the absent, withdrawn and bye-requesting
        players left out, or the round robin's Berger table. The pairing stays unpublished (seen by the
        officials only) until they publish it; pairing it again replaces it. Answers the pairing list,
        with the roster revision it was paired with. ``?roster_revision=N`` (registration's answer to a
        withdrawal, a late entry, the start): 409 ``not-yet-heard`` with ``Retry-After`` until pairing
        has heard every roster change up to N, so the pairing leaves out nobody it was not told of."""
        who = principal()
        cmd = commands.PairOnCommand(who.actor(), path.tournament_id, path.number, query.roster_revision)
        revision = svc.bus.handle(cmd)
        view, _ = load(path.tournament_id)
        listing = fide.pairing_list(view.tournament, path.number)
        out = PairingListOut.of(path.tournament_id, listing, revision)
        return json_response(out, status=201, headers={ROSTER_REVISION: str(revision)})

    @api.get(
        "/tournaments/<uuid:tournament_id>/rounds/<int:number>/pairings",
        responses={200: PairingListOut, **problems(401, 404, 409)},
        security=OPTIONAL_SECURITY,
    )
    def pairing_list(path: RoundPath) -> Response:
        """A `fide-rapid` round's pairing list by board (names, ratings, points before the round,
        results once entered) and its byes; an unpublished one only to the event's officials."""
        view, visible = fide_event(path.tournament_id)
        rnd = view.tournament.round(path.number)
        if rnd is None or not (rnd.published or visible):
            raise not_found("round", path.number)
        return json_response(
            PairingListOut.of(path.tournament_id, fide.pairing_list(view.tournament, path.number))
        )

    @api.post(
        "/tournaments/<uuid:tournament_id>/absences/<uuid:player_id>/excuse",
        responses={200: ExcuseOut, **problems(401, 403, 404, 409, 422)},
        security=SECURITY,
    )
    def excuse_absence(path: ExcusePath, body: ExcuseBody) -> Response:
        """An arbiter of the whole event (or its organiser) excuses a player's absence (a loss at the
        default time in ``round``) before the next round's pairing is published (``absence.excused``):
        the player is paired again. An unpublished pairing of the next round is thrown away
        (``pairing_dropped``): pair it again."""
        who = principal()
        cmd = commands.ExcuseAbsence(who.actor(), path.tournament_id, path.player_id, body.round, body.reason)
        dropped = svc.bus.handle(cmd)
        out = ExcuseOut(
            tournament_id=path.tournament_id,
            player_id=path.player_id,
            round=body.round,
            pairing_dropped=dropped,
        )
        return json_response(out)

    @api.post(
        "/games/<uuid:game_id>/correction",
        responses={200: CorrectionOut, **problems(401, 403, 404, 409)},
        security=SECURITY,
    )
    def correct_result(path: GamePath, body: CorrectionBody) -> Response:
        """An arbiter appointed for the game (or the whole tournament) or the organiser corrects a
        finished game's result, with a reason (``game.result_corrected``). Rounds already paired stand;
        the next pairing uses the corrected score. In a knockout a correction that changes who advances
        from a match is refused once a match it feeds is paired, and after the event finished (409
        ``correction-changes-advancement`` with ``match_id`` and ``next_match_id``)."""
        who = principal()
        corrected = svc.bus.handle(
            commands.CorrectResult(who.actor(), path.game_id, Outcome(body.outcome), body.reason)
        )
        return json_response(CorrectionOut.of(corrected))

    @api.post(
        "/tournaments/<uuid:tournament_id>/byes",
        responses={201: ByeRequestOut, **problems(401, 403, 404, 409)},
        security=SECURITY,
    )
    def request_bye(path: TournamentPath, body: ByeBody) -> Response:
        """A zero-point bye for a round not paired yet (``bye.requested``), asked by the player, an
        arbiter of the tournament or its organiser, where the tournament offers byes on request; once
        per player and round. The round's ``round.paired`` lists it as a `zero_point` bye."""
        who = principal()
        cmd = commands.RequestBye(who.actor(), path.tournament_id, body.player_id, body.round, body.reason)
        request_ = svc.bus.handle(cmd)
        view, _ = load(path.tournament_id)
        return json_response(ByeRequestOut.of(view.tournament, request_, decision=True), status=201)

    @api.delete(
        "/tournaments/<uuid:tournament_id>/byes/<uuid:player_id>/<int:round>",
        responses={200: ByesOut, **problems(401, 403, 404, 409)},
        security=SECURITY,
    )
    def take_back_bye(path: ByePath) -> Response:
        """Take a requested bye back before its round is paired (the same people may); answers the
        byes still asked for."""
        who = principal()
        svc.bus.handle(commands.TakeBackBye(who.actor(), path.tournament_id, path.player_id, path.round))
        view, _ = load(path.tournament_id)
        t = view.tournament
        requests = [ByeRequestOut.of(t, r) for _, r in sorted(t.bye_requests.items())]
        return json_response(ByesOut(tournament_id=t.id, requests=requests))

    @api.post(
        "/tournaments/<uuid:tournament_id>/reset",
        responses={200: ResetOut, **problems(401, 403, 404, 409)},
        security=SECURITY,
    )
    def reset(path: TournamentPath) -> Response:
        """The organiser puts a knockout back to its draft while round 1 is its only round and no game
        has a result (``tournament.reset``): pairing forgets it, so starting it again pairs afresh."""
        who = principal()
        svc.bus.handle(commands.ResetTournament(who.actor(), path.tournament_id))
        return json_response(ResetOut(tournament_id=path.tournament_id))

    app.register_api(api)
    app.register_api(_group_playoff(svc, secret))
    app.extensions["arbiter"] = svc
    return app


def _group_playoff(svc: Pairing, secret: str) -> APIBlueprint:
    """A group-playoff event (RULES.md §5): its page, and the organiser's decisions."""
    api = APIBlueprint("group_playoff", __name__, abp_tags=[Tag(name="group-playoff")])
    authenticate_writes(api, secret)

    def show(tournament_id: uuid.UUID) -> Response:
        t = svc.views.group_playoff(tournament_id)
        if t is None:
            raise not_found("group-playoff event", tournament_id)
        return json_response(GroupPlayoffOut.model_validate(page(t, svc.clock.now())))

    @api.get(
        "/tournaments/<uuid:tournament_id>/group-playoff",
        responses={200: GroupPlayoffOut, **problems(404)},
        security=OPTIONAL_SECURITY,
    )
    def get_group_playoff(path: TournamentPath) -> Response:
        """The event's page: the group tables with the criterion that decided each place, the play-offs
        and lots, every match with its games (inviter, extra games), deadlines, overdue games, placing."""
        return show(path.tournament_id)

    @api.post(
        "/tournaments/<uuid:tournament_id>/phases",
        responses={200: GroupPlayoffOut, **problems(401, 403, 404, 409, 422)},
        security=SECURITY,
    )
    def announce_phase(path: TournamentPath, body: PhaseBody) -> Response:
        """The organiser opens phase 2 (semi-finals; ``with_placement``: the 5th/7th-place matches too)
        or phase 3; 409 ``games-still-open`` naming the games of earlier phases still open, 409
        ``group-playoff-conflict`` while a group place is still tied."""
        who = principal()
        svc.bus.handle(
            commands.AnnouncePhase(who.actor(), path.tournament_id, body.phase, body.with_placement)
        )
        return show(path.tournament_id)

    @api.post(
        "/tournaments/<uuid:tournament_id>/groups/<group>/lots",
        responses={200: GroupPlayoffOut, **problems(401, 403, 404, 409, 422)},
        security=SECURITY,
    )
    def draw_lots(path: GroupPath, body: LotBody) -> Response:
        """The organiser draws the lot for what a group's play-off left tied (4T1 §5(3)(f)), from a seed that
        is recorded and announced; 409 ``no-tie-for-lots`` where no tie needs one."""
        who = principal()
        svc.bus.handle(commands.DrawGroupLots(who.actor(), path.tournament_id, path.group, body.seed))
        return show(path.tournament_id)

    @api.post(
        "/tournaments/<uuid:tournament_id>/games/<uuid:game_id>/lot",
        responses={200: GroupPlayoffOut, **problems(401, 403, 404, 409, 422)},
        security=SECURITY,
    )
    def draw_game_lot(path: TournamentGamePath, body: GameLotBody) -> Response:
        """The organiser decides an overdue game (its phase's deadline passed, the game open) by a
        recorded lot (4T1 §4(10)): drawn from ``seed`` (or a seed the service draws), the player drawn
        first wins. The lot (seed, who, when, the order drawn) is kept and announced
        (``group_playoff.announced``, ``game-lot``, with the result); the clocks end the game with it
        (reason ``lot``). 409 ``game-not-overdue`` for a game before its deadline, ``game-finished``
        for one with its result, ``game-lot-drawn`` for a second lot, ``phase-not-started`` for a game
        of a phase not opened yet."""
        who = principal()
        seed = body.seed if body.seed is not None else str(new_draw_seed())
        svc.bus.handle(commands.DrawGameLot(who.actor(), path.tournament_id, path.game_id, seed))
        return show(path.tournament_id)

    @api.post(
        "/tournaments/<uuid:tournament_id>/deadlines",
        responses={200: GroupPlayoffOut, **problems(401, 403, 404, 409, 422)},
        security=SECURITY,
    )
    def set_deadline(path: TournamentPath, body: DeadlineBody) -> Response:
        """The organiser sets the date by which a phase must be finished; once it passes the page lists
        the phase's open games as overdue, for the organiser's result: adjudicated from the position,
        entered in the clocks (``POST /games/{id}/result``, reason ``adjudication``), or decided by a
        recorded lot (``POST /tournaments/{id}/games/{game}/lot``)."""
        who = principal()
        svc.bus.handle(commands.SetPhaseDeadline(who.actor(), path.tournament_id, body.phase, body.at))
        return show(path.tournament_id)

    return api
