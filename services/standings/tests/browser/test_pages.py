"""The public pages as a person sees them: served on a free localhost port, opened in headless
Chromium (Debian's ``chromium`` package, driven by Playwright). Each page's screenshot is kept under
``test-artifacts/standings/``."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from werkzeug.serving import make_server

from services.standings.entrypoints.app import create_app
from services.standings.tests.helpers import (
    B,
    D,
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
        self.server = make_server("127.0.0.1", 0, create_app(self.svc), threaded=True)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        self.url = f"http://127.0.0.1:{self.server.server_port}"

    def close(self) -> None:
        self.server.shutdown()
        self.thread.join(timeout=10)
        self.svc.engine.dispose()


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
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    opened.screenshot(path=str(ARTIFACTS / f"{request.node.name}.png"), full_page=True)
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
        ["1", "4", "Player 4", "1900", "6", "3", "0", "4", "28"],
        ["2", "1", "Player 1", "2050", "6", "2", "0", "1", "31"],
        ["3", "6", "Player 6", "1800", "5", "2", "1", "6", "22"],
        ["4", "2", "Player 2", "2000", "5", "2", "2", "2", "22"],
        ["5", "3", "Player 3", "1950", "4", "1", "0", "3", "21"],
        ["6", "5", "Player 5", "1850", "4", "1", "0", "5", "22"],
    ]
    assert page.locator("#standings thead abbr", has_text="SB").get_attribute("title") == (
        "Sonneborn-Berger (for information)"
    )


def test_swiss_standings_with_double_rounds(site, page):
    page.goto(f"{site.url}/t/{site.swiss.id}")
    assert "double rounds" in page.locator(".facts").inner_text()
    assert cells(page, "#standings thead tr")[0][5:] == ["BH-C1", "SB", "WIN", "BH"]
    assert [row[1] for row in cells(page, "#standings tbody tr")] == ["5", "3", "1", "4", "2"]
    assert cells(page, "#standings tbody tr")[0][4:] == ["9", "19", "31", "2", "24"]


def test_round_robin_crosstable(site, page):
    page.goto(f"{site.url}/t/{site.robin.id}")
    with page.expect_navigation():  # the next page, not the one still shown
        page.get_by_role("link", name="Crosstable").click()
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
    assert page.locator("h2").inner_text() == "Round 3 of 5"
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
    assert page.locator("#section-winners h3").all_inner_texts() == ["Quarter-finals"]
    assert page.locator("[id^=match-winners-2]").count() == 0  # neither the pairings nor any result
    text = page.locator("main").inner_text()
    assert "Semi-finals" not in text and "Final" not in text.replace("Final placing", "")
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
