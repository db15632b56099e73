"""The cross-check of issue 22 for the `fide-rapid` e2e tests: before a round is paired, the standings'
TRF-16 export, unmodified, paired by the Dutch engine (``arbiter pair --dutch``: the engine pairing runs,
identical to bbpPairings) gives the pairing pairing publishes for that round."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from cli.main import build_cli
from shared.testing.polling import wait_for
from shared.trf import parse
from tests.e2e.story import Story


def published_pairs(listing: dict[str, Any]) -> list[tuple[int, int]]:
    """A round as pairing lists it, as the engine writes one: ``white black`` by board, then ``bye 0``."""
    boards = sorted(listing["boards"], key=lambda b: b["board"])
    out = [(b["white"]["seed"], b["black"]["seed"]) for b in boards]
    return out + [(b["player"]["seed"], 0) for b in listing["byes"] if b["kind"] == "pairing_allocated"]


def left_out_of(preview: dict[str, Any]) -> set[int]:
    """Who pairing's preview of the round leaves out: the byes asked for, the withdrawn, the absentees
    of the round before nobody excused, the late entries not in yet."""
    return {p["seed"] for key in ("bye_requests", "withdrawn", "absent", "late") for p in preview[key]}


def export_before(story: Story, tournament: uuid.UUID, number: int, left_out: set[int]) -> str:
    """The standings' TRF-16 once it has heard everything round ``number`` follows (the events reach the
    standings on their own queues): polled until the players with a block for round ``number`` are
    ``left_out`` and everyone else has the rounds before it. Nothing is added to the file."""

    def ready() -> str | None:
        response = story.http.get(f"{story.urls['standings']}/tournaments/{tournament}/trf16")
        if response.status_code != 200:
            return None
        doc = parse(response.text)
        ahead = {s for s, r in doc.players.items() if len(r.rounds) == number}
        behind = {s for s, r in doc.players.items() if len(r.rounds) == number - 1}
        return response.text if ahead == left_out and behind == set(doc.players) - left_out else None

    text: str = wait_for(
        ready,
        timeout=60,
        interval=0.2,
        what=f"the TRF-16 before round {number} to leave out exactly {sorted(left_out)}",
    )
    return text


def engine_pairs(trf16: str, number: int, tmp: Path) -> list[tuple[int, int]]:
    """``arbiter pair --dutch`` on the file as exported: the boards (white, black), then the bye (n, 0)."""
    source, target = tmp / f"before_{number}.trf", tmp / f"round_{number}.pairs"
    source.write_text(trf16, encoding="utf-8")
    result = CliRunner().invoke(build_cli(), ["pair", "--dutch", str(source), "-p", str(target)])
    assert result.exit_code == 0, result.output
    lines = target.read_text().split()
    count, numbers = int(lines[0]), [int(x) for x in lines[1:]]
    assert len(numbers) == 2 * count
    return [(numbers[2 * i], numbers[2 * i + 1]) for i in range(count)]
