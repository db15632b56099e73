"""Export a tournament as a TRF document (the FIDE Tournament Report File), TRF-2026 or TRF-16, for
:func:`shared.trf.write`.

- Headers: 012 name, 022 place, 032 federation, 102 chief arbiter and 112 deputies (fide-rapid: the
  organiser's settings), 042 start date (fide-rapid: the organiser's), 052 end
  date (fide-rapid: the organiser's; else once completed), 062 players, 072 rated players, 092 type (round robin or
  Swiss; it tells a reader the pairings were pre-determined), 142 rounds, 162 scoring (the ruleset's
  points: W D L, Z zero-point bye and forfeit loss, P pairing-allocated bye — the letters bbpPairings
  reads; the half-point bye is a draw's value and has no letter), 202 the ranking tie-breaks (TRF
  spelling, ``BH/C1``), 222 time control in seconds (``180+2``; none for correspondence), 122 the
  time control as people write it (``15+10``), 132 each round's date (the day it was paired).
  Arbiter's ``XAR`` records (:class:`shared.trf.TableRules`) carry what else the table needs: the
  tie-breaks shown for information, whether a bye is an opponent (the platform: no), the seed of the
  lots (fide-rapid), and in TRF-16 the ranking tie-breaks.
  TRF-16 (``trf2026=False``, the file for rating submission) has no 142-222 records: ``XXR`` the
  rounds, ``XXC white1|black1`` the colour the first board's higher seed had in round 1, the point
  system only where it is not FIDE's (``BBW BBD BBL BBZ BBF BBU``, as bbpPairings reads them), and
  ``XXA`` for Baku acceleration. TRF-2026 has 142 and 152 instead of XXR and XXC.
- Profiles (fide-rapid): sex, title (TRF codes ``g m wg f wm c wf wc``), federation, FIDE id and
  birth (``YYYY/00/00``: the year is what registration knows).
- One 001 line per player by seed: name, rating, points and rank from the table, then a round
  block per published round — with double rounds one per leg (round r's legs are TRF rounds 2r−1
  and 2r). An open or annulled game's block is left blank; a bye is ``0000 - U`` (or H, F, Z by its
  kind: a zero-point bye on request is ``Z``); a game marked unrated (a knockout's tie-break) is
  written ``W D L``; a player without a pairing in a published round (withdrawn, excluded) is
  ``0000 - Z``, a known absence (TRF-16: the same as a blank block).
- **Withdrawals** (TRF-16 has no mark of its own): a withdrawn player keeps the games played; the
  rounds without a pairing are ``0000 - Z``. A ``###`` comment names each withdrawal and each
  correction.
- **The round to come**: while a Swiss's next round is still to be paired (before round 1 too), every
  player it will leave out (:meth:`~services.standings.domain.next_round.RoundToCome.left_out`, as
  pairing decides it) gets a block for it, the way bbpPairings and JaVaFo read a player to leave out of
  the round they pair (a block beyond the last round played): ``0000 - Z`` for a player withdrawn (or
  excluded outside the platform), a zero-point bye asked for that round, and an absence at the default
  time in the round before that no arbiter excused (FIDE C.04.2); a `fide-rapid` late entry whose first
  round is later than the next gets its late-entry bye (``Z`` or ``H``). So the file, unmodified, pairs
  the round as pairing does. Before round 1 of a Swiss, ``XXC`` gives the colour lot pairing draws from
  the tournament's id.
- ``group-playoff``: the games with board points (1/½/0) and the group table's rank; the 001 points
  are the board points (the match points are no TRF score).

Reading the export back (:func:`services.standings.domain.from_trf.history_from_trf`) gives the
same table (C.07 tables).
"""

from __future__ import annotations

from fractions import Fraction

from services.standings.domain.codes import TieBreak
from services.standings.domain.live_table import GROUP_COLUMNS
from services.standings.domain.presets import Preset
from services.standings.domain.rounds import BYE_RESULTS, Competitor, Game, RoundStatus
from services.standings.domain.tournament import Tournament
from services.standings.domain.tournament_info import SYSTEM_NAMES, TABLE_SYSTEMS
from shared.scoring import FIDE, PointSystem, Result, side_results
from shared.trf import NOT_PAIRED, PlayerRecord, ResultCode, RoundEntry, TableRules, TrfColour, TrfDocument
from shared.trf.acceleration import baku
from shared.trf.model import TrfLine
from shared.trf.results import BYES, CODES, UNRATED
from shared.vocabulary import ByeKind, System

__all__ = ["trf_document"]

TITLES = {"GM": "g", "IM": "m", "WGM": "wg", "FM": "f", "WIM": "wm", "CM": "c", "WFM": "wf", "WCM": "wc"}
"""FIDE titles as TRF-16 writes them (columns 11-13)."""


def _text(value: str) -> str:
    """One line of printable text: names come from users, and a line break would end the record."""
    return " ".join("".join(ch if ch.isprintable() else " " for ch in value).split())


def _scoring(ps: PointSystem) -> dict[str, Fraction]:
    """Record 162: win, draw, loss, zero-point bye (and forfeit loss), pairing-allocated bye, in the
    letters bbpPairings accepts (it refuses ``A`` and ``X``; shared.trf reads ``Z`` as ``A``)."""
    values = (ps.win, ps.draw, ps.loss, ps.zero_point_bye, ps.pairing_bye)
    return {f"162{code}": value for code, value in zip("WDLZP", values, strict=True)}


def _bb(ps: PointSystem) -> dict[str, Fraction]:
    """TRF-16: the point system as bbpPairings' ``BBx`` records, only where it is not FIDE's
    (1, ½, 0; bbpPairings' defaults)."""
    if ps == FIDE:
        return {}
    values = (ps.win, ps.draw, ps.loss, ps.zero_point_bye, ps.forfeit_loss, ps.pairing_bye)
    return {f"BB{code}": value for code, value in zip("WDLZFU", values, strict=True)}


def _record(p: Competitor) -> PlayerRecord:
    """A 001 line's person: name and rating, and the profile where known."""
    profile = p.profile
    if profile is None:
        return PlayerRecord(start=p.seed, name=_text(p.name), rating=p.rating)
    return PlayerRecord(
        start=p.seed,
        name=_text(p.name),
        sex=profile.sex or "",
        title=TITLES.get(profile.title or "", ""),
        rating=p.rating,
        federation=profile.federation or "",
        fide_id=str(profile.fide_id) if profile.fide_id else "",
        birth=f"{profile.birth_year:04d}/00/00" if profile.birth_year else "",
    )


def _headers(t: Tournament, doc: TrfDocument) -> list[TrfLine]:
    """The header records the model keeps as text: 022 place, 032 the organising federation, 062 and
    072 the players, 102 the chief arbiter and 112 each deputy, 122 the time control, 132 the round
    dates (``YY/MM/DD`` over each round's block). 082 (teams) is for team events: none here."""
    info = t.info
    fide = info.fide
    out = []
    if fide is not None and fide.place:
        out.append(TrfLine("022", f"022 {_text(fide.place)}"))
    if fide is not None and fide.federation:
        out.append(TrfLine("032", f"032 {_text(fide.federation)}"))
    out.append(TrfLine("062", f"062 {len(t.players)}"))
    out.append(TrfLine("072", f"072 {sum(1 for p in t.players if p.rating)}"))
    if fide is not None and fide.chief_arbiter:
        out.append(TrfLine("102", f"102 {_text(fide.chief_arbiter)}"))
    for deputy in fide.deputy_arbiters if fide is not None else ():
        out.append(TrfLine("112", f"112 {_text(deputy)}"))
    out.append(TrfLine("122", f"122 {info.time_control.label()}"))
    dates = [r.paired_at for r in t.published_rounds() for _ in range(info.legs)]
    if dates and all(d is not None for d in dates):
        text = "132" + " " * 88 + "  ".join(d.strftime("%y/%m/%d") for d in dates if d is not None)
        out.append(TrfLine("132", text))
    return out


def _rounds(t: Tournament) -> int | None:
    """The rounds to play (legs count as rounds): from the pairings, before them the organiser's."""
    info = t.info
    total = info.total_rounds or (info.fide.rounds if info.fide is not None else None)
    return total * info.legs if total else None


def _initial_colour(t: Tournament) -> TrfColour | None:
    """White or Black for the higher seed of round 1's first board (``XXC white1``/``152 W``); before
    round 1 of a Swiss, the lot pairing draws from the tournament's id (C.04.3: White when even)."""
    first = t.rounds.get(1)
    if first is None and t.info.planned_system is System.SWISS:
        return TrfColour.WHITE if t.id.int % 2 == 0 else TrfColour.BLACK
    if first is None or not first.games:
        return None
    game = min(first.games, key=lambda g: (g.leg, g.board))
    return TrfColour.WHITE if game.white < game.black else TrfColour.BLACK


def _trf_codes(tiebreaks: tuple[TieBreak, ...]) -> list[str]:
    return [tb.code.replace("-", "/") for tb in tiebreaks]


def _table_rules(t: Tournament, ruleset: Preset, *, trf2026: bool) -> TableRules:
    """Arbiter's ``XAR`` records: what the table needs beyond the TRF's own records — the tie-breaks
    (TRF-16 has no 202), those shown for information, whether a bye is an opponent, whose definitions
    of BH and SB apply, the lots' seed."""
    return TableRules(
        tiebreaks=[] if trf2026 else _trf_codes(ruleset.tiebreaks),
        shown=_trf_codes(ruleset.shown),
        byes_as_opponents=ruleset.byes_as_opponents,
        platform_definitions=ruleset.platform_definitions,
        lots_seed=t.lots_seed(ruleset),
    )


def _code(result: Result, game: Game) -> ResultCode:
    code = CODES[result]
    return UNRATED.get(code, code) if not game.rated else code


def trf_document(t: Tournament, *, trf2026: bool = True) -> TrfDocument:
    """The tournament as TRF-2026, or TRF-16 with ``trf2026=False`` (raises NotATable or
    UnsupportedRuleset where there is no table)."""
    info = t.info
    info.check_table()
    ruleset = info.preset_or_none()  # None before the first pairing: the players, nothing else
    ranked = t.ranked()
    rows = {row.start: row for row in ranked.rows} if ranked is not None else {}
    kind = SYSTEM_NAMES[info.system] if info.system is not None and info.system in TABLE_SYSTEMS else ""
    if kind and info.double_rounds:
        kind += ", double rounds (each leg a round)"
    end = info.fide.end_date if info.fide is not None and info.fide.end_date else None
    if end is None and info.completed_at is not None:
        end = info.completed_at.date()
    doc = TrfDocument(
        name=_text(info.name),
        start_date=info.start_date,
        end_date=end,
        tournament_type=kind,
        total_rounds=_rounds(t),
        initial_colour=_initial_colour(t),
    )
    if trf2026:
        doc.point_system = _scoring(ruleset.point_system) if ruleset else {}
        doc.tiebreaks = _trf_codes(ruleset.tiebreaks) if ruleset else []
        doc.time_control = info.time_control.trf()
        doc.trf2026 = True
    elif ruleset is not None:
        doc.point_system = _bb(ruleset.point_system)
    if ruleset is not None and not info.is_group:
        doc.table_rules = _table_rules(t, ruleset, trf2026=trf2026)
    if info.fide is not None and info.fide.acceleration and ruleset is not None and doc.total_rounds:
        starters = sum(1 for p in t.players if p.from_round is None)
        ps = ruleset.point_system
        doc.accelerations = baku(starters, doc.total_rounds, ps.win, ps.draw)
    blocks: dict[int, list[RoundEntry | None]] = {p.seed: [] for p in t.players}
    # the byes of a round still being played are in the file but not yet in the table: the points
    # written with each player are their blocks' sum, so these are added to the table's
    pending: dict[int, Fraction] = {}
    last = 0
    for rnd in t.published_rounds():
        last = rnd.number
        if ruleset is not None and rnd.progress().status is not RoundStatus.FINISHED:
            for bye in rnd.byes:
                scored = ruleset.point_system.points(BYE_RESULTS[bye.kind]) * info.legs
                pending[bye.seed] = pending.get(bye.seed, Fraction(0)) + scored
        for leg in range(1, info.legs + 1):
            entries: dict[int, RoundEntry | None] = {}
            for game in rnd.games:
                if game.leg != leg:
                    continue
                entries[game.white] = entries[game.black] = None  # paired: blank while open
                if game.outcome is None:
                    continue
                white, black = side_results(game.outcome)
                if white not in CODES:  # annulled: no result to report, like an open game
                    continue
                entries[game.white] = RoundEntry(game.black, TrfColour.WHITE, _code(white, game))
                entries[game.black] = RoundEntry(game.white, TrfColour.BLACK, _code(black, game))
            for bye in rnd.byes:
                entries[bye.seed] = RoundEntry(None, TrfColour.NONE, BYES[bye.kind])
            for seed, player_blocks in blocks.items():
                player_blocks.append(entries.get(seed, NOT_PAIRED))
    if (
        info.planned_system is System.SWISS
        and info.completed_at is None
        and last < (info.rounds_to_play or 0)
    ):
        for seed, block in _left_out(t, last + 1).items():  # written ahead, as a pairing program reads it
            blocks[seed].extend([block] * info.legs)
    for p in t.players:
        row = rows.get(p.seed)
        # before round 1: 0.0 (bbpPairings refuses a player line without points); a bye of a round being
        # played is in the blocks, not yet in the table
        points: Fraction | None = row.points + pending.get(p.seed, 0) if row is not None else Fraction(0)
        if row is not None and info.is_group:
            board = row.tiebreaks[GROUP_COLUMNS[0]]
            points = Fraction(board) if board is not None else None
        record = _record(p)
        record.points = points
        record.rank = row.rank if row is not None else None
        record.rounds = blocks[p.seed]
        doc.players[p.seed] = record
    doc.lines = _headers(t, doc) + _comments(t)
    return doc


def _left_out(t: Tournament, number: int) -> dict[int, RoundEntry]:
    """The block of each player round ``number`` (not paired yet) leaves out: a late entry not in yet
    its late-entry bye, a zero-point bye asked for ``Z``, anyone else (withdrawn, an absence nobody
    excused) ``0000 - Z``."""
    fide = t.info.fide
    out: dict[int, RoundEntry] = {}
    for seed in sorted(t.left_out(number)):
        first = t.player(seed).from_round
        if fide is not None and first is not None and number < first and t.stays_in_draw(seed):
            out[seed] = RoundEntry(None, TrfColour.NONE, BYES[fide.late_entry_bye])
        elif seed in t.requested_byes(number):
            out[seed] = RoundEntry(None, TrfColour.NONE, BYES[ByeKind.ZERO_POINT])
        else:
            out[seed] = NOT_PAIRED
    return out


def _comments(t: Tournament) -> list[TrfLine]:
    """``###`` lines naming the withdrawals and the corrected results (the canonical writer puts
    them before the player lines)."""
    out = []
    for seed, w in sorted(t.withdrawals.items()):
        why = f": {_text(w.reason)}" if w.reason else ""
        out.append(f"### {seed:04d} {w.status.value}{why}")
    for rnd in t.published_rounds():
        for game in rnd.games:
            for c in game.corrections:
                why = f": {_text(c.reason)}" if c.reason else ""
                out.append(
                    f"### round {game.round} {game.white:04d}-{game.black:04d} result corrected "
                    f"from {c.old_outcome.value} to {c.outcome.value}{why}"
                )
    return [TrfLine(code="###", text=text) for text in out]
