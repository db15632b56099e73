"""The embedded mode runs a knockout too: the e2e story of tests/e2e/test_knockout.py, told to all four
services in one process (in-process broker, SQLite, a simulated clock)."""

from __future__ import annotations

from cli.embedded import EmbeddedStack
from tests.e2e.story import EmbeddedStory
from tests.e2e.test_knockout import check_the_end, six_player_knockout


def test_a_six_player_knockout_embedded(tmp_path):
    stack = EmbeddedStack.create(tmp_path)
    try:
        story = EmbeddedStory(stack)
        tid, _organiser, _seed = six_player_knockout(story, "Embedded")
        check_the_end(story, tid)
        queues = [
            s.queue
            for svc in (stack.registration, stack.pairing, stack.clocks, stack.standings)
            for s in svc.subscriptions
        ]
        assert [d for q in queues for d in stack.broker.dead_letters(q)] == []
    finally:
        stack.close()
