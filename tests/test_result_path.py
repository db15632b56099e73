"""One result's path, measured (issue 24 item 5): the project files a ``POST /games/{id}/result`` enters in
the embedded stack, from the HTTP request to the ``standings.updated`` it causes, are the files
docs/architecture.md lists ("One result, from the clocks endpoint to the standings table").

A profiler (:func:`sys.setprofile`) records every project file (``services/``, ``shared/``; no test code)
a Python function is called in, in two windows: the clocks' handling of the request, up to its answer (the
embedded relay publishes at commit, inside it), and the standings consumer's delivery of that result's
``game.finished``, up to the ``standings.updated`` it publishes. What pairing and registration do with the
same result, and what the clocks do on the next tick, is not this path.

The result traced is the second of a round of a Swiss of eight, so that what only a process's first
request does (the OpenAPI document built lazily, a cold table cache) is not counted."""

from __future__ import annotations

import re
import sys
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
ARCHITECTURE = ROOT / "docs/architecture.md"
HEADING = "### One result, from the clocks endpoint to the standings table"
REQUEST, CONSUMER = "request", "consumer"


@dataclass
class Entered:
    """The project files entered, in the order first entered, each with the window it was first entered in."""

    files: dict[str, str] = field(default_factory=dict)  # path -> REQUEST or CONSUMER

    @contextmanager
    def watching(self, window: str) -> Iterator[None]:
        roots = tuple(str(ROOT / top) + "/" for top in ("services", "shared"))
        in_tests: set[int] = set()  # test code running (the suite's OpenAPI status plugin): not the path

        def profile(frame: FrameType, event: str, arg: Any) -> None:
            name = frame.f_code.co_filename
            if "/tests/" in name:
                if event == "call":
                    in_tests.add(id(frame))
                elif event == "return":
                    in_tests.discard(id(frame))
            elif event == "call" and name.startswith(roots) and not in_tests:
                self.files.setdefault(str(Path(name).relative_to(ROOT)), window)

        before = sys.getprofile()
        sys.setprofile(profile)
        try:
            yield
        finally:
            sys.setprofile(before)

    def count(self, top: str) -> int:
        return sum(1 for f in self.files if f.startswith(top))


def trace_one_result(workdir: Path, monkeypatch: pytest.MonkeyPatch) -> Entered:
    import shared.messaging.inprocess as inprocess
    from cli.embedded import EmbeddedStack
    from shared.events import Envelope
    from tests.e2e.story import EmbeddedStory

    stack = EmbeddedStack.create(workdir)
    try:
        story = EmbeddedStory(stack)
        organiser = story.register("Organiser")
        players = [story.register(f"P{i}", 2000 - 10 * i) for i in range(1, 9)]
        by_id = {p.id: p for p in players}
        tid = story.create_tournament(organiser, start_in=600)
        for p in players:
            story.join(p, tid)
        stack.advance(900)  # past the start: eight players, a Swiss
        story.wait_status(tid, "started")
        first, second = story.wait_games(tid, 1, 4)[:2]
        story.concede(first, "1-0", by_id)  # the warm-up: the first result of the round
        stack.settle()

        entered = Entered()
        game_id = second["id"]
        published_before = len(stack.broker.published)
        deliver: Callable[..., Any] = inprocess.deliver_batch
        updated: list[Envelope] = []

        def watched(taken: list[tuple[bytes, int]], sub: Any, **kwargs: Any) -> Any:
            envelopes = [Envelope.model_validate_json(body) for body, _ in taken]
            ours = any(e.type == "game.finished" and e.payload.get("game_id") == game_id for e in envelopes)
            if not (ours and sub.queue.startswith("standings.")):
                return deliver(taken, sub, **kwargs)
            seen = len(stack.broker.published)
            with entered.watching(CONSUMER):
                verdicts = deliver(taken, sub, **kwargs)
            updated.extend(e for e in stack.broker.published[seen:] if e.type == "standings.updated")
            return verdicts

        monkeypatch.setattr(inprocess, "deliver_batch", watched)
        loser = by_id[uuid.UUID(second["black"]["player_id"])]
        with entered.watching(REQUEST):
            answer = stack.api["clocks"].client.post(
                f"/games/{game_id}/result",
                json={"outcome": "1-0", "reason": "resignation"},
                headers={"Authorization": f"Bearer {loser.token}"},
            )
        assert answer.status_code == 200, answer.get_data(as_text=True)
        finished = [e for e in stack.broker.published[published_before:] if e.type == "game.finished"]
        assert [e.payload["game_id"] for e in finished] == [game_id], "the request published the result"
        stack.broker.run_until_idle()
        assert [e.payload["tournament_id"] for e in updated] == [str(tid)], "standings.updated was traced"
        return entered
    finally:
        stack.close()


def documented() -> tuple[dict[str, str], str]:
    """The table's files (each with the window it names) and the section's text."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    assert HEADING in text, f"docs/architecture.md has no section {HEADING!r}"
    section = text.split(HEADING, 1)[1].split("\n#", 1)[0]
    files: dict[str, str] = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().split("|")[1:-1]]
        if len(cells) == 4 and cells[0].isdigit():
            named = re.findall(r"`([^`]+)`", cells[2])
            assert len(named) == 1, f"one file a row: {line}"
            files[named[0]] = cells[1]
    return files, section


def test_the_result_path_is_the_one_docs_architecture_lists(tmp_path, monkeypatch):
    entered = trace_one_result(tmp_path, monkeypatch)
    table, section = documented()
    rows = "\n".join(f"  {window:8} {path}" for path, window in entered.files.items())
    joined = [f for f in entered.files if f not in table]
    left = [f for f in table if f not in entered.files]
    moved = [
        f"{f}: first entered by the {entered.files[f]}"
        for f in table
        if table[f] != entered.files.get(f, table[f])
    ]
    assert not (joined or left or moved), (
        f"the result's path changed: update the table in docs/architecture.md ({HEADING[4:]}).\n"
        f"joined: {joined}\nleft: {left}\nmoved: {moved}\nthe path as traced, in order:\n{rows}"
    )
    clocks, standings, shared = (
        entered.count(top) for top in ("services/clocks/", "services/standings/", "shared/")
    )
    figures = (
        f"**{len(entered.files)} files** on the path: clocks {clocks}, standings {standings} "
        f"({clocks + standings} service files), shared {shared}"
    )
    assert figures in section, f"docs/architecture.md should say: {figures}"
    assert clocks + standings + shared == len(entered.files)  # no other service on the path
