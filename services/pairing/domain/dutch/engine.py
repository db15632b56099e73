"""Entry point: pair one round of a Dutch-system Swiss tournament."""

from __future__ import annotations

from services.pairing.domain.dutch.colours import allocate
from services.pairing.domain.dutch.model import Colour, Pairing, RoundInput
from services.pairing.domain.dutch.players import FieldPlayer, build_field
from services.pairing.domain.dutch.procedure import pair_field


def _board_key(white: FieldPlayer, black: FieldPlayer) -> tuple[int, int, int]:
    # Board order uses the real scores: acceleration only affects the pairing (bbpPairings).
    high, low = sorted((white, black), key=lambda p: (-p.raw_score, p.rank))
    return (-high.raw_score, -low.raw_score, high.rank)


def pair_round(data: RoundInput) -> Pairing:
    """Pair the next round (round ``data.rounds_played + 1``).

    Raises :class:`~.model.NoValidPairingError` when no pairing satisfies the absolute
    criteria, :class:`~.model.InvalidInputError` when the input contradicts itself.
    """
    field = build_field(data)
    pairs, bye = pair_field(field)
    games: list[tuple[FieldPlayer, FieldPlayer]] = []
    for a, b in pairs:
        first, second = (a, b) if a.number < b.number else (b, a)
        colour = allocate(first.side, second.side, field.initial_colour)
        games.append((first, second) if colour is Colour.WHITE else (second, first))
    games.sort(key=lambda g: _board_key(*g))
    return Pairing(
        games=tuple((w.number, b.number) for w, b in games),
        bye=bye.number if bye is not None else None,
    )
