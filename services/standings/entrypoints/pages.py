"""The public pages, server-rendered in the style of chess-results: the standings with their
tie-break columns (``/t/<id>``), the crosstable (``/t/<id>/crosstable``) and a page per round
(``/t/<id>/rounds/<n>``); for a knockout the bracket instead of a table (``/t/<id>/bracket``, and
``/t/<id>`` too). Printed versions (``/t/<id>/print/pairings[/<n>]``, ``/print/standings``,
``/print/crosstable``): the same tables without navigation, in black on white, one round per page. They render the same models as the JSON API; Jinja escapes every value (names come
from users)."""

from __future__ import annotations

import uuid

from flask import Blueprint, Flask, render_template, request
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import NotFound

from services.standings.bootstrap import StandingsService
from services.standings.domain import errors
from services.standings.domain.codes import TieBreakCodeError, parse_code
from services.standings.domain.tournament import SYSTEM_NAMES
from services.standings.entrypoints import group_playoff, queries
from services.standings.entrypoints.schemas import IncidentOut, ResultFields, RoundOut
from shared.http.problems import Problem, problem_response

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


def register(app: Flask, svc: StandingsService) -> None:
    pages = Blueprint("pages", __name__, url_prefix="/t")

    @pages.get("/<uuid:tournament_id>")
    def standings_page(tournament_id: uuid.UUID) -> str:
        """The tournament's page: its standings, for a knockout its bracket, for an arena its ranking,
        for a group-playoff event its groups, matches and placing."""
        if svc.views.arena(tournament_id) is not None:
            return arena_page(tournament_id)
        try:
            table = queries.standings(svc, tournament_id)
        except errors.NotATable:
            if svc.views.group_playoff(tournament_id) is not None:
                return group_playoff_page(tournament_id)
            return bracket_page(tournament_id)
        return render_template("standings.html", t=table, active="standings")

    @pages.get("/<uuid:tournament_id>/arena")
    def arena_page(tournament_id: uuid.UUID) -> str:
        """The arena's page: the ranking with streak, fire and boost marks, the games in progress, and
        a player's own games (``?player=``). It updates itself by short polling until the ranking is
        final (``?fragment=1`` answers the part that changes)."""
        a = queries.arena(svc, tournament_id)
        player = request.args.get("player")
        chosen = next((r for r in a.ranking if str(r.player) == player), None)
        names = {r.player: r.name for r in a.ranking}
        template = "arena_body.html" if request.args.get("fragment") else "arena.html"
        return render_template(template, a=a, chosen=chosen, names=names)

    @pages.get("/<uuid:tournament_id>/group-playoff")
    def group_playoff_page(tournament_id: uuid.UUID) -> str:
        """A group-playoff event's page (``/t/<id>`` too): group tables, play-offs, lots, matches."""
        page = group_playoff.group_playoff(svc, tournament_id)
        names = {p.player_id: p.name for p in page.players}
        return render_template("group_playoff.html", p=page, names=names)

    @pages.get("/<uuid:tournament_id>/bracket")
    def bracket_page(tournament_id: uuid.UUID) -> str:
        return render_template("bracket.html", t=queries.bracket(svc, tournament_id), active="bracket")

    @pages.get("/<uuid:tournament_id>/crosstable")
    def crosstable_page(tournament_id: uuid.UUID) -> str:
        return render_template(
            "crosstable.html", t=queries.crosstable(svc, tournament_id), active="crosstable"
        )

    @pages.get("/<uuid:tournament_id>/rounds/<int:number>")
    def round_page(tournament_id: uuid.UUID, number: int) -> str:
        t = queries.round_(svc, tournament_id, number)
        return render_template("round.html", t=t, active=f"round-{number}")

    @pages.get("/<uuid:tournament_id>/print/standings")
    def print_standings(tournament_id: uuid.UUID) -> str:
        table = queries.standings(svc, tournament_id)
        return render_template("standings.html", t=table, active="standings", layout="print.html")

    @pages.get("/<uuid:tournament_id>/print/crosstable")
    def print_crosstable(tournament_id: uuid.UUID) -> str:
        t = queries.crosstable(svc, tournament_id)
        return render_template("crosstable.html", t=t, active="crosstable", layout="print.html")

    @pages.get("/<uuid:tournament_id>/print/pairings")
    def print_pairings(tournament_id: uuid.UUID) -> str:
        """Every paired round's pairing list, one round per printed page."""
        table = queries.standings(svc, tournament_id)
        rounds = [queries.round_(svc, tournament_id, r.number) for r in table.rounds]
        return render_template("print_pairings.html", t=table, rounds=rounds)

    @pages.get("/<uuid:tournament_id>/print/pairings/<int:number>")
    def print_round(tournament_id: uuid.UUID, number: int) -> str:
        rnd: RoundOut = queries.round_(svc, tournament_id, number)
        return render_template("print_pairings.html", t=rnd, rounds=[rnd])

    def standings_error(exc: errors.StandingsError) -> tuple[str, int]:
        status = 404 if isinstance(exc, errors.NotFound) else 409
        return render_template("error.html", status=status, detail=exc.detail), status

    pages.register_error_handler(errors.NotFound, standings_error)
    pages.register_error_handler(errors.Conflict, standings_error)

    @app.errorhandler(NotFound)
    def not_found(exc: NotFound) -> ResponseReturnValue:
        """A page address that matches nothing is answered with a page, an API address with a problem."""
        if request.path.startswith(PREFIX):
            return render_template("error.html", status=404, detail="there is no such page"), 404
        return problem_response(Problem(404, "not-found", "Not Found", exc.description), request.path)

    app.add_template_filter(format_number, "number")
    app.add_template_filter(tiebreak_title, "tiebreak_title")
    app.add_template_filter(correction_title, "correction_title")
    app.jinja_env.globals["SYSTEMS"] = SYSTEM_NAMES
    app.jinja_env.globals["BYES"] = BYES
    app.jinja_env.globals["LATE_BYES"] = LATE_BYES
    app.add_template_filter(incident_text, "incident_text")
    app.register_blueprint(pages)
