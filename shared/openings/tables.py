"""Federation opening tables (RULES.md §2): English and Italian draughts, the two variants with one.

A table is a list of openings, each with a code, its moves in the variant's notation and, where the
table's source gives one, a **balance class**: how far the opening favours one colour, graded 1 to 3 and
lettered after the side it favours, as the Italian federation writes it (``N``: nero, Black; ``B``:
bianco, White), so ``2N`` is a second-grade advantage for Black. A table has classes for every opening or
for none: a capped draw (``table-1|2|3``) from a table without them is refused
(:class:`~shared.openings.errors.BalanceClassesMissing`).

* **English**: the 174 three-move openings shipped with pydraughts (``draughts/ballot_files/
  3move_english.json``, its ``all`` list), read at run time from the installed, pinned package. Codes are
  its numbers, ``001`` … ``174`` (the openings in the order of their moves). It has no balance classes.
* **Italian**: loaded from a file the organiser or the federation provides (:func:`load_table`), JSON or
  CSV as described in ``docs/openings.md``. Every move is replayed through pydraughts when it is loaded,
  so a table with an illegal or mistyped move is refused with the entry that has it.
"""

from __future__ import annotations

import csv
import functools
import io
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Final

from shared.games import boards
from shared.openings.errors import (
    BalanceClassesMissing,
    NoOpeningWithinCap,
    OpeningNotForVariant,
    OpeningTableInvalid,
    OpeningTableMissing,
    ThematicOpeningNotFound,
)
from shared.variants import Variant

TABLE_VARIANTS: Final = (Variant.ENGLISH, Variant.ITALIAN)
"""The variants with a federation opening table."""

ENGLISH_BALLOTS: Final = "3move_english.json"
_BALANCE = re.compile(r"^\s*(?:(0)|([1-9])\s*([NB]))\s*$", re.IGNORECASE)
_MOVE_NUMBER = re.compile(r"^\d+\.+$")


@dataclass(frozen=True, order=True)
class BalanceClass:
    """``grade`` 1 … 9 and the favoured ``side`` (``N`` Black, ``B`` White); ``0``: balanced."""

    grade: int
    side: str | None = None

    @classmethod
    def parse(cls, text: str) -> BalanceClass:
        found = _BALANCE.match(text)
        if found is None:
            raise ValueError(f"a balance class is written like 1N, 2B or 3N (or 0), not {text!r}")
        if found.group(1):
            return cls(0)
        return cls(int(found.group(2)), found.group(3).upper())

    def __str__(self) -> str:
        return "0" if self.side is None else f"{self.grade}{self.side}"


@dataclass(frozen=True)
class TableOpening:
    code: str
    moves: tuple[str, ...]
    balance: BalanceClass | None = None


@dataclass(frozen=True)
class OpeningTable:
    variant: Variant
    name: str
    source: str
    openings: tuple[TableOpening, ...]

    def __post_init__(self) -> None:
        if self.variant not in TABLE_VARIANTS:
            raise OpeningTableInvalid(
                f"{self.name}: only {', '.join(v.value for v in TABLE_VARIANTS)} draughts have opening "
                f"tables, not {self.variant.value}"
            )
        if not self.openings:
            raise OpeningTableInvalid(f"{self.name}: the table has no openings")
        seen: set[str] = set()
        for opening in self.openings:
            if opening.code in seen:
                raise OpeningTableInvalid(f"{self.name}: code {opening.code!r} appears twice")
            seen.add(opening.code)
        classified = {o.balance is not None for o in self.openings}
        if len(classified) > 1:
            missing = next(o.code for o in self.openings if o.balance is None)
            raise OpeningTableInvalid(
                f"{self.name}: either every opening has a balance class or none does ({missing!r} has none)"
            )

    @property
    def has_balance_classes(self) -> bool:
        return self.openings[0].balance is not None

    @property
    def max_grade(self) -> int | None:
        """The highest balance grade in the table; None without classes."""
        if not self.has_balance_classes:
            return None
        return max(o.balance.grade for o in self.openings if o.balance is not None)

    def opening(self, code: str) -> TableOpening:
        """The opening called ``code``; :class:`ThematicOpeningNotFound` if the table has none."""
        for opening in self.openings:
            if opening.code == code:
                return opening
        first, last = self.openings[0].code, self.openings[-1].code
        raise ThematicOpeningNotFound(
            f"no opening {code!r} in the {self.name} (its codes run from {first} to {last})"
        )

    def within(self, cap: int | None) -> tuple[TableOpening, ...]:
        """The openings a draw up to ``cap`` (a grade; None: the whole table) chooses from."""
        if cap is None:
            return self.openings
        if not self.has_balance_classes:
            raise BalanceClassesMissing(
                f"the {self.name} has no balance classes, so a draw up to {cap}N/{cap}B cannot be made "
                "from it: choose table-all or a thematic opening"
            )
        found = tuple(o for o in self.openings if o.balance is not None and o.balance.grade <= cap)
        if not found:
            raise NoOpeningWithinCap(f"the {self.name} has no opening up to {cap}N/{cap}B")
        return found

    def checked(self) -> OpeningTable:
        """The table with every opening replayed through the move generator, its moves rewritten in
        the variant's own notation; :class:`OpeningTableInvalid` naming the first illegal opening."""
        openings = []
        for opening in self.openings:
            try:
                line = boards.replay(self.variant, opening.moves)
            except boards.IllegalMove as exc:
                raise OpeningTableInvalid(f"{self.name}, opening {opening.code}: {exc.detail}") from None
            openings.append(replace(opening, moves=line.moves))
        return replace(self, openings=tuple(openings))


def table_for(variant: Variant, *, italian: OpeningTable | None = None) -> OpeningTable:
    """The federation table of ``variant``: English from pydraughts, Italian as provided."""
    if variant is Variant.ENGLISH:
        return english_table()
    if variant is Variant.ITALIAN:
        if italian is None:
            raise OpeningTableMissing(
                "no Italian opening table is configured: table draws and thematic openings of Italian "
                "draughts need the federation's table, provided as a file (docs/openings.md)"
            )
        return italian
    raise OpeningNotForVariant(
        f"{variant.value} has no federation opening table: table draws and thematic openings exist only "
        "for English and Italian draughts (choose free or random-1, random-2, random-3)"
    )


# -- the English table, from pydraughts ------------------------------------------------------------
@functools.cache
def english_table() -> OpeningTable:
    """The 174 three-move openings of English draughts from pydraughts' ballots (no balance classes).

    The moves are as the ballots write them less their leading zeros (``9-13 22-17 13-22``: a capture
    keeps its dash here); a drawn opening is replayed, and so written in the variant's notation
    (``13x22``), by :mod:`shared.openings.draw`."""
    from importlib import metadata, resources

    ballots = resources.files("draughts.ballot_files").joinpath(ENGLISH_BALLOTS)
    data = json.loads(ballots.read_text(encoding="utf-8"))
    openings = tuple(
        TableOpening(code, _english_moves(moves))
        for code, moves in (key.split(" ", 1) for key in sorted(data["all"]))
    )
    version = metadata.version("pydraughts")
    return OpeningTable(
        Variant.ENGLISH,
        "English three-move table",
        f"pydraughts {version}, draughts/ballot_files/{ENGLISH_BALLOTS} (the 'all' list: 174 openings)",
        openings,
    )


def english_ballot_positions() -> Mapping[str, str]:
    """Each English opening's code and the position the ballots give after its moves (for checking)."""
    from importlib import resources

    ballots = resources.files("draughts.ballot_files").joinpath(ENGLISH_BALLOTS)
    data = json.loads(ballots.read_text(encoding="utf-8"))
    return {key.split(" ", 1)[0]: fen for key, fen in data["all"].items()}


def _english_moves(written: str) -> tuple[str, ...]:
    """``09-13 22-17 13-22`` → ``9-13``, ``22-17``, ``13-22``."""
    return tuple("-".join(square.lstrip("0") for square in move.split("-")) for move in written.split())


# -- tables provided as files ------------------------------------------------------------------------
def load_table(path: str | Path, variant: Variant | str, *, check_moves: bool = True) -> OpeningTable:
    """A table from a JSON or CSV file (by its suffix), its moves replayed unless ``check_moves`` is
    False; :class:`OpeningTableInvalid` naming the file and the entry or line that is wrong."""
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as exc:
        raise OpeningTableInvalid(f"{file}: cannot be read ({exc.strerror or exc})") from None
    suffix = file.suffix.lower()
    if suffix == ".json":
        table = parse_json(text, variant, origin=str(file))
    elif suffix == ".csv":
        table = parse_csv(text, variant, origin=str(file))
    else:
        raise OpeningTableInvalid(f"{file}: an opening table is a .json or a .csv file")
    return table.checked() if check_moves else table


def parse_json(text: str, variant: Variant | str, *, origin: str = "<table>") -> OpeningTable:
    """``{"name", "variant", "source", "openings": [{"code", "moves", "balance"}]}`` (docs/openings.md)."""
    v = _variant(variant, origin)
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise OpeningTableInvalid(f"{origin}, line {exc.lineno}: not JSON ({exc.msg})") from None
    if not isinstance(doc, dict):
        raise OpeningTableInvalid(f"{origin}: the table is a JSON object with 'source' and 'openings'")
    if doc.get("variant") not in (None, v.value):
        raise OpeningTableInvalid(f"{origin}: a table of {doc['variant']!r}, not of {v.value}")
    source = _text(doc.get("source"), f"{origin}: 'source'")
    entries = doc.get("openings")
    if not isinstance(entries, list):
        raise OpeningTableInvalid(f"{origin}: 'openings' is a list of openings")
    openings = [_opening(entry, f"{origin}, opening {number}") for number, entry in enumerate(entries, 1)]
    name = doc.get("name") or f"{v.value} opening table"
    return _table(v, str(name), source, openings, origin)


def parse_csv(text: str, variant: Variant | str, *, origin: str = "<table>") -> OpeningTable:
    """A header ``code,moves,balance,source`` and one opening a line (docs/openings.md)."""
    v = _variant(variant, origin)
    reader = csv.DictReader(io.StringIO(text))
    wanted = ("code", "moves", "balance", "source")
    header = [h.strip().lower() for h in reader.fieldnames or ()]
    if header[: len(wanted)] != list(wanted):
        raise OpeningTableInvalid(
            f"{origin}, line 1: the header is {','.join(wanted)}, not {','.join(header)}"
        )
    openings: list[TableOpening] = []
    sources: list[str] = []
    for row in reader:
        where = f"{origin}, line {reader.line_num}"
        values = {key.strip().lower(): (value or "") for key, value in row.items() if key is not None}
        openings.append(_opening(values, where))
        source = _text(values.get("source"), f"{where}: 'source'")
        if source not in sources:
            sources.append(source)
    return _table(v, f"{v.value} opening table", "; ".join(sources), openings, origin)


def _table(v: Variant, name: str, source: str, openings: Sequence[TableOpening], origin: str) -> OpeningTable:
    try:
        return OpeningTable(v, name, source, tuple(openings))
    except OpeningTableInvalid as exc:
        raise OpeningTableInvalid(f"{origin}: {exc.detail.removeprefix(f'{name}: ')}") from None


def _opening(entry: Any, where: str) -> TableOpening:
    if not isinstance(entry, Mapping):
        raise OpeningTableInvalid(f"{where}: an opening has 'code', 'moves' and 'balance'")
    code = _text(entry.get("code"), f"{where}: 'code'")
    moves = entry.get("moves")
    if isinstance(moves, str):
        moves = moves.split()
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise OpeningTableInvalid(
            f"{where}: 'moves' is the moves in the variant's notation, e.g. '22-19 10-14'"
        )
    played = tuple(m for m in moves if not _MOVE_NUMBER.match(m))
    if not played:
        raise OpeningTableInvalid(f"{where}: opening {code!r} has no moves")
    balance = entry.get("balance")
    if balance in (None, ""):
        return TableOpening(code, played)
    try:
        return TableOpening(code, played, BalanceClass.parse(str(balance)))
    except ValueError as exc:
        raise OpeningTableInvalid(f"{where}: {exc}") from None


def _text(value: Any, where: str) -> str:
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str) or not value.strip():
        raise OpeningTableInvalid(f"{where} is missing")
    return value.strip()


def _variant(variant: Variant | str, origin: str) -> Variant:
    try:
        return boards.variant_of(variant)
    except boards.UnknownVariant as exc:
        raise OpeningTableInvalid(f"{origin}: {exc.detail}") from None
