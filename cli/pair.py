"""``arbiter pair``: pair the next round of a tournament file, as a drop-in for bbpPairings.

    arbiter pair --dutch INPUT.trf -p [OUTPUT]

The output is bbpPairings' format: the number of lines that follow, then ``white black`` per
game in board order and ``X 0`` for the pairing-allocated bye; standard output when OUTPUT is
omitted. Exit codes: 0 paired; 1 no valid pairing exists (as bbpPairings); 2 the input is
wrong (unreadable file, a line that breaks the TRF layout, unknown players, inconsistent
history) or the output cannot be written.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from services.pairing.domain.dutch import InvalidInputError, NoValidPairingError, from_trf, pair_round
from shared.trf import TrfError, read

NO_VALID_PAIRING = 1
USER_ERROR = 2


def _fail(message: str, code: int) -> None:
    click.echo(message, err=True)
    sys.exit(code)


def register(group: click.Group) -> None:
    @group.command("pair")
    @click.option("--dutch", "dutch", is_flag=True, help="Pair with the FIDE Dutch system (C.04.3).")
    @click.argument("input_file", metavar="INPUT.trf", type=click.Path(dir_okay=False, path_type=Path))
    @click.option(
        "-p",
        "output",
        is_flag=False,
        flag_value="-",
        default=None,
        metavar="[OUTPUT]",
        help="Write the pairing of the next round to OUTPUT (standard output when omitted).",
    )
    def pair(dutch: bool, input_file: Path, output: str | None) -> None:
        """Pair the next round of the tournament in INPUT.trf."""
        if not dutch:
            raise click.UsageError("choose the pairing system: --dutch")
        if output is None:
            raise click.UsageError("-p is required: arbiter pair --dutch INPUT.trf -p [OUTPUT]")
        try:
            data = from_trf(read(input_file))
            pairing = pair_round(data)
        except TrfError as exc:
            _fail(f"error: {exc}", USER_ERROR)
            return
        except InvalidInputError as exc:
            _fail(f"error: {input_file}: {exc}", USER_ERROR)
            return
        except NoValidPairingError as exc:
            _fail(f"Error while pairing {input_file}: No valid pairing exists: {exc}", NO_VALID_PAIRING)
            return
        text = "\n".join(pairing.lines()) + "\n"
        if output == "-":
            click.echo(text, nl=False)
            return
        try:
            Path(output).write_text(text, encoding="ascii")
        except OSError as exc:
            _fail(f"error: cannot write {output}: {exc.strerror or exc}", USER_ERROR)
