"""From a TRF document to the tie-break history model.

- The point system is the one the file declares (TRF-2026 ``162``, bbpPairings' ``BBx``, JaVaFo's
  ``XXS``, read in file order by :func:`shared.trf.declared_points`, as the pairing reads them);
  without any, the first of the usual systems that reproduces every player's score column.
- Each player's round block becomes an :class:`~services.standings.domain.history.Entry`; the points
  are derived from the point system, not taken from the file's score column.
- The rounds the tie-breaks look at are the rounds that have a pairing (a game, a forfeit or a
  pairing-allocated bye); blocks after the last such round (pre-booked absences for the next round)
  are left out.
- The event counts as having pre-determined pairings (round robin) when its type record (092, 192)
  says so, or when it has no more players than rounds + 1.
"""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

from services.standings.domain.history import Edition, Entry, EventHistory, Player, edition_for
from shared.scoring import PointSystem, Result
from shared.trf import ResultCode, RoundEntry, TrfDocument, declared_points
from shared.trf.results import RESULTS

__all__ = ["history_from_trf", "is_pre_determined", "point_system_from_trf", "rounds_paired", "trf_edition"]

_CANDIDATES = [
    PointSystem.of(1, Fraction(1, 2), 0),
    PointSystem.of(1, Fraction(1, 2), 0, pairing_bye=Fraction(1, 2)),
    PointSystem.of(1, Fraction(1, 2), 0, pairing_bye=0),
    PointSystem.of(2, 1, 0),
    PointSystem.of(2, 1, 0, pairing_bye=1),
    PointSystem.of(3, 1, 0),
    PointSystem.of(3, 1, 0, pairing_bye=1),
]


def _scored(doc: TrfDocument, system: PointSystem, r: int, entry: RoundEntry) -> tuple[Result, Fraction]:
    """An entry's result and the points ``system`` gives it (a forfeit loss both sides share is a
    double forfeit)."""
    result = RESULTS[entry.result]
    double = False
    if result is Result.FORFEIT_LOSS and entry.opponent is not None:
        mirror = doc.players[entry.opponent].entry(r)
        double = mirror is not None and mirror.result is ResultCode.FORFEIT_LOSS
    return result, system.points(result, black=entry.colour.value == "b", double_forfeit=double)


def _fits(doc: TrfDocument, system: PointSystem) -> bool:
    """Every player's score column equals the points this system gives their rounds."""
    for player in doc.players.values():
        if player.points is None:
            return False
        total = Fraction(0)
        for r, entry in enumerate(player.rounds, start=1):
            if entry is None:
                total += system.zero_point_bye
                continue
            total += _scored(doc, system, r, entry)[1]
        if total != player.points:
            return False
    return True


def point_system_from_trf(doc: TrfDocument) -> PointSystem:
    """The point system the file declares (162, BBx, XXS); without one, the first of 1-½-0, 2-1-0
    and 3-1-0 (each with the PAB worth a win, a draw or nothing) that reproduces every player's
    score column, else 1-½-0."""
    declared = declared_points(doc)
    if declared is not None:
        return declared
    return next((c for c in _CANDIDATES if _fits(doc, c)), _CANDIDATES[0])


def rounds_paired(doc: TrfDocument) -> int:
    """The last round with a pairing (a game, a forfeit, a pairing-allocated bye)."""
    last = 0
    for player in doc.players.values():
        for r, entry in enumerate(player.rounds, start=1):
            if entry is None:
                continue
            if entry.opponent is not None or entry.result in (
                ResultCode.PAIRING_ALLOCATED_BYE,
                ResultCode.FORFEIT_WIN,
            ):
                last = max(last, r)
    return last


def is_pre_determined(doc: TrfDocument) -> bool:
    kind = " ".join([doc.tournament_type, *doc.records("192")]).upper()
    if any(word in kind for word in ("SWISS", "DUTCH", "BURSTEIN", "DUBOV", "LIM", "OLIMPIC")):
        return False
    if any(word in kind for word in ("ROBIN", "BERGER", "RR", "SCHEVENING")):
        return True
    rounds = max(doc.total_rounds or 0, rounds_paired(doc))
    return len(doc.players) <= rounds + 1


def trf_edition(doc: TrfDocument, today: dt.date) -> Edition:
    return edition_for(doc.start_date, today)


def history_from_trf(doc: TrfDocument, *, pre_determined: bool | None = None) -> EventHistory:
    system = point_system_from_trf(doc)
    rounds = rounds_paired(doc)
    history = EventHistory.create(
        (Player(p.start, p.name, p.rating) for p in sorted(doc.players.values(), key=lambda p: p.start)),
        point_system=system,
        pre_determined=is_pre_determined(doc) if pre_determined is None else pre_determined,
        rounds=rounds,
    )
    for player in doc.players.values():
        for r, entry in enumerate(player.rounds[:rounds], start=1):
            if entry is None:
                continue
            result, points = _scored(doc, system, r, entry)
            colour = entry.colour.value if entry.colour.value in ("w", "b") else ""
            history.record_entry(r, player.start, Entry(result, points, entry.opponent, colour))
    return history
