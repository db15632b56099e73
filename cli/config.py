"""Where ``arbiter login`` keeps who you are: a small JSON file, read by every command that talks to
the stack when neither ``--token`` nor ``ARBITER_TOKEN`` gives a token.

The file is ``ARBITER_CONFIG`` when set, else ``$XDG_CONFIG_HOME/arbiter/config.json`` (by default
``~/.config/arbiter/config.json``); it holds ``{"token": ..., "account_id": ..., "name": ...}`` and is
written readable by its owner only (mode 600), as the token is a bearer credential.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from cli.errors import CliError

CONFIG_ENV = "ARBITER_CONFIG"


def config_path() -> Path:
    given = os.environ.get(CONFIG_ENV)
    if given:
        return Path(given).expanduser()
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "arbiter" / "config.json"


def load() -> dict[str, Any]:
    """The saved login, or ``{}`` when there is none; a file that is no JSON object is a user error."""
    path = config_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise CliError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    if not isinstance(data, dict):
        raise CliError(f"{path}: not an arbiter login file (a JSON object); remove it or `arbiter logout`")
    return data


def saved_token() -> str | None:
    token = load().get("token")
    return token if isinstance(token, str) and token else None


def save(data: dict[str, Any]) -> Path:
    path = config_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(data, out, indent=2)
            out.write("\n")
        path.chmod(0o600)
    except OSError as exc:
        raise CliError(f"cannot write {path}: {exc.strerror or exc}") from None
    return path


def forget() -> Path | None:
    """Remove the saved login; its path, or None when there was none."""
    path = config_path()
    try:
        path.unlink()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise CliError(f"cannot remove {path}: {exc.strerror or exc}") from None
    return path
