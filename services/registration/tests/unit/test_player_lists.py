"""Reading the player lists an organiser imports (``domain/player_lists.py``): a CSV list with its header
row, a TRF file's 001 lines (Held's exercise file from the reference set, and lines written by the TRF
writer), and every bad line refused with its number."""

from __future__ import annotations

from pathlib import Path

import pytest

from services.registration.domain import errors
from services.registration.domain.player_lists import ListFormat, decode, read
from services.registration.domain.players import Person, Profile, Sex, Title
from shared.trf import PlayerRecord
from shared.trf.writer import format_player

FIXTURES = Path(__file__).resolve().parents[4] / "tests" / "fixtures" / "held"


def refused(text: str, fmt: ListFormat, line: int | None, detail: str) -> None:
    with pytest.raises(errors.InvalidPlayerLine) as bad:
        read(text, fmt)
    assert (bad.value.line, bad.value.detail) == (line, detail)
    assert bad.value.slug == "invalid-player-line"


# -- CSV ---------------------------------------------------------------------------------------------
CSV = """name,fide_id,federation,title,sex,birth_year,rating_standard,rating_rapid
"Carlsen, Magnus",1503014,NOR,GM,m,1990,2830,2820
"Meier, Anna",,sui,wfm,W,2001,2105,
Newcomer,,,,,,,

"Muster, Max",0,GER,f,f,1975-03-01,0,1900
"""


def test_a_csv_list_is_read_in_its_order_with_its_lines() -> None:
    assert read(CSV, ListFormat.CSV) == [
        Person("Carlsen, Magnus", Profile(1503014, "NOR", Title.GM, Sex.M, 1990, 2830, 2820), line=2),
        Person("Meier, Anna", Profile(None, "SUI", Title.WFM, Sex.W, 2001, 2105, None), line=3),
        Person("Newcomer", None, line=4),
        # FIDE id 0 is none, standard rating 0 unrated, "f" a TRF title code (FM) and the sex w
        Person("Muster, Max", Profile(None, "GER", Title.FM, Sex.W, 1975, None, 1900), line=6),
    ]


def test_columns_in_any_order_and_case_any_separator_and_only_a_name() -> None:
    text = "\n\nRating_Standard;NAME;Fide ID\n2400;Ann;42\n;Bob\n"
    assert read(text, ListFormat.CSV) == [
        Person("Ann", Profile(fide_id=42, rating_standard=2400), line=4),
        Person("Bob", None, line=5),
    ]
    assert read("name\tfederation\nAnn\tsui\n", ListFormat.CSV) == [
        Person("Ann", Profile(federation="SUI"), line=2)
    ]


def test_a_quoted_cell_spanning_lines_is_named_by_its_first_line() -> None:
    text = 'name,title\n"Ann\nB.",GM\nBad,XX\n'
    with pytest.raises(errors.InvalidPlayerLine) as bad:
        read(text, ListFormat.CSV)
    assert bad.value.line == 4


@pytest.mark.parametrize(
    ("text", "line", "detail"),
    [
        ("", None, "the CSV file lists no players"),
        ("name,fide_id\n\n", None, "the CSV file lists no players"),
        (
            "name,elo\nAnn,2000\n",
            1,
            "line 1: unknown column 'elo'; the header names columns of name, fide_id, federation, title, sex,"
            " birth_year, rating_standard, rating_rapid",
        ),
        (
            "Carlsen,1503014\n",
            1,
            "line 1: unknown column 'carlsen'; the header names columns of name, fide_id,"
            " federation, title, sex, birth_year, rating_standard, rating_rapid",
        ),
        ("fide_id,title\n1,GM\n", 1, "line 1: the header needs a name column (a header row comes first)"),
        ("name,title,Title\nAnn,GM,GM\n", 1, "line 1: column 'title' named twice"),
        (
            "name,title\nAnn,GM\nBob,XX\n",
            3,
            "line 3: title: one of GM IM WGM FM WIM CM WFM WCM (or the TRF"
            " codes g m wg f wm c wf wc), got 'XX'",
        ),
        ("name,fide_id\nAnn,12a\n", 2, "line 2: fide_id: a whole number, got '12a'"),
        ("name,fide_id\nAnn,1²\n", 2, "line 2: fide_id: a whole number, got '1²'"),
        ("name,fide_id\nAnn,2000000001\n", 2, "line 2: a FIDE id is 1–2000000000, got 2000000001"),
        ("name,rating_standard\nAnn,-1\n", 2, "line 2: rating_standard: a whole number, got '-1'"),
        ("name,rating_rapid\nAnn,4001\n", 2, "line 2: a rapid rating is 0–4000, got 4001"),
        (
            "name,federation\nAnn,Swiss\n",
            2,
            "line 2: a federation is FIDE's three-letter code (e.g. SUI), got 'SWISS'",
        ),
        ("name,sex\nAnn,x\n", 2, "line 2: sex: m or w, got 'x'"),
        ("name,birth_year\nAnn,90\n", 2, "line 2: birth_year: a year (or a date YYYY/MM/DD), got '90'"),
        ("name,birth_year\nAnn,1850\n", 2, "line 2: a birth year is 1900–2100, got 1850"),
        ("name,title\nAnn,GM\n,GM\n", 3, "line 3: a player needs a name"),
        ("name,title\nAnn,GM,extra\n", 2, "line 2: 3 cells, but the header names 2 columns"),
        ("name\n" + "x" * 101 + "\n", 2, "line 2: a name has at most 100 characters"),
        ("name\nAnn\x00\n", 2, "line 2: control character 0x00 in column 4: a CSV list is text"),
        ('name\n"Ann\n', 2, "line 2: not a CSV row (unexpected end of data)"),
    ],
)
def test_a_bad_csv_line_is_named(text: str, line: int | None, detail: str) -> None:
    refused(text, ListFormat.CSV, line, detail)


def test_a_list_of_more_than_a_thousand_players_is_refused_at_the_first_too_many() -> None:
    text = "name\n" + "".join(f"P{i}\n" for i in range(1001))
    refused(text, ListFormat.CSV, 1002, "the file lists 1001 players; an event takes at most 1000")


def test_uploads_are_utf8_or_latin1() -> None:
    assert decode("\ufeffname\nMüller\n".encode()) == "name\nMüller\n"
    assert decode("name\nMüller\n".encode("latin-1")) == "name\nMüller\n"


# -- TRF ---------------------------------------------------------------------------------------------
def test_a_trf_file_with_results_imports_its_players_only() -> None:
    people = read((FIXTURES / "swiss_9.trf").read_text(), ListFormat.TRF)
    assert len(people) == 16
    assert people[0] == Person(
        "Alyx", Profile(federation="NOR", sex=Sex.M, birth_year=1990, rating_standard=2150), line=5
    )
    assert [p.line for p in people] == list(range(5, 21))  # after the 012, 042, 062 and XXR records
    assert {p.name for p in people} >= {"Charline", "Stephan"}


def trf_line(**fields: object) -> str:
    return format_player(PlayerRecord(**{"start": 1, "name": "Carlsen, Magnus", **fields}))  # type: ignore[arg-type]


def test_a_trf_player_line_gives_every_field() -> None:
    text = (
        "012 Rapid open\n"
        + trf_line(sex="m", title="g", rating=2830, federation="NOR", fide_id="1503014", birth="1990/11/30")
        + "\n"
        + trf_line(start=2, name="Meier, Anna", sex="w", title="WFM", rating=None, fide_id="0")
        + "\n"
    )
    assert read(text, ListFormat.TRF) == [
        Person("Carlsen, Magnus", Profile(1503014, "NOR", Title.GM, Sex.M, 1990, 2830, None), line=2),
        Person("Meier, Anna", Profile(sex=Sex.W, title=Title.WFM), line=3),
    ]


@pytest.mark.parametrize(
    ("line", "detail"),
    [
        (
            trf_line(title="x"),
            "line 2: the title (columns 11-13): one of GM IM WGM FM WIM CM WFM WCM (or the"
            " TRF codes g m wg f wm c wf wc), got 'x'",
        ),
        (trf_line(sex="x"), "line 2: the sex (column 10): m or w, got 'x'"),
        (trf_line(fide_id="15O3014"), "line 2: the FIDE id (columns 58-68): a whole number, got '15O3014'"),
        (
            trf_line(birth="30.11.90"),
            "line 2: the birth date (columns 70-79): a year (or a date YYYY/MM/DD), got '30.11.90'",
        ),
        (
            trf_line(federation="N0R"),
            "line 2: a federation is FIDE's three-letter code (e.g. SUI), got 'N0R'",
        ),
        (trf_line(name=""), "line 2: a player needs a name"),
        ("001    x Bad line", "line 2: the start number in columns 5-8 must be a number, got 'x'"),
        ("001    ²", "line 2: '²' in column 8 is not a digit a TRF file uses (0-9)"),
    ],
)
def test_a_bad_trf_line_is_named(line: str, detail: str) -> None:
    refused("012 Rapid open\n" + line + "\n", ListFormat.TRF, 2, detail)


def test_a_trf_file_without_players_is_refused() -> None:
    refused("012 Rapid open\n", ListFormat.TRF, None, "no player (001) lines: there is no tournament to read")
    refused(
        "name,title\nAnn,GM\n",
        ListFormat.TRF,
        1,
        "line 1: no player (001) lines, and this line is no TRF record: 'name,title'",
    )
