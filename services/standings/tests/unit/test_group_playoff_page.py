"""A group-playoff event's page projected by the standings (pure domain): a group whose three players end
level on (a)-(d) needs its play-off from its last group game until the play-off is played, also while the
play-off's matches are paired and open (issue 22: they were counted as unfinished group matches)."""

from __future__ import annotations

import datetime as dt
import itertools
import uuid

from services.standings.domain.group_playoff_page import (
    Announcement,
    GameFacts,
    GameResult,
    GroupPlayoffPage,
    MatchFacts,
    PagePlayer,
)
from shared.group_playoff import MatchKind, match_key
from shared.scoring import Outcome

AT = dt.datetime(2026, 3, 2, 9, tzinfo=dt.UTC)
GROUP_I, GROUP_II = ("P", "Q", "R", "S"), ("T", "U", "V", "W")
CYCLE = {("P", "Q"): "P", ("Q", "R"): "Q", ("P", "R"): "R"}  # each won 1½-½; everyone beats S 2-0


def page() -> GroupPlayoffPage:
    players = tuple(PagePlayer(p, seed, p, None) for seed, p in enumerate(GROUP_I + GROUP_II, start=1))
    page = GroupPlayoffPage(uuid.uuid4(), "4T1", AT, players)
    for group, members in (("I", GROUP_I), ("II", GROUP_II)):
        page.announce(Announcement("groups", AT, group=group, players=members))
    return page


def pair(page: GroupPlayoffPage, stage: MatchKind, group: str, a: str, b: str) -> list[GameFacts]:
    match = MatchFacts(stage, group, match_key(stage, a, b), (a, b))
    games = [
        GameFacts(f"{match.match}/{n}", *colours, None, match, a)
        for n, colours in enumerate([(a, b), (b, a)])
    ]
    page.pair(games)
    return games


def play(page: GroupPlayoffPage, games: list[GameFacts], winner: str, *, close: bool) -> None:
    """The winner takes the first game and, unless ``close`` (then it is drawn), the second."""
    for n, g in enumerate(games):
        outcome = (
            Outcome.DRAW
            if close and n == 1
            else Outcome.WHITE_WIN
            if g.white == winner
            else Outcome.BLACK_WIN
        )
        page.record_result(g.game_id, GameResult(outcome, "resignation", AT))


def group_games(page: GroupPlayoffPage) -> dict[tuple[str, str], list[GameFacts]]:
    return {
        (a, b): pair(page, MatchKind.GROUP, group, a, b)
        for group, members in (("I", GROUP_I), ("II", GROUP_II))
        for a, b in itertools.combinations(members, 2)
    }


def played_groups(page: GroupPlayoffPage, *, leave: tuple[str, str] | None = None) -> None:
    """Every group game played but the second game of ``leave``'s match: group I as :data:`CYCLE`,
    group II (and S's matches) to the player named first."""
    for (a, b), games in group_games(page).items():
        if (a, b) == leave:
            games = games[:1]
        play(page, games, CYCLE.get((a, b), a), close=(a, b) in CYCLE)


def test_a_tie_after_every_group_game_needs_a_playoff():
    p = page()
    played_groups(p)
    assert p.group_played("I") and p.playoff_needed("I") == {"P", "Q", "R"}
    assert p.playoff_needed("II") == set()


def test_the_playoff_paired_and_open_is_still_needed():
    p = page()
    played_groups(p)
    for a, b in itertools.combinations("PQR", 2):
        pair(p, MatchKind.PLAYOFF, "I", a, b)
    assert p.group_played("I") and p.playoff_needed("I") == {"P", "Q", "R"}


def test_the_playoff_played_needs_nothing_more():
    p = page()
    played_groups(p)
    for a, b in itertools.combinations("PQR", 2):
        play(p, pair(p, MatchKind.PLAYOFF, "I", a, b), a, close=False)  # P, then Q, then R
    assert p.playoff_needed("I") == set()
    assert [r.start for r in p.table("I").rows] == [1, 2, 3, 4]


def test_no_playoff_is_needed_before_the_last_group_game():
    p = page()
    played_groups(p, leave=("P", "Q"))
    assert not p.group_played("I") and p.playoff_needed("I") == set()
