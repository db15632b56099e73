"""The tournament index (running, upcoming from ``tournament.scheduled`` and its entries, finished; the
search by name), a player's page and its JSON, the bracket's whole layout, and the pages' answers to
bad addresses and parameters: an HTML page for a browser, problem+json for a client asking for JSON."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest

from services.standings.domain.bracket import shape
from services.standings.entrypoints.pages import bracket_tree
from services.standings.entrypoints.schemas.bracket import BracketOut
from services.standings.tests.helpers import (
    NOW,
    Announcement,
    B,
    D,
    KnockoutStory,
    Story,
    W,
    deliver,
    problem,
    six_player_knockout,
)
from shared import events
from shared.vocabulary import BracketFormat, Section


def listed(client, **params) -> dict[str, list[str]]:
    body = client.get("/t/", query_string=params)
    assert body.status_code == 200
    html = body.get_data(as_text=True)
    out = {}
    for phase in ("running", "upcoming", "finished"):
        start = html.find(f'id="{phase}"')
        if start < 0:
            continue
        end = min([i for i in (html.find("<section", start), html.find("</main>", start)) if i > 0])
        section = html[start:end]
        out[phase] = [part.split("</a>")[0] for part in section.split('<td class="name"><a href=')[1:]]
    return {phase: [name.split(">", 1)[1] for name in names] for phase, names in out.items()}


def test_the_index_lists_running_upcoming_and_finished_tournaments(client, svc):
    running = Story(svc, 4, name="Evening rapid").start()
    running.play(1, [(1, 4, W), (2, 3, D)])
    finished = Story(svc, 4, name="Spring open", rounds=1, system="swiss").start()
    finished.play(1, [(1, 4, W), (2, 3, B)])
    finished.complete()
    soon = Announcement(svc, "Autumn open", hours=2)
    later = Announcement(svc, "Winter blitz", hours=48)
    assert listed(client) == {
        "running": ["Evening rapid"],
        "upcoming": ["Autumn open", "Winter blitz"],  # soonest first
        "finished": ["Spring open"],
    }
    html = client.get("/t/").get_data(as_text=True)
    assert f'href="/t/{running.id}"' in html and f'href="/t/{later.id}"' in html
    assert ">1 of 3<" in html  # the running one's round
    soon.cancel()  # cancelled: on no list any more
    assert listed(client)["upcoming"] == ["Winter blitz"]


def test_the_search_finds_names_in_any_case_and_takes_wildcards_literally(client, svc):
    Story(svc, 4, name="Evening Rapid").start()
    Story(svc, 4, name="100% blitz").start()
    Announcement(svc, "Rapid kids")
    assert listed(client, q="rapid") == {
        "running": ["Evening Rapid"],
        "upcoming": ["Rapid kids"],
        "finished": [],
    }
    assert listed(client, q="%")["running"] == ["100% blitz"]
    assert listed(client, q="_") == {"running": [], "upcoming": [], "finished": []}
    assert listed(client, q="RAPID", status="upcoming") == {"upcoming": ["Rapid kids"]}
    html = client.get("/t/", query_string={"q": "<b>rapid"}).get_data(as_text=True)
    assert "&lt;b&gt;rapid" in html and "<b>rapid" not in html


def test_an_upcoming_tournament_shows_its_entries_until_it_starts(client, svc):
    a = Announcement(svc, "Autumn open", seats=8)
    a.join("Ann", 1900)
    a.join("Bob", 2100, events.PlayerProfile(federation="SUI", title="FM"))
    a.join("Cy")
    a.leave("Ann")
    html = client.get(f"/t/{a.id}").get_data(as_text=True)
    assert "Starts 2026-06-02 12:00 UTC; 2 of 8 places taken." in html
    assert html.index("Bob") < html.index("Cy") and "Ann" not in html  # by rating, unrated last
    assert '<span class="title">FM</span> Bob' in html and ">SUI<" in html
    deliver(
        svc,
        events.PlayerJoined(tournament_id=a.id, player_id=uuid.uuid4(), name="Late", late=True, from_round=2),
    )
    assert "Late" not in client.get(f"/t/{a.id}").get_data(as_text=True)  # a late entry: not before the start
    a.cancel()
    html = client.get(f"/t/{a.id}").get_data(as_text=True)
    assert "Cancelled: too few players: 2 present, at least 4 needed." in html


def test_a_start_takes_the_tournament_off_the_upcoming_list(client, svc):
    story = Story(svc, 4, name="Autumn open")
    a = Announcement(svc, "Autumn open")
    story.id = a.id
    story.started = story.started.model_copy(update={"tournament_id": a.id})
    story.start()
    assert listed(client) == {"running": ["Autumn open"], "upcoming": [], "finished": []}
    assert "Standings" in client.get(f"/t/{a.id}").get_data(as_text=True)


def test_news_of_a_tournament_never_announced_changes_nothing(client, svc):
    """A knockout draft or a fide-rapid event publishes no tournament.scheduled: their entries and
    starts are ignored by the announcements queue."""
    tid = uuid.uuid4()
    deliver(svc, events.PlayerJoined(tournament_id=tid, player_id=uuid.uuid4(), name="Ann"))
    deliver(svc, events.PlayerLeft(tournament_id=tid, player_id=uuid.uuid4()))
    assert svc.views.announced(tid) is None
    assert client.get(f"/t/{tid}").status_code == 404


def test_an_arena_announced_is_upcoming_then_running(client, svc):
    a = Announcement(svc, "Hourly arena", hours=1, arena=True)
    a.join("Ann", 1500)
    assert listed(client, status="upcoming") == {"upcoming": ["Hourly arena"]}
    deliver(
        svc,
        events.TournamentStarted(
            tournament_id=a.id,
            organiser_id=a.organiser,
            name="Hourly arena",
            started_at=NOW + dt.timedelta(hours=1),
            settings=a.scheduled.settings,
            roster=[events.RosterEntry(seed=1, player_id=a.players["Ann"], name="Ann", rating=1500)],
        ),
    )
    assert listed(client) == {"running": ["Hourly arena"], "upcoming": [], "finished": []}
    body = client.get("/tournaments/" + str(a.id) + "/arena").json
    assert [r["name"] for r in body["ranking"]] == ["Ann"]


def test_a_player_page_lists_games_byes_and_tie_breaks(client, svc):
    story = Story(svc, 5, system="swiss", rounds=3).start()
    story.play(1, [(1, 4, W), (2, 5, D)], bye=3)
    story.play(2, [(3, 1, B), (4, 2, D)], bye=5)
    story.pair(3, [(1, 2), (5, 3)], bye=4)
    body = client.get(f"/tournaments/{story.id}/players/1").json
    assert (body["player"]["name"], body["rank"], body["points"]) == ("Player 1", 1, 4)
    assert list(body["tiebreaks"]) == client.get(f"/tournaments/{story.id}/standings").json["tiebreaks"]
    assert [
        (g["round"], g["colour"], g["opponent"]["seed"], g["result"], g["points"]) for g in body["games"]
    ] == [
        (1, "w", 4, "1", 2),
        (2, "b", 3, "1", 2),
        (3, "w", 2, "", None),  # playing
    ]
    three = client.get(f"/tournaments/{story.id}/players/3").json["games"]
    assert [(g["round"], g["result"], g["bye"], g["points"]) for g in three] == [
        (1, "bye", "pairing_allocated", 2),
        (2, "0", None, 0),
        (3, "", None, None),
    ]
    html = client.get(f"/t/{story.id}/players/1").get_data(as_text=True)
    assert f'<a href="/t/{story.id}/players/4">Player 4</a>' in html  # the opponent's page
    assert "playing" in html and 'id="tiebreaks"' in html
    # every name on the table, the crosstable and the round pages leads to the player's page
    for path in ("", "/crosstable", "/rounds/1"):
        page = client.get(f"/t/{story.id}{path}").get_data(as_text=True)
        assert f'<a href="/t/{story.id}/players/3">Player 3</a>' in page, path


def test_a_withdrawn_player_page_shows_the_rounds_without_a_pairing(client, svc):
    story = Story(svc, 4, system="swiss", rounds=2).start()
    story.play(1, [(1, 4, W), (2, 3, W)])
    story.withdraw(4, reason="ill")
    story.play(2, [(1, 2, D)], bye=3)
    body = client.get(f"/tournaments/{story.id}/players/4").json
    assert (body["player"]["status"], body["status_reason"]) == ("withdrawn", "ill")
    assert [(g["round"], g["opponent"] and g["opponent"]["seed"], g["result"]) for g in body["games"]] == [
        (1, 1, "0"),
        (2, None, ""),
    ]
    assert "not paired" in client.get(f"/t/{story.id}/players/4").get_data(as_text=True)


def test_a_knockout_player_page_names_each_game(client, svc):
    k = six_player_knockout(svc, names=["Anand", "Botvinnik", "Capablanca", "Dvoretsky", "Euwe", "Fischer"])
    body = client.get(f"/tournaments/{k.id}/players/5").json
    assert (body["rank"], body["tiebreaks"]) == (None, {})
    assert [(g["round"], g["label"], g["result"], g["rated"]) for g in body["games"]] == [
        (1, "Game 1", "0", True),
        (1, "Game 2", "1", True),
        (1, "Tie-break 1 (15+10), game 1", "½", False),
        (1, "Tie-break 1 (15+10), game 2", "1", False),
        (2, "Game 1", "0", True),
        (2, "Game 2", "0", True),
        (3, "Game 1", "0", True),
        (3, "Game 2", "0", True),
    ]


def test_the_bracket_layout_draws_the_rounds_ahead(client, svc):
    assert shape(BracketFormat.KNOCKOUT, 6, third_place=True, second_final=False) == {
        Section.WINNERS: [4, 2, 1],
        Section.THIRD_PLACE: [1],
    }
    assert shape(BracketFormat.DOUBLE_KNOCKOUT, 16, third_place=False, second_final=True) == {
        Section.WINNERS: [8, 4, 2, 1],
        Section.LOSERS: [4, 4, 2, 2, 1, 1],
        Section.GRAND_FINAL: [1, 1],
    }
    assert shape(BracketFormat.DOUBLE_KNOCKOUT, 5, third_place=False, second_final=False)[Section.LOSERS] == [
        2,
        2,
        1,
        1,
    ]
    k = six_player_knockout(svc, upto=2)  # round 2 paired, not published
    body = client.get(f"/tournaments/{k.id}/bracket").json
    assert [(s["section"], [(r["name"], r["matches"]) for r in s["rounds"]]) for s in body["layout"]] == [
        ("winners", [("Quarter-finals", 4), ("Semi-finals", 2), ("Final", 1)]),
        ("third_place", [("Third-place match", 1)]),
    ]
    [winners, third] = bracket_tree(BracketOut.model_validate(body))
    assert [[m and m.match_id for m in r.cells] for r in winners.rounds] == [
        ["winners:1:1", "winners:1:2", "winners:1:3", "winners:1:4"],
        [None, None],  # paired, not published: drawn empty
        [None],
    ]
    assert [(r.span, r.halves, r.last) for r in winners.rounds] == [
        (1, True, False),
        (2, True, False),
        (4, False, True),
    ]
    assert third.rounds[0].cells == [None] and not third.rounds[0].played


def test_a_double_knockout_tree_joins_pairs_and_runs_straight_into_drop_in_rounds(client, svc):
    k = KnockoutStory(svc, 8, fmt="double_knockout", rounds=7, name="Double trouble").start()
    k.pair(1, [(f"winners:1:{m}", m, 9 - m) for m in range(1, 5)])
    k.publish(1)
    body = client.get(f"/tournaments/{k.id}/bracket").json
    [_, losers, final] = bracket_tree(BracketOut.model_validate(body))
    assert [len(r.cells) for r in losers.rounds] == [2, 2, 1, 1]
    assert [r.halves for r in losers.rounds] == [False, True, False, False]  # 2 → 2 straight, 2 → 1 joined
    assert [r.span for r in losers.rounds] == [1, 1, 2, 2] and losers.rows == 2
    assert [r.name for r in final.rounds] == ["Grand final", "Second final"]
    html = client.get(f"/t/{k.id}").get_data(as_text=True)
    assert html.count('class="match ahead"') == 2 + 1 + 2 + 2 + 1 + 1 + 2  # every box not yet paired


def test_an_unknown_tournament_or_player_is_a_page_or_a_problem_by_accept(client, svc):
    story = Story(svc, 4).start()
    story.play(1, [(1, 4, W), (2, 3, D)])
    missing = uuid.uuid4()
    for path in (f"/t/{missing}", f"/t/{missing}/players/1", f"/t/{story.id}/players/9", "/t/nonsense"):
        page = client.get(path, headers={"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"})
        assert (page.status_code, page.mimetype) == (404, "text/html"), path
        assert "Not found" in page.get_data(as_text=True)
        assert client.get(path).mimetype == "text/html"  # no preference (curl): the page
        for accept in ("application/json", "application/problem+json"):
            answer = client.get(path, headers={"Accept": accept})
            assert (answer.status_code, answer.mimetype) == (404, "application/problem+json"), path
    problem(
        client.get(f"/t/{story.id}/players/9", headers={"Accept": "application/json"}),
        404,
        "player-not-found",
    )
    problem(client.get(f"/t/{missing}", headers={"Accept": "application/json"}), 404, "tournament-not-found")
    problem(client.get(f"/tournaments/{story.id}/players/9"), 404, "player-not-found")
    problem(client.get(f"/tournaments/{story.id}/players/0"), 422, "validation-error")


@pytest.mark.parametrize("params", [{"status": "someday"}, {"q": "x" * 101}, {"q": "a\x00b"}])
def test_bad_index_parameters_are_refused_as_a_page_or_a_problem(client, params):
    page = client.get("/t/", query_string=params)
    assert (page.status_code, page.mimetype) == (422, "text/html")
    assert "Invalid request" in page.get_data(as_text=True)
    body = problem(
        client.get("/t/", query_string=params, headers={"Accept": "application/json"}),
        422,
        "validation-error",
    )
    assert next(iter(params)) in body["detail"]


def test_a_page_fetched_again_unchanged_is_not_modified(client, svc):
    story = Story(svc, 4).start()
    story.pair(1, [(1, 4), (2, 3)])
    story.result(1, 1, 4, W)
    first = client.get(f"/t/{story.id}")
    assert first.headers["ETag"] and "Accept" in first.headers["Vary"]
    again = client.get(f"/t/{story.id}", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304
    story.result(1, 2, 3, D)  # a result: the page changed
    assert client.get(f"/t/{story.id}", headers={"If-None-Match": first.headers["ETag"]}).status_code == 200


def test_a_running_tournament_refreshes_itself_and_a_completed_one_does_not(client, svc):
    story = Story(svc, 4, system="swiss", rounds=1).start()
    story.pair(1, [(1, 4), (2, 3)])
    story.result(1, 1, 4, W)  # one game still open
    html = client.get(f"/t/{story.id}").get_data(as_text=True)
    assert 'data-refresh="15"' in html and '<meta http-equiv="refresh" content="15">' in html
    assert "/static/live.js" in html and 'id="live"' in html
    story.result(1, 2, 3, D)
    story.complete()
    for path in ("", "/crosstable", "/rounds/1", "/players/1"):
        html = client.get(f"/t/{story.id}{path}").get_data(as_text=True)
        assert "data-refresh" not in html and "live.js" not in html and 'http-equiv="refresh"' not in html


def test_the_tournament_pages_link_the_downloads(client, svc):
    story = Story(svc, 4).start()
    story.play(1, [(1, 4, W), (2, 3, D)])
    html = client.get(f"/t/{story.id}").get_data(as_text=True)
    for href in ("trf", "trf16", "csv"):
        assert f'href="/tournaments/{story.id}/{href}"' in html
        assert client.get(f"/tournaments/{story.id}/{href}").status_code == 200
    for href in ("print/standings", "print/crosstable", "print/pairings"):
        assert f'href="/t/{story.id}/{href}"' in html
    k = six_player_knockout(svc)
    html = client.get(f"/t/{k.id}").get_data(as_text=True)
    assert 'id="downloads"' in html and "/trf" not in html  # a knockout has no TRF
    assert f'href="/t/{k.id}/print/pairings/3"' in html


def test_the_pages_bound_their_parameters_as_the_api_does(client, svc):
    """The pages are outside the OpenAPI documents (the fuzzer never reaches them): a NUL in the search
    answered 500 on PostgreSQL. They read their parameters through the API's models: the same bounds,
    a 422 beyond them (a page, or problem+json for a client asking for JSON)."""
    story = Story(svc, 4).start()
    big = 2**31  # past the database's integers, as the API's ``round`` and start numbers
    for path in (
        f"/t/{story.id}/rounds/{big}",
        f"/t/{story.id}/players/{big}",
        f"/t/{story.id}/players/0",
        f"/t/{story.id}/print/pairings/{big}",
        f"/t/{story.id}/arena?player=someone",
        f"/t/{story.id}/arena?fragment=yes",
    ):
        page = client.get(path)
        assert (page.status_code, page.mimetype) == (422, "text/html"), path
        problem(client.get(path, headers={"Accept": "application/json"}), 422, "validation-error")
    # within the bounds the pages answer as before
    assert client.get(f"/t/{story.id}/rounds/1").status_code in (200, 404)
    assert client.get("/t/", query_string={"q": "", "status": ""}).status_code == 200  # the form, empty
