"""What every arena run must satisfy, checked from its games and final ranking alone (the embedded demo's
JSON document and the e2e test on the real stack both hand theirs in): nobody in two games at once, no
pair inside its cooldown, no game paired after pairing closed, and a ranking and points exactly those
the games make (``shared.arena_scoring``)."""

from __future__ import annotations

import datetime as dt
import itertools
import uuid
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from shared.arena_scoring import ArenaTable, FinishedArenaGame
from shared.scoring import Outcome

COOLDOWN_SECONDS = 5 * 60  # per game already played together (RULES.md §3)
EPOCH = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)


def check_arena(
    games: Sequence[dict[str, Any]], ranking: Sequence[dict[str, Any]], *, closes_after: float
) -> None:
    """``games``: dicts with white, black, started_at, ended_at (seconds from the start), result, boost,
    points; ``ranking``: rows with player, rank, points, wins, games; ``closes_after``: seconds from the
    start after which no game may be paired."""
    by_player: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for g in games:
        assert g["white"] != g["black"]
        assert g["started_at"] < closes_after, f"a game paired after pairing closed: {g}"
        assert g["started_at"] <= g["ended_at"]
        by_player[g["white"]].append(g)
        by_player[g["black"]].append(g)
    for player, mine in by_player.items():
        mine.sort(key=lambda g: (g["started_at"], g["ended_at"]))
        for before, after in itertools.pairwise(mine):
            assert after["started_at"] >= before["ended_at"], f"{player} in two games at once"
    meetings: dict[frozenset[str], list[dict[str, Any]]] = defaultdict(list)
    for g in sorted(games, key=lambda g: g["started_at"]):
        pair = frozenset((g["white"], g["black"]))
        earlier = meetings[pair]
        if earlier:
            last_end = max(e["ended_at"] for e in earlier)
            assert g["started_at"] >= last_end + COOLDOWN_SECONDS * len(earlier), f"inside the cooldown: {g}"
        earlier.append(g)
    _check_points(games, ranking)


def _check_points(games: Sequence[dict[str, Any]], ranking: Sequence[dict[str, Any]]) -> None:
    ids = {name: uuid.uuid5(uuid.NAMESPACE_OID, name) for name in [r["player"] for r in ranking]}
    table = ArenaTable()
    for pid in ids.values():
        table.enter(pid)
    recorded = []
    for g in games:
        game = FinishedArenaGame(
            uuid.uuid4(),
            ids[g["white"]],
            ids[g["black"]],
            Outcome("1/2-1/2" if g["result"] == "½-½" else g["result"]),  # the demo writes a draw ½-½
            EPOCH + dt.timedelta(seconds=g["ended_at"]),
            g["boost"]["white"],
            g["boost"]["black"],
        )
        table.record(game)
        recorded.append((game, g))
    scored = {}
    for row in table.ranking():
        for entry in row.sheet:
            scored[(entry.game, row.player)] = entry.points
    for game, g in recorded:
        assert g["points"] == {
            "white": scored[(game.id, game.white)],
            "black": scored[(game.id, game.black)],
        }, g
    expected = {row.player: (row.points, row.wins, row.games) for row in table.ranking()}
    for r in ranking:
        assert (r["points"], r["wins"], r["games"]) == expected[ids[r["player"]]], r
    points = [r["points"] for r in ranking]
    assert points == sorted(points, reverse=True)
    assert sum(r["games"] for r in ranking) == 2 * len(games)
