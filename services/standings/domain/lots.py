"""Drawing of lots (C.07 4.2; 4T1 §5(3)(f)): the recorded, reproducible draw lives in :mod:`shared.lots`,
since pairing draws the same lots for the ``group-playoff`` event (RULES.md §5)."""

from shared.lots import LotDraw, draw_lots

__all__ = ["LotDraw", "draw_lots"]
