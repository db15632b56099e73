from services.standings.adapters.orm import metadata
from shared.database import run_migrations_env

run_migrations_env(metadata)
