"""Pairing's adapters share their SQL helpers through public names only: a repository that imports
another module's private helper breaks when that module renames it, and readers take it for internal."""

from __future__ import annotations

import ast
from pathlib import Path

ADAPTERS = Path(__file__).resolve().parents[2] / "adapters"


def private_imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    return [
        f"{node.module}.{alias.name}"
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("services.")
        for alias in node.names
        if alias.name.startswith("_")
    ]


def test_no_adapter_imports_a_private_name_of_another_module():
    modules = sorted(ADAPTERS.glob("*.py"))
    assert any(p.name == "group_playoffs.py" for p in modules)
    found = {p.name: names for p in modules if (names := private_imports(p))}
    assert found == {}
