"""``arbiter generate``: a random tournament, paired round by round by the Dutch engine.

    arbiter generate --players N --rounds R [--seed S] [--draw-rate P] [--forfeit-rate P]
                     [--bye-rate P] [--absent-rate P] [--scoring 1-0.5-0|2-1-0] [--accelerated]
                     [-o FILE]

Writes a complete TRF-16 file (standard output without ``-o``) that bbpPairings and JaVaFo read:
results drawn from the Elo expectation of the ratings and the given rates of draws (per game),
forfeits (per game), half- and zero-point byes (per player and round) and absences (a
withdrawal, per player and round); ``--accelerated`` adds the Baku method's virtual points as
``XXA`` lines. The same options and seed give the same file. Exit codes: 0 written; 1 a round
cannot be paired (too many rounds for the field, say); 2 bad options or an unwritable file.
"""

from __future__ import annotations

from pathlib import Path

import click

from cli.errors import CliError, CommandFailed

_RATE = click.FloatRange(0, 1)


def register(group: click.Group) -> None:
    group.add_command(generate_command)


@click.command("generate")
@click.option(
    "--players", type=click.IntRange(2, 9999), required=True, metavar="N", help="Number of players."
)
@click.option("--rounds", type=click.IntRange(1, 99), required=True, metavar="R", help="Number of rounds.")
@click.option("--seed", type=int, default=1, show_default=True, metavar="S", help="Random seed.")
@click.option("--draw-rate", type=_RATE, default=0.3, show_default=True, metavar="P", help="Draws per game.")
@click.option(
    "--forfeit-rate", type=_RATE, default=0.0, show_default=True, metavar="P", help="Forfeits per game."
)
@click.option(
    "--bye-rate",
    type=_RATE,
    default=0.0,
    show_default=True,
    metavar="P",
    help="Half- or zero-point byes per player and round.",
)
@click.option(
    "--absent-rate",
    type=_RATE,
    default=0.0,
    show_default=True,
    metavar="P",
    help="Withdrawals per player and round.",
)
@click.option(
    "--scoring", type=click.Choice(["1-0.5-0", "2-1-0"]), default="1-0.5-0", show_default=True, help="Points."
)
@click.option("--accelerated", is_flag=True, help="Baku acceleration (C.04.5.1) as XXA lines.")
@click.option("-o", "--output", default="-", metavar="FILE", help="Where to write (standard output: -).")
def generate_command(
    players: int,
    rounds: int,
    seed: int,
    draw_rate: float,
    forfeit_rate: float,
    bye_rate: float,
    absent_rate: float,
    scoring: str,
    accelerated: bool,
    output: str,
) -> None:
    """Write a random tournament paired by the Dutch engine, as TRF-16."""
    # the engine (numpy, scipy, rustworkx) is imported when a tournament is generated
    from services.pairing.domain.dutch.generator import GenerationError, Profile, Scoring, generate
    from shared.trf import write

    try:
        profile = Profile(
            players=players,
            rounds=rounds,
            seed=seed,
            draw_rate=draw_rate,
            forfeit_rate=forfeit_rate,
            bye_rate=bye_rate,
            absent_rate=absent_rate,
            scoring=Scoring(scoring),
            accelerated=accelerated,
        )
        text = write(generate(profile))
    except ValueError as exc:
        raise CliError(str(exc)) from None
    except GenerationError as exc:
        raise CommandFailed(f"{exc} (players {players}, rounds {rounds}, seed {seed})") from None
    if output == "-":
        click.echo(text, nl=False)
        return
    try:
        Path(output).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise CliError(f"cannot write {output}: {exc.strerror or exc}") from None
