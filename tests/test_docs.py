"""The docs describe what exists: every public event is in docs/events.md, and the README's
commands are real Makefile targets."""

from __future__ import annotations

import re
from pathlib import Path

from shared.events import registered

ROOT = Path(__file__).resolve().parent.parent


def public_events():
    """Every registered event but the internal ones (a service's own, e.g. pairing.round_due)."""
    return {key: model for key, model in registered().items() if not model.INTERNAL}


def test_every_event_is_documented():
    text = (ROOT / "docs/events.md").read_text()
    documented = set(re.findall(r"^\| `([a-z_]+\.[a-z_.]+)` \|", text, flags=re.M))
    assert documented == {t for t, _ in public_events()}


def test_every_event_payload_field_is_documented():
    text = (ROOT / "docs/events.md").read_text()
    for (kind, _), model in public_events().items():
        row = next(line for line in text.splitlines() if line.startswith(f"| `{kind}` |"))
        for name in model.model_fields:
            assert re.search(rf"\b{name}\b", row), f"{kind}: field {name} is not in docs/events.md"


def test_every_endpoint_is_in_docs_api(tmp_path):
    from cli.embedded import EmbeddedStack

    text = (ROOT / "docs/api.md").read_text()
    stack = EmbeddedStack.create(tmp_path)
    try:
        for name, client in stack.api.items():
            doc = client.client.get("/openapi.json").get_json()
            assert doc["paths"], name
            for path, operations in doc["paths"].items():
                for method in operations:
                    assert f"`{method.upper()} {path}" in text or (
                        method == "get" and f"`GET {path}[" in text
                    ), f"{name}: {method.upper()} {path} is not in docs/api.md"
    finally:
        stack.close()


def test_every_metric_is_in_docs_operations(tmp_path):
    """docs/operations.md lists every metric: Arbiter's own (shared/metrics.py) and the HTTP ones the
    exporter adds to each web app, as a scrape of a web app shows them."""
    from cli.embedded import EmbeddedStack
    from shared.metrics import ALL

    text = (ROOT / "docs/operations.md").read_text()
    documented = set(re.findall(r"^\| `(arbiter_[a-z_]+)` \|", text, flags=re.M))
    own = {m._name + ("_total" if m._type == "counter" else "") for m in ALL}
    stack = EmbeddedStack.create(tmp_path)
    try:
        client = stack.api["clocks"].client
        client.get("/openapi.json")
        scraped = client.get("/metrics").get_data(as_text=True)
    finally:
        stack.close()
    http = set(re.findall(r"^# TYPE (arbiter_\w+) (\w+)$", scraped, flags=re.M))
    http_names = {
        name + ("_total" if kind == "counter" and not name.endswith("_total") else "") for name, kind in http
    }
    assert "arbiter_http_request_duration_seconds" in http_names
    assert documented == own | http_names


def test_every_command_is_in_the_readme():
    """Each command of the `arbiter` command line is shown at work in the README (issue 22: the knockout's
    publish, reset, seeding and swap-colours were reachable over HTTP only)."""
    from cli.main import COMMANDS

    text = (ROOT / "README.md").read_text()
    missing = [name for name in sorted(COMMANDS) if not re.search(rf"\barbiter {re.escape(name)}\b", text)]
    assert not missing, f"README.md shows no `arbiter COMMAND` for: {', '.join(missing)}"
