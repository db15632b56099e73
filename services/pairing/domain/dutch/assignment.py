"""Exact minimum-cost assignment with integer costs, its dual, and lexicographic tie-breaks.

Costs are integers held in float64 matrices (``inf`` marks a forbidden cell). SciPy's solver
computes with sums and differences of the costs only, so it is exact while every value stays
below 2**53; the callers keep their costs well below that (:data:`EXACT`).

:func:`potentials` recovers an optimal dual from an optimal assignment; the cells of zero reduced
cost (the *tight* cells) hold every optimal assignment, and every perfect assignment within them
is optimal. :func:`lex_first` picks, among those, the one that gives each row in turn the first
column still possible.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

Matrix = npt.NDArray[np.float64]
Mask = npt.NDArray[np.bool_]
Index = npt.NDArray[np.intp]

# Costs and their sums over an assignment stay below this; the duals and the alternating sums
# in between stay within a few times it, still exact in float64.
EXACT = 1 << 48


def solve(cost: Matrix) -> tuple[Index, float] | None:
    """``(column of each row, total)`` of a minimum-cost perfect assignment of a square matrix,
    or None when there is none."""
    n = cost.shape[0]
    if n == 0:
        return np.zeros(0, dtype=np.intp), 0.0
    try:
        rows, cols = linear_sum_assignment()(cost)
    except ValueError:  # infeasible
        return None
    sigma = np.empty(n, dtype=np.intp)
    sigma[rows] = cols
    total = float(cost[rows, cols].sum())
    if not np.isfinite(total):
        return None
    return sigma, total


Solver = Callable[[Matrix], tuple[Index, Index]]


@cache
def linear_sum_assignment() -> Solver:
    """SciPy's minimum-cost assignment solver (``scipy.optimize.linear_sum_assignment``), loaded once.

    ``import scipy.optimize`` takes about 0.6 s (linalg, sparse, the array API layer, ...) and was
    most of ``arbiter pair``'s run time; the solver is one small compiled module of that package,
    ``_lsap``, which needs none of it. It is loaded from its file on its own: the same code, so the
    same assignments. Should a SciPy release move or change it, the package's public function is
    imported instead (slower, never wrong); ``test_dutch_assignment.py`` says which one runs."""
    try:
        return _lsap_alone()
    except Exception:
        from scipy.optimize import linear_sum_assignment as public

        solver: Solver = public
        return solver


def _lsap_alone() -> Solver:
    spec = importlib.util.find_spec("scipy")
    if spec is None or spec.origin is None:
        raise ImportError("scipy is not installed")
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    [path] = [p for p in (Path(spec.origin).parent / "optimize").glob("_lsap*") if p.name.endswith(suffixes)]
    loader = importlib.machinery.ExtensionFileLoader("_lsap", str(path))
    found = importlib.util.spec_from_loader("_lsap", loader)
    if found is None:
        raise ImportError(f"cannot load {path}")
    module: Any = importlib.util.module_from_spec(found)
    loader.exec_module(module)
    solver: Solver = module.linear_sum_assignment
    return solver


def lex_solve(costs: list[Matrix], last_tight: bool = True) -> tuple[Index, list[float], Mask] | None:
    """Minimise the cost matrices lexicographically (the first most significant): each is
    solved within the tight cells of the ones before. Returns an optimal assignment, the total
    of each matrix, and (if ``last_tight``) the cells that hold every lexicographically optimal
    assignment."""
    allowed: Mask = np.isfinite(costs[0])
    sigma = np.zeros(0, dtype=np.intp)
    totals: list[float] = []
    for i, cost in enumerate(costs):
        restricted = cost if i == 0 else np.where(allowed, cost, np.inf)
        solved = solve(restricted)
        if solved is None:
            return None
        sigma, total = solved
        totals.append(total)
        if last_tight or i + 1 < len(costs):
            allowed = tight(restricted, sigma)
    return sigma, totals, allowed


def potentials(cost: Matrix, sigma: Index) -> tuple[Matrix, Matrix]:
    """An optimal dual ``(u, v)``: ``cost - u[:, None] - v[None, :] >= 0``, zero on ``sigma``.

    The column potentials are shortest distances in the exchange graph (row ``i`` leaves its
    column for column ``j`` at ``cost[i, j] - cost[i, sigma[i]]``), which has no negative cycle
    because ``sigma`` is optimal; Bellman-Ford rounds run on the whole matrix at once.
    """
    n = cost.shape[0]
    own = cost[np.arange(n), sigma]
    v = np.zeros(n)
    if n == 0:
        return v, v
    for _ in range(n + 1):
        reach = (v[sigma] - own)[:, None] + cost
        new = np.minimum(v, reach.min(axis=0))
        if np.array_equal(new, v):
            break
        v = new
    u = own - v[sigma]
    return u, v


def tight(cost: Matrix, sigma: Index) -> Mask:
    """The cells of zero reduced cost under an optimal dual."""
    u, v = potentials(cost, sigma)
    mask: Mask = (cost - u[:, None] - v[None, :]) == 0
    return mask


def lex_first(allowed: Mask, sigma: Index, order: int) -> Index:
    """The perfect assignment within ``allowed`` that gives rows ``0..order-1`` in turn the
    lowest column still possible (rows from ``order`` on take what is left).

    ``sigma`` is a perfect assignment within ``allowed``. Row ``i`` can take column ``j`` when
    an alternating path leads from ``j`` back to ``sigma[i]`` through rows not yet decided;
    the assignment is then rotated along it.
    """
    n = allowed.shape[0]
    sigma = sigma.copy()
    owner = np.empty(n, dtype=np.intp)
    owner[sigma] = np.arange(n)
    open_cols = np.ones(n, dtype=bool)
    for i in range(order):
        target = int(sigma[i])
        dead = np.zeros(n, dtype=bool)
        for j in np.flatnonzero(allowed[i] & open_cols).tolist():
            if j == target:
                break
            if dead[j]:
                continue
            path = _path(allowed, sigma, owner, open_cols, i, j, target)
            if isinstance(path, list):
                # rotate: i takes j, each row on the path takes the next column
                for row, col in path:
                    sigma[row] = col
                    owner[col] = row
                break
            dead |= path
        open_cols[sigma[i]] = False
    return sigma


def _path(
    allowed: Mask, sigma: Index, owner: Index, open_cols: Mask, i: int, start: int, target: int
) -> list[tuple[int, int]] | Mask:
    """Row ``i`` takes column ``start``; find columns for the displaced rows ending at ``target``.
    Returns the moves, or the columns reachable from ``start`` (none of which leads there)."""
    n = allowed.shape[0]
    taker = np.full(n, -1, dtype=np.intp)  # the row that would take each reached column
    taker[start] = i
    seen = np.zeros(n, dtype=bool)
    seen[start] = True
    frontier = np.array([start], dtype=np.intp)
    while frontier.size:
        rows = owner[frontier]
        reach = allowed[rows] & open_cols & ~seen
        new = np.flatnonzero(reach.any(axis=0))
        if new.size == 0:
            break
        taker[new] = rows[reach[:, new].argmax(axis=0)]
        seen[new] = True
        if seen[target]:
            moves = []
            col = target
            while True:
                row = int(taker[col])
                moves.append((row, col))
                if row == i:
                    return moves
                col = int(sigma[row])
        frontier = new
    return seen
