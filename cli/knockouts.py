"""A knockout's organiser at work (RULES.md §4; docs/pairing.md "Knockout through the services"): the
decisions that registration, pairing and the clocks take over HTTP, from the command line.

    arbiter create --ruleset knockout|double-knockout --name ... [--games-per-match 1|2|4|6]
                   [--tiebreak 2x15+10 ...] [--sudden-death 3+2] [--third-place | --no-second-final]
                   [--seeding rating|custom|random]          a draft (cli/client.py)
    arbiter players enter TOURNAMENT ACCOUNT...              the roster, kept by the organiser (cli/roster.py)
    arbiter seeding draw TOURNAMENT                          a random seeding drawn now (its seed recorded)
    arbiter seeding order TOURNAMENT PLAYER...               a custom seeding: seed 1 first
    arbiter start TOURNAMENT                                 round 1 is paired, unpublished (cli/roster.py)
    arbiter publish TOURNAMENT ROUND [--wait 1m]             its pairings public, its games may start
    arbiter swap-colours GAME                                before the first move
    arbiter reset TOURNAMENT                                 back to the draft, while round 1 has no result

``arbiter show TOURNAMENT`` prints the bracket and, at the end, the placing; ``arbiter games`` lists a
published round's games and ``arbiter report`` enters their results. Where the services are and who you
are: as for the other client commands (``cli/client.py``). A refusal prints the service's problem.
"""

from __future__ import annotations

import json
import time
import uuid
from typing import Any

import click

from cli.client import Api, api_options, make_api, parse_duration
from cli.errors import CliError
from cli.text import plural

# pairing's 404s that go away by themselves: the start not heard yet, the round not paired yet
NOT_YET = ("/problems/tournament-not-found", "/problems/round-not-found")


def _json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2))


def _seconds(wait: str | None) -> float:
    return 0.0 if wait is None else parse_duration(wait).total_seconds()


def publish_round(api: Api, tournament: uuid.UUID, number: int, wait: str | None) -> Any:
    """Publish round ``number``; with ``wait``, ask again while pairing has not paired it yet (a
    knockout's rounds are paired by its worker once the start, or the round before, is heard)."""
    deadline = time.monotonic() + _seconds(wait)
    path = f"/tournaments/{tournament}/rounds/{number}/publish"
    known = False
    while True:
        response = api.request("pairing", "POST", path)
        if response.status_code != 404 or response.json().get("type") not in NOT_YET:
            return api.answer("pairing", response)
        if not known:  # no such tournament at all: registration's 404 says so
            api.call("registration", "GET", f"/tournaments/{tournament}", auth=False)
            known = True
        if time.monotonic() >= deadline:
            waited = f" after waiting {wait}" if wait else " (--wait DURATION waits for it)"
            raise CliError(f"round {number} of {tournament} is not paired yet{waited}")
        time.sleep(0.5)


def _names(api: Api, tournament: uuid.UUID) -> tuple[dict[str, Any], dict[str, str]]:
    """Registration's tournament and its entries' names by player id."""
    t = api.call("registration", "GET", f"/tournaments/{tournament}", auth=False)
    return t, {e["player_id"]: e["name"] for e in t["entries"]}


def register(group: click.Group) -> None:
    @group.command()
    @click.argument("tournament", type=click.UUID)
    @click.argument("number", metavar="ROUND", type=click.IntRange(min=1))
    @click.option(
        "--wait",
        default=None,
        metavar="DURATION",
        help="wait up to DURATION (30s, 5m) for pairing to pair the round, instead of failing at once",
    )
    @api_options
    def publish(tournament: uuid.UUID, number: int, wait: str | None, **kwargs: Any) -> None:
        """Publish ROUND of TOURNAMENT (its organiser or an arbiter of the whole tournament): a knockout
        round's pairings become public and its matches' first games start; a fide-rapid round's boards get
        their games (`arbiter pair --round N --publish` pairs it first). Again: no change."""
        as_json = kwargs.pop("as_json")
        rnd = publish_round(make_api(kwargs), tournament, number, wait)
        if as_json:
            _json(rnd)
            return
        what = (
            plural(len(rnd["matches"]), "match", "matches")
            if rnd["matches"]
            else plural(len(rnd["games"]), "game")
        )
        click.echo(f"round {rnd['number']} of {tournament} published: {what}")

    @group.command()
    @click.argument("tournament", type=click.UUID)
    @click.option(
        "--wait",
        default="30s",
        show_default=True,
        metavar="DURATION",
        help="how long to wait for pairing to have heard the start, and registration the reset",
    )
    @api_options
    def reset(tournament: uuid.UUID, wait: str, **kwargs: Any) -> None:
        """Put the knockout TOURNAMENT back to its draft (its organiser), while round 1 is its only round and
        no game has a result: round 1 is undone; change the draft, then `arbiter start` pairs it afresh."""
        as_json = kwargs.pop("as_json")
        api = make_api(kwargs)
        deadline = time.monotonic() + _seconds(wait)
        path = f"/tournaments/{tournament}/reset"
        while True:
            response = api.request("pairing", "POST", path)
            unheard = response.status_code == 404 and response.json().get("type") == NOT_YET[0]
            if (
                not unheard
                or time.monotonic() >= deadline
                or _names(api, tournament)[0]["status"] != "started"
            ):
                answer = api.answer("pairing", response)  # a start pairing has not heard yet: asked again
                break
            time.sleep(0.5)
        while (status := _names(api, tournament)[0]["status"]) != "draft" and time.monotonic() < deadline:
            time.sleep(0.5)  # registration hears tournament.reset on its queue
        if as_json:
            _json(answer)
        elif status == "draft":
            click.echo(f"{tournament} is a draft again")
        else:
            click.echo(f"{tournament} is reset (registration still shows it {status})")

    @group.group()
    def seeding() -> None:
        """A knockout draft's seeding: a random one drawn now, or the organiser's own order."""

    @seeding.command("draw")
    @click.argument("tournament", type=click.UUID)
    @api_options
    def seeding_draw(tournament: uuid.UUID, **kwargs: Any) -> None:
        """Draw the random seeding of the knockout draft TOURNAMENT now (its organiser; created with
        --seeding random). Registration draws the seed and records it: the order follows from the seed
        and the players (shared/seed_draw.py), players added later take their places from the same draw."""
        as_json = kwargs.pop("as_json")
        api = make_api(kwargs)
        t = api.call("registration", "POST", f"/tournaments/{tournament}/seeding/draw")
        if as_json:
            _json(t)
            return
        names = {e["player_id"]: e["name"] for e in t["entries"]}
        ko = t["knockout"]
        click.echo(f"seeding of {t['name']} drawn (draw seed {ko['draw_seed']}):")
        for seed, player in enumerate(ko["draw_order"] or [], start=1):
            click.echo(f"{seed:>4}. {names.get(player, player)}")

    @seeding.command("order")
    @click.argument("tournament", type=click.UUID)
    @click.argument("players", metavar="PLAYER...", nargs=-1, required=True, type=click.UUID)
    @api_options
    def seeding_order(tournament: uuid.UUID, players: tuple[uuid.UUID, ...], **kwargs: Any) -> None:
        """Seed the knockout draft TOURNAMENT in the order given, seed 1 first (its organiser): a custom
        seeding, which must name every player once by the start."""
        as_json = kwargs.pop("as_json")
        api = make_api(kwargs)
        body = {"knockout": {"seeding": "custom", "custom_order": [str(p) for p in players]}}
        t = api.call("registration", "PATCH", f"/tournaments/{tournament}", body)
        if as_json:
            _json(t)
            return
        names = {e["player_id"]: e["name"] for e in t["entries"]}
        click.echo(f"seeding of {t['name']}: custom")
        for seed, player in enumerate(t["knockout"]["custom_order"], start=1):
            click.echo(f"{seed:>4}. {names.get(player, player)}")

    @group.command("swap-colours")
    @click.argument("game", type=click.UUID)
    @api_options
    def swap_colours(game: uuid.UUID, **kwargs: Any) -> None:
        """Swap White and Black of GAME before its first move (its organiser, or an arbiter appointed for
        it or its tournament). In a knockout, a swapped first game moves its tie-break games' colours."""
        as_json = kwargs.pop("as_json")
        api = make_api(kwargs)
        g = api.call("clocks", "POST", f"/games/{game}/colours")
        if as_json:
            _json(g)
            return
        _t, names = _names(api, uuid.UUID(g["tournament_id"]))
        white, black = (g[side]["player_id"] for side in ("white", "black"))
        click.echo(f"game {game}: colours swapped")
        click.echo(f"  White {names.get(white, white)}, Black {names.get(black, black)}")
