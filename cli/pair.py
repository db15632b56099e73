"""``arbiter pair``: pair the next round of a tournament file, as a drop-in for bbpPairings.

    arbiter pair --dutch INPUT.trf -p [OUTPUT]

The output is bbpPairings' format: the number of lines that follow, then ``white black`` per
game in board order and ``X 0`` for the pairing-allocated bye; standard output when OUTPUT is
omitted. ``-`` as INPUT reads standard input. Exit codes: 0 paired; 1 no valid pairing exists
(as bbpPairings); 2 the input is wrong (unreadable file, a line that breaks the TRF layout,
unknown players, games whose two lines disagree) or the output cannot be written.
"""

from __future__ import annotations

from pathlib import Path

import click

from cli.errors import CliError, CommandFailed
from cli.trf_files import read_trf


def register(group: click.Group) -> None:
    @group.command("pair")
    @click.option("--dutch", "dutch", is_flag=True, help="Pair with the FIDE Dutch system (C.04.3).")
    @click.argument("input_file", metavar="INPUT.trf")
    @click.option(
        "-p",
        "output",
        is_flag=False,
        flag_value="-",
        default=None,
        metavar="[OUTPUT]",
        help="Write the pairing of the next round to OUTPUT (standard output when omitted).",
    )
    def pair(dutch: bool, input_file: str, output: str | None) -> None:
        """Pair the next round of the tournament in INPUT.trf (- for standard input)."""
        # the engine (numpy, scipy, rustworkx) is imported when a round is paired, not at start-up
        from services.pairing.domain.dutch import InvalidInputError, NoValidPairingError, from_trf, pair_round

        if not dutch:
            raise click.UsageError("choose the pairing system: --dutch")
        if output is None:
            raise click.UsageError("-p is required: arbiter pair --dutch INPUT.trf -p [OUTPUT]")
        doc = read_trf(input_file, need_players=False)
        name = "<stdin>" if input_file == "-" else input_file
        try:
            pairing = pair_round(from_trf(doc))
        except InvalidInputError as exc:
            raise CliError(f"{name}: {exc}") from None
        except NoValidPairingError as exc:
            raise CommandFailed(f"{name}: No valid pairing exists: {exc}") from None
        text = "\n".join(pairing.lines()) + "\n"
        if output == "-":
            click.echo(text, nl=False)
            return
        try:
            Path(output).write_text(text, encoding="ascii")
        except OSError as exc:
            raise CliError(f"cannot write {output}: {exc.strerror or exc}") from None
