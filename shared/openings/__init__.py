"""Openings of `platform` tournaments (RULES.md §2): the nine options, the federation tables and the
draw of a round's openings. Pure: the move generators come through :mod:`shared.games.boards`; the
tables are data (pydraughts' English ballots, an Italian table from a file). See ``docs/openings.md``."""

from shared.openings.draw import DrawnOpening, check_option, draw_openings, opening_of, table_of
from shared.openings.errors import (
    BalanceClassesMissing,
    NoOpeningWithinCap,
    OpeningError,
    OpeningNotForVariant,
    OpeningTableInvalid,
    OpeningTableMissing,
    ThematicOpeningNotFound,
    UnknownOpeningOption,
)
from shared.openings.options import ALLOWED, FREE, OpeningKind, OpeningOption
from shared.openings.tables import (
    TABLE_VARIANTS,
    BalanceClass,
    OpeningTable,
    TableOpening,
    english_table,
    load_table,
    table_for,
)

__all__ = [
    "ALLOWED",
    "FREE",
    "TABLE_VARIANTS",
    "BalanceClass",
    "BalanceClassesMissing",
    "DrawnOpening",
    "NoOpeningWithinCap",
    "OpeningError",
    "OpeningKind",
    "OpeningNotForVariant",
    "OpeningOption",
    "OpeningTable",
    "OpeningTableInvalid",
    "OpeningTableMissing",
    "TableOpening",
    "ThematicOpeningNotFound",
    "UnknownOpeningOption",
    "check_option",
    "draw_openings",
    "english_table",
    "load_table",
    "opening_of",
    "table_for",
    "table_of",
]
