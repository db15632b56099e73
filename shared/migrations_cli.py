"""Create a new migration for a service by comparing its tables with an empty or current database
(developer tool): ``python -m shared.migrations_cli registration "add foo"``."""

from __future__ import annotations

import importlib
import sys
import tempfile
from pathlib import Path

from alembic import command

from shared.database import alembic_config, make_engine, upgrade


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python -m shared.migrations_cli SERVICE MESSAGE", file=sys.stderr)
        return 2
    service, message = argv
    migrations = Path(importlib.import_module(f"services.{service}").__file__ or "").parent / "migrations"
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/autogen.sqlite"
        engine = make_engine(url)
        upgrade(migrations, engine)
        cfg = alembic_config(migrations, url)
        command.revision(cfg, message=message, autogenerate=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
