"""``--timings``: where a run's time went, printed at its end — the time its tests took in each
directory (``tests/e2e``, ``services/pairing/tests/unit``, ``shared/tests``, …: setup, call and
teardown added up) and the slowest tests, each with its setup (module fixtures, stacks) included.

Under pytest-xdist every worker's reports reach the controller through ``pytest_runtest_logreport``,
which is where they are added up, so the table covers the whole run; with two workers the directories'
seconds add up to about twice the wall-clock time."""

from __future__ import annotations

import time
from collections import defaultdict
from dataclasses import dataclass, field

import pytest

SLOWEST = 25


@dataclass
class Timings:
    started: float = field(default_factory=time.monotonic)
    by_directory: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    tests: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    by_test: dict[str, float] = field(default_factory=lambda: defaultdict(float))

    def add(self, report: pytest.TestReport) -> None:
        directory = directory_of(report.nodeid)
        self.by_directory[directory] += report.duration
        self.tests[directory].add(report.nodeid)
        self.by_test[report.nodeid] += report.duration

    def lines(self) -> list[str]:
        wall = time.monotonic() - self.started
        total = sum(self.by_directory.values())
        out = [f"{'directory':<44} {'tests':>6} {'seconds':>9} {'share':>6}"]
        for directory, seconds in sorted(self.by_directory.items(), key=lambda kv: -kv[1]):
            share = seconds / total if total else 0.0
            out.append(f"{directory:<44} {len(self.tests[directory]):>6} {seconds:>9.1f} {share:>6.0%}")
        count = sum(len(t) for t in self.tests.values())
        out.append(f"{'all (test time)':<44} {count:>6} {total:>9.1f}")
        out.append(f"{'wall clock':<44} {'':>6} {wall:>9.1f}")
        out.append("")
        out.append(f"the {SLOWEST} slowest tests (setup, call and teardown):")
        slowest = sorted(self.by_test.items(), key=lambda kv: -kv[1])[:SLOWEST]
        out.extend(f"{seconds:9.1f}s  {nodeid}" for nodeid, seconds in slowest)
        return out


def directory_of(nodeid: str) -> str:
    """``services/pairing/tests/unit/test_x.py::t`` → ``services/pairing/tests/unit``;
    ``tests/e2e/test_x.py::t`` → ``tests/e2e``; ``tests/test_x.py::t`` → ``tests``."""
    parts = nodeid.split("::", 1)[0].split("/")[:-1]
    depth = 4 if parts[:1] == ["services"] else 2
    return "/".join(parts[:depth]) or "."


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.getgroup("terminal reporting").addoption(
        "--timings",
        action="store_true",
        default=False,
        help="at the end, the time per test directory and the slowest tests (make test sets it)",
    )


def pytest_configure(config: pytest.Config) -> None:
    # the controller (or a run without xdist) adds up; an xdist worker only sends its reports
    if config.getoption("timings") and not hasattr(config, "workerinput"):
        config.pluginmanager.register(TimingsReporter(), "arbiter-timings")


class TimingsReporter:
    def __init__(self) -> None:
        self.timings = Timings()

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.timings.add(report)

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        terminalreporter.section("time per directory")
        for line in self.timings.lines():
            terminalreporter.write_line(line)
