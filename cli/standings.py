"""``arbiter standings``, ``arbiter crosstable`` and ``arbiter trf``: tables from a TRF file.

- ``arbiter standings FILE.trf [--preset NAME] [--tiebreaks BH,BH-C1,SB,ARO] [--edition 2024|2026]
  [--byes opponent|no-opponent] [--json]``: rank, start number, name, points, then each tie-break.
  ``--preset`` takes a ruleset of the services (``services.standings.domain.presets``: its tie-breaks
  and the ones it shows, how it counts byes, Swiss or round robin, its C.07 edition); the scores come
  from the file. Without ``--tiebreaks`` the list comes from the preset, else the file's TRF-2026
  record 202/212, else the ``fide-rapid`` preset (BH, BH-C1, SB, ARO); ``--tiebreaks`` overrides them
  all. Without ``--edition`` the preset's edition, else the file's start date (042) decides: the 2024
  rules before 2026-03-01, the 2026 rules from then on (today's date when the file has none).
  ``--byes no-opponent`` applies the platform's "a bye is no opponent" (RULES.md §2: a round without an
  opponent adds nothing to BH, SB and FB, and WIN does not count the pairing-allocated bye), which a
  TRF record can say; the default is the preset's rule, else what the file's ``XAR BYES`` record says,
  else C.07's dummy opponent.
  Arbiter's extension records (``XAR``, docs/standings.md) are applied where no option says otherwise:
  the ranking tie-breaks of a TRF-16 (after 202/212), the columns shown for information, the bye rule,
  whose definitions of BH and SB apply (``XAR DEFINITIONS PLATFORM``: the platform's, RULES.md §2, as
  the ``platform-*`` presets take them; else C.07's) and the seed of the lots (``--lots``). So an export of the standings service reads back to the page's
  table with no option at all.
- ``arbiter crosstable FILE.trf [--json]``: every round of every player, in rank order.

Half points are written ½ (``2½``) in every table; ``--json`` gives numbers (``2.5``) and each row's
``name``. Tables fit 80 columns when the output is no terminal (a terminal: its width).
- ``arbiter trf FILE.trf``: the file as Arbiter reads it, written again (the round-trip check; lines
  end with LF whatever the file used).

``-`` as FILE reads standard input. Mistakes (unreadable file, bad line, a file that is no
tournament report: empty, prose, binary; games whose two lines disagree; unknown tie-break code,
bad edition or preset) print one line naming the file and line or the bad value, and exit with
status 2.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import click

from cli.errors import CliError
from cli.text import console, points
from cli.text import table as text_table
from cli.trf_files import read_trf
from services.standings.domain.codes import TieBreak, TieBreakCodeError, parse_codes
from services.standings.domain.context import Rules, Value
from services.standings.domain.from_trf import history_from_trf, trf_edition
from services.standings.domain.history import Edition
from services.standings.domain.presets import PRESETS, Preset, preset
from services.standings.domain.ranking import Table, compute_table
from shared.trf import TrfDocument, write

__all__ = ["register"]

DEFAULT_PRESET = "fide-rapid"


def _read(path: str) -> TrfDocument:
    """The file as a tournament: a bad line, binary content or no player (001) line at all (an
    empty file, prose) is a CliError naming the file and, where there is one, the line."""
    return read_trf(path, need_players=True)


def _tiebreaks(doc: TrfDocument, path: str, given: str | None, ruleset: Preset | None) -> list[TieBreak]:
    if given is not None:
        try:
            return parse_codes(given)
        except TieBreakCodeError as exc:
            raise CliError(f"--tiebreaks: {exc}") from None
    if ruleset is not None:
        return list(ruleset.tiebreaks)
    if doc.tiebreaks:
        return _file_codes(doc, path, doc.tiebreaks, ("202", "212"))
    if doc.table_rules.tiebreaks:
        return _file_codes(doc, path, doc.table_rules.tiebreaks, ("XAR",))
    return list(preset(DEFAULT_PRESET).tiebreaks)


def _file_codes(doc: TrfDocument, path: str, codes: list[str], records: tuple[str, ...]) -> list[TieBreak]:
    """Tie-break codes the file gives; an unknown one names the file and the record's line."""
    try:
        return parse_codes(codes)
    except TieBreakCodeError as exc:
        number = next((i for i, line in enumerate(doc.lines, start=1) if line.code in records), None)
        raise CliError(f"{path}:{number}: {exc}") from None


def _table(
    path: str,
    tiebreaks: str | None,
    edition: str | None,
    unrated: int | None,
    pairing: str | None,
    lots: str | None,
    byes: str | None = None,
    preset_name: str | None = None,
) -> tuple[TrfDocument, Table]:
    doc = _read(path)
    ruleset = preset(preset_name) if preset_name else None
    codes = _tiebreaks(doc, path, tiebreaks, ruleset)
    if edition:
        chosen = Edition(edition)
    elif ruleset is not None and ruleset.edition is not None:
        chosen = ruleset.edition
    else:
        chosen = trf_edition(doc, dt.date.today())
    pre_determined = None if pairing is None else pairing == "round-robin"
    if pre_determined is None and ruleset is not None:
        pre_determined = ruleset.pre_determined
    history = history_from_trf(doc, pre_determined=pre_determined)
    if ruleset is None:  # what the file says (Arbiter's XAR records), else C.07's defaults
        said = doc.table_rules
        as_opponents = said.byes_as_opponents is not False if byes is None else byes == "opponent"
        rules = Rules(
            edition=chosen,
            unrated_rating=unrated,
            byes_as_opponents=as_opponents,
            platform_definitions=bool(said.platform_definitions),
        )
        shown = _file_codes(doc, path, said.shown, ("XAR",)) if said.shown else []
        return doc, compute_table(history, codes, rules, lots_seed=lots or said.lots_seed, shown=shown)
    rules = Rules(
        edition=chosen,
        unrated_rating=ruleset.unrated_rating if unrated is None else unrated,
        byes_as_opponents=ruleset.byes_as_opponents if byes is None else byes == "opponent",
        platform_definitions=ruleset.platform_definitions,
    )
    return doc, compute_table(history, codes, rules, lots_seed=lots, shown=ruleset.shown)


def _json_value(value: Value) -> int | float | None:
    if value is None or isinstance(value, int):
        return value
    return float(value)


def _text(value: Value) -> str:
    return points(value)


_OPTIONS = [
    click.option("--edition", type=click.Choice(["2024", "2026"]), help="Force the C.07 edition."),
    click.option("--unrated", type=int, help="Rating an unrated opponent counts with (ARO, TPR, PTP, APRO)."),
    click.option(
        "--pairing",
        type=click.Choice(["swiss", "round-robin"]),
        help="Force Swiss or pre-determined (round robin) rules; default from the file.",
    ),
    click.option(
        "--byes",
        type=click.Choice(["opponent", "no-opponent"]),
        default=None,
        help="A round without an opponent: C.07's dummy opponent, or none (the platform's rule); "
        "default: the preset's rule, else a dummy opponent.",
    ),
]


def _with_options(func: Any) -> Any:
    for option in reversed(_OPTIONS):
        func = option(func)
    return func


@click.command("standings")
@click.argument("trf_file", metavar="INPUT.trf")
@click.option(
    "--preset",
    "preset_name",
    type=click.Choice(sorted(PRESETS)),
    help="A ruleset of the services: its tie-breaks, shown columns and bye handling.",
)
@click.option(
    "--tiebreaks",
    "-t",
    help="Ordered tie-break codes, e.g. BH,BH-C1,SB,ARO (BH/C1 also accepted); overrides --preset.",
)
@_with_options
@click.option("--lots", "lots_seed", metavar="SEED", help="Order remaining ties by a recorded draw of lots.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def standings_command(
    trf_file: str,
    preset_name: str | None,
    tiebreaks: str | None,
    edition: str | None,
    unrated: int | None,
    pairing: str | None,
    byes: str | None,
    lots_seed: str | None,
    as_json: bool,
) -> None:
    """Print the standings of a TRF file (- for standard input) with its tie-breaks."""
    doc, table = _table(trf_file, tiebreaks, edition, unrated, pairing, lots_seed, byes, preset_name)
    if as_json:
        rows: list[dict[str, Any]] = []
        for row in table.rows:
            player = doc.players[row.start]
            item: dict[str, Any] = {
                "start": row.start,
                "name": player.name,
                "rating": player.rating or None,
                "rank": row.rank,
                "points": float(row.points),
                "tiebreaks": {code: _json_value(v) for code, v in row.tiebreaks.items()},
            }
            if row.shown:
                item["shown"] = {code: _json_value(v) for code, v in row.shown.items()}
            rows.append(item)
        click.echo(json.dumps(rows, indent=1))
        return
    title = f"{doc.name or Path(trf_file).name} — after round {table.rounds}"
    out = text_table()
    out.add_column("Rank", justify="right")
    out.add_column("No", justify="right")
    out.add_column("Name")
    out.add_column("Pts", justify="right")
    for tb in table.tiebreaks:
        out.add_column(tb.code, justify="right")
    shown = [code for row in table.rows[:1] for code in row.shown]
    for code in shown:
        out.add_column(f"({code})", justify="right")
    for row in table.rows:
        name = doc.players[row.start].name
        out.add_row(
            str(row.rank),
            str(row.start),
            name,
            _text(row.points),
            *(_text(v) for v in row.tiebreaks.values()),
            *(_text(row.shown[code]) for code in shown),
        )
    screen = console()
    screen.print(title, out, sep="\n")
    note = f"C.07 edition {table.edition.value}; tie-breaks: {', '.join(t.code for t in table.tiebreaks)}"
    if shown:
        note += f"; shown for information: {', '.join(shown)}"
    screen.print(note)
    if table.lots is not None and table.lots.groups:
        screen.print(f"lots drawn with seed {table.lots.seed!r}: {table.lots.to_dict()['groups']}")


_RESULT_TEXT = {"1": "1", "=": "½", "0": "0", "W": "1", "D": "½", "L": "0"}


@click.command("crosstable")
@click.argument("trf_file", metavar="INPUT.trf")
@_with_options
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def crosstable_command(
    trf_file: str,
    edition: str | None,
    unrated: int | None,
    pairing: str | None,
    byes: str | None,
    as_json: bool,
) -> None:
    """Print the crosstable of a TRF file, in rank order."""
    doc, table = _table(trf_file, None, edition, unrated, pairing, None, byes)
    if as_json:
        click.echo(json.dumps(_crosstable_json(doc, table), indent=1))
        return
    title = f"{doc.name or Path(trf_file).name} — crosstable"
    lines = []
    for row in table.rows:
        player = doc.players[row.start]
        cells = []
        for r in range(1, table.rounds + 1):
            entry = player.entry(r)
            if entry is None:
                cells.append("")
            elif entry.opponent is None:
                cells.append(entry.result.value)
            else:
                result = _RESULT_TEXT.get(entry.result.value, entry.result.value)
                cells.append(f"{entry.opponent}{entry.colour.value}{result}")
        lines.append(
            (str(row.rank), str(row.start), player.name, str(player.rating or ""), cells, row.points)
        )
    screen = console()
    for first, last in _round_blocks(lines, table.rounds, screen.width):
        if first == 1:
            screen.print(title)
        out = text_table()
        for head in ("#", "SNo"):
            out.add_column(head, justify="right")
        out.add_column("Name", no_wrap=True, overflow="ellipsis", min_width=NAME_MIN, max_width=NAME_MAX)
        out.add_column("Rtg", justify="right")
        for r in range(first, last + 1):
            out.add_column(f"R{r}", justify="right", no_wrap=True)
        out.add_column("Pts", justify="right", no_wrap=True)
        for rank, start, name, rating, cells, total in lines:
            out.add_row(rank, start, name, rating, *cells[first - 1 : last], _text(total))
        screen.print(out)


NAME_MIN, NAME_MAX = 12, 24


def _round_blocks(lines: list[Any], rounds: int, width: int) -> list[tuple[int, int]]:
    """The rounds in blocks of as many as fit ``width`` next to rank, number, name, rating and points
    (one block when all do): ``[(first, last), ...]``."""
    cell = max([len(c) for *_, cells, _ in lines for c in cells] + [len(f"R{rounds}")], default=3)
    fixed = sum(max([len(line[i]) for line in lines] + [3]) + 1 for i in (0, 1, 3))
    fixed += NAME_MIN + 1 + max([len(_text(line[5])) for line in lines] + [3])
    per_block = max(1, (width - fixed) // (cell + 1))
    return [(first, min(first + per_block - 1, rounds)) for first in range(1, rounds + 1, per_block)] or [
        (1, 0)
    ]


def _crosstable_json(doc: TrfDocument, table: Table) -> list[dict[str, Any]]:
    """The rows in rank order; each round as the file has it: the opponent's start number (None: no
    opponent), the colour (w, b or None), the result code of TRF (1 = 0 + - W D L H F U Z)."""
    rows = []
    for row in table.rows:
        player = doc.players[row.start]
        rounds: list[dict[str, Any]] = []
        for r in range(1, table.rounds + 1):
            entry = player.entry(r)
            if entry is None:
                rounds.append({"round": r, "opponent": None, "colour": None, "result": None})
                continue
            colour = entry.colour.value if entry.opponent is not None else None
            rounds.append(
                {
                    "round": r,
                    "opponent": entry.opponent,
                    "colour": colour or None,
                    "result": entry.result.value,
                }
            )
        rows.append(
            {
                "rank": row.rank,
                "start": row.start,
                "name": player.name,
                "rating": player.rating or None,
                "points": float(row.points),
                "rounds": rounds,
            }
        )
    return rows


@click.command("trf")
@click.argument("trf_file", metavar="INPUT.trf")
@click.option("--canonical", is_flag=True, help="Lay out every record anew from what was read.")
def trf_command(trf_file: str, canonical: bool) -> None:
    """Print a TRF file as Arbiter reads it, exported again."""
    click.echo(write(_read(trf_file), canonical=canonical), nl=False)


def register(group: click.Group) -> None:
    group.add_command(standings_command)
    group.add_command(crosstable_command)
    group.add_command(trf_command)
