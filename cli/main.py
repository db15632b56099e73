"""The `arbiter` command line: one click group, one module per family of commands.

Each command module exposes ``register(group)`` and is listed in ``COMMAND_MODULES``.
Nothing is wired at import time beyond building the click group in :func:`build_cli`.

Every command reports errors the same way (:mod:`cli.errors`): one ``Error: ...`` line on
standard error and an exit status, 2 for a user mistake; click's own usage errors included.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence
from typing import Any

import click

from cli.errors import report

COMMAND_MODULES: tuple[str, ...] = (
    "cli.client",
    "cli.officials",
    "cli.roster",
    "cli.rulings",
    "cli.boards",
    "cli.roundrobin",
    "cli.bracket",
    "cli.standings",
    "cli.exports",
    "cli.pair",
    "cli.check",
    "cli.generate",
    "cli.demo",
    "cli.arena",
    "cli.group_playoff",
    "cli.dlq",
)


class ArbiterGroup(click.Group):
    """A click group whose errors, its own included, all take the one format."""

    def main(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> int:
        try:
            returned = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
            code = returned if isinstance(returned, int) else 0
        except click.ClickException as exc:
            report(exc)
            code = exc.exit_code
        except click.exceptions.Abort:
            click.echo("Error: aborted", err=True)
            code = 1
        except SystemExit as exc:  # a command that exits by itself
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        if standalone_mode:
            sys.exit(code)
        return code


def build_cli() -> click.Group:
    @click.group(cls=ArbiterGroup, context_settings={"help_option_names": ["-h", "--help"]})
    @click.version_option(package_name="arbiter")
    def arbiter() -> None:
        """Arbiter: tournaments for chess and draughts."""

    for name in COMMAND_MODULES:
        importlib.import_module(name).register(arbiter)
    return arbiter


def main(argv: list[str] | None = None) -> int:
    cli = build_cli()
    assert isinstance(cli, ArbiterGroup)
    return cli.main(args=argv, prog_name="arbiter", standalone_mode=False)


if __name__ == "__main__":
    sys.exit(main())
