"""The input and output of a Dutch-system pairing, independent of any file format.

The pairing service builds a :class:`RoundInput` from its own records; :mod:`.trf_adapter`
builds one from a TRF file. Points are exact fractions so that any point system works
(chess 1/½/0, the ``platform`` ruleset's 2/1/0, 3/1/0 ...).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction


class Colour(Enum):
    WHITE = "w"
    BLACK = "b"

    @property
    def opposite(self) -> Colour:
        return Colour.BLACK if self is Colour.WHITE else Colour.WHITE


class RoundKind(Enum):
    """What happened to a player in one past round."""

    PLAYED = "played"  # a game over the board (any result)
    FORFEIT_WIN = "forfeit-win"  # scheduled game not played; the player won by forfeit
    FORFEIT_LOSS = "forfeit-loss"  # scheduled game not played; the player lost by forfeit
    PAB = "pab"  # pairing-allocated bye
    HPB = "hpb"  # half-point bye (requested absence)
    FPB = "fpb"  # full-point bye (not allocated by the pairing)
    ZPB = "zpb"  # zero-point bye, or not in the tournament that round

    @property
    def played(self) -> bool:
        return self is RoundKind.PLAYED


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """One past round of one player.

    ``opponent`` is the opponent's pairing number for a played or forfeited game, else None.
    ``colour`` is the colour of a game played over the board; a forfeited game carries none.
    ``points`` is what the player scored in the round.
    """

    kind: RoundKind
    points: Fraction
    opponent: int | None = None
    colour: Colour | None = None

    def __post_init__(self) -> None:
        if self.kind is RoundKind.PLAYED and (self.opponent is None or self.colour is None):
            raise ValueError("a played game needs an opponent and a colour")
        if self.kind in (RoundKind.PAB, RoundKind.HPB, RoundKind.FPB, RoundKind.ZPB) and (
            self.opponent is not None
        ):
            raise ValueError(f"a {self.kind.value} has no opponent")

    @property
    def participated(self) -> bool:
        """Was the player in the pairing of that round (paired, or given the PAB)?"""
        if self.kind in (RoundKind.PLAYED, RoundKind.PAB, RoundKind.FORFEIT_WIN):
            return True
        return self.kind is RoundKind.FORFEIT_LOSS and self.opponent is not None


@dataclass(frozen=True, slots=True)
class PairingPoints:
    """Points per outcome. ``pab`` defaults to a win."""

    win: Fraction = Fraction(1)
    draw: Fraction = Fraction(1, 2)
    loss: Fraction = Fraction(0)
    zero_bye: Fraction = Fraction(0)
    forfeit_loss: Fraction = Fraction(0)
    pab: Fraction | None = None

    @property
    def pab_points(self) -> Fraction:
        return self.win if self.pab is None else self.pab

    @classmethod
    def platform(cls) -> PairingPoints:
        """The ``platform`` ruleset: win 2, draw 1, loss 0; the PAB scores like a win."""
        return cls(win=Fraction(2), draw=Fraction(1), loss=Fraction(0))


@dataclass(frozen=True, slots=True)
class PlayerHistory:
    """A player as the pairing sees them: pairing number and the record of every past round.

    ``accelerations`` holds the acceleration of each round (index r-1 for round r): points
    added to the score for pairing purposes only (TRF ``XXA``; see ``docs/pairing-dutch.md``).
    Rounds beyond the tuple have none.
    """

    number: int
    rounds: tuple[RoundRecord, ...] = ()
    accelerations: tuple[Fraction, ...] = ()

    @property
    def score(self) -> Fraction:
        return sum((r.points for r in self.rounds), Fraction(0))


@dataclass(frozen=True, slots=True)
class RoundInput:
    """Everything needed to pair the next round.

    ``players`` holds every player of the tournament (each with one record per past round);
    ``absent`` the pairing numbers not to be paired this round (requested byes, withdrawals).
    ``forbidden_pairs`` are pairs that must not meet (on top of earlier opponents).
    ``ranking`` lists every player's pairing number in ranking order, when that is not the
    pairing-number order (TRF ``XXC rank``: the order of the player lines); the ranking breaks
    ties within a score and decides colours as the pairing numbers otherwise do.
    """

    players: tuple[PlayerHistory, ...]
    total_rounds: int
    initial_colour: Colour = Colour.WHITE
    absent: frozenset[int] = frozenset()
    forbidden_pairs: frozenset[frozenset[int]] = frozenset()
    points: PairingPoints = field(default_factory=PairingPoints)
    ranking: tuple[int, ...] | None = None

    @property
    def rounds_played(self) -> int:
        return max((len(p.rounds) for p in self.players), default=0)


@dataclass(frozen=True, slots=True)
class Pairing:
    """The pairing of one round: games as (white, black) in board order, and the PAB (if any)."""

    games: tuple[tuple[int, int], ...]
    bye: int | None = None

    def lines(self) -> list[str]:
        """bbpPairings' output format: the count, then ``white black`` lines, ``X 0`` for the bye."""
        out = [str(len(self.games) + (self.bye is not None))]
        out += [f"{w} {b}" for w, b in self.games]
        if self.bye is not None:
            out.append(f"{self.bye} 0")
        return out


class DutchError(Exception):
    """The round cannot be paired."""


class InvalidInputError(DutchError):
    """The input contradicts itself (unknown player, inconsistent opponents, too many rounds)."""


class NoValidPairingError(DutchError):
    """No pairing satisfies the absolute criteria (C1-C3 and the PAB rules)."""

    def __init__(self, message: str = "") -> None:
        super().__init__(
            message
            or "The players could not be simultaneously matched while satisfying all absolute criteria."
        )
