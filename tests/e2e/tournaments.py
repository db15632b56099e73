"""Helpers the e2e tests share: a field of players seeded in order, a started tournament, rounds
played with results chosen by seed."""

from __future__ import annotations

import uuid

from tests.e2e.story import Account, Story


def field(story: Story, n: int, prefix: str) -> list[Account]:
    """n players whose ratings make their seeds 1..n in order."""
    return [story.register(f"{prefix}{i}", 2400 - 10 * i) for i in range(1, n + 1)]


def started(story: Story, name: str, n: int, **settings) -> tuple[uuid.UUID, list[Account]]:
    """A tournament created by a new organiser, joined by n players seeded 1..n, and started."""
    organiser = story.register(f"Organiser {name}")
    players = field(story, n, f"{name} ")
    tid = story.create_tournament(organiser, start_in=2, **settings)
    for p in players:
        story.join(p, tid)
    assert story.wait_status(tid, "started")["status"] == "started"
    return tid, players


def play_rounds(
    story: Story,
    tid: uuid.UUID,
    players: list[Account],
    rounds: int,
    games_per_round: int,
    outcome,
    first: int = 1,
) -> None:
    seed = {p.id: i for i, p in enumerate(players, start=1)}
    by_id = {p.id: p for p in players}
    for rnd in range(first, rounds + 1):
        games = story.wait_games(tid, rnd, games_per_round)
        for leg in sorted({g["leg"] for g in games}):  # a double round's leg 2 starts when leg 1 ends
            for game in (story.wait_started(g) if leg > 1 else g for g in games if g["leg"] == leg):
                white, black = uuid.UUID(game["white"]["player_id"]), uuid.UUID(game["black"]["player_id"])
                result = outcome(seed[white], seed[black])
                story.concede(game, result, by_id)


def lower_seed_wins(white: int, black: int) -> str:
    return "1-0" if white < black else "0-1"


# six players, every game won by the lower seed: (seed, points) of the final table
LOWER_SEED_WINS_SIX = [(1, 10), (2, 8), (3, 6), (4, 4), (5, 2), (6, 0)]
