"""Who a Swiss's next round leaves out, as the standings know it before pairing pairs it (issue 22): the
domain alone (:class:`~services.standings.domain.tournament.Tournament`, :func:`trf_document`), no
service. Pairing leaves out of round ``n`` the withdrawn, the zero-point byes asked for ``n`` and, in a
`fide-rapid` event, the absentees of round ``n - 1`` nobody excused and the late entries not in yet
(``PairingTournament.absent``); the TRF written before round ``n`` gives each of them a ``0000 - Z``
block for it, and the Dutch engine reading the file (``arbiter pair --dutch``, as bbpPairings does)
leaves exactly them out."""

from __future__ import annotations

import datetime as dt
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from services.standings.domain.errors import PlayerOutstanding
from services.standings.domain.pairings import AnnouncedBye, AnnouncedGame
from services.standings.domain.rounds import Competitor
from services.standings.domain.to_trf import trf_document
from services.standings.domain.tournament import Tournament
from services.standings.domain.tournament_info import FideInfo, TournamentInfo
from shared.scoring import Outcome
from shared.time_control import RateOfPlay
from shared.trf import NOT_PAIRED, TrfColour, TrfDocument, write
from shared.vocabulary import ByeKind, Ruleset, System

T0 = dt.datetime(2026, 6, 1, 10, tzinfo=dt.UTC)
IDS = {seed: uuid.UUID(int=seed) for seed in range(1, 9)}


def engine_pairs(doc: TrfDocument, tmp: Path) -> set[int]:
    """Who ``arbiter pair --dutch`` pairs from the file (the boards' players and the bye)."""
    path = tmp / "before.trf"
    path.write_text(write(doc, canonical=True))  # as the service writes it
    done = subprocess.run(
        [sys.executable, "-m", "cli.main", "pair", "--dutch", str(path), "-p"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return {int(s) for line in done.stdout.splitlines()[1:] for s in line.split()} - {0}


def event(*, fide: bool = True, tid: uuid.UUID | None = None) -> Tournament:
    info = TournamentInfo(
        tid or uuid.UUID(int=1000),
        "Rapid",
        Ruleset.FIDE_RAPID if fide else Ruleset.PLATFORM,
        T0,
        RateOfPlay(900, 10),
        fide=FideInfo(rounds=4, system=System.SWISS) if fide else None,
    )
    return Tournament(info, [Competitor(s, pid, f"P{s}", 2400 - 10 * s) for s, pid in IDS.items()])


def play_round_1(t: Tournament, reasons: dict[int, str] | None = None) -> None:
    """Round 1: 1-5, 6-2, 3-7, 8-4; board 2 (6-2) a forfeit at the default time, White absent; board 4
    (8-4) neither came by it; the others 1-0 (``reasons`` by board)."""
    pairs = [(1, 5), (6, 2), (3, 7), (8, 4)]
    games = [
        AnnouncedGame(uuid.UUID(int=100 + b), b, IDS[w], IDS[k]) for b, (w, k) in enumerate(pairs, start=1)
    ]
    t.pair_round(1, system=System.SWISS, total_rounds=4, games=games, at=T0)
    outcomes = {2: Outcome.BLACK_FORFEIT_WIN, 4: Outcome.DOUBLE_FORFEIT}
    for g in games:
        reason = (reasons or {}).get(g.board, "default_time" if g.board in outcomes else "resignation")
        t.record_result(
            g.game_id,
            round=1,
            white=g.white,
            black=g.black,
            outcome=outcomes.get(g.board, Outcome.WHITE_WIN),
            reason=reason,
            finished_at=T0,
        )


def test_the_absentees_nobody_excused_and_the_byes_asked_for_are_left_out() -> None:
    t = event()
    play_round_1(t)
    assert t.absentees(1) == {6, 8, 4}
    assert t.left_out(2) == {6, 8, 4}  # FIDE C.04.2: counted as withdrawn unless excused
    assert t.excuse_absence(IDS[8], 1) and not t.excuse_absence(IDS[8], 1)  # heard once
    assert t.request_bye(IDS[3], 2) and not t.request_bye(IDS[3], 2)
    assert t.request_bye(IDS[1], 2) and t.take_back_bye(IDS[1], 2) and not t.take_back_bye(IDS[1], 2)
    assert t.request_bye(IDS[7], 3)  # a later round's: not this one's
    assert t.left_out(2) == {6, 4, 3}
    assert t.left_out(3) == {7}  # round 2's absences are not known yet; 7's bye is for round 3
    t.withdraw(IDS[6], excluded=False, reason=None, at=T0)  # registration, once round 2 is published
    assert t.left_out(3) == {6, 7}


def test_the_trf_before_the_round_gives_each_of_them_their_block_and_the_engine_leaves_them_out(
    tmp_path: Path,
) -> None:
    t = event()
    play_round_1(t)
    t.excuse_absence(IDS[8], 1)
    t.request_bye(IDS[3], 2)
    t.request_bye(IDS[1], 2)
    t.take_back_bye(IDS[1], 2)
    doc = trf_document(t, trf2026=False)
    blocks = {seed: record.rounds[1:] for seed, record in doc.players.items()}
    assert blocks == {s: ([NOT_PAIRED] if s in (3, 4, 6) else []) for s in IDS}
    assert engine_pairs(doc, tmp_path) == {1, 2, 5, 7, 8}


def test_a_forfeit_for_another_reason_is_no_absence() -> None:
    """Only a loss at the default time is an absence (a forfeit the arbiter entered is not)."""
    t = event()
    play_round_1(t, reasons={2: "forfeit", 4: "forfeit"})
    assert t.absentees(1) == frozenset() and t.left_out(2) == frozenset()


def test_on_the_platform_only_the_byes_asked_for_and_the_withdrawn() -> None:
    """Absences are `fide-rapid`'s rule (FIDE C.04.2); a `platform` Swiss offering byes leaves out the
    byes asked for, and an excluded player stays in its draw."""
    t = event(fide=False)
    play_round_1(t)
    t.request_bye(IDS[5], 2)
    t.withdraw(IDS[7], excluded=True, reason="cheating", at=T0)
    assert t.left_out(2) == {5}


def test_before_round_1_the_colour_lot_and_the_byes_asked_for_it(tmp_path: Path) -> None:
    """Before round 1 the file has no game to say the colours: ``XXC`` carries pairing's lot (White to
    the top seed when the tournament's id is even), and a bye asked for round 1 its block."""
    for tid, colour in ((uuid.UUID(int=2000), TrfColour.WHITE), (uuid.UUID(int=2001), TrfColour.BLACK)):
        t = event(tid=tid)
        t.request_bye(IDS[2], 1)
        doc = trf_document(t, trf2026=False)
        assert doc.initial_colour is colour
        assert {s for s, r in doc.players.items() if r.rounds} == {2}
        assert engine_pairs(doc, tmp_path) == set(IDS) - {2}  # seven: six on boards, one bye


def test_a_late_entry_not_heard_yet_is_on_its_way() -> None:
    t = event()
    with pytest.raises(PlayerOutstanding):
        t.request_bye(uuid.uuid4(), 2)


def test_once_the_round_is_paired_its_byes_are_the_rounds() -> None:
    """Once the round is paired its byes are the round's (``round.paired``), the request changes nothing."""
    t = event()
    t.request_bye(IDS[8], 1)
    games = [
        AnnouncedGame(uuid.UUID(int=200 + b), b, IDS[w], IDS[k])
        for b, (w, k) in enumerate([(1, 5), (6, 2), (3, 7)], start=1)
    ]
    byes = [AnnouncedBye(IDS[8], ByeKind.ZERO_POINT), AnnouncedBye(IDS[4])]
    t.pair_round(1, system=System.SWISS, total_rounds=4, games=games, byes=byes, at=T0)
    doc = trf_document(t, trf2026=False)
    assert doc.players[8].rounds[0] == NOT_PAIRED and len(doc.players[8].rounds) == 1
