"""``python -m services.clocks migrate|consumer|relay|ticker``."""

from __future__ import annotations

import sys

from services.clocks.bootstrap import MIGRATIONS, bootstrap
from services.clocks.entrypoints.ticker import Ticker
from shared.database import upgrade
from shared.runtime import configure_logging, every, run_until_signalled


def main(argv: list[str]) -> int:
    if len(argv) != 1 or argv[0] not in ("migrate", "consumer", "relay", "ticker"):
        print("usage: python -m services.clocks migrate|consumer|relay|ticker", file=sys.stderr)
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
                "clocks-consumer", lambda stop: svc.broker.consume(svc.subscriptions, stop), level=level
            )
        case "relay":
            return run_until_signalled("clocks-relay", lambda stop: svc.relay.run(stop), level=level)
        case _:
            ticker = Ticker(
                svc.bus, svc.clock, sweep_seconds=svc.settings.sweep_seconds, limit=svc.settings.tick_batch
            )
            return run_until_signalled(
                "clocks-ticker",
                lambda stop: every(svc.settings.tick_seconds, ticker.tick, stop, name="clocks-ticker"),
                level=level,
            )


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
