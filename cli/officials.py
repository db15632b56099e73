"""The organiser's and the arbiters' commands against a running stack (registration's API):

    arbiter appoint TOURNAMENT ACCOUNT [--game GAME]...   an arbiter for the whole tournament, or named games
    arbiter revoke TOURNAMENT ACCOUNT
    arbiter withdraw TOURNAMENT PLAYER --reason ... [--exclude]
    arbiter audit TOURNAMENT                              every decision taken in the tournament

Where the services are and who you are: as for the other client commands (``cli/client.py``).
"""

from __future__ import annotations

import json
import uuid
from typing import Any

import click

from cli.client import api_options, make_api
from cli.text import plural


def _json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2))


def _subject(subject: dict[str, Any]) -> str:
    parts = [subject["kind"]]
    if subject.get("id"):
        parts.append(str(subject["id"]))
    if subject.get("round") is not None:
        parts.append(f"round {subject['round']}")
    return " ".join(parts)


def register(group: click.Group) -> None:
    @group.command()
    @click.argument("tournament", type=click.UUID)
    @click.argument("account", type=click.UUID)
    @click.option(
        "--game",
        "games",
        type=click.UUID,
        multiple=True,
        help="a game in the arbiter's scope (repeat for more); none: the whole tournament",
    )
    @api_options
    def appoint(
        tournament: uuid.UUID, account: uuid.UUID, games: tuple[uuid.UUID, ...], **kwargs: Any
    ) -> None:
        """Appoint ACCOUNT arbiter of TOURNAMENT (you are its organiser); again: a new scope."""
        as_json = kwargs.pop("as_json")
        api = make_api(kwargs)
        body: dict[str, Any] = {"account_id": str(account)}
        if games:
            body["games"] = [str(g) for g in games]
        arbiter = api.call("registration", "POST", f"/tournaments/{tournament}/arbiters", body)
        if as_json:
            _json(arbiter)
            return
        scope = "the whole tournament" if arbiter["games"] is None else plural(len(arbiter["games"]), "game")
        click.echo(f"appointed {arbiter['name']} ({arbiter['account_id']}) arbiter for {scope}")

    @group.command()
    @click.argument("tournament", type=click.UUID)
    @click.argument("account", type=click.UUID)
    @api_options
    def revoke(tournament: uuid.UUID, account: uuid.UUID, **kwargs: Any) -> None:
        """Revoke ACCOUNT's appointment as an arbiter of TOURNAMENT (you are its organiser)."""
        as_json = kwargs.pop("as_json")
        api = make_api(kwargs)
        left = api.call("registration", "DELETE", f"/tournaments/{tournament}/arbiters/{account}")
        if as_json:
            _json(left)
            return
        click.echo(f"revoked {account}; {plural(len(left['arbiters']), 'arbiter')} left")

    @group.command()
    @click.argument("tournament", type=click.UUID)
    @click.argument("player", type=click.UUID)
    @click.option("--reason", required=True, help="why (required)")
    @click.option("--exclude", is_flag=True, help="exclude the player (the organiser's decision alone)")
    @api_options
    def withdraw(tournament: uuid.UUID, player: uuid.UUID, reason: str, exclude: bool, **kwargs: Any) -> None:
        """Withdraw PLAYER from a started TOURNAMENT, for good; --exclude to exclude them."""
        as_json = kwargs.pop("as_json")
        api = make_api(kwargs)
        body = {"player_id": str(player), "reason": reason, "exclude": exclude}
        t = api.call("registration", "POST", f"/tournaments/{tournament}/withdrawals", body)
        if as_json:
            _json(t)
            return
        entry = next((e for e in t["entries"] if e["player_id"] == str(player)), None)
        name = entry["name"] if entry else str(player)
        click.echo(f"{name} {'excluded from' if exclude else 'withdrawn from'} {t['name']}: {reason}")

    @group.command()
    @click.argument("tournament", type=click.UUID)
    @api_options
    def audit(tournament: uuid.UUID, **kwargs: Any) -> None:
        """Every decision taken in TOURNAMENT, in time order (its organiser and arbiters)."""
        as_json = kwargs.pop("as_json")
        api = make_api(kwargs)
        log = api.call("registration", "GET", f"/tournaments/{tournament}/audit")
        if as_json:
            _json(log)
            return
        # one decision a block: when and what, who decided in what capacity, the details (80 columns)
        click.echo(f"Decisions in {tournament}")
        for e in log["entries"]:
            click.echo(f"{e['at']}  {e['kind']}")
            click.echo(f"  by {e['by']} ({e['role']})")
            click.echo(f"  {_subject(e['subject'])}")
            for text in (e["detail"], e["reason"] and f"reason: {e['reason']}"):
                if text:
                    click.echo(f"  {text}")
