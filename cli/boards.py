"""An arbiter's decisions at the boards, over the clocks service's API (RULES.md §6):

    arbiter result TOURNAMENT ROUND BOARD RESULT [--leg N] [--reason R]
                                              a result from the score sheet, the game found by its board;
                                              forfeits too: +/-, -/+, -/-
    arbiter absent GAME PLAYER [--opponent-too]
                                              not at the board by the default time: a forfeit (both: -/-)
    arbiter penalty GAME PLAYER illegal-move|displaced-pieces [--times WHITE BLACK] [--reason R]
                                              a penalty; over the board, displaced pieces need both
                                              remaining times as the board's clock shows them (4:30, 0:45)

The organiser or an arbiter appointed for the game or the tournament (an absence and a penalty: not the
game server). Where the services are and who you are: as for the other client commands
(``cli/client.py``). A refusal prints the problem's title and detail (exit 1); bad arguments exit 2.
"""

from __future__ import annotations

import json
import re
import uuid
from typing import Any

import click

from cli.client import FORFEITS_AS_ARGUMENTS, OUTCOMES, Api, api_options, make_api

FORFEITS = ("+/-", "-/+", "-/-")
PENALTIES = {"illegal-move": "illegal_move", "displaced-pieces": "displaced_pieces"}
_CLOCK = re.compile(r"^(?:(?:(\d+):)?(\d+):)?(\d+(?:\.\d{1,3})?)$")


def clock_ms(value: str) -> int:
    """A time read from a chess clock — ``1:05:00``, ``4:30``, ``0:45``, ``45`` or ``7.5`` (seconds) — in
    milliseconds."""
    match = _CLOCK.match(value.strip())
    if not match:
        raise click.BadParameter(f"{value!r} is not a clock time: use H:MM:SS, M:SS or seconds (4:30, 0:45)")
    hours, minutes, seconds = match.groups()
    total = int(hours or 0) * 3600 + int(minutes or 0) * 60
    return round((total + float(seconds)) * 1000)


class ClockTime(click.ParamType[int]):
    name = "clock time"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int):
            return value
        try:
            return clock_ms(str(value))
        except click.BadParameter as exc:
            self.fail(exc.message, param, ctx)


def _show(data: Any, as_json: bool, message: str) -> None:
    click.echo(json.dumps(data, indent=2) if as_json else message)


def find_game(api: Api, tournament: uuid.UUID, round: int, board: int, leg: int | None) -> dict[str, Any]:
    """The game at ``board`` of ``round``, from the tournament's games (``GET /tournaments/{id}/games``);
    a board without a game, or with several (double rounds) and no ``leg``, is a usage error."""
    listed = api.call("clocks", "GET", f"/tournaments/{tournament}/games?round={round}", auth=bool(api.token))
    games = listed["games"]
    if not games:
        raise click.UsageError(f"round {round} of {tournament} has no games (not paired yet?)")
    at_board = [g for g in games if g["board"] == board and (leg is None or g["leg"] == leg)]
    if not at_board:
        boards = sorted({g["board"] for g in games})
        where = f"board {board}" + ("" if leg is None else f", leg {leg},")
        raise click.UsageError(f"round {round} has no {where} (boards {boards[0]}–{boards[-1]})")
    if len(at_board) > 1:
        legs = ", ".join(str(g["leg"]) for g in at_board)
        raise click.UsageError(f"board {board} has {len(at_board)} games (legs {legs}): say which with --leg")
    return dict(at_board[0])


def _describe(game: dict[str, Any]) -> str:
    result = game.get("result") or {}
    return f"{result.get('outcome', game['status'])} ({result.get('reason', '')})".replace(" ()", "")


def register(group: click.Group) -> None:
    @group.command(context_settings=FORFEITS_AS_ARGUMENTS)
    @click.argument("tournament", type=click.UUID)
    @click.argument("round", type=click.IntRange(min=1))
    @click.argument("board", type=click.IntRange(min=1))
    @click.argument("result", type=click.Choice(OUTCOMES))
    @click.option("--leg", type=click.IntRange(min=1), default=None, help="double rounds: the game's leg")
    @click.option(
        "--reason",
        default=None,
        help="a short lowercase code (default: reported; forfeits: forfeit)",
    )
    @api_options
    def result(
        tournament: uuid.UUID,
        round: int,
        board: int,
        result: str,
        leg: int | None,
        reason: str | None,
        **kwargs: Any,
    ) -> None:
        """Enter the RESULT of BOARD in ROUND of TOURNAMENT from the score sheet: 1-0, 1/2-1/2, 0-1, or a
        forfeit +/-, -/+ (the side that did not play loses), -/- (neither played)."""
        as_json = kwargs.pop("as_json")
        api = make_api(kwargs)
        game = find_game(api, tournament, round, board, leg)
        body = {"outcome": result, "reason": reason or ("forfeit" if result in FORFEITS else "reported")}
        answer = api.call("clocks", "POST", f"/games/{game['id']}/result", body)
        _show(answer, as_json, f"round {round}, board {board} (game {game['id']}): {_describe(answer)}")

    @group.command()
    @click.argument("game", type=click.UUID)
    @click.argument("player", type=click.UUID)
    @click.option("--opponent-too", is_flag=True, help="the opponent is absent too: both lose (-/-)")
    @api_options
    def absent(game: uuid.UUID, player: uuid.UUID, opponent_too: bool, **kwargs: Any) -> None:
        """PLAYER of GAME is not at the board by the default time: they lose by forfeit."""
        as_json = kwargs.pop("as_json")
        api = make_api(kwargs)
        body = {"player_id": str(player), "opponent_absent": opponent_too}
        answer = api.call("clocks", "POST", f"/games/{game}/absence", body)
        _show(answer, as_json, f"game {game}: {_describe(answer)}")

    @group.command()
    @click.argument("game", type=click.UUID)
    @click.argument("player", type=click.UUID)
    @click.argument("kind", type=click.Choice(tuple(PENALTIES)))
    @click.option(
        "--times",
        type=(ClockTime(), ClockTime()),
        default=None,
        metavar="WHITE BLACK",
        help="over the board: both remaining times on the board's clock (needed for displaced pieces)",
    )
    @click.option("--reason", default=None, help="what happened (kept with the decision)")
    @api_options
    def penalty(
        game: uuid.UUID,
        player: uuid.UUID,
        kind: str,
        times: tuple[int, int] | None,
        reason: str | None,
        **kwargs: Any,
    ) -> None:
        """Penalise PLAYER of GAME for an illegal move or displaced pieces: the first illegal move gives
        the opponent a minute, the second loses; displaced pieces warn first (counted across the
        tournament), then count as illegal moves."""
        as_json = kwargs.pop("as_json")
        api = make_api(kwargs)
        body: dict[str, Any] = {"player_id": str(player), "kind": PENALTIES[kind]}
        if times is not None:
            body["white_ms"], body["black_ms"] = times
        if reason is not None:
            if not reason.strip():
                raise click.BadParameter("say what happened, or leave --reason out", param_hint="--reason")
            body["reason"] = reason.strip()
        answer = api.call("clocks", "POST", f"/games/{game}/penalties", body)
        incident = answer["incidents"][-1]
        message = (
            f"game {game}: {kind} by {player}, occurrence {incident['occurrence']}: "
            f"{incident['consequence'].replace('_', ' ')}"
        )
        if answer.get("result"):
            message += f" — {_describe(answer)}"
        _show(answer, as_json, message)
