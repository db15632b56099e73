"""``arbiter check --dutch INPUT.trf [--round N] [--json]``: were the rounds paired by the rules?

Every round of the file (or round N) is paired again from the rounds before it and compared
with the pairing the file holds. A round prints ``ok``, or its deviations: the games only the
file has, the games only the engine has, the games the engine colours the other way, the bye,
and the reason: the first criterion of C.04.3 on which the file's pairing is worse than the
engine's, with the score bracket and both values (absolute criteria are named as such; a
pairing as good on every criterion is "equal quality, another transposition"). A round the
engine cannot pair says so, and the check goes on. ``--json`` prints the same as one document.
``-`` as INPUT reads standard input.

Exit codes: 0 every checked round matches; 1 a round deviates (or cannot be paired again);
2 bad input (an unreadable file, a bad line, games whose two lines disagree, a round not in
the file).
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import click

from cli.errors import CliError
from cli.trf_files import STDIN, read_trf

if TYPE_CHECKING:
    from services.pairing.domain.dutch.checker import Reason, RoundCheck

DEVIATES = 1


def register(group: click.Group) -> None:
    group.add_command(check_command)


@click.command("check")
@click.option("--dutch", "dutch", is_flag=True, help="Check by the FIDE Dutch system (C.04.3).")
@click.argument("input_file", metavar="INPUT.trf")
@click.option("--round", "round_no", type=click.IntRange(min=1), metavar="N", help="Check round N only.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
def check_command(dutch: bool, input_file: str, round_no: int | None, as_json: bool) -> None:
    """Check the pairings of INPUT.trf (- for standard input) round by round, saying why a round
    deviates."""
    # the engine (numpy, scipy, rustworkx) is imported when a round is checked, not at start-up
    from services.pairing.domain.dutch import InvalidInputError
    from services.pairing.domain.dutch.checker import check_round
    from services.pairing.domain.dutch.trf_adapter import published_round, round_input

    if not dutch:
        raise click.UsageError("choose the pairing system: --dutch")
    doc = read_trf(input_file)
    name = "<stdin>" if input_file == STDIN else input_file
    played = doc.rounds_played
    if round_no is not None and round_no > played:
        raise CliError(f"{name}: round {round_no} is not in the file (it has {played} rounds)")
    checked: list[tuple[int, RoundCheck | None]] = []
    for number in [round_no] if round_no is not None else range(1, played + 1):
        published = published_round(doc, number)
        if published.empty:
            if round_no is not None:
                raise CliError(f"{name}: round {number} has no pairing")
            checked.append((number, None))
            continue
        try:
            checked.append((number, check_round(round_input(doc, number), published)))
        except InvalidInputError as exc:
            raise CliError(f"{name}: round {number}: {exc}") from None
    if as_json:
        click.echo(json.dumps(_document(name, checked), indent=1))
    else:
        _print(checked)
    if any(result is not None and not result.ok for _, result in checked):
        click.get_current_context().exit(DEVIATES)


# -- text ------------------------------------------------------------------------------------------


def _games(games: tuple[tuple[int, int], ...]) -> str:
    return ", ".join(f"{w}-{b}" for w, b in games)


def _print(checked: list[tuple[int, RoundCheck | None]]) -> None:
    counts = {"ok": 0, "deviates": 0, "unpairable": 0}
    for number, result in checked:
        if result is None:
            click.echo(f"round {number}: not paired")
            continue
        counts[result.verdict.value] += 1
        if result.ok:
            click.echo(f"round {number}: ok")
            continue
        if result.engine is None:
            click.echo(f"round {number}: cannot be paired again: No valid pairing exists: {result.message}")
        else:
            click.echo(f"round {number}: deviates")
            rows = [
                ("only in the file", _games(result.only_published)),
                ("only in the engine's pairing", _games(result.only_engine)),
                ("colours the other way", _games(result.other_colours)),
            ]
            engine_bye = result.engine.bye
            published_byes = ", ".join(str(n) for n in result.published.byes) or "none"
            if (engine_bye,) != result.published.byes and not (
                engine_bye is None and not result.published.byes
            ):
                rows.append(("bye", f"file {published_byes}, engine {engine_bye or 'none'}"))
            width = max(len(label) for label, _ in rows)
            for label, value in rows:
                if value:
                    click.echo(f"  {label + ':':<{width + 1}} {value}")
        if result.reason is not None:
            click.echo(f"  reason: {result.reason.text}")
    total = sum(counts.values())
    deviating = counts["deviates"]
    summary = f"{total} round{'s' if total != 1 else ''} checked: {counts['ok']} ok, {deviating} deviate"
    summary += "s" if deviating == 1 else ""
    if counts["unpairable"]:
        summary += f", {counts['unpairable']} cannot be paired again"
    click.echo(summary)


# -- JSON ------------------------------------------------------------------------------------------


def _value(value: object) -> Any:
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else float(value)
    if isinstance(value, tuple):
        return [_value(v) for v in value]
    return value


def _reason(reason: Reason | None) -> dict[str, Any] | None:
    if reason is None:
        return None
    return {
        "kind": reason.kind.value,
        "criterion": reason.criterion,
        "bracket": _value(reason.bracket),
        "file": _value(reason.file),
        "engine": _value(reason.engine),
        "text": reason.text,
    }


def _round(number: int, result: RoundCheck | None) -> dict[str, Any]:
    if result is None:
        return {"round": number, "status": "not paired"}
    out: dict[str, Any] = {"round": number, "status": result.verdict.value}
    if result.ok:
        return out
    out["file"] = {
        "games": [[b.white, b.black] for b in result.published.boards],
        "byes": list(result.published.byes),
    }
    if result.engine is None:
        out["message"] = f"No valid pairing exists: {result.message}"
    else:
        out["engine"] = {"games": [list(g) for g in result.engine.games], "bye": result.engine.bye}
        out["only_file"] = [list(g) for g in result.only_published]
        out["only_engine"] = [list(g) for g in result.only_engine]
        out["other_colours"] = [list(g) for g in result.other_colours]
    out["reason"] = _reason(result.reason)
    return out


def _document(name: str, checked: list[tuple[int, RoundCheck | None]]) -> dict[str, Any]:
    return {
        "file": name,
        "ok": all(result is None or result.ok for _, result in checked),
        "rounds": [_round(number, result) for number, result in checked],
    }
