"""A `fide-rapid` event in the standings (issue 10): the preset table (BH, BH-C1, SB, ARO in the C.07
edition the organiser's start date selects), the players' FIDE profiles on the pages, forfeits
(``+/-``, ``-/+``, ``-/-``), a zero-point bye on request, a late entry's missed rounds, a withdrawal
after an unannounced absence, penalties on the game's page; the exports (TRF-16 for rating
submission, TRF-2026, CSV, the printed pages), read back with ``arbiter standings`` to the same table
and paired by bbpPairings (where installed) as by ``arbiter pair --dutch``.

The event (9 players entered, 5 rounds; seeds by FIDE standard rating; 10 enters late, from round 3):

    R1  1-5 1-0 (5: an illegal move, the opponent's extra minute)  6-2 0-1  3-7 ½-½
        8-4 -/+ (8 absent at the default time, then excused)      9 the pairing-allocated bye
        10: round missed (late entry, zero-point bye)
    R2  4-1 ½-½  2-3 1-0  5-8 -/- (neither came)  7-6 0-1          9 a zero-point bye on request
    R3  1-2 ½-½  3-4 1-0  6-7 +/- (7 absent: withdrawn)  8-9 1-0
        10-5 0-1 (10: two illegal moves, the second loses)
    R4  3-1 ½-½  4-6 1-0  5-2 1-0  9-10 ½-½                        8 the pairing-allocated bye
    R5  1-6 1-0  2-4 ½-½  10-3 0-1  9-8 ½-½                        5 the pairing-allocated bye

Points by hand: 1: 1+½+½+½+1 = 3.5; 2: 1+1+½+0+½ = 3; 3: ½+0+1+½+1 = 3; 4: 1+½+0+1+½ = 3;
5: 0+0+1+1+1 = 3; 6: 0+1+1+0+0 = 2; 7: ½ (then withdrawn); 8: 0+0+1+1+½ = 2.5; 9: 1+0+0+½+½ = 2;
10: 0+0+0+½+0 = ½ — 23 points, as 23 = 5+3+5+5+5 points given out by the rounds.
"""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from services.standings.tests.helpers import (
    B,
    D,
    FideStory,
    Story,
    W,
    problem,
    recomputed,
    six_player_knockout,
    snapshot,
)
from shared import events
from shared.events import GameOutcome
from shared.trf import ResultCode, RoundEntry, TrfColour, parse

ORACLE = Path(os.environ.get("ARBITER_BBPPAIRINGS", "/work/oracles/bbpPairings/bbpPairings.exe"))
WF, BF, DF = GameOutcome.WHITE_FORFEIT_WIN, GameOutcome.BLACK_FORFEIT_WIN, GameOutcome.DOUBLE_FORFEIT
POINTS = {1: 3.5, 2: 3, 3: 3, 4: 3, 5: 3, 6: 2, 7: 0.5, 8: 2.5, 9: 2, 10: 0.5}


def arbiter(*args: str | Path) -> str:
    """The ``arbiter`` command line, as an arbiter runs it."""
    done = subprocess.run(
        [sys.executable, "-m", "cli.main", *map(str, args)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def rapid_open(svc, *, upto: int = 5) -> FideStory:
    """The event of the module text, up to round ``upto`` (completed after round 5)."""
    story = FideStory(svc, 9, rounds=5).start()
    story.pair(1, [(1, 5), (6, 2), (3, 7), (8, 4)], bye=9)
    story.penalise(1, 1, 5, 5, occurrence=1, consequence="extra_minute", reason="illegal castling")
    for white, black, outcome in [(1, 5, W), (6, 2, B), (3, 7, D), (8, 4, BF)]:
        story.result(1, white, black, outcome)
    late = story.join_late(from_round=3)
    assert late == 10
    if upto == 1:
        return story
    story.play(2, [(4, 1, D), (2, 3, W), (5, 8, DF), (7, 6, B)], zero_point=[9])
    if upto == 2:
        return story
    story.pair(3, [(1, 2), (3, 4), (6, 7), (8, 9), (10, 5)])
    story.penalise(3, 10, 5, 10, occurrence=1, consequence="extra_minute")
    story.penalise(3, 10, 5, 10, occurrence=2, consequence="loss", reason="second illegal move")
    for white, black, outcome in [(1, 2, D), (3, 4, W), (6, 7, WF), (8, 9, W), (10, 5, B)]:
        story.result(3, white, black, outcome)
    story.withdraw(7, reason="unannounced absence (FIDE C.04.2)")
    if upto == 3:
        return story
    story.play(4, [(3, 1, D), (4, 6, W), (5, 2, W), (9, 10, D)], bye=8)
    if upto == 4:
        return story
    story.play(5, [(1, 6, W), (2, 4, D), (10, 3, B), (9, 8, D)], bye=5)
    story.complete()
    return story


@pytest.fixture
def event(svc) -> FideStory:
    return rapid_open(svc)


def test_the_table_is_the_presets_in_the_edition_of_the_start_date(client, event):
    body = client.get(f"/tournaments/{event.id}/standings").json
    assert body["ruleset"] == "fide-rapid" and body["system"] == "swiss"
    assert body["tiebreaks"] == ["BH", "BH-C1", "SB", "ARO"] and body["shown"] == []
    # started (tournament.started) in June 2026, but the organiser's first day is 2026-02-21: C.07 of 2024
    assert body["edition"] == "2024"
    rows = body["rows"]
    assert {r["seed"]: r["points"] for r in rows} == POINTS
    assert rows[0]["seed"] == 1 and rows[0]["rank"] == 1
    assert [r["place"] for r in rows] == list(range(1, 11))
    seven = next(r for r in rows if r["seed"] == 7)
    assert (seven["status"], seven["status_reason"]) == ("withdrawn", "unannounced absence (FIDE C.04.2)")


def test_the_kept_table_is_the_one_recomputed_from_the_rows(svc):
    """After every event (a late entry, late byes, penalties included) the incremental table equals
    the one computed from scratch."""
    for upto in (1, 2, 3, 4, 5):
        story = rapid_open(svc, upto=upto)
        assert snapshot(svc, story.id) == recomputed(svc, story.id), upto


def test_the_rows_carry_the_profiles(client, event):
    rows = {r["seed"]: r for r in client.get(f"/tournaments/{event.id}/standings").json["rows"]}
    assert (rows[1]["title"], rows[1]["federation"], rows[1]["fide_id"]) == ("GM", "GER", 1_300_001)
    assert (rows[5]["title"], rows[5]["federation"], rows[5]["fide_id"]) == (None, "FRA", 1_300_005)
    assert rows[10]["fide_id"] == 1_300_010 and rows[10]["rating"] == 2000  # the late entry's
    page = client.get(f"/t/{event.id}").get_data(as_text=True)
    link = f'<a href="/t/{event.id}/players/1">Player 1</a>'
    assert f'<span class="title">GM</span> {link}' in page and "1300001" in page and ">GER<" in page


def test_a_late_entry_scores_its_missed_rounds_as_the_settings_say(client, event):
    for number in (1, 2):
        byes = client.get(f"/tournaments/{event.id}/rounds/{number}").json["byes"]
        late = [b for b in byes if b["late"]]
        assert [(b["player"]["seed"], b["kind"], b["points"]) for b in late] == [(10, "zero_point", 0)]
    page = client.get(f"/t/{event.id}/rounds/2").get_data(as_text=True)
    players = f"/t/{event.id}/players"
    assert f'Zero-point bye (late entry): <a href="{players}/10">Player 10</a> (10)' in page
    assert f'Zero-point bye (requested): <a href="{players}/9">Player 9</a> (9)' in page


def test_a_half_point_late_entry_bye(svc, client):
    story = FideStory(svc, 4, rounds=3, late_entry_bye="half").start()
    story.play(1, [(1, 3, W), (2, 4, D)])
    story.join_late(from_round=2)
    rows = {r["seed"]: r["points"] for r in client.get(f"/tournaments/{story.id}/standings").json["rows"]}
    assert rows == {1: 1, 2: 0.5, 3: 0, 4: 0.5, 5: 0.5}
    doc = parse(client.get(f"/tournaments/{story.id}/trf16").get_data(as_text=True))
    assert doc.players[5].rounds == [_block(None, "-", "H")]


def test_a_late_entry_announced_again_is_added_once(svc, client):
    story = FideStory(svc, 4, rounds=3).start()
    story.play(1, [(1, 3, W), (2, 4, D)])
    assert story.join_late(from_round=2) == 5
    joined = [e for e in story.envelopes if e.type == "player.joined"][-1]
    story.send(svc, joined.model_copy(update={"id": uuid.uuid4()}))  # the same news, another message
    body = client.get(f"/tournaments/{story.id}/standings").json
    assert [r["seed"] for r in body["rows"]].count(5) == 1 and len(body["rows"]) == 5


def test_a_join_before_the_start_changes_nothing(svc, client):
    """Registration announces its roster before the start as ``player.joined`` (``late`` false): the
    standings take the roster from ``tournament.started`` and ignore those (even of a tournament
    they do not know)."""
    story = FideStory(svc, 4, rounds=3)
    story.send(
        svc,
        events.PlayerJoined(tournament_id=story.id, player_id=uuid.uuid4(), name="Early", late=False),
    )
    story.start()
    story.play(1, [(1, 3, W), (2, 4, D)])
    assert len(client.get(f"/tournaments/{story.id}/standings").json["rows"]) == 4


def test_a_round_naming_a_late_entry_not_heard_yet_waits_for_it(svc, client):
    story = FideStory(svc, 4, rounds=3).start()
    story.play(1, [(1, 3, W), (2, 4, D)])
    late = uuid.uuid4()
    story.player_ids[5] = late
    envelope = events.wrap(
        events.RoundPaired(
            tournament_id=story.id,
            organiser_id=story.organiser,
            round=2,
            total_rounds=3,
            system="swiss",
            games=[
                events.PairedGame(game_id=uuid.uuid4(), board=1, white=story.player_ids[1], black=late),
                events.PairedGame(
                    game_id=uuid.uuid4(), board=2, white=story.player_ids[4], black=story.player_ids[3]
                ),
            ],
            byes=[events.Bye(player_id=story.player_ids[2])],
            time_control=events.TimeControl(base_seconds=900, increment_seconds=10),
        ),
        story.id,
    )
    svc.broker.publish([envelope])
    svc.broker.run_until_idle()
    assert [r["number"] for r in client.get(f"/tournaments/{story.id}/standings").json["rounds"]] == [1]
    story.send(
        svc,
        events.PlayerJoined(
            tournament_id=story.id, player_id=late, name="Player 5", rating=2200, late=True, from_round=2
        ),
    )
    svc.broker.run_until_idle()  # the round, parked meanwhile, comes again
    body = client.get(f"/tournaments/{story.id}/standings").json
    assert [r["number"] for r in body["rounds"]] == [1, 2] and len(body["rows"]) == 5


def test_penalties_are_shown_on_the_games_page(client, event):
    games = client.get(f"/tournaments/{event.id}/rounds/3").json["games"]
    game = next(g for g in games if g["white"]["seed"] == 10)
    assert [(i["player"], i["kind"], i["occurrence"], i["consequence"]) for i in game["incidents"]] == [
        (10, "illegal_move", 1, "extra_minute"),
        (10, "illegal_move", 2, "loss"),
    ]
    assert game["result"] == "0-1"
    page = client.get(f"/t/{event.id}/rounds/3").get_data(as_text=True)
    assert "Illegal move (1st) by Player 10 (10): the opponent gets one extra minute" in page
    assert "Illegal move (2nd) by Player 10 (10): the game is lost (second illegal move)" in page
    first = client.get(f"/t/{event.id}/rounds/1").get_data(as_text=True)
    assert (
        "Illegal move (1st) by Player 5 (5): the opponent gets one extra minute (illegal castling)" in first
    )


def test_the_same_penalty_twice_is_kept_once(svc, client, event):
    envelope = next(e for e in event.envelopes if e.type == "game.penalised")
    event.send(svc, envelope.model_copy(update={"id": envelope.id.__class__(int=envelope.id.int + 1)}))
    games = client.get(f"/tournaments/{event.id}/rounds/1").json["games"]
    assert sum(len(g["incidents"]) for g in games) == 1


def _block(opponent: int | None, colour: str, result: str) -> RoundEntry:
    return RoundEntry(opponent, TrfColour(colour), ResultCode(result))


def test_the_trf16_codes_byes_forfeits_and_withdrawals(client, event):
    text = client.get(f"/tournaments/{event.id}/trf16").get_data(as_text=True)
    doc = parse(text)
    blocks = {s: p.rounds for s, p in doc.players.items()}
    assert blocks[8][0] == _block(4, "w", "-") and blocks[4][0] == _block(8, "b", "+")  # -/+
    assert blocks[5][1] == _block(8, "w", "-") and blocks[8][1] == _block(5, "b", "-")  # -/-
    assert blocks[6][2] == _block(7, "w", "+") and blocks[7][2] == _block(6, "b", "-")  # +/-
    assert blocks[9][0] == _block(None, "-", "U") and blocks[9][1] == _block(None, "-", "Z")
    assert blocks[10][:2] == [_block(None, "-", "Z")] * 2  # the late entry's missed rounds
    assert blocks[7][3:] == [_block(None, "-", "Z")] * 2  # withdrawn: not paired again
    assert all(len(b) == 5 for b in blocks.values())
    lines = text.splitlines()
    assert "XXR 5" in lines and "XXC white1" in lines
    for record in ("012 Bern Rapid Open", "022 Bern", "042 2026/02/21", "052 2026/02/22", "062 10",
                   "072 10", "092 Swiss", "122 15+10"):  # fmt: skip
        assert record in lines, record
    dates = next(line for line in lines if line.startswith("132"))
    assert dates[91:99] == "26/06/01" and len(dates.split()) == 6
    assert not any(line[:3] in ("142", "152", "162", "202", "222") for line in lines)  # TRF-16 only
    one = doc.players[1]
    assert (one.sex, one.title, one.federation, one.fide_id, one.birth, one.rating) == (
        "m", "g", "GER", "1300001", "1981/00/00", 2360,
    )  # fmt: skip
    assert (doc.players[3].title, doc.players[3].sex) == ("wg", "w")
    assert {s: float(p.points) for s, p in doc.players.items()} == POINTS


def test_the_trf2026_has_its_records(client, event):
    lines = client.get(f"/tournaments/{event.id}/trf").get_data(as_text=True).splitlines()
    assert "142 5" in lines and "152 W" in lines and "202 BH, BH/C1, SB, ARO" in lines
    assert "222 900+10" in lines and "XXR 5" not in lines


@pytest.mark.parametrize("endpoint", ["trf16", "trf"])
def test_the_export_reads_back_to_the_same_table(client, svc, event, tmp_path, endpoint):
    path = tmp_path / "rapid.trf"
    path.write_text(client.get(f"/tournaments/{event.id}/{endpoint}").get_data(as_text=True))
    printed = json.loads(arbiter("standings", path, "--lots", str(event.id), "--json"))
    rows = snapshot(svc, event.id)["table"]["rows"]
    assert [(r["rank"], r["start"], r["points"], r["tiebreaks"]) for r in printed] == [
        (r["rank"], r["seed"], r["points"], r["tiebreaks"]) for r in rows
    ]


def test_the_csv_is_the_table(client, event):
    response = client.get(f"/tournaments/{event.id}/csv")
    assert response.mimetype == "text/csv"
    table = client.get(f"/tournaments/{event.id}/standings").json
    got = list(csv.reader(io.StringIO(response.get_data(as_text=True))))
    assert got[0] == ["Rank", "Place", "SNo", "Title", "Name", "FED", "FIDE ID", "Rtg", "Pts",
                      "BH", "BH-C1", "SB", "ARO", "Status", "Status reason"]  # fmt: skip
    assert len(got) == 11
    for line, row in zip(got[1:], table["rows"], strict=True):
        assert line[:9] == [
            str(row["rank"]), str(row["place"]), str(row["seed"]), row["title"] or "", row["name"],
            row["federation"], str(row["fide_id"]), str(row["rating"]), f"{row['points']:g}",
        ]  # fmt: skip
        assert line[9:13] == [f"{row['tiebreaks'][c]:g}" for c in table["tiebreaks"]]
    assert got[[r[2] for r in got].index("7")][13:] == ["withdrawn", "unannounced absence (FIDE C.04.2)"]


def test_printed_pages_have_no_navigation_and_one_round_a_page(client, event):
    pairings = client.get(f"/t/{event.id}/print/pairings").get_data(as_text=True)
    assert "<nav" not in pairings and "print.css" in pairings
    assert pairings.count('<section class="page"') == 5
    assert "Round 3 of 5: pairings and results" in pairings
    one = client.get(f"/t/{event.id}/print/pairings/2").get_data(as_text=True)
    assert one.count('<section class="page"') == 1 and "Zero-point bye (requested)" in one
    for page in ("standings", "crosstable"):
        response = client.get(f"/t/{event.id}/print/{page}")
        assert response.status_code == 200 and "<nav" not in response.get_data(as_text=True)
    assert client.get("/static/print.css").status_code == 200
    assert "<nav" in client.get(f"/t/{event.id}").get_data(as_text=True)  # the screen pages keep it


def test_the_pairing_list_shows_points_before_the_round(client, event):
    games = client.get(f"/tournaments/{event.id}/rounds/4").json["games"]
    first = games[0]
    assert (first["white"]["seed"], first["white"]["points"], first["black"]["seed"], first["black"]["points"]) == (
        3, 1.5, 1, 2,
    )  # fmt: skip


def test_exports_answer_problems(client, svc):
    problem(client.get(f"/tournaments/{uuid.uuid4()}/trf16"), 404, "tournament-not-found")
    problem(client.get(f"/tournaments/{uuid.uuid4()}/csv"), 404, "tournament-not-found")
    knockout = six_player_knockout(svc)
    problem(client.get(f"/tournaments/{knockout.id}/trf16"), 409, "not-a-table")
    problem(client.get(f"/tournaments/{knockout.id}/csv"), 409, "not-a-table")
    assert client.get(f"/t/{knockout.id}/print/pairings").status_code == 409


def test_the_trf_pairs_the_next_round_in_bbppairings_as_in_arbiter(client, svc, tmp_path):
    """Exported after round 4 (7 withdrawn: ``0000 - Z`` for round 5), the TRF-16 is read by
    bbpPairings and paired as ``arbiter pair --dutch`` pairs it."""
    story = rapid_open(svc, upto=4)
    path = tmp_path / "after4.trf"
    path.write_text(client.get(f"/tournaments/{story.id}/trf16").get_data(as_text=True))
    ours = arbiter("pair", "--dutch", path, "-p")
    pairs = [line.split() for line in ours.splitlines()[1:]]
    assert ours.splitlines()[0] == "5" and len(pairs) == 5  # nine players: four boards and the bye ("n 0")
    assert sorted(int(s) for pair in pairs for s in pair) == [0, 1, 2, 3, 4, 5, 6, 8, 9, 10]  # 7 left out
    if not ORACLE.exists():
        pytest.skip(f"bbpPairings is not installed at {ORACLE} (ARBITER_BBPPAIRINGS)")
    out = tmp_path / "bbp.txt"
    subprocess.run([ORACLE, "--dutch", path, "-p", out], check=True, timeout=60)
    assert out.read_text() == ours


def test_a_platform_table_is_unchanged(client, svc):
    """Nothing of the above where there are no profiles: a platform Swiss has no FED column."""
    story = Story(svc, 4, system="swiss", rounds=2).start()
    story.play(1, [(1, 3, W), (2, 4, D)])
    page = client.get(f"/t/{story.id}").get_data(as_text=True)
    assert "FED" not in page


def dutch_pairs(path: Path) -> tuple[list[tuple[int, int]], int | None]:
    """``arbiter pair --dutch FILE -p``: the boards (white, black) and the bye, if any."""
    lines = arbiter("pair", "--dutch", path, "-p").splitlines()
    pairs = [tuple(int(s) for s in line.split()) for line in lines[1:]]
    boards = [(w, b) for w, b in pairs if b != 0]
    byes = [w for w, b in pairs if b == 0]
    return boards, (byes[0] if byes else None)


SPECIAL = {  # (round, board) → the outcome and its reason, the rest cycle 1-0, 0-1, ½-½ by board
    (1, 4): (BF, "default_time"),  # White not at the board by the default time (excused afterwards)
    (2, 3): (DF, "forfeit"),  # neither came: the arbiter entered -/-
    (3, 3): (WF, "default_time"),  # Black not at the board, not excused: left out of round 4, then withdrawn
}
CYCLE = (W, B, D)


def test_the_unmodified_export_pairs_every_round_as_pairing_does(client, svc, tmp_path):
    """Every round paired by ``arbiter pair --dutch`` (the Dutch engine, as bbpPairings) from the
    service's TRF-16 of the rounds before, exactly as exported (issue 22): the players a round leaves out
    have their block for it already — a zero-point bye asked for it (``0000 - Z``; one asked and taken
    back is paired), an absence at the default time in the round before that no arbiter excused (left
    out before registration withdraws the player; an excused one is paired), a late entry not in yet, a
    withdrawal. Before round 1 the file carries pairing's colour lot. At the end bbpPairings' checker
    (``-c``, where installed) finds every round of the final TRF-16 as it would pair it, and the file
    reads back to the service's table."""
    story = FideStory(svc, 9, rounds=5).start()
    byes = {1: [4], 2: [5]}  # the zero-point byes asked for, by round
    story.request_bye(4, 1)
    left_out: dict[int, set[int]] = {1: {4}}  # written down here, round by round, from what happened
    unexcused = 0
    for number in range(1, 6):
        path = tmp_path / f"before-{number}.trf"
        text = client.get(f"/tournaments/{story.id}/trf16").get_data(as_text=True)
        path.write_text(text)
        doc = parse(text)
        out = left_out.get(number, set())
        assert {s for s, r in doc.players.items() if len(r.rounds) == number} == out, number
        assert {s for s, r in doc.players.items() if len(r.rounds) == number - 1} == set(doc.players) - out
        boards, bye = dutch_pairs(path)
        paired = {s for pair in boards for s in pair} | ({bye} if bye else set())
        assert paired == set(doc.players) - out, number
        if ORACLE.exists():
            bbp = tmp_path / f"bbp-{number}.txt"
            subprocess.run([ORACLE, "--dutch", path, "-p", bbp], check=True, timeout=60)
            assert bbp.read_text() == arbiter("pair", "--dutch", path, "-p"), number
        story.pair(number, boards, bye, zero_point=byes.get(number, []))
        for board, (white, black) in enumerate(boards, start=1):
            outcome, reason = SPECIAL.get((number, board), (CYCLE[board % 3], "reported"))
            story.result(number, white, black, outcome, reason=reason)
        if number == 1:
            story.excuse(boards[3][0], 1)  # the absence of round 1 excused: paired in round 2
            assert story.join_late(from_round=3) == 10  # a half round's wait: left out of round 2
            story.request_bye(5, 2)
            story.request_bye(6, 2)
            story.take_back_bye(6, 2)  # taken back: paired in round 2
            left_out[2] = {5, 10}
        if number == 3:
            unexcused = boards[2][1]  # not excused: left out of round 4 (FIDE C.04.2)
            left_out[4] = {unexcused}
        if number == 4:  # round 4 published: registration withdraws the absent player
            story.withdraw(unexcused, reason="unannounced absence (FIDE C.04.2)")
            left_out[5] = {unexcused}
    story.complete()
    final = tmp_path / "final.trf"
    final.write_text(client.get(f"/tournaments/{story.id}/trf16").get_data(as_text=True))
    doc = parse(final.read_text())
    assert doc.players[10].rounds[:2] == [_block(None, "-", "Z")] * 2
    assert doc.players[5].rounds[1] == _block(None, "-", "Z")
    assert doc.players[unexcused].rounds[3:] == [_block(None, "-", "Z")] * 2
    printed = json.loads(arbiter("standings", final, "--lots", str(story.id), "--json"))
    rows = snapshot(svc, story.id)["table"]["rows"]
    assert [(r["rank"], r["start"], r["points"], r["tiebreaks"]) for r in printed] == [
        (r["rank"], r["seed"], r["points"], r["tiebreaks"]) for r in rows
    ]
    if not ORACLE.exists():
        pytest.skip(f"bbpPairings is not installed at {ORACLE} (ARBITER_BBPPAIRINGS)")
    checked = subprocess.run([ORACLE, "--dutch", final, "-c"], capture_output=True, text=True, timeout=60)
    assert checked.returncode == 0, checked.stderr
    assert "Checker pairings" not in checked.stdout + checked.stderr, checked.stdout


def test_a_fide_rapid_round_robin_reads_back_as_one(client, svc, tmp_path):
    """A small field plays a round robin (Berger): the same preset, pairings pre-determined (C.07 16:
    a forfeit counts against its scheduled opponent); the export says ``Round robin`` and reads back
    to the same table."""
    story = FideStory(svc, 4, rounds=3, system="round_robin").start()
    story.play(1, [(1, 4, W), (2, 3, BF)])
    story.play(2, [(4, 3, D), (1, 2, D)])
    story.play(3, [(2, 4, B), (3, 1, B)])
    story.complete()
    body = client.get(f"/tournaments/{story.id}/standings").json
    assert {r["seed"]: r["points"] for r in body["rows"]} == {1: 2.5, 2: 0.5, 3: 1.5, 4: 1.5}
    path = tmp_path / "robin.trf"
    path.write_text(client.get(f"/tournaments/{story.id}/trf16").get_data(as_text=True))
    assert "092 Round robin" in path.read_text().splitlines()
    printed = json.loads(arbiter("standings", path, "--lots", str(story.id), "--json"))
    assert [(r["rank"], r["start"], r["points"], r["tiebreaks"]) for r in printed] == [
        (r["rank"], r["seed"], r["points"], r["tiebreaks"]) for r in body["rows"]
    ]


def test_a_late_entry_whose_round_was_paired_meanwhile_plays_from_the_next(client, svc):
    """Registration announced the entry from round 2, but round 2 was paired before pairing heard it
    (the events crossed): the entry plays from round 3, round 2 is a missed round too (as pairing
    scores it); a pairing's bye of a missed round is marked as the late entry's."""
    story = FideStory(svc, 4, rounds=4).start()
    story.play(1, [(1, 3, W), (2, 4, D)])
    story.play(2, [(3, 2, W), (4, 1, B)])
    seed = story.join_late(from_round=2)
    byes = [
        [
            b
            for b in client.get(f"/tournaments/{story.id}/rounds/{n}").json["byes"]
            if b["player"]["seed"] == seed
        ]
        for n in (1, 2)
    ]
    assert [[(b["kind"], b["late"]) for b in round_byes] for round_byes in byes] == [
        [("zero_point", True)]
    ] * 2
    story.play(3, [(1, 2, D), (5, 3, W)], zero_point=[4])
    round_3 = client.get(f"/tournaments/{story.id}/rounds/3").json["byes"]
    assert [(b["player"]["seed"], b["late"]) for b in round_3] == [(4, False)]
