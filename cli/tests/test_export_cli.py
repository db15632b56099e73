"""``arbiter export`` against the standings service served over real HTTP (the embedded adapters), and
the export read back: the TRF it writes, given to ``arbiter standings``, gives the service's table
exactly (ranks, start numbers, points, every tie-break, in the same order)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner, Result
from pypdf import PdfReader

from cli.main import build_cli
from cli.tests.served import serving
from services.standings.entrypoints.app import create_app
from services.standings.tests.helpers import embedded, six_player_knockout
from services.standings.tests.unit.test_fide_rapid import rapid_open


@pytest.fixture
def standings(tmp_path) -> Iterator[tuple[object, str]]:
    svc = embedded(f"sqlite:///{tmp_path / 'standings.sqlite'}")
    try:
        with serving(create_app(svc)) as url:
            yield svc, url
    finally:
        svc.engine.dispose()


def arbiter(url: str, *args: str) -> Result:
    return CliRunner().invoke(build_cli(), [*args, "--standings-url", url], env={"COLUMNS": "400"})


def local(*args: str) -> Result:
    return CliRunner().invoke(build_cli(), list(args))


@pytest.mark.parametrize("option", ["--trf", "--trf2026"])
def test_the_exported_trf_reads_back_to_the_pages_table(standings, tmp_path: Path, option: str) -> None:
    svc, url = standings
    story = rapid_open(svc)
    path = tmp_path / "rapid.trf"
    done = arbiter(url, "export", str(story.id), option, "--output", str(path))
    assert done.exit_code == 0, done.output
    page = httpx.get(f"{url}/tournaments/{story.id}/standings").json()
    printed = local("standings", str(path), "--json")  # the lots' seed travels in XAR LOTS
    assert printed.exit_code == 0, printed.output
    assert [(r["rank"], r["start"], r["points"], r["tiebreaks"]) for r in json.loads(printed.output)] == [
        (r["rank"], r["seed"], r["points"], r["tiebreaks"]) for r in page["rows"]
    ]
    text = path.read_text()
    assert ("XXR 5" in text) == (option == "--trf") and ("142 5" in text) == (option == "--trf2026")


def test_the_csv_goes_to_standard_output(standings) -> None:
    svc, url = standings
    story = rapid_open(svc)
    done = arbiter(url, "export", str(story.id), "--csv")
    assert done.exit_code == 0, done.output
    lines = done.output.splitlines()
    assert lines[0].startswith("Rank,Place,SNo,Title,Name,FED,FIDE ID,Rtg,Pts,BH,BH-C1,SB,ARO")
    assert lines[1].startswith("1,1,1,GM,Player 1,GER,1300001,2360,3.5,") and len(lines) == 11


def test_csv_and_pdf_of_each_table(standings, tmp_path: Path) -> None:
    svc, url = standings
    story = rapid_open(svc)
    cross = arbiter(url, "export", str(story.id), "--format", "csv", "--what", "crosstable")
    assert cross.exit_code == 0, cross.output
    assert cross.output.splitlines()[0] == "Place,Rank,SNo,Title,Name,FED,Rtg,R1,R2,R3,R4,R5,Pts,Status"
    one = arbiter(url, "export", str(story.id), "--format", "csv", "--round", "2")
    assert one.exit_code == 0, one.output
    served = httpx.get(f"{url}/tournaments/{story.id}/rounds/2/pairings.csv").content
    assert one.stdout_bytes == served  # as served: CR LF line ends, UTF-8
    assert {line.split(",")[0] for line in served.decode().splitlines()[1:]} == {"2"}
    path = tmp_path / "standings.pdf"
    done = arbiter(url, "export", str(story.id), "--format", "pdf", "--what", "pairings", "-o", str(path))
    assert done.exit_code == 0, done.output
    assert f"wrote the pairings PDF of {story.id} to {path}" in done.output
    text = "\n".join(p.extract_text() for p in PdfReader(path).pages)
    assert "Round 5 of 5: pairings and results" in text and "Player 10" in text


def test_bad_requests_are_one_error_line(standings, tmp_path: Path) -> None:
    svc, url = standings
    missing = arbiter(url, "export", str(uuid.uuid4()), "--trf")
    assert missing.exit_code == 1 and "404" in missing.output and "Traceback" not in missing.output
    knockout = six_player_knockout(svc)
    bracket = arbiter(url, "export", str(knockout.id), "--csv")
    assert bracket.exit_code == 1 and "409" in bracket.output
    none = arbiter(url, "export", str(knockout.id))
    assert none.exit_code == 2 and "choose a format: --format trf|trf2026|csv|pdf" in none.output
    for args, message in (
        (["--format", "trf", "--what", "crosstable"], "a TRF-16 file is the whole event"),
        (["--format", "csv", "--what", "standings", "--round", "2"], "--round is for the pairing lists"),
        (["--format", "trf2026", "--round", "2"], "not a TRF"),
        (["--format", "pdf", "--csv"], "contradict each other"),
        (["--format", "pdf", "--round", "0"], "0 is not in the range x>=1"),
    ):
        refused = arbiter(url, "export", str(knockout.id), *args)
        assert refused.exit_code == 2 and message in refused.output, refused.output
    unknown_round = arbiter(url, "export", str(knockout.id), "--format", "csv", "--round", "9")
    assert unknown_round.exit_code == 1 and "404" in unknown_round.output
    story = rapid_open(svc, upto=1)
    unwritable = arbiter(url, "export", str(story.id), "--trf", "--output", str(tmp_path / "no" / "x.trf"))
    assert unwritable.exit_code == 1 and "cannot write" in unwritable.output
