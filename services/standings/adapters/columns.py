"""The JSON columns of the ``tournaments`` table, to and from the domain's values: the snapshot the
web serves as it is, the time control, a knockout's format settings and its final placing.

The snapshot's JSON is what the API has always answered from, and must not change shape::

    {"after_round", "games_counted", "rounds": [{"number", "status", "games", "finished"}],
     "table": null | {"edition" (null: a group-playoff table), "tiebreaks": [codes], "shown": [codes],
                      "rows": [{"rank", "place", "seed", "player_id", "name", "rating", "points",
                                "tiebreaks": {code: value}, "shown": {code: value},
                                "status"?, "status_reason"?, "title"?, "federation"?, "fide_id"?}]}}

``status`` (``withdrawn``, ``excluded``) and ``status_reason`` are written only for a player who
left; a snapshot stored before they existed reads as everyone playing. ``title``, ``federation`` and
``fide_id`` (a `fide-rapid` player's profile) only where known.

Besides: the time control, a knockout's format, its placing, a `fide-rapid` event's settings
(``fide``) and a player's profile (``players.profile``).
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from services.standings.domain.bracket import BracketPlace, KnockoutFormat
from services.standings.domain.history import Edition
from services.standings.domain.rounds import Profile, RoundStatus
from services.standings.domain.snapshot import RoundProgress, Snapshot, SnapshotRow, SnapshotTable
from services.standings.domain.tournament_info import FideInfo
from services.standings.domain.withdrawals import PlayerStatus
from shared.time_control import RateOfPlay
from shared.vocabulary import BracketFormat, ByeKind, Seeding, System

Json = dict[str, Any]

# -- the snapshot -------------------------------------------------------------------------------------


def snapshot_json(s: Snapshot) -> Json:
    return {
        "after_round": s.after_round,
        "games_counted": s.games_counted,
        "rounds": [
            {"number": r.number, "status": r.status.value, "games": r.games, "finished": r.finished}
            for r in s.rounds
        ],
        "table": None if s.table is None else _table_json(s.table),
    }


def _table_json(t: SnapshotTable) -> Json:
    return {
        "edition": None if t.edition is None else t.edition.value,
        "tiebreaks": list(t.tiebreaks),
        "shown": list(t.shown),
        "rows": [_row_json(row) for row in t.rows],
    }


def _row_json(row: SnapshotRow) -> Json:
    out: Json = {
        "rank": row.rank,
        "place": row.place,
        "seed": row.seed,
        "player_id": str(row.player_id),
        "name": row.name,
        "rating": row.rating,
        "points": row.points,
        "tiebreaks": dict(row.tiebreaks),
        "shown": dict(row.shown),
    }
    if row.status is not None:
        out["status"] = row.status.value
        out["status_reason"] = row.status_reason
    for key in ("title", "federation", "fide_id"):
        if getattr(row, key) is not None:
            out[key] = getattr(row, key)
    return out


def snapshot_of(data: Mapping[str, Any]) -> Snapshot:
    table = data["table"]
    return Snapshot(
        after_round=data["after_round"],
        games_counted=data["games_counted"],
        rounds=tuple(
            RoundProgress(r["number"], RoundStatus(r["status"]), r["games"], r["finished"])
            for r in data["rounds"]
        ),
        table=None if table is None else _table_of(table),
    )


def _table_of(data: Mapping[str, Any]) -> SnapshotTable:
    return SnapshotTable(
        edition=None if data["edition"] is None else Edition(data["edition"]),
        tiebreaks=tuple(data["tiebreaks"]),
        shown=tuple(data["shown"]),
        rows=tuple(
            SnapshotRow(
                rank=row["rank"],
                place=row["place"],
                seed=row["seed"],
                player_id=uuid.UUID(row["player_id"]),
                name=row["name"],
                rating=row["rating"],
                points=row["points"],
                tiebreaks=dict(row["tiebreaks"]),
                shown=dict(row["shown"]),
                status=None if row.get("status") is None else PlayerStatus(row["status"]),
                status_reason=row.get("status_reason"),
                title=row.get("title"),
                federation=row.get("federation"),
                fide_id=row.get("fide_id"),
            )
            for row in data["rows"]
        ),
    )


# -- what a tournament is --------------------------------------------------------------------------------


def time_control_json(tc: RateOfPlay) -> Json:
    return {
        "base_seconds": tc.base_seconds,
        "increment_seconds": tc.increment_seconds,
        "days_per_move": tc.days_per_move,
    }


def time_control_of(data: Mapping[str, Any]) -> RateOfPlay:
    return RateOfPlay(**data)


def knockout_json(fmt: KnockoutFormat) -> Json:
    return {
        "format": fmt.format.value,
        "games_per_match": fmt.games_per_match,
        "seeding": fmt.seeding.value,
        "draw_seed": fmt.draw_seed,
        "third_place": fmt.third_place,
        "second_final": fmt.second_final,
        "stages": [
            {"games": games, "base_seconds": c.base_seconds, "increment_seconds": c.increment_seconds}
            for games, c in fmt.stages
        ],
        "sudden_death": {
            "base_seconds": fmt.sudden_death.base_seconds,
            "increment_seconds": fmt.sudden_death.increment_seconds,
        },
    }


def knockout_of(data: Mapping[str, Any]) -> KnockoutFormat:
    return KnockoutFormat(
        format=BracketFormat(data["format"]),
        games_per_match=data["games_per_match"],
        seeding=Seeding(data["seeding"]),
        draw_seed=data.get("draw_seed"),
        third_place=data["third_place"],
        second_final=data["second_final"],
        stages=tuple(
            (s["games"], RateOfPlay(s["base_seconds"], s["increment_seconds"])) for s in data["stages"]
        ),
        sudden_death=RateOfPlay(**data["sudden_death"]),
    )


def placing_json(placing: Sequence[BracketPlace]) -> list[Json]:
    return [
        {"seed": p.seed, "rank": p.rank, "places": list(p.places), "matches_won": p.matches_won}
        for p in placing
    ]


def placing_of(data: Sequence[Mapping[str, Any]]) -> list[BracketPlace]:
    return [
        BracketPlace(p["seed"], p["rank"], (p["places"][0], p["places"][1]), p["matches_won"]) for p in data
    ]


# -- fide-rapid ------------------------------------------------------------------------------------------


def fide_json(f: FideInfo) -> Json:
    return {
        "place": f.place,
        "start_date": None if f.start_date is None else f.start_date.isoformat(),
        "end_date": None if f.end_date is None else f.end_date.isoformat(),
        "rounds": f.rounds,
        "acceleration": f.acceleration,
        "clocks": f.clocks,
        "late_entry_bye": f.late_entry_bye.value,
        "system": None if f.system is None else f.system.value,
        "federation": f.federation,
        "chief_arbiter": f.chief_arbiter,
        "deputy_arbiters": list(f.deputy_arbiters),
    }


def fide_of(data: Mapping[str, Any]) -> FideInfo:
    def day(value: str | None) -> dt.date | None:
        return None if value is None else dt.date.fromisoformat(value)

    return FideInfo(
        place=data["place"],
        start_date=day(data["start_date"]),
        end_date=day(data["end_date"]),
        rounds=data["rounds"],
        acceleration=data["acceleration"],
        clocks=data["clocks"],
        late_entry_bye=ByeKind(data["late_entry_bye"]),
        system=None if data.get("system") is None else System(data["system"]),  # stored before: unknown
        federation=data.get("federation", ""),
        chief_arbiter=data.get("chief_arbiter", ""),
        deputy_arbiters=tuple(data.get("deputy_arbiters", ())),
    )


_PROFILE_FIELDS = ("fide_id", "federation", "title", "sex", "birth_year", "rating_standard", "rating_rapid")


def profile_json(p: Profile) -> Json:
    return {key: getattr(p, key) for key in _PROFILE_FIELDS}


def profile_of(data: Mapping[str, Any]) -> Profile:
    return Profile(**{key: data.get(key) for key in _PROFILE_FIELDS})
