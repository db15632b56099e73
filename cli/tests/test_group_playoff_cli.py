"""`arbiter group-playoff ...` against registration and pairing served over HTTP: the organiser creates
the event, players enter (one who cannot create games; one written all in lower case is refused, 4T1
§3(3)), the organiser refuses one; on pairing's side the
page, a phase refused while the group games are open (the problem's detail names them), a lot refused
where no tie needs one, and a deadline."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator

import httpx
import pytest
from click.testing import CliRunner
from werkzeug.serving import make_server

from cli.main import build_cli
from cli.tests.served import Served
from services.pairing.entrypoints.app import create_app
from services.pairing.tests.helpers import ORGANISER, deliver, group_playoff_started, on_sqlite
from shared.http.auth import issue_token
from shared.settings import DEV_JWT_SECRET


@pytest.fixture
def pairing_url(tmp_path) -> Iterator[tuple[str, str]]:
    """Pairing on a free local port with a started group-playoff event: (its URL, the event's id)."""
    svc = on_sqlite(tmp_path)
    started = group_playoff_started()
    roster = [r.model_copy(update={"creates_games": r.seed != 3}) for r in started.roster]  # P3 cannot
    started = started.model_copy(update={"roster": roster})
    deliver(svc, started, started.tournament_id)
    server = make_server("127.0.0.1", 0, create_app(svc), threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}", str(started.tournament_id)
    finally:
        server.shutdown()
        thread.join(timeout=30)
        svc.engine.dispose()


def arbiter(url: str, who: uuid.UUID, *args: str):
    token = issue_token(DEV_JWT_SECRET, who, {"player"})
    return CliRunner().invoke(
        build_cli(), [*args, "--pairing-url", url, "--token", token], env={"COLUMNS": "300"}
    )


def test_entries_through_the_cli(served: Served):
    organiser = served.account("Organiser")
    created = served.arbiter(organiser, "group-playoff", "create", "--name", "4T1 cup", "--closes-in", "7d")
    assert created.exit_code == 0, created.output
    assert "ratings strictly between 1699 and 2001" in created.output
    tid = created.output.split()[1].rstrip(":")
    body = {"name": "Ann", "ratings": {"chess:correspondence": 1850}}
    ann = uuid.UUID(served.call("POST", "/accounts", body, None, "service")["id"])
    entered = served.arbiter(ann, "group-playoff", "enter", tid, "--cannot-create-games")
    assert entered.exit_code == 0 and "1 entries, 0 confirmed to play" in entered.output
    low = served.account("Low")  # no correspondence rating: outside the window
    refused = served.arbiter(low, "group-playoff", "enter", tid)
    assert refused.exit_code != 0 and "strictly between 1699 and 2001" in refused.output
    body = {"name": "thommytulpe", "ratings": {"chess:correspondence": 1850}}
    lower = uuid.UUID(served.call("POST", "/accounts", body, None, "service")["id"])
    written = served.arbiter(lower, "group-playoff", "enter", tid)  # 4T1 §3(3): all in lower case
    assert written.exit_code == 1 and "Traceback" not in written.output
    (line,) = written.output.strip().splitlines()
    assert line.startswith("Error: 422 ") and "4T1 §3(3)" in line and "'thommytulpe'" in line
    gone = served.arbiter(organiser, "group-playoff", "refuse", tid, str(ann), "--reason", "a second account")
    assert gone.exit_code == 0 and "playing 0, waiting 0" in gone.output


def test_the_organisers_pairing_commands(pairing_url):
    url, tid = pairing_url
    shown = arbiter(url, ORGANISER, "group-playoff", "show", tid)
    assert shown.exit_code == 0, shown.output
    assert (
        "Group I" in shown.output and "Group II" in shown.output and "lot (groups, seed 11)" in shown.output
    )
    assert "Invites" in shown.output and "cannot create games (the other player invites): P3" in shown.output
    rows = [line for line in shown.output.splitlines() if "P3 v " in line]
    assert rows and all("P3 v" in r and r.split("│")[3].strip() != "P3" for r in rows)  # 4T1 §4(5)
    early = arbiter(url, ORGANISER, "group-playoff", "phase", tid, "2")
    assert early.exit_code != 0 and "24 game(s) of earlier phases are open" in early.output
    no_tie = arbiter(url, ORGANISER, "group-playoff", "lots", tid, "I", "--seed", "x")
    assert no_tie.exit_code != 0 and "no tie in group I needs a lot" in no_tie.output
    due = arbiter(url, ORGANISER, "group-playoff", "deadline", tid, "1", "--at", "2026-07-01")
    assert due.exit_code == 0 and "phase 1 ends by 2026-07-01T00:00:00Z" in due.output
    other = arbiter(url, uuid.uuid4(), "group-playoff", "deadline", tid, "1", "--at", "2026-07-01")
    assert other.exit_code != 0 and "only the organiser" in other.output

    early_lot = arbiter(url, ORGANISER, "group-playoff", "game-lot", tid, game_of(url, tid), "--seed", "x")
    assert early_lot.exit_code != 0 and "is not overdue" in early_lot.output


def game_of(url: str, tid: str) -> str:
    page = httpx.get(f"{url}/tournaments/{tid}/group-playoff").json()
    return page["matches"][0]["games"][0]["game_id"]


def test_an_overdue_game_decided_by_lot_through_the_cli(pairing_url):
    url, tid = pairing_url
    past = arbiter(url, ORGANISER, "group-playoff", "deadline", tid, "1", "--at", "2020-01-01")
    assert past.exit_code == 0, past.output
    game = game_of(url, tid)
    drawn = arbiter(url, ORGANISER, "group-playoff", "game-lot", tid, game, "--seed", "die")
    assert drawn.exit_code == 0, drawn.output
    assert f"lot drawn for game {game} (seed die): " in drawn.output and drawn.output.strip().endswith("wins")
    again = arbiter(url, ORGANISER, "group-playoff", "game-lot", tid, game)
    assert again.exit_code != 0 and "was drawn already" in again.output
