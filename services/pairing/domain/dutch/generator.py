"""Random tournaments paired by the engine, as TRF-16 (FIDE C.04.A asks endorsed engines for a
random tournament generator, so that an engine can be tested on thousands of events).

:func:`generate` draws a field (ratings 1400-2700, pairing numbers in rating order), then plays
it round by round: first the absences of the round (withdrawals, half- and zero-point byes,
written as the round's blocks), then the engine pairs the others from the document itself (as
any TRF reader would), then each game gets a result: a forfeit at the forfeit rate (either side
absent), else a draw at the draw rate and a win by the Elo expectation of the two ratings
(``1 / (1 + 10 ** ((opponent - own) / 400))``, less half the draw rate). Everything comes from
one seeded :class:`random.Random`, so the same profile gives the same file.

The document is laid out as bbpPairings' and JaVaFo's readers expect TRF-16: ``001`` lines with
the score (columns 81-84) and rank, ``XXR`` (rounds), ``XXC white1|black1`` (initial colour),
``XXA`` (acceleration), and for 2-1-0 scoring both JaVaFo's ``XXS`` and bbpPairings' ``BBW``/
``BBD``. With ``accelerated`` the players of group A get the Baku method's virtual points
(C.04.5.1): group A is the first half of the field rounded up to an even number; in the first
half of the rounds (rounded up) they get a win's points in the first half of those rounds
(rounded up) and a draw's points in the rest.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from services.pairing.domain.dutch.engine import pair_round
from services.pairing.domain.dutch.model import DutchError, NoValidPairingError
from services.pairing.domain.dutch.trf_adapter import from_trf, round_points, scoring
from shared.trf import PlayerRecord, ResultCode, RoundEntry, TrfColour, TrfDocument
from shared.trf.acceleration import baku

LOWEST_RATING = 1400
HIGHEST_RATING = 2700


class Scoring(StrEnum):
    CLASSIC = "1-0.5-0"
    PLATFORM = "2-1-0"


@dataclass(frozen=True, slots=True)
class Profile:
    """What to generate. Rates are probabilities: ``draw_rate`` per game played, ``forfeit_rate``
    per game paired, ``bye_rate`` per player and round (a half- or a zero-point bye, equally
    likely), ``absent_rate`` per player and round (withdrawal for the rest of the event)."""

    players: int
    rounds: int
    seed: int = 1
    draw_rate: float = 0.3
    forfeit_rate: float = 0.0
    bye_rate: float = 0.0
    absent_rate: float = 0.0
    scoring: Scoring = Scoring.CLASSIC
    accelerated: bool = False

    def __post_init__(self) -> None:
        if not 2 <= self.players <= 9999:
            raise ValueError(f"--players must be 2 to 9999, got {self.players}")
        if not 1 <= self.rounds <= 99:
            raise ValueError(f"--rounds must be 1 to 99, got {self.rounds}")
        for name in ("draw_rate", "forfeit_rate", "bye_rate", "absent_rate"):
            value = getattr(self, name)
            if not 0 <= value <= 1:
                raise ValueError(f"--{name.replace('_', '-')} must be between 0 and 1, got {value}")


class GenerationError(DutchError):
    """A round of the generated tournament cannot be paired; ``document`` holds the rounds
    before it."""

    def __init__(self, round_no: int, document: TrfDocument, reason: str) -> None:
        super().__init__(f"round {round_no} cannot be paired: {reason}")
        self.round = round_no
        self.document = document


def _points(profile: Profile) -> tuple[Fraction, Fraction]:
    """A win's and a draw's points."""
    if profile.scoring is Scoring.PLATFORM:
        return Fraction(2), Fraction(1)
    return Fraction(1), Fraction(1, 2)


def _field(profile: Profile, rng: random.Random) -> TrfDocument:
    doc = TrfDocument()
    doc.name = f"Random Dutch tournament (seed {profile.seed})"
    doc.tournament_type = "Swiss system, Dutch (FIDE C.04.3)"
    doc.total_rounds = profile.rounds
    doc.initial_colour = rng.choice([TrfColour.WHITE, TrfColour.BLACK])
    ratings = sorted(
        (rng.randint(LOWEST_RATING, HIGHEST_RATING) for _ in range(profile.players)), reverse=True
    )
    for start, rating in enumerate(ratings, start=1):
        doc.players[start] = PlayerRecord(start=start, name=f"Player {start:04d}", rating=rating)
    win, draw = _points(profile)
    if profile.scoring is Scoring.PLATFORM:
        # JaVaFo's XXS (its pairing-allocated bye is 1 unless given) and bbpPairings' BBW/BBD
        doc.point_system = {"W": win, "D": draw, "PAB": win, "BBW": win, "BBD": draw}
    if profile.accelerated:
        doc.accelerations = baku(profile.players, profile.rounds, win, draw)
    return doc


def _absences(doc: TrfDocument, round_no: int, profile: Profile, rng: random.Random, gone: set[int]) -> None:
    """The round's blocks of the players who do not play it: withdrawals (for good) and byes."""
    for start, player in doc.players.items():
        entry: RoundEntry | None = None
        if start in gone or rng.random() < profile.absent_rate:
            gone.add(start)
            entry = RoundEntry(None, TrfColour.NONE, ResultCode.ZERO_POINT_BYE)
        elif rng.random() < profile.bye_rate:
            kind = ResultCode.HALF_POINT_BYE if rng.random() < 0.5 else ResultCode.ZERO_POINT_BYE
            entry = RoundEntry(None, TrfColour.NONE, kind)
        if entry is not None:
            player.rounds.extend([None] * (round_no - 1 - len(player.rounds)))
            player.rounds.append(entry)


def _expectation(own: int, opponent: int) -> float:
    return 1 / (1 + 10 ** ((opponent - own) / 400))


def _game(
    white: int, black: int, doc: TrfDocument, profile: Profile, rng: random.Random
) -> tuple[ResultCode, ResultCode]:
    """The results of White and Black."""
    if rng.random() < profile.forfeit_rate:
        if rng.random() < 0.5:
            return ResultCode.FORFEIT_WIN, ResultCode.FORFEIT_LOSS
        return ResultCode.FORFEIT_LOSS, ResultCode.FORFEIT_WIN
    expected = _expectation(doc.players[white].rating or 0, doc.players[black].rating or 0)
    draw = profile.draw_rate
    win = min(max(expected - draw / 2, 0.0), 1.0 - draw)
    x = rng.random()
    if x < win:
        return ResultCode.WIN, ResultCode.LOSS
    if x < win + draw:
        return ResultCode.DRAW, ResultCode.DRAW
    return ResultCode.LOSS, ResultCode.WIN


def _play_round(doc: TrfDocument, round_no: int, profile: Profile, rng: random.Random) -> None:
    try:
        pairing = pair_round(from_trf(doc))
    except NoValidPairingError as exc:
        raise GenerationError(round_no, doc, str(exc)) from None
    entries: dict[int, RoundEntry] = {}
    for white, black in pairing.games:
        first, second = _game(white, black, doc, profile, rng)
        entries[white] = RoundEntry(black, TrfColour.WHITE, first)
        entries[black] = RoundEntry(white, TrfColour.BLACK, second)
    if pairing.bye is not None:
        entries[pairing.bye] = RoundEntry(None, TrfColour.NONE, ResultCode.PAIRING_ALLOCATED_BYE)
    for start, entry in entries.items():
        player = doc.players[start]
        player.rounds.extend([None] * (round_no - 1 - len(player.rounds)))
        player.rounds.append(entry)


def _standings(doc: TrfDocument) -> None:
    """The score (columns 81-84) and the rank (86-89) after the last round."""
    points = scoring(doc)
    for player in doc.players.values():
        player.points = sum((round_points(entry, points) for entry in player.rounds), Fraction(0))
    order = sorted(doc.players.values(), key=lambda p: (-(p.points or 0), p.start))
    for rank, player in enumerate(order, start=1):
        player.rank = rank


def generate(profile: Profile) -> TrfDocument:
    """A complete tournament. Raises :class:`GenerationError` when a round cannot be paired."""
    rng = random.Random(profile.seed)
    doc = _field(profile, rng)
    gone: set[int] = set()
    try:
        for round_no in range(1, profile.rounds + 1):
            _absences(doc, round_no, profile, rng, gone)
            if any(len(p.rounds) < round_no for p in doc.players.values()):
                _play_round(doc, round_no, profile, rng)
    finally:
        _standings(doc)
    return doc
