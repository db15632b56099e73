"""`arbiter correct` and `arbiter bye` against the pairing service's HTTP API (a real server on a free
port, over SQLite): what they send, what they print, and a refusal's problem as the message."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from click.testing import CliRunner

from cli.main import build_cli
from cli.tests.served import serving
from services.pairing.entrypoints.app import create_app
from services.pairing.tests.helpers import deliver, finish, on_sqlite, published, started
from shared import events
from shared.events import GameOutcome
from shared.http.auth import issue_token
from shared.settings import DEV_JWT_SECRET


@pytest.fixture
def pairing(tmp_path) -> Iterator[tuple[object, str]]:
    svc = on_sqlite(tmp_path)
    try:
        with serving(create_app(svc), threaded=False) as url:
            yield svc, url
    finally:
        svc.engine.dispose()


def run(url: str, account: uuid.UUID, *args: str):
    token = issue_token(DEV_JWT_SECRET, account)
    return CliRunner().invoke(build_cli(), [*args, "--pairing-url", url, "--token", token])


def test_arbiter_correct_sends_the_correction_and_prints_it(pairing):
    svc, url = pairing
    ev = started(8)
    deliver(svc, ev, ev.tournament_id)
    result = finish(published(svc, "round.paired")[0], lambda g: GameOutcome.WHITE_WIN)[0]
    deliver(svc, result, ev.tournament_id)
    out = run(url, ev.organiser_id, "correct", str(result.game_id), "0-1", "--reason", "misread")
    assert out.exit_code == 0, out.output
    assert out.output.strip() == f"game {result.game_id} (round 1): 1-0 → 0-1"
    svc.broker.run_until_idle()
    [sent] = published(svc, "game.result_corrected")
    assert sent.payload["decision"]["reason"] == "misread"

    again = run(url, ev.organiser_id, "correct", str(result.game_id), "0-1", "--reason", "misread")
    assert again.exit_code == 1 and "409" in again.output and "0-1 already" in again.output
    stranger = run(url, uuid.uuid4(), "correct", str(result.game_id), "1-0", "--reason", "x")
    assert stranger.exit_code == 1 and "403" in stranger.output
    blank = run(url, ev.organiser_id, "correct", str(result.game_id), "1-0", "--reason", " ")
    assert blank.exit_code == 2 and "say why" in blank.output
    missing = run(url, ev.organiser_id, "correct", str(result.game_id), "1-0")
    assert missing.exit_code == 2 and "--reason" in missing.output
    wrong = run(url, ev.organiser_id, "correct", str(result.game_id), "2-0", "--reason", "x")
    assert wrong.exit_code == 2


def test_arbiter_bye_asks_and_takes_back(pairing):
    svc, url = pairing
    ev = started(8, ruleset="fide-rapid", byes_on_request=True)
    deliver(svc, ev, ev.tournament_id)
    player = ev.roster[1].player_id
    tid = str(ev.tournament_id)
    out = run(url, player, "bye", tid, str(player), "--round", "3")
    assert out.exit_code == 0, out.output
    assert out.output.strip() == f"zero-point bye for {player} in round 3 (asked as player)"
    as_json = run(url, ev.organiser_id, "bye", tid, str(player), "--round", "2", "--reason", "exam", "--json")
    assert as_json.exit_code == 0 and '"role": "organiser"' in as_json.output
    back = run(url, player, "bye", tid, str(player), "--round", "3", "--take-back")
    assert back.exit_code == 0 and "taken back" in back.output
    svc.broker.run_until_idle()
    asked = [events.ByeRequested.model_validate(e.payload) for e in published(svc, "bye.requested")]
    assert [(b.round, b.decision.role) for b in asked] == [(3, "player"), (2, "organiser")]
    paired = run(url, player, "bye", tid, str(player), "--round", "1")
    assert paired.exit_code == 1 and "409" in paired.output
    zero = run(url, player, "bye", tid, str(player), "--round", "0")
    assert zero.exit_code == 2


def test_arbiter_correct_h_states_when_a_knockout_correction_is_refused():
    """The help says what pairing enforces (RULES.md §4, docs/api.md): a correction that changes who
    advances is refused once that player's next match has a result, not once it is paired (issue 22)."""
    result = CliRunner().invoke(build_cli(), ["correct", "-h"], terminal_width=200)
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "refused once the next match of that player has a result, and after the event has finished" in text
    assert "once the next match is paired" not in text
