"""One word, one thing (issue 24 item 2, docs/glossary.md).

Within one service's domain together with ``shared/``, no class name is defined twice: a reader who meets
``Stage`` or ``Decided`` there finds one class. Two exceptions, both a service owning its own copy:

- a domain event in ``services/<svc>/domain/events.py`` and the wire contract of the same name in
  ``shared/events/`` that mirrors it (the contract is what the bus carries, the domain event what the
  aggregate records);
- each service's own ``Tournament``, since every service owns its tournament.

The glossary names the words, one line per term, and the classes it names exist.
"""

from __future__ import annotations

import ast
import importlib
import re
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SERVICES = ("registration", "pairing", "clocks", "standings")
GLOSSARY = ROOT / "docs" / "glossary.md"


def classes(root: Path, top: Path) -> dict[str, list[str]]:
    """Every class defined under ``top`` (at any depth of a module, tests and migrations left out), by
    name: where each one is, relative to ``root``."""
    found: dict[str, list[str]] = defaultdict(list)
    for path in sorted(top.rglob("*.py")):
        parts = path.relative_to(root).parts
        if "tests" in parts or "migrations" in parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                found[node.name].append(path.relative_to(root).as_posix())
    return found


def defined_twice(root: Path, service: str) -> dict[str, list[str]]:
    """The class names ``service``'s domain and ``shared/`` define more than once, the two exceptions
    applied: where each is defined."""
    own = classes(root, root / "services" / service / "domain")
    shared = classes(root, root / "shared")
    events = f"services/{service}/domain/events.py"
    twice = {}
    for name in sorted(set(own) | set(shared)):
        places = own.get(name, []) + shared.get(name, [])
        if events in places and any(p.startswith("shared/events/") for p in places):
            places = [p for p in places if p != events]  # a domain event and its wire contract
        if name == "Tournament":
            ours = [p for p in places if p.startswith(f"services/{service}/domain/")]
            if len(ours) == 1:
                places = [p for p in places if p not in ours]  # the service's own
        if len(places) > 1:
            twice[name] = places
    return twice


@pytest.mark.parametrize("service", SERVICES)
def test_no_class_name_is_defined_twice_in_a_domain_with_shared(service: str) -> None:
    assert classes(ROOT, ROOT / "services" / service / "domain"), service  # the domain was found
    assert defined_twice(ROOT, service) == {}


def test_the_rule_sees_a_name_defined_twice_and_lets_the_exceptions_be(tmp_path: Path) -> None:
    """The check itself: a tie-break ``Stage`` in shared/ and a 4T1 ``Stage`` in a domain are caught (and
    so is a name a domain defines twice); an event and its wire contract, and the service's own
    ``Tournament``, are not."""
    files = {
        "services/svc/domain/events.py": "class GameFinished: ...\nclass Stage: ...\n",
        "services/svc/domain/match.py": "class Match:\n    class Inner: ...\nclass Tournament: ...\n",
        "services/svc/domain/other.py": "class Inner: ...\n",
        "services/svc/domain/tests/test_x.py": "class Match: ...\n",
        "shared/events/clocks.py": "class GameFinished: ...\n",
        "shared/time_control.py": "class Stage: ...\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    assert defined_twice(tmp_path, "svc") == {
        "Inner": ["services/svc/domain/match.py", "services/svc/domain/other.py"],
        "Stage": ["services/svc/domain/events.py", "shared/time_control.py"],
    }


def glossary_rows() -> list[list[str]]:
    rows = []
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        if line.startswith("| ") and not line.startswith("| term ") and not line.startswith("|--"):
            rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return rows


def test_the_glossary_has_one_line_per_term() -> None:
    rows = glossary_rows()
    assert len(rows) > 40  # the table was found
    assert all(len(row) == 4 for row in rows), [row for row in rows if len(row) != 4]
    terms = [row[0].lower() for row in rows]
    assert sorted(t for t in set(terms) if terms.count(t) > 1) == []


def test_the_classes_the_glossary_names_exist() -> None:
    """A name in the glossary's code column (``shared.authority.Decided``) is importable: a rename that
    forgets the glossary fails here."""
    named = {
        ref
        for row in glossary_rows()
        for ref in re.findall(r"`([a-z_][a-z0-9_.]*\.[A-Z][A-Za-z0-9]*)`", row[3])
    }
    assert len(named) > 40
    missing = []
    for ref in sorted(named):
        module, _, name = ref.rpartition(".")
        if not hasattr(importlib.import_module(module), name):
            missing.append(ref)
    assert missing == []


def test_double_knockout_has_one_spelling_in_python() -> None:
    """``DoubleKnockout``, ``double_knockout``, ``DOUBLE_KNOCKOUT``: the one spelling in each case. The
    wire values differ by enum (``Ruleset``'s ``double-knockout`` like every ruleset name, ``System``'s and
    ``BracketFormat``'s ``double_knockout``) and stay so: they are stored and sent (docs/glossary.md)."""
    from shared.vocabulary import BracketFormat, Ruleset, System

    for enum in (Ruleset, System, BracketFormat):
        assert {"KNOCKOUT", "DOUBLE_KNOCKOUT"} <= set(enum.__members__), enum
    assert {System(f.value) for f in BracketFormat} == {System.KNOCKOUT, System.DOUBLE_KNOCKOUT}
    spelled = set()
    for top in ("services", "shared", "cli", "tests", "benchmarks"):
        for path in (ROOT / top).rglob("*.py"):
            spelled |= set(re.findall(r"\b\w*double_?k(?:nock_?out|o)\w*\b", path.read_text(), flags=re.I))
    odd = {s for s in spelled if not re.search(r"DoubleKnockout|double_knockout|DOUBLE_KNOCKOUT", s)}
    assert odd == set()
