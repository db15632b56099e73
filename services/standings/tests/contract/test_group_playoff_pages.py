"""The group-playoff pages repository's contract (``GroupPlayoffPages``: an event's page as one
document), on SQL (SQLite, PostgreSQL) and in memory: what is stored reads back, nothing of it goes on the
bus, and a change is kept only with its unit of work (commit, rollback, a failed savepoint)."""

from __future__ import annotations

import uuid

import pytest

from services.standings.domain.group_playoff_page import (
    Announcement,
    GameFacts,
    GameResult,
    GroupPlayoffPage,
    MatchFacts,
    PagePlayer,
    PageWithdrawal,
)
from services.standings.tests.contract.conftest import LATER, NOW, Backend
from shared.group_playoff import MatchKind
from shared.scoring import Outcome


def a_page() -> GroupPlayoffPage:
    players = tuple(PagePlayer(str(uuid.uuid4()), seed, f"P{seed}", 2000 - seed) for seed in range(1, 9))
    return GroupPlayoffPage(uuid.uuid4(), "Candidates", NOW, players, lot_seed="7")


def a_game(page: GroupPlayoffPage) -> GameFacts:
    a, b = page.players[0].player_id, page.players[1].player_id
    match = MatchFacts(MatchKind.GROUP, "I", f"group:{a}:{b}", (a, b))
    return GameFacts(str(uuid.uuid4()), a, b, "Game 1", match, a)


class TestGroupPlayoffPages:
    def test_a_page_reads_back_through_every_change(self, backend: Backend) -> None:
        page = a_page()
        with backend.uow() as uow:
            assert uow.group_playoffs.get(page.id) is None
            uow.group_playoffs.add(page)
            assert list(uow.group_playoffs.seen) == [page]
            uow.commit()
        game = a_game(page)
        with backend.uow() as uow:
            found = uow.group_playoffs.get(page.id, lock=True)
            assert found is not None and found is not page and found == page
            assert found.announce(Announcement("groups", NOW, phase=1, group="I", players=game.match.players))
            assert found.pair([game])
            assert found.record_result(game.game_id, GameResult(Outcome.WHITE_WIN, "resignation", LATER))
            assert found.withdraw(game.black, PageWithdrawal(False, "ill", LATER))
            uow.group_playoffs.save(found)
            uow.commit()
        with backend.uow() as uow:
            again = uow.group_playoffs.get(page.id)
            assert again is not None and again == found and again.to_dict() == found.to_dict()
            assert not again.record_result(game.game_id, GameResult(Outcome.DRAW, "agreement", LATER))
        assert backend.published() == []

    def test_nothing_is_kept_without_commit_or_after_a_rollback(self, backend: Backend) -> None:
        kept, never = a_page(), a_page()
        with backend.uow() as uow:
            uow.group_playoffs.add(kept)
            uow.commit()
        with backend.uow() as uow:  # not committed
            uow.group_playoffs.add(never)
        with backend.uow() as uow:  # rolled back
            found = uow.group_playoffs.get(kept.id, lock=True)
            assert found is not None and found.pair([a_game(found)])
            assert found.complete(LATER, [(p.player_id, p.seed) for p in found.players])
            uow.group_playoffs.save(found)
            uow.rollback()
        with backend.uow() as uow:
            assert uow.group_playoffs.get(never.id) is None
            again = uow.group_playoffs.get(kept.id)
        assert again is not None and again == kept

    def test_a_failed_savepoint_takes_its_writes_with_it(self, backend: Backend) -> None:
        page, lost = a_page(), a_page()
        with backend.uow() as uow:
            with uow.savepoint():
                uow.group_playoffs.add(page)
            with pytest.raises(RuntimeError), uow.savepoint():
                found = uow.group_playoffs.get(page.id, lock=True)
                assert found is not None and found.pair([a_game(found)])
                uow.group_playoffs.save(found)
                uow.group_playoffs.add(lost)
                raise RuntimeError("the handler failed")
            uow.commit()
        with backend.uow() as uow:
            assert uow.group_playoffs.get(lost.id) is None
            again = uow.group_playoffs.get(page.id)
        assert again is not None and again == page
