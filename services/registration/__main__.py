"""``python -m services.registration migrate|consumer|relay|scheduler``."""

from __future__ import annotations

import sys

from services.registration.bootstrap import MIGRATIONS, bootstrap
from services.registration.service_layer.commands import StartDueTournaments
from shared.database import upgrade
from shared.runtime import configure_logging, every, run_until_signalled


def main(argv: list[str]) -> int:
    if len(argv) != 1 or argv[0] not in ("migrate", "consumer", "relay", "scheduler"):
        print("usage: python -m services.registration migrate|consumer|relay|scheduler", file=sys.stderr)
        return 2
    svc = bootstrap()
    level = svc.settings.log_level
    match argv[0]:
        case "migrate":
            configure_logging(level)
            upgrade(MIGRATIONS, svc.engine)
            return 0
        case "consumer":
            return run_until_signalled(
                "registration-consumer", lambda stop: svc.broker.consume(svc.subscriptions, stop), level=level
            )
        case "relay":
            return run_until_signalled("registration-relay", lambda stop: svc.relay.run(stop), level=level)
        case _:
            return run_until_signalled(
                "registration-scheduler",
                lambda stop: every(
                    svc.settings.scheduler_poll_seconds,
                    lambda: svc.bus.handle(StartDueTournaments()),
                    stop,
                    name="registration-scheduler",
                ),
                level=level,
            )


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
