"""Run every benchmark, or the ones named on the command line: ``python -m benchmarks [name ...]``."""

from __future__ import annotations

import importlib
import sys

BENCHMARKS: tuple[str, ...] = (
    "benchmarks.startup",
    "benchmarks.dutch",
    "benchmarks.selfcheck",
    "benchmarks.standings",
    "benchmarks.arena",
    "benchmarks.clocks",
    "benchmarks.e2e",
    "benchmarks.metrics",
)


def main(argv: list[str]) -> int:
    names = argv or [name.rsplit(".", 1)[-1] for name in BENCHMARKS]
    for full in BENCHMARKS:
        short = full.rsplit(".", 1)[-1]
        if short in names:
            print(f"== {short} ==", flush=True)
            importlib.import_module(full).main()
            print(flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
