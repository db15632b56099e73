"""The public pages as a person sees them: served on a free localhost port, opened in headless
Chromium (Debian's ``chromium`` package, driven by Playwright). Each page's screenshot is kept under
``test-artifacts/standings/`` (named after the test; ``mobile-*`` at a phone's width, ``print-*`` as
printed)."""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from werkzeug.serving import make_server

from services.standings.entrypoints.app import create_app
from services.standings.tests.helpers import (
    Announcement,
    B,
    D,
    FideStory,
    KnockoutStory,
    Story,
    W,
    double_rounds_swiss,
    embedded,
    six_player_knockout,
    six_player_round_robin,
)

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[4] / "test-artifacts" / "standings"
EVIL = "<script>window.pwned = true</script>Mallory"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.serial,  # one headless Chromium at a time under make test's two workers
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="headless Chromium is missing: install Debian's package (apt-get install chromium)",
    ),
]


class Site:
    """The standings app on a free port with the tournaments the tests look at."""

    def __init__(self, tmp: Path) -> None:
        self.svc = embedded(f"sqlite:///{tmp / 'standings.sqlite'}")
        self.robin = six_player_round_robin(self.svc)
        self.swiss = double_rounds_swiss(self.svc)
        self.live = Story(self.svc, 4, names=[EVIL, "Ann", "Bob", "Cy"]).start()
        self.live.play(1, [(1, 4, W), (2, 3, W)])
        self.live.pair(2, [(4, 2), (3, 1)])
        self.live.result(2, 4, 2, W)
        self.knockout = Story(self.svc, 4, system="knockout", rounds=2, ruleset="knockout").start()
        self.knockout.play(1, [(1, 4, W), (2, 3, W)])
        names = ["Anand", "Botvinnik", "Capablanca", EVIL, "Euwe", "Fischer"]
        self.bracket = six_player_knockout(self.svc, names=names)
        self.semis = six_player_knockout(self.svc, names=names, upto=2)
        self.decided = Story(self.svc, 6, system="swiss", rounds=4, names=names).start()
        self.decided.play(1, [(1, 4, W), (2, 5, D), (3, 6, W)])
        self.decided.withdraw(6, reason="had to leave early")
        self.decided.play(2, [(3, 1, D), (5, 4, W)], zero_point=[2])
        self.decided.correct(1, 2, 5, B, reason="the scoresheets say 0-1")
        self.corrected = six_player_knockout(self.svc, names=names, upto=2)
        self.corrected.correct(1, "winners:1:4", 2, B, reason="3 won on time")
        self.corrected.withdraw(4, reason="ill", excluded=True)
        # the index: named tournaments running, upcoming (with entries) and finished
        self.evening = Story(self.svc, 6, system="swiss", rounds=5, names=names, name="Evening rapid").start()
        self.evening.play(1, [(1, 4, W), (2, 5, D), (3, 6, W)])
        self.evening.play(2, [(5, 1, B), (4, 3, D), (6, 2, B)])
        self.evening.pair(3, [(1, 3), (2, 4), (5, 6)])
        self.evening.result(3, 1, 3, D)
        self.autumn = Announcement(self.svc, "Autumn open", hours=30, seats=16)
        for name, rating in (("Judit", 2300), ("Hou", 2250), ("Magnus", None), (EVIL, 1800)):
            self.autumn.join(name, rating)
        Announcement(self.svc, "Hourly arena", hours=2, arena=True).join("Ann", 1500)
        spring = Story(self.svc, 4, system="swiss", rounds=1, name="Spring open").start()
        spring.play(1, [(1, 4, W), (2, 3, B)])
        spring.complete()
        # a double knockout half way: winners round 1 played, round 2 being played
        self.double = KnockoutStory(
            self.svc, 8, fmt="double_knockout", rounds=6, names=[*names, "Gelfand", "Hübner"]
        )
        self.double.start()
        self.double.pair(1, [(f"winners:1:{m}", m, 9 - m) for m in range(1, 5)])
        self.double.publish(1)
        for m, winner in ((1, 1), (2, 2), (3, 6), (4, 4)):  # seed m has White in game 1
            self.double.result(1, f"winners:1:{m}", 1, W if winner == m else B)
            self.double.result(1, f"winners:1:{m}", 2, B if winner == m else W)
            self.double.decide(1, f"winners:1:{m}", winner)
        self.double.pair(
            2, [("winners:2:1", 1, 4), ("winners:2:2", 2, 6), ("losers:1:1", 8, 7), ("losers:1:2", 3, 5)]
        )
        self.double.publish(2)
        self.double.result(2, "winners:2:1", 1, W)
        # two running tournaments whose results the refresh tests send while the page is open
        self.fide = FideStory(self.svc, 6, rounds=3).start()  # title, federation and FIDE id columns
        self.fide.play(1, [(1, 4, W), (2, 5, D), (3, 6, W)])
        self.refreshed = Story(self.svc, 4, system="swiss", rounds=3, name="Live rapid").start()
        self.refreshed.pair(1, [(1, 4), (2, 3)])
        self.refreshed.result(1, 1, 4, W)
        self.reloaded = Story(self.svc, 4, system="swiss", rounds=3, name="Live rapid (no script)").start()
        self.reloaded.pair(1, [(1, 4), (2, 3)])
        self.reloaded.result(1, 1, 4, W)
        self.svc = dataclasses.replace(
            self.svc, settings=self.svc.settings.model_copy(update={"page_refresh_seconds": 1})
        )
        self.server = make_server("127.0.0.1", 0, create_app(self.svc), threaded=True)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        self.url = f"http://127.0.0.1:{self.server.server_port}"

    def close(self) -> None:
        self.server.shutdown()
        self.thread.join(timeout=10)
        self.svc.engine.dispose()


def shot(name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS / f"{name}.png"


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Iterator[Site]:
    built = Site(tmp_path_factory.mktemp("site"))
    yield built
    built.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser, request) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1100, "height": 700})
    opened = context.new_page()
    yield opened
    opened.screenshot(path=str(shot(request.node.name)), full_page=True)
    context.close()


def cells(page: Any, selector: str) -> list[list[str]]:
    rows = page.locator(selector)
    return [rows.nth(i).locator("th, td").all_inner_texts() for i in range(rows.count())]


def test_round_robin_standings(site, page):
    page.goto(f"{site.url}/t/{site.robin.id}")
    assert page.locator("h1").inner_text() == "Sunday blitz"
    assert page.locator("#status").inner_text() == "Completed after round 5: final standings."
    assert cells(page, "#standings thead tr") == [
        ["Rk.", "SNo", "Name", "Rtg", "Pts.", "WIN", "DE", "SNO", "SB"]
    ]
    assert cells(page, "#standings tbody tr") == [
        ["1", "4", "Player 4", "1900", "6", "3", "0", "4", "14"],
        ["2", "1", "Player 1", "2050", "6", "2", "0", "1", "15.5"],
        ["3", "6", "Player 6", "1800", "5", "2", "1", "6", "11"],
        ["4", "2", "Player 2", "2000", "5", "2", "2", "2", "11"],
        ["5", "3", "Player 3", "1950", "4", "1", "0", "3", "10.5"],
        ["6", "5", "Player 5", "1850", "4", "1", "0", "5", "11"],
    ]
    assert page.locator("#standings thead abbr", has_text="SB").get_attribute("title") == (
        "Sonneborn-Berger (for information)"
    )


def test_swiss_standings_with_double_rounds(site, page):
    page.goto(f"{site.url}/t/{site.swiss.id}")
    assert "double rounds" in page.locator(".facts").inner_text()
    assert cells(page, "#standings thead tr")[0][5:] == ["BH-C1", "SB", "WIN", "BH"]
    assert [row[1] for row in cells(page, "#standings tbody tr")] == ["5", "3", "1", "4", "2"]
    assert cells(page, "#standings tbody tr")[0][4:] == ["9", "19", "15.5", "2", "24"]


def test_round_robin_crosstable(site, page):
    page.goto(f"{site.url}/t/{site.robin.id}")
    with page.expect_navigation():  # the next page, not the one still shown
        page.locator("nav").get_by_role("link", name="Crosstable").click()
    assert page.url.endswith("/crosstable")
    assert cells(page, "#crosstable thead tr")[0][3:9] == ["1", "2", "3", "4", "5", "6"]
    rows = cells(page, "#crosstable tbody tr")
    # Player 4 (no. 1): lost to no. 2 (Player 1), beat 3, 4, 5, lost no. 6 (Player 5) by forfeit
    assert rows[0] == ["1", "Player 4", "1900", "×", "0", "1", "1", "1", "-", "6", "1"]
    assert rows[5] == ["6", "Player 5", "1850", "+", "½", "0", "0", "½", "×", "4", "6"]


def test_swiss_crosstable_shows_each_leg(site, page):
    page.goto(f"{site.url}/t/{site.swiss.id}/crosstable")
    assert cells(page, "#crosstable thead tr")[0][3:9] == ["1.1", "1.2", "2.1", "2.2", "3.1", "3.2"]
    # Player 3 (no. 2): bye in round 1 (both legs), then 1 (no. 3), then 2 (no. 5)
    assert cells(page, "#crosstable tbody tr")[1] == [
        "2", "Player 3", "1950", "bye", "bye", "3w0", "3b½", "5b1", "5w1", "9", "2"
    ]  # fmt: skip


def test_a_round_page_shows_its_results(site, page):
    page.goto(f"{site.url}/t/{site.robin.id}")
    with page.expect_navigation():  # the next page, not the one still shown
        page.locator("nav .rounds").get_by_role("link", name="3", exact=True).click()
    assert page.locator("main h2").inner_text() == "Round 3 of 5"
    assert cells(page, "#pairings-3 thead tr") == [
        ["Bo.", "SNo", "White", "Rtg", "Pts.", "Result", "Pts.", "SNo", "Black", "Rtg"]
    ]
    # points before the round (2/1/0): after rounds 1-2, 1 and 2 have 3, 3 has 1, 4 has 4, 5 has 1, 6 has 0
    assert cells(page, "#pairings-3 tbody tr") == [
        ["1", "2", "Player 2", "2000", "3", "0-1", "0", "6", "Player 6", "1800"],
        ["2", "3", "Player 3", "1950", "1", "1-0", "3", "1", "Player 1", "2050"],
        ["3", "4", "Player 4", "1900", "4", "-/+", "1", "5", "Player 5", "1850"],
    ]


def test_a_round_in_progress(site, page):
    page.goto(f"{site.url}/t/{site.live.id}/rounds/2")
    assert page.locator("#status").inner_text() == "Round 2 of 3 in progress: 1 of 2 games finished."
    assert [row[5] for row in cells(page, "#pairings-2 tbody tr")] == ["1-0", "playing"]
    page.goto(f"{site.url}/t/{site.live.id}")
    assert "round 2 in progress: 1 of 2 games counted" in page.locator("#standings caption").inner_text()


def test_an_unpublished_round_shows_no_result(site, page):
    page.goto(f"{site.url}/t/{site.knockout.id}/rounds/1")
    assert page.locator("#unpublished").is_visible()
    assert page.locator("table.pairings").count() == 0
    text = page.locator("main").inner_text()
    assert "1-0" not in text and "Player 1" not in text
    assert page.locator("#status").inner_text() == "Round 1 of 2 is paired, not yet published."


def test_a_knockout_shows_a_bracket_instead_of_a_table(site, page):
    response = page.goto(f"{site.url}/t/{site.bracket.id}")
    assert response.status == 200
    assert page.locator("#status").inner_text() == "Completed after round 3: final placing."
    assert page.locator("nav").get_by_role("link", name="Bracket").is_visible()
    assert page.locator("nav").get_by_role("link", name="Standings").count() == 0
    assert page.locator("#standings, #crosstable").count() == 0
    assert page.locator("#format").inner_text().split("\n") == [
        "Format", "Knockout", "Games per match", "2", "Seeding", "by rating",
        "Tie-breaks", "2 games 15+10, 2 games 5+3, then sudden death 3+2", "Third-place match", "yes",
    ]  # fmt: skip
    assert page.locator("#section-winners h3").all_inner_texts() == ["Quarter-finals", "Semi-finals", "Final"]
    assert page.locator("#section-third_place h3").all_inner_texts() == ["Third-place match"]
    # the level quarter-final: 1-1 after the regular games, Euwe through on tie-breaks
    level = page.locator("#match-winners-1-2")
    assert level.locator(".slot").all_inner_texts() == [f"4\n{EVIL}\n1.5", "5\nEuwe\n2.5"]
    assert level.locator(".slot.advances").inner_text() == "5\nEuwe\n2.5"
    assert level.locator(".games li").all_inner_texts() == [
        "Game 1: 4–5 1-0",
        "Game 2: 5–4 1-0",
        "Tie-break 1 (15+10), game 1: 4–5 ½-½ unrated",
        "Tie-break 1 (15+10), game 2: 5–4 1-0 unrated",
    ]
    assert level.locator(".how").inner_text() == "won on tie-breaks"
    bye = page.locator("#match-winners-1-1")
    assert bye.locator(".slot").all_inner_texts() == ["1\nAnand", "bye"]
    assert page.locator("#champion").inner_text() == "Winner: Anand (1)"
    assert cells(page, "#placing tbody tr") == [
        ["1", "1", "Anand", "2250", "2"],
        ["2", "3", "Capablanca", "2150", "2"],
        ["3", "2", "Botvinnik", "2200", "1"],
        ["4", "5", "Euwe", "2050", "1"],
        ["5–6", "4", EVIL, "2100", "0"],
        ["5–6", "6", "Fischer", "2000", "0"],
    ]
    assert [row[:2] for row in cells(page, "#seeding tbody tr")] == [
        ["1", "Anand"], ["2", "Botvinnik"], ["3", "Capablanca"], ["4", EVIL], ["5", "Euwe"], ["6", "Fischer"]
    ]  # fmt: skip
    assert page.evaluate("window.pwned") is None


def test_a_paired_unpublished_round_shows_no_result_in_the_bracket(site, page):
    page.goto(f"{site.url}/t/{site.semis.id}/bracket")
    assert page.locator("#status").inner_text() == "Round 2 of 3 is paired, not yet published."
    assert page.locator("#unpublished-2").is_visible()
    # the whole tree is drawn, the rounds ahead (the paired one too) as empty boxes
    assert page.locator("#section-winners h3").all_inner_texts() == ["Quarter-finals", "Semi-finals", "Final"]
    assert page.locator("[id^=match-winners-2]").count() == 0  # neither the pairings nor any result
    semis = page.locator("#section-winners .node[data-section-round='2']")
    assert semis.locator(".match.ahead").count() == 2 and semis.locator(".player a").count() == 0
    assert "".join(semis.all_inner_texts()).split() == []  # no name, no score
    assert page.locator("#placing").count() == 0
    with page.expect_navigation():  # the next page, not the one still shown
        page.locator("nav .rounds").get_by_role("link", name="2", exact=True).click()
    assert page.locator("#unpublished").is_visible() and page.locator("table.pairings").count() == 0


def test_a_knockout_round_page_names_every_game(site, page):
    page.goto(f"{site.url}/t/{site.bracket.id}/rounds/1")
    rows = cells(page, "#pairings-1 tbody tr")
    assert [(row[0], row[1], row[5]) for row in rows] == [
        ("1", "Game 1", "1-0"),
        ("1", "Game 2", "1-0"),
        ("1", "Tie-break 1 (15+10), game 1 unrated", "½-½"),
        ("1", "Tie-break 1 (15+10), game 2 unrated", "1-0"),
        ("2", "Game 1", "1-0"),
        ("2", "Game 2", "½-½"),
    ]
    assert page.locator("#byes-1 li").all_inner_texts() == ["Bye: Anand (1)", "Bye: Botvinnik (2)"]


def test_a_name_with_a_script_shows_as_text(site, page):
    for path in ("", "/crosstable", "/rounds/1"):
        page.goto(f"{site.url}/t/{site.live.id}{path}")
        assert page.get_by_text(EVIL, exact=True).first.is_visible()
        assert page.evaluate("window.pwned") is None


def test_a_withdrawn_player_is_marked_in_the_standings_and_the_crosstable(site, page):
    page.goto(f"{site.url}/t/{site.decided.id}")
    rows = cells(page, "#standings tbody tr")
    fischer = next(row for row in rows if row[2].startswith("Fischer"))
    assert fischer[1:3] == ["6", "Fischer withdrawn"]
    mark = page.locator("#standings .mark.withdrawn")
    assert mark.count() == 1 and mark.get_attribute("title") == "withdrawn: had to leave early"
    assert page.locator("#standings tr.withdrawn").count() == 1
    assert "Withdrawn players are not paired in later rounds" in page.locator(".legend").inner_text()
    page.goto(f"{site.url}/t/{site.decided.id}/crosstable")
    rows = {row[1]: row for row in cells(page, "#crosstable tbody tr")}
    capablanca = rows["Capablanca"][0]
    assert rows["Fischer withdrawn"][3:5] == [
        f"{capablanca}b0",
        "",
    ]  # lost to Capablanca, not paired in round 2
    corrected = page.locator("#crosstable td.corrected")
    assert corrected.count() == 2 and corrected.first.get_attribute("title") == "result corrected"
    # Botvinnik (White) lost to Euwe: each row names the opponent's place, the colour and the result
    botvinnik_lost, euwe_won = f"{rows['Euwe'][0]}w0†", f"{rows['Botvinnik'][0]}b1†"
    assert sorted(corrected.all_inner_texts()) == sorted([botvinnik_lost, euwe_won])


def test_a_corrected_result_and_a_requested_bye_on_the_round_pages(site, page):
    page.goto(f"{site.url}/t/{site.decided.id}/rounds/1")
    rows = cells(page, "#pairings-1 tbody tr")
    assert rows[1] == ["2", "2", "Botvinnik", "2000", "0", "0-1 corrected", "0", "5", "Euwe", "1850"]
    result = page.locator("#pairings-1 tbody tr").nth(1).locator("td.result")
    assert (
        result.get_attribute("title") == "corrected from ½-½ to 0-1 by the arbiter: the scoresheets say 0-1"
    )
    assert rows[2][8] == "Fischer withdrawn"
    page.goto(f"{site.url}/t/{site.decided.id}/rounds/2")
    assert page.locator("#byes-2 li").all_inner_texts() == [
        "Zero-point bye (requested): Botvinnik (2), 0 points"
    ]


def test_a_corrected_game_and_an_excluded_player_in_the_bracket(site, page):
    page.goto(f"{site.url}/t/{site.corrected.id}/bracket")
    match = page.locator("#match-winners-1-4")
    assert match.locator(".games li").all_inner_texts() == [
        "Game 1: 3–6 1-0",
        "Game 2: 6–3 0-1 corrected",
    ]
    assert match.locator(".mark.corrected").get_attribute("title") == (
        "corrected from ½-½ to 0-1 by the arbiter: 3 won on time"
    )
    assert match.locator(".slot").all_inner_texts() == ["3\nCapablanca\n2", "6\nFischer\n0"]
    excluded = page.locator("#match-winners-1-2 .mark.excluded")
    assert excluded.count() == 1 and excluded.get_attribute("title") == "excluded"
    assert [row[1] for row in cells(page, "#seeding tbody tr")][3] == f"{EVIL} excluded"


# -- the index, the players, the tree, live pages, phones and paper (issue 16) ---------------------------


def test_the_index_lists_running_upcoming_and_finished(site, page):
    page.goto(f"{site.url}/t/")
    assert page.locator("h1").inner_text() == "Tournaments"
    running = [row[0] for row in cells(page, "#running-list tbody tr")]
    assert "Evening rapid" in running and "Spring open" not in running
    assert [row[0] for row in cells(page, "#upcoming-list tbody tr")] == ["Hourly arena", "Autumn open"]
    assert "Spring open" in [row[0] for row in cells(page, "#finished-list tbody tr")]
    evening = next(row for row in cells(page, "#running-list tbody tr") if row[0] == "Evening rapid")
    assert evening[1:] == ["platform", "3+2", "6", "2026-06-01 12:00 UTC", "3 of 5"]
    link = page.locator("#running-list").get_by_role("link", name="Evening rapid")
    assert link.get_attribute("href") == f"/t/{site.evening.id}"


def test_the_index_searched_by_name_without_javascript(site, browser):
    context = browser.new_context(viewport={"width": 1100, "height": 700}, java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(f"{site.url}/t/")
        page.fill("#q", "OPEN")
        with page.expect_navigation():
            page.click("#search button")
        assert page.url.endswith("/t/?q=OPEN&status=")
        assert page.locator("#searched").inner_text().startswith("Tournaments whose name contains “OPEN”")
        assert [row[0] for row in cells(page, "#running-list tbody tr")] == ["Bern Rapid Open"]
        assert [row[0] for row in cells(page, "#upcoming-list tbody tr")] == ["Autumn open"]
        assert [row[0] for row in cells(page, "#finished-list tbody tr")] == ["Spring open"]
        page.fill("#q", "arena")
        with page.expect_navigation():
            page.click("#search button")
        assert [row[0] for row in cells(page, "#upcoming-list tbody tr")] == ["Hourly arena"]
        assert page.locator("#running .notice").inner_text() == "No running tournament matches."
        page.select_option("#status", "upcoming")
        with page.expect_navigation():
            page.click("#search button")
        assert page.locator("#running, #finished").count() == 0
    finally:
        page.screenshot(path=str(shot("test_the_index_searched_by_name_without_javascript")), full_page=True)
        context.close()


def test_an_upcoming_tournament_shows_its_entries(site, page):
    page.goto(f"{site.url}/t/")
    with page.expect_navigation():
        page.get_by_role("link", name="Autumn open").click()
    assert page.locator("#status").inner_text() == "Starts 2026-06-02 18:00 UTC; 4 of 16 places taken."
    assert [row[1:] for row in cells(page, "#entries tbody tr")] == [
        ["Judit", "2300"], ["Hou", "2250"], [EVIL, "1800"], ["Magnus", ""]
    ]  # fmt: skip
    assert page.evaluate("window.pwned") is None


def test_a_player_page_from_the_standings(site, page):
    page.goto(f"{site.url}/t/{site.evening.id}")
    header = cells(page, "#standings thead tr")[0]
    codes = header[header.index("Pts.") + 1 :]
    anand = next(row for row in cells(page, "#standings tbody tr") if row[2] == "Anand")
    with page.expect_navigation():
        page.locator("#standings").get_by_role("link", name="Anand").click()
    assert page.url.endswith(f"/t/{site.evening.id}/players/1")
    assert page.locator("#player").inner_text() == "Anand"
    facts = page.locator("#player-facts").inner_text().split("\n")
    assert facts[:4] == ["Start number", "1", "Rating", "2050"]
    assert page.locator("#points").inner_text() == "5"  # two wins (2 each) and a draw on the platform
    # the tie-breaks in the table's order, with the values of the player's row there
    tiebreaks = cells(page, "#tiebreaks tbody tr")
    assert [row[0] for row in tiebreaks] == codes
    assert [row[2] for row in tiebreaks] == anand[header.index("Pts.") + 1 :]
    # Anand: beat EVIL (4) with White, beat Euwe (5) with Black, is playing Capablanca (3)
    assert cells(page, "#games tbody tr") == [
        ["1", "1", "w", "4", EVIL, "1900", "1", "2"],
        ["2", "1", "b", "5", "Euwe", "1850", "1", "2"],
        ["3", "1", "w", "3", "Capablanca", "1950", "½", "1"],
    ]
    with page.expect_navigation():
        page.locator("#games").get_by_role("link", name="Euwe").click()
    assert page.locator("#player").inner_text() == "Euwe"
    assert page.evaluate("window.pwned") is None


def test_every_name_leads_to_the_players_page(site, page):
    for path, table in (("", "#standings"), ("/crosstable", "#crosstable"), ("/rounds/2", "#pairings-2")):
        page.goto(f"{site.url}/t/{site.evening.id}{path}")
        links = page.locator(f"{table} td.name a")
        assert links.count() == page.locator(f"{table} tbody tr").count() * (2 if "pairings" in table else 1)
        hrefs = {links.nth(i).get_attribute("href") for i in range(links.count())}
        assert all(h.startswith(f"/t/{site.evening.id}/players/") for h in hrefs), path
    page.goto(f"{site.url}/t/{site.bracket.id}")
    assert page.locator("#match-winners-3-1 .player a").all_inner_texts() == ["Anand", "Capablanca"]


def test_a_knockout_bracket_drawn_as_a_tree(site, page):
    page.goto(f"{site.url}/t/{site.bracket.id}")
    assert page.locator("#section-winners h3").count() == 3
    boxes = [page.locator(f"#section-winners .node[data-section-round='{r}']").count() for r in (1, 2, 3)]
    assert boxes == [4, 2, 1]
    # each semi-final sits level with the middle of the two quarter-finals it follows
    qf = [page.locator(f"#match-winners-1-{m}").bounding_box() for m in (1, 2, 3, 4)]
    sf = [page.locator(f"#match-winners-2-{m}").bounding_box() for m in (1, 2)]
    final = page.locator("#match-winners-3-1").bounding_box()

    def middle(box):
        return box["y"] + box["height"] / 2

    assert abs(middle(sf[0]) - (middle(qf[0]) + middle(qf[1])) / 2) < 3
    assert abs(middle(sf[1]) - (middle(qf[2]) + middle(qf[3])) / 2) < 3
    assert abs(middle(final) - (middle(sf[0]) + middle(sf[1])) / 2) < 3
    assert sf[0]["x"] > qf[0]["x"] + qf[0]["width"] and final["x"] > sf[0]["x"] + sf[0]["width"]

    # the lines: a bracket joining each pair of quarter-finals, a line into each semi-final
    def line(selector: str, side: str, pseudo: str = "::after") -> str:
        found: str = page.evaluate(
            f"getComputedStyle(document.querySelector({selector!r}), {pseudo!r}).border{side}Width"
        )
        return found

    first = "#section-winners .node[data-section-round='1']"
    assert line(f"{first}.odd", "Right") == line(f"{first}.odd", "Top") == "1px"  # down from the first
    assert line(f"{first}.even", "Right") == line(f"{first}.even", "Bottom") == "1px"  # up from the second
    assert line("#section-winners .node[data-section-round='2']", "Top", "::before") == "1px"  # into the next
    assert line("#section-winners .node[data-section-round='3']", "Top") == "0px"  # the final: no line out


def test_a_double_knockout_draws_the_rounds_ahead_empty(site, page):
    page.goto(f"{site.url}/t/{site.double.id}")
    assert page.locator("section.bracket h2").all_inner_texts() == [
        "Winners' bracket",
        "Losers' bracket",
        "Grand final",
    ]
    winners = page.locator("#section-winners h3").all_inner_texts()
    assert winners == ["Winners round 1", "Winners round 2", "Winners' final"]
    assert page.locator("#section-losers h3").all_inner_texts() == [
        "Losers round 1", "Losers round 2", "Losers round 3", "Losers' final"
    ]  # fmt: skip
    ahead = page.locator(".match.ahead")
    # winners' final 1, losers rounds 2-4: 2 + 1 + 1, grand final and second final 2
    assert ahead.count() == 1 + 2 + 1 + 1 + 2
    assert page.locator("#match-losers-1-1 .player").all_inner_texts() == ["Hübner", "Gelfand"]
    assert page.locator("#match-winners-2-1 .games li").first.inner_text() == "Game 1: 1–4 1-0"


def test_a_result_arriving_updates_the_open_page(site, page):
    """The page fetches itself every second while the round runs: the result shows up with no reload,
    and once the tournament is completed the page stops asking."""
    page.goto(f"{site.url}/t/{site.refreshed.id}/rounds/1")
    page.evaluate("window.stillTheSamePage = true")
    assert page.locator("#live").is_visible()
    assert [row[5] for row in cells(page, "#pairings-1 tbody tr")] == ["1-0", "playing"]
    site.refreshed.result(1, 2, 3, D)
    deadline = time.monotonic() + 15
    while [row[5] for row in cells(page, "#pairings-1 tbody tr")] != ["1-0", "½-½"]:
        assert time.monotonic() < deadline, "the result did not arrive on the open page"
        page.wait_for_timeout(200)
    assert page.locator("#status").inner_text().startswith("Round 1 of 3 finished.")
    assert page.evaluate("window.stillTheSamePage") is True  # swapped in place, not reloaded
    site.refreshed.complete()
    deadline = time.monotonic() + 15
    while page.locator("#live").count():
        assert time.monotonic() < deadline, "the page did not see the tournament completed"
        page.wait_for_timeout(200)
    assert page.locator("#status").inner_text() == "Completed after round 1: final standings."
    fetched: list[str] = []
    page.on("request", lambda r: fetched.append(r.url))
    page.wait_for_timeout(2500)
    assert fetched == []  # completed: no more polling
    assert page.evaluate("window.stillTheSamePage") is True


def test_without_javascript_a_running_page_reloads_itself(site, browser):
    context = browser.new_context(viewport={"width": 1100, "height": 700}, java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(f"{site.url}/t/{site.reloaded.id}")
        assert (
            page.locator("#standings caption")
            .inner_text()
            .endswith("(round 1 in progress: 1 of 2 games counted)")
        )
        site.reloaded.result(1, 2, 3, B)
        deadline = time.monotonic() + 15
        while "in progress" in page.locator("#standings caption").inner_text():
            assert time.monotonic() < deadline, "the meta refresh did not reload the page"
            page.wait_for_timeout(250)
        assert page.locator("#standings caption").inner_text() == "Standings after round 1"
    finally:
        page.screenshot(
            path=str(shot("test_without_javascript_a_running_page_reloads_itself")), full_page=True
        )
        context.close()


def test_an_unknown_player_is_a_404_page(site, page):
    response = page.goto(f"{site.url}/t/{site.evening.id}/players/99")
    assert response.status == 404 and response.headers["content-type"].startswith("text/html")
    assert page.locator("h1").inner_text() == "Not found"
    assert (
        page.locator("#problem").inner_text()
        == f"No player with start number 99 in tournament {site.evening.id}."
    )
    with page.expect_navigation():
        page.get_by_role("link", name="All tournaments").first.click()
    assert page.locator("h1").inner_text() == "Tournaments"


def test_the_downloads_on_the_standings(site, page):
    page.goto(f"{site.url}/t/{site.robin.id}")
    links = page.locator("#downloads a")
    assert links.all_inner_texts() == [
        "TRF-2026",
        "TRF-16",
        "Standings as CSV",
        "standings",
        "crosstable",
        "pairings",
        "standings",
        "crosstable",
        "pairings",
        "crosstable",
        "pairings",
    ]
    with page.expect_download() as pdf:
        page.locator("#downloads-pdf").get_by_role("link", name="standings").click()
    assert pdf.value.suggested_filename == f"{site.robin.id}-standings.pdf"
    assert pdf.value.path().read_bytes()[:5] == b"%PDF-"
    with page.expect_download() as crosstable:
        page.locator("#downloads-csv").get_by_role("link", name="crosstable").click()
    assert crosstable.value.suggested_filename == f"{site.robin.id}-crosstable.csv"
    with page.expect_download() as download:
        page.get_by_role("link", name="Standings as CSV").click()
    assert download.value.suggested_filename == f"{site.robin.id}.csv"
    with page.expect_download() as trf:
        page.get_by_role("link", name="TRF-2026").click()
    assert trf.value.suggested_filename == f"{site.robin.id}.trf"


PAGES = {  # name: (the Site's tournament, path)
    "index": (None, "/t/"),
    "upcoming": ("autumn", ""),
    "standings": ("evening", ""),
    "crosstable": ("evening", "/crosstable"),
    "round": ("evening", "/rounds/3"),
    "player": ("evening", "/players/1"),
    "knockout": ("bracket", ""),
    "double-knockout": ("double", ""),
    "fide-columns": ("fide", ""),
    "print-pairings": ("evening", "/print/pairings"),
    "not-found": (None, "/t/00000000-0000-4000-8000-000000000000"),
}


def address(site: Site, name: str) -> str:
    holder, path = PAGES[name]
    if holder is None:
        return site.url + path
    return f"{site.url}/t/{getattr(site, holder).id}{path}"


@pytest.mark.parametrize("name", list(PAGES))
def test_mobile_layout(site, browser, name):
    """At a phone's width the page itself never scrolls sideways: wide tables and the bracket scroll in
    their own box."""
    context = browser.new_context(
        viewport={"width": 375, "height": 740}, device_scale_factor=2, is_mobile=True
    )
    page = context.new_page()
    try:
        page.goto(address(site, name))
        overflow = page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0, f"{name}: the page is {overflow}px wider than the screen"
        for i in range(page.locator("table").count()):
            table = page.locator("table").nth(i)
            box = table.bounding_box()
            if box["width"] > 375:  # a wide table sits in a box that scrolls
                assert table.evaluate("t => getComputedStyle(t.parentElement).overflowX") == "auto", name
    finally:
        page.screenshot(path=str(shot(f"mobile-{name}")), full_page=True)
        context.close()


@pytest.mark.parametrize("name", list(PAGES))
def test_print_stylesheet(site, browser, name):
    """Printed, every page is black on white without navigation, downloads or the live mark."""
    context = browser.new_context(viewport={"width": 800, "height": 1100})
    page = context.new_page()
    try:
        page.emulate_media(media="print")
        page.goto(address(site, name))
        for hidden in ("nav", "footer", "#downloads", "#live", "form.search"):
            found = page.locator(hidden)
            assert all(not found.nth(i).is_visible() for i in range(found.count())), (
                f"{name}: {hidden} printed"
            )
        heads = page.locator("thead th")
        if heads.count():
            assert heads.first.evaluate("th => getComputedStyle(th).backgroundColor") == "rgb(255, 255, 255)"
            assert heads.first.evaluate("th => getComputedStyle(th).color") == "rgb(0, 0, 0)"
    finally:
        page.screenshot(path=str(shot(f"print-{name}")), full_page=True)
        context.close()
