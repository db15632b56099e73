"""Test-wide setup: the servers integration and e2e tests need (see tests/servers.py)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.servers import Servers, ServersUnavailable, discover

pytest_plugins = ["tests.openapi_statuses"]  # every status the tests see is in the OpenAPI documents

_SERVER_MARKS = ("integration", "e2e")
_servers: Servers | None = None


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
