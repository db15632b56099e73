"""FIDE Dutch system (C.04.3, 2025 rules) Swiss pairing, giving the pairings of bbpPairings v6.

Build a :class:`RoundInput` (or read one from TRF with :func:`from_trf`) and call
:func:`pair_round`.
"""

from services.pairing.domain.dutch.engine import pair_round
from services.pairing.domain.dutch.model import (
    Colour,
    DutchError,
    InvalidInputError,
    NoValidPairingError,
    Pairing,
    PairingPoints,
    PlayerHistory,
    RoundInput,
    RoundKind,
    RoundRecord,
)
from services.pairing.domain.dutch.trf_adapter import from_trf

__all__ = [
    "Colour",
    "DutchError",
    "InvalidInputError",
    "NoValidPairingError",
    "Pairing",
    "PairingPoints",
    "PlayerHistory",
    "RoundInput",
    "RoundKind",
    "RoundRecord",
    "from_trf",
    "pair_round",
]
