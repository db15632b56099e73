"""A group-playoff event's page as a person sees it (RULES.md §5, "Public pages"), in headless Chromium
like the other pages (``test_pages.py``): a whole event (the demo's, on the embedded stack: a three-way
play-off, a semi-final decided by its extra game, a shared 5th place, the placing) and an event left
in phase 1 with its deadline passed (overdue games, one decided by the organiser's lot, an exclusion).
Screenshots under ``test-artifacts/standings/``."""

from __future__ import annotations

import io
import random
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console
from werkzeug.serving import make_server

from cli.demos.group_playoff import GroupPlayoffDemo
from services.standings.entrypoints.app import create_app
from services.standings.tests.browser.test_pages import CHROMIUM, cells
from tests.group_playoff_pages import Overdue, overdue_event

pytestmark = [
    pytest.mark.browser,
    pytest.mark.serial,  # one headless Chromium at a time under make test's two workers
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="headless Chromium is missing: install Debian's package (apt-get install chromium)",
    ),
]


class Site:
    def __init__(self, tmp: Path) -> None:
        self.demo = GroupPlayoffDemo(Console(file=io.StringIO()), random.Random(2026), as_json=True)
        self.stack = self.demo.stack(tmp)
        self.demo.play(self.stack)
        self.whole = self.demo.tournament_id
        self.overdue: Overdue = overdue_event(self.stack)
        self.server = make_server("127.0.0.1", 0, create_app(self.stack.standings), threaded=True)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        self.url = f"http://127.0.0.1:{self.server.server_port}"

    def close(self) -> None:
        self.server.shutdown()
        self.thread.join(timeout=10)
        self.stack.close()


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Iterator[Site]:
    built = Site(tmp_path_factory.mktemp("gp-site"))
    yield built
    built.close()


def test_a_whole_event_groups_playoff_matches_and_placing(site, page):
    page.goto(f"{site.url}/t/{site.whole}")  # the tournament page routes to the event's page
    assert page.locator("h1").inner_text() == "4T1 correspondence cup"
    assert "Completed" in page.locator("#status").inner_text()
    reference = site.demo.pages["pairing"]
    names = {p["player_id"]: p["name"] for p in reference["players"]}
    mark = " (does not invite)"  # said at entry they cannot create games (4T1 §4(5))
    marked = [names[p["player_id"]] + mark for p in reference["players"] if not p["creates_games"]]
    for group in ("I", "II"):
        rows = cells(page, f"#group-{group} table tbody tr")
        expected = [names[r["player_id"]] for r in reference["groups"][group]]
        assert [r[1].removesuffix(mark) for r in rows] == expected  # pairing's group order
        assert all(r[6] for r in rows)  # each place says what decided it
    shown = [r[1] for group in ("I", "II") for r in cells(page, f"#group-{group} table tbody tr")]
    assert [name for name in shown if name.endswith(mark)] == marked and len(marked) == 1
    group_i = [r[6] for r in cells(page, "#group-I table tbody tr")]
    assert group_i.count("(e) play-off") == 3 and group_i[3] == "(a) match points"
    assert page.locator('[data-stage="playoff"]').count() == 3
    assert page.locator('[data-stage="semi-final"]').count() == 2
    extra = page.locator('[data-stage="final"] tbody tr')
    assert extra.count() == 4 and "extra game 2" in extra.nth(3).inner_text()
    assert "shared" in page.locator('[data-stage="fifth-place"] .score').inner_text()
    placing = cells(page, "#placing tbody tr")
    assert [r[0] for r in placing] == ["1", "2", "3", "4", "5", "5", "7", "8"]
    assert [r[1] for r in placing] == [names[r["player_id"]] for r in reference["placing"]]
    kinds = [r.get_attribute("data-kind") for r in page.locator("#lots tbody tr").all()]
    assert kinds == ["groups", "groups"]
    adjudicated = page.locator('.games [data-how="adjudicated"]')
    assert adjudicated.count() == 1 and "adjudicated" in adjudicated.inner_text()


def test_overdue_games_a_lot_and_an_exclusion(site, page):
    event = site.overdue
    page.goto(f"{site.url}/t/{event.tournament_id}/group-playoff")
    assert page.locator("h1").inner_text() == "4T1 <b>overdue</b> cup"  # shown as text
    overdue = page.locator("#overdue li")
    assert overdue.count() == len(event.page()["overdue"]) == 17
    assert "17 games overdue" in page.locator("#status").inner_text()
    lot = cells(page, '#lots tbody tr[data-kind="game"]')
    assert len(lot) == 1 and lot[0][1] == "die 1" and lot[0][2] == "the organiser"
    assert "decided by lot" in page.locator(f"#game-{event.lot_game}").inner_text()
    announcements = page.locator("#announcements li").all_inner_texts()
    text = f"{event.excluded_name} excluded by the organiser: every match of phase 1 scored 0:2"
    assert any(text in a for a in announcements)
    row = page.locator("#group-II tbody tr").filter(has_text=event.excluded_name)
    assert "(excluded)" in row.inner_text() and row.locator("td").nth(0).inner_text() == "4"
    assert "passed" in page.locator("#deadlines").inner_text()
