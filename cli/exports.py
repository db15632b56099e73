"""``arbiter export TOURNAMENT --format trf|trf2026|csv|pdf [--what standings|crosstable|pairings]
[--round N] [--output PATH]``: a running tournament's files from the standings service.

- ``trf``: the TRF-16 for rating submission; ``trf2026``: the TRF-2026. Both are the whole event (no
  ``--what``) and read back with ``arbiter standings`` to the page's table.
- ``csv``, ``pdf``: the standings (the default), the crosstable, or the pairing lists — of every paired
  round, or of round ``--round N`` alone. The PDF is the printed page.

``--trf``, ``--trf2026`` and ``--csv`` are short for ``--format trf``, ``--format trf2026`` and
``--format csv``. Written to PATH, else to standard output (a PDF only when that is no terminal). A
problem answer (an unknown tournament or round: 404; a knockout, which has no table: 409) is one error
line and exit status 1; options that do not go together are a usage error (status 2)."""

from __future__ import annotations

import sys
import uuid
from pathlib import Path
from typing import Any

import click

from cli.client import api_options, make_api

__all__ = ["register"]

FORMATS = ("trf", "trf2026", "csv", "pdf")
NAMES = {"trf": "TRF-16", "trf2026": "TRF-2026", "csv": "CSV", "pdf": "PDF"}
WHAT = ("standings", "crosstable", "pairings")


def endpoint(fmt: str, what: str, number: int | None) -> str:
    """The standings service's path (after ``/tournaments/{id}/``) of a file."""
    if fmt == "trf":
        return "trf16"
    if fmt == "trf2026":
        return "trf"
    if number is not None:
        return f"rounds/{number}/pairings.{fmt}"
    return f"{what}.{fmt}"


def _choose(fmt: str | None, shortcut: str | None, what: str | None, number: int | None) -> tuple[str, str]:
    if fmt is not None and shortcut is not None and fmt != shortcut:
        raise click.UsageError(f"--format {fmt} and --{shortcut} contradict each other")
    chosen = fmt or shortcut
    if chosen is None:
        raise click.UsageError("choose a format: --format trf|trf2026|csv|pdf (or --trf, --trf2026, --csv)")
    if chosen in ("trf", "trf2026") and what not in (None, "standings"):
        raise click.UsageError(f"a {NAMES[chosen]} file is the whole event: --what {what} does not apply")
    if number is not None and what not in (None, "pairings"):
        raise click.UsageError("--round is for the pairing lists: --what pairings")
    if number is not None and chosen in ("trf", "trf2026"):
        raise click.UsageError("--round is for the pairing lists (CSV or PDF), not a TRF")
    return chosen, what or ("pairings" if number is not None else "standings")


def register(group: click.Group) -> None:
    @group.command()
    @click.argument("tournament", type=click.UUID)
    @click.option(
        "--format",
        "fmt",
        type=click.Choice(FORMATS),
        help="trf: TRF-16 for rating submission; trf2026: TRF-2026; csv; pdf (the printed page)",
    )
    @click.option("--trf", "shortcut", flag_value="trf", help="short for --format trf")
    @click.option("--trf2026", "shortcut", flag_value="trf2026", help="short for --format trf2026")
    @click.option("--csv", "shortcut", flag_value="csv", help="short for --format csv")
    @click.option(
        "--what",
        type=click.Choice(WHAT),
        help="csv and pdf: the standings (default), the crosstable or the pairing lists",
    )
    @click.option(
        "--round",
        "number",
        type=click.IntRange(min=1),
        help="the pairing list of this round only (default: every paired round)",
    )
    @click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path), help="default: stdout")
    @api_options
    def export(
        tournament: uuid.UUID,
        fmt: str | None,
        shortcut: str | None,
        what: str | None,
        number: int | None,
        output: Path | None,
        **kwargs: Any,
    ) -> None:
        """Download a tournament's TRF-16 or TRF-2026, or its standings, crosstable or pairing lists as
        CSV or PDF, from the standings service (ARBITER_STANDINGS_URL)."""
        chosen, what = _choose(fmt, shortcut, what, number)
        kwargs.pop("as_json")
        if chosen == "pdf" and output is None and sys.stdout.isatty():
            raise click.UsageError("a PDF is binary: give --output FILE, or redirect standard output")
        api = make_api(kwargs)
        path = f"/tournaments/{tournament}/{endpoint(chosen, what, number)}"
        response = api.request("standings", "GET", path, auth=False)
        if response.status_code >= 400:
            api.answer("standings", response)  # raises with the problem's title and detail
        body = response.content
        if output is None:
            sys.stdout.flush()
            sys.stdout.buffer.write(body)
            sys.stdout.buffer.flush()
            return
        try:
            output.write_bytes(body)
        except OSError as exc:
            raise click.ClickException(f"cannot write {output}: {exc.strerror}") from None
        thing = NAMES[chosen] if chosen in ("trf", "trf2026") else f"{what} {NAMES[chosen]}"
        if number is not None:
            thing = f"round {number}'s pairing list as {NAMES[chosen]}"
        click.echo(f"wrote the {thing} of {tournament} to {output}", err=True)
