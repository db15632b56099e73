"""The pairing procedure: score brackets from the top score group down (C.04.3, 2025 rules).

The PAB score is settled first (C5). Then each bracket (the moved-down players, MDPs, and the
residents of one score group) is decided with the next score group in view: by the fast path
(:mod:`.certified`) when it can prove its answer, else by the general procedure
(:mod:`.brackets`). Its unpaired players move down to the next bracket.

Completion (C4): the choice must leave the players below the window pairable. The window is
solved on its own and the rest is then checked; if it cannot be completed, the bracket is
solved again with every unpaired player in one graph, completion weighted above everything,
which is how bbpPairings always does it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from services.pairing.domain.dutch.brackets import GeneralBracket
from services.pairing.domain.dutch.certified import solve_bracket
from services.pairing.domain.dutch.model import NoValidPairingError
from services.pairing.domain.dutch.players import Field, FieldPlayer
from services.pairing.domain.dutch.state import RoundState

Window = dict[int, int]  # a matching of the bracket's window, both ways


@dataclass(slots=True)
class BracketStep:
    """One bracket as decided: vertex indices of ``state.players``.

    ``decided_before`` holds the pairs decided in the brackets above (both ways); the bracket's
    own pairs are in ``state.mate_final``. ``window`` is the matching of the window the decision
    came with (it includes how the next score group would pair); ``c9`` whether C9 applied.
    """

    index: int
    mdps: list[int]
    residents: list[int]
    next_group: list[int]
    c9: bool
    full: bool
    decided_before: dict[int, int]
    window: Window


def _decide(
    state: RoundState, index: int, mdps: list[int], residents: list[int], next_group: list[int], c9: bool
) -> tuple[bool, Window]:
    """Pair one bracket (its pairs go to ``state.mate_final``): first on its window alone, then,
    if the rest could not be completed or the bracket needs the whole field in view, with every
    unpaired player in one graph. Returns whether the whole field was in view, and the window
    matching."""
    n = state.n
    window = mdps + residents + next_group
    lower_exists = index + 2 < len(state.groups)
    full = (
        not lower_exists
        or state.c9_initial
        or (n % 2 == 1 and state.bye_score >= state.players[window[-1]].score)
    )
    if not full:
        saved = dict(state.mate_final)
        fast = solve_bracket(state, mdps, residents, next_group, c9, full=False)
        mate = (
            fast
            if fast is not None
            else GeneralBracket(state, mdps, residents, next_group, c9, full=False).run()
        )
        unpaired = [v for v in window if v not in mate and v not in state.mate_final]
        below = [v for v in range(window[-1] + 1, n) if v not in state.mate_final]
        if state.completes(unpaired, below):
            return False, mate
        state.mate_final = saved
    fast = solve_bracket(state, mdps, residents, next_group, c9, full=True)
    mate = (
        fast if fast is not None else GeneralBracket(state, mdps, residents, next_group, c9, full=True).run()
    )
    return True, mate


def _c9_next(state: RoundState, window: Window, mdps: list[int], next_group: list[int]) -> bool:
    """C9 applies in the next bracket when its only downfloater is the PAB assignee: the field
    is odd, the PAB score is at least the next group's, and nobody of the next bracket pairs
    below it in the window matching."""
    if not (state.n % 2 == 1 and next_group and state.bye_score >= state.players[next_group[0]].score):
        return False
    floor = state.players[next_group[0]].score
    return all(state.players[window.get(v, v)].score >= floor for v in mdps + next_group)


def score_brackets(state: RoundState) -> Iterator[BracketStep]:
    """Settle the PAB score, then decide the brackets from the top down, yielding each one as
    decided. A caller may replace a bracket's decision before resuming (its pairs in
    ``state.mate_final`` and ``step.window``): the next bracket follows from it."""
    if state.n == 0:
        return
    state.settle_bye()
    c9 = state.c9_initial
    mdps: list[int] = []
    for index, (start, stop) in enumerate(state.groups):
        residents = list(range(start, stop))
        next_group = list(range(*state.groups[index + 1])) if index + 1 < len(state.groups) else []
        before = dict(state.mate_final)
        full, window = _decide(state, index, mdps, residents, next_group, c9)
        step = BracketStep(index, mdps, residents, next_group, c9, full, before, window)
        yield step
        mdps = [v for v in mdps + residents if v not in state.mate_final]
        c9 = _c9_next(state, step.window, mdps, next_group)


def _leftover(state: RoundState, last: Window) -> tuple[list[tuple[int, int]], int | None]:
    """The pairs (vertex indices) and the PAB assignee once every bracket is decided."""
    n = state.n
    pairs = sorted({(min(a, b), max(a, b)) for a, b in state.mate_final.items()})
    leftover = [v for v in range(n) if v not in state.mate_final]
    if len(leftover) > 1:
        # MDPs left unpaired at the very bottom (bbpPairings never gets here): pair them as
        # the last matching says.
        for v in leftover:
            m = last.get(v)
            if m is not None and m not in state.mate_final and v not in state.mate_final:
                state.mate_final[v] = m
                state.mate_final[m] = v
                pairs.append((min(v, m), max(v, m)))
        leftover = [v for v in range(n) if v not in state.mate_final]
        if len(leftover) > 1:
            raise NoValidPairingError()
    return pairs, (leftover[0] if leftover else None)


def pair_state(state: RoundState) -> tuple[list[tuple[int, int]], int | None]:
    """Every bracket decided as the procedure decides it: the pairs and the PAB (indices)."""
    if state.n == 0:
        return [], None
    last: Window = {}
    for step in score_brackets(state):
        last = step.window
    return _leftover(state, last)


def pair_field(field: Field) -> tuple[list[tuple[FieldPlayer, FieldPlayer]], FieldPlayer | None]:
    """The pairs (in no particular order) and the PAB player."""
    state = RoundState(field)
    pairs, bye = pair_state(state)
    ps = state.players
    return [(ps[a], ps[b]) for a, b in pairs], (ps[bye] if bye is not None else None)
