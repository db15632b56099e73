"""Properties (hypothesis) of the table on generated events:

- the incremental :class:`Standings` gives exactly the table computed from scratch (informative
  columns included), after every result, including corrections and re-pairings;
- the rank order is a total order consistent with the listed tie-breaks: rows in place order have
  non-increasing keys, and two rows share a rank exactly when all their keys are equal.
"""

from __future__ import annotations

import copy
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from services.standings.domain.codes import Direction
from services.standings.domain.context import Rules
from services.standings.domain.history import Edition, EventHistory, Player
from services.standings.domain.ranking import Standings, Table, compute_table
from shared.scoring import FIDE, PLATFORM, Outcome, Result

CODES = ["BH", "BH-C1", "SB", "FB", "AOB", "ARO", "TPR", "APRO", "PS", "WIN", "GE", "DE", "KS"]
SHOWN = ["BH-C2", "SB-M1", "FB-C1", "WON"]  # kept current for information, never ranking
OUTCOMES = list(Outcome)
BYES = [Result.PAIRING_BYE, Result.FULL_POINT_BYE, Result.HALF_POINT_BYE, Result.ZERO_POINT_BYE]

Action = tuple[
    str, int, int, int, int
]  # ("game", round, white, black, outcome) / ("bye", round, player, kind, 0)


@st.composite
def events(draw: st.DrawFn) -> tuple[int, list[Action]]:
    players = draw(st.integers(2, 9))
    rounds = draw(st.integers(1, 5))
    actions: list[Action] = []
    for r in range(1, rounds + 1):
        order = draw(st.permutations(range(1, players + 1)))
        present = order[: draw(st.integers(0, players))]
        for i in range(0, len(present) - 1, 2):
            actions.append(("game", r, present[i], present[i + 1], draw(st.integers(0, len(OUTCOMES) - 1))))
        if len(present) % 2:
            actions.append(("bye", r, present[-1], draw(st.integers(0, len(BYES) - 1)), 0))
    # a few corrections of results already given
    games = [a for a in actions if a[0] == "game"]
    for _ in range(draw(st.integers(0, 3))):
        if games:
            g = draw(st.sampled_from(games))
            actions.append(("game", g[1], g[2], g[3], draw(st.integers(0, len(OUTCOMES) - 1))))
    return players, actions


def rows(table: Table) -> list[tuple[object, ...]]:
    return [
        (r.start, r.rank, r.place, r.points, tuple(r.tiebreaks.items()), tuple(r.shown.items()))
        for r in table.rows
    ]


@settings(max_examples=60, deadline=None)
@given(events(), st.sampled_from([Edition.E2024, Edition.E2026]), st.booleans(), st.booleans())
def test_incremental_equals_full_recompute(
    event: tuple[int, list[Action]], edition: Edition, platform: bool, pre_determined: bool
) -> None:
    players, actions = event
    history = EventHistory.create(
        (Player(s, rating=1500 + 10 * s) for s in range(1, players + 1)),
        point_system=PLATFORM if platform else FIDE,
        pre_determined=pre_determined,
    )
    rules = Rules(edition=edition)
    standings = Standings(history, CODES, rules, shown=SHOWN)
    for kind, r, a, b, x in actions:
        if kind == "game":
            table = standings.record_game(r, a, b, OUTCOMES[x])
        else:
            table = standings.record_bye(r, a, BYES[b])
        fresh = compute_table(copy.deepcopy(history), CODES, rules, shown=SHOWN)
        assert rows(table) == rows(fresh)


def _keys(table: Table, start: int) -> tuple[float, ...]:
    row = table.row(start)
    keys = [-float(row.points)]
    for tb in table.tiebreaks:
        value = row.tiebreaks[tb.code]
        if value is None:
            keys.append(float("inf"))
        else:
            keys.append(-float(value) if tb.direction is Direction.HIGHER_FIRST else float(value))
    return tuple(keys)


@settings(max_examples=60, deadline=None)
@given(events(), st.lists(st.sampled_from(CODES), unique=True, max_size=5))
def test_rank_order_is_total_and_follows_the_tiebreaks(
    event: tuple[int, list[Action]], codes: list[str]
) -> None:
    players, actions = event
    history = EventHistory.create(Player(s, rating=1500 + 10 * s) for s in range(1, players + 1))
    for kind, r, a, b, x in actions:
        if kind == "game":
            history.record_game(r, a, b, OUTCOMES[x])
        else:
            history.record_bye(r, a, BYES[b])
    table = compute_table(history, codes, Rules(edition=Edition.E2026))
    assert sorted(r.start for r in table.rows) == list(range(1, players + 1))
    assert [r.place for r in table.rows] == list(range(1, players + 1))
    for before, after in zip(table.rows, table.rows[1:], strict=False):
        kb, ka = _keys(table, before.start), _keys(table, after.start)
        assert kb <= ka
        assert (before.rank == after.rank) == (kb == ka)
        assert after.rank == (before.rank if kb == ka else after.place)
    # the points column is the sum of the derived points of every round
    for row in table.rows:
        assert row.points == sum(
            (history.entry(row.start, r).points for r in range(1, history.rounds + 1)), Fraction(0)
        )
