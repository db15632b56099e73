"""What a tournament looks like from the command line: ``arbiter show`` and ``arbiter games``.

```sh
arbiter show TOURNAMENT                  # before the start: the start time and the entries; then the table
arbiter games TOURNAMENT [--round N]     # the boards: names, results and each game's id (for `report`)
arbiter games TOURNAMENT --round 2 --wait 5m -q   # wait for round 2's pairing, print only the game ids
```

Both read public answers (no token needed): registration's tournament (its settings, start time and
entries), standings' table, a knockout's bracket and rounds (names, results, byes), pairing's rounds for a
knockout.
"""

from __future__ import annotations

import datetime as dt
import json
import time
import uuid
from typing import TYPE_CHECKING, Any

import click

from cli.client import Api, api_options, make_api, parse_duration
from cli.errors import CliError
from cli.text import plural, points, result, table

if TYPE_CHECKING:
    import httpx
    from rich.table import Table

BYE_KINDS = {
    "pairing_allocated": "pairing-allocated bye",
    "half_point": "half-point bye",
    "zero_point": "zero-point bye",
    "full_point": "full-point bye",
}


def _public(api: Api, service: str, path: str) -> httpx.Response:
    return api.request(service, "GET", path, auth=False)


def _when(value: str | None) -> str:
    if not value:
        return "not set"
    at = dt.datetime.fromisoformat(value)
    left = at - dt.datetime.now(dt.UTC)
    shown = at.astimezone(dt.UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    if left.total_seconds() > 0:
        minutes = int(left.total_seconds() // 60)
        return f"{shown} (in {plural(minutes, 'minute')})" if minutes else f"{shown} (in under a minute)"
    return shown


def _print(*things: Any) -> None:
    from cli.text import console

    out = console()
    for thing in things:
        out.print(thing)


def _summary(t: dict[str, Any]) -> str:
    tc = t["time_control"]
    clock = f"{points(tc['base_seconds'] / 60)}+{tc['increment_seconds']}"
    return f"{t['name']} ({t['ruleset']}, {t['variant']}, {clock}): {t['status']}"


def _entries(t: dict[str, Any]) -> Table:
    out = table("#", "Name", "Rtg", "Status", "Player", right=("#", "Rtg"), whole=("Player",))
    for i, e in enumerate(t["entries"], start=1):
        out.add_row(str(i), e["name"], str(e["rating"] or ""), e["status"], e["player_id"])
    return out


def _standings(data: dict[str, Any]) -> tuple[str, Table]:
    rows = data["rows"]
    codes = list(data.get("tiebreaks") or (rows[0]["tiebreaks"] if rows else []))
    if data.get("completed"):
        title = "final standings"
    else:
        title = f"standings after round {data['after_round']}" if data["after_round"] else "standings"
        playing = [r for r in data.get("rounds", []) if r["status"] == "playing"]
        if playing:
            r = playing[0]
            title += f" (round {r['number']} in progress: {r['finished']} of {plural(r['games'], 'game')} finished)"
    out = table("#", "SNo", "Name", "Pts", *codes, right=("#", "SNo", "Pts", *codes))
    for row in rows:
        out.add_row(
            str(row["rank"]),
            str(row["seed"]),
            row["name"] + (f" ({row['status']})" if row.get("status") else ""),
            points(row["points"]),
            *(points(row["tiebreaks"].get(c)) for c in codes),
        )
    return title, out


def register(group: click.Group) -> None:
    @group.command()
    @click.argument("tournament", type=click.UUID)
    @api_options
    def show(tournament: uuid.UUID, **kwargs: Any) -> None:
        """Show a tournament: its settings, start time and entries; from the start also its table, or a
        knockout's bracket (the published rounds' matches, games White–Black by seed) and its placing."""
        as_json = kwargs.pop("as_json")
        api = make_api(kwargs)
        t = api.call("registration", "GET", f"/tournaments/{tournament}", auth=False)
        knockout = t["ruleset"] in ("knockout", "double-knockout")
        table = None
        if t["status"] in ("started", "completed"):
            path = f"/tournaments/{tournament}/{'bracket' if knockout else 'standings'}"
            answer = _public(api, "standings", path)
            if answer.status_code == 200:
                table = answer.json()
            elif answer.status_code not in (404, 409):  # not there yet; a group-playoff event has its page
                api.answer("standings", answer)
        if as_json:
            click.echo(
                json.dumps({"tournament": t, ("bracket" if knockout else "standings"): table}, indent=2)
            )
            return
        lines = [_summary(t)]
        if t["status"] in ("scheduled", "draft"):
            who = "its organiser" if knockout else "an arbiter"
            lines.append(
                f"starts {_when(t['starts_at'])}" if t["starts_at"] else f"starts when {who} starts it"
            )
        elif t["starts_at"]:
            lines.append(f"started {_when(t['starts_at'])}")
        if t.get("status_reason"):
            lines.append(f"reason: {t['status_reason']}")
        if knockout and table is not None:
            click.echo("\n".join(lines))
            _print(*_bracket(table))
            return
        if table is None or not table["rows"]:
            lines.append(f"{plural(len(t['entries']), 'player')} entered")
            click.echo("\n".join(lines))
            if t["entries"]:
                _print(_entries(t))
            return
        title, rich_table = _standings(table)
        lines.append(title)
        click.echo("\n".join(lines))
        _print(rich_table)

    @group.command()
    @click.argument("tournament", type=click.UUID)
    @click.option(
        "--round",
        "number",
        type=click.IntRange(min=1),
        default=None,
        help="the round (default: the latest paired)",
    )
    @click.option(
        "--wait",
        default=None,
        metavar="DURATION",
        help="wait up to DURATION (30s, 5m) for the round to be paired, instead of failing at once",
    )
    @click.option("-q", "--quiet", is_flag=True, help="print only the game ids, one a line, in board order")
    @api_options
    def games(
        tournament: uuid.UUID, number: int | None, wait: str | None, quiet: bool, **kwargs: Any
    ) -> None:
        """List a round's boards: White and Black by name, the result, and each game's id (what
        `arbiter report` takes); then the byes."""
        as_json = kwargs.pop("as_json")
        api = make_api(kwargs)
        deadline = time.monotonic() + (parse_duration(wait).total_seconds() if wait else 0)
        while True:
            found = _round(api, tournament, number)
            if found is not None or time.monotonic() >= deadline:
                break
            time.sleep(0.5)
        if found is None:
            which = f"round {number}" if number else "round 1"
            waited = f" after waiting {wait}" if wait else " (--wait DURATION waits for it)"
            raise CliError(f"{which} of {tournament} is not paired yet{waited}")
        if as_json:
            click.echo(json.dumps(found, indent=2))
            return
        if quiet:
            for g in found["games"]:
                click.echo(g["game_id"])
            return
        click.echo(f"{found['name']}: round {found['number']} ({found['status']})")
        out = table("Bd", "White", "Black", "Result", "Game", right=("Bd",), whole=("Game",))
        for g in found["games"]:
            board = str(g["board"]) if not found["double_rounds"] else f"{g['board']}.{g['leg']}"
            out.add_row(board, g["white"]["name"], g["black"]["name"], g["result"] or "", g["game_id"])
        _print(out)
        for bye in found["byes"]:
            scored = "" if bye["points"] is None else f": {plural_points(bye['points'])}"
            click.echo(f"bye: {bye['player']['name']} ({BYE_KINDS.get(bye['kind'], bye['kind'])}{scored})")


def _bracket(data: dict[str, Any]) -> list[Any]:
    """A knockout's published matches (each game White–Black by seed, White's result first) and, at the
    end, its placing; the rounds paired but not published are only named."""
    out = table("Round", "Match", "Players", "Score", "Games", "Through")
    for section in data["sections"]:
        for rnd in section["rounds"]:
            for m in rnd["matches"]:
                a, b = m["players"]
                name = {p["seed"]: f"{p['name']} ({p['seed']})" for p in (a, b) if p is not None}
                if m["bye"]:
                    players, score = f"{next(iter(name.values()))}, a bye", ""
                else:
                    players = " v ".join(name.values())
                    score = "–".join(points(x) for x in m["score"])
                games = ", ".join(
                    f"{g['white']}–{g['black']} {result(g['outcome']) if g['outcome'] else '*'}"
                    for g in m["games"]
                    if not g["cancelled"]
                )
                through = name.get(m["winner"], "") if m["winner"] is not None else ""
                out.add_row(rnd["name"], m["match_id"], players, score, games, through)
    things: list[Any] = [out]
    if data["unpublished"]:
        things.append(f"paired, not published: round {', '.join(str(n) for n in data['unpublished'])}")
    if data.get("placing"):
        placing = table("Place", "Seed", "Name", "Matches won", right=("Seed", "Matches won"))
        for p in data["placing"]:
            placing.add_row(p["place"], str(p["seed"]), p["name"], str(p["matches_won"]))
        things += ["final placing", placing]
    return things


def plural_points(value: float) -> str:
    return f"{points(value)} {'point' if value == 1 else 'points'}"


def _round(api: Api, tournament: uuid.UUID, number: int | None) -> dict[str, Any] | None:
    """The round as standings shows it; None while it is not paired (or standings has not heard yet)."""
    if number is None:
        answer = _public(api, "standings", f"/tournaments/{tournament}/standings")
        if answer.status_code == 404:
            api.call("registration", "GET", f"/tournaments/{tournament}", auth=False)  # no such tournament?
            return None
        if answer.status_code == 409:  # a knockout: its rounds from pairing
            rounds = api.call("pairing", "GET", f"/tournaments/{tournament}", auth=False)["rounds"]
        else:
            rounds = api.answer("standings", answer)["rounds"]
        if not rounds:
            return None
        number = max(r["number"] for r in rounds)
    answer = _public(api, "standings", f"/tournaments/{tournament}/rounds/{number}")
    if answer.status_code == 404:
        api.call("registration", "GET", f"/tournaments/{tournament}", auth=False)  # no such tournament?
        return None
    found: dict[str, Any] = api.answer("standings", answer)
    return found if found["games"] or found["byes"] else None
