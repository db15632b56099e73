"""``arbiter bracket single|double N``: a knockout or double-knockout bracket for N seeds.

Without ``--simulate`` only what is known before any result is shown (unknown players are ``null``).
With it, every match is filled in as if the better (``higher``) or the worse (``lower``) seed always won.
"""

from __future__ import annotations

import json

import click
from rich.table import Table

from cli.text import console as text_console
from services.pairing.domain.elimination.bracket import (
    Bracket,
    BracketError,
    BracketMatch,
    MatchStatus,
    better_seed,
    play_out,
    worse_seed,
)
from services.pairing.domain.elimination.double_knockout import DoubleKnockout
from services.pairing.domain.elimination.knockout import Knockout
from shared.vocabulary import Section

TITLES = {
    Section.WINNERS: "Winners' bracket",
    Section.LOSERS: "Losers' bracket",
    Section.GRAND_FINAL: "Grand final",
    Section.THIRD_PLACE: "Third-place match",
}


def register(group: click.Group) -> None:
    group.add_command(bracket_command)


@click.command("bracket")
@click.argument("kind", metavar="single|double", type=click.Choice(["single", "double"]))
@click.argument("players", metavar="N", type=int)
@click.option(
    "--third-place", is_flag=True, help="single: a match for third place between the semi-final losers."
)
@click.option(
    "--grand-final",
    type=click.Choice(["simple", "double"]),
    help="double: one grand final, or a second final if the losers' bracket winner takes the first (default).",
)
@click.option(
    "--simulate",
    type=click.Choice(["higher", "lower"]),
    help="Fill in every round as if the higher (better) or lower seed always won.",
)
@click.option("--json", "as_json", is_flag=True, help='Print {"rounds": {"winners": [...], ...}}.')
def bracket_command(
    kind: str, players: int, third_place: bool, grand_final: str | None, simulate: str | None, as_json: bool
) -> None:
    """Print a knockout (single, 4-128 players) or double knockout (double, 4-64) bracket.

    Each section is a list of rounds, each round a list of matches [seed, seed] in bracket order;
    null is a bye or a player not known yet. A second final that is not needed is left out.
    """
    bracket = _build(kind, players, third_place, grand_final)
    if simulate is not None:
        bracket = play_out(bracket, better_seed if simulate == "higher" else worse_seed)
    if as_json:
        click.echo(json.dumps({"rounds": bracket_rounds(bracket)}))
        return
    _print_tables(bracket, kind, simulate)


def _build(kind: str, players: int, third_place: bool, grand_final: str | None) -> Bracket:
    if kind == "single" and grand_final is not None:
        raise click.UsageError("--grand-final applies to a double knockout (bracket double N) only")
    if kind == "double" and third_place:
        raise click.UsageError("--third-place applies to a knockout (bracket single N) only")
    try:
        if kind == "single":
            return Knockout(players, third_place=third_place)
        return DoubleKnockout(players, second_final=grand_final != "simple")
    except BracketError as exc:
        raise click.BadParameter(str(exc), param_hint="N") from None


def bracket_rounds(bracket: Bracket) -> dict[str, list[list[list[int | None]]]]:
    """Every section of the bracket: rounds of ``[seedA, seedB]``; a match that is not needed is left out."""
    out: dict[str, list[list[list[int | None]]]] = {}
    for section in bracket.sections:
        rounds = [[list(m.players) for m in rnd if _shown(m)] for rnd in bracket.rounds(section)]
        out[section.value] = [rnd for rnd in rounds if rnd]
    return out


def _shown(match: BracketMatch) -> bool:
    return match.status is not MatchStatus.NOT_NEEDED


def _print_tables(bracket: Bracket, kind: str, simulate: str | None) -> None:
    console = text_console()
    what = "Knockout" if kind == "single" else "Double knockout"
    note = {None: "before any result", "higher": "better seed always wins", "lower": "worse seed always wins"}
    console.print(f"{what}, {bracket.players} players, {bracket.size} slots ({note[simulate]})")
    for section in bracket.sections:
        table = Table(title=TITLES[section], title_justify="left")
        for column in ("Round", "Match", "Players", "Winner"):
            table.add_column(column)
        for rnd in bracket.rounds(section):
            for m in rnd:
                if _shown(m):
                    table.add_row(str(m.id.round), str(m.id.number), _players(m), _winner(m))
        console.print(table)


def _players(match: BracketMatch) -> str:
    names = [
        "bye" if empty else ("?" if p is None else str(p))
        for p, empty in zip(match.players, match.empty, strict=True)
    ]
    return " v ".join(names)


def _winner(match: BracketMatch) -> str:
    if match.status is MatchStatus.VOID:
        return "-"
    if match.winner is None:
        return ""
    return f"{match.winner} (bye)" if match.status is MatchStatus.WALKOVER else str(match.winner)
