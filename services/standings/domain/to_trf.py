"""Export a tournament as a TRF-2026 document (the FIDE Tournament Report File), for
:func:`shared.trf.write`.

- Headers: 012 name, 042 start date, 052 end date (once completed), 092 type (round robin or
  Swiss; it tells a reader the pairings were pre-determined), 142 rounds, 162 scoring (the ruleset's
  points: W D L, A absence, P pairing-allocated bye, X half-point bye), 202 the ranking tie-breaks
  (TRF spelling, ``BH/C1``), 222 time control in seconds (``180+2``; none for correspondence).
- One 001 line per player by seed: name, rating, points and rank from the table, then a round
  block per published round — with double rounds one per leg (round r's legs are TRF rounds 2r−1
  and 2r). An open or annulled game's block is left blank; a bye is ``0000 - U`` (or H, F, Z by its kind).

Reading the export back (:func:`services.standings.domain.from_trf.history_from_trf`) gives the
same table.
"""

from __future__ import annotations

from fractions import Fraction

from services.standings.domain.tournament import SYSTEM_NAMES, TABLE_SYSTEMS, Tournament
from shared.scoring import PointSystem, Result, side_results
from shared.trf import Colour, PlayerRecord, ResultCode, RoundEntry, TrfDocument
from shared.vocabulary import ByeKind

__all__ = ["trf_document"]

_CODES = {
    Result.WIN: ResultCode.WIN,
    Result.DRAW: ResultCode.DRAW,
    Result.LOSS: ResultCode.LOSS,
    Result.FORFEIT_WIN: ResultCode.FORFEIT_WIN,
    Result.FORFEIT_LOSS: ResultCode.FORFEIT_LOSS,
}
_BYES = {
    ByeKind.PAIRING_ALLOCATED: ResultCode.PAIRING_ALLOCATED_BYE,
    ByeKind.FULL_POINT: ResultCode.FULL_POINT_BYE,
    ByeKind.HALF_POINT: ResultCode.HALF_POINT_BYE,
    ByeKind.ZERO_POINT: ResultCode.ZERO_POINT_BYE,
}


def _text(value: str) -> str:
    """One line of printable text: names come from users, and a line break would end the record."""
    return " ".join("".join(ch if ch.isprintable() else " " for ch in value).split())


def _scoring(ps: PointSystem) -> dict[str, Fraction]:
    """Record 162: win, draw, loss, absence, pairing-allocated bye, half-point bye."""
    values = (ps.win, ps.draw, ps.loss, ps.zero_point_bye, ps.pairing_bye, ps.half_point_bye)
    return {f"162{code}": value for code, value in zip("WDLAPX", values, strict=True)}


def trf_document(t: Tournament) -> TrfDocument:
    """The tournament as TRF-2026 (raises NotATable or UnsupportedRuleset where there is no table)."""
    info = t.info
    info.check_table()
    ruleset = info.preset_or_none()  # None before the first pairing: the players, nothing else
    standings = t.standings()
    rows = {row.start: row for row in standings.table().rows} if standings is not None else {}
    kind = SYSTEM_NAMES[info.system] if info.system is not None and info.system in TABLE_SYSTEMS else ""
    if kind and info.double_rounds:
        kind += ", double rounds (each leg a round)"
    doc = TrfDocument(
        name=_text(info.name),
        start_date=info.started_at.date(),
        end_date=info.completed_at.date() if info.completed_at else None,
        tournament_type=kind,
        total_rounds=info.total_rounds * info.legs if info.total_rounds else None,
        point_system=_scoring(ruleset.point_system) if ruleset else {},
        tiebreaks=[tb.code.replace("-", "/") for tb in ruleset.tiebreaks] if ruleset else [],
        time_control=info.time_control.trf(),
        trf2026=True,
    )
    blocks: dict[int, list[RoundEntry | None]] = {p.seed: [] for p in t.players}
    for rnd in t.published_rounds():
        for leg in range(1, info.legs + 1):
            entries: dict[int, RoundEntry] = {}
            for game in rnd.games:
                if game.leg != leg or game.outcome is None:
                    continue
                white, black = side_results(game.outcome)
                if white not in _CODES:  # annulled: no result to report, like an open game
                    continue
                entries[game.white] = RoundEntry(game.black, Colour.WHITE, _CODES[white])
                entries[game.black] = RoundEntry(game.white, Colour.BLACK, _CODES[black])
            for bye in rnd.byes:
                entries[bye.seed] = RoundEntry(None, Colour.NONE, _BYES[bye.kind])
            for seed, player_blocks in blocks.items():
                player_blocks.append(entries.get(seed))
    for p in t.players:
        row = rows.get(p.seed)
        doc.players[p.seed] = PlayerRecord(
            start=p.seed,
            name=_text(p.name),
            rating=p.rating,
            points=row.points if row is not None else None,
            rank=row.rank if row is not None else None,
            rounds=blocks[p.seed],
        )
    return doc
