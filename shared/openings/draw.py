"""Drawing the openings of a round (RULES.md §2): one opening per pairing, which both games of the
pairing play with double rounds (colours swapped: the same moves from the same position, the players
on the other sides).

* ``free``: no opening (None).
* ``random-N``: N random legal moves from the move generator, one move at a time, each uniformly among
  the legal moves that still lead to an opening not used yet in the tournament (see below).
* ``table-K`` / ``table-all``: one opening of the table up to grade K (or of the whole table), uniformly
  among those not used yet.
* ``thematic:CODE``: that table opening for every game; nothing is drawn and it may repeat.

**Never twice.** An opening drawn once in a tournament is not drawn again (RULES.md asks it of a
Swiss; Arbiter does the same in a round robin: nothing in the source asks for a repeat). Table
openings are the same when their codes are; random openings when they reach the same position, so
``1. d3 e6 2. e3`` and ``1. e3 e6 2. d3`` are one opening. **When every opening has been used** (a
small table or few random moves for a large field), the draw continues with the least-used ones: the
table is played through again in a new random order, and within one round no opening is given twice
while unused ones remain.

**Reproducible.** A draw takes a ``seed`` (e.g. ``"<tournament id>:<round>"``) and what earlier rounds
used; each choice is the SHA-256 of the seed, the pairing's index and the ply, so the same seed and
history give the same openings on any machine and Python version (given the same, pinned, generator).
"""

from __future__ import annotations

import functools
import hashlib
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from shared.games import boards
from shared.openings.options import OpeningKind, OpeningOption
from shared.openings.tables import OpeningTable, TableOpening, table_for
from shared.variants import Variant


@dataclass(frozen=True)
class DrawnOpening:
    """The opening of one game: a table ``code`` (None for random moves), the ``moves`` in the variant's
    notation (SAN for chess), and ``fen``, the position the game starts from."""

    variant: Variant
    code: str | None
    moves: tuple[str, ...]
    fen: str

    @property
    def label(self) -> str:
        """What pages and ``arbiter demo --json`` show: the table code, or the moves played."""
        return self.code if self.code is not None else " ".join(self.moves)

    def as_json(self) -> dict[str, Any]:
        """As the services store it (the fields of the wire's ``GameOpening``: code, moves, fen)."""
        return {"code": self.code, "moves": list(self.moves), "fen": self.fen}

    @classmethod
    def from_json(cls, variant: Variant, data: Mapping[str, Any] | None) -> DrawnOpening | None:
        """An opening as :meth:`as_json` stored it (None stays None: a free game)."""
        if data is None:
            return None
        return cls(variant, data["code"], tuple(data["moves"]), data["fen"])

    @property
    def key(self) -> str:
        """Two openings with the same key are the same opening (never twice in a tournament)."""
        if self.code is not None:
            return f"table:{self.code}"
        return f"position:{boards.Position(self.variant, self.fen).key}"


def check_option(option: OpeningOption, variant: Variant, *, italian: OpeningTable | None = None) -> None:
    """Refuse what cannot be drawn for ``variant``, with the error the organiser should see: a table
    option without a federation table, a balance cap on a table without classes (or with no opening
    within it), a thematic code the table does not have. Nothing is drawn."""
    if not option.uses_table:
        return
    table = table_for(variant, italian=italian)
    if option.kind is OpeningKind.TABLE:
        table.within(option.cap)
    else:
        assert option.code is not None
        table.opening(option.code)


def table_of(
    option: OpeningOption, variant: Variant, *, italian: OpeningTable | None = None
) -> OpeningTable | None:
    """The table ``option`` draws from (None for free and random openings)."""
    return table_for(variant, italian=italian) if option.uses_table else None


def draw_openings(
    option: OpeningOption,
    variant: Variant,
    *,
    pairings: int,
    seed: str,
    used: Iterable[DrawnOpening] = (),
    italian: OpeningTable | None = None,
) -> tuple[DrawnOpening | None, ...]:
    """The openings of a round's ``pairings`` in board order (None: free), given the openings the
    tournament ``used`` in earlier rounds. Raises the errors of :func:`check_option`."""
    check_option(option, variant, italian=italian)
    match option.kind:
        case OpeningKind.FREE:
            return (None,) * pairings
        case OpeningKind.THEMATIC:
            assert option.code is not None
            table = table_for(variant, italian=italian)
            return (_from_table(variant, table.opening(option.code)),) * pairings
        case OpeningKind.TABLE:
            table = table_for(variant, italian=italian)
            return _draw_table(variant, table.within(option.cap), pairings, seed, used)
        case OpeningKind.RANDOM:
            assert option.moves is not None
            return _draw_random(variant, option.moves, pairings, seed, used)


def opening_of(variant: Variant, moves: Sequence[str], *, code: str | None = None) -> DrawnOpening:
    """A game's opening from its moves (replayed: each must be legal), e.g. as stored or reported."""
    line = boards.replay(variant, moves)
    return DrawnOpening(variant, code, line.moves, line.position.fen)


# -- drawing -----------------------------------------------------------------------------------------
def _pick(count: int, seed: str, *path: object) -> int:
    digest = hashlib.sha256(":".join(str(p) for p in (seed, *path)).encode()).digest()
    return int.from_bytes(digest[:8], "big") % count


def _from_table(variant: Variant, opening: TableOpening) -> DrawnOpening:
    return _replayed(variant, opening.code, opening.moves)


@functools.lru_cache(maxsize=512)
def _replayed(variant: Variant, code: str | None, moves: tuple[str, ...]) -> DrawnOpening:
    line = boards.replay(variant, moves)
    return DrawnOpening(variant, code, line.moves, line.position.fen)


def _draw_table(
    variant: Variant,
    candidates: Sequence[TableOpening],
    pairings: int,
    seed: str,
    used: Iterable[DrawnOpening],
) -> tuple[DrawnOpening | None, ...]:
    counts = Counter(o.key for o in used)
    drawn: list[DrawnOpening | None] = []
    for index in range(pairings):
        least = min(counts[f"table:{o.code}"] for o in candidates)
        eligible = [o for o in candidates if counts[f"table:{o.code}"] == least]
        chosen = eligible[_pick(len(eligible), seed, index)]
        counts[f"table:{chosen.code}"] += 1
        drawn.append(_from_table(variant, chosen))
    return tuple(drawn)


@functools.lru_cache(maxsize=16)
def _branches(variant: Variant, plies: int) -> tuple[boards.Branch, ...]:
    """Every line of ``plies`` moves from the initial position (computed once per process: thousands of
    lines for three chess moves, hundreds for draughts)."""
    return boards.branches(boards.start(variant), plies)


def _draw_random(
    variant: Variant, plies: int, pairings: int, seed: str, used: Iterable[DrawnOpening]
) -> tuple[DrawnOpening | None, ...]:
    branches = _branches(variant, plies)
    counts = Counter(o.key for o in used)

    def count(branch: boards.Branch) -> int:
        return counts[f"position:{branch.key}"]

    drawn: list[DrawnOpening | None] = []
    for index in range(pairings):
        least = min(count(b) for b in branches)
        eligible = [b for b in branches if count(b) == least]
        for ply in range(plies):
            moves = list(dict.fromkeys(b.moves[ply] for b in eligible if len(b.moves) > ply))
            if not moves:
                break
            move = moves[_pick(len(moves), seed, index, ply)]
            eligible = [b for b in eligible if len(b.moves) > ply and b.moves[ply] == move]
        chosen = eligible[0]
        counts[f"position:{chosen.key}"] += 1
        drawn.append(_replayed(variant, None, chosen.moves))
    return tuple(drawn)
