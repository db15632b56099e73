"""The public pages, server-rendered in the style of chess-results: the index of tournaments (``/t/``:
running, upcoming, finished, searched by name with ``?q=``), the standings with their tie-break columns
(``/t/<id>``; before the start the tournament as announced with its entries), the crosstable
(``/t/<id>/crosstable``), a page per round (``/t/<id>/rounds/<n>``) and per player
(``/t/<id>/players/<start number>``); for a knockout the bracket instead of a table (``/t/<id>/bracket``,
and ``/t/<id>`` too), drawn as a tree with the rounds ahead empty. Printed versions
(``/t/<id>/print/pairings[/<n>]``, ``/print/standings``, ``/print/crosstable``): the same tables without
navigation, in black on white, one round per page. They render the same models as the JSON API; Jinja
escapes every value (names come from users).

While a tournament runs its pages refresh themselves (``static/live.js`` fetches the page again every
few seconds and swaps what changed; without JavaScript a ``<meta refresh>``). A page that names nothing
answers 404 and bad parameters 422: an HTML page for a browser, problem+json for a client that asks for
JSON (``Accept``). The pages are outside the OpenAPI documents, so they read their parameters through
the same models as the JSON API (the same bounds: no NUL, lengths, integers the database holds)."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from http import HTTPStatus
from typing import TypeVar

from flask import Blueprint, Flask, Response, render_template, request
from flask.typing import ResponseReturnValue
from pydantic import BaseModel, ValidationError
from werkzeug.exceptions import NotFound

from services.standings.bootstrap import StandingsService
from services.standings.domain import errors
from services.standings.domain.codes import TieBreakCodeError, parse_code
from services.standings.domain.tournament_info import SYSTEM_NAMES
from services.standings.entrypoints import group_playoff, queries
from services.standings.entrypoints.schemas.announced import AnnouncedOut
from services.standings.entrypoints.schemas.arena import ArenaPageQuery
from services.standings.entrypoints.schemas.bracket import BracketOut, MatchOut
from services.standings.entrypoints.schemas.common import PlayerOut, ResultFields, TournamentFields
from services.standings.entrypoints.schemas.index import IndexOut, IndexQuery
from services.standings.entrypoints.schemas.player import PlayerPath
from services.standings.entrypoints.schemas.round import IncidentOut, RoundPath
from shared.http.problems import PROBLEM_JSON, Problem, problem_response

PREFIX = "/t/"


def format_number(value: int | float | None) -> str:
    """``8``, ``12.5``; nothing for an undefined value."""
    return "" if value is None else f"{value:g}"


GROUP_TITLES = {  # the group-playoff table's columns (live_table.GROUP_COLUMNS)
    "BP": "board points",
    "MP-T": "match points among the tied",
    "BP-T": "board points among the tied",
}
BYES = {
    "pairing_allocated": "Bye",
    "zero_point": "Zero-point bye (requested)",
    "half_point": "Half-point bye",
    "full_point": "Full-point bye",
}
LATE_BYES = {
    "zero_point": "Zero-point bye (late entry)",
    "half_point": "Half-point bye (late entry)",
}
PENALTIES = {
    ("illegal_move", "warning"): "warned",
    ("illegal_move", "extra_minute"): "the opponent gets one extra minute",
    ("illegal_move", "loss"): "the game is lost",
    ("displaced_pieces", "warning"): "warned",
    ("displaced_pieces", "extra_minute"): "counted as an illegal move: the opponent gets one extra minute",
    ("displaced_pieces", "loss"): "counted as a second illegal move: the game is lost",
}
KINDS = {"illegal_move": "illegal move", "displaced_pieces": "displaced pieces not restored"}


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def incident_text(i: IncidentOut) -> str:
    """``Illegal move (2nd) by Anna Muster (4): the game is lost``."""
    what = PENALTIES.get((i.kind, i.consequence), i.consequence)
    return f"{KINDS.get(i.kind, i.kind).capitalize()} ({_ordinal(i.occurrence)}) by {i.name} ({i.player}): {what}"


def tiebreak_title(code: str) -> str:
    if code in GROUP_TITLES:
        return GROUP_TITLES[code]
    try:
        return parse_code(code).title
    except TieBreakCodeError:
        return code


def correction_title(game: ResultFields) -> str:
    """``corrected from 0-1 by the arbiter: wrong result entered`` (every correction, latest last)."""
    parts = []
    for c in game.corrections:
        by = f" by the {c.role.value}" if c.role is not None else ""
        why = f": {c.reason}" if c.reason else ""
        parts.append(f"corrected from {c.old_result} to {c.result}{by}{why}")
    return "; ".join(parts)


def printed(svc: StandingsService, tournament_id: uuid.UUID, what: str, number: int | None = None) -> str:
    """A printed page's HTML (in a request): the standings, the crosstable, or the pairing lists of
    every paired round (``number`` None) or of one. The PDF downloads lay out the same HTML."""
    if what == "standings":
        table = queries.standings(svc, tournament_id)
        return render_template("standings.html", t=table, active="standings", layout="print.html")
    if what == "crosstable":
        t = queries.crosstable(svc, tournament_id)
        return render_template("crosstable.html", t=t, active="crosstable", layout="print.html")
    rounds = queries.pairing_rounds(svc, tournament_id, number)
    head = rounds[0] if number is not None else queries.standings(svc, tournament_id)
    return render_template("print_pairings.html", t=head, rounds=rounds)


@dataclass(frozen=True)
class TreeRound:
    """A column of the drawn bracket: the round's matches in bracket order, ``None`` where a match is
    not shown (a round not yet paired or published, or a void match of byes). Each match spans ``span``
    rows of the section's grid, so it sits level with the middle of the matches it follows. ``halves``:
    the next round has half as many matches (lines join each pair), else as many (a drop-in round: the
    lines run straight on); the last round has no line out."""

    section_round: int
    name: str
    cells: list[MatchOut | None]
    played: bool  # some of its matches are shown: a missing one is void, not ahead
    span: int
    halves: bool
    last: bool


@dataclass(frozen=True)
class TreeSection:
    section: str
    title: str
    rows: int  # the grid's rows: the most matches a round of the section has
    rounds: list[TreeRound]


def bracket_tree(t: BracketOut) -> list[TreeSection]:
    """The whole bracket as a grid of match boxes, one column per round: the published matches in
    their places, the rest drawn empty."""
    shown = {(s.section, r.section_round): r.matches for s in t.sections for r in s.rounds}
    tree = []
    for section in t.layout:
        rows = max(r.matches for r in section.rounds)
        columns = []
        for i, rnd in enumerate(section.rounds):
            matches = shown.get((section.section, rnd.section_round), [])
            by_number = {m.number: m for m in matches}
            size = max([rnd.matches, *by_number])
            following = section.rounds[i + 1].matches if i + 1 < len(section.rounds) else None
            columns.append(
                TreeRound(
                    section_round=rnd.section_round,
                    name=rnd.name,
                    cells=[by_number.get(n) for n in range(1, size + 1)],
                    played=bool(matches),
                    span=max(1, rows // size),
                    halves=following is not None and 2 * following == rnd.matches,
                    last=following is None,
                )
            )
        tree.append(TreeSection(section.section.value, section.title, rows, columns))
    return tree


def wants_json() -> bool:
    """A client that prefers JSON to HTML (``Accept``): it gets problem+json rather than a page."""
    best = request.accept_mimetypes.best_match(["text/html", "application/json", PROBLEM_JSON])
    return best in ("application/json", PROBLEM_JSON)


def error_page(problem: Problem) -> ResponseReturnValue:
    """The same problem as a page for a person, as problem+json for a client (content negotiation)."""
    if wants_json():
        return problem_response(problem, request.path)
    html = render_template("error.html", status=problem.status, title=problem.title, detail=problem.detail)
    response = Response(html, status=problem.status, mimetype="text/html")
    response.vary.add("Accept")
    return response


M = TypeVar("M", bound=BaseModel)


def parameters(model: type[M], values: Mapping[str, object]) -> M:
    """A page's parameters read through ``model``; a 422 (``validation-error``) naming each bad one."""
    try:
        return model.model_validate(values)
    except ValidationError as exc:
        issues = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        raise Problem(422, "validation-error", "Invalid request", issues) from None


def register(app: Flask, svc: StandingsService) -> None:
    pages = Blueprint("pages", __name__, url_prefix="/t")
    refresh = svc.settings.page_refresh_seconds

    @pages.get("/")
    def index_page() -> ResponseReturnValue:
        """The tournaments known here: running, upcoming and finished, searched by name (``?q=``),
        one list only with ``?status=``."""
        query = parameters(IndexQuery, request.args.to_dict())
        listed = IndexOut.of(queries.index(svc, query.q), query)
        return render_template("index.html", index=listed, query=query)

    @pages.get("/<uuid:tournament_id>")
    def standings_page(tournament_id: uuid.UUID) -> ResponseReturnValue:
        """The tournament's page: its standings, for a knockout its bracket, for an arena its ranking,
        for a group-playoff event its groups, matches and placing; before its start the tournament as
        announced, with its entries so far."""
        if svc.views.arena(tournament_id) is not None:
            return arena_page(tournament_id)
        try:
            table = queries.standings(svc, tournament_id)
        except errors.NotATable:
            if svc.views.group_playoff(tournament_id) is not None:
                return group_playoff_page(tournament_id)
            return bracket_page(tournament_id)
        except errors.TournamentNotFound:
            announced = AnnouncedOut.of(queries.announced(svc, tournament_id))
            return render_template("announced.html", a=announced)
        return render_template("standings.html", t=table, active="standings")

    @pages.get("/<uuid:tournament_id>/arena")
    def arena_page(tournament_id: uuid.UUID) -> str:
        """The arena's page: the ranking with streak, fire and boost marks, the games in progress, and
        a player's own games (``?player=``). It updates itself by short polling until the ranking is
        final (``?fragment=1`` answers the part that changes)."""
        query = parameters(ArenaPageQuery, request.args.to_dict())
        a = queries.arena(svc, tournament_id)
        chosen = next((r for r in a.ranking if r.player == query.player), None)
        names = {r.player: r.name for r in a.ranking}
        template = "arena_body.html" if query.fragment else "arena.html"
        return render_template(template, a=a, chosen=chosen, names=names)

    @pages.get("/<uuid:tournament_id>/group-playoff")
    def group_playoff_page(tournament_id: uuid.UUID) -> str:
        """A group-playoff event's page (``/t/<id>`` too): group tables, play-offs, lots, matches."""
        page = group_playoff.group_playoff(svc, tournament_id)
        names = {p.player_id: p.name for p in page.players}
        return render_template("group_playoff.html", p=page, names=names)

    @pages.get("/<uuid:tournament_id>/bracket")
    def bracket_page(tournament_id: uuid.UUID) -> str:
        t = queries.bracket(svc, tournament_id)
        return render_template("bracket.html", t=t, tree=bracket_tree(t), active="bracket")

    @pages.get("/<uuid:tournament_id>/crosstable")
    def crosstable_page(tournament_id: uuid.UUID) -> str:
        return render_template(
            "crosstable.html", t=queries.crosstable(svc, tournament_id), active="crosstable"
        )

    @pages.get("/<uuid:tournament_id>/rounds/<int:number>")
    def round_page(tournament_id: uuid.UUID, number: int) -> str:
        parameters(RoundPath, {"tournament_id": tournament_id, "number": number})
        t = queries.round_(svc, tournament_id, number)
        return render_template("round.html", t=t, active=f"round-{number}")

    @pages.get("/<uuid:tournament_id>/players/<int:seed>")
    def player_page(tournament_id: uuid.UUID, seed: int) -> str:
        """A player's games, opponents, colours and results, their points and tie-breaks."""
        parameters(PlayerPath, {"tournament_id": tournament_id, "seed": seed})
        t = queries.player(svc, tournament_id, seed)
        return render_template("player.html", t=t, active=f"player-{seed}")

    @pages.get("/<uuid:tournament_id>/print/standings")
    def print_standings(tournament_id: uuid.UUID) -> str:
        return printed(svc, tournament_id, "standings")

    @pages.get("/<uuid:tournament_id>/print/crosstable")
    def print_crosstable(tournament_id: uuid.UUID) -> str:
        return printed(svc, tournament_id, "crosstable")

    @pages.get("/<uuid:tournament_id>/print/pairings")
    def print_pairings(tournament_id: uuid.UUID) -> str:
        """Every paired round's pairing list, one round per printed page."""
        return printed(svc, tournament_id, "pairings")

    @pages.get("/<uuid:tournament_id>/print/pairings/<int:number>")
    def print_round(tournament_id: uuid.UUID, number: int) -> str:
        parameters(RoundPath, {"tournament_id": tournament_id, "number": number})
        return printed(svc, tournament_id, "pairings", number)

    @pages.after_request
    def conditional(response: Response) -> Response:
        """A page fetched again unchanged (the refresh, a reload) answers 304 Not Modified."""
        if request.method == "GET" and response.status_code == 200 and response.mimetype == "text/html":
            response.add_etag()
            response.vary.add("Accept")
            response.make_conditional(request)  # in place: a 304 without a body when the ETag matches
        return response

    def standings_error(exc: errors.StandingsError) -> ResponseReturnValue:
        status = 404 if isinstance(exc, errors.NotFound) else 409
        return error_page(Problem(status, exc.slug, HTTPStatus(status).phrase, exc.detail))

    pages.register_error_handler(errors.NotFound, standings_error)
    pages.register_error_handler(errors.Conflict, standings_error)
    pages.register_error_handler(Problem, error_page)

    @app.errorhandler(NotFound)
    def not_found(exc: NotFound) -> ResponseReturnValue:
        """A page address that matches nothing is answered with a page (or problem+json, for a client
        asking for JSON), an API address with a problem."""
        if request.path.startswith(PREFIX) or request.path == PREFIX.rstrip("/"):
            return error_page(Problem(404, "not-found", "Not Found", "there is no such page"))
        return problem_response(Problem(404, "not-found", "Not Found", exc.description), request.path)

    def refresh_seconds(t: TournamentFields) -> int:
        """How often a page of ``t`` refreshes itself: while it runs, else never (0)."""
        return 0 if t.completed else refresh

    def player_link(tournament_id: uuid.UUID, p: PlayerOut | int) -> str:
        seed = p if isinstance(p, int) else p.seed
        return f"{PREFIX}{tournament_id}/players/{seed}"

    app.add_template_filter(format_number, "number")
    app.add_template_filter(tiebreak_title, "tiebreak_title")
    app.add_template_filter(correction_title, "correction_title")
    app.jinja_env.globals["SYSTEMS"] = SYSTEM_NAMES
    app.jinja_env.globals["BYES"] = BYES
    app.jinja_env.globals["LATE_BYES"] = LATE_BYES
    app.jinja_env.globals["refresh_seconds"] = refresh_seconds
    app.jinja_env.globals["player_link"] = player_link
    app.add_template_filter(incident_text, "incident_text")
    app.register_blueprint(pages)
