"""Registration's HTTP API (gunicorn: ``services.registration.entrypoints.app:create_app()``)."""

from __future__ import annotations

import datetime as dt
import uuid

from flask import Request, Response, request
from flask_openapi3.blueprint import APIBlueprint
from flask_openapi3.models import RawModel
from flask_openapi3.models.tag import Tag
from flask_openapi3.openapi import OpenAPI

from services.registration.adapters import views
from services.registration.adapters.orm import idempotency_keys
from services.registration.bootstrap import Registration, bootstrap
from services.registration.domain import errors, knockout
from services.registration.domain.entries import Entry
from services.registration.domain.player_lists import ListFormat, decode
from services.registration.domain.tournament import Changes, RateOfPlay, Settings, Tournament
from services.registration.entrypoints.schemas import (
    AccountBody,
    AccountOut,
    AccountPath,
    AppointBody,
    ArbiterList,
    ArbiterOut,
    ArbiterPath,
    AuditEntryOut,
    AuditLogOut,
    ChangeTournamentBody,
    CreateTournamentBody,
    EnteredOut,
    EntryOut,
    EntryPath,
    ImportOut,
    InviteBody,
    InviteList,
    InviteOut,
    InvitePath,
    JoinBody,
    ListQuery,
    PlayerBody,
    PlayerChangeBody,
    PlayerList,
    PlayerPath,
    RefuseBody,
    TournamentList,
    TournamentOut,
    TournamentPath,
    WithdrawBody,
)
from services.registration.service_layer import commands
from shared.games.boards import GameRuleError
from shared.health import readiness
from shared.http.app import SECURITY, create_openapi_app, json_response
from shared.http.auth import authenticate_writes, current_principal, principal
from shared.http.idempotency import Idempotency
from shared.http.limits import http_limits
from shared.http.openapi import problems
from shared.http.problems import (
    Problem,
    forbidden,
    install_domain_errors,
    not_found,
    problem_response,
    unprocessable,
)
from shared.openings import OpeningError
from shared.vocabulary import Ruleset

ROSTER_REVISION = "Roster-Revision"
"""The header of every answer about one tournament: its roster revision as the answer leaves (the roster
changes published so far, the command's own included), for a later command to another service that must
follow them (pairing's ``?roster_revision=``; docs/api.md, "Causal commands")."""


def revised(revision: int, headers: dict[str, str] | None = None) -> dict[str, str]:
    """An answer's headers with the tournament's roster revision."""
    return {**(headers or {}), ROSTER_REVISION: str(revision)}


def tournament_response(t: Tournament, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    """The tournament as an answer, its roster revision in the body and in the header."""
    return json_response(TournamentOut.of(t), status, revised(t.roster_revision, headers))


DOMAIN_STATUSES: dict[type[Exception], int] = {
    errors.NotFound: 404,
    errors.NotAllowed: 403,
    errors.Conflict: 409,
    errors.InvalidSettings: 422,
    errors.Unprocessable: 422,
    OpeningError: 422,
    GameRuleError: 422,
}


def create_app(service: Registration | None = None) -> OpenAPI:
    svc = service or bootstrap()
    app = create_openapi_app(
        __name__,
        title="Arbiter registration",
        version="1",
        readiness=readiness(svc.engine),
        limits=http_limits(svc.settings),
    )
    install_domain_errors(app, DOMAIN_STATUSES)

    @app.errorhandler(errors.InvalidPlayerLine)
    def _bad_line(exc: errors.InvalidPlayerLine) -> Response:
        """A bad line of an imported list: 422 naming it, in the detail and as ``line``."""
        problem = Problem(422, exc.slug, "Unprocessable Content", exc.detail, line=exc.line)
        return problem_response(problem, request.path)

    secret = svc.settings.jwt_secret.get_secret_value()
    idempotent = Idempotency(svc.engine, idempotency_keys)
    app.register_api(_accounts(svc, secret, idempotent))
    app.register_api(_tournaments(svc, secret, idempotent))
    app.register_api(_officials(svc, secret, idempotent))
    app.register_api(_players(svc, secret, idempotent))
    app.extensions["arbiter"] = svc
    return app


def _accounts(svc: Registration, secret: str, idempotent: Idempotency) -> APIBlueprint:
    api = APIBlueprint("accounts", __name__, abp_tags=[Tag(name="accounts")], abp_security=SECURITY)
    authenticate_writes(api, secret)

    @api.post("/accounts", responses={201: AccountOut, **problems(401, 403, 409)})
    @idempotent
    def register_account(body: AccountBody) -> Response:
        """Mirror an account from the identity provider (the service principal only)."""
        principal().require("service")
        account = svc.bus.handle(
            commands.RegisterAccount(body.id or uuid.uuid4(), body.name, body.kind, dict(body.ratings))
        )
        out = AccountOut(id=account.id, name=account.name, kind=account.kind, ratings=account.ratings)
        return json_response(out, 201, {"Location": f"/accounts/{account.id}"})

    @api.get("/accounts/<uuid:account_id>", responses={200: AccountOut, **problems(404)}, security=[])
    def get_account(path: AccountPath) -> Response:
        account = views.account(svc.engine, path.account_id)
        if account is None:
            raise not_found("account", path.account_id)
        return json_response(
            AccountOut(id=account.id, name=account.name, kind=account.kind, ratings=account.ratings)
        )

    return api


def _tournaments(svc: Registration, secret: str, idempotent: Idempotency) -> APIBlueprint:
    api = APIBlueprint("tournaments", __name__, abp_tags=[Tag(name="tournaments")], abp_security=SECURITY)
    authenticate_writes(api, secret)

    @api.post("/tournaments", responses={201: TournamentOut, **problems(401, 403, 404, 409)})
    @idempotent
    def create_tournament(body: CreateTournamentBody) -> Response:
        """Create a `platform` tournament, a `knockout` / `double-knockout` draft, or a `fide-rapid`
        event (open for entries until its arbiters start it); the caller becomes its organiser."""
        who = principal()
        tc = body.time_control
        arena = body.ruleset is Ruleset.ARENA
        if body.ruleset not in (Ruleset.ARENA, Ruleset.PLATFORM) and body.duration_minutes is not None:
            raise unprocessable(
                "invalid-settings", "duration_minutes is an arena's or a platform tournament's"
            )
        if body.ruleset is Ruleset.ARENA:
            not_arena = sorted({"seats", "minimum", "threshold", "knockout", "fide"} & body.model_fields_set)
            if not_arena:
                raise unprocessable("invalid-settings", f"not an arena setting: {', '.join(not_arena)}")
        if knockout.is_knockout(body.ruleset) or body.ruleset is Ruleset.FIDE_RAPID:
            platform_only = sorted({"seats", "minimum", "threshold"} & body.model_fields_set)
            if platform_only:
                what = "a fide-rapid" if body.ruleset is Ruleset.FIDE_RAPID else "a knockout"
                raise unprocessable("invalid-settings", f"not {what} setting: {', '.join(platform_only)}")
        settings = Settings(
            name=body.name,
            starts_at=body.starts_at,
            time_control=RateOfPlay(tc.base_seconds, tc.increment_seconds, tc.days_per_move),
            seats=body.seats,
            minimum=body.minimum,
            threshold=body.threshold,
            ruleset=body.ruleset,
            variant=body.variant,
            double_rounds=body.double_rounds,
            extra_round=body.extra_round,
            rated=body.rated,
            min_rating=body.min_rating,
            password=body.password,
            opening=body.opening,
            duration_minutes=None if arena else body.duration_minutes,
            knockout=body.knockout.domain() if body.knockout else None,
            byes_on_request=body.byes_on_request,
            fide=body.fide.domain() if body.fide else None,
            arena_minutes=body.duration_minutes if arena else None,
            group_playoff=body.group_playoff.domain() if body.group_playoff else None,
        )
        t = svc.bus.handle(commands.CreateTournament(who.actor(), settings))
        return tournament_response(t, 201, {"Location": f"/tournaments/{t.id}"})

    @api.get("/tournaments", responses={200: TournamentList}, security=[])
    def list_tournaments(query: ListQuery) -> Response:
        found = views.tournaments_list(svc.engine, status=query.status, limit=query.limit)
        return json_response(TournamentList(tournaments=[TournamentOut.of(t) for t in found]))

    @api.get(
        "/tournaments/<uuid:tournament_id>", responses={200: TournamentOut, **problems(404)}, security=[]
    )
    def get_tournament(path: TournamentPath) -> Response:
        t = views.tournament(svc.engine, path.tournament_id)
        if t is None:
            raise not_found("tournament", path.tournament_id)
        return tournament_response(t)

    @api.patch(
        "/tournaments/<uuid:tournament_id>", responses={200: TournamentOut, **problems(401, 403, 404, 409)}
    )
    def change_tournament(path: TournamentPath, body: ChangeTournamentBody) -> Response:
        """Change a knockout draft's settings (its organiser, while it is a draft), or a fide-rapid
        event's before its start."""
        who = principal()
        tc = body.time_control
        changes = Changes(
            name=body.name,
            time_control=RateOfPlay(tc.base_seconds, tc.increment_seconds, tc.days_per_move) if tc else None,
            variant=body.variant,
            rated=body.rated,
            format=body.knockout.domain() if body.knockout else knockout.FormatChange(),
            fide=body.fide.domain() if body.fide else None,
        )
        t = svc.bus.handle(commands.ChangeTournament(who.actor(), path.tournament_id, changes))
        return tournament_response(t)

    @api.post(
        "/tournaments/<uuid:tournament_id>/start",
        responses={200: TournamentOut, **problems(401, 403, 404, 409)},
    )
    def start(path: TournamentPath) -> Response:
        """Start a knockout draft (its organiser) or a fide-rapid event (its organiser or an arbiter of
        the whole event): the roster and its seeds are fixed and round 1 is paired."""
        who = principal()
        t = svc.bus.handle(commands.StartTournament(who.actor(), path.tournament_id))
        return tournament_response(t)

    @api.post(
        "/tournaments/<uuid:tournament_id>/entries",
        responses={201: TournamentOut, **problems(401, 403, 404, 409)},
    )
    @idempotent
    def join(path: TournamentPath, body: JoinBody) -> Response:
        """Join before the start (an arena: until its end, also to come back from a pause); the service principal may enter another account with ``player_id``. A
        knockout's roster is kept by its organiser (or an arbiter of the whole tournament), who adds
        players with ``player_id``. A fide-rapid entry waits for an official's confirmation (one an
        official makes is confirmed at once)."""
        who = principal()
        player_id = body.player_id or who.subject
        profile = body.profile.domain() if body.profile else None
        cmd = commands.JoinTournament(
            who.actor(),
            path.tournament_id,
            player_id,
            body.password,
            profile,
            body.creates_games,
            invite=body.invite,
        )
        return tournament_response(svc.bus.handle(cmd), 201)

    @api.post(
        "/tournaments/<uuid:tournament_id>/invites",
        responses={201: InviteOut, **problems(401, 403, 404, 409)},
    )
    def create_invite(path: TournamentPath, body: InviteBody) -> Response:
        """The organiser of a private tournament creates an invite link: its holder joins with
        ``{invite: token}`` instead of the password, until the organiser revokes it (or it expires)."""
        who = principal()
        valid_for = None if body.valid_for_minutes is None else dt.timedelta(minutes=body.valid_for_minutes)
        link = svc.bus.handle(commands.CreateInvite(who.actor(), path.tournament_id, valid_for))
        return json_response(InviteOut.of(link), 201)

    @api.delete(
        "/tournaments/<uuid:tournament_id>/invites/<token>",
        responses={200: InviteOut, **problems(401, 403, 404, 409)},
    )
    def revoke_invite(path: InvitePath) -> Response:
        """The organiser revokes an invite link: joining with it is refused from now on (403)."""
        who = principal()
        link = svc.bus.handle(commands.RevokeInvite(who.actor(), path.tournament_id, path.token))
        return json_response(InviteOut.of(link))

    @api.get(
        "/tournaments/<uuid:tournament_id>/invites",
        responses={200: InviteList, **problems(401, 403, 404)},
    )
    def invites(path: TournamentPath) -> Response:
        """A private tournament's invite links, revoked ones too (its organiser only)."""
        who = current_principal(secret)
        t = views.tournament(svc.engine, path.tournament_id)
        if t is None:
            raise not_found("tournament", path.tournament_id)
        if who.subject != t.organiser_id:
            raise forbidden("only the organiser of this tournament reads its invite links", "not-organiser")
        return json_response(InviteList(invites=[InviteOut.of(i) for i in views.invites(svc.engine, t.id)]))

    @api.delete(
        "/tournaments/<uuid:tournament_id>/entries/<uuid:player_id>",
        responses={200: TournamentOut, **problems(401, 403, 404, 409)},
    )
    def leave(path: EntryPath) -> Response:
        """Leave before the start (the player, the organiser or an arbiter of the whole tournament, the
        service principal); after it nobody leaves, except from an arena (until its end: the games
        played stand, and the player may join again). A knockout draft's organiser removes players."""
        who = principal()
        t = svc.bus.handle(commands.LeaveTournament(who.actor(), path.tournament_id, path.player_id))
        return tournament_response(t)

    @api.post(
        "/tournaments/<uuid:tournament_id>/entries/<uuid:player_id>/pause",
        responses={200: TournamentOut, **problems(401, 403, 404, 409)},
    )
    def pause(path: EntryPath) -> Response:
        """An arena's player pauses (the player, an official, the service principal): out of the
        waiting pool until they join again (``POST …/entries``), keeping their score; a running game
        goes on."""
        who = principal()
        t = svc.bus.handle(commands.PauseEntry(who.actor(), path.tournament_id, path.player_id))
        return tournament_response(t)

    @api.post(
        "/tournaments/<uuid:tournament_id>/cancel",
        responses={200: TournamentOut, **problems(401, 403, 404, 409)},
    )
    def cancel(path: TournamentPath) -> Response:
        """The organiser may cancel before the start (a knockout: while it is a draft), never after."""
        who = principal()
        t = svc.bus.handle(commands.CancelTournament(who.actor(), path.tournament_id))
        return tournament_response(t)

    return api


def _officials(svc: Registration, secret: str, idempotent: Idempotency) -> APIBlueprint:
    """Who decides in a tournament: its arbiters, the withdrawals and exclusions they and the organiser
    decide, the seeding drawn on request, and the audit log of every decision."""
    api = APIBlueprint("officials", __name__, abp_tags=[Tag(name="officials")], abp_security=SECURITY)
    authenticate_writes(api, secret)

    def readable(tournament_id: uuid.UUID, what: str) -> Tournament:
        """The tournament, for its organiser and its arbiters (of any scope) only."""
        who = current_principal(secret)
        t = views.tournament(svc.engine, tournament_id)
        if t is None:
            raise not_found("tournament", tournament_id)
        if not t.may_read_records(who.subject):
            raise forbidden(f"only the organiser and the arbiters of this tournament read its {what}",
                            errors.NotAnArbiterHere.slug)  # fmt: skip
        return t

    @api.post(
        "/tournaments/<uuid:tournament_id>/arbiters",
        responses={201: ArbiterOut, **problems(401, 403, 404, 409)},
    )
    @idempotent
    def appoint(path: TournamentPath, body: AppointBody) -> Response:
        """The organiser appoints an arbiter for the whole tournament, or for the named games
        (``games``); appointing them again replaces the scope (``arbiter.appointed``)."""
        who = principal()
        games = None if body.games is None else frozenset(body.games)
        t = svc.bus.handle(commands.AppointArbiter(who.actor(), path.tournament_id, body.account_id, games))
        return json_response(ArbiterOut.of(t.arbiters[body.account_id]), 201, revised(t.roster_revision))

    @api.delete(
        "/tournaments/<uuid:tournament_id>/arbiters/<uuid:account_id>",
        responses={200: ArbiterList, **problems(401, 403, 404, 409)},
    )
    def revoke(path: ArbiterPath) -> Response:
        """The organiser revokes an arbiter's appointment (``arbiter.revoked``); the arbiters left."""
        who = principal()
        t = svc.bus.handle(commands.RevokeArbiter(who.actor(), path.tournament_id, path.account_id))
        return json_response(ArbiterList.of(t), headers=revised(t.roster_revision))

    @api.get(
        "/tournaments/<uuid:tournament_id>/arbiters", responses={200: ArbiterList, **problems(401, 403, 404)}
    )
    def arbiters(path: TournamentPath) -> Response:
        """The tournament's arbiters and their scopes (its organiser and arbiters only)."""
        return json_response(ArbiterList.of(readable(path.tournament_id, "arbiters")))

    @api.post(
        "/tournaments/<uuid:tournament_id>/withdrawals",
        responses={201: TournamentOut, **problems(401, 403, 404, 409)},
    )
    @idempotent
    def withdraw(path: TournamentPath, body: WithdrawBody) -> Response:
        """Withdraw a player from a started tournament (the organiser or an arbiter of the whole
        tournament), or exclude them (``exclude``: the organiser alone); for good, with a reason
        (``player.withdrawn``)."""
        who = principal()
        cmd = commands.WithdrawPlayer(
            who.actor(), path.tournament_id, body.player_id, body.reason, body.exclude
        )
        return tournament_response(svc.bus.handle(cmd), 201)

    @api.get(
        "/tournaments/<uuid:tournament_id>/audit", responses={200: AuditLogOut, **problems(401, 403, 404)}
    )
    def audit(path: TournamentPath) -> Response:
        """Every decision taken in the tournament, in time order (its organiser and arbiters only)."""
        t = readable(path.tournament_id, "audit log")
        entries = [AuditEntryOut.of(e) for e in views.audit(svc.engine, t.id)]
        return json_response(AuditLogOut(tournament_id=t.id, entries=entries))

    @api.post(
        "/tournaments/<uuid:tournament_id>/seeding/draw",
        responses={200: TournamentOut, **problems(401, 403, 404, 409)},
    )
    def draw_seeding(path: TournamentPath) -> Response:
        """The organiser draws a knockout draft's random seeding now; the draw is kept at the start."""
        who = principal()
        t = svc.bus.handle(commands.DrawSeeding(who.actor(), path.tournament_id))
        return tournament_response(t)

    return api


class PlayerListUpload(RawModel):
    """A player list: ``text/csv`` (a header row naming the columns) or ``text/plain`` (a TRF file)."""

    mimetypes = ["text/csv", "text/plain"]  # noqa: RUF012 (flask-openapi3 reads it from the class)


LIST_FORMATS = {"text/csv": ListFormat.CSV, "text/plain": ListFormat.TRF}


def _list_format(req: Request) -> ListFormat:
    found = LIST_FORMATS.get(req.mimetype)
    if found is None:
        raise Problem(
            415,
            "unsupported-media-type",
            "Unsupported Media Type",
            f"send the list as text/csv (CSV) or text/plain (a TRF file), not {req.mimetype or 'nothing'}",
        )
    return found


def _players(svc: Registration, secret: str, idempotent: Idempotency) -> APIBlueprint:
    """A fide-rapid event's players: people its officials enter by hand or import, correct and remove
    before the start, late entries after it, and the accounts' entries they confirm."""
    api = APIBlueprint("players", __name__, abp_tags=[Tag(name="players")], abp_security=SECURITY)
    authenticate_writes(api, secret)

    def entered(
        entry: Entry, tournament_id: uuid.UUID, status: int = 200, headers: dict[str, str] | None = None
    ) -> Response:
        """An entry a command entered or changed, with the tournament's roster revision after it (read
        once the command committed: this change's, or a later one's)."""
        revision = views.roster_revision(svc.engine, tournament_id)
        out = EnteredOut(**EntryOut.of(entry).model_dump(), roster_revision=revision)
        return json_response(out, status, revised(revision, headers))

    @api.get(
        "/tournaments/<uuid:tournament_id>/players", responses={200: PlayerList, **problems(404)}, security=[]
    )
    def players(path: TournamentPath) -> Response:
        """The confirmed players in starting-rank order (FIDE standard rating, title, name)."""
        t = views.tournament(svc.engine, path.tournament_id)
        if t is None:
            raise not_found("tournament", path.tournament_id)
        return json_response(PlayerList.of(t))

    @api.post(
        "/tournaments/<uuid:tournament_id>/players",
        responses={201: EnteredOut, **problems(401, 403, 404, 409)},
    )
    @idempotent
    def add_player(path: TournamentPath, body: PlayerBody) -> Response:
        """The organiser or an arbiter of the whole event enters a player by hand (a person, no account:
        a new player id); after the start, a late entry playing from the next round not yet paired."""
        who = principal()
        entry = svc.bus.handle(commands.AddPlayer(who.actor(), path.tournament_id, body.person()))
        location = f"/tournaments/{path.tournament_id}/players/{entry.player_id}"
        return entered(entry, path.tournament_id, 201, {"Location": location})

    @api.post(
        "/tournaments/<uuid:tournament_id>/players/import",
        responses={201: ImportOut, **problems(401, 403, 404, 409, 415)},
    )
    @idempotent
    def import_players(path: TournamentPath, raw: PlayerListUpload) -> Response:
        """Import a player list before the start: ``text/csv`` or a TRF file as ``text/plain``. A bad
        line is a 422 naming it (``line``); a FIDE id entered already or twice in the list a 409; either
        way nothing is imported."""
        who = principal()
        fmt = _list_format(request)
        text = decode(request.get_data())
        imported = svc.bus.handle(commands.ImportPlayers(who.actor(), path.tournament_id, text, fmt))
        revision = views.roster_revision(svc.engine, path.tournament_id)
        players = [EntryOut.of(e) for e in imported]
        out = ImportOut(tournament_id=path.tournament_id, players=players, roster_revision=revision)
        return json_response(out, 201, revised(revision))

    @api.patch(
        "/tournaments/<uuid:tournament_id>/players/<uuid:player_id>",
        responses={200: EnteredOut, **problems(401, 403, 404, 409)},
    )
    def change_player(path: PlayerPath, body: PlayerChangeBody) -> Response:
        """Correct a player's name or FIDE data before the start (a field given replaces, null clears)."""
        who = principal()
        cmd = commands.ChangePlayer(who.actor(), path.tournament_id, path.player_id, body.change())
        return entered(svc.bus.handle(cmd), path.tournament_id)

    @api.delete(
        "/tournaments/<uuid:tournament_id>/players/<uuid:player_id>",
        responses={200: TournamentOut, **problems(401, 403, 404, 409)},
    )
    def remove_player(path: PlayerPath) -> Response:
        """Remove an entry before the start (after it, a player is withdrawn)."""
        who = principal()
        t = svc.bus.handle(commands.RemovePlayer(who.actor(), path.tournament_id, path.player_id))
        return tournament_response(t)

    @api.post(
        "/tournaments/<uuid:tournament_id>/entries/<uuid:player_id>/confirm",
        responses={200: TournamentOut, **problems(401, 403, 404, 409)},
    )
    def confirm(path: EntryPath) -> Response:
        """Confirm an account's entry before the start: the player is on the roster (``player.joined``)."""
        who = principal()
        t = svc.bus.handle(commands.ConfirmEntry(who.actor(), path.tournament_id, path.player_id))
        return tournament_response(t)

    @api.post(
        "/tournaments/<uuid:tournament_id>/entries/<uuid:player_id>/refuse",
        responses={200: TournamentOut, **problems(401, 403, 404, 409, 422)},
    )
    def refuse(path: EntryPath, body: RefuseBody) -> Response:
        """The organiser refuses an entry into a group-playoff event before its start (with a reason, in
        the audit log): it is removed, and the waiting list moves up."""
        who = principal()
        cmd = commands.RefuseEntry(who.actor(), path.tournament_id, path.player_id, body.reason)
        return tournament_response(svc.bus.handle(cmd))

    return api
