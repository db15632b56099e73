"""A whole knockout over HTTP against the real stack (RULES.md §4): registration's draft and start,
pairing's unpublished rounds and tie-break stages, the clocks playing each match's games one after the
other, and the bracket and final placing on standings — checked against the bracket worked out by hand
in tests/e2e/knockouts.py. The same story runs on the embedded mode (tests/test_embedded_knockout.py)."""

from __future__ import annotations

import pytest

from tests.e2e.knockouts import check_the_end, six_player_knockout
from tests.e2e.story import Story

pytestmark = pytest.mark.e2e


def test_six_player_knockout_with_a_tie_break(story: Story):
    tid, _organiser, _seed = six_player_knockout(story, "KO")
    check_the_end(story, tid)
