"""Every status an endpoint answers in the tests is in its service's OpenAPI document.

A pytest plugin (the root conftest.py loads it): while the tests run, every request a service's Flask
app answers in this process (the services' API tests, the integration tests, the embedded stack of
the CLI and the demo; the e2e stack's gunicorn processes are out of its sight) is recorded as
(service, method, route, status), through Flask's ``request_finished`` signal. At the end of the
session each is looked up in the service's own ``/openapi.json``; a status the document does not list
for that operation fails the run, naming it. The routes outside the document (health probes, metrics,
the docs page, the public HTML pages) are left out, and so are 5xx answers (a fault, not an API answer)
and the apps tests build for themselves.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import pytest
from flask import Flask, Response, request_finished
from flask import request as current_request
from flask_openapi3.openapi import OpenAPI

from shared.http.openapi import document_problems, openapi_path, short_operation_ids

SERVICES = frozenset(
    f"services.{s}.entrypoints.app" for s in ("registration", "pairing", "clocks", "standings")
)
Key = tuple[str, str, str]  # the service's app module, method, OpenAPI path

_seen: dict[Key, set[int]] = defaultdict(set)
_documented: dict[str, dict[str, Any]] = {}  # the service's app module -> its OpenAPI paths


def _record(sender: Flask, response: Response, **_: Any) -> None:
    rule = current_request.url_rule
    if rule is None or not isinstance(sender, OpenAPI) or response.status_code >= 500:
        return
    service = sender.import_name
    if service not in SERVICES:  # a test's own app
        return
    if service not in _documented:  # the document /openapi.json serves
        document = document_problems(short_operation_ids(sender.api_doc, sender.url_map.iter_rules()))
        _documented[service] = document["paths"]
    path = openapi_path(rule.rule)
    if path in _documented[service]:
        _seen[(service, current_request.method.lower(), path)].add(response.status_code)


def undocumented() -> list[str]:
    """``service METHOD path: status`` for each status answered but not documented."""
    missing = []
    for (service, method, path), statuses in sorted(_seen.items()):
        operation = _documented[service][path].get(method)
        listed = set() if operation is None else {int(s) for s in operation["responses"] if s.isdigit()}
        missing += [f"{service}: {method.upper()} {path} answered {s}" for s in sorted(statuses - listed)]
    return missing


def seen() -> dict[Key, set[int]]:
    return _seen


_from_workers: list[str] = []  # pytest-xdist: what each worker found, gathered by the controller


def pytest_sessionstart(session: pytest.Session) -> None:
    request_finished.connect(_record)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    _from_workers.extend(getattr(node, "workeroutput", {}).get("openapi_undocumented", []))


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    request_finished.disconnect(_record)
    missing = undocumented()
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:  # an xdist worker: the controller reports
        workeroutput["openapi_undocumented"] = missing
        return
    missing = sorted(set(missing) | set(_from_workers))
    if missing:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.write_sep("=", "statuses the tests saw that the OpenAPI documents do not list", red=True)
            reporter.write_line("\n".join(missing))
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
