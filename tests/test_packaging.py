"""What ships: the wheel and the image hold Arbiter's code, not its tests; the runtime dependencies are
the ones the processes import (tools for `make dev` and the tests are in the ``dev`` extra)."""

from __future__ import annotations

import tomllib
from pathlib import Path

from setuptools import find_packages

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_no_test_package_is_in_the_wheel() -> None:
    found = PYPROJECT["tool"]["setuptools"]["packages"]["find"]
    packages = find_packages(str(ROOT), include=found["include"], exclude=found["exclude"])
    assert "cli" in packages and "services.registration.domain" in packages and "shared.testing" in packages
    assert [p for p in packages if "tests" in p.split(".")] == []


def test_no_test_is_in_the_image() -> None:
    ignored = (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
    assert {"**/tests", "tests", "benchmarks"} <= set(ignored)


def test_tools_of_make_dev_and_the_tests_are_extras() -> None:
    def names(requirements: list[str]) -> set[str]:
        return {r.split(">")[0].split("=")[0].split("[")[0].strip().lower() for r in requirements}

    runtime = names(PYPROJECT["project"]["dependencies"])
    dev = names(PYPROJECT["project"]["optional-dependencies"]["dev"])
    assert {"honcho", "pyyaml", "pytest"} <= dev
    assert not {"honcho", "pyyaml", "pytest", "types-pyyaml", "types-redis"} & runtime
