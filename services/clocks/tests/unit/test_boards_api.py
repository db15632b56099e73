"""Games of every variant on the game's board (RULES.md §2): a game starts from its drawn opening, the
side to move there moves first, and a move reported with its text is checked by the variant's move
generator (shared/games/boards.py)."""

from __future__ import annotations

import uuid

from services.clocks.tests.conftest import a_round, announce, token
from shared import events
from shared.games import boards
from shared.openings import OpeningOption, draw_openings, english_table
from shared.variants import Variant


def move(client, game_id, player, text=None):
    body = {} if text is None else {"move": text}
    return client.post(f"/games/{game_id}/moves", json=body, headers=token(player))


def with_opening(variant: Variant, opening) -> tuple:
    pairing = a_round(1)
    paired = pairing.game(1).model_copy(
        update={"opening": events.GameOpening(code=opening.code, moves=list(opening.moves), fen=opening.fen)}
    )
    envelope = events.wrap(
        events.RoundPaired(
            tournament_id=pairing.tournament_id,
            organiser_id=pairing.organiser_id,
            round=1,
            total_rounds=5,
            system="swiss",
            games=[paired],
            time_control=pairing.time_control,
            variant=variant,
        ),
        pairing.tournament_id,
    )
    return envelope, paired


def test_a_chess_game_starts_after_its_random_moves_with_the_side_to_move(client, svc):
    [opening] = draw_openings(OpeningOption.parse("random-1"), Variant.CHESS, pairings=1, seed="t:1")
    envelope, g = with_opening(Variant.CHESS, opening)
    announce(svc, envelope)
    body = client.get(f"/games/{g.game_id}").json
    assert body["variant"] == "chess" and body["opening"]["moves"] == list(opening.moves)
    assert body["opening"]["label"] == opening.moves[0] and body["position"] == opening.fen
    assert body["clock"]["to_move"] == "black"  # one move was played: Black moves first
    assert move(client, g.game_id, g.white).status_code == 409  # not White's turn
    legal = boards.legal_moves(boards.Position(Variant.CHESS, opening.fen))
    r = move(client, g.game_id, g.black, legal[0])
    assert r.status_code == 200, r.json
    body = client.get(f"/games/{g.game_id}").json
    assert body["line"] == [legal[0]] and body["moves"] == 1
    assert body["position"] == boards.play(boards.Position(Variant.CHESS, opening.fen), legal[0]).fen


def test_an_illegal_move_is_a_422_and_presses_no_clock(client, svc):
    pairing = a_round(1)
    announce(svc, pairing)
    g = pairing.game(1)
    r = move(client, g.game_id, g.white, "e5")
    assert r.status_code == 422 and r.json["type"] == "/problems/illegal-move", r.json
    body = client.get(f"/games/{g.game_id}").json
    assert (body["moves"], body["clock"]["to_move"]) == (0, "white")
    assert move(client, g.game_id, g.white, "e2e4").status_code == 200  # UCI is read, SAN is kept
    assert client.get(f"/games/{g.game_id}").json["line"] == ["e4"]


def test_an_english_draughts_game_from_a_ballot_is_checked_by_pydraughts(client, svc):
    ballot = english_table().opening("001")
    line = boards.replay(Variant.ENGLISH, ballot.moves)
    [opening] = draw_openings(OpeningOption.parse("thematic:001"), Variant.ENGLISH, pairings=1, seed="x")
    assert opening.fen == line.position.fen
    envelope, g = with_opening(Variant.ENGLISH, opening)
    announce(svc, envelope)
    body = client.get(f"/games/{g.game_id}").json
    first = "white" if boards.white_to_move(line.position) else "black"
    assert body["variant"] == "english" and body["opening"]["code"] == "001"
    assert body["clock"]["to_move"] == first
    mover = g.white if first == "white" else g.black
    assert move(client, g.game_id, mover, "1-5").json["type"] == "/problems/illegal-move"
    legal = boards.legal_moves(line.position)[0]
    assert move(client, g.game_id, mover, legal).status_code == 200
    assert client.get(f"/games/{g.game_id}").json["line"] == [legal]


def test_someone_not_playing_cannot_move_even_a_legal_move(client, svc):
    pairing = a_round(1)
    announce(svc, pairing)
    r = move(client, pairing.game(1).game_id, uuid.uuid4(), "e4")
    assert r.status_code == 403 and r.json["type"] == "/problems/not-a-player", r.json
