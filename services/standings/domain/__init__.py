"""The standings domain: FIDE C.07 tie-breaks, rankings, ruleset presets (pure code).

Entry points: :class:`EventHistory` (the event model), :func:`compute_table` (a table from scratch),
:class:`Standings` (kept current one result at a time), :func:`preset` (rulesets),
:func:`group_table` (``group-playoff`` groups), :func:`history_from_trf` (from a TRF document).
See docs/standings.md.
"""

from services.standings.domain.codes import TieBreak, TieBreakCodeError, parse_codes
from services.standings.domain.context import Rules, Value
from services.standings.domain.from_trf import history_from_trf
from services.standings.domain.group_playoff import GroupTable, TableMatch, group_table
from services.standings.domain.history import Edition, Entry, EventHistory, HistoryError, Player, edition_for
from services.standings.domain.lots import LotDraw, draw_lots
from services.standings.domain.presets import PRESETS, Preset, preset
from services.standings.domain.ranking import Row, Standings, Table, compute_table

__all__ = [
    "PRESETS",
    "Edition",
    "Entry",
    "EventHistory",
    "GroupTable",
    "HistoryError",
    "LotDraw",
    "Player",
    "Preset",
    "Row",
    "Rules",
    "Standings",
    "Table",
    "TableMatch",
    "TieBreak",
    "TieBreakCodeError",
    "Value",
    "compute_table",
    "draw_lots",
    "edition_for",
    "group_table",
    "history_from_trf",
    "parse_codes",
    "preset",
]
