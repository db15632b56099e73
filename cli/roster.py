"""A `fide-rapid` event's players and its start, for its organiser and arbiters, and a knockout draft's
roster (registration's API):

    arbiter players add TOURNAMENT NAME [--fide-id N] [--federation SUI] [--title GM] [--sex m|w]
                        [--birth-year YYYY] [--rating N] [--rapid-rating N]
    arbiter players enter TOURNAMENT ACCOUNT...   accounts entered by an official (a knockout's roster)
    arbiter players import TOURNAMENT FILE        a CSV list (.csv) or a TRF file (.trf, .txt)
    arbiter players list TOURNAMENT               the players in starting-rank order
    arbiter players confirm TOURNAMENT PLAYER     an account's entry
    arbiter players remove TOURNAMENT PLAYER      before the start
    arbiter start TOURNAMENT                      a fide-rapid event (or a knockout draft)

``players add`` after the start is a late entry: the player plays from the next round not yet paired.
Where the services are and who you are: as for the other client commands (``cli/client.py``). A list
with a bad line is refused whole, with the file and the line named (exit status 2).
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

import click

from cli.client import api_options, make_api
from cli.text import console, plural, table

TITLES = ("GM", "IM", "WGM", "FM", "WIM", "CM", "WFM", "WCM")
# by the file's extension: what the import sends it as
LIST_TYPES = {".csv": "text/csv", ".trf": "text/plain", ".txt": "text/plain"}
FORMATS = {"csv": "text/csv", "trf": "text/plain"}


def _json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2))


def _describe(player: dict[str, Any]) -> str:
    profile = player.get("profile") or {}
    parts = [p for p in (profile.get("title"), player["name"], profile.get("federation")) if p]
    rating = player.get("rating")
    text = " ".join(parts) + (f" ({rating})" if rating else " (unrated)")
    return text + (f", plays from round {player['from_round']}" if player.get("from_round") else "")


def _content_type(file: Path, fmt: str | None) -> str:
    if fmt is not None:
        return FORMATS[fmt]
    found = LIST_TYPES.get(file.suffix.lower())
    if found is None:
        raise click.UsageError(
            f"{file}: say whether it is a CSV list or a TRF file: name it .csv or .trf, or pass --format"
        )
    return found


def register(group: click.Group) -> None:
    @group.group()
    def players() -> None:
        """A fide-rapid event's players: add, import, list, confirm, remove; a knockout's: enter."""

    @players.command("enter")
    @click.argument("tournament", type=click.UUID)
    @click.argument("accounts", metavar="ACCOUNT...", nargs=-1, required=True, type=click.UUID)
    @api_options
    def enter(tournament: uuid.UUID, accounts: tuple[uuid.UUID, ...], **kwargs: Any) -> None:
        """Enter the accounts ACCOUNT... in TOURNAMENT before its start: a knockout draft's roster (its
        organiser or an arbiter of the whole tournament keeps it), or a fide-rapid event's entry, confirmed
        at once. One by one, in the order given; a refusal stops there."""
        as_json = kwargs.pop("as_json")
        api = make_api(kwargs)
        answers = []
        for account in accounts:
            body = {"player_id": str(account)}
            t = api.call("registration", "POST", f"/tournaments/{tournament}/entries", body)
            answers.append(t)
            if not as_json:
                entry = next(e for e in t["entries"] if e["player_id"] == str(account))
                click.echo(f"entered {entry['name']} ({entry['rating'] or 'unrated'}) in {t['name']}")
        if as_json:
            _json(answers[-1])
        else:
            click.echo(f"{plural(len(answers[-1]['entries']), 'player')} entered")

    @players.command("add")
    @click.argument("tournament", type=click.UUID)
    @click.argument("name")
    @click.option("--fide-id", type=click.IntRange(1, 2_000_000_000), help="the FIDE id")
    @click.option("--federation", help="FIDE's three-letter code, e.g. SUI")
    @click.option("--title", type=click.Choice(TITLES, case_sensitive=False), help="the FIDE title")
    @click.option("--sex", type=click.Choice(["m", "w"], case_sensitive=False), help="as in the FIDE list")
    @click.option("--birth-year", type=click.IntRange(1900, 2100), help="the year of birth")
    @click.option("--rating", "rating_standard", type=click.IntRange(0, 4000), help="FIDE standard rating")
    @click.option("--rapid-rating", "rating_rapid", type=click.IntRange(0, 4000), help="FIDE rapid rating")
    @api_options
    def add(tournament: uuid.UUID, name: str, **kwargs: Any) -> None:
        """Enter NAME in TOURNAMENT (a person, no account); after the start, a late entry."""
        as_json = kwargs.pop("as_json")
        api = make_api(kwargs)
        body: dict[str, Any] = {"name": name}
        for key in ("fide_id", "federation", "sex", "birth_year", "rating_standard", "rating_rapid"):
            if kwargs[key] is not None:
                body[key] = kwargs[key]
        if kwargs["title"] is not None:
            body["title"] = kwargs["title"].upper()
        player = api.call("registration", "POST", f"/tournaments/{tournament}/players", body)
        if as_json:
            _json(player)
            return
        click.echo(f"entered {_describe(player)}: player {player['player_id']}")

    @players.command("import")
    @click.argument("tournament", type=click.UUID)
    @click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
    @click.option(
        "--format", "fmt", type=click.Choice(sorted(FORMATS)), help="default: by the extension (.csv, .trf)"
    )
    @api_options
    def import_(tournament: uuid.UUID, file: Path, fmt: str | None, **kwargs: Any) -> None:
        """Import FILE's players into TOURNAMENT before its start: a CSV list with a header row (name,
        fide_id, federation, title, sex, birth_year, rating_standard, rating_rapid) or a TRF file's 001
        lines. All of it or, on any problem, nothing."""
        as_json = kwargs.pop("as_json")
        api = make_api(kwargs)
        content_type = _content_type(file, fmt)
        response = api.request(
            "registration",
            "POST",
            f"/tournaments/{tournament}/players/import",
            content=file.read_bytes(),
            content_type=content_type,
        )
        if response.status_code == 422 and response.json().get("line") is not None:
            problem = response.json()
            detail = problem.get("detail", "").removeprefix(f"line {problem['line']}: ")
            click.echo(f"{file}:{problem['line']}: {detail} (nothing was imported)", err=True)
            raise SystemExit(2)
        imported = api.answer("registration", response)
        if as_json:
            _json(imported)
            return
        click.echo(f"imported {plural(len(imported['players']), 'player')} from {file}")

    @players.command("list")
    @click.argument("tournament", type=click.UUID)
    @api_options
    def list_(tournament: uuid.UUID, **kwargs: Any) -> None:
        """TOURNAMENT's confirmed players in starting-rank order (FIDE standard rating, title, name)."""
        as_json = kwargs.pop("as_json")
        api = make_api(kwargs)
        data = api.call("registration", "GET", f"/tournaments/{tournament}/players", auth=False)
        if as_json:
            _json(data)
            return
        # the status only where someone's is not "active": the ids need their 36 of the 80 columns
        statuses = any(p["status"] != "active" for p in data["players"])
        columns = ("#", "", "Name", "Fed", "FIDE id", "Rtg", "Rpd", *(("Status",) if statuses else ()))
        out = table(
            *columns,
            "Player",
            title=f"Starting rank of {tournament}",
            right=("#", "Rtg", "Rpd"),
            whole=("Player",),
        )
        for p in data["players"]:
            profile = p.get("profile") or {}
            out.add_row(
                str(p["rank"]),
                profile.get("title") or "",
                p["name"],
                profile.get("federation") or "",
                str(profile.get("fide_id") or ""),
                str(p["rating"] or ""),
                str(profile.get("rating_rapid") or ""),
                *((p["status"],) if statuses else ()),
                p["player_id"],
            )
        console().print(out)

    @players.command("confirm")
    @click.argument("tournament", type=click.UUID)
    @click.argument("player", type=click.UUID)
    @api_options
    def confirm(tournament: uuid.UUID, player: uuid.UUID, **kwargs: Any) -> None:
        """Confirm PLAYER's entry (an account that joined) before the start."""
        as_json = kwargs.pop("as_json")
        api = make_api(kwargs)
        t = api.call("registration", "POST", f"/tournaments/{tournament}/entries/{player}/confirm")
        if as_json:
            _json(t)
            return
        entry = next(e for e in t["entries"] if e["player_id"] == str(player))
        click.echo(f"confirmed {entry['name']} in {t['name']}")

    @players.command("remove")
    @click.argument("tournament", type=click.UUID)
    @click.argument("player", type=click.UUID)
    @api_options
    def remove(tournament: uuid.UUID, player: uuid.UUID, **kwargs: Any) -> None:
        """Remove PLAYER's entry before the start (after it, `arbiter withdraw`)."""
        as_json = kwargs.pop("as_json")
        api = make_api(kwargs)
        t = api.call("registration", "DELETE", f"/tournaments/{tournament}/players/{player}")
        if as_json:
            _json(t)
            return
        click.echo(
            f"removed {player} from {t['name']} ({plural(len(t['entries']), 'entry', 'entries')} left)"
        )

    @group.command()
    @click.argument("tournament", type=click.UUID)
    @api_options
    def start(tournament: uuid.UUID, **kwargs: Any) -> None:
        """Start TOURNAMENT: a fide-rapid event (its organiser or an arbiter of the whole event) or a
        knockout draft (its organiser). The roster and its starting rank are fixed; round 1 can be paired
        (a knockout's is paired at once, unpublished: `arbiter publish TOURNAMENT 1`)."""
        as_json = kwargs.pop("as_json")
        api = make_api(kwargs)
        t = api.call("registration", "POST", f"/tournaments/{tournament}/start")
        if as_json:
            _json(t)
            return
        playing = [e for e in t["entries"] if e["status"] == "active"]
        rounds = (t.get("fide") or {}).get("rounds")
        detail = f", {rounds} rounds" if rounds else ""
        click.echo(f"started {t['name']}: {plural(len(playing), 'player')}{detail}")
