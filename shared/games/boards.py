"""Positions and legal moves of every variant, from the real move generators: python-chess for chess,
pydraughts for international (10×10), English, Italian and Russian draughts. Never a hand-written move
generator (RULES.md §2).

A :class:`Position` is a variant and a FEN: chess FEN for chess, the PDN FEN pydraughts writes for
draughts (``W:W31,32,…:B1,2,…``; Russian with algebraic squares). Moves are written in the variant's
notation: SAN for chess (``e4``, ``Nf3``, ``exd5``, ``O-O``, ``Qh5#``); for draughts the PDN notation
pydraughts writes, numeric squares for international, English and Italian (``32-28``, ``26x37``, a
capture whose start and end squares are ambiguous with its intermediate squares, ``24x33x42``), and
algebraic squares for Russian (``c3-d4``, ``d4xf6``). English draughts numbers the board from Black's
side and Black moves first, as its federations do.

The generators are imported inside the functions, never at import time: the CLI starts without them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final

from shared.variants import Variant

DRAUGHTS_NAMES: Final[dict[Variant, str]] = {
    Variant.INTERNATIONAL: "standard",
    Variant.ENGLISH: "english",
    Variant.ITALIAN: "italian",
    Variant.RUSSIAN: "russian",
}
"""pydraughts' name of each draughts variant ("standard" is international draughts, 10×10)."""


class GameRuleError(ValueError):
    """A variant, a move or a line of moves the rules refuse. ``slug`` is stable (a problem's type)."""

    slug = "game-rule-error"

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


class UnknownVariant(GameRuleError):
    slug = "unknown-variant"
    allowed: Final = tuple(v.value for v in Variant)


class IllegalMove(GameRuleError):
    slug = "illegal-move"


def variant_of(name: str | Variant) -> Variant:
    """The variant called ``name``; :class:`UnknownVariant` (listing the allowed values) otherwise."""
    try:
        return Variant(name)
    except ValueError:
        allowed = ", ".join(UnknownVariant.allowed)
        raise UnknownVariant(f"unknown variant {name!r}: the variants are {allowed}") from None


@dataclass(frozen=True)
class Position:
    variant: Variant
    fen: str

    @property
    def key(self) -> str:
        """The position's identity: equal for the same pieces and side to move whatever the moves that
        led to it (chess: the FEN without its move counters; draughts: the squares in order)."""
        return _backend(self.variant).key(self)


@dataclass(frozen=True)
class Line:
    """Moves played from a position, in the variant's notation, and where they lead."""

    moves: tuple[str, ...]
    position: Position


@dataclass(frozen=True)
class Branch:
    """A line of moves as the generator names them (UCI for chess, numeric squares for draughts) and the
    :attr:`Position.key` of where it leads: cheap to list by the thousand; :func:`replay` writes one out."""

    moves: tuple[str, ...]
    key: str


def start(variant: Variant | str) -> Position:
    """The initial position of ``variant``."""
    v = variant_of(variant)
    return Position(v, _backend(v).start_fen())


def legal_moves(position: Position) -> tuple[str, ...]:
    """Every legal move in ``position``, in the variant's notation (the generator's order)."""
    return tuple(san for san, _ in successors(position))


def successors(position: Position) -> tuple[tuple[str, Position], ...]:
    """Every legal move in ``position`` with the position it leads to."""
    return tuple(
        (move, Position(position.variant, fen))
        for move, fen in _backend(position.variant).successors(position)
    )


def play(position: Position, move: str) -> Position:
    """The position after ``move``; :class:`IllegalMove` if it is not legal here."""
    return _backend(position.variant).play(position, move)[1]


def notation(position: Position, move: str) -> str:
    """``move`` as the variant writes it (a UCI chess move becomes SAN, a draughts capture written with
    a dash gets its ``x``); :class:`IllegalMove` if it is not legal here."""
    return _backend(position.variant).play(position, move)[0]


def replay(variant: Variant | str, moves: Iterable[str], *, start_fen: str | None = None) -> Line:
    """Play ``moves`` from the initial position (or ``start_fen``): each must be legal where it is
    played. The line comes back in the variant's own notation."""
    v = variant_of(variant)
    position = Position(v, start_fen) if start_fen is not None else start(v)
    backend = _backend(v)
    written: list[str] = []
    for number, move in enumerate(moves, start=1):
        try:
            canonical, position = backend.play(position, move)
        except IllegalMove as exc:
            raise IllegalMove(f"move {number} ({move!r}): {exc.detail}") from None
        written.append(canonical)
    return Line(tuple(written), position)


def white_to_move(position: Position) -> bool:
    return _backend(position.variant).white_to_move(position)


# -- the generators ---------------------------------------------------------------------------------
class _Chess:
    """python-chess."""

    def start_fen(self) -> str:
        import chess

        return str(chess.STARTING_FEN)

    def _board(self, position: Position) -> Any:
        import chess

        try:
            return chess.Board(position.fen)
        except ValueError as exc:
            raise IllegalMove(f"not a chess position: {position.fen!r} ({exc})") from None

    def successors(self, position: Position) -> list[tuple[str, str]]:
        board = self._board(position)
        out: list[tuple[str, str]] = []
        for move in list(board.legal_moves):
            san = str(board.san(move))
            board.push(move)
            out.append((san, str(board.fen())))
            board.pop()
        return out

    def branches(self, position: Position, plies: int) -> list[Branch]:
        board = self._board(position)
        out: list[Branch] = []

        def walk(prefix: tuple[str, ...], left: int) -> None:
            moves = list(board.legal_moves) if left else []
            if not moves:
                out.append(Branch(prefix, _chess_key(board)))
                return
            for move in moves:
                board.push(move)
                walk((*prefix, str(move.uci())), left - 1)
                board.pop()

        walk((), plies)
        return out

    def key(self, position: Position) -> str:
        return _chess_key(self._board(position))

    def play(self, position: Position, move: str) -> tuple[str, Position]:
        import chess

        board = self._board(position)
        try:
            parsed = board.parse_san(move)
        except ValueError:
            try:
                parsed = chess.Move.from_uci(move)
            except ValueError:
                parsed = None
            if parsed is None or not board.is_legal(parsed):
                raise IllegalMove(f"{move!r} is not a legal chess move in {position.fen}") from None
        san = str(board.san(parsed))
        board.push(parsed)
        return san, Position(position.variant, str(board.fen()))

    def white_to_move(self, position: Position) -> bool:
        return bool(self._board(position).turn)


_SQUARES = re.compile(r"[-x]")


class _Draughts:
    """pydraughts, for one variant."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.name = DRAUGHTS_NAMES[variant]

    def start_fen(self) -> str:
        from draughts import Board

        return str(Board(self.name).fen)

    def _board(self, position: Position) -> Any:
        from draughts import Board

        try:
            return Board(self.name, position.fen)
        except Exception as exc:  # pydraughts raises whatever its parser meets (IndexError, KeyError…)
            raise IllegalMove(f"not a {self.variant.value} draughts position: {position.fen!r}") from exc

    def _moves(self, board: Any) -> list[tuple[str, str, Any]]:
        """Each legal move as the variant writes it, with numeric squares, and pydraughts' move."""
        moves = board.legal_moves()
        if self.variant is not Variant.RUSSIAN:
            return [(str(m.pdn_move), str(m.pdn_move), m) for m in moves]
        # a move built without the board writes numeric squares; Russian draughts writes algebraic ones
        from draughts import Move

        return [
            (
                str(
                    Move(
                        board,
                        board_move=m.board_move,
                        possible_moves=m.possible_moves,
                        possible_captures=m.possible_captures,
                    ).pdn_move
                ),
                str(m.pdn_move),
                m,
            )
            for m in moves
        ]

    def successors(self, position: Position) -> list[tuple[str, str]]:
        board = self._board(position)
        out: list[tuple[str, str]] = []
        for written, _, move in self._moves(board):
            board.push(move)
            out.append((written, str(board.fen)))
            board.pop()
        return out

    def branches(self, position: Position, plies: int) -> list[Branch]:
        board = self._board(position)
        out: list[Branch] = []

        def walk(prefix: tuple[str, ...], left: int) -> None:
            moves = board.legal_moves() if left else []
            if not moves:
                out.append(Branch(prefix, _draughts_key(str(board.fen))))
                return
            for move in moves:  # numeric squares: the Russian algebraic ones only for the line drawn
                board.push(move)
                walk((*prefix, str(move.pdn_move)), left - 1)
                board.pop()

        walk((), plies)
        return out

    def key(self, position: Position) -> str:
        return _draughts_key(position.fen)

    def play(self, position: Position, move: str) -> tuple[str, Position]:
        board = self._board(position)
        moves = self._moves(board)
        wanted = move.strip()
        found = [(w, m) for w, raw, m in moves if wanted in (w, raw)]
        if not found:
            # the same squares written otherwise: leading zeros, or a capture written with a dash
            squares = _squares(wanted)
            found = [(w, m) for w, raw, m in moves if squares in (_squares(w), _squares(raw))]
            if not found and len(squares) == 2:
                found = [(w, m) for w, raw, m in moves if squares in (_ends(w), _ends(raw))]
        if not found:
            legal = ", ".join(w for w, _, _ in moves) or "none"
            raise IllegalMove(
                f"{move!r} is not a legal {self.variant.value} draughts move in {position.fen} (legal: {legal})"
            )
        if len(found) > 1:
            options = ", ".join(w for w, _ in found)
            raise IllegalMove(f"{move!r} is ambiguous in {position.fen}: write one of {options}")
        written, chosen = found[0]
        board.push(chosen)
        return written, Position(position.variant, str(board.fen))

    def white_to_move(self, position: Position) -> bool:
        from draughts import WHITE

        return bool(self._board(position).turn == WHITE)


def _squares(written: str) -> tuple[str, ...]:
    return tuple(s.lstrip("0") or "0" for s in _SQUARES.split(written.strip().lower()) if s)


def _ends(written: str) -> tuple[str, ...]:
    squares = _squares(written)
    return (squares[0], squares[-1])


def _chess_key(board: Any) -> str:
    """The pieces, the side to move, castling rights and a capturable en-passant square."""
    ep = board.ep_square if board.has_legal_en_passant() else None
    parts = (board.board_fen(), "w" if board.turn else "b", board.castling_xfen(), ep)
    return " ".join(str(p) for p in parts)


def _draughts_key(fen: str) -> str:
    turn, *sides = fen.split(":")
    parts = sorted(sides)
    return ":".join([turn, *(p[0] + ",".join(sorted(filter(None, p[1:].split(",")))) for p in parts)])


_CHESS = _Chess()
_DRAUGHTS = {v: _Draughts(v) for v in DRAUGHTS_NAMES}


def _backend(variant: Variant) -> _Chess | _Draughts:
    return _CHESS if variant is Variant.CHESS else _DRAUGHTS[variant]


def is_draughts(variant: Variant) -> bool:
    return variant in DRAUGHTS_NAMES


def branches(position: Position, plies: int) -> tuple[Branch, ...]:
    """Every sequence of ``plies`` legal moves from ``position`` (shorter where a game ends sooner), in
    the generator's order and naming; ``replay(variant, branch.moves, start_fen=position.fen)`` writes
    one out in the variant's notation."""
    return tuple(_backend(position.variant).branches(position, max(plies, 0)))
