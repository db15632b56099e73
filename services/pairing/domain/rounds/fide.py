"""The `fide-rapid` rounds (RULES.md §6) as a TRF-16 document, and the Dutch pairing made from it.

The tournament's history is written as the TRF-16 file a rating officer receives (with the JaVaFo and
bbpPairings extensions ``XXR``, ``XXC`` and ``XXA``), and the next round is paired from that document by
the same reading bbpPairings does (:func:`~services.pairing.domain.dutch.trf_adapter.from_trf`). So the
exported file, given to bbpPairings, JaVaFo or ``arbiter pair --dutch``, pairs every round as the service
paired it: there is one description of the history, not two.

How a round is coded (TRF-16, as the pairing programs read it):

* a game: the opponent, the colour and ``1 = 0`` (a result), ``+ -`` (a forfeit, at the default time
  too: the absent side has ``-``; neither came: both ``-``);
* the pairing-allocated bye: ``0000 - U`` (a win's points);
* a zero-point bye asked for before the round was paired: ``0000 - Z``; a late entry's missed rounds:
  ``0000 - Z`` or ``0000 - H`` as the settings say;
* a player left out for another reason (withdrawn, an unexcused absence): ``0000 - Z`` (no points;
  :data:`shared.trf.NOT_PAIRED`, as the standings' export writes it);
* Baku acceleration (FIDE C.04.7): ``XXA`` lines for group A, the top ``2 × ⌈n/4⌉`` of the players entered
  at the start, one virtual point in the first half of the accelerated rounds and half a point in the
  second (the first ``⌈rounds/2⌉`` rounds).

Scoring is FIDE's: 1, ½, 0; a forfeit win and the pairing-allocated bye score a win.
"""

from __future__ import annotations

import math
import uuid
from dataclasses import dataclass
from fractions import Fraction

from services.pairing.domain.dutch import model as dutch
from services.pairing.domain.dutch.engine import pair_round
from services.pairing.domain.dutch.trf_adapter import from_trf, round_points
from services.pairing.domain.errors import NoValidPairing
from services.pairing.domain.rounds.tournament import DEFAULT_TIME as DEFAULT_TIME
from services.pairing.domain.rounds.tournament import Board, Draw, PairingTournament
from shared.scoring import FIDE, Outcome
from shared.trf import NOT_PAIRED, PlayerRecord, RoundEntry, TrfColour, TrfDocument
from shared.trf.acceleration import baku
from shared.trf.results import BYES, codes_of
from shared.vocabulary import ByeKind


def _bye(kind: ByeKind) -> RoundEntry:
    return RoundEntry(None, TrfColour.NONE, BYES[kind])


def initial_colour(t: PairingTournament) -> TrfColour:
    """White or Black for the first player of round 1 (C.04.3's lot), drawn from the tournament id."""
    return TrfColour.WHITE if t.id.int % 2 == 0 else TrfColour.BLACK


def accelerations(t: PairingTournament) -> dict[int, list[Fraction]]:
    """Baku acceleration's virtual points by seed (``XXA``), for the players entered at the start."""
    assert t.fide is not None
    if not t.fide.acceleration:
        return {}
    starters = sum(1 for p in t.players if p.from_round is None)
    return baku(starters, t.total_rounds, FIDE.win, FIDE.draw)


def _absence_block(t: PairingTournament, seed: int, number: int) -> RoundEntry:
    """The block of a player who is not paired in round ``number``."""
    assert t.fide is not None
    player = t.player(seed)
    if player.from_round is not None and number < player.from_round:
        return _bye(t.fide.late_entry_bye)
    if (number, seed) in t.bye_requests and t.stays_in_draw(seed):
        return _bye(ByeKind.ZERO_POINT)
    return NOT_PAIRED


def document(t: PairingTournament, rounds: int) -> TrfDocument:
    """Rounds 1 to ``rounds`` of the tournament as a TRF-16 document (every round paired and finished:
    a game without a result is written as not played yet, a blank block)."""
    doc = TrfDocument(
        name=t.name,
        tournament_type="Swiss system, Dutch (FIDE C.04.3)"
        if t.system.value == "swiss"
        else "Round robin (FIDE Berger tables)",
        total_rounds=t.total_rounds,
        initial_colour=initial_colour(t),
        accelerations=accelerations(t),
    )
    for p in t.players:
        doc.players[p.seed] = PlayerRecord(start=p.seed, name=p.name, rating=p.rating or None)
    for number in range(1, rounds + 1):
        rnd = t.round(number)
        assert rnd is not None, f"round {number} is not paired"
        blocks: dict[int, RoundEntry | None] = {}
        for g in rnd.games:
            if g.outcome is None or g.outcome is Outcome.NOT_PLAYED:
                blocks[g.white] = blocks[g.black] = None
                continue
            white, black = codes_of(g.outcome)
            blocks[g.white] = RoundEntry(g.black, TrfColour.WHITE, white)
            blocks[g.black] = RoundEntry(g.white, TrfColour.BLACK, black)
        for b in rnd.byes:
            blocks[b.seed] = _bye(b.kind)
        for seed, record in doc.players.items():
            record.rounds.append(blocks[seed] if seed in blocks else _absence_block(t, seed, number))
    for record in doc.players.values():
        record.points = sum((round_points(e, FIDE) for e in record.rounds), Fraction(0))
    return doc


def points_before(t: PairingTournament, number: int) -> dict[int, Fraction]:
    """Every player's points before round ``number`` (the rounds before it all finished)."""
    doc = document(t, number - 1)
    return {seed: record.points or Fraction(0) for seed, record in doc.players.items()}


def round_input(t: PairingTournament, number: int) -> dutch.RoundInput:
    """What the Dutch engine pairs round ``number`` from: the document of the rounds before it, with the
    players left out of it listed as ``XXZ`` (the absent ones of ``PairingTournament.absent``)."""
    doc = document(t, number - 1)
    doc.absent_next = set(t.absent(number))
    return from_trf(doc)


class FideSwissPairer:
    """Pairs a `fide-rapid` Swiss round with the FIDE Dutch engine, from the round's TRF document."""

    def pair(self, tournament: PairingTournament, round_no: int) -> Draw:
        try:
            result = pair_round(round_input(tournament, round_no))
        except dutch.DutchError as exc:
            raise NoValidPairing(str(exc)) from exc
        return Draw(tuple(Board(w, b) for w, b in result.games), result.bye)


@dataclass(frozen=True)
class ListedPlayer:
    seed: int
    player_id: uuid.UUID
    name: str
    rating: int | None
    points: Fraction


@dataclass(frozen=True)
class ListedBoard:
    board: int
    white: ListedPlayer
    black: ListedPlayer
    outcome: Outcome | None


@dataclass(frozen=True)
class ListedBye:
    player: ListedPlayer
    kind: ByeKind


@dataclass(frozen=True)
class PairingList:
    """A round's pairing list by board, with each player's points before the round, and its byes."""

    round: int
    published: bool
    boards: tuple[ListedBoard, ...]
    byes: tuple[ListedBye, ...]


def pairing_list(t: PairingTournament, number: int) -> PairingList:
    rnd = t.round(number)
    assert rnd is not None
    points = points_before(t, number)

    def listed(seed: int) -> ListedPlayer:
        p = t.player(seed)
        return ListedPlayer(seed, p.player_id, p.name, p.rating, points[seed])

    boards = tuple(
        ListedBoard(g.board, listed(g.white), listed(g.black), g.outcome)
        for g in sorted(rnd.games, key=lambda g: (g.board, g.leg))
    )
    byes = tuple(ListedBye(listed(b.seed), b.kind) for b in rnd.byes)
    return PairingList(number, rnd.published, boards, byes)


def format_points(points: Fraction) -> str:
    whole = math.floor(points)
    return f"{whole}½" if points - whole else str(whole)
