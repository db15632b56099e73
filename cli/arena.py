"""Commands of the arena (RULES.md §3, docs/arena.md) against a running Arbiter: pause, leave, boost and
the arena's table. ``arbiter create --ruleset arena --minutes M`` creates one, ``arbiter join`` joins it
(and ends a pause); ``arbiter demo --ruleset arena`` runs one embedded."""

from __future__ import annotations

import uuid
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from cli.client import _print, api_options, make_api


def _me(api: Any, player: uuid.UUID | None) -> uuid.UUID:
    """The player named, or the token's own account (its ``sub``)."""
    if player is not None:
        return player
    import jwt

    if not api.token:
        raise click.UsageError("give --player or a --token naming you")
    return uuid.UUID(jwt.decode(api.token, options={"verify_signature": False})["sub"])


def ranking_table(title: str, ranking: list[dict[str, Any]]) -> Table:
    """An arena's ranking as the standings give it (``GET /tournaments/{id}/arena``), with its marks."""
    table = Table(title=title, title_justify="left")
    for col in ("Rk.", "Name", "Rtg", "Pts.", "Won", "Games", ""):
        table.add_column(col, justify="left" if col == "Name" else "right")
    for r in ranking:
        marks = ("🔥" if r["on_fire"] else "") + (f" ⚡{r['boosts']}" if r["boosts"] else "")
        table.add_row(
            str(r["rank"]),
            r["name"],
            str(r["rating"] or ""),
            str(r["points"]),
            str(r["wins"]),
            str(r["games"]),
            marks.strip(),
        )
    return table


def register(group: click.Group) -> None:
    @group.command()
    @click.argument("tournament", type=click.UUID)
    @click.option(
        "--player", type=click.UUID, help="an official or the service pausing a player (default: you)"
    )
    @api_options
    def pause(tournament: uuid.UUID, player: uuid.UUID | None, **kwargs: Any) -> None:
        """Pause in an arena: out of the waiting pool, score kept; `arbiter join` to come back."""
        as_json = kwargs.pop("as_json")
        api = make_api(kwargs)
        who = _me(api, player)
        t = api.call("registration", "POST", f"/tournaments/{tournament}/entries/{who}/pause")
        if as_json:
            _print(t, True)
        else:
            click.echo(f"paused in {t['name']}: `arbiter join {tournament}` to come back")

    @group.command()
    @click.argument("tournament", type=click.UUID)
    @click.option("--player", type=click.UUID, help="an official or the service taking a player out")
    @api_options
    def leave(tournament: uuid.UUID, player: uuid.UUID | None, **kwargs: Any) -> None:
        """Leave a tournament before its start, or an arena until its end (its games stand)."""
        as_json = kwargs.pop("as_json")
        api = make_api(kwargs)
        who = _me(api, player)
        t = api.call("registration", "DELETE", f"/tournaments/{tournament}/entries/{who}")
        if as_json:
            _print(t, True)
        else:
            click.echo(f"left {t['name']}")

    @group.command()
    @click.argument("game", type=click.UUID)
    @api_options
    def boost(game: uuid.UUID, **kwargs: Any) -> None:
        """Take the boost in an arena game, before your first move: half your base time (unless under 40 ×
        the increment) and no increment, for double points if you win."""
        as_json = kwargs.pop("as_json")
        api = make_api(kwargs)
        clock = api.call("clocks", "POST", f"/games/{game}/boost", {})
        if as_json:
            _print(clock, True)
        else:
            click.echo(f"boosted: {clock['white_ms'] / 1000:g} s against {clock['black_ms'] / 1000:g} s")

    @group.command()
    @click.argument("tournament", type=click.UUID)
    @api_options
    def arena(tournament: uuid.UUID, **kwargs: Any) -> None:
        """Show an arena's ranking (🔥 on fire, ⚡ boosts) and the games in progress."""
        as_json = kwargs.pop("as_json")
        api = make_api(kwargs)
        data = api.call("standings", "GET", f"/tournaments/{tournament}/arena", auth=False)
        if as_json:
            _print(data, True)
            return
        state = "final ranking" if data["final"] else f"{len(data['in_progress'])} games in progress"
        table = ranking_table(f"{data['name']} — {state}", data["ranking"])
        Console().print(table)
