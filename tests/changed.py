"""``make test-changed``: the tests of what a change touches, first.

The change is what the branch changed since it left ``main`` (``git diff main...HEAD``) and what is not
committed yet (staged, unstaged, untracked). ``python -m tests.changed`` prints the pytest runs it
takes, one per line, in order:

- ``services/<name>/...`` → ``services/<name>/tests``; ``cli/...`` → ``cli/tests``;
- a test module → itself; another file under ``tests/`` → its directory's tests;
- ``deploy/`` → ``tests/test_deploy.py``; a Markdown file → ``tests/test_docs.py`` (the README also
  ``tests/e2e/test_quickstart.py``, which runs its blocks);
- ``shared/`` (every service builds on it), the root ``conftest.py``, ``pyproject.toml``, the pinned
  requirements or the ``Makefile`` → what the others give and ``shared/tests`` first, then a second
  run of everything else.

Nothing changed: no line, no run.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EVERYTHING = ("shared", "services", "cli", "tests")  # pyproject's testpaths
WHOLE_RUN = ("conftest.py", "pyproject.toml", "Makefile")


def changed_files(base: str = "main") -> list[str]:
    def git(*args: str) -> list[str]:
        done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True)
        return [line for line in done.stdout.splitlines() if line]

    files = git("diff", "--name-only", f"{base}...HEAD")
    files += git("diff", "--name-only", "HEAD")  # staged and unstaged
    files += git("ls-files", "--others", "--exclude-standard")
    return sorted(set(files))


def runs(files: Iterable[str]) -> list[list[str]]:
    """The pytest paths to run, run by run, for a change to ``files``."""
    first: list[str] = []
    everything = False

    def add(path: str) -> None:
        if path not in first and (ROOT / path).exists():
            first.append(path)

    for name in files:
        parts = name.split("/")
        if parts[0] == "services" and len(parts) > 2:
            add(f"services/{parts[1]}/tests")
        elif parts[0] == "cli":
            add("cli/tests")
        elif parts[0] == "shared":
            if parts[1:2] == ["tests"]:
                add("shared/tests")
            everything = everything or parts[1:2] != ["tests"]
        elif parts[0] == "tests" and len(parts) > 1:
            is_test = parts[-1].startswith("test_") and parts[-1].endswith(".py")
            add(name if is_test else "/".join(parts[:-1]))
        elif parts[0] == "deploy":
            add("tests/test_deploy.py")
        elif name.endswith(".md"):
            add("tests/test_docs.py")
            if name == "README.md":
                add("tests/e2e/test_quickstart.py")
        elif name in WHOLE_RUN or name.startswith("requirements/"):
            everything = True
    if everything:
        add("shared/tests")
    # a path under another one listed is in it already
    first = [p for p in first if not any(p.startswith(f"{q}/") for q in first)]
    if everything:  # (a path given to pytest is collected even if ignored: the roots run first are left out)
        rest = [root for root in EVERYTHING if root not in first]
        return [first, [*rest, *(f"--ignore={p}" for p in first if p not in EVERYTHING)]]
    return [first] if first else []


def main(argv: list[str]) -> int:
    base = argv[1] if len(argv) > 1 else "main"
    for run in runs(changed_files(base)):
        print(" ".join(run))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
