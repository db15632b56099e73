"""``arbiter export TOURNAMENT --trf|--trf2026|--csv [--output PATH]``: a running tournament's files
from the standings service — the TRF-16 for rating submission, the TRF-2026, the standings as CSV.
Written to PATH, else to standard output; a problem answer (an unknown tournament, a knockout, which
has no table) is one error line and exit status 1."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import click

from cli.client import api_options, make_api

__all__ = ["register"]

FORMATS = {  # option → (the standings endpoint, what it is)
    "trf": ("trf16", "TRF-16"),
    "trf2026": ("trf", "TRF-2026"),
    "csv": ("csv", "CSV"),
}


def register(group: click.Group) -> None:
    @group.command()
    @click.argument("tournament", type=click.UUID)
    @click.option("--trf", "fmt", flag_value="trf", help="TRF-16 for rating submission (XXR, XXC, FIDE data)")
    @click.option("--trf2026", "fmt", flag_value="trf2026", help="TRF-2026")
    @click.option("--csv", "fmt", flag_value="csv", help="the standings as CSV")
    @click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path), help="default: stdout")
    @api_options
    def export(tournament: uuid.UUID, fmt: str | None, output: Path | None, **kwargs: Any) -> None:
        """Export a tournament's TRF-16 (--trf), TRF-2026 (--trf2026) or standings CSV (--csv)."""
        if fmt is None:
            raise click.UsageError("choose one of --trf, --trf2026, --csv")
        kwargs.pop("as_json")
        api = make_api(kwargs)
        endpoint, name = FORMATS[fmt]
        response = api.request("standings", "GET", f"/tournaments/{tournament}/{endpoint}", auth=False)
        if response.status_code >= 400:
            api.answer("standings", response)  # raises with the problem's title and detail
        text = response.text
        if output is None:
            click.echo(text, nl=False)
            return
        try:
            output.write_text(text, encoding="utf-8", newline="")
        except OSError as exc:
            raise click.ClickException(f"cannot write {output}: {exc.strerror}") from None
        click.echo(f"wrote {name} of {tournament} to {output}", err=True)
