"""The `arbiter` command line: one click group, one module per family of commands.

Each command module exposes ``register(group)`` and is listed in ``COMMAND_MODULES``.
Nothing is wired at import time beyond building the click group in :func:`build_cli`.
"""

from __future__ import annotations

import importlib
import sys

import click

COMMAND_MODULES: tuple[str, ...] = (
    "cli.client",
    "cli.officials",
    "cli.rulings",
    "cli.boards",
    "cli.roundrobin",
    "cli.bracket",
    "cli.standings",
    "cli.pair",
    "cli.demo",
    "cli.dlq",
)


def build_cli() -> click.Group:
    @click.group(context_settings={"help_option_names": ["-h", "--help"]})
    @click.version_option(package_name="arbiter")
    def arbiter() -> None:
        """Arbiter: tournaments for chess and draughts."""

    for name in COMMAND_MODULES:
        importlib.import_module(name).register(arbiter)
    return arbiter


def main(argv: list[str] | None = None) -> int:
    cli = build_cli()
    try:
        cli.main(args=argv, prog_name="arbiter", standalone_mode=True)
    except SystemExit as exc:  # click exits with the command's code
        return int(exc.code or 0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
