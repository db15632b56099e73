"""Each round's openings drawn when it is paired (RULES.md §2, docs/openings.md), carried by
``round.paired``, on SQLite and on the in-memory fakes."""

from __future__ import annotations

from services.pairing.tests.helpers import deliver, finish, published, started
from shared import events
from shared.games import boards
from shared.openings import OpeningOption, draw_openings, english_table


def play_all(svc, tid) -> list[events.RoundPaired]:
    seen = 0
    while len(rounds := published(svc, "round.paired")) > seen:
        seen = len(rounds)
        for result in finish(rounds[-1]):
            deliver(svc, result, tid)
    return [events.RoundPaired.model_validate(e.payload) for e in published(svc, "round.paired")]


def test_a_draughts_swiss_draws_a_table_opening_per_game_never_twice(service):
    ev = started(8, variant="english", opening="table-all")
    deliver(service, ev, ev.tournament_id)
    paired = play_all(service, ev.tournament_id)
    assert len(paired) == 4  # ceil(log2 8) + 1
    codes = [g.opening.code for rp in paired for g in rp.games]
    assert len(codes) == 16 and len(set(codes)) == 16  # never twice in the tournament
    table = {o.code for o in english_table().openings}
    for rp in paired:
        for g in rp.games:
            assert g.opening.code in table
            line = boards.replay("english", g.opening.moves)  # legal, and where it leads
            assert line.position.fen == g.opening.fen and len(g.opening.moves) == 3


def test_random_moves_come_from_the_generator_and_double_rounds_share_them(service):
    ev = started(6, variant="chess", opening="random-2", double_rounds=True)
    deliver(service, ev, ev.tournament_id)
    paired = play_all(service, ev.tournament_id)
    for rp in paired:
        by_board: dict[int, list[events.PairedGame]] = {}
        for g in rp.games:
            assert g.opening.code is None and len(g.opening.moves) == 2
            assert boards.replay("chess", g.opening.moves).position.fen == g.opening.fen
            by_board.setdefault(g.board, []).append(g)
        for first, second in by_board.values():
            assert first.opening == second.opening  # the same opening, colours swapped
            assert (first.white, first.black) == (second.black, second.white)


def test_the_same_history_draws_the_same_openings(service):
    ev = started(6, variant="international", opening="random-1")
    deliver(service, ev, ev.tournament_id)
    [rp] = [events.RoundPaired.model_validate(e.payload) for e in published(service, "round.paired")]
    again = draw_openings(
        OpeningOption.parse("random-1"),
        boards.variant_of("international"),
        pairings=3,
        seed=f"{ev.tournament_id}:1",
    )
    assert [g.opening.moves for g in rp.games] == [list(o.moves) for o in again]


def test_a_free_tournament_has_no_opening(service):
    ev = started(4)
    deliver(service, ev, ev.tournament_id)
    [rp] = [events.RoundPaired.model_validate(e.payload) for e in published(service, "round.paired")]
    assert all(g.opening is None for g in rp.games)
