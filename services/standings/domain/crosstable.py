"""The crosstable: every player's rounds (opponent, colour, result), and for a round robin the
results of each pair of players, as chess-results shows them.

Results are written per game from the player's side: ``1`` ``½`` ``0`` over the board, ``+`` ``-``
for a forfeit won or lost (``-`` for both sides of a double forfeit), ``*`` for a game annulled,
``bye`` for a round without an opponent, and nothing while a game is open. Only published rounds
appear; with double rounds each leg is a column of its own. A corrected result is marked
(``corrected``); a round without a pairing (a withdrawn player's) is an empty cell.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from services.standings.domain.presets import Preset
from services.standings.domain.rounds import BYE_RESULTS
from services.standings.domain.tournament import Tournament
from shared.scoring import Result, side_results
from shared.vocabulary import ByeKind

__all__ = ["Cell", "player_rounds", "results_against", "symbol"]

_SYMBOLS = {
    Result.WIN: "1",
    Result.DRAW: "½",
    Result.LOSS: "0",
    Result.FORFEIT_WIN: "+",
    Result.FORFEIT_LOSS: "-",
    Result.NOT_PLAYED: "*",
}


def symbol(result: Result) -> str:
    return _SYMBOLS.get(result, "bye")


@dataclass(frozen=True, slots=True)
class Cell:
    round: int
    leg: int
    opponent: int | None = None  # seed; None for a bye
    colour: Literal["w", "b", ""] = ""  # "" for a bye
    result: str = ""  # see the module text; "" while the game is open
    points: Fraction | None = None  # None while the game is open
    bye: ByeKind | None = None
    corrected: bool = False  # the result was corrected by an arbiter or the organiser


def player_rounds(t: Tournament, ruleset: Preset) -> dict[int, list[Cell]]:
    """Every player's cells, one per leg of each published round, by seed."""
    ps = ruleset.point_system
    out: dict[int, list[Cell]] = {p.seed: [] for p in t.players}
    for rnd in t.published_rounds():
        for leg in range(1, t.info.legs + 1):
            cells: dict[int, Cell] = {}
            for game in rnd.games:
                if game.leg != leg:
                    continue
                if game.outcome is None:
                    cells[game.white] = Cell(rnd.number, leg, game.black, "w")
                    cells[game.black] = Cell(rnd.number, leg, game.white, "b")
                    continue
                (white, black), (w_points, b_points) = (
                    side_results(game.outcome),
                    ps.game_points(game.outcome),
                )
                fixed = game.corrected
                cells[game.white] = Cell(
                    rnd.number, leg, game.black, "w", symbol(white), w_points, None, fixed
                )
                cells[game.black] = Cell(
                    rnd.number, leg, game.white, "b", symbol(black), b_points, None, fixed
                )
            for bye in rnd.byes:
                points = ps.points(BYE_RESULTS[bye.kind])
                cells[bye.seed] = Cell(rnd.number, leg, result="bye", points=points, bye=bye.kind)
            for seed, row in out.items():  # a player without a pairing gets an empty cell
                row.append(cells.get(seed, Cell(rnd.number, leg)))
    return out


def results_against(cells: list[Cell]) -> dict[int, list[str]]:
    """Round robin: the player's results against each opponent (seed), in round order."""
    out: dict[int, list[str]] = {}
    for cell in cells:
        if cell.opponent is not None:
            out.setdefault(cell.opponent, []).append(cell.result)
    return out
