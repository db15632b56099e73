"""Build a :class:`~.model.RoundInput` from a TRF document (TRF-16/TRF-2026 with the
JaVaFo/bbpPairings extensions), reading it the way bbpPairings does.

* The round to pair follows the last round in which anybody was paired; a player who already
  has a block for that round (``H``, ``Z``, ``F`` or an empty ``0000 -``) is absent, as is
  everyone listed on an ``XXZ`` line.
* Forfeits (``+``/``-``) are not games: no colour, and the two may meet again.
* Points come from ``BBW/BBD/BBL/BBZ/BBF/BBU``, TRF-2026 ``162`` or JaVaFo ``XXS``; the
  default is 1, ½, 0 with the PAB worth a win.
* The initial colour comes from ``XXC white1/black1`` (or ``152``); without it, it is
  inferred from the first round in which colours were given.
* ``XXA`` lines give each player's acceleration per round (points added to the score for
  pairing purposes). ``XXC rank`` ranks the players in the order of their ``001`` lines
  instead of by pairing number.
"""

from __future__ import annotations

from fractions import Fraction

from services.pairing.domain.dutch.model import (
    Colour,
    InvalidInputError,
    PlayerHistory,
    PointSystem,
    RoundInput,
    RoundKind,
    RoundRecord,
)
from shared.trf import Colour as TrfColour
from shared.trf import ResultCode, RoundEntry, TrfDocument


def point_system(doc: TrfDocument) -> PointSystem:
    ps = doc.point_system
    win = ps.get("BBW", ps.get("162W", ps.get("XXS:W", ps.get("W", Fraction(1)))))
    draw = ps.get("BBD", ps.get("162D", ps.get("D", Fraction(1, 2))))
    loss = ps.get("BBL", ps.get("162L", Fraction(0)))
    zero = ps.get("BBZ", ps.get("162Z", ps.get("ZPB", Fraction(0))))
    forfeit = ps.get("BBF", ps.get("FL", Fraction(0)))
    pab = ps.get("BBU", ps.get("162U", ps.get("PAB")))
    return PointSystem(win=win, draw=draw, loss=loss, zero_bye=zero, forfeit_loss=forfeit, pab=pab)


def _points(entry: RoundEntry, ps: PointSystem) -> Fraction:
    code = entry.result
    if code in (ResultCode.WIN, ResultCode.WIN_UNRATED, ResultCode.FORFEIT_WIN, ResultCode.FULL_POINT_BYE):
        return ps.win
    if code in (ResultCode.DRAW, ResultCode.DRAW_UNRATED, ResultCode.HALF_POINT_BYE):
        return ps.draw
    if code in (ResultCode.LOSS, ResultCode.LOSS_UNRATED):
        return ps.loss
    if code is ResultCode.FORFEIT_LOSS:
        return ps.forfeit_loss
    if code is ResultCode.PAIRING_ALLOCATED_BYE:
        return ps.pab_points
    return ps.zero_bye


def _record(entry: RoundEntry | None, ps: PointSystem) -> RoundRecord:
    if entry is None:
        return RoundRecord(RoundKind.ZPB, ps.zero_bye)
    points = _points(entry, ps)
    code = entry.result
    if code.played and entry.opponent is not None:
        colour = Colour.WHITE if entry.colour is TrfColour.WHITE else Colour.BLACK
        return RoundRecord(RoundKind.PLAYED, points, entry.opponent, colour)
    if code in (ResultCode.FORFEIT_WIN, ResultCode.WIN, ResultCode.WIN_UNRATED):
        return RoundRecord(RoundKind.FORFEIT_WIN, points, entry.opponent)
    if code in (ResultCode.FORFEIT_LOSS, ResultCode.LOSS, ResultCode.LOSS_UNRATED):
        return RoundRecord(RoundKind.FORFEIT_LOSS, points, entry.opponent)
    kind = {
        ResultCode.PAIRING_ALLOCATED_BYE: RoundKind.PAB,
        ResultCode.HALF_POINT_BYE: RoundKind.HPB,
        ResultCode.FULL_POINT_BYE: RoundKind.FPB,
        ResultCode.DRAW: RoundKind.HPB,
        ResultCode.DRAW_UNRATED: RoundKind.HPB,
    }.get(code, RoundKind.ZPB)
    return RoundRecord(kind, points)


def _participated(entry: RoundEntry | None) -> bool:
    if entry is None:
        return False
    return entry.opponent is not None or entry.result in (
        ResultCode.PAIRING_ALLOCATED_BYE,
        ResultCode.FORFEIT_WIN,
    )


def rounds_played(doc: TrfDocument) -> int:
    """The last round in which somebody was paired (later blocks are requested byes)."""
    played = 0
    for player in doc.players.values():
        for r, entry in enumerate(player.rounds, start=1):
            if entry is None:
                continue
            played = max(played, r - 1)
            if _participated(entry):
                played = max(played, r)
    if doc.players and all(len(p.rounds) > played for p in doc.players.values()):
        played += 1  # every player has a block for the next round: it is a past round
    return played


def ranking_order(doc: TrfDocument) -> list[int]:
    """The players in ranking order: the order of the ``001`` lines with ``XXC rank``, else
    the pairing numbers (bbpPairings' "positional IDs" and "pairing IDs")."""
    return list(doc.players) if doc.ranking_by_rating else sorted(doc.players)


def _initial_colour(doc: TrfDocument, played: int) -> Colour:
    if doc.initial_colour is not None:
        return Colour.WHITE if doc.initial_colour is TrfColour.WHITE else Colour.BLACK
    first = None
    for player in doc.players.values():
        for r, entry in enumerate(player.rounds[:played]):
            if entry is not None and entry.colour is not TrfColour.NONE:
                first = r if first is None else min(first, r)
    if first is not None:
        rank = 0
        for number in ranking_order(doc):
            entries = doc.players[number].rounds[: first + 1]
            if any(_participated(e) for e in entries):
                entry = doc.players[number].entry(first + 1)
                colour = entry.colour if entry is not None else TrfColour.NONE
                if colour is not TrfColour.NONE:
                    own = Colour.WHITE if colour is TrfColour.WHITE else Colour.BLACK
                    return own.opposite if rank & 1 else own
                rank += 1  # no colour in that round (a bye, a forfeit): ask the next player
    raise InvalidInputError("please configure the initial colour (XXC white1 or black1)")


def from_trf(doc: TrfDocument) -> RoundInput:
    """The round after the last one paired in the document."""
    if doc.total_rounds is None:
        raise InvalidInputError("the total number of rounds must be given (XXR)")
    played = rounds_played(doc)
    ps = point_system(doc)
    players: list[PlayerHistory] = []
    absent = set(doc.absent_next)
    for number in doc.accelerations:
        if number not in doc.players:
            raise InvalidInputError(f"XXA names unknown player {number}")
    for number in sorted(doc.players):
        record = doc.players[number]
        if len(record.rounds) > played:
            absent.add(number)
        history = tuple(_record(record.entry(r), ps) for r in range(1, played + 1))
        acc = tuple(doc.accelerations.get(number, ()))
        players.append(PlayerHistory(number, history, acc))
    forbidden = frozenset(
        frozenset((a, b)) for group in doc.forbidden_pairs for a in group for b in group if a != b
    )
    return RoundInput(
        players=tuple(players),
        total_rounds=doc.total_rounds,
        initial_colour=_initial_colour(doc, played),
        absent=frozenset(absent),
        forbidden_pairs=forbidden,
        points=ps,
        ranking=tuple(ranking_order(doc)) if doc.ranking_by_rating else None,
    )
