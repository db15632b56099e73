"""``arbiter create --ruleset fide-rapid``, ``arbiter players add | import | list | confirm | remove`` and
``arbiter start`` against registration served over real HTTP (the embedded adapters: SQLite, an in-process
broker), as an organiser and an arbiter run an over-the-board event."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

from click.testing import CliRunner

from cli.main import build_cli
from cli.tests.served import Served

CSV = """name,fide_id,federation,title,sex,birth_year,rating_standard,rating_rapid
"Meier, Anna",,SUI,WFM,w,2001,2105,
"Carlsen, Magnus",1503014,NOR,GM,m,1990,2830,2820
Newcomer,,,,,,,
"""
TRF = (
    "012 Rapid open\n"
    "001    1 m  f Keller, Kurt                      2105 SUI     1300000 1975/01/01\n"
    "001    2 m    Zimmer, Zeno                      1700 GER           0\n"
)


def event_of(served: Served, org: uuid.UUID, *args: str) -> str:
    result = served.arbiter(
        org, "create", "--ruleset", "fide-rapid", "--name", "Bern rapid", "--tc", "15+10", "--json", *args
    )
    assert result.exit_code == 0, result.output
    return str(json.loads(result.output)["id"])


def test_an_organiser_enters_imports_and_starts_an_event(served: Served, tmp_path: Path) -> None:
    org, arb = served.account("Org"), served.account("Arb")
    tid = event_of(served, org, "--rounds", "5", "--place", "Bern", "--start-date", "2026-06-06")
    event = served.call("GET", f"/tournaments/{tid}")
    assert (event["ruleset"], event["fide"]["rounds"], event["fide"]["place"]) == ("fide-rapid", 5, "Bern")
    assert event["fide"]["start_date"] == "2026-06-06"
    served.call("POST", f"/tournaments/{tid}/arbiters", {"account_id": str(arb)}, org)

    added = served.arbiter(
        arb,
        "players",
        "add",
        tid,
        "Kasparov, Garry",
        "--fide-id",
        "4100018",
        "--federation",
        "RUS",
        "--title",
        "gm",
        "--sex",
        "m",
        "--birth-year",
        "1963",
        "--rating",
        "2812",
        "--rapid-rating",
        "2783",
    )
    assert added.exit_code == 0, added.output
    assert added.output.startswith("entered GM Kasparov, Garry RUS (2812): player ")

    csv = tmp_path / "players.csv"
    csv.write_text(CSV)
    imported = served.arbiter(org, "players", "import", tid, str(csv))
    assert imported.exit_code == 0, imported.output
    assert imported.output == f"imported 3 players from {csv}\n"
    trf = tmp_path / "more.trf"
    trf.write_text(TRF)
    assert served.arbiter(org, "players", "import", tid, str(trf)).exit_code == 0

    listed = served.arbiter(arb, "players", "list", tid, "--json")
    assert listed.exit_code == 0, listed.output
    ranked = json.loads(listed.output)["players"]
    assert [(p["rank"], p["name"]) for p in ranked] == [
        (1, "Carlsen, Magnus"),
        (2, "Kasparov, Garry"),
        (3, "Keller, Kurt"),  # 2105 and FM: before the WFM of the same rating
        (4, "Meier, Anna"),
        (5, "Zimmer, Zeno"),
        (6, "Newcomer"),  # unrated
    ]
    table = served.arbiter(arb, "players", "list", tid)
    assert table.exit_code == 0 and "Carlsen, Magnus" in table.output and "1503014" in table.output

    newcomer = next(p["player_id"] for p in ranked if p["name"] == "Newcomer")
    removed = served.arbiter(arb, "players", "remove", tid, newcomer)
    assert (
        removed.exit_code == 0 and removed.output == f"removed {newcomer} from Bern rapid (5 entries left)\n"
    )

    ann = served.account("Ann")
    served.call("POST", f"/tournaments/{tid}/entries", {}, ann)
    confirmed = served.arbiter(arb, "players", "confirm", tid, str(ann))
    assert confirmed.exit_code == 0 and confirmed.output == "confirmed Ann in Bern rapid\n"

    started = served.arbiter(arb, "start", tid)
    assert started.exit_code == 0, started.output
    assert started.output == "started Bern rapid: 6 players, 5 rounds\n"
    late = served.arbiter(org, "players", "add", tid, "Late, Lara")
    assert late.exit_code == 0 and ", plays from round 1: player " in late.output
    again = served.arbiter(org, "start", tid)
    assert again.exit_code == 1 and "409 Conflict: the event has started already" in again.output


def test_a_list_with_a_bad_line_is_refused_naming_the_file_and_the_line(
    served: Served, tmp_path: Path
) -> None:
    org = served.account("Org")
    tid = event_of(served, org, "--round-robin")
    bad = tmp_path / "players.csv"
    bad.write_text(CSV + "Broken,x1,,,,,,\n")
    result = served.arbiter(org, "players", "import", tid, str(bad))
    assert result.exit_code == 2
    assert result.output == (f"{bad}:5: fide_id: a whole number, got 'x1' (nothing was imported)\n")
    twice = tmp_path / "twice.csv"
    twice.write_text("name,fide_id\nAnn,7\nBob,7\n")
    result = served.arbiter(org, "players", "import", tid, str(twice))
    assert result.exit_code == 1
    assert "409 Conflict: line 3 (Bob): FIDE id 7 is also that of line 2 (Ann)" in result.output
    assert served.call("GET", f"/tournaments/{tid}")["entries"] == []
    unknown = tmp_path / "players.xlsx"
    unknown.write_bytes(b"PK")
    result = served.arbiter(org, "players", "import", tid, str(unknown))
    assert result.exit_code == 2 and "name it .csv or .trf, or pass --format" in result.output
    as_trf = served.arbiter(org, "players", "import", tid, str(unknown), "--format", "trf")
    assert as_trf.exit_code == 2 and f"{unknown}:1: no player (001) lines" in as_trf.output
    missing = served.arbiter(org, "players", "import", tid, str(tmp_path / "nowhere.csv"))
    assert missing.exit_code == 2 and "does not exist" in missing.output


def test_creating_an_event_outside_the_rapid_range_is_refused(served: Served) -> None:
    org = served.account("Org")
    result = served.arbiter(
        org, "create", "--ruleset", "fide-rapid", "--name", "Blitz", "--tc", "5+3", "--rounds", "9"
    )
    assert result.exit_code == 1
    assert "FIDE rapid is more than 10 and less than 60 minutes for 60 moves" in result.output
    assert "5+3 is 8 minutes" in result.output


def test_players_commands_say_what_they_need(served: Served) -> None:
    no_token = CliRunner().invoke(
        build_cli(), ["players", "add", str(uuid.uuid4()), "Ann", "--registration-url", served.url]
    )
    assert no_token.exit_code == 2 and "this needs a token" in no_token.output
    bad_title = served.arbiter(uuid.uuid4(), "players", "add", str(uuid.uuid4()), "Ann", "--title", "XM")
    assert bad_title.exit_code == 2 and "'XM' is not one of" in bad_title.output
