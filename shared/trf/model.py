"""The tournament history a TRF file describes, as plain typed data."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction


class TrfColour(StrEnum):
    WHITE = "w"
    BLACK = "b"
    NONE = "-"


class ResultCode(StrEnum):
    """Round result codes of the 001 record (TRF-16 = TRF-2026)."""

    WIN = "1"
    DRAW = "="
    LOSS = "0"
    FORFEIT_WIN = "+"
    FORFEIT_LOSS = "-"
    WIN_UNRATED = "W"  # won after less than one move: played, not rated
    DRAW_UNRATED = "D"
    LOSS_UNRATED = "L"
    HALF_POINT_BYE = "H"
    FULL_POINT_BYE = "F"
    PAIRING_ALLOCATED_BYE = "U"
    ZERO_POINT_BYE = "Z"

    @property
    def played(self) -> bool:
        """Played over the board (the two players have met, the colour counts)."""
        return self in _PLAYED

    @property
    def is_bye(self) -> bool:
        return self in _BYES

    @property
    def is_forfeit(self) -> bool:
        return self in (ResultCode.FORFEIT_WIN, ResultCode.FORFEIT_LOSS)


_PLAYED = frozenset(
    {
        ResultCode.WIN,
        ResultCode.DRAW,
        ResultCode.LOSS,
        ResultCode.WIN_UNRATED,
        ResultCode.DRAW_UNRATED,
        ResultCode.LOSS_UNRATED,
    }
)
_BYES = frozenset(
    {
        ResultCode.HALF_POINT_BYE,
        ResultCode.FULL_POINT_BYE,
        ResultCode.PAIRING_ALLOCATED_BYE,
        ResultCode.ZERO_POINT_BYE,
    }
)


@dataclass(frozen=True, slots=True)
class RoundEntry:
    """One round block of a player line: ``OOOO C R``."""

    opponent: int | None  # start number; None for 0000 or blank
    colour: TrfColour
    result: ResultCode


NOT_PAIRED = RoundEntry(None, TrfColour.NONE, ResultCode.ZERO_POINT_BYE)
"""``0000 - Z``: a round the player is not paired in and scores nothing for — withdrawn, left out after an
unexcused absence, not yet (or no longer) in the event. TRF-16 calls ``Z`` a known absence and reads a
blank block the same way; bbpPairings and JaVaFo leave such a player out of the round and count no
points, and C.07 counts it as a voluntary unplayed round. Every TRF writer of the project (pairing's
history of a ``fide-rapid`` event, the standings' export) codes such a round with this block, so their
files agree (docs/rules-decisions.md)."""


@dataclass(slots=True)
class PlayerRecord:
    """A 001 line."""

    start: int
    name: str = ""
    sex: str = ""
    title: str = ""
    rating: int | None = None
    federation: str = ""
    fide_id: str = ""
    birth: str = ""
    points: Fraction | None = None
    rank: int | None = None
    rounds: list[RoundEntry | None] = field(default_factory=list)  # index r-1; None = empty block

    def entry(self, round_no: int) -> RoundEntry | None:
        if 1 <= round_no <= len(self.rounds):
            return self.rounds[round_no - 1]
        return None


@dataclass(frozen=True, slots=True)
class ByeRecord:
    """A TRF-2026 240 record: a bye of ``kind`` (H, F, Z, U) in ``round`` for these players."""

    kind: str
    round: int
    players: tuple[int, ...]


@dataclass(slots=True)
class TableRules:
    """Arbiter's extension records ``XAR`` (docs/standings.md, "The TRF extension"): what a table needs
    that neither TRF-16 nor TRF-2026 can say, so that a file reads back to the table it was exported
    with. Pairing engines skip records they do not know.

    - ``XAR TIEBREAKS BH/C1, SB, WIN``: the ranking tie-breaks (TRF-16 has no 202 record);
    - ``XAR SHOWN BH, SB``: tie-breaks shown for information, not ranking;
    - ``XAR BYES NO-OPPONENT`` (or ``OPPONENT``): a round without an opponent is no game — it adds
      nothing to BH, SB or FB and WIN does not count it (the platform's rule) — or C.07's dummy opponent;
    - ``XAR DEFINITIONS PLATFORM`` (or ``C07``): BH and SB as the platform defines them (every scheduled
      opponent, a forfeit's too, with their final score; SB the beaten opponents' points plus half the
      drawn ones') — or as C.07 does;
    - ``XAR LOTS SEED``: the seed of the recorded drawing of lots that orders the remaining ties."""

    tiebreaks: list[str] = field(default_factory=list)
    shown: list[str] = field(default_factory=list)
    byes_as_opponents: bool | None = None  # None: the file does not say
    lots_seed: str | None = None
    platform_definitions: bool | None = None  # None: the file does not say

    def __bool__(self) -> bool:
        return bool(
            self.tiebreaks
            or self.shown
            or self.byes_as_opponents is not None
            or self.lots_seed
            or self.platform_definitions is not None
        )


@dataclass(slots=True)
class TrfLine:
    """A record in file order. Player lines point at their :class:`PlayerRecord` by start number;
    every other record keeps its text so the writer reproduces it exactly."""

    code: str
    text: str
    player: int | None = None


@dataclass(slots=True)
class TrfDocument:
    players: dict[int, PlayerRecord] = field(default_factory=dict)
    lines: list[TrfLine] = field(default_factory=list)
    name: str = ""
    start_date: dt.date | None = None
    end_date: dt.date | None = None
    tournament_type: str = ""
    total_rounds: int | None = None  # XXR (or 142)
    initial_colour: TrfColour | None = None  # XXC white1/black1 (or 152)
    ranking_by_rating: bool = False  # XXC rank: players ranked in 001-line order, not by start number
    forbidden_pairs: list[tuple[int, ...]] = field(default_factory=list)  # XXP (and 260)
    absent_next: set[int] = field(default_factory=set)  # XXZ
    accelerations: dict[int, list[Fraction]] = field(default_factory=dict)  # XXA
    # 162 (keys "162W", ...), BBx ("BBW", ...) and XXS ("WW", "PAB", ...) values, in the order of each
    # key's last declaration; shared.trf.points.declared_points reads them as a point system
    point_system: dict[str, Fraction] = field(default_factory=dict)
    # TRF-2026 records
    rank_method: str = ""  # 172
    type_code: str = ""  # 192
    tiebreaks: list[str] = field(default_factory=list)  # 202 (PTS implied) or 212 (PTS listed)
    tiebreaks_with_points: bool = False  # True when read from 212
    time_control: str = ""  # 222, encoded, e.g. 5400+30
    byes: list[ByeRecord] = field(default_factory=list)  # 240
    table_rules: TableRules = field(default_factory=TableRules)  # Arbiter's XAR records
    trf2026: bool = False  # uses TRF-2026 records (142/152/162/.../260): the canonical writer keeps them

    @property
    def rounds_played(self) -> int:
        """Rounds with at least one block in any player line."""
        return max((len(p.rounds) for p in self.players.values()), default=0)

    def records(self, code: str) -> list[str]:
        """The raw text of every record with this three-character code."""
        return [line.text for line in self.lines if line.code == code]
