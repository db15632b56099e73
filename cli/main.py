"""The `arbiter` command line: one click group, one module per family of commands.

Each command module exposes ``register(group)`` and is listed in ``COMMAND_MODULES``; the names of
the commands it registers are listed in ``COMMANDS``. A command's module is imported when the command
runs (or when ``arbiter -h`` lists them all), so ``arbiter --version`` imports no command module and
``arbiter pair`` none of the HTTP client's or the services' libraries (``make bench`` prints the start-up
times). A module whose commands are not in ``COMMANDS`` is imported at start-up, which works but is
slow: ``cli/tests/test_main.py`` says which names to add.

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
    "cli.accounts",
    "cli.client",
    "cli.views",
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
    "cli.demos.command",
    "cli.arena",
    "cli.group_playoff",
    "cli.knockouts",
    "cli.dlq",
)

# command name -> the module that registers it (kept complete by cli/tests/test_main.py)
COMMANDS: dict[str, str] = {
    **dict.fromkeys(("account", "login", "logout"), "cli.accounts"),
    **dict.fromkeys(("create", "invite", "join", "report", "token"), "cli.client"),
    **dict.fromkeys(("show", "games"), "cli.views"),
    **dict.fromkeys(("appoint", "audit", "revoke", "withdraw"), "cli.officials"),
    **dict.fromkeys(("players", "start"), "cli.roster"),
    **dict.fromkeys(("bye", "correct"), "cli.rulings"),
    **dict.fromkeys(("absent", "penalty", "result"), "cli.boards"),
    "roundrobin": "cli.roundrobin",
    "bracket": "cli.bracket",
    **dict.fromkeys(("crosstable", "standings", "trf"), "cli.standings"),
    **dict.fromkeys(("excuse", "pair"), "cli.pair"),
    "check": "cli.check",
    "generate": "cli.generate",
    "demo": "cli.demos.command",
    **dict.fromkeys(("arena", "boost", "leave", "pause"), "cli.arena"),
    "group-playoff": "cli.group_playoff",
    **dict.fromkeys(("publish", "reset", "seeding", "swap-colours"), "cli.knockouts"),
    "export": "cli.exports",
    "dlq": "cli.dlq",
}


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

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        module = COMMANDS.get(cmd_name)
        if cmd_name not in self.commands and module is not None:
            importlib.import_module(module).register(self)  # all the module's commands at once
        return self.commands.get(cmd_name)


def build_cli() -> click.Group:
    @click.group(cls=ArbiterGroup, context_settings={"help_option_names": ["-h", "--help"]})
    @click.version_option(package_name="arbiter")
    def arbiter() -> None:
        """Arbiter: tournaments for chess and draughts."""

    lazy = set(COMMANDS.values())
    for name in COMMAND_MODULES:
        if name not in lazy:
            importlib.import_module(name).register(arbiter)
    return arbiter


def main(argv: list[str] | None = None) -> int:
    cli = build_cli()
    assert isinstance(cli, ArbiterGroup)
    return cli.main(args=argv, prog_name="arbiter", standalone_mode=False)


if __name__ == "__main__":
    sys.exit(main())
