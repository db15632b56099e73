"""``arbiter roundrobin N [--double] [--json]``: the FIDE Berger table for N players."""

from __future__ import annotations

import json

import click
from rich.table import Table

from cli.text import console
from services.pairing.domain.rounds.berger import BYE, BergerPairing, RoundRobinError, round_robin


def register(group: click.Group) -> None:
    group.add_command(roundrobin_command)


@click.command("roundrobin")
@click.argument("players", metavar="N", type=int)
@click.option("--double", is_flag=True, help="Double round robin: a second cycle with colours reversed.")
@click.option("--json", "as_json", is_flag=True, help='Print {"rounds": [[[white, black], ...], ...]}.')
def roundrobin_command(players: int, double: bool, as_json: bool) -> None:
    """Print the round-robin pairings for N players (3-20), boards in FIDE table order.

    With an odd N the player who sits out is paired with 0.
    """
    try:
        rounds = round_robin(players, double=double)
    except RoundRobinError as exc:
        raise click.BadParameter(str(exc), param_hint="N") from None
    if as_json:
        click.echo(json.dumps({"rounds": [[list(pairing) for pairing in rnd] for rnd in rounds]}))
        return
    title = f"{'Double round robin' if double else 'Round robin'}, {players} players (FIDE Berger tables)"
    table = Table(title=title)
    table.add_column("Round", justify="right")
    for board in range(1, len(rounds[0]) + 1):
        table.add_column(f"Board {board}")
    for number, rnd in enumerate(rounds, start=1):
        table.add_row(str(number), *(_board(pairing) for pairing in rnd))
    console().print(table)


def _board(pairing: BergerPairing) -> str:
    if pairing.black == BYE:
        return f"{pairing.white} bye"
    return f"{pairing.white} - {pairing.black}"
