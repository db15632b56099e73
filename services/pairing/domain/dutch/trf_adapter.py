"""Build a :class:`~.model.RoundInput` from a TRF document (TRF-16/TRF-2026 with the
JaVaFo/bbpPairings extensions), reading it the way bbpPairings does.

* The round to pair follows the last round in which anybody was paired; a player who already
  has a block for that round (``H``, ``Z``, ``F`` or an empty ``0000 -``) is absent, as is
  everyone listed on an ``XXZ`` line.
* Forfeits (``+``/``-``) are not games: no colour, and the two may meet again.
* Points come from TRF-2026 ``162``, ``BBW/BBD/BBL/BBZ/BBF/BBU`` or JaVaFo ``XXS``, read in
  file order as bbpPairings reads them (:func:`shared.trf.declared_points`: ``162 P`` is the
  PAB, ``162 Z``/``A`` both the zero-point bye and the forfeit loss); the default is 1, ½, 0
  with the PAB worth a win. Each round scores as bbpPairings scores it: ``0000 - +`` is a
  PAB, ``0000 - -`` a zero-point bye.
* The initial colour comes from ``XXC white1/black1`` (or ``152``); without it, it is
  inferred from the first round in which colours were given.
* ``XXA`` lines give each player's acceleration per round (points added to the score for
  pairing purposes). ``XXC rank`` ranks the players in the order of their ``001`` lines
  instead of by pairing number.
"""

from __future__ import annotations

from fractions import Fraction

from services.pairing.domain.dutch.checker import PublishedBoard, PublishedRound
from services.pairing.domain.dutch.model import (
    Colour,
    InvalidInputError,
    PairingPoints,
    PlayerHistory,
    RoundInput,
    RoundKind,
    RoundRecord,
)
from shared.scoring import FIDE, Result
from shared.scoring import PointSystem as Scoring
from shared.trf import ResultCode, RoundEntry, TrfColour, TrfDocument, declared_points
from shared.trf.results import RESULTS


def scoring(doc: TrfDocument) -> Scoring:
    """The file's declared point system, else 1, ½, 0 with the PAB worth a win."""
    return declared_points(doc) or FIDE


def point_system(doc: TrfDocument) -> PairingPoints:
    ps = scoring(doc)
    return PairingPoints(
        win=ps.win,
        draw=ps.draw,
        loss=ps.loss,
        zero_bye=ps.zero_point_bye,
        forfeit_loss=ps.forfeit_loss,
        pab=ps.pairing_bye,
    )


def _result(entry: RoundEntry) -> Result:
    """The entry's result as bbpPairings scores it: without an opponent a forfeit win is the
    pairing-allocated bye and a forfeit loss is a zero-point bye (nobody was paired with them)."""
    if entry.opponent is None and entry.result is ResultCode.FORFEIT_WIN:
        return Result.PAIRING_BYE
    if entry.opponent is None and entry.result is ResultCode.FORFEIT_LOSS:
        return Result.ZERO_POINT_BYE
    return RESULTS[entry.result]


_UNPLAYED = {
    Result.FORFEIT_WIN: RoundKind.FORFEIT_WIN,
    Result.FORFEIT_LOSS: RoundKind.FORFEIT_LOSS,
    Result.PAIRING_BYE: RoundKind.PAB,
    Result.FULL_POINT_BYE: RoundKind.FPB,
    Result.HALF_POINT_BYE: RoundKind.HPB,
    Result.ZERO_POINT_BYE: RoundKind.ZPB,
}


def _record(entry: RoundEntry | None, ps: Scoring) -> RoundRecord:
    if entry is None:
        return RoundRecord(RoundKind.ZPB, ps.zero_point_bye)
    result = _result(entry)
    points = ps.points(result, black=entry.colour is TrfColour.BLACK)
    if result.played:
        colour = Colour.WHITE if entry.colour is TrfColour.WHITE else Colour.BLACK
        return RoundRecord(RoundKind.PLAYED, points, entry.opponent, colour)
    kind = _UNPLAYED[result]
    opponent = entry.opponent if kind in (RoundKind.FORFEIT_WIN, RoundKind.FORFEIT_LOSS) else None
    return RoundRecord(kind, points, opponent)


def round_points(entry: RoundEntry | None, ps: Scoring) -> Fraction:
    """What a round block scores, as bbpPairings scores it (no block: a zero-point bye)."""
    return _record(entry, ps).points


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
    played = rounds_played(doc)
    absent = set(doc.absent_next)
    for number, record in doc.players.items():
        if len(record.rounds) > played:
            absent.add(number)
    return _round_input(doc, played, absent, colours_from=played)


def round_input(doc: TrfDocument, round_no: int) -> RoundInput:
    """The input that pairs round ``round_no`` of the document again from the rounds before it.

    The absent players are those the document does not pair in that round (a requested bye, an
    absence, no block at all); ``XXZ`` (the round after the document) does not apply. Without
    ``XXC white1/black1`` the initial colour is inferred from the whole document; without ``XXR``
    the document is taken to hold every round (as bbpPairings' checker does)."""
    if not 1 <= round_no <= doc.rounds_played:
        raise InvalidInputError(f"round {round_no} is not in the file (it has {doc.rounds_played} rounds)")
    absent = {n for n, record in doc.players.items() if not _participated(record.entry(round_no))}
    total = doc.rounds_played if doc.total_rounds is None else doc.total_rounds
    return _round_input(doc, round_no - 1, absent, colours_from=doc.rounds_played, total=total)


def _round_input(
    doc: TrfDocument, played: int, absent: set[int], *, colours_from: int, total: int | None = None
) -> RoundInput:
    total = doc.total_rounds if total is None else total
    if total is None:
        raise InvalidInputError("the total number of rounds must be given (XXR)")
    ps = scoring(doc)
    players: list[PlayerHistory] = []
    for number in doc.accelerations:
        if number not in doc.players:
            raise InvalidInputError(f"XXA names unknown player {number}")
    for number in sorted(doc.players):
        record = doc.players[number]
        history = tuple(_record(record.entry(r), ps) for r in range(1, played + 1))
        acc = tuple(doc.accelerations.get(number, ()))
        players.append(PlayerHistory(number, history, acc))
    forbidden = frozenset(
        frozenset((a, b)) for group in doc.forbidden_pairs for a in group for b in group if a != b
    )
    return RoundInput(
        players=tuple(players),
        total_rounds=total,
        initial_colour=_initial_colour(doc, colours_from),
        absent=frozenset(absent),
        forbidden_pairs=forbidden,
        points=point_system(doc),
        ranking=tuple(ranking_order(doc)) if doc.ranking_by_rating else None,
    )


def published_round(doc: TrfDocument, round_no: int) -> PublishedRound:
    """The pairing the document holds for round ``round_no``: its boards (colours as given; a
    forfeit may carry none) and its pairing-allocated byes (``U``, or ``0000 - +``)."""
    boards: list[PublishedBoard] = []
    byes: list[int] = []
    for number in sorted(doc.players):
        entry = doc.players[number].entry(round_no)
        if entry is None:
            continue
        if entry.opponent is None:
            if _participated(entry):
                byes.append(number)
            continue
        if entry.opponent < number:
            continue  # the opponent's line gives the board
        if entry.colour is TrfColour.BLACK:
            boards.append(PublishedBoard(entry.opponent, number))
        else:
            boards.append(PublishedBoard(number, entry.opponent, coloured=entry.colour is TrfColour.WHITE))
    return PublishedRound(tuple(boards), tuple(byes))
