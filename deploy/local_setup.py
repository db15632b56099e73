"""`make dev` runs this first: create each service's database on the local PostgreSQL if it is
missing, then migrate all four. Settings come from the same environment variables as the services."""

from __future__ import annotations

import importlib
import sys

import sqlalchemy as sa

SERVICES = ("registration", "pairing", "clocks", "standings")


def main() -> int:
    from shared.database import make_engine, upgrade

    for name in SERVICES:
        config = importlib.import_module(f"services.{name}.config")
        settings_cls = next(
            getattr(config, attr)
            for attr in dir(config)
            if attr.endswith("Settings") and attr != "CommonSettings"
        )
        url = sa.make_url(settings_cls().database_url)
        if url.get_backend_name() == "postgresql":
            admin = sa.create_engine(url.set(database="postgres"), isolation_level="AUTOCOMMIT")
            with admin.connect() as conn:
                exists = conn.execute(
                    sa.text("SELECT 1 FROM pg_database WHERE datname = :d"), {"d": url.database}
                ).first()
                if not exists:
                    conn.execute(sa.text(f'CREATE DATABASE "{url.database}"'))
                    print(f"created database {url.database}")
            admin.dispose()
        bootstrap = importlib.import_module(f"services.{name}.bootstrap")
        upgrade(bootstrap.MIGRATIONS, make_engine(url.render_as_string(hide_password=False)))
        print(f"{name}: migrated")
    return 0


if __name__ == "__main__":
    sys.exit(main())
