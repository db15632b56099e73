"""Test-wide setup: the servers integration and e2e tests need (see tests/servers.py)."""

from __future__ import annotations

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
    if config.option.collectonly:
        return
    if not any(item.get_closest_marker(m) for item in items for m in _SERVER_MARKS):
        return
    try:
        _servers = discover()
    except ServersUnavailable as exc:
        pytest.exit(f"\n{exc}\n(run only the fast tests with `make test-unit`)", returncode=3)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if _servers is not None:
        _servers.cleanup()


@pytest.fixture(scope="session")
def servers() -> Iterator[Servers]:
    if _servers is None:
        pytest.skip("no servers were resolved for this run")
    yield _servers
