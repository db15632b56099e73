"""The TRF export after the arbiter's decisions: a corrected result, a withdrawal, a zero-point bye on
request. The file must read back to the service's table (``arbiter standings``), and re-pair the next
round the way pairing does with the withdrawn player absent: bbpPairings (the FIDE-endorsed Dutch
engine; its pairing of this file is recorded below, and checked again when the oracle is installed)
and Arbiter's own Dutch engine (``arbiter pair --dutch``, the engine the pairing service runs) both
leave the withdrawn player out of round 4 and pair the rest alike.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from services.standings.tests.helpers import B, D, Story, W, snapshot
from shared.trf import ResultCode, parse

ORACLE = Path(os.environ.get("ARBITER_BBPPAIRINGS", "/work/oracles/bbpPairings/bbpPairings.exe"))
ROUND_4 = "4\n6 1\n2 5\n4 7\n8 0\n"
"""bbpPairings 6's pairing of round 4 of the exported file (``--dutch FILE -p``): four boards, 8 has
the pairing-allocated bye, 3 (withdrawn) is not paired."""


def arbiter(*args: str | Path) -> str:
    """The ``arbiter`` command line, as an arbiter runs it."""
    done = subprocess.run(
        [sys.executable, "-m", "cli.main", *map(str, args)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def decided_swiss(svc) -> Story:
    """Eight players, five Swiss rounds (platform). 3 withdraws after round 2; round 2's 4-1, entered
    as a draw, is corrected to 0-1 after round 3 was played."""
    story = Story(svc, 8, system="swiss", rounds=5).start()
    story.play(1, [(1, 5, W), (6, 2, B), (3, 7, D), (8, 4, B)])
    story.play(2, [(4, 1, D), (2, 3, W), (5, 8, W), (7, 6, B)])
    story.withdraw(3, reason="had to leave")
    story.play(3, [(1, 2, D), (6, 4, W), (8, 7, D)], bye=5)
    story.correct(2, 4, 1, B, reason="1 won on time; entered as a draw")
    return story


@pytest.fixture
def exported(client, svc, tmp_path) -> tuple[Story, Path]:
    story = decided_swiss(svc)
    path = tmp_path / "decided.trf"
    path.write_text(client.get(f"/tournaments/{story.id}/trf").get_data(as_text=True))
    return story, path


def test_the_export_marks_the_withdrawal_and_the_correction(exported):
    _, path = exported
    text = path.read_text()
    doc = parse(text)
    blocks = {
        s: [(e.opponent, e.colour.value, e.result.value) if e else None for e in p.rounds]
        for s, p in doc.players.items()
    }
    # 3 keeps the games played; round 3 (not paired) and round 4 (to be paired) are known absences
    assert blocks[3] == [(7, "w", "="), (2, "b", "0"), (None, "-", "Z"), (None, "-", "Z")]
    assert blocks[1][1] == (4, "b", "1") and blocks[4][1] == (1, "w", "0")  # the corrected result
    assert blocks[5][2] == (None, "-", "U")
    assert all(len(blocks[s]) == 3 for s in blocks if s != 3)
    assert "### 0003 withdrawn: had to leave" in text.splitlines()
    assert (
        "### round 2 0004-0001 result corrected from 1/2-1/2 to 0-1: 1 won on time; entered as a draw" in text
    )
    assert doc.point_system == {"162W": 2, "162D": 1, "162L": 0, "162Z": 0, "162P": 2}


def test_the_export_reads_back_with_arbiter_standings_to_the_same_table(exported, svc):
    story, path = exported
    printed = json.loads(arbiter("standings", path, "--byes", "no-opponent", "--json"))
    rows = snapshot(svc, story.id)["table"]["rows"]
    assert [(r["rank"], r["start"], r["points"], r["tiebreaks"]) for r in printed] == [
        (r["rank"], r["seed"], r["points"], r["tiebreaks"]) for r in rows
    ]
    assert [r["seed"] for r in rows][-1] == 3 and rows[-1]["status"] == "withdrawn"


def test_the_export_re_pairs_the_next_round_without_the_withdrawn_player(exported, tmp_path):
    _, path = exported
    assert arbiter("pair", "--dutch", path, "-p") == ROUND_4
    if ORACLE.exists():  # the reference itself, where it is installed
        out = tmp_path / "bbp.txt"
        subprocess.run([ORACLE, "--dutch", path, "-p", out], check=True, timeout=60)
        assert out.read_text() == ROUND_4
    # without its block for round 4 the withdrawn player would be paired again
    lines = path.read_text().splitlines()
    lines = [line[: -len("  0000 - Z")] if line.startswith("001    3") else line for line in lines]
    control = tmp_path / "control.trf"
    control.write_text("\n".join(lines) + "\n")
    assert "3 8" in arbiter("pair", "--dutch", control, "-p").splitlines()


def test_a_zero_point_bye_on_request_is_written_z(client, svc):
    story = Story(svc, 4, system="swiss", rounds=3).start()
    story.play(1, [(1, 3, D), (2, 4, W)])
    story.play(2, [(4, 1, B)], bye=3, zero_point=[2])
    doc = parse(client.get(f"/tournaments/{story.id}/trf").get_data(as_text=True))
    assert [(e.opponent, e.result) for e in doc.players[2].rounds] == [
        (4, ResultCode.WIN),
        (None, ResultCode.ZERO_POINT_BYE),
    ]
    assert doc.players[3].rounds[1].result is ResultCode.PAIRING_ALLOCATED_BYE
    assert all(len(p.rounds) == 2 for p in doc.players.values())  # nobody withdrawn: no block for round 3


def test_unrated_games_are_written_unrated(client, svc):
    story = Story(svc, 4, system="swiss", rounds=2).start()
    story.pair(1, [(1, 3), (2, 4)])
    unrated = story.finished(1, 1, 3, W).model_copy(update={"rated": False})
    story.send(svc, unrated)
    story.result(1, 2, 4, D)
    doc = parse(client.get(f"/tournaments/{story.id}/trf").get_data(as_text=True))
    assert [doc.players[s].rounds[0].result.value for s in (1, 3, 2, 4)] == ["W", "L", "=", "="]


def test_the_trf16_of_a_platform_swiss_declares_its_points_as_bbppairings_reads_them(client, svc, tmp_path):
    """TRF-16 has no 162 record: a 2/1/0 event's points go into bbpPairings' BBx records, and the file
    reads back to the same table and pairs the next round as the TRF-2026 does."""
    story = decided_swiss(svc)
    path = tmp_path / "decided16.trf"
    path.write_text(client.get(f"/tournaments/{story.id}/trf16").get_data(as_text=True))
    doc = parse(path.read_text())
    assert doc.point_system == {"BBW": 2, "BBD": 1, "BBL": 0, "BBZ": 0, "BBF": 0, "BBU": 2}
    assert "XXR 5" in path.read_text().splitlines()
    # TRF-16 has no tie-break record (202): the platform's are given
    printed = json.loads(
        arbiter("standings", path, "--byes", "no-opponent", "--tiebreaks", "BH-C1,SB,WIN", "--json")
    )
    rows = snapshot(svc, story.id)["table"]["rows"]
    assert [(r["rank"], r["start"], r["points"], r["tiebreaks"]) for r in printed] == [
        (r["rank"], r["seed"], r["points"], r["tiebreaks"]) for r in rows
    ]
    assert arbiter("pair", "--dutch", path, "-p") == ROUND_4
    if ORACLE.exists():
        out = tmp_path / "bbp16.txt"
        subprocess.run([ORACLE, "--dutch", path, "-p", out], check=True, timeout=60)
        assert out.read_text() == ROUND_4
