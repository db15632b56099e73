"""The ``group-playoff`` group table (4T1 §5(3)(a)-(f)): pure code in :mod:`shared.group_table`, since
pairing needs the group places to pair the play-offs and the semi-finals (RULES.md §5)."""

from shared.group_table import GroupRow, GroupTable, TableMatch, group_table

__all__ = ["GroupRow", "GroupTable", "TableMatch", "group_table"]
