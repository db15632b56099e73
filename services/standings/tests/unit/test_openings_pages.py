"""The variant, whether the tournament is rated and each game's opening on the round and standings
answers and pages (RULES.md §2)."""

from __future__ import annotations

import uuid

from services.standings.tests.helpers import NOW, deliver
from shared import events


def a_draughts_swiss(svc, *, rated: bool):
    tid, organiser = uuid.uuid4(), uuid.uuid4()
    players = [uuid.uuid4() for _ in range(4)]
    deliver(
        svc,
        events.TournamentStarted(
            tournament_id=tid,
            organiser_id=organiser,
            name="Draughts evening",
            started_at=NOW,
            settings=events.TournamentSettings(
                variant="english",
                opening="table-all",
                rated=rated,
                threshold=4,
                time_control=events.TimeControl(base_seconds=300, increment_seconds=3),
            ),
            roster=[
                events.RosterEntry(seed=i, player_id=p, name=f"Player {i}", rating=1600 - i)
                for i, p in enumerate(players, start=1)
            ],
        ),
    )
    openings = [
        events.GameOpening(code="017", moves=["10-14", "22-17", "14-18"], fen="B:W17,...:B18,..."),
        events.GameOpening(code="101", moves=["11-15", "23-19", "8-11"], fen="B:W19,...:B15,..."),
    ]
    deliver(
        svc,
        events.RoundPaired(
            tournament_id=tid,
            organiser_id=organiser,
            round=1,
            total_rounds=3,
            system="swiss",
            games=[
                events.PairedGame(
                    game_id=uuid.uuid4(), board=b, white=players[w], black=players[k], opening=openings[b - 1]
                )
                for b, (w, k) in enumerate([(0, 2), (3, 1)], start=1)
            ],
            time_control=events.TimeControl(base_seconds=300, increment_seconds=3),
            variant="english",
        ),
    )
    return tid


def test_the_round_shows_each_games_opening_and_the_tournament_its_variant_and_rating(client, svc):
    tid = a_draughts_swiss(svc, rated=False)
    body = client.get(f"/tournaments/{tid}/rounds/1").json
    assert (body["variant"], body["rated"], body["opening"]) == ("english", False, "table-all")
    assert [g["opening"] for g in body["games"]] == ["017", "101"]
    page = client.get(f"/t/{tid}/rounds/1").get_data(as_text=True)
    assert '<span id="variant">english</span>' in page and '<span id="rated">friendly</span>' in page
    assert '<span id="opening">table-all</span>' in page
    assert '<th scope="col" class="name">Opening</th>' in page and ">017</td>" in page and ">101</td>" in page
    standings = client.get(f"/tournaments/{tid}/standings").json
    assert (standings["variant"], standings["rated"]) == ("english", False)


def test_a_rated_tournament_says_so_on_its_page(client, svc):
    tid = a_draughts_swiss(svc, rated=True)
    page = client.get(f"/t/{tid}").get_data(as_text=True)
    assert '<span id="rated">rated</span>' in page
