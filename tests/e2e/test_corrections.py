"""Results under the arbiter's authority on the real stack (issue 9): a Swiss result corrected after the
next round is paired, and a knockout with a withdrawal in the quarter-finals and a refused correction.
The expected pairings and tables are worked out by hand below; the Swiss's pairings were also run through
the domain's Dutch engine on their own, outside the services, for both initial colours (who meets whom does
not depend on the lot drawn from the tournament id)."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from shared.testing.polling import wait_for
from tests.e2e.story import Account, Story
from tests.e2e.tournaments import field

pytestmark = pytest.mark.e2e


def stored(view: Any) -> Any:
    """A view without the moment it was read (a clock's ``as_of``): what is stored."""
    if isinstance(view, dict):
        return {k: stored(v) for k, v in view.items() if k != "as_of"}
    if isinstance(view, list):
        return [stored(v) for v in view]
    return view


def pairs(games: list[dict[str, Any]], seed: dict[uuid.UUID, int]) -> set[frozenset[int]]:
    return {frozenset(seed[uuid.UUID(g[side]["player_id"])] for side in ("white", "black")) for g in games}


def between(games: list[dict[str, Any]], seed: dict[uuid.UUID, int], a: int, b: int) -> dict[str, Any]:
    return next(g for g in games if pairs([g], seed) == {frozenset((a, b))})


# The Swiss: eight players seeded 1..8, so a `platform` Swiss (threshold 7) of ceil(log2 8) + 1 = 4
# rounds, scored 2/1/0. The lower seed wins every game, except the round-1 draws 2–6 and 4–8.
#   round 1: 1–5, 2–6, 3–7, 4–8 (the top half against the bottom half): 1, 3 win; 2–6, 4–8 drawn
#   round 2 (1: 2; 3: 2; 2, 4, 6, 8: 1; 5, 7: 0): 1–3, 2–8, 4–6, 5–7 → 1, 2, 4, 5 win (4 beats 6)
#   round 3 is paired on 1: 4; 2, 4: 3; 3, 5: 2; 6, 8: 1; 7: 0 → 1–2 (1 floats to the 3s), 3–4 (4 floats
#     to the 2s), 5–6 (5 floats to the 1s), 7–8
#   then the organiser corrects round 2's 4–6 to a draw: 4 and 6 have 2 each. Paired on these scores,
#   round 3 would have been 1–2, 3–6, 4–5, 7–8 (3–5 fails: 4 and 6 met); it stands as paired.
#   round 3: 1, 3, 5, 7 win. Corrected scores: 1: 6; 3, 5: 4; 2: 3; 4, 6, 7: 2; 8: 1
#   round 4: 1 has met 5, 3 and 2, so 1 drops through the 4s and the 3 (with 2) to the 2s: 1–7, 2–4,
#     3–5, 6–8. Without the correction (4: 3, 6: 1) it would have been 1–4, 2–7, 3–5, 6–8.
#   round 4: 1, 2, 3, 6 win.
ROUND_1 = {frozenset(p) for p in ((1, 5), (2, 6), (3, 7), (4, 8))}
ROUND_2 = {frozenset(p) for p in ((1, 3), (2, 8), (4, 6), (5, 7))}
ROUND_3 = {frozenset(p) for p in ((1, 2), (3, 4), (5, 6), (7, 8))}
ROUND_4 = {frozenset(p) for p in ((1, 7), (2, 4), (3, 5), (6, 8))}
ROUND_4_UNCORRECTED = {frozenset(p) for p in ((1, 4), (2, 7), (3, 5), (6, 8))}
# The final table. Results (opponent, points):
#   1: 5 2, 3 2, 2 2, 7 2 → 8      2: 6 1, 8 2, 1 0, 4 2 → 5     3: 7 2, 1 0, 4 2, 5 2 → 6
#   4: 8 1, 6 1, 3 0, 2 0 → 2      5: 1 0, 7 2, 6 2, 3 0 → 4     6: 2 1, 4 1, 5 0, 8 2 → 4
#   7: 3 0, 5 0, 8 2, 1 0 → 2      8: 4 1, 2 0, 7 0, 6 0 → 1
# BH (opponents' points) less the lowest (BH-C1):
#   1: 4+6+5+2 = 17 − 2 = 15    2: 4+1+8+2 = 15 − 1 = 14    3: 2+8+2+4 = 16 − 2 = 14
#   4: 1+4+6+5 = 16 − 1 = 15    5: 8+2+4+6 = 20 − 2 = 18    6: 5+2+4+1 = 12 − 1 = 11
#   7: 6+4+1+8 = 19 − 1 = 18    8: 2+5+2+4 = 13 − 2 = 11
# SB (RULES.md §2: the beaten opponents' points plus half the drawn opponents'):
#   1: 4 + 6 + 5 + 2 = 17           2: ½·4 + 1 + 2 = 5        3: 2 + 2 + 4 = 8           4: ½·1 + ½·4 = 2½
#   5: 2 + 4 = 6                    6: ½·5 + ½·2 + 1 = 4½     7: 1                       8: ½·2 = 1
# Order: points, then BH-C1 (5 before 6 on 18 v 11, 7 before 4 on 18 v 15), SB, WIN.
TABLE = [
    # (rank, seed, points, BH-C1, SB, WIN)
    (1, 1, 8, 15, 17, 4),
    (2, 3, 6, 14, 8, 3),
    (3, 2, 5, 14, 5, 2),
    (4, 5, 4, 18, 6, 2),
    (5, 6, 4, 11, 4.5, 1),
    (6, 7, 2, 18, 1, 1),
    (7, 4, 2, 15, 2.5, 0),
    (8, 8, 1, 11, 1, 0),
]


def swiss_outcome(white: int, black: int, round_no: int) -> str:
    if round_no == 1 and {white, black} in ({2, 6}, {4, 8}):
        return "1/2-1/2"
    return "1-0" if white < black else "0-1"


def play(story: Story, games: list[dict[str, Any]], seed: dict[uuid.UUID, int], by_id, round_no: int) -> None:
    for game in games:
        white, black = (seed[uuid.UUID(game[side]["player_id"])] for side in ("white", "black"))
        story.concede(game, swiss_outcome(white, black, round_no), by_id)


def correct(story: Story, game: dict[str, Any], outcome: str, by: Account, expect: int = 200) -> Any:
    body = {"outcome": outcome, "reason": "the arbiter's scoresheet says otherwise"}
    return story.call("pairing", "POST", f"/games/{game['id']}/correction", body, by.token, expect=expect)


def test_a_swiss_result_corrected_after_the_next_round_is_paired(story: Story):
    organiser = story.register("Organiser Swiss correction")
    players = field(story, 8, "Fix ")
    seed = {p.id: i for i, p in enumerate(players, start=1)}
    by_id = {p.id: p for p in players}
    tid = story.create_tournament(organiser, start_in=2, threshold=7)
    for p in players:
        story.join(p, tid)
    story.wait_status(tid, "started")
    for round_no, expected in ((1, ROUND_1), (2, ROUND_2)):
        games = story.wait_games(tid, round_no, 4)
        assert pairs(games, seed) == expected, round_no
        play(story, games, seed, by_id, round_no)
    assert story.pairing(tid)["system"] == "swiss" and story.pairing(tid)["total_rounds"] == 4
    round_3 = story.wait_games(tid, 3, 4)
    assert pairs(round_3, seed) == ROUND_3

    paired_3 = story.pairing(tid)["rounds"][2]
    four_six = between(story.games(tid, 2), seed, 4, 6)
    assert four_six["result"]["outcome"] == (
        "1-0" if seed[uuid.UUID(four_six["white"]["player_id"])] == 4 else "0-1"
    )
    corrected = correct(story, four_six, "1/2-1/2", organiser)
    assert (corrected["round"], corrected["old_outcome"], corrected["outcome"]) == (
        2,
        four_six["result"]["outcome"],
        "1/2-1/2",
    )
    # round 3's pairing stands: the same games, in pairing and in the clocks
    assert {g["id"] for g in story.games(tid, 3)} == {g["id"] for g in round_3}
    assert story.pairing(tid)["rounds"][2] == paired_3
    # the clocks show the corrected result with its mark, and so do the standings
    wait_for(
        lambda: (
            (r := between(story.games(tid, 2), seed, 4, 6)["result"])["corrected"]
            and r["outcome"] == "1/2-1/2"
        ),
        timeout=30,
        what="the clocks to show the correction",
    )
    standings_round = wait_for(
        lambda: (
            (r := story.call("standings", "GET", f"/tournaments/{tid}/rounds/2"))
            and any(g["corrected"] for g in r["games"])
            and r
        ),
        timeout=30,
        what="the standings to show the correction",
    )
    marked = [g for g in standings_round["games"] if g["corrected"]]
    assert [(g["old_outcome"], g["outcome"]) for g in marked] == [(four_six["result"]["outcome"], "1/2-1/2")]

    play(story, round_3, seed, by_id, 3)
    round_4 = story.wait_games(tid, 4, 4)
    assert pairs(round_4, seed) == ROUND_4 != ROUND_4_UNCORRECTED
    play(story, round_4, seed, by_id, 4)
    final = story.wait_final(tid)
    assert [
        (
            r["rank"],
            r["seed"],
            r["points"],
            r["tiebreaks"]["BH-C1"],
            r["tiebreaks"]["SB"],
            r["tiebreaks"]["WIN"],
        )
        for r in final["rows"]
    ] == TABLE


# The knockout: eight players seeded 1..8, one game a match, no third-place match. Quarter-finals (round 1):
# 1–8, 4–5, 2–7, 3–6. 6 is withdrawn before any result: their game ends by forfeit and 3 goes through. 4
# beats 5, and 4 is withdrawn while the other quarter-finals are still on: with no current match, 4 loses
# the semi-final when it is paired (the forfeit chain, RULES.md §4). 1 and 2 win. Semi-finals: 1–4 (a
# forfeit win for 1), 2–3: 3 wins. Then a correction of 2–7 that would put 7 through is refused: 2's
# semi-final has a result (409 naming both matches), and nothing changes. Final 1–3: 1 wins.
# Placing: 1 (seed 1), 2 (seed 3), 3–4 (seeds 2, 4: the semi-finals' losers, no third-place match),
# 5–8 (seeds 5–8).
KO_PLACING = [("1", 1), ("2", 3), ("3–4", 2), ("3–4", 4), ("5–8", 5), ("5–8", 6), ("5–8", 7), ("5–8", 8)]


def ko_games(
    story: Story, tid: uuid.UUID, round_no: int, organiser: Account, count: int
) -> list[dict[str, Any]]:
    return wait_for(
        lambda: len(g := story.round_games(tid, round_no, organiser.token)) == count and g,
        timeout=30,
        what=f"{count} games of round {round_no}",
    )


def finished(story: Story, tid: uuid.UUID, round_no: int, organiser: Account, seed, a: int, b: int):
    return wait_for(
        lambda: (
            (g := between(story.round_games(tid, round_no, organiser.token), seed, a, b))["status"]
            == "finished"
            and g
        ),
        timeout=30,
        what=f"the game {a}–{b} to end",
    )


def win(story: Story, game: dict[str, Any], winner: int, seed, organiser: Account) -> None:
    white = seed[uuid.UUID(game["white"]["player_id"])]
    story.report_result(game, "1-0" if white == winner else "0-1", organiser)


def test_a_knockout_with_a_withdrawal_in_the_quarter_finals_and_a_refused_correction(story: Story):
    organiser = story.register("Organiser KO withdrawal")
    players = [story.register(f"KOW {i}", 2400 - 10 * i) for i in range(1, 9)]
    seed = {p.id: i for i, p in enumerate(players, start=1)}
    tid = story.create_knockout(organiser, games_per_match=1, name="e2e knockout withdrawal")
    for p in players:
        story.add_player(tid, organiser, p)
    story.start_knockout(tid, organiser)
    story.paired_round(tid, 1, organiser.token)
    story.publish(tid, 1, organiser)
    quarter = ko_games(story, tid, 1, organiser, 4)
    assert pairs(quarter, seed) == {frozenset(p) for p in ((1, 8), (4, 5), (2, 7), (3, 6))}

    def withdraw(player: int, reason: str) -> dict[str, Any]:
        body = {"player_id": str(players[player - 1].id), "reason": reason}
        return story.call(
            "registration", "POST", f"/tournaments/{tid}/withdrawals", body, organiser.token, expect=201
        )

    entry = next(e for e in withdraw(6, "fell ill")["entries"] if e["player_id"] == str(players[5].id))
    assert entry["status"] == "withdrawn"
    forfeited = finished(story, tid, 1, organiser, seed, 3, 6)
    three_white = seed[uuid.UUID(forfeited["white"]["player_id"])] == 3
    assert (forfeited["result"]["outcome"], forfeited["result"]["reason"]) == (
        "+/-" if three_white else "-/+",
        "withdrawal",
    )
    win(story, between(quarter, seed, 4, 5), 4, seed, organiser)
    finished(story, tid, 1, organiser, seed, 4, 5)
    withdraw(4, "had to leave")  # 4 has no current match: the semi-final is lost when it is paired
    win(story, between(quarter, seed, 1, 8), 1, seed, organiser)
    win(story, between(quarter, seed, 2, 7), 2, seed, organiser)

    story.paired_round(tid, 2, organiser.token)
    story.publish(tid, 2, organiser)
    semi = ko_games(story, tid, 2, organiser, 2)
    assert pairs(semi, seed) == {frozenset((1, 4)), frozenset((2, 3))}
    one_four = finished(story, tid, 2, organiser, seed, 1, 4)
    assert one_four["result"]["reason"] == "withdrawal"
    assert one_four["result"]["outcome"] == (
        "+/-" if seed[uuid.UUID(one_four["white"]["player_id"])] == 1 else "-/+"
    )
    win(story, between(semi, seed, 2, 3), 3, seed, organiser)
    finished(story, tid, 2, organiser, seed, 2, 3)

    story.paired_round(tid, 3, organiser.token)  # the final: everything the semi-finals cause is done
    wait_for(lambda: 3 in story.bracket(tid)["unpublished"], timeout=30, what="the final in standings")
    # 2–7 corrected to a win for 7 would change who went through: 2's semi-final has a result
    two_seven = between(story.round_games(tid, 1, organiser.token), seed, 2, 7)
    two_white = seed[uuid.UUID(two_seven["white"]["player_id"])] == 2
    before = stored(
        [story.pairing(tid), story.bracket(tid), story.round_games(tid, 1), story.round_games(tid, 2)]
    )
    refused = correct(story, two_seven, "0-1" if two_white else "1-0", organiser, expect=409)
    assert refused["type"] == "/problems/correction-changes-advancement"
    assert refused["match_id"] == two_seven["match_id"] and refused["match_id"] in refused["detail"]
    assert refused["next_match_id"] == between(semi, seed, 2, 3)["match_id"]
    assert refused["next_match_id"] in refused["detail"]
    after = stored(
        [story.pairing(tid), story.bracket(tid), story.round_games(tid, 1), story.round_games(tid, 2)]
    )
    assert after == before  # nothing changed anywhere

    story.publish(tid, 3, organiser)
    (final_game,) = ko_games(story, tid, 3, organiser, 1)
    assert pairs([final_game], seed) == {frozenset((1, 3))}
    win(story, final_game, 1, seed, organiser)
    story.wait_status(tid, "completed", timeout=60)
    bracket = wait_for(
        lambda: (b := story.bracket(tid))["completed"] and b, timeout=30, what="the final bracket"
    )
    assert [(p["place"], p["seed"]) for p in bracket["placing"]] == KO_PLACING
    assert {p["seed"]: p["status"] for p in bracket["placing"]} == {
        1: None,
        2: None,
        3: None,
        4: "withdrawn",
        5: None,
        6: "withdrawn",
        7: None,
        8: None,
    }
