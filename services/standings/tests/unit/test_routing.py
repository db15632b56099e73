"""What the standings queues are bound to (shared.events.QUALIFIERS): the group-playoff page's queue
takes the results of group-playoff events and those published without a ruleset, not the others'."""

from __future__ import annotations

from services.standings.adapters.memory import MemoryStandingsUnitOfWork
from services.standings.bootstrap import subscriptions_of
from services.standings.service_layer.handlers import Handlers
from services.standings.tests.helpers import NOW
from shared.events import RULESETS, bindings
from shared.messaging.inprocess import topic_matches
from shared.timesource import FakeClock


def _hears(queue: str):  # type: ignore[no-untyped-def]
    [sub] = [
        s for s in subscriptions_of(Handlers(FakeClock(NOW)), MemoryStandingsUnitOfWork) if s.queue == queue
    ]
    bound = bindings(sub.routing_keys)
    return lambda key: any(topic_matches(b, key) for b in bound)


def test_the_group_playoff_page_hears_its_results_and_those_without_a_ruleset_alone():
    page = _hears("standings.group_playoff")
    for key in ("game.finished", "game.finished.group-playoff"):
        assert page(key) and page(f"{key}.decided"), key
    others = [r for r in RULESETS if r != "group-playoff"]
    assert others and not any(
        page(f"game.finished.{r}") or page(f"game.finished.{r}.decided") for r in others
    )


def test_the_tables_hear_every_result():
    table = _hears("standings.game_finished")
    assert all(table(f"game.finished.{r}") and table(f"game.finished.{r}.decided") for r in RULESETS)
    assert table("game.finished") and table("game.finished.decided")
