"""The nine opening options, the federation tables and the draw (RULES.md §2, docs/openings.md)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from shared.games import boards
from shared.openings import (
    ALLOWED,
    BalanceClass,
    BalanceClassesMissing,
    DrawnOpening,
    NoOpeningWithinCap,
    OpeningKind,
    OpeningNotForVariant,
    OpeningOption,
    OpeningTable,
    OpeningTableInvalid,
    OpeningTableMissing,
    TableOpening,
    ThematicOpeningNotFound,
    UnknownOpeningOption,
    check_option,
    draw_openings,
    english_table,
    load_table,
    opening_of,
)
from shared.openings.tables import english_ballot_positions, parse_csv, parse_json
from shared.variants import Variant

pytestmark = pytest.mark.unit

DATA = Path(__file__).parent / "data" / "openings"


@pytest.fixture(scope="module")
def italian() -> OpeningTable:
    return load_table(DATA / "italian-sample.json", "italian")


def rounds(
    option: str, variant: str, rounds: int, pairings: int, **kw
) -> list[tuple[DrawnOpening | None, ...]]:
    """Draw ``rounds`` rounds in a row, each knowing what the earlier ones used."""
    used: list[DrawnOpening] = []
    out = []
    for number in range(1, rounds + 1):
        drawn = draw_openings(
            OpeningOption.parse(option),
            Variant(variant),
            pairings=pairings,
            seed=f"T:{number}",
            used=used,
            **kw,
        )
        used.extend(o for o in drawn if o is not None)
        out.append(drawn)
    return out


# -- the options -------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "kind", "moves", "cap", "code"),
    [
        ("free", OpeningKind.FREE, None, None, None),
        ("random-1", OpeningKind.RANDOM, 1, None, None),
        ("random-3", OpeningKind.RANDOM, 3, None, None),
        ("table-1", OpeningKind.TABLE, None, 1, None),
        ("table-3", OpeningKind.TABLE, None, 3, None),
        ("table-all", OpeningKind.TABLE, None, None, None),
        ("thematic:042", OpeningKind.THEMATIC, None, None, "042"),
    ],
)
def test_the_options_as_organisers_write_them(text, kind, moves, cap, code):
    option = OpeningOption.parse(text)
    assert (option.kind, option.moves, option.cap, option.code) == (kind, moves, cap, code)
    assert str(option) == text


@pytest.mark.parametrize(
    "text", ["", "random", "random-0", "random-4", "table-4", "table-0", "thematic:", "Free"]
)
def test_an_unknown_option_lists_the_allowed_values(text):
    with pytest.raises(UnknownOpeningOption) as refused:
        OpeningOption.parse(text)
    assert refused.value.slug == "unknown-opening-option"
    assert str(refused.value) == (
        f"unknown opening option {text!r}: the options are free, random-1, random-2, random-3, "
        "table-1, table-2, table-3, table-all, thematic:CODE"
    )
    assert len(ALLOWED) == 9


# -- what each variant allows ------------------------------------------------------------------------
@pytest.mark.parametrize("variant", ["chess", "international", "russian"])
@pytest.mark.parametrize("option", ["table-1", "table-all", "thematic:001"])
def test_tables_exist_only_for_english_and_italian(variant, option):
    with pytest.raises(OpeningNotForVariant, match="only for English and Italian"):
        check_option(OpeningOption.parse(option), Variant(variant))


@pytest.mark.parametrize("variant", list(Variant))
@pytest.mark.parametrize("option", ["free", "random-1", "random-2", "random-3"])
def test_free_and_random_openings_exist_for_every_variant(variant, option):
    check_option(OpeningOption.parse(option), variant)


def test_italian_table_draws_need_the_provided_table(italian):
    with pytest.raises(OpeningTableMissing, match="no Italian opening table is configured"):
        check_option(OpeningOption.parse("table-all"), Variant.ITALIAN)
    check_option(OpeningOption.parse("table-1"), Variant.ITALIAN, italian=italian)


@pytest.mark.parametrize("option", ["table-1", "table-2", "table-3"])
def test_a_balance_cap_is_refused_for_the_english_table_which_has_no_classes(option):
    with pytest.raises(BalanceClassesMissing) as refused:
        check_option(OpeningOption.parse(option), Variant.ENGLISH)
    assert refused.value.slug == "balance-classes-missing"
    assert "has no balance classes" in str(refused.value) and "choose table-all or a thematic" in str(
        refused.value
    )
    check_option(OpeningOption.parse("table-all"), Variant.ENGLISH)


def test_a_thematic_opening_must_be_in_the_table(italian):
    check_option(OpeningOption.parse("thematic:174"), Variant.ENGLISH)
    with pytest.raises(
        ThematicOpeningNotFound,
        match=r"no opening '175' in the English three-move table \(its codes run from 001 to 174\)",
    ):
        check_option(OpeningOption.parse("thematic:175"), Variant.ENGLISH)
    with pytest.raises(ThematicOpeningNotFound):
        check_option(OpeningOption.parse("thematic:001"), Variant.ITALIAN, italian=italian)


def test_a_cap_with_no_opening_within_it_is_refused():
    table = OpeningTable(Variant.ITALIAN, "t", "s", (TableOpening("X", ("21-17",), BalanceClass(3, "N")),))
    with pytest.raises(NoOpeningWithinCap, match="no opening up to 2N/2B"):
        table.within(2)


# -- the tables --------------------------------------------------------------------------------------
def test_the_english_table_is_pydraughts_174_three_move_openings():
    table = english_table()
    assert len(table.openings) == 174
    assert [o.code for o in table.openings] == [f"{n:03d}" for n in range(1, 175)]
    assert not table.has_balance_classes and table.max_grade is None
    assert table.source.startswith("pydraughts 0.6.7, draughts/ballot_files/3move_english.json")
    assert table.opening("004").moves == ("9-13", "22-17", "13-22")


def test_every_english_opening_is_legal_and_reaches_the_ballots_position():
    """The real generator replays each ballot's three moves and lands on the position pydraughts'
    ballot file gives for it."""
    positions = english_ballot_positions()
    for opening in english_table().openings:
        line = boards.replay(Variant.ENGLISH, opening.moves)
        assert len(line.moves) == 3
        expected = boards.Position(Variant.ENGLISH, positions[opening.code])
        assert line.position.key == expected.key, opening.code


def test_the_sample_italian_table_loads_from_json_and_from_csv(italian):
    from_csv = load_table(DATA / "italian-sample.csv", "italian")
    assert from_csv.openings == italian.openings
    assert italian.name == "SAMPLE Italian table (tests only)" and "NOT the federation's" in italian.source
    assert [(o.code, str(o.balance)) for o in italian.openings][:3] == [
        ("S01", "1B"),
        ("S02", "1N"),
        ("S03", "2B"),
    ]
    assert italian.max_grade == 3
    assert [o.code for o in italian.within(1)] == ["S01", "S02", "S07"]
    assert [o.code for o in italian.within(2)] == ["S01", "S02", "S03", "S04", "S07", "S08"]


def sample(**changes) -> str:
    doc = json.loads((DATA / "italian-sample.json").read_text())
    doc.update(changes)
    return json.dumps(doc, indent=1)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "t.json, line 1: not JSON"),
        ("[]", "t.json: the table is a JSON object"),
        (sample(source=""), "t.json: 'source' is missing"),
        (sample(variant="english"), "t.json: a table of 'english', not of italian"),
        (sample(openings=[]), "t.json: the table has no openings"),
        (
            sample(openings=[{"code": "A", "moves": "21-17"}, {"code": "A", "moves": "22-18"}]),
            "code 'A' appears twice",
        ),
        (sample(openings=[{"code": "A", "moves": ""}]), "t.json, opening 1: opening 'A' has no moves"),
        (
            sample(openings=[{"code": "A", "moves": "21-17", "balance": "4X"}]),
            "t.json, opening 1: a balance class is written like 1N",
        ),
        (
            sample(
                openings=[{"code": "A", "moves": "21-17", "balance": "1N"}, {"code": "B", "moves": "22-18"}]
            ),
            "either every opening has a balance class or none does ('B' has none)",
        ),
    ],
)
def test_a_bad_table_file_is_refused_naming_where(text, message, tmp_path):
    path = tmp_path / "t.json"
    path.write_text(text)
    with pytest.raises(OpeningTableInvalid) as refused:
        load_table(path, "italian")
    assert message in str(refused.value)
    assert refused.value.slug == "opening-table-invalid"


def test_an_illegal_move_in_a_table_names_the_opening(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text("code,moves,balance,source\nA,21-17 9-13,1N,x\nB,21-17 21-18,1B,x\n")
    with pytest.raises(OpeningTableInvalid, match=r"opening B: move 2 \('21-18'\)"):
        load_table(path, "italian")
    assert len(load_table(path, "italian", check_moves=False).openings) == 2


def test_a_csv_table_needs_its_header_and_a_source_on_every_line():
    with pytest.raises(OpeningTableInvalid, match="<table>, line 1: the header is code,moves,balance,source"):
        parse_csv("code,moves\nA,21-17\n", "italian")
    with pytest.raises(OpeningTableInvalid, match="<table>, line 3: 'source' is missing"):
        parse_csv("code,moves,balance,source\nA,21-17,,x\nB,22-18,,\n", "italian")
    assert parse_json(sample(), "italian").openings[0].moves == ("21-17", "9-13", "22-18")


def test_tables_are_only_for_english_and_italian():
    with pytest.raises(OpeningTableInvalid, match="only english, italian draughts have opening tables"):
        parse_csv("code,moves,balance,source\nA,e4,,x\n", "chess")


# -- the draw ----------------------------------------------------------------------------------------
def test_free_draws_nothing():
    assert draw_openings(OpeningOption.parse("free"), Variant.CHESS, pairings=3, seed="s") == (
        None,
        None,
        None,
    )


def test_a_draw_is_reproducible_from_its_seed():
    a = rounds("table-all", "english", 3, 5)
    assert a == rounds("table-all", "english", 3, 5)
    other = draw_openings(OpeningOption.parse("table-all"), Variant.ENGLISH, pairings=5, seed="U:1")
    assert [o.code for o in other] != [o.code for o in a[0]]  # type: ignore[union-attr]


def test_a_table_opening_never_repeats_until_the_table_is_used_up():
    drawn = [o for rnd in rounds("table-all", "english", 18, 10) for o in rnd]
    codes = [o.code for o in drawn]  # type: ignore[union-attr]
    assert len(set(codes[:174])) == 174  # 17 rounds and 4 games: every opening once
    assert Counter(Counter(codes).values()) == {1: 168, 2: 6}  # then the least used again
    assert all(o.label == o.code and len(o.moves) == 3 for o in drawn)  # type: ignore[union-attr]
    assert drawn[codes.index("004")].moves == ("9-13", "22-17", "13x22")  # type: ignore[union-attr]


def test_a_capped_draw_stays_within_the_cap_and_cycles_evenly(italian):
    drawn = [o for rnd in rounds("table-1", "italian", 4, 2, italian=italian) for o in rnd]
    assert {o.code for o in drawn} == {"S01", "S02", "S07"}  # type: ignore[union-attr]
    assert sorted(Counter(o.code for o in drawn).values()) == [2, 3, 3]  # type: ignore[union-attr]
    first_round = rounds("table-1", "italian", 1, 3, italian=italian)[0]
    assert len({o.code for o in first_round}) == 3  # type: ignore[union-attr]


def test_a_thematic_opening_is_every_games_opening(italian):
    drawn = [o for rnd in rounds("thematic:S05", "italian", 3, 4, italian=italian) for o in rnd]
    assert {(o.code, o.moves) for o in drawn} == {("S05", ("22-19", "11-14", "23-20"))}  # type: ignore[union-attr]


@pytest.mark.parametrize("variant", list(Variant))
def test_random_moves_come_from_the_generator_and_never_repeat(variant):
    drawn = [o for rnd in rounds("random-2", variant.value, 3, 4) for o in rnd]
    for opening in drawn:
        assert opening is not None and opening.code is None and len(opening.moves) == 2
        assert opening_of(variant, opening.moves) == opening  # legal, and where it says it leads
        assert opening.label == " ".join(opening.moves)
    assert len({o.key for o in drawn}) == 12  # type: ignore[union-attr]


def test_one_random_move_covers_every_first_move_before_any_repeats():
    drawn = [o for rnd in rounds("random-1", "chess", 2, 10) for o in rnd]
    assert sorted(o.moves[0] for o in drawn) == sorted(boards.legal_moves(boards.start("chess")))  # type: ignore[union-attr]
    third = rounds("random-1", "chess", 3, 10)[2]
    assert len({o.moves for o in third}) == 10  # type: ignore[union-attr]


def test_three_random_moves_in_chess():
    (drawn,) = rounds("random-3", "chess", 1, 3)
    assert all(len(o.moves) == 3 for o in drawn)  # type: ignore[union-attr]


def test_a_transposition_is_the_same_opening():
    assert (
        opening_of(Variant.CHESS, ["e3", "e6", "Nf3"]).key
        == opening_of(Variant.CHESS, ["Nf3", "e6", "e3"]).key
    )
    assert opening_of(Variant.ENGLISH, ["9-13"], code="001").key == "table:001"
