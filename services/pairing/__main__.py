"""``python -m services.pairing migrate|consumer|worker|relay``."""

from __future__ import annotations

import sys

from services.pairing.bootstrap import MIGRATIONS, bootstrap
from shared.database import upgrade
from shared.runtime import configure_logging, run_until_signalled

COMMANDS = ("migrate", "consumer", "worker", "relay")


def main(argv: list[str]) -> int:
    if len(argv) != 1 or argv[0] not in COMMANDS:
        print(f"usage: python -m services.pairing {'|'.join(COMMANDS)}", file=sys.stderr)
        return 2
    svc = bootstrap()
    level = svc.settings.log_level
    match argv[0]:
        case "migrate":
            configure_logging(level)
            upgrade(MIGRATIONS, svc.engine)
            return 0
        case "consumer":
            subs = svc.subscriptions
        case "worker":
            subs = svc.worker_subscriptions
        case _:
            return run_until_signalled("pairing-relay", lambda stop: svc.relay.run(stop), level=level)
    return run_until_signalled(f"pairing-{argv[0]}", lambda stop: svc.broker.consume(subs, stop), level=level)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
