"""``arbiter pair TOURNAMENT --round N [--preview | --publish]`` and ``arbiter excuse`` against the pairing
service served over real HTTP (the embedded adapters: SQLite, an in-process broker), as the arbiters of an
over-the-board rapid event pair their rounds."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator

import pytest
from click.testing import CliRunner, Result

from cli import pair, revisions
from cli.main import build_cli
from cli.tests.served import serving
from services.pairing.entrypoints.app import create_app
from services.pairing.tests.helpers import appointed, deliver, fide_started, on_sqlite, published, withdrawn
from shared.http.auth import issue_token
from shared.settings import DEV_JWT_SECRET


class Event:
    """A served pairing service with a started six-player rapid event and an arbiter of the whole event."""

    def __init__(self, svc, url: str) -> None:
        self.svc, self.url = svc, url
        field = [("Anand", 2750), ("Botvinnik", 2700), ("Euwe", 2650), ("Tal", 2600), ("Lasker", 2550)]
        # the five entries and the start: roster revision 6, as registration numbers them
        self.started = fide_started(rounds=4, field=field).model_copy(update={"roster_revision": 6})
        self.tid = self.started.tournament_id
        self.arbiter = uuid.uuid4()
        deliver(svc, self.started, self.tid)
        deliver(svc, appointed(self.started, self.arbiter), self.tid)

    def run(self, who: uuid.UUID | None, *args: str) -> Result:
        options = ["--pairing-url", self.url]
        if who is not None:
            options += ["--token", issue_token(DEV_JWT_SECRET, who, {"player"})]
        return CliRunner().invoke(build_cli(), [*args, *options], env={"COLUMNS": "400"})


@pytest.fixture
def event(tmp_path) -> Iterator[Event]:
    svc = on_sqlite(tmp_path)
    try:
        with serving(create_app(svc)) as url:
            yield Event(svc, url)
    finally:
        svc.engine.dispose()


def test_an_arbiter_previews_pairs_and_publishes_a_round(event: Event) -> None:
    t = str(event.tid)
    preview = event.run(event.arbiter, "pair", t, "--round", "1", "--preview")
    assert preview.exit_code == 0, preview.output
    assert preview.output.splitlines()[0] == "Round 1: 5 present"
    paired = event.run(event.arbiter, "pair", t, "--round", "1")
    assert paired.exit_code == 0, paired.output
    lines = paired.output.splitlines()
    assert lines[0] == "Round 1 (not published)"
    assert lines[1].split() == ["Bd", "White", "Rtg", "Pts", "Black", "Rtg", "Pts", "Result"]
    assert [line.split()[0] for line in lines[2:4]] == ["1", "2"]
    assert "Anand" in paired.output and "2750" in paired.output
    assert lines[4].startswith("Bye: ") and lines[4].endswith("pairing-allocated bye (1 point)")
    assert published(event.svc, "round.paired") == []
    out = event.run(event.arbiter, "pair", t, "--round", "1", "--publish")
    assert out.exit_code == 0, out.output
    assert out.output.splitlines()[0] == "Round 1 (published)"
    assert len(published(event.svc, "round.paired")) == 1


def test_publish_pairs_first_when_nobody_did(event: Event) -> None:
    out = event.run(event.arbiter, "pair", str(event.tid), "--round", "1", "--publish")
    assert out.exit_code == 0, out.output
    assert out.output.startswith("Round 1 (published)")


def test_refusals_are_one_line_and_bad_arguments_exit_2(event: Event) -> None:
    t = str(event.tid)
    stranger = event.run(uuid.uuid4(), "pair", t, "--round", "1")
    assert stranger.exit_code == 1 and "403 Forbidden" in stranger.output
    early = event.run(event.arbiter, "pair", t, "--round", "2")
    assert early.exit_code == 1 and "409 Conflict: round 2 cannot be paired before round 1" in early.output
    both = event.run(event.arbiter, "pair", t, "--round", "1", "--preview", "--publish")
    assert both.exit_code == 2 and "not both" in both.output
    mixed = event.run(event.arbiter, "pair", "--dutch", t, "--round", "1")
    assert mixed.exit_code == 2
    not_an_id = event.run(event.arbiter, "pair", "nonsense", "--round", "1")
    assert not_an_id.exit_code == 2 and "is not a tournament id" in not_an_id.output
    orphan = event.run(event.arbiter, "pair", "file.trf", "--publish")
    assert orphan.exit_code == 2 and "go with --round" in orphan.output
    nobody = event.run(event.arbiter, "excuse", t, str(uuid.uuid4()), "--round", "1")
    assert nobody.exit_code == 1 and "404" in nobody.output


def test_a_pairing_waits_for_the_roster_revision_registration_answered(event: Event, monkeypatch) -> None:
    """``arbiter withdraw`` was answered roster revision 7 (cli/revisions.py holds it): ``arbiter pair``
    names it, and waits while pairing answers 409 not-yet-heard, as its Retry-After asks, until the
    withdrawal arrives; the withdrawn player is on no board."""
    t = str(event.tid)
    gone = event.started.roster[1].player_id
    revisions.remember(t, 7)
    slept: list[float] = []

    def the_withdrawal_arrives(seconds: float) -> None:  # while the command line waits
        slept.append(seconds)
        withdrawal = withdrawn(event.started, gone).model_copy(update={"roster_revision": 7})
        deliver(event.svc, withdrawal, event.tid)

    monkeypatch.setattr(pair, "sleep", the_withdrawal_arrives)
    preview = event.run(event.arbiter, "pair", t, "--round", "1", "--preview", "--json")
    assert preview.exit_code == 0, preview.output
    assert "waiting for pairing to hear roster revision 7 (it has heard 6)" in preview.stderr
    assert slept == [1.0]  # pairing's Retry-After
    answer = json.loads(preview.stdout)
    assert answer["roster_revision"] == 7 and [p["player_id"] for p in answer["withdrawn"]] == [str(gone)]
    paired = event.run(event.arbiter, "pair", t, "--round", "1", "--json")
    assert paired.exit_code == 0 and slept == [1.0]  # heard already: no wait
    listing = json.loads(paired.stdout)
    assert listing["roster_revision"] == 7
    assert str(gone) not in {b[side]["player_id"] for b in listing["boards"] for side in ("white", "black")}


def test_a_pairing_that_waited_long_enough_fails_saying_why(event: Event, monkeypatch) -> None:
    t = str(event.tid)
    revisions.remember(t, 9)
    monkeypatch.setattr(pair, "sleep", lambda seconds: None)
    late = event.run(event.arbiter, "pair", t, "--round", "1", "--wait", "0")
    assert late.exit_code == 1
    assert (
        "pairing has not heard roster revision 9" in late.output and "(it has heard up to 6)" in late.output
    )
    assert published(event.svc, "round.paired") == [] and "Round 1" not in late.output
    named = event.run(event.arbiter, "pair", t, "--round", "1", "--roster-revision", "6")
    assert named.exit_code == 0 and named.output.startswith("Round 1 (not published)")
    anyway = event.run(event.arbiter, "pair", t, "--round", "1", "--roster-revision", "0")
    assert anyway.exit_code == 0 and anyway.output.startswith("Round 1 (not published)")
