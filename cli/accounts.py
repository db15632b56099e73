"""Accounts and who you are: ``arbiter account create|show``, ``arbiter login``, ``arbiter logout``.

```sh
arbiter account create "Ann Archer" --rating 1850    # prints the new account's id (-q: only the id)
arbiter login ACCOUNT_ID                             # later commands act as this account
arbiter logout
```

Registration keeps a copy of each account of the identity provider (``POST /accounts``, the service
principal only). On a stack of your own (``make dev``, compose) the command line stands in for the
identity provider: it signs its tokens with the stack's secret, ``ARBITER_JWT_SECRET`` (the development
secret by default). ``arbiter login ACCOUNT_ID`` signs a token for the account the same way and keeps it
in the login file (:mod:`cli.config`: ``ARBITER_CONFIG``, by default ``~/.config/arbiter/config.json``);
``arbiter login --token JWT`` keeps a token an identity provider issued. Every command that talks to the
stack takes its token from ``--token``, else ``ARBITER_TOKEN``, else that file.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

import click

from cli import config
from cli.client import api_options, make_api, mint, quiet_option, secret_option, token_claims
from cli.errors import CliError

SPEEDS = ("ultrabullet", "bullet", "blitz", "rapid", "classical", "correspondence")


def parse_ratings(values: tuple[str, ...]) -> dict[str, int]:
    """``1850`` (chess at every speed) or ``KEY=1850`` (``chess:blitz=1850``, ``international:rapid=1400``)."""
    ratings: dict[str, int] = {}
    for value in values:
        key, _, number = value.rpartition("=")
        try:
            rating = int(number)
        except ValueError:
            raise click.BadParameter(
                f"{value!r}: give a number (1850) or VARIANT:SPEED=NUMBER (chess:blitz=1850)",
                param_hint="'--rating'",
            ) from None
        keys = [key] if key else [f"chess:{speed}" for speed in SPEEDS]
        ratings.update(dict.fromkeys(keys, rating))
    return ratings


def _account_line(account: dict[str, Any]) -> str:
    ratings = ", ".join(f"{k} {v}" for k, v in sorted(account.get("ratings", {}).items()))
    return f"account {account['id']}: {account['name']}" + (f" ({ratings})" if ratings else "")


def register(group: click.Group) -> None:
    @group.group()
    def account() -> None:
        """Create and show accounts (registration's copy of the identity provider's)."""

    @account.command("create")
    @click.argument("name")
    @click.option(
        "--rating",
        "ratings",
        multiple=True,
        metavar="[VARIANT:SPEED=]N",
        help="a rating: N alone is chess at every speed; repeat for more (chess:blitz=1850)",
    )
    @click.option(
        "--kind",
        type=click.Choice(["registered", "guest", "computer"]),
        default="registered",
        show_default=True,
        help="what kind of account",
    )
    @click.option(
        "--id", "account_id", type=click.UUID, default=None, help="the account's id (default: a new one)"
    )
    @secret_option
    @quiet_option
    @api_options
    def create(
        name: str,
        ratings: tuple[str, ...],
        kind: str,
        account_id: uuid.UUID | None,
        secret: str | None,
        quiet: bool,
        **kwargs: Any,
    ) -> None:
        """Register an account NAME, as the identity provider would (a service token signed with the
        stack's secret; --token: a service token of your own). Then `arbiter login ID` to act as it."""
        as_json = kwargs.pop("as_json")
        if kwargs["token"] is None:  # not the saved login's: a player may not register accounts
            kwargs["token"] = mint(secret, uuid.uuid4(), ("service",), hours=0.1)
        api = make_api(kwargs)
        body: dict[str, Any] = {"name": name, "kind": kind, "ratings": parse_ratings(ratings)}
        if account_id is not None:
            body["id"] = str(account_id)
        created = api.call("registration", "POST", "/accounts", body)
        if as_json:
            click.echo(json.dumps(created, indent=2))
        elif quiet:
            click.echo(created["id"])
        else:
            click.echo(f"created {_account_line(created)}")
            click.echo(f"act as it: arbiter login {created['id']}")

    @account.command("show")
    @click.argument("account_id", metavar="ACCOUNT_ID", type=click.UUID)
    @api_options
    def show(account_id: uuid.UUID, **kwargs: Any) -> None:
        """Show an account: its name, kind and ratings."""
        as_json = kwargs.pop("as_json")
        found = make_api(kwargs).call("registration", "GET", f"/accounts/{account_id}", auth=False)
        click.echo(json.dumps(found, indent=2) if as_json else _account_line(found))

    @group.command()
    @click.argument("account_id", metavar="[ACCOUNT_ID]", type=click.UUID, required=False)
    @token_claims
    @secret_option
    @api_options
    def login(
        account_id: uuid.UUID | None, roles: tuple[str, ...], hours: float, secret: str | None, **kwargs: Any
    ) -> None:
        """Act as ACCOUNT_ID from now on: sign a token for it with the stack's secret and keep it in the
        login file (ARBITER_CONFIG, default ~/.config/arbiter/config.json). With --token (or
        ARBITER_TOKEN) and no ACCOUNT_ID: keep that token instead."""
        as_json = kwargs.pop("as_json")
        given = kwargs.get("token")
        if account_id is None and given is None:
            raise click.UsageError("name the account (arbiter login ACCOUNT_ID) or give --token")
        if account_id is not None:
            kwargs["token"] = mint(secret, account_id, roles, hours)
        api = make_api(kwargs)
        subject = account_id or _subject(api.token)
        found = api.call("registration", "GET", f"/accounts/{subject}", auth=False)
        path = config.save({"token": api.token, "account_id": found["id"], "name": found["name"]})
        if as_json:
            click.echo(json.dumps({"account": found, "config": str(path)}, indent=2))
        else:
            click.echo(f"logged in as {found['name']} ({found['id']})")

    @group.command()
    def logout() -> None:
        """Forget the saved login (the login file: ARBITER_CONFIG, default ~/.config/arbiter/config.json)."""
        path = config.forget()
        click.echo("not logged in" if path is None else f"logged out: removed {path}")


def _subject(token: str | None) -> str:
    """The account a token names (its ``sub``), read without checking the signature: the services check it."""
    import jwt

    try:
        subject = jwt.decode(token or "", options={"verify_signature": False}).get("sub")
    except jwt.PyJWTError as exc:
        raise CliError(f"--token: not a JWT ({exc})") from None
    if not subject:
        raise CliError("--token: the token names no account (no 'sub')")
    return str(subject)
