"""Player lists the organiser imports into a `fide-rapid` event: a CSV list or a TRF file.

**CSV**: UTF-8 (a byte-order mark is skipped) or else Latin-1 text; a header row naming the columns, in
any order and any case: ``name`` (required), ``fide_id``, ``federation``, ``title``, ``sex``,
``birth_year``, ``rating_standard``, ``rating_rapid``; comma-separated, or semicolon- or tab-separated
when the header is. An empty cell is unknown; a rating of 0 is unrated, a FIDE id of 0 none. Titles
are ``GM IM WGM FM WIM CM WFM WCM`` (or the TRF codes ``g m wg f wm c wf wc``), sex ``m`` or ``w``
(``f`` is read as ``w``). Blank lines are skipped.

**TRF** (TRF-16 or TRF-2026): the player (``001``) lines, read by :mod:`shared.trf`: name, sex, title,
the rating (taken as the FIDE *standard* rating, which the starting rank uses), federation, FIDE id and
the year of the birth date. Start numbers, points and round results are not imported: the event's
starting rank and rounds are its own.

Every problem is a :class:`~services.registration.domain.errors.InvalidPlayerLine` naming the line; the
whole list is read before anything is imported, so a bad line imports nothing.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Callable, Iterator, Mapping
from enum import StrEnum
from typing import Final, TypeVar

from services.registration.domain import errors
from services.registration.domain.fide import MAX_PLAYERS
from services.registration.domain.players import (
    TRF_TITLES,
    Person,
    Sex,
    Title,
    player_name,
    profile,
)
from shared import trf

COLUMNS: Final = (
    "name",
    "fide_id",
    "federation",
    "title",
    "sex",
    "birth_year",
    "rating_standard",
    "rating_rapid",
)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
T = TypeVar("T")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")  # as the TRF reader splits lines
_YEAR = re.compile(r"^(\d{4})(?:[/.-]\d{1,2}[/.-]\d{1,2})?$")


class ListFormat(StrEnum):
    CSV = "csv"
    TRF = "trf"


def decode(raw: bytes) -> str:
    """The text of an uploaded list: UTF-8 (without a byte-order mark), else Latin-1."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def read(text: str, fmt: ListFormat) -> list[Person]:
    """The players a list names, in its order, each with its line; InvalidPlayerLine on any problem."""
    people = read_csv(text) if fmt is ListFormat.CSV else read_trf(text)
    if not people:
        raise errors.InvalidPlayerLine(f"the {fmt.value.upper()} file lists no players", line=None)
    if len(people) > MAX_PLAYERS:
        raise errors.InvalidPlayerLine(
            f"the file lists {len(people)} players; an event takes at most {MAX_PLAYERS}",
            line=people[MAX_PLAYERS].line,
        )
    return people


# -- CSV ---------------------------------------------------------------------------------------------
def read_csv(text: str) -> list[Person]:
    lines = _LINE_BREAK.split(text)
    if lines and lines[-1] == "":  # the last line's end
        lines.pop()
    for number, line in enumerate(lines, start=1):
        control = _CONTROL.search(line)
        if control:
            raise errors.InvalidPlayerLine(
                f"line {number}: control character 0x{ord(control.group()):02x} in column"
                f" {control.start() + 1}: a CSV list is text",
                line=number,
            )
    first = next((line for line in lines if line.strip()), None)
    if first is None:
        return []
    rows = (row for row in _rows(lines, _delimiter(first)) if any(cell.strip() for cell in row[1]))
    number, header = next(rows)
    columns = _columns(header, number)
    people: list[Person] = []
    for number, cells in rows:
        if len(cells) > len(columns):
            raise errors.InvalidPlayerLine(
                f"line {number}: {len(cells)} cells, but the header names {len(columns)} columns",
                line=number,
            )
        values = {column: cell.strip() for column, cell in zip(columns, cells, strict=False)}
        people.append(_csv_person(values, number))
    return people


def _delimiter(header: str) -> str:
    counts = {d: header.count(d) for d in (",", ";", "\t")}
    best = max(counts, key=lambda d: counts[d])
    return best if counts[best] else ","


def _rows(lines: list[str], delimiter: str) -> Iterator[tuple[int, list[str]]]:
    """Each record with the number of the line it starts on (a quoted cell may span lines)."""
    reader = csv.reader(iter(lines), delimiter=delimiter, strict=True)
    end = 0
    while True:
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            raise errors.InvalidPlayerLine(
                f"line {reader.line_num}: not a CSV row ({exc})", line=reader.line_num
            ) from None
        start, end = end + 1, reader.line_num
        yield start, cells


def _columns(header: list[str], number: int) -> list[str]:
    columns = [cell.strip().lower().replace(" ", "_") for cell in header]
    unknown = [c for c in columns if c not in COLUMNS]
    if unknown:
        raise errors.InvalidPlayerLine(
            f"line {number}: unknown column {unknown[0]!r}; the header names columns of {', '.join(COLUMNS)}",
            line=number,
        )
    twice = sorted({c for c in columns if columns.count(c) > 1})
    if twice:
        raise errors.InvalidPlayerLine(f"line {number}: column {twice[0]!r} named twice", line=number)
    if "name" not in columns:
        raise errors.InvalidPlayerLine(
            f"line {number}: the header needs a name column (a header row comes first)", line=number
        )
    return columns


def _csv_person(values: Mapping[str, str], number: int) -> Person:
    def cell(column: str) -> str:
        return values.get(column, "")

    def field(column: str, parse: Callable[[str], T]) -> T | None:
        return _value(number, column, cell(column), parse)

    return _person(
        number,
        lambda: Person(
            player_name(cell("name")),
            profile(
                fide_id=field("fide_id", _fide_id),
                federation=cell("federation") or None,
                title=field("title", _title),
                sex=field("sex", _sex),
                birth_year=field("birth_year", _birth_year),
                rating_standard=field("rating_standard", _number),
                rating_rapid=field("rating_rapid", _number),
            ),
            line=number,
        ),
    )


# -- TRF ---------------------------------------------------------------------------------------------
def read_trf(text: str) -> list[Person]:
    _no_foreign_digits(text)
    try:
        doc = trf.parse(text, source="the TRF file", need_players=True)
    except trf.TrfError as exc:
        where = f"line {exc.line}: " if exc.line is not None else ""
        raise errors.InvalidPlayerLine(f"{where}{exc.message}", line=exc.line) from None
    return [
        _trf_person(doc.players[line.player], number)
        for number, line in enumerate(doc.lines, start=1)
        if line.player is not None
    ]


def _no_foreign_digits(text: str) -> None:
    """TRF numbers are ASCII digits; a digit of another script (``²``, ``٣``) is named with its line
    before the reader, which takes any Unicode digit for one, meets it."""
    for number, line in enumerate(_LINE_BREAK.split(text), start=1):
        for column, char in enumerate(line, start=1):
            if char.isdigit() and not char.isascii():
                raise errors.InvalidPlayerLine(
                    f"line {number}: {char!r} in column {column} is not a digit a TRF file uses (0-9)",
                    line=number,
                )


def _trf_person(record: trf.PlayerRecord, number: int) -> Person:
    return _person(
        number,
        lambda: Person(
            player_name(record.name),
            profile(
                fide_id=_value(number, "the FIDE id (columns 58-68)", record.fide_id, _fide_id),
                federation=record.federation or None,
                title=_value(number, "the title (columns 11-13)", record.title, _title),
                sex=_value(number, "the sex (column 10)", record.sex, _sex),
                birth_year=_value(number, "the birth date (columns 70-79)", record.birth, _birth_year),
                rating_standard=record.rating,
            ),
            line=number,
        ),
    )


# -- values ------------------------------------------------------------------------------------------
def _person(number: int, build: Callable[[], Person]) -> Person:
    try:
        return build()
    except errors.InvalidPlayer as exc:
        raise errors.InvalidPlayerLine(f"line {number}: {exc.detail}", line=number) from None


def _value(number: int, what: str, text: str, parse: Callable[[str], T]) -> T | None:
    text = text.strip()
    if not text:
        return None
    try:
        return parse(text)
    except ValueError as exc:
        raise errors.InvalidPlayerLine(f"line {number}: {what}: {exc}", line=number) from None


def _number(text: str) -> int:
    if not (text.isascii() and text.isdigit()):
        raise ValueError(f"a whole number, got {text!r}")
    return int(text)


def _fide_id(text: str) -> int | None:
    """A FIDE id; 0 is none (as TRF files write it)."""
    return _number(text) or None


def _title(text: str) -> Title:
    found = TRF_TITLES.get(text.lower()) or next((t for t in Title if t.value == text.upper()), None)
    if found is None:
        names = " ".join(t.value for t in Title)
        raise ValueError(f"one of {names} (or the TRF codes {' '.join(TRF_TITLES)}), got {text!r}")
    return found


def _sex(text: str) -> Sex:
    value = {"m": Sex.M, "w": Sex.W, "f": Sex.W}.get(text.lower())
    if value is None:
        raise ValueError(f"m or w, got {text!r}")
    return value


def _birth_year(text: str) -> int:
    match = _YEAR.match(text)
    if match is None:
        raise ValueError(f"a year (or a date YYYY/MM/DD), got {text!r}")
    return int(match.group(1))
