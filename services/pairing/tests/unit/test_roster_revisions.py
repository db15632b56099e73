"""Causal commands (issue 25): registration numbers each roster change (its roster revision); pairing keeps
what it has heard of each tournament's roster, in the unit of work that applied the change, on SQLite and
on the fakes alike; ``pair`` and ``preview`` named a revision not heard yet answer 409 ``not-yet-heard``
with ``Retry-After`` and change nothing, and go through once the change is heard."""

from __future__ import annotations

import uuid

from services.pairing.tests.arena_helpers import arena_started
from services.pairing.tests.helpers import Api, appointed, deliver, fide_started, token, withdrawn
from shared import events


def revised(event: events.Event, revision: int) -> events.Event:
    """``event`` as registration publishes it: with the roster revision it produced."""
    return event.model_copy(update={"roster_revision": revision})


def late_entry(s: events.TournamentStarted, revision: int, from_round: int = 1) -> events.PlayerJoined:
    return events.PlayerJoined(
        tournament_id=s.tournament_id,
        player_id=uuid.uuid4(),
        name="Latecomer",
        rating=2105,
        late=True,
        from_round=from_round,
        roster_revision=revision,
    )


def heard(service, tid: uuid.UUID) -> tuple[int, frozenset[int]] | None:
    with service.uow() as uow:
        found = uow.rosters.get(tid)
    return None if found is None else (found.revision, found.ahead)


def seated(listing: dict) -> set[str]:
    return {b[side]["player_id"] for b in listing["boards"] for side in ("white", "black")}


# -- what the consumer keeps (SQLite and the fakes) ----------------------------------------------------
def test_the_consumer_keeps_the_revisions_it_applied_in_any_order(service) -> None:
    s = fide_started(8)
    tid = s.tournament_id
    early = withdrawn(s, s.roster[0].player_id)
    deliver(service, revised(early, 10), tid)  # before the start: it waits (parked), nothing heard
    assert heard(service, tid) is None
    deliver(service, revised(s, 9), tid)  # then the start, and the withdrawal again after it
    assert heard(service, tid) == (10, frozenset())
    deliver(service, late_entry(s, 12), tid)  # 12 before 11 (another queue)
    assert heard(service, tid) == (10, frozenset({12}))
    deliver(service, revised(withdrawn(s, s.roster[1].player_id), 11), tid)
    assert heard(service, tid) == (12, frozenset())
    deliver(service, withdrawn(s, s.roster[2].player_id), tid)  # an older producer's: numbers nothing
    assert heard(service, tid) == (12, frozenset())
    deliver(service, appointed(s, uuid.uuid4()), tid)  # an appointment is not a roster change
    assert heard(service, tid) == (12, frozenset())


def test_an_arenas_start_and_entries_are_heard_on_its_queue(service) -> None:
    s = arena_started(4)
    tid = s.tournament_id
    newcomer = uuid.uuid4()
    joined = events.PlayerJoined(
        tournament_id=tid, player_id=newcomer, name="New", rating=1900, roster_revision=6
    )
    paused = events.PlayerPaused(tournament_id=tid, player_id=newcomer, roster_revision=7)
    deliver(service, revised(s, 5), tid)
    deliver(service, paused, tid)
    assert heard(service, tid) == (5, frozenset({7}))
    deliver(service, joined, tid)
    assert heard(service, tid) == (7, frozenset())
    deliver(service, revised(withdrawn(s, s.roster[0].player_id), 8), tid)
    assert heard(service, tid) == (8, frozenset())


# -- pair and preview over HTTP ----------------------------------------------------------------------------
def test_a_pairing_after_a_roster_change_waits_until_pairing_has_heard_it(svc, api: Api) -> None:
    s = revised(fide_started(8), 9)  # eight entries, then the start: revision 9
    tid = s.tournament_id
    base = f"/tournaments/{tid}/rounds"
    arbiter = uuid.uuid4()
    # a tournament pairing has not heard of, named with the start's revision: not yet heard, not unknown
    refused = api.refused(409, "not-yet-heard", "GET", f"{base}/1/preview?roster_revision=9")
    assert (refused["roster_revision"], refused["heard_revision"]) == (9, 0)
    api.refused(404, "tournament-not-found", "GET", f"{base}/1/preview")
    deliver(svc, s, tid)
    deliver(svc, appointed(s, arbiter), tid)
    officials = token(arbiter)
    preview = api.ok(200, "GET", f"{base}/1/preview?roster_revision=9")
    assert preview["roster_revision"] == 9 and len(preview["present"]) == 8

    # the arbiter withdraws a player (revision 10) and enters a late one (11); pairing hears the late
    # entry first and the withdrawal is still on its way
    gone = s.roster[2].player_id
    late = late_entry(s, 11)
    deliver(svc, late, tid)
    for method, path in (
        ("POST", f"{base}/1/pair?roster_revision=10"),
        ("GET", f"{base}/1/preview?roster_revision=11"),
    ):
        problem = api.refused(409, "not-yet-heard", method, path, officials)
        assert (problem["roster_revision"], problem["heard_revision"]) in ((10, 9), (11, 9))
        assert "not yet" in problem["detail"]
        response = api.call(method, path, officials)
        assert response.headers["Retry-After"] == "1"
    assert api.ok(200, "GET", f"{base}/1/preview?roster_revision=9")["roster_revision"] == 9

    deliver(svc, revised(withdrawn(s, gone), 10), tid)
    preview = api.ok(200, "GET", f"{base}/1/preview?roster_revision=11")
    assert preview["roster_revision"] == 11
    assert [p["player_id"] for p in preview["withdrawn"]] == [str(gone)]
    response = api.call("POST", f"{base}/1/pair?roster_revision=10", officials)
    assert response.status_code == 201, response.json
    listing = response.json
    assert listing["roster_revision"] == 11 and response.headers["Roster-Revision"] == "11"
    assert str(gone) not in seated(listing) and str(late.player_id) in seated(listing)
    assert len(listing["boards"]) == 4
    assert api.ok(200, "GET", f"{base}/1/pairings", officials)["roster_revision"] is None


def test_a_revision_is_checked_before_who_asks(svc, api: Api) -> None:
    """Who may pair is also news from registration (an appointment): a pairing named with a revision not
    heard yet is 409, whoever asks, and 403 only once it is heard."""
    s = revised(fide_started(4), 5)
    tid = s.tournament_id
    deliver(svc, s, tid)
    stranger = token(uuid.uuid4())
    api.refused(409, "not-yet-heard", "POST", f"/tournaments/{tid}/rounds/1/pair?roster_revision=6", stranger)
    api.refused(
        403, "not-an-arbiter-here", "POST", f"/tournaments/{tid}/rounds/1/pair?roster_revision=5", stranger
    )
    api.refused(
        422, "validation-error", "POST", f"/tournaments/{tid}/rounds/1/pair?roster_revision=0", stranger
    )
