"""FIDE Tournament Report File (TRF-16, TRF-2026, the JaVaFo/bbpPairings extensions and Arbiter's ``XAR``).

Pure code: the tournament-history model (:mod:`shared.trf.model`), a reader that reports bad lines
with their line number (:mod:`shared.trf.reader`), the point system a file declares
(:mod:`shared.trf.points`), what each result code means and which code a result is written with
(:mod:`shared.trf.results`, the one table the services read and write by) and a writer
(:mod:`shared.trf.writer`).
``write(parse(text)) == text`` for files in canonical layout.
"""

from shared.trf.model import (
    NOT_PAIRED,
    ByeRecord,
    PlayerRecord,
    ResultCode,
    RoundEntry,
    TableRules,
    TrfColour,
    TrfDocument,
)
from shared.trf.points import declared_points
from shared.trf.reader import TrfError, decode, parse, read
from shared.trf.writer import write

__all__ = [
    "NOT_PAIRED",
    "ByeRecord",
    "PlayerRecord",
    "ResultCode",
    "RoundEntry",
    "TableRules",
    "TrfColour",
    "TrfDocument",
    "TrfError",
    "declared_points",
    "decode",
    "parse",
    "read",
    "write",
]
