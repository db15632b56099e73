"""What every demo shares: the embedded run on a seed (:class:`EmbeddedRun`), the players' names and
sign-up, the expected score of a game, and the final table as the platform and the fide-rapid demos
print it.

Every demo repeats itself for its ``--seed`` (:class:`EmbeddedRun`: the services' draws and the accounts'
ids come from it, the simulated clock starts at a fixed time) and writes results White first, ``1-0``,
``½-½``, ``0-1`` (:func:`cli.text.result`). The demos form a tree: the command
(:mod:`cli.demos.command`) imports one module per format, and each format this one."""

from __future__ import annotations

import datetime as dt
import random
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from rich.console import Console
from rich.table import Table

from cli.embedded import Draws, EmbeddedStack
from cli.text import points

NAMES = [
    "Anand",
    "Botvinnik",
    "Capablanca",
    "Dzindzichashvili",
    "Euwe",
    "Fischer",
    "Gaprindashvili",
    "Hou",
    "Ivanchuk",
    "Judit Polgar",
    "Karpov",
    "Lasker",
    "Menchik",
    "Nakamura",
    "Oparin",
    "Petrosian",
    "Quinteros",
    "Rubinstein",
    "Spassky",
    "Tal",
    "Ushenina",
    "Vallejo",
    "Wei Yi",
    "Xie Jun",
    "Yusupov",
    "Zukertort",
]


DEMO_START = dt.datetime(2026, 6, 6, 9, 0, tzinfo=dt.UTC)
"""Where a demo's simulated clock starts: a fixed time, so that a seed gives the same run to the byte."""


class EmbeddedRun:
    """A demo that runs ``_run(stack)`` on an embedded stack, its simulated clock at ``clock_start``, and
    says how long it took. Everything it and the services draw comes from its ``rng`` (``--seed``): the
    services' draws (:class:`cli.embedded.Draws`: the tournament's id, which draws the first colour, a
    knockout's seeding and colours) and the accounts' ids (:meth:`new_id`). The same seed, the same run."""

    console: Console
    rng: random.Random
    clock_start: ClassVar[dt.datetime] = DEMO_START
    draws: Draws

    def run(self, workdir: Path) -> int:
        started = time.monotonic()
        self.draws = Draws.seeded(self.rng)
        stack = EmbeddedStack.create(workdir, start=self.clock_start, draws=self.draws)
        try:
            self._run(stack)
        finally:
            stack.close()
        self.console.print(f"\nFinished in {time.monotonic() - started:.1f} s of real time.")
        return 0

    def new_id(self) -> uuid.UUID:
        """A new account's id, drawn with the services' ids."""
        return self.draws.new_id()

    def account(self, stack: Any, name: str, staff: str) -> tuple[uuid.UUID, str]:
        """An account named ``name`` (its id drawn from the seed) and its token."""
        body = {"name": name, "id": str(self.new_id())}
        account_id = uuid.UUID(stack.api["registration"].call("POST", "/accounts", body, staff)["id"])
        return account_id, stack.token(account_id)

    def _run(self, stack: Any) -> None:
        raise NotImplementedError


def final_table(data: dict[str, Any], rating: Callable[[dict[str, Any]], str]) -> Table:
    """The final standings (standings' JSON rows): rank, seed, name, ``rating(row)``, points, tie-breaks."""
    rows = data["rows"]
    codes = list(rows[0]["tiebreaks"]) if rows else []
    shown = list(rows[0].get("shown", {})) if rows else []
    table = Table(title="Final standings", title_justify="left")
    for col in ("Rk", "Sd", "Name", "Rtg", "Pts", *codes, *shown):
        table.add_column(col, justify="left" if col == "Name" else "right")
    for row in rows:
        table.add_row(
            str(row["rank"]),
            str(row["seed"]),
            row["name"],
            rating(row),
            figure(row["points"]),
            *(figure(row["tiebreaks"][c]) for c in codes),
            *(figure(row["shown"][c]) for c in shown),
        )
    return table


def sign_up(
    reg: Any,
    staff: str,
    rng: random.Random,
    count: int,
    speeds: tuple[str, ...],
    variant: str = "chess",
    *,
    ids: Callable[[], uuid.UUID],
) -> list[tuple[uuid.UUID, str, int]]:
    """Register ``count`` players with random ratings in ``variant`` at the given speeds: (id, name,
    rating) each, their ids from ``ids`` (drawn from the seed: the same run for a seed)."""
    players = []
    for i in range(count):
        rating = rng.randrange(1300, 2400, 5)
        name = NAMES[i] if i < len(NAMES) else f"Player {i + 1}"
        body: dict[str, Any] = {"name": name, "ratings": {f"{variant}:{speed}": rating for speed in speeds}}
        body["id"] = str(ids())
        players.append((uuid.UUID(reg.call("POST", "/accounts", body, staff)["id"]), name, rating))
    return players


def expected_score(ratings: dict[uuid.UUID, int], game: dict[str, Any]) -> float:
    """White's expected score by the Elo formula."""
    white, black = uuid.UUID(game["white"]["player_id"]), uuid.UUID(game["black"]["player_id"])
    return 1 / (1 + 10 ** ((ratings[black] - ratings[white]) / 400))


def figure(value: Any) -> str:
    if value is None:
        return ""
    return points(value) if isinstance(value, float | int) else str(value)
