"""How the command line writes numbers and counts: half points as ½ (``2½``, ``½``) everywhere,
counts with the right plural (``1 player``, ``2 players``), tables that fit 80 columns when the
output is no terminal (a terminal: its own width)."""

from __future__ import annotations

import sys
from fractions import Fraction
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console, JustifyMethod
    from rich.table import Table

WIDTH = 80


def points(value: float | Fraction | int | None) -> str:
    """``2½`` for 2.5, ``½`` for 0.5, ``3`` for 3.0, ``-`` for None; other fractions in decimals
    (``11.75``: Sonneborn-Berger can be a quarter)."""
    if value is None:
        return "-"
    exact = Fraction(value).limit_denominator(1000)
    if exact < 0:
        return f"-{points(-exact)}"
    whole, part = divmod(exact, 1)
    if part == 0:
        return str(whole)
    if part == Fraction(1, 2):
        return f"{whole or ''}½"
    return f"{float(exact):.2f}".rstrip("0")


def plural(count: int, word: str, many: str | None = None) -> str:
    """``1 player``, ``0 players``, ``2 byes``; ``many`` where adding an s is wrong."""
    return f"{count} {word if count == 1 else (many or word + 's')}"


def console() -> Console:
    """A console for tables: at most 80 columns when writing to a file or a pipe."""
    from rich.console import Console

    return Console(width=None if sys.stdout.isatty() else WIDTH, highlight=False)


def table(
    *columns: str, title: str | None = None, right: tuple[str, ...] = (), whole: tuple[str, ...] = ()
) -> Table:
    """A table with a rule under its head, no frame and one space between columns: more of the 80
    columns for the names. ``right``: the columns aligned right (numbers); ``whole``: never wrapped (ids)."""
    from rich import box
    from rich.table import Table

    out = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, padding=(0, 0))
    for name in columns:
        justify: JustifyMethod = "right" if name in right else "left"
        out.add_column(name, justify=justify, no_wrap=name in whole)
    return out


def result(outcome: str | None) -> str:
    """A game's result as the command line and the demos write it (the standings' pages too): White's
    score first, ``1-0``, ``½-½``, ``0-1``; a forfeit ``+/-``, ``-/+``, ``-/-``; ``*`` while open. The
    services' JSON writes a draw ``1/2-1/2``: that is turned into ``½-½`` here, the rest kept."""
    if not outcome:
        return "*"
    return "½-½" if outcome in ("1/2-1/2", "½-½") else outcome
