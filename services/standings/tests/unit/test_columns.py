"""The JSON columns: the snapshot the web serves as it is, a knockout's format settings and placing.
The domain keeps them as frozen dataclasses; the JSON stored (and so served) has its shape of old,
and reads back to the same values."""

from __future__ import annotations

import json
import uuid

from services.standings.adapters import columns
from services.standings.domain.bracket import BracketPlace, KnockoutFormat
from services.standings.domain.history import Edition
from services.standings.domain.rounds import RoundProgress, RoundStatus
from services.standings.domain.snapshot import Snapshot, SnapshotRow, SnapshotTable
from services.standings.domain.withdrawals import PlayerStatus
from services.standings.tests.helpers import double_rounds_swiss, six_player_knockout, snapshot
from shared.time_control import RateOfPlay
from shared.vocabulary import BracketFormat, Seeding

ANN = uuid.UUID("00000000-0000-4000-8000-000000000001")
BOB = uuid.UUID("00000000-0000-4000-8000-000000000002")

SNAPSHOT = Snapshot(
    after_round=1,
    games_counted=3,
    rounds=(RoundProgress(1, RoundStatus.FINISHED, 2, 2), RoundProgress(2, RoundStatus.PLAYING, 2, 1)),
    table=SnapshotTable(
        edition=Edition.E2026,
        tiebreaks=("BH-C1", "ARO"),
        shown=("BH",),
        rows=(
            SnapshotRow(1, 1, 2, BOB, "Bob", None, 3, {"BH-C1": 2.5, "ARO": None}, {"BH": 4}),
            SnapshotRow(1, 2, 1, ANN, "Ann", 2100, 3, {"BH-C1": 2.5, "ARO": 1933.3333333333333}, {"BH": 4}),
        ),
    ),
)

SNAPSHOT_JSON = {
    "after_round": 1,
    "games_counted": 3,
    "rounds": [
        {"number": 1, "status": "finished", "games": 2, "finished": 2},
        {"number": 2, "status": "playing", "games": 2, "finished": 1},
    ],
    "table": {
        "edition": "2026",
        "tiebreaks": ["BH-C1", "ARO"],
        "shown": ["BH"],
        "rows": [
            {
                "rank": 1,
                "place": 1,
                "seed": 2,
                "player_id": str(BOB),
                "name": "Bob",
                "rating": None,
                "points": 3,
                "tiebreaks": {"BH-C1": 2.5, "ARO": None},
                "shown": {"BH": 4},
            },
            {
                "rank": 1,
                "place": 2,
                "seed": 1,
                "player_id": str(ANN),
                "name": "Ann",
                "rating": 2100,
                "points": 3,
                "tiebreaks": {"BH-C1": 2.5, "ARO": 1933.3333333333333},
                "shown": {"BH": 4},
            },
        ],
    },
}


def test_the_snapshot_is_stored_in_its_shape_of_old_and_reads_back():
    stored = columns.snapshot_json(SNAPSHOT)
    assert stored == SNAPSHOT_JSON
    assert list(stored) == ["after_round", "games_counted", "rounds", "table"]
    assert list(stored["table"]["rows"][0]) == [
        "rank", "place", "seed", "player_id", "name", "rating", "points", "tiebreaks", "shown"
    ]  # fmt: skip
    through_text = json.loads(json.dumps(stored))  # as the database gives it back
    assert columns.snapshot_of(through_text) == SNAPSHOT
    assert columns.snapshot_json(columns.snapshot_of(through_text)) == through_text
    assert isinstance(columns.snapshot_of(through_text).table.rows[0].points, int)  # ints stay ints


def test_a_snapshot_without_a_table():
    empty = Snapshot(0, 0, (), None)
    assert columns.snapshot_json(empty) == {"after_round": 0, "games_counted": 0, "rounds": [], "table": None}
    assert columns.snapshot_of(columns.snapshot_json(empty)) == empty


def test_a_stored_snapshot_reads_back_to_the_same_json(svc, client):
    story = double_rounds_swiss(svc)
    stored = snapshot(svc, story.id)
    assert columns.snapshot_json(columns.snapshot_of(stored)) == stored
    body = client.get(f"/tournaments/{story.id}/standings").json
    assert {k: body[k] for k in ("after_round", "games_counted", "rounds")} == {
        k: stored[k] for k in ("after_round", "games_counted", "rounds")
    }
    playing = {"status": None, "status_reason": None}  # stored only for a player who left
    playing |= {"title": None, "federation": None, "fide_id": None}  # only where a profile has them
    assert {k: body[k] for k in ("edition", "tiebreaks", "shown", "rows")} == {
        **stored["table"],
        "rows": [{**row, **playing} for row in stored["table"]["rows"]],
    }


def test_a_withdrawn_player_and_a_group_table_read_back():
    row = SnapshotRow(3, 3, 4, ANN, "Ann", 2100, 0, {"BP": 0, "MP-T": None, "BP-T": None}, {})
    withdrawn = SnapshotRow(
        3, 3, 4, ANN, "Ann", 2100, 0, {"BP": 0, "MP-T": None, "BP-T": None}, {},
        PlayerStatus.WITHDRAWN, "left for home",
    )  # fmt: skip
    group = Snapshot(1, 2, (), SnapshotTable(None, ("BP", "MP-T", "BP-T"), (), (withdrawn,)))
    stored = columns.snapshot_json(group)
    assert stored["table"]["edition"] is None
    assert stored["table"]["rows"][0]["status"] == "withdrawn"
    assert stored["table"]["rows"][0]["status_reason"] == "left for home"
    assert columns.snapshot_of(json.loads(json.dumps(stored))) == group
    assert (
        "status"
        not in columns.snapshot_json(Snapshot(1, 2, (), SnapshotTable(None, (), (), (row,))))["table"][
            "rows"
        ][0]
    )


def test_a_knockouts_format_and_placing_read_back():
    fmt = KnockoutFormat(
        format=BracketFormat.DOUBLE_KNOCKOUT,
        games_per_match=2,
        seeding=Seeding.RANDOM,
        draw_seed=7,
        third_place=False,
        second_final=True,
        stages=((2, RateOfPlay(900, 10)), (1, RateOfPlay(300, 3))),
        sudden_death=RateOfPlay(180, 2),
    )
    stored = columns.knockout_json(fmt)
    assert stored == {
        "format": "double_knockout",
        "games_per_match": 2,
        "seeding": "random",
        "draw_seed": 7,
        "third_place": False,
        "second_final": True,
        "stages": [
            {"games": 2, "base_seconds": 900, "increment_seconds": 10},
            {"games": 1, "base_seconds": 300, "increment_seconds": 3},
        ],
        "sudden_death": {"base_seconds": 180, "increment_seconds": 2},
    }
    assert columns.knockout_of(json.loads(json.dumps(stored))) == fmt
    placing = [BracketPlace(1, 1, (1, 1), 3), BracketPlace(4, 5, (5, 6), 0)]
    assert columns.placing_json(placing) == [
        {"seed": 1, "rank": 1, "places": [1, 1], "matches_won": 3},
        {"seed": 4, "rank": 5, "places": [5, 6], "matches_won": 0},
    ]
    assert columns.placing_of(json.loads(json.dumps(columns.placing_json(placing)))) == placing


def test_a_stored_knockout_reads_back(svc):
    story = six_player_knockout(svc)
    t = svc.views.tournament(story.id)
    assert t is not None and t.info.knockout is not None
    assert t.info.knockout.plan_label() == "2 games 15+10, 2 games 5+3, then sudden death 3+2"
    assert [(p.seed, p.rank, p.places, p.matches_won) for p in t.placing or []][:2] == [
        (1, 1, (1, 1), 2),
        (3, 2, (2, 2), 2),
    ]
