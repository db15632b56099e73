"""The organiser's commands for a `group-playoff` event (the 4T1 rules, RULES.md §5; docs/group-playoff.md):

    arbiter group-playoff create --name ... --closes-in 14d [--days-per-move 2] [--rating-above 1699 --rating-below 2001]
    arbiter group-playoff enter TOURNAMENT [--cannot-create-games]   a player's entry (waits for the organiser)
    arbiter group-playoff refuse TOURNAMENT PLAYER --reason ...       (confirm: `arbiter players confirm`)
    arbiter group-playoff show TOURNAMENT                             tables, matches, overdue games, placing
    arbiter group-playoff phase TOURNAMENT 2|3 [--with-placement]
    arbiter group-playoff lots TOURNAMENT I|II --seed ...
    arbiter group-playoff deadline TOURNAMENT PHASE --at 2026-06-30T18:00:00+00:00

The start is `arbiter start TOURNAMENT`. Where the services are and who you are: as for the other client
commands (``cli/client.py``).
"""

from __future__ import annotations

import datetime as dt
import json
import uuid
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from cli.client import api_options, make_api, parse_duration


def _echo_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2))


def _show(page: dict[str, Any]) -> None:
    console = Console()
    names = {p["player_id"]: p["name"] for p in page["players"]}
    for group in ("I", "II"):
        table = Table(title=f"Group {group}", title_justify="left")
        for col in ("Rank", "Player", "MP", "BP", "MP tied", "BP tied", "By"):
            table.add_column(col)
        for r in page["groups"][group]:
            tied = (r["tied_match_points"] or "", r["tied_board_points"] or "")
            table.add_row(
                str(r["rank"]), r["name"], r["match_points"], r["board_points"], *tied, r["decided_by"]
            )
        console.print(table)
    matches = Table(title="Matches", title_justify="left")
    for col in ("Phase", "Players", "Invites", "Board points", "Games"):
        matches.add_column(col)
    for m in page["matches"]:
        a, b = m["players"]
        games = ", ".join((g["result"] or "*") + (" (extra)" if g["extra"] else "") for g in m["games"])
        matches.add_row(
            m["phase"] + (f" {m['group']}" if m["group"] else ""),
            f"{names[a]} v {names[b]}",
            names[m["inviter"]],  # named first, unless they cannot create games (4T1 §4(5))
            "-".join(m["board_points"]),
            games,
        )
    cannot = [p["name"] for p in page["players"] if not p.get("creates_games", True)]
    if cannot:
        console.print(f"cannot create games (the other player invites): {', '.join(cannot)}")
    console.print(matches)
    for lot in page["lots"]:
        order = ", ".join(names.get(p, p) for p in lot["order"])
        console.print(
            f"lot ({lot['kind']}{' ' + lot['group'] if lot['group'] else ''}, seed {lot['seed']}): {order}"
        )
    if page["overdue"]:
        console.print(f"overdue (waiting for the organiser's result): {', '.join(page['overdue'])}")
    for row in page["placing"]:
        console.print(f"{row['place']:>2}. {row['name']}")


def register(group: click.Group) -> None:
    @group.group("group-playoff")
    def group_playoff() -> None:
        """A group-playoff event (4T1): entries, phases, lots, deadlines, its page."""

    @group_playoff.command()
    @click.option("--name", required=True, help="the event's name")
    @click.option("--closes-in", "closes_in", default="14d", show_default=True, help="entries close: e.g. 7d")
    @click.option("--expected-start", type=click.DateTime(["%Y-%m-%d"]), help="announced with the window")
    @click.option(
        "--days-per-move",
        type=click.IntRange(1, 60),
        default=2,
        show_default=True,
        help="the time control: days a move",
    )
    @click.option("--rating-above", type=int, default=1699, show_default=True, help="ratings strictly above")
    @click.option("--rating-below", type=int, default=2001, show_default=True, help="and strictly below")
    @api_options
    def create(**kwargs: Any) -> None:
        """Create a group-playoff event open for entries until its closing date (you are its organiser)."""
        as_json = kwargs.pop("as_json")
        api = make_api(kwargs)
        closes = dt.datetime.now(dt.UTC) + parse_duration(kwargs["closes_in"])
        start = kwargs["expected_start"]
        body = {
            "name": kwargs["name"],
            "ruleset": "group-playoff",
            "time_control": {
                "base_seconds": 0,
                "increment_seconds": 0,
                "days_per_move": kwargs["days_per_move"],
            },
            "group_playoff": {
                "closes_at": closes.isoformat(),
                "expected_start": None if start is None else start.date().isoformat(),
                "rating_above": kwargs["rating_above"],
                "rating_below": kwargs["rating_below"],
            },
        }
        t = api.call("registration", "POST", "/tournaments", body)
        if as_json:
            _echo_json(t)
            return
        fmt = t["group_playoff"]
        click.echo(
            f"created {t['id']}: {t['name']}, entries until {fmt['closes_at']}, ratings strictly between "
            f"{fmt['rating_above']} and {fmt['rating_below']}"
        )

    @group_playoff.command()
    @click.argument("tournament", type=click.UUID)
    @click.option(
        "--cannot-create-games",
        is_flag=True,
        help="you cannot create games yourself: your entry ranks last, and the other player of your matches"
        " invites (4T1 §4(5))",
    )
    @api_options
    def enter(tournament: uuid.UUID, cannot_create_games: bool, **kwargs: Any) -> None:
        """Enter TOURNAMENT; the entry waits for the organiser's confirmation. An entry under a name written
        all in lower case is not accepted (4T1 §3(3))."""
        as_json = kwargs.pop("as_json")
        api = make_api(kwargs)
        body = {"creates_games": not cannot_create_games}
        t = api.call("registration", "POST", f"/tournaments/{tournament}/entries", body)
        if as_json:
            _echo_json(t)
            return
        waiting = t["group_playoff"]
        click.echo(
            f"entered {t['name']}: {len(t['entries'])} entries, {len(waiting['playing'])} confirmed to play"
        )

    @group_playoff.command()
    @click.argument("tournament", type=click.UUID)
    @click.argument("player", type=click.UUID)
    @click.option("--reason", required=True, help="why (kept in the audit log)")
    @api_options
    def refuse(tournament: uuid.UUID, player: uuid.UUID, reason: str, **kwargs: Any) -> None:
        """Refuse PLAYER's entry into TOURNAMENT (you are its organiser)."""
        as_json = kwargs.pop("as_json")
        api = make_api(kwargs)
        t = api.call(
            "registration", "POST", f"/tournaments/{tournament}/entries/{player}/refuse", {"reason": reason}
        )
        if as_json:
            _echo_json(t)
            return
        fmt = t["group_playoff"]
        click.echo(f"refused {player}; playing {len(fmt['playing'])}, waiting {len(fmt['waiting'])}")

    @group_playoff.command()
    @click.argument("tournament", type=click.UUID)
    @api_options
    def show(tournament: uuid.UUID, **kwargs: Any) -> None:
        """The event's page: group tables with the deciding criterion, matches, lots, overdue games, placing."""
        as_json = kwargs.pop("as_json")
        api = make_api(kwargs)
        page = api.call("pairing", "GET", f"/tournaments/{tournament}/group-playoff", auth=False)
        if as_json:
            _echo_json(page)
        else:
            _show(page)

    @group_playoff.command()
    @click.argument("tournament", type=click.UUID)
    @click.argument("number", type=click.IntRange(2, 3))
    @click.option("--with-placement", is_flag=True, help="phase 2: the 5th/7th-place matches start too")
    @api_options
    def phase(tournament: uuid.UUID, number: int, with_placement: bool, **kwargs: Any) -> None:
        """Announce phase NUMBER of TOURNAMENT (refused while a game of an earlier phase is open)."""
        as_json = kwargs.pop("as_json")
        api = make_api(kwargs)
        body = {"phase": number, "with_placement": with_placement}
        page = api.call("pairing", "POST", f"/tournaments/{tournament}/phases", body)
        if as_json:
            _echo_json(page)
        else:
            click.echo(f"phase {page['phase']} announced")

    @group_playoff.command()
    @click.argument("tournament", type=click.UUID)
    @click.argument("group_name", metavar="GROUP", type=click.Choice(["I", "II"]))
    @click.option("--seed", required=True, help="the lot's seed, recorded and announced")
    @api_options
    def lots(tournament: uuid.UUID, group_name: str, seed: str, **kwargs: Any) -> None:
        """Draw the lot for what GROUP's play-off left tied."""
        as_json = kwargs.pop("as_json")
        api = make_api(kwargs)
        page = api.call(
            "pairing", "POST", f"/tournaments/{tournament}/groups/{group_name}/lots", {"seed": seed}
        )
        if as_json:
            _echo_json(page)
            return
        names = {p["player_id"]: p["name"] for p in page["players"]}
        lot = next(lot for lot in page["lots"] if lot["kind"] == "tie" and lot["group"] == group_name)
        click.echo(f"lot drawn in group {group_name}: " + ", ".join(names[p] for p in lot["order"]))

    @group_playoff.command("game-lot")
    @click.argument("tournament", type=click.UUID)
    @click.argument("game", type=click.UUID)
    @click.option("--seed", default=None, help="the lot's seed, recorded and announced (default: one drawn)")
    @api_options
    def game_lot(tournament: uuid.UUID, game: uuid.UUID, seed: str | None, **kwargs: Any) -> None:
        """Decide the overdue GAME by a recorded lot (its phase's deadline passed): the player drawn
        first wins; the clocks end the game with it."""
        as_json = kwargs.pop("as_json")
        api = make_api(kwargs)
        body = {} if seed is None else {"seed": seed}
        page = api.call("pairing", "POST", f"/tournaments/{tournament}/games/{game}/lot", body)
        if as_json:
            _echo_json(page)
            return
        names = {p["player_id"]: p["name"] for p in page["players"]}
        lot = next(x for x in page["lots"] if x["kind"] == "game" and x.get("game_id") == str(game))
        click.echo(f"lot drawn for game {game} (seed {lot['seed']}): {names[lot['order'][0]]} wins")

    @group_playoff.command()
    @click.argument("tournament", type=click.UUID)
    @click.argument("number", type=click.IntRange(1, 3))
    @click.option(
        "--at",
        "at",
        type=click.DateTime(["%Y-%m-%dT%H:%M:%S%z", "%Y-%m-%d"]),
        required=True,
        help="the deadline: YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS+HH:MM",
    )
    @api_options
    def deadline(tournament: uuid.UUID, number: int, at: dt.datetime, **kwargs: Any) -> None:
        """Set the date by which phase NUMBER must be finished."""
        as_json = kwargs.pop("as_json")
        api = make_api(kwargs)
        when = at if at.tzinfo else at.replace(tzinfo=dt.UTC)
        body = {"phase": number, "at": when.isoformat()}
        page = api.call("pairing", "POST", f"/tournaments/{tournament}/deadlines", body)
        if as_json:
            _echo_json(page)
        else:
            click.echo(f"phase {number} ends by {page['deadlines'][str(number)]}")
