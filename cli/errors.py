"""How every ``arbiter`` command reports a failure: one line on standard error, ``Error: ...``
(the file and line first where there is one), and an exit status (2 for a user mistake)."""

from __future__ import annotations

from typing import IO, Any

import click

USER_ERROR = 2


class CliError(click.ClickException):
    """A user mistake: exit status 2."""

    exit_code = USER_ERROR

    def show(self, file: IO[Any] | None = None) -> None:
        report(self)


class CommandFailed(CliError):
    """The input is right but the command cannot do its work (no valid pairing): exit status 1."""

    exit_code = 1


def report(exc: click.ClickException) -> None:
    """Print any click error in the one format: a usage mistake also says where help is."""
    message = exc.format_message()
    if isinstance(exc, click.UsageError) and exc.ctx is not None:
        message = f"{message.rstrip('.')}. See '{exc.ctx.command_path} -h'."
    click.echo(f"Error: {message}", err=True)
