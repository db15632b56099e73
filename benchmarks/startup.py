"""The command line's start-up, each figure the median of several whole processes:

- ``python -c pass``: a bare Python start, the floor;
- ``arbiter --version``: the command group alone (aim: within 0.2 s of the bare start);
- ``arbiter pair`` on a 200-player round (round 6 of a generated Swiss; aim: 0.5 s as a whole process),
  and how much of it is imports (``-X importtime``: the top-level modules' cumulative figures, summed);
- the import time of the libraries only some commands need, each in a fresh process (``-X importtime``'s
  cumulative figure), so a command that imports one it does not use shows in its start-up.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUNS = 5
# as an installed command runs: with bytecode caches (written by a first run that is not counted)
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
LIBRARIES = (
    "click",
    "rich.console",
    "httpx",
    "pydantic",
    "shared.events",
    "numpy",
    "scipy.optimize",  # the Dutch engine loads only its assignment solver (dutch/assignment.py)
    "rustworkx",
    "networkx",
)


def _seconds(argv: list[str], runs: int = RUNS) -> float:
    times = []
    for _ in range(runs + 1):
        start = time.perf_counter()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV)
        times.append(time.perf_counter() - start)
    return statistics.median(times[1:])


def _import_seconds(module: str) -> float:
    """The cumulative import time of ``module`` in a fresh interpreter (the median of a few)."""
    figures = []
    for _ in range(3):
        done = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", f"import {module}"],
            capture_output=True,
            text=True,
            check=True,
        )
        last = [line for line in done.stderr.splitlines() if line.rstrip().endswith(f"| {module}")][-1]
        figures.append(int(last.split("|")[1]) / 1e6)
    return statistics.median(figures[1:])


def _imports_of(argv: list[str]) -> float:
    """The seconds a whole command spends importing (the median of a few): ``-X importtime``'s
    cumulative figures of the modules imported at the top level, summed."""
    figures = []
    for _ in range(3):
        done = subprocess.run(
            [sys.executable, "-X", "importtime", *argv], capture_output=True, text=True, check=True, env=ENV
        )
        top = [line.split("|") for line in done.stderr.splitlines() if line.startswith("import time:")]
        figures.append(sum(int(f[1]) for f in top if f[1].strip().isdigit() and not f[2][1:].startswith(" ")))
    return statistics.median(figures) / 1e6


def _round_of_200(directory: Path) -> Path:
    path = directory / "swiss_200.trf"
    arbiter = [sys.executable, "-m", "cli.main"]
    subprocess.run(
        [*arbiter, "generate", "--players", "200", "--rounds", "5", "--seed", "1", "-o", str(path)],
        check=True,
    )
    text = path.read_text().replace("\nXXR 5", "\nXXR 9")  # five rounds played of nine: pair round 6
    path.write_text(text)
    return path


def main() -> None:
    bin_dir = Path(sys.executable).parent
    arbiter = str(bin_dir / "arbiter") if (bin_dir / "arbiter").exists() else None
    command = [arbiter] if arbiter else [sys.executable, "-m", "cli.main"]
    bare = _seconds([sys.executable, "-c", "pass"])
    version = _seconds([*command, "--version"])
    print(f"{'start-up (median of ' + str(RUNS) + ' processes)':<44} {'seconds':>8}")
    print(f"{'python -c pass':<44} {bare:>8.3f}")
    print(f"{'arbiter --version':<44} {version:>8.3f}  (+{version - bare:.3f} over bare Python; aim 0.2)")
    with tempfile.TemporaryDirectory(prefix="arbiter_bench_") as tmp:
        trf = _round_of_200(Path(tmp))
        pair = _seconds([*command, "pair", "--dutch", str(trf), "-p"])
        imports = _imports_of(["-m", "cli.main", "pair", "--dutch", str(trf), "-p"])
    print(f"{'arbiter pair --dutch, 200 players, round 6':<44} {pair:>8.3f}  (aim 0.5)")
    print(f"{'  of which imports (-X importtime)':<44} {imports:>8.3f}")
    print(f"\n{'import time, fresh process':<44} {'seconds':>8}")
    for module in LIBRARIES:
        print(f"{'import ' + module:<44} {_import_seconds(module):>8.3f}")


if __name__ == "__main__":
    main()
