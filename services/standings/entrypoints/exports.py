"""The downloads of a tournament's tables: CSV and PDF of the standings, the crosstable and the pairing
lists (every round, or one).

- CSV (RFC 4180, CR LF, a header line): the same models as the JSON API, one row per player (the
  standings and crosstable, in table order) or per board and bye (the pairing lists, by round and
  board). Numbers as the API writes them (``2.5``), half points included; an open game's result is
  empty.
- PDF: the printed pages (``/t/<id>/print/...``, the same Jinja templates and print stylesheet) laid
  out by WeasyPrint. WeasyPrint (and pango under it) is imported by the first PDF asked for, not when
  the service starts. The stylesheets are read from the package, not over HTTP.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from services.standings.entrypoints.schemas.common import PlayerOut
from services.standings.entrypoints.schemas.crosstable import CellOut, CrosstableOut
from services.standings.entrypoints.schemas.round import RoundOut

__all__ = ["crosstable_csv", "pairings_csv", "pdf", "table_csv"]

STATIC = Path(__file__).parent / "static"


def table_csv(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


def number(value: int | float | None) -> str:
    """``8``, ``12.5``; nothing for an undefined value."""
    return "" if value is None else f"{value:g}"


def _cell(c: CellOut) -> str:
    """A round of the crosstable as the page writes it: the opponent's place, colour and result
    (``4w1``), ``bye`` (``bye:zero_point`` for another kind than the pairing's), empty when not paired."""
    if c.bye is not None:
        return "bye" if c.bye.value == "pairing_allocated" else f"bye:{c.bye.value}"
    if c.opponent_place is None:
        return ""
    return f"{c.opponent_place}{c.colour}{c.result}"


def crosstable_csv(t: CrosstableOut) -> str:
    """Place, rank, start number, title, name, federation, rating, one column per round (per leg
    with double rounds, ``R3.1``), points, status."""
    header = [
        "Place",
        "Rank",
        "SNo",
        "Title",
        "Name",
        "FED",
        "Rtg",
        *(f"R{c}" for c in t.columns),
        "Pts",
        "Status",
    ]
    rows = (
        [
            row.place,
            row.rank,
            row.seed,
            row.title or "",
            row.name,
            row.federation or "",
            "" if row.rating is None else row.rating,
            *(_cell(c) for c in row.rounds),
            number(row.points),
            "" if row.status is None else row.status.value,
        ]
        for row in t.rows
    )
    return table_csv(header, rows)


PAIRINGS_HEADER = (
    "Round", "Board", "Leg", "White SNo", "White", "White Pts", "Result",
    "Black SNo", "Black", "Black Pts", "Bye",
)  # fmt: skip


def _side(p: PlayerOut) -> list[Any]:
    return [p.seed, p.name, number(p.points)]


def pairings_csv(rounds: Iterable[RoundOut]) -> str:
    """One row per board (with its players' points before the round and the result, empty while
    open), then one per bye (the player in the White columns, the kind of bye and what it scores);
    an unpublished round has no rows."""
    rows: list[list[Any]] = []
    for r in rounds:
        for g in r.games:
            rows.append([r.number, g.board, g.leg, *_side(g.white), g.result, *_side(g.black), ""])
        for b in r.byes:
            kind = f"{b.kind.value}{' (late entry)' if b.late else ''}"
            rows.append([r.number, "", "", *_side(b.player), number(b.points), "", "", "", kind])
    return table_csv(PAIRINGS_HEADER, rows)


def _stylesheet(url: str) -> bytes:
    """A stylesheet of the service's own, by its URL (``.../static/print.css``); nothing else."""
    name = url.rsplit("/static/", 1)[-1] if "/static/" in url else ""
    path = (STATIC / name).resolve()
    if not name or STATIC.resolve() not in path.parents or not path.is_file():
        raise ValueError(f"not a stylesheet of the standings service: {url}")
    return path.read_bytes()


def pdf(html: str) -> bytes:
    """The printed page ``html`` as PDF (A4 unless the stylesheet says otherwise)."""
    # pango and its bindings load with the first PDF only (start-up time)
    from weasyprint import HTML
    from weasyprint.urls import URLFetcher, URLFetcherResponse

    class Stylesheets(URLFetcher):  # type: ignore[misc]
        def fetch(self, url: str, headers: Any = None) -> URLFetcherResponse:
            return URLFetcherResponse(url, _stylesheet(url), {"Content-Type": "text/css"})

    document: bytes = HTML(
        string=html, base_url="http://standings.invalid/", url_fetcher=Stylesheets(fail_on_errors=True)
    ).write_pdf()
    return document
