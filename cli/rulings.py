"""An arbiter's rulings that the pairing service takes, over its HTTP API: correct a finished game's
result, grant (or take back) a zero-point bye for a round not paired yet.

```sh
arbiter correct GAME 0-1 --reason "the scoresheet says 0-1"
arbiter bye TOURNAMENT PLAYER --round 4 [--take-back]
```

Where pairing is: ``--pairing-url`` or ``ARBITER_PAIRING_URL`` (default: the `make dev` port 8002). Who
you are: ``--token`` or ``ARBITER_TOKEN`` (the organiser, an arbiter appointed for the game or the whole
tournament; a player may ask for their own bye). A refusal prints the problem's title and detail.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

import click

from cli.client import DEFAULT_URLS, FORFEITS_AS_ARGUMENTS, OUTCOMES, Api, json_option, token_option


def _options(f: Any) -> Any:
    f = click.option(
        "--pairing-url",
        envvar="ARBITER_PAIRING_URL",
        default=DEFAULT_URLS["pairing"],
        show_default=True,
        show_envvar=True,
        help="base URL of the pairing service",
    )(f)
    return token_option(json_option(f))


def _api(pairing_url: str, token: str | None) -> Api:
    return Api({"pairing": pairing_url.rstrip("/")}, token)


def _reason(value: str) -> str:
    if not value.strip():
        raise click.BadParameter("say why the result changes")
    return value.strip()


def register(group: click.Group) -> None:
    @group.command(context_settings=FORFEITS_AS_ARGUMENTS)
    @click.argument("game", type=click.UUID)
    @click.argument("result", type=click.Choice(OUTCOMES))
    @click.option("--reason", required=True, help="why the result changes (kept with the correction)")
    @_options
    def correct(
        game: uuid.UUID, result: str, reason: str, pairing_url: str, token: str | None, as_json: bool
    ) -> None:
        """Correct a finished game's result: 1-0, 1/2-1/2, 0-1, +/-, -/+ or -/- (the organiser or an
        arbiter of the game). Rounds already paired stand; the next pairing uses the new result. In a
        knockout, a correction that changes who advances is refused once the next match of that player
        has a result, and after the event has finished; before that, the next match is paired again."""
        body = {"outcome": result, "reason": _reason(reason)}
        answer = _api(pairing_url, token).call("pairing", "POST", f"/games/{game}/correction", body)
        if as_json:
            click.echo(json.dumps(answer, indent=2))
            return
        click.echo(f"game {game} (round {answer['round']}): {answer['old_outcome']} → {answer['outcome']}")

    @group.command()
    @click.argument("tournament", type=click.UUID)
    @click.argument("player", type=click.UUID)
    @click.option(
        "--round", "number", type=click.IntRange(min=1), required=True, help="a round not paired yet"
    )
    @click.option("--reason", default=None, help="why (optional)")
    @click.option("--take-back", is_flag=True, help="take the bye back before the round is paired")
    @_options
    def bye(
        tournament: uuid.UUID,
        player: uuid.UUID,
        number: int,
        reason: str | None,
        take_back: bool,
        pairing_url: str,
        token: str | None,
        as_json: bool,
    ) -> None:
        """A zero-point bye for PLAYER in round N of TOURNAMENT, where the tournament offers byes on
        request (asked by the player, an arbiter of the tournament or its organiser)."""
        api = _api(pairing_url, token)
        path = f"/tournaments/{tournament}/byes"
        if take_back:
            answer = api.call("pairing", "DELETE", f"{path}/{player}/{number}")
            message = f"bye of {player} in round {number} taken back"
        else:
            body: dict[str, Any] = {"player_id": str(player), "round": number}
            if reason is not None:
                body["reason"] = _reason(reason)
            answer = api.call("pairing", "POST", path, body)
            message = f"zero-point bye for {player} in round {number} (asked as {answer['decision']['role']})"
        click.echo(json.dumps(answer, indent=2) if as_json else message)
