"""The assignment solver the Dutch engine runs on: SciPy's, loaded without ``scipy.optimize``'s 0.6 s of
imports (``assignment.linear_sum_assignment``), so that ``arbiter pair`` on a 200-player round stays
within 0.5 s as a whole process. The same compiled solver, so the same assignments."""

from __future__ import annotations

import subprocess
import sys

import numpy as np

from services.pairing.domain.dutch import assignment

CHECK = """
import sys
from services.pairing.domain.dutch.generator import Profile, generate
from services.pairing.domain.dutch.assignment import linear_sum_assignment
generate(Profile(players=60, rounds=5, seed=3))  # the engine pairs five rounds
print(type(linear_sum_assignment()).__name__, "scipy.optimize" in sys.modules)
"""


def test_pairing_runs_the_solver_without_importing_scipy_optimize():
    done = subprocess.run([sys.executable, "-c", CHECK], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["builtin_function_or_method", "False"]


def test_the_solver_loaded_alone_is_scipy_s():
    from scipy.optimize import linear_sum_assignment as public

    rng = np.random.default_rng(5)
    alone = assignment.linear_sum_assignment()
    assert alone is not public  # loaded from its own file, not through the package
    for n in (1, 2, 7, 40):
        cost = rng.integers(0, 9, size=(n, n)).astype(np.float64)  # many ties: the same choice among them
        cost[rng.random((n, n)) < 0.2] = np.inf
        try:
            expected = public(cost)
        except ValueError:
            expected = None
        try:
            got = alone(cost)
        except ValueError:
            got = None
        if expected is None:
            assert got is None
        else:
            assert got is not None
            assert [a.tolist() for a in got] == [a.tolist() for a in expected]
