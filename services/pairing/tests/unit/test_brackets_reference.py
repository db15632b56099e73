"""Knockout and double knockout against brackets-manager's output (tests/fixtures/brackets, see its README).

Every reference file is replayed: the same players, options and scenario, results entered until nothing is
left to play. Then the rounds, every match (players, byes, played or not, winner, loser), the losers'-bracket
routing and the final standings must be exactly the reference's.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from services.pairing.domain.elimination.bracket import (
    Bracket,
    BracketMatch,
    MatchId,
    MatchStatus,
    better_seed,
    play_out,
    worse_seed,
)
from services.pairing.domain.elimination.double_knockout import DoubleKnockout
from services.pairing.domain.elimination.knockout import Knockout
from shared.vocabulary import Section
from tests.fixtures import FIXTURES

FILES = sorted((FIXTURES / "brackets").glob("*.json"))


def load(path: Path) -> dict:
    return json.loads(path.read_text())


def build(ref: dict) -> Bracket:
    if ref["format"] == "single_elimination":
        assert ref["grand_final"] is None
        return Knockout(ref["players"], third_place=ref["third_place_match"])
    assert ref["format"] == "double_elimination" and not ref["third_place_match"]
    return DoubleKnockout(ref["players"], second_final=ref["grand_final"] == "double")


def chooser(scenario: str):
    if scenario == "higher_seed_wins":
        return better_seed
    if scenario == "lower_seed_wins":
        return worse_seed
    assert scenario == "higher_seed_wins_except_first_grand_final"

    def choose(match: BracketMatch) -> int:
        if match.id == MatchId(Section.GRAND_FINAL, 1, 1):
            return match.players[1]  # the losers'-bracket winner takes the first final
        return better_seed(match)

    return choose


def played_out(ref: dict) -> Bracket:
    return play_out(build(ref), chooser(ref["scenario"]))


def listed_rounds(bracket: Bracket) -> dict:
    """The bracket as the reference lists it: a reset that was not needed is left out."""
    out = {}
    for section in bracket.sections:
        rounds = [
            [list(m.players) for m in rnd if m.status is not MatchStatus.NOT_NEEDED]
            for rnd in bracket.rounds(section)
        ]
        out[section.value] = [rnd for rnd in rounds if rnd]
    return out


def test_the_reference_files_are_there():
    assert len(FILES) >= 48  # 18 single, 30 double elimination in the shipped set


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_rounds_match_the_reference(path):
    ref = load(path)
    bracket = played_out(ref)
    assert bracket.is_finished()
    assert bracket.size == ref["bracket_size"] and bracket.size - bracket.players == ref["byes"]
    assert listed_rounds(bracket) == ref["rounds"]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_every_match_matches_the_reference(path):
    ref = load(path)
    bracket = played_out(ref)
    ours = {m.id: m for m in bracket.matches()}
    assert len(ours) == len(ref["matches"])
    for expected in ref["matches"]:
        m = ours[MatchId(Section(expected["bracket"]), expected["round"], expected["match"])]
        if expected.get("not_needed"):
            assert m.status is MatchStatus.NOT_NEEDED, m
            continue
        assert list(m.players) == expected["seeds"], m
        assert any(m.empty) == expected["bye"], m
        assert (m.status is MatchStatus.DECIDED) == expected["played"], m
        assert (m.winner, m.loser) == (expected["winner"], expected["loser"]), m


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_results_entered_in_the_reference_order_are_accepted(path):
    # brackets-manager entered each result when the match was playable; ours must agree that it was
    # ready with the same two players at that moment.
    ref = load(path)
    bracket = build(ref)
    played = sorted((m for m in ref["matches"] if m["played"]), key=lambda m: m["play_order"])
    for m in played:
        mid = MatchId(Section(m["bracket"]), m["round"], m["match"])
        assert bracket.match(mid).status is MatchStatus.READY
        assert list(bracket.match(mid).players) == m["seeds"]
        bracket = bracket.record(mid, m["winner"])
    assert bracket.is_finished()
    assert bracket.results == played_out(ref).results


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_final_standings_match_the_reference(path):
    ref = load(path)
    placings = played_out(ref).placings()
    assert {p.seed: p.rank for p in placings} == {s["seed"]: s["rank"] for s in ref["final_standings"]}
    assert len(placings) == ref["players"]


@pytest.mark.parametrize("path", [p for p in FILES if p.name.startswith("double")], ids=lambda p: p.stem)
def test_loser_routing_matches_the_reference(path):
    ref = load(path)
    bracket = played_out(ref)
    assert isinstance(bracket, DoubleKnockout)
    routing = [
        {
            "from": {"round": d.source.round, "match": d.source.number},
            "loser": bracket.match(d.source).loser,
            "to": {"round": d.target.round, "match": d.target.number, "slot": d.slot},
        }
        for d in bracket.drop_ins()
    ]
    key = lambda r: (r["to"]["round"], r["to"]["match"], r["to"]["slot"])  # noqa: E731
    assert sorted(routing, key=key) == sorted(ref["loser_routing"], key=key)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_first_round_before_any_result(path):
    ref = load(path)
    bracket = build(ref)
    assert [list(m.players) for m in bracket.rounds(Section.WINNERS)[0]] == ref["rounds"]["winners"][0]
