"""Reading the TRF file a command is given: a path, or ``-`` for standard input."""

from __future__ import annotations

import sys

from cli.errors import CliError
from shared.trf import TrfDocument, TrfError, decode, parse, read

STDIN = "-"


def read_trf(path: str, *, need_players: bool = True) -> TrfDocument:
    """The document, or a :class:`CliError` naming the file (``<stdin>`` for ``-``) and line.
    With ``need_players`` a text without player lines (empty, prose) is refused."""
    try:
        if path == STDIN:
            raw = sys.stdin.buffer.read()
            return parse(decode(raw), source="<stdin>", need_players=need_players)
        return read(path, need_players=need_players)
    except TrfError as exc:
        raise CliError(str(exc)) from None
