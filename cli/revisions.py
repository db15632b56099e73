"""The roster revisions the command line holds, so that what it asks pairing follows what registration
answered it (docs/api.md, "Causal commands").

Registration answers every command about a tournament with the tournament's **roster revision**
(``Roster-Revision``): the roster changes published so far, the command's own included. The client
(:class:`cli.client.Api`) keeps the latest one of each tournament here, and ``arbiter pair`` names it to
pairing, which waits until it has heard that far: a player withdrawn a moment ago is left out of the very
next pairing.

The file is ``revisions.json`` beside the login file (:mod:`cli.config`: ``ARBITER_CONFIG``, by default
``~/.config/arbiter/``): ``{tournament id: revision}``, the latest :data:`KEPT` tournaments. Keeping it is
a courtesy: a file that cannot be read or written is left alone (the command worked; a later pairing then
names no revision, as before).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from cli.config import config_path

KEPT = 200  # tournaments: the oldest are forgotten first


def revisions_path() -> Path:
    return config_path().with_name("revisions.json")


def _load() -> dict[str, int]:
    try:
        data = json.loads(revisions_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, int) and v >= 0}


def held(tournament_id: str) -> int | None:
    """The latest roster revision registration answered about the tournament; None: none held."""
    return _load().get(tournament_id.lower())


def remember(tournament_id: str, revision: int) -> None:
    """Keep ``revision`` for the tournament (a later, higher one replaces it; a lower one never does)."""
    key = tournament_id.lower()
    known = _load()
    if known.get(key, -1) >= revision:
        return
    known.pop(key, None)
    known[key] = revision  # the latest last: the oldest are the first forgotten
    kept = dict(list(known.items())[-KEPT:])
    path = revisions_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f".{path.name}.{os.getpid()}")
        temporary.write_text(json.dumps(kept, indent=1) + "\n", encoding="utf-8")
        temporary.replace(path)  # whole or not at all, whatever runs at the same time
    except OSError:
        return
