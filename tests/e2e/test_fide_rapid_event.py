"""A whole `fide-rapid` event on the real stack (issue 10, RULES.md §6): nine players, five rounds, every
path an arbiter walks. Players entered by hand and imported (CSV and TRF); a late entry and its bye for the
round missed; each round previewed, paired and published on the arbiter's command; results by board from
the score sheets, forfeits included (``+/-``, ``-/+``, ``-/-``); a zero-point bye asked for; two absences
at the default time, one excused (paired again), one not (withdrawn, left out for good); an illegal move
(the opponent's extra minute) and a second one that loses the game.

Two checks against things computed apart from the services:

* the final table (points, BH, BH-C1, SB, ARO) equals the one the standings' own tie-break code gives for
  a result list the test writes down itself, round by round, from what it entered; and the table read back
  from the exported TRF (``/trf16``, ``/trf``, ``arbiter export``) by ``arbiter standings --preset
  fide-rapid`` is the same;
* before every round (the first too) the standings' TRF-16, unmodified, paired offline by ``arbiter pair
  --dutch`` (the Dutch engine, identical to bbpPairings), gives exactly the pairing the service publishes
  for it: the players pairing leaves out of the round — a zero-point bye asked for it, an absence in the
  round before nobody excused, a late entry not in yet, a withdrawal — have their ``0000 - Z`` (or
  late-entry bye) block for it in the export already (issue 22)."""

from __future__ import annotations

import datetime as dt
import json
import uuid
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cli.main import build_cli
from services.standings.domain.history import EventHistory, Player
from services.standings.domain.presets import preset
from services.standings.domain.ranking import compute_table
from shared.scoring import FIDE, Outcome, Result, side_results
from shared.testing.polling import wait_for
from shared.trf import PlayerRecord, ResultCode, RoundEntry, TrfColour, TrfDocument, parse, write
from tests.e2e.story import Story
from tests.e2e.trf_rounds import engine_pairs, export_before, left_out_of, published_pairs

pytestmark = pytest.mark.e2e

ROUNDS = 5
HAND = [("Adams, Anna", 2400, "GM"), ("Bauer, Ben", 2350, "IM"), ("Costa, Carla", 2300, None)]
CSV = "name;fide_id;federation;title;sex;birth_year;rating_standard;rating_rapid\n" + "\n".join(
    [
        "Duval, Dora;4100001;FRA;FM;w;1990;2250;2230",
        "Eriksen, Erik;4100002;NOR;;m;1985;2200;2210",
        "Fischer, Fritz;4100003;GER;;m;2001;2150;",
    ]
)
TRF = write(  # a club's list as a TRF-16 file (its 001 lines: the people, no results)
    TrfDocument(
        name="Club list",
        players={
            1: PlayerRecord(1, "Gomez, Gil", "m", "", 2100, "ESP", "4100004", "1999/00/00"),
            2: PlayerRecord(2, "Huber, Heidi", "w", "", 2050, "AUT", "4100005", "2004/00/00"),
        },
    )
)
LATE = {"name": "Ivanov, Igor", "rating_standard": 2450, "federation": "BUL", "fide_id": 4100006}
PLAN: dict[int, list[str]] = {
    # what each board's score sheet says, by round and board (an absence, a penalty, or the result)
    1: ["1-0", "+/-", "1/2-1/2", "0-1"],
    2: ["absent white (excused)", "absent black", "-/-", "1/2-1/2"],
    3: ["illegal white twice", "-/+", "1-0"],
    4: ["1/2-1/2", "1-0", "0-1", "1-0"],
    5: ["0-1", "1/2-1/2", "1-0", "1/2-1/2"],
}
BYE_REQUEST_ROUND = 3
POINTS = {  # FIDE's points, written down here: 1, ½, 0; a forfeit win and the pairing's bye score a win
    Result.WIN: Fraction(1),
    Result.DRAW: Fraction(1, 2),
    Result.LOSS: Fraction(0),
    Result.FORFEIT_WIN: Fraction(1),
    Result.FORFEIT_LOSS: Fraction(0),
    Result.PAIRING_BYE: Fraction(1),
    Result.HALF_POINT_BYE: Fraction(1, 2),
    Result.ZERO_POINT_BYE: Fraction(0),
}


def cli(*args: str, env: dict[str, str] | None = None) -> str:
    result = CliRunner().invoke(build_cli(), list(args), env={"COLUMNS": "400", **(env or {})})
    assert result.exit_code == 0, f"arbiter {' '.join(args)}: {result.output}"
    return result.output


def test_a_rapid_open_from_entries_to_the_rating_file(story: Story, tmp_path: Path):
    organiser, arbiter = story.register("Organiser"), story.register("Chief arbiter")
    body = {
        "ruleset": "fide-rapid",
        "name": "E2E rapid open",
        "time_control": {"base_seconds": 900, "increment_seconds": 10},
        "fide": {"rounds": ROUNDS, "place": "Bern", "late_entry_bye": "half"},
    }
    tid = story.call("registration", "POST", "/tournaments", body, organiser.token, expect=201)["id"]
    tournament = uuid.UUID(tid)
    story.call(
        "registration",
        "POST",
        f"/tournaments/{tid}/arbiters",
        {"account_id": str(arbiter.id)},
        organiser.token,
    )
    officials = arbiter.token

    # -- the players: three by hand, three from a CSV list, two from a TRF file -------------------------
    for name, rating, title in HAND:
        person = {
            "name": name,
            "rating_standard": rating,
            "federation": "SUI",
            **({"title": title} if title else {}),
        }
        story.call("registration", "POST", f"/tournaments/{tid}/players", person, officials, expect=201)
    for text, kind in ((CSV, "text/csv"), (TRF, "text/plain")):
        response = story.http.post(
            f"{story.urls['registration']}/tournaments/{tid}/players/import",
            content=text.encode(),
            headers={"Authorization": f"Bearer {officials}", "Content-Type": kind},
        )
        assert response.status_code == 201, response.text
    entered = story.call("registration", "GET", f"/tournaments/{tid}/players")["players"]
    assert [p["rating"] for p in entered] == [2400, 2350, 2300, 2250, 2200, 2150, 2100, 2050]
    story.call("registration", "POST", f"/tournaments/{tid}/start", None, officials)

    base = f"/tournaments/{tid}/rounds"
    seeds: dict[str, int] = {}
    ratings: dict[int, int] = {}

    def roster(count: int) -> None:
        def known() -> list[dict[str, Any]] | None:
            status, _, answer = story._request("pairing", "GET", f"/tournaments/{tid}", None, {})
            return answer["players"] if status == 200 and len(answer["players"]) == count else None

        for p in wait_for(known, timeout=60, what=f"pairing to know {count} players"):
            seeds[p["player_id"]] = p["seed"]
            ratings[p["seed"]] = p["rating"]

    roster(8)
    assert [ratings[s] for s in range(1, 9)] == [2400, 2350, 2300, 2250, 2200, 2150, 2100, 2050]

    games_played: list[tuple[int, int, int, Outcome]] = []  # round, white, black, outcome
    byes: list[tuple[int, int, Result]] = []  # round, seed, result
    withdrawn: set[int] = set()
    penalised: dict[str, Any] = {}
    marks: dict[str, int] = {}  # who asked for the bye, whose absence was excused, whose not

    def standings_after(number: int) -> dict[str, Any]:
        return wait_for(
            lambda: (s := story.standings(tournament)).get("after_round") == number and s,
            timeout=60,
            what=f"the standings after round {number}",
        )

    for number in range(1, ROUNDS + 1):
        preview = wait_for(
            lambda n=number: (p := story.call("pairing", "GET", f"{base}/{n}/preview"))["pairable"] and p,
            timeout=60,
            what=f"round {number} pairable",
        )
        left_out = left_out_of(preview)
        # the cross-check: the TRF before this round, as exported, paired offline (read before pairing it)
        trf16 = export_before(story, tournament, number, left_out)
        if number == BYE_REQUEST_ROUND:
            assert [p["seed"] for p in preview["bye_requests"]] == [marks["bye_seed"]]
            assert [p["seed"] for p in preview["absent"]] == [marks["unexcused"]]
            assert [p["seed"] for p in preview["excused"]] == [marks["excused"]]
        listing = story.call("pairing", "POST", f"{base}/{number}/pair", None, officials, expect=201)
        assert not listing["published"]
        published = published_pairs(listing)
        assert engine_pairs(trf16, number, tmp_path) == published, (number, trf16)
        story.call("pairing", "POST", f"{base}/{number}/publish", None, officials)
        listing = story.call("pairing", "GET", f"{base}/{number}/pairings")
        assert published_pairs(listing) == published and all(
            s not in withdrawn for pair in published for s in pair
        )
        for b in listing["byes"]:
            kind = {"pairing_allocated": Result.PAIRING_BYE, "zero_point": Result.ZERO_POINT_BYE}[b["kind"]]
            byes.append((number, b["player"]["seed"], kind))
        plan = PLAN[number]
        assert len(listing["boards"]) == len(plan), listing
        games = sorted(story.wait_games(tournament, number, len(plan)), key=lambda g: g["board"])
        for game, sheet in zip(games, plan, strict=True):
            white, black = seeds[game["white"]["player_id"]], seeds[game["black"]["player_id"]]
            path = f"/games/{game['id']}"
            if sheet.startswith("absent"):
                side = sheet.split()[1]
                player = game[side]["player_id"]
                story.call("clocks", "POST", f"{path}/absence", {"player_id": player}, officials)
                outcome = Outcome.BLACK_FORFEIT_WIN if side == "white" else Outcome.WHITE_FORFEIT_WIN
                if "excused" in sheet:
                    marks["excused"] = seeds[player]
                else:
                    marks["unexcused"] = seeds[player]
            elif sheet == "illegal white twice":
                penalty = {
                    "player_id": game["white"]["player_id"],
                    "kind": "illegal_move",
                    "reason": "castled through check",
                }
                first = story.call("clocks", "POST", f"{path}/penalties", penalty, officials)
                assert first["status"] != "finished" and first.get("result") is None, first
                second = story.call("clocks", "POST", f"{path}/penalties", penalty, officials)
                penalised = second
                assert second["result"]["outcome"] == "0-1", second
                outcome = Outcome.BLACK_WIN
            else:
                outcome = Outcome(sheet)
                reason = {"1/2-1/2": "agreement", "1-0": "resignation", "0-1": "resignation"}.get(
                    sheet, "forfeit"
                )
                story.call(
                    "clocks", "POST", f"{path}/result", {"outcome": sheet, "reason": reason}, officials
                )
            games_played.append((number, white, black, outcome))
        standings_after(number)
        if number == 1:
            # a late entry before round 2 is paired: the next start number, a half-point bye for round 1
            late = story.call(
                "registration", "POST", f"/tournaments/{tid}/players", LATE, officials, expect=201
            )
            assert late["from_round"] == 2
            roster(9)
            assert seeds[late["player_id"]] == 9
            byes.append((1, 9, Result.HALF_POINT_BYE))
            wait_for(
                lambda: any(r["seed"] == 9 for r in story.standings(tournament)["rows"]),
                timeout=30,
                what="the standings to hear of the late entry",
            )
        if number == 2:
            # a zero-point bye asked for round 3 (after round 2), one absence excused, the other not
            marks["bye_seed"] = next(
                s for s in (3, 4, 5, 6, 7, 8) if s not in (marks["excused"], marks["unexcused"])
            )
            bye = {"player_id": _player(seeds, marks["bye_seed"]), "round": 3, "reason": "family matter"}
            story.call("pairing", "POST", f"/tournaments/{tid}/byes", bye, officials, expect=201)
            excuse = {"round": 2, "reason": "the train was late"}
            answer = story.call(
                "pairing",
                "POST",
                f"/tournaments/{tid}/absences/{_player(seeds, marks['excused'])}/excuse",
                excuse,
                officials,
            )
            assert not answer["pairing_dropped"]
        if number == 3:
            withdrawn.add(marks["unexcused"])
            wait_for(
                lambda: any(
                    e["player_id"] == _player(seeds, marks["unexcused"]) and e["status"] == "withdrawn"
                    for e in story.tournament(tournament)["entries"]
                ),
                timeout=30,
                what="registration to withdraw the absent player",
            )

    # the incidents stand on the game's page
    kinds = [(i["kind"], i["consequence"]) for i in penalised["incidents"]]
    assert kinds == [("illegal_move", "extra_minute"), ("illegal_move", "loss")], kinds

    # -- the final table, against the result list written down here ----------------------------------
    final = story.wait_final(tournament)
    history = EventHistory.create([Player(s, rating=ratings[s]) for s in range(1, 10)], point_system=FIDE)
    points = {s: Fraction(0) for s in range(1, 10)}
    for number, white, black, outcome in games_played:
        history.record_game(number, white, black, outcome)
        w, b = side_results(outcome)
        points[white] += POINTS[w]
        points[black] += POINTS[b]
    for number, seed, result in byes:
        history.record_bye(number, seed, result)
        points[seed] += POINTS[result]
    history.rounds = ROUNDS
    rules = preset("fide-rapid")
    today = dt.datetime.now(dt.UTC).date()
    expected = compute_table(history, list(rules.tiebreaks), rules.rules(today, today), lots_seed=tid)
    served = {row["seed"]: row for row in final["rows"]}
    assert {s: Fraction(row["points"]).limit_denominator(2) for s, row in served.items()} == points
    assert [row["seed"] for row in final["rows"]] == [row.start for row in expected.rows]
    for row in expected.rows:
        mine = {code: None if v is None else round(float(v), 2) for code, v in row.tiebreaks.items()}
        theirs = {
            code: None if v is None else round(v, 2) for code, v in served[row.start]["tiebreaks"].items()
        }
        assert (served[row.start]["rank"], float(served[row.start]["points"]), theirs) == (
            row.rank,
            float(row.points),
            mine,
        ), row.start

    # -- the files read back give the same table ---------------------------------------------------------
    def read_back(text: str, name: str) -> list[dict[str, Any]]:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return json.loads(cli("standings", str(path), "--preset", "fide-rapid", "--lots", tid, "--json"))

    table = [
        (
            row["seed"],
            row["rank"],
            row["points"],
            {k: None if v is None else round(v, 2) for k, v in row["tiebreaks"].items()},
        )
        for row in final["rows"]
    ]

    def same(rows: list[dict[str, Any]]) -> None:
        got = [
            (
                r["start"],
                r["rank"],
                r["points"],
                {k: None if v is None else round(v, 2) for k, v in r["tiebreaks"].items()},
            )
            for r in rows
        ]
        assert got == table

    trf16 = story.call_text("standings", f"/tournaments/{tid}/trf16")
    same(read_back(trf16, "final.trf16"))
    same(read_back(story.call_text("standings", f"/tournaments/{tid}/trf"), "final.trf"))
    urls = {f"ARBITER_{s.upper()}_URL": url for s, url in story.urls.items()}
    exported = tmp_path / "export.trf"
    cli("export", tid, "--trf", "--output", str(exported), env=urls)
    assert exported.read_text(encoding="utf-8") == trf16
    same(read_back(trf16, "exported.trf"))
    # the withdrawn player's rounds after the withdrawal, and the forfeits, as the rating officer reads them
    doc = parse(trf16)
    assert [e.result for e in doc.players[marks["unexcused"]].rounds[2:]] == [ResultCode.ZERO_POINT_BYE] * 3
    assert doc.players[9].rounds[0] == RoundEntry(None, TrfColour.NONE, ResultCode.HALF_POINT_BYE)
    assert doc.players[marks["bye_seed"]].rounds[2] == RoundEntry(
        None, TrfColour.NONE, ResultCode.ZERO_POINT_BYE
    )
    codes = {e.result for r in doc.players.values() for e in r.rounds}
    assert {ResultCode.FORFEIT_WIN, ResultCode.FORFEIT_LOSS, ResultCode.PAIRING_ALLOCATED_BYE} <= codes


def _player(seeds: dict[str, int], seed: int) -> str:
    return next(pid for pid, s in seeds.items() if s == seed)
