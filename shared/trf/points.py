"""The point system a TRF file declares, read the way the pairing engines read it.

Three families of records declare points; a file may mix them. They are applied in file order, the
last value given for a result winning (the reader keeps :attr:`TrfDocument.point_system` in the order
of each key's last declaration):

- TRF-2026 record ``162`` (and bbpPairings): ``W`` a win, also a forfeit win and a full-point bye;
  ``D`` a draw, also a half-point bye; ``L`` a played loss; ``A`` (TRF-2026) or ``Z`` (bbpPairings)
  an absence: the zero-point bye **and** the forfeit loss; ``P`` the pairing-allocated bye; ``X`` an
  unknown result (an adjourned game), which no round block records, so it changes nothing.
- bbpPairings' ``BBW BBD BBL`` as ``W D L``; ``BBZ`` the zero-point bye only, ``BBF`` the forfeit
  loss only, ``BBU`` the pairing-allocated bye.
- JaVaFo's ``XXS``: ``WW BW WD BD WL BL ZPB HPB FPB PAB FW FL``, and the shortcuts ``W`` (``WW BW FW
  FPB``) and ``D`` (``WD BD HPB``).

As in bbpPairings, the pairing-allocated bye is worth a win (``W``, ``BBW``) until a ``P``, ``BBU``
or ``XXS PAB`` gives it its own value; JaVaFo's ``XXS W`` does not move it (its default is 1).
"""

from __future__ import annotations

from fractions import Fraction

from shared.scoring import FIDE, PointSystem
from shared.trf.model import TrfDocument

__all__ = ["SCORING_LETTERS", "declared_points"]

SCORING_LETTERS = "WDLAPXZ"
"""Result letters of record 162: TRF-2026's ``W D L A P X`` and bbpPairings' ``Z`` (= ``A``)."""

_WIN = ("win", "black_win", "forfeit_win", "full_point_bye")
_DRAW = ("draw", "black_draw", "half_point_bye")
_ABSENCE = ("zero_point_bye", "forfeit_loss", "double_forfeit")

# key -> the PointSystem fields it sets
_FIELDS: dict[str, tuple[str, ...]] = {
    "162W": _WIN,
    "162D": _DRAW,
    "162L": ("loss", "black_loss"),
    "162A": _ABSENCE,
    "162Z": _ABSENCE,
    "162P": ("pairing_bye",),
    "162X": (),
    "BBW": _WIN,
    "BBD": _DRAW,
    "BBL": ("loss", "black_loss"),
    "BBZ": ("zero_point_bye",),
    "BBF": ("forfeit_loss", "double_forfeit"),
    "BBU": ("pairing_bye",),
    "WW": ("win",),
    "BW": ("black_win",),
    "WD": ("draw",),
    "BD": ("black_draw",),
    "WL": ("loss",),
    "BL": ("black_loss",),
    "ZPB": ("zero_point_bye",),
    "HPB": ("half_point_bye",),
    "FPB": ("full_point_bye",),
    "PAB": ("pairing_bye",),
    "FW": ("forfeit_win",),
    "FL": ("forfeit_loss", "double_forfeit"),
    "W": ("win", "black_win", "forfeit_win", "full_point_bye"),
    "D": ("draw", "black_draw", "half_point_bye"),
}
_WIN_SETS_PAB = frozenset({"162W", "BBW"})
_BLACK = {"black_win": "win", "black_draw": "draw", "black_loss": "loss"}


def declared_points(doc: TrfDocument) -> PointSystem | None:
    """The point system of the file's 162, BBx and XXS records; None when it has none.

    Values a file leaves out keep the standard ones (1, ½, 0; byes and forfeits as in
    :meth:`PointSystem.of`)."""
    if not doc.point_system:
        return None
    # Black's results start at the standard values: JaVaFo's WW/WD/WL set White's alone.
    values: dict[str, Fraction | None] = {black: getattr(FIDE, white) for black, white in _BLACK.items()}
    pab_given = False
    for key, value in doc.point_system.items():
        if key not in _FIELDS:
            raise ValueError(f"unknown point-system key {key!r}")
        for name in _FIELDS[key]:
            values[name] = value
        if key in _WIN_SETS_PAB and not pab_given:
            values["pairing_bye"] = value
        pab_given = pab_given or "pairing_bye" in _FIELDS[key]
    for black, white in _BLACK.items():
        if values[black] == values.get(white, getattr(FIDE, white)):
            values[black] = None  # Black scores as White (always, outside XXS)
    return FIDE.with_values(**values)
