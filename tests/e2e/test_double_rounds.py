"""Four players on the real stack: double rounds, each pairing's two games played one after the other
(RULES.md §2, seed 001: «Jede Paarung wird zweimal hintereinander gespielt … innerhalb derselben Runde,
die damit doppelt so lange dauert»).

Every leg 1 is played for longer than a leg's base time. Leg 2 exists from the pairing on (its id, its
opening, its colours swapped) but its clock starts only when leg 1 ends: no leg 2 loses on time while
its players are still at leg 1 (issue 22, item 1: before, both clocks ran at once and every leg 2 ended
``0-1 time``). The test prints the timeline it saw (``pytest -s``): when each leg 1 ended and its leg 2
started, and the flags that fell (none)."""

from __future__ import annotations

import datetime as dt
import uuid
from dataclasses import dataclass
from typing import Any

import pytest

from shared.testing.polling import wait_for
from tests.e2e.story import Account, Story
from tests.e2e.tournaments import field

pytestmark = pytest.mark.e2e

BASE, INCREMENT = 8, 10  # seconds: a leg's base time, and what each move adds


@dataclass(frozen=True)
class Leg:
    round: int
    board: int
    leg: int
    white: int  # seeds
    black: int
    started_at: dt.datetime | None
    finished_at: dt.datetime | None
    outcome: str | None
    reason: str | None


def _when(value: str | None) -> dt.datetime | None:
    return None if value is None else dt.datetime.fromisoformat(value)


def _leg(game: dict[str, Any], seed: dict[uuid.UUID, int]) -> Leg:
    result = game["result"] or {}
    return Leg(
        game["round"],
        game["board"],
        game["leg"],
        seed[uuid.UUID(game["white"]["player_id"])],
        seed[uuid.UUID(game["black"]["player_id"])],
        _when(game["started_at"]),
        _when(result.get("finished_at")),
        result.get("outcome"),
        result.get("reason"),
    )


def _timeline(legs: list[Leg], origin: dt.datetime) -> str:
    """One line a pairing: when leg 1 started and ended, when leg 2 started and ended (seconds from the
    first round's start), how long leg 1 lasted, and the gap between leg 1's end and leg 2's start."""

    def at(value: dt.datetime | None) -> str:
        return "—" if value is None else f"{(value - origin).total_seconds():7.3f}s"

    lines = []
    by_pairing = {(g.round, g.board, g.leg): g for g in legs}
    for rnd, board in sorted({(g.round, g.board) for g in legs}):
        first, second = by_pairing[(rnd, board, 1)], by_pairing[(rnd, board, 2)]
        lasted = (
            None
            if first.started_at is None or first.finished_at is None
            else (first.finished_at - first.started_at).total_seconds()
        )
        gap = (
            None
            if second.started_at is None or first.finished_at is None
            else (second.started_at - first.finished_at).total_seconds()
        )
        lines.append(
            f"round {rnd} board {board}: leg 1 {first.white}-{first.black} {at(first.started_at)} → "
            f"{at(first.finished_at)} ({first.outcome} {first.reason}, lasted "
            f"{'—' if lasted is None else f'{lasted:.3f}s'} > base {BASE}s); "
            f"leg 2 {second.white}-{second.black} started {at(second.started_at)} "
            f"(gap {'—' if gap is None else f'{gap:.3f}s'}), ended {at(second.finished_at)} "
            f"({second.outcome} {second.reason})"
        )
    flags = [f"round {g.round} board {g.board} leg {g.leg}" for g in legs if g.reason == "time"]
    lines.append(f"flags: {', '.join(flags) if flags else 'none'}")
    return "\n".join(lines)


def test_four_players_play_each_pairings_two_legs_one_after_the_other(story: Story):
    organiser = story.register("Organiser legs")
    players = field(story, 4, "Legs ")
    seed = {p.id: i for i, p in enumerate(players, start=1)}
    by_id: dict[uuid.UUID, Account] = {p.id: p for p in players}
    tid = story.create_tournament(organiser, start_in=2, base_seconds=BASE, increment_seconds=INCREMENT)
    for p in players:
        story.join(p, tid)
    story.wait_status(tid, "started")

    legs: list[Leg] = []
    for rnd in (1, 2, 3):
        games = {(g["board"], g["leg"]): g for g in story.wait_games(tid, rnd, 4)}
        for board in (1, 2):
            first, second = games[(board, 1)], games[(board, 2)]
            # one pairing, two legs: the same opening, colours swapped
            assert (second["white"]["player_id"], second["black"]["player_id"]) == (
                first["black"]["player_id"],
                first["white"]["player_id"],
            )
            assert second["opening"] == first["opening"]
        # leg 1 of both boards: both players move (each move adds the increment), then the game goes on
        # for longer than a leg's base time before the higher seed resigns
        for board in (1, 2):
            first = games[(board, 1)]
            story.move(first, by_id[uuid.UUID(first["white"]["player_id"])])
            story.move(first, by_id[uuid.UUID(first["black"]["player_id"])])
        for board in (1, 2):
            first = games[(board, 1)]
            wait_for(
                lambda g=first: (  # as the server's clock says: its answer's as_of
                    dt.datetime.fromisoformat((s := story.game(g["id"]))["clock"]["as_of"])
                    - dt.datetime.fromisoformat(s["started_at"])
                    > dt.timedelta(seconds=BASE + 1)
                ),
                timeout=BASE + 30,
                interval=0.2,
                what=f"round {rnd} board {board}: leg 1 played past the base time",
            )
            w, b = seed[uuid.UUID(first["white"]["player_id"])], seed[uuid.UUID(first["black"]["player_id"])]
            story.concede(first, "1-0" if w < b else "0-1", by_id)
        # leg 2 of both boards, as each starts: both players move, then agree a draw
        for board in (1, 2):
            second = story.wait_started(games[(board, 2)])
            if second["status"] == "running":
                story.move(second, by_id[uuid.UUID(second["white"]["player_id"])])
                story.move(second, by_id[uuid.UUID(second["black"]["player_id"])])
                story.concede(second, "1/2-1/2", by_id)
        legs += [_leg(story.game(g["id"]), seed) for g in games.values()]

    final = story.wait_final(tid, timeout=60)
    origin = min(g.started_at for g in legs if g.started_at is not None)
    timeline = _timeline(legs, origin)
    print(f"\nfour-player double rounds, {BASE}+{INCREMENT}, times from {origin.isoformat()}:\n{timeline}")

    assert not [g for g in legs if g.reason == "time"], f"a flag fell:\n{timeline}"
    for g in (g for g in legs if g.leg == 2):
        first = next(f for f in legs if (f.round, f.board, f.leg) == (g.round, g.board, 1))
        assert first.started_at is not None and first.finished_at is not None
        assert first.finished_at - first.started_at > dt.timedelta(seconds=BASE), timeline
        assert g.started_at is not None and g.started_at >= first.finished_at, timeline
        assert (g.outcome, g.reason) == ("1/2-1/2", "agreement"), timeline
    # each pairing: the lower seed wins leg 1, leg 2 is drawn (3 points to 1);
    # 1: 3+3+3 = 9; 2: 1+3+3 = 7; 3: 1+1+3 = 5; 4: 1+1+1 = 3
    assert [(r["rank"], r["seed"], r["points"]) for r in final["rows"]] == [
        (1, 1, 9),
        (2, 2, 7),
        (3, 3, 5),
        (4, 4, 3),
    ]
    assert final["double_rounds"] is True
    crosstable = story.call("standings", "GET", f"/tournaments/{tid}/crosstable")
    assert crosstable["columns"] == ["1.1", "1.2", "2.1", "2.2", "3.1", "3.2"]  # both legs shown
