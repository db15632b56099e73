"""`arbiter demo`: a whole tournament embedded, one process, no servers, run by the ruleset that
``--ruleset`` names: ``platform`` (:mod:`cli.demos.platform`), ``knockout`` and ``double-knockout``
(:mod:`cli.demos.knockout`), ``fide-rapid`` (:mod:`cli.demos.fide_rapid`), ``group-playoff``
(:mod:`cli.demos.group_playoff`) or ``arena`` (:mod:`cli.demos.arena`). ``--format``, the option's
old name, still works (hidden from the help): scripts written for it keep running.

The rulesets' demos, and through them the four services (:mod:`cli.embedded`), are imported when a demo
runs, not when the command is registered: ``arbiter -h`` and ``arbiter demo -h`` start as quickly as the
other commands."""

from __future__ import annotations

import json
import random
import tempfile
from pathlib import Path

import click
from rich.console import Console

from cli.client import OPENING_OPTION, parse_time_control
from shared.openings import OpeningError, OpeningOption, check_option
from shared.settings import CommonSettings
from shared.variants import Variant

RULESETS = ["platform", "knockout", "double-knockout", "fide-rapid", "group-playoff", "arena"]
"""What ``--ruleset`` takes: the rulesets' own names (:class:`shared.vocabulary.Ruleset`)."""


def register(group: click.Group) -> None:
    @group.command()
    @click.option(
        "--players",
        type=click.IntRange(2, 500),
        default=None,
        help="default 10 (4–26); fide-rapid: 30 (4–60); an arena: 20 (2–500)",
    )
    @click.option("--seed", type=int, default=2026, show_default=True, help="the simulation's random seed")
    @click.option("--tc", "time_control", default=None, help="minutes+increment (3+2; fide-rapid: 15+10)")
    @click.option("--double-rounds", is_flag=True, help="every pairing plays twice, colours swapped")
    @click.option(
        "--ruleset",
        type=click.Choice(RULESETS),
        default=None,
        show_default="platform",
        help="a platform tournament (round robin or Swiss), a knockout, an over-the-board rapid Swiss, "
        "the 4T1 group-playoff event, or an arena",
    )
    @click.option(
        "--format",
        "format_",
        type=click.Choice(RULESETS),
        default=None,
        hidden=True,
        help="deprecated: the old name of --ruleset, kept so that scripts written for it still run",
    )
    @click.option(
        "--variant",
        type=click.Choice([v.value for v in Variant]),
        default="chess",
        show_default=True,
        help="platform: chess, or a draughts variant (international 10x10, english, italian, russian)",
    )
    @OPENING_OPTION
    @click.option("--no-busy", is_flag=True, help="platform: nobody is busy elsewhere when round 2 is paired")
    @click.option(
        "--trf",
        type=click.Path(dir_okay=False, writable=True, path_type=Path),
        default=None,
        help="fide-rapid: write the final TRF-16 file there",
    )
    @click.option(
        "--minutes", type=click.IntRange(10, 480), default=30, show_default=True, help="an arena's duration"
    )
    @click.option(
        "--json",
        "as_json",
        is_flag=True,
        help="platform: one JSON document (rated, rounds, final with each player's tie-breaks, byes, "
        "tiebreaks); group-playoff: the event as one JSON document; arena: one JSON document (games, ranking)",
    )
    def demo(
        players: int | None,
        seed: int,
        time_control: str | None,
        double_rounds: bool,
        ruleset: str | None,
        format_: str | None,
        variant: str,
        opening: str,
        no_busy: bool,
        trf: Path | None,
        minutes: int,
        as_json: bool,
    ) -> None:
        """Run a whole tournament embedded: one process, simulated players, no servers. A platform
        tournament plays its variant with drawn openings, and a player is busy elsewhere in round 2."""
        from cli.demos import arena, fide_rapid, group_playoff, knockout, platform

        if ruleset is not None and format_ is not None and ruleset != format_:
            raise click.UsageError(f"--ruleset {ruleset} and --format {format_} contradict each other")
        ruleset = ruleset or format_ or "platform"
        if trf is not None and ruleset != "fide-rapid":
            raise click.UsageError("--trf goes with --ruleset fide-rapid")
        _check_opening(variant, opening, ruleset)
        if variant != Variant.CHESS.value and ruleset != "platform":
            raise click.UsageError("--variant goes with --ruleset platform")
        if ruleset == "group-playoff":
            group_playoff.run(seed, as_json)
            return
        if ruleset == "arena":
            tc = parse_time_control(time_control or "3+2")
            runner_ = arena.arena_demo(
                Console(), seed, 20 if players is None else players, minutes, tc, as_json
            )
            with tempfile.TemporaryDirectory(prefix="arbiter-demo-") as tmp:
                runner_.run(Path(tmp))
            return
        if as_json and ruleset != "platform":
            raise click.BadParameter(
                "--json is offered for --ruleset platform, --ruleset group-playoff and --ruleset arena",
                param_hint="--json",
            )
        fide = ruleset == "fide-rapid"
        low, high = (4, 60) if fide else (4, 26)
        if players is None:
            players = 30 if fide else 10
        elif not low <= players <= high:
            raise click.BadParameter(
                f"{players} is not in the range {low}<=x<={high}", param_hint="'--players'"
            )
        tc = parse_time_control(time_control or ("15+10" if fide else "3+2"))
        console = Console(quiet=as_json)
        common = (console, random.Random(seed), players, tc["base_seconds"] / 60, tc["increment_seconds"])
        runner: platform.PlatformDemo | knockout.KnockoutDemo | fide_rapid.FideRapidDemo
        if fide:
            runner = fide_rapid.FideRapidDemo(*common, trf=trf)
        elif ruleset == "platform":
            runner = platform.PlatformDemo(*common, double_rounds, variant, opening, None if no_busy else 2)
        else:
            runner = knockout.KnockoutDemo(*common, ruleset)
        with tempfile.TemporaryDirectory(prefix="arbiter-demo-") as tmp:
            runner.run(Path(tmp))
        if isinstance(runner, platform.PlatformDemo) and as_json:
            click.echo(json.dumps(runner.report, ensure_ascii=False))


def _check_opening(variant: str, opening: str, ruleset: str) -> None:
    """The opening option as registration would check it, refused with the rules' message before
    anything runs (the Italian table comes from ``ARBITER_ITALIAN_OPENINGS``)."""
    try:
        option = OpeningOption.parse(opening)
        if ruleset != "platform" and option.kind.value != "free":
            raise click.BadParameter(
                "openings are drawn in platform tournaments only", param_hint="--opening"
            )
        check_option(option, Variant(variant), italian=CommonSettings().italian_table())
    except OpeningError as exc:
        raise click.BadParameter(exc.detail, param_hint="--opening") from None
