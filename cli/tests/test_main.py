"""The command group itself: every command is found without importing the others' modules, and every
command's help states each of its options with its meaning and the environment variable it reads."""

from __future__ import annotations

import importlib
import subprocess
import sys

import click
import pytest

from cli.main import COMMAND_MODULES, COMMANDS, build_cli


def _registered(module: str) -> set[str]:
    group = click.Group()
    importlib.import_module(module).register(group)
    return set(group.commands)


@pytest.mark.parametrize("module", COMMAND_MODULES)
def test_each_modules_commands_are_listed_for_lazy_loading(module: str) -> None:
    listed = {name for name, owner in COMMANDS.items() if owner == module}
    assert _registered(module) == listed, f"COMMANDS in cli/main.py: list {module}'s commands"


def test_every_listed_module_is_a_command_module() -> None:
    assert set(COMMANDS.values()) <= set(COMMAND_MODULES)


def test_version_imports_no_command_module() -> None:
    code = (
        "import sys; from cli.main import main; rc = main(['--version']);"
        "print(sorted(m for m in sys.modules if m.startswith(('cli.', 'httpx', 'scipy', 'rich', 'shared'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.splitlines()[-1] == "['cli.errors', 'cli.main']"


def test_pair_imports_neither_the_http_client_nor_the_other_commands() -> None:
    code = (
        "import sys; from cli.main import main; main(['pair', '-h']);"
        "print(sorted(m for m in sys.modules if m.startswith(('cli.', 'httpx', 'rich', 'scipy', 'shared.events'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    loaded = eval(out.splitlines()[-1])
    assert not [m for m in loaded if m.startswith(("httpx", "rich", "scipy", "shared.events"))], loaded
    assert not {"cli.standings", "cli.demos", "cli.views", "cli.accounts"} & set(loaded), loaded


def _commands(group: click.Group, ctx: click.Context) -> list[tuple[str, click.Command]]:
    found = []
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        assert command is not None, name
        path = f"{ctx.command_path} {name}"
        found.append((path, command))
        if isinstance(command, click.Group):
            found += _commands(command, click.Context(command, info_name=name, parent=ctx))
    return found


ALL = _commands(build_cli(), click.Context(build_cli(), info_name="arbiter"))


@pytest.mark.parametrize(("path", "command"), ALL, ids=[p for p, _ in ALL])
def test_help_gives_every_option_a_meaning_and_its_environment_variable(
    path: str, command: click.Command
) -> None:
    assert command.help, f"{path}: no description"
    for param in command.params:
        if not isinstance(param, click.Option) or param.hidden:
            continue
        assert param.help, f"{path} {param.opts[0]}: no help"
        if param.envvar:
            assert param.show_envvar, f"{path} {param.opts[0]}: reads {param.envvar} but --help does not say"
