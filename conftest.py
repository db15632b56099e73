"""Test-wide setup: the servers integration and e2e tests need (see tests/servers.py)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

import shared.composition
from tests import templates
from tests.servers import Servers, ServersUnavailable, discover

pytest_plugins = [
    "tests.openapi_statuses",  # every status the tests see is in the OpenAPI documents
    "tests.timings",  # --timings: the time per directory and the slowest tests
]

_SERVER_MARKS = ("integration", "e2e")
_servers: Servers | None = None


def pytest_configure(config: pytest.Config) -> None:
    # a service built with migrate=True on an empty SQLite database gets a copy of a template its
    # migrations built once in this process, instead of running them again (tests/templates.py)
    shared.composition.upgrade = templates.upgrade


def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    global _servers
    if os.environ.get("PYTEST_XDIST_WORKER"):
        schedule(items)
    if config.option.collectonly:
        return
    if not any(item.get_closest_marker(m) for item in items for m in _SERVER_MARKS):
        return
    try:
        _servers = discover()
    except ServersUnavailable as exc:
        pytest.exit(f"\n{exc}\n(run only the fast tests with `make test-unit`)", returncode=3)


def schedule(items: list[pytest.Item]) -> None:
    """How ``make test`` shares the tests between its two pytest-xdist workers (``-n 2 --dist
    loadgroup --no-loadscope-reorder``). A module's tests stay together on one worker, so its module
    fixtures (an e2e module's worlds, a browser, a fault test's own stack) are built once; the tests
    marked ``serial`` all go to one worker, one after the other. The e2e modules go first, then the
    serial group (the Chromium pages, a minute), then the other server tests: the longest tests
    (minutes of real time each) start while the other worker works through quick ones, and the run
    does not end waiting on one of them. Each worker has its own servers' databases, vhosts, Redis
    prefix and e2e stack (its run id, tests/servers.py)."""
    for item in items:
        group = "serial" if item.get_closest_marker("serial") else item.nodeid.split("::", 1)[0]
        item.add_marker(pytest.mark.xdist_group(name=group))

    def kind(item: pytest.Item) -> int:
        for rank, mark in enumerate(("e2e", "serial", "integration")):
            if item.get_closest_marker(mark):
                return rank
        return 3

    module: dict[str, int] = {}
    for item in items:
        path = item.nodeid.split("::", 1)[0]
        module[path] = min(module.get(path, 3), kind(item))
    items.sort(key=lambda item: module[item.nodeid.split("::", 1)[0]])  # stable: a module stays whole


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if _servers is not None:
        _servers.cleanup()


@pytest.fixture(scope="session")
def servers() -> Iterator[Servers]:
    if _servers is None:
        pytest.skip("no servers were resolved for this run")
    yield _servers


@pytest.fixture(scope="session", autouse=True)
def _cli_state_of_the_run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The command line's login and held roster revisions (cli/config.py, cli/revisions.py) of every test
    that runs it are this run's, never in the home of whoever runs the tests (cli/tests: each test's own)."""
    before = os.environ.get("ARBITER_CONFIG")
    os.environ["ARBITER_CONFIG"] = str(tmp_path_factory.mktemp("arbiter-cli") / "config.json")
    yield
    if before is None:
        os.environ.pop("ARBITER_CONFIG", None)
    else:
        os.environ["ARBITER_CONFIG"] = before
