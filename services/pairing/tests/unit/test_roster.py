"""What pairing has heard of a tournament's roster, by registration's roster revisions (domain/roster.py):
every change up to a revision, whatever order the queues bring them in; a start takes every change
before it; a command naming a later revision is refused until then."""

from __future__ import annotations

import itertools
import uuid

import pytest

from services.pairing.domain.errors import NotYetHeard
from services.pairing.domain.roster import RosterHeard, heard_revision, require_heard

TID = uuid.UUID(int=25)


def test_changes_in_order_are_heard_one_by_one() -> None:
    heard = RosterHeard(TID)
    assert not heard.has_heard(1) and heard_revision(None) == 0
    assert heard.heard(1) and heard.heard(2)
    assert (heard.revision, heard.ahead) == (2, frozenset())
    assert heard.has_heard(2) and not heard.has_heard(3)
    assert not heard.heard(2) and not heard.heard(1)  # again: nothing changes


def test_a_change_beyond_a_gap_waits_for_the_one_before() -> None:
    heard = RosterHeard(TID)
    assert heard.started(5)
    assert heard.heard(7)  # a late entry heard before the withdrawal that came first
    assert (heard.revision, heard.ahead) == (5, frozenset({7}))
    assert not heard.has_heard(7)
    assert not heard.heard(7)
    assert heard.heard(6)
    assert (heard.revision, heard.ahead) == (7, frozenset())


@pytest.mark.parametrize("order", list(itertools.permutations([4, 5, 6, 7])))
def test_whatever_the_order_every_change_heard_is_every_change_up_to_the_last(order) -> None:
    heard = RosterHeard(TID)
    heard.started(3)
    for i, revision in enumerate(order):
        assert heard.heard(revision)
        arrived = set(order[: i + 1])
        missing = min(set(range(4, 9)) - arrived)  # the first change still on its way
        assert heard.revision == missing - 1
        assert heard.ahead == frozenset(r for r in arrived if r > missing)
    assert (heard.revision, heard.ahead) == (7, frozenset())


def test_the_start_brings_every_change_before_it() -> None:
    heard = RosterHeard(TID)
    assert heard.heard(2)  # an entry heard before the start (an arena's queue): beyond a gap
    assert not heard.has_heard(2)
    assert heard.started(6)  # the roster as of revision 6: the entries before it are in it
    assert (heard.revision, heard.ahead) == (6, frozenset())
    assert heard.heard(8) and (heard.revision, heard.ahead) == (6, frozenset({8}))
    assert not heard.started(4)  # an older start (a knockout's before its reset) goes back nowhere
    assert heard.started(7)  # a new start after it: the gap is closed by it
    assert (heard.revision, heard.ahead) == (8, frozenset())


def test_a_command_naming_a_revision_not_heard_is_refused() -> None:
    require_heard(TID, 3, None)  # names none: as it stands
    require_heard(TID, 3, 3)
    require_heard(TID, 3, 1)
    with pytest.raises(NotYetHeard) as refused:
        require_heard(TID, 3, 4)
    assert (refused.value.slug, refused.value.asked, refused.value.heard) == ("not-yet-heard", 4, 3)
    assert "revision 3, not yet 4" in refused.value.detail
