"""The pure rules of a `fide-rapid` event (RULES.md §6, ``domain/fide.py``, ``domain/players.py``): the rapid
time-control range, the settings, the rounds a field plays, the profile's bounds and the starting rank."""

from __future__ import annotations

import datetime as dt

import pytest

from services.registration.domain import errors, fide
from services.registration.domain.fide import FideFormat, PairingSystem
from services.registration.domain.players import (
    KEEP,
    PlayerChange,
    Profile,
    Sex,
    Title,
    in_starting_rank,
    player_name,
    profile,
)
from shared.time_control import RateOfPlay


@pytest.mark.parametrize(
    ("base_minutes", "increment", "minutes"),
    [
        (15, 10, 25),
        (10, 1, 11),  # just above 10 minutes: 10 + 60 × 1 s
        (59, 0, 59),
        (25, 5, 30),
        (45, 14, 59),
        (0, 11, 11),  # increment only
    ],
)
def test_rapid_time_controls_are_taken(base_minutes: int, increment: int, minutes: int) -> None:
    tc = RateOfPlay(base_minutes * 60, increment)
    fide.check_rapid(tc)
    assert tc.base_seconds + 60 * tc.increment_seconds == minutes * 60


@pytest.mark.parametrize(
    ("tc", "minutes"),
    [
        (RateOfPlay(600, 0), "10"),  # exactly 10 minutes: blitz
        (RateOfPlay(300, 5), "10"),  # 5 + 60 × 5 s = 10 minutes
        (RateOfPlay(180, 2), "5"),
        (RateOfPlay(3600, 0), "60"),  # exactly 60 minutes: standard
        (RateOfPlay(3000, 10), "60"),  # 50 + 60 × 10 s
        (RateOfPlay(5400, 30), "120"),
    ],
)
def test_time_controls_outside_fide_rapid_are_refused_naming_the_range(tc: RateOfPlay, minutes: str) -> None:
    with pytest.raises(errors.TimeNotRapid) as refused:
        fide.check_rapid(tc)
    assert refused.value.detail == (
        "FIDE rapid is more than 10 and less than 60 minutes for 60 moves (base + 60 × increment);"
        f" {tc.label()} is {minutes} minutes"
    )
    assert refused.value.slug == "time-control-not-rapid"


def test_correspondence_is_not_rapid() -> None:
    with pytest.raises(errors.TimeNotRapid, match="no days per move"):
        fide.check_rapid(RateOfPlay(0, 0, 3))


@pytest.mark.parametrize(
    ("fmt", "error"),
    [
        (FideFormat(), "a Swiss needs its number of rounds"),
        (FideFormat(rounds=0), "a Swiss has 1–30 rounds, got 0"),
        (FideFormat(rounds=31), "a Swiss has 1–30 rounds, got 31"),
        (FideFormat(rounds=5, system=PairingSystem.ROUND_ROBIN), "leave fide.rounds out"),
        (FideFormat(system=PairingSystem.ROUND_ROBIN, acceleration=True), "Baku acceleration is for a Swiss"),
        (FideFormat(rounds=5, default_time_minutes=61), "the default time is 0–60 minutes, got 61"),
        (FideFormat(rounds=5, default_time_minutes=-1), "the default time is 0–60 minutes, got -1"),
        (FideFormat(rounds=5, place="x" * 101), "the place has at most 100 characters"),
        (FideFormat(rounds=5, end_date=dt.date(2026, 6, 1)), "an end date needs its start date"),
        (
            FideFormat(rounds=5, start_date=dt.date(2026, 6, 2), end_date=dt.date(2026, 6, 1)),
            r"the end date \(2026-06-01\) is before the start date \(2026-06-02\)",
        ),
    ],
)
def test_the_settings_are_validated(fmt: FideFormat, error: str) -> None:
    with pytest.raises(errors.InvalidSettings, match=error):
        fide.validate(fmt)


def test_valid_settings_pass_with_the_place_trimmed() -> None:
    day = dt.date(2026, 6, 6)
    fmt = FideFormat(rounds=30, place="  Bern ", start_date=day, end_date=day, default_time_minutes=0)
    assert fide.validate(fmt) == FideFormat(
        rounds=30, place="Bern", start_date=day, end_date=day, default_time_minutes=0
    )
    rr = FideFormat(system=PairingSystem.ROUND_ROBIN)
    assert fide.validate(rr) == rr


@pytest.mark.parametrize(("players", "rounds"), [(2, 1), (3, 3), (4, 3), (9, 9), (10, 9), (29, 29), (30, 29)])
def test_a_round_robin_plays_berger_rounds(players: int, rounds: int) -> None:
    assert fide.check_field(FideFormat(system=PairingSystem.ROUND_ROBIN), players) == rounds


def test_a_round_robin_holds_at_most_30_players() -> None:
    with pytest.raises(errors.TooManyPlayers, match="31 players takes 31 rounds, more than 30"):
        fide.check_field(FideFormat(system=PairingSystem.ROUND_ROBIN), 31)


def test_a_swiss_needs_more_players_than_rounds() -> None:
    assert fide.check_field(FideFormat(rounds=7), 8) == 7
    with pytest.raises(errors.TooFewPlayers) as refused:
        fide.check_field(FideFormat(rounds=7), 7)
    assert refused.value.detail == (
        "a 7-round Swiss needs at least 8 players (a different opponent in every round); 7 are confirmed:"
        " set fewer rounds or a round robin"
    )


@pytest.mark.parametrize("system", list(PairingSystem))
def test_any_event_needs_two_players(system: PairingSystem) -> None:
    fmt = FideFormat(rounds=1 if system is PairingSystem.SWISS else None, system=system)
    with pytest.raises(errors.TooFewPlayers, match="at least 2 players; 1 are confirmed"):
        fide.check_field(fmt, 1)


def test_the_start_fixes_the_rounds_and_the_dates() -> None:
    day = dt.date(2026, 6, 1)
    rr = fide.at_start(FideFormat(system=PairingSystem.ROUND_ROBIN), 9, day)
    assert (rr.rounds, rr.start_date, rr.end_date) == (9, day, day)
    weekend = FideFormat(rounds=7, start_date=dt.date(2026, 6, 6), end_date=dt.date(2026, 6, 7))
    assert fide.at_start(weekend, 7, day) == weekend
    one_day = fide.at_start(FideFormat(rounds=7, start_date=dt.date(2026, 6, 6)), 7, day)
    assert one_day.end_date == dt.date(2026, 6, 6)


# -- players ---------------------------------------------------------------------------------------
def test_a_profile_is_checked_and_normalised() -> None:
    p = profile(
        fide_id=1503014, federation=" nor ", title=Title.GM, sex=Sex.M, birth_year=1990, rating_standard=2830
    )
    assert p == Profile(1503014, "NOR", Title.GM, Sex.M, 1990, 2830, None)
    assert (
        profile() is None and profile(federation="  ", rating_standard=0, rating_rapid=0) is None
    )  # 0: unrated


@pytest.mark.parametrize(
    ("fields", "error"),
    [
        ({"fide_id": 0}, "a FIDE id is 1–2000000000, got 0"),
        ({"fide_id": 2_000_000_001}, "a FIDE id is 1–2000000000"),
        ({"federation": "SU"}, "three-letter code"),
        ({"federation": "S1I"}, "three-letter code"),
        ({"birth_year": 1899}, "a birth year is 1900–2100, got 1899"),
        ({"rating_standard": 4001}, "a standard rating is 0–4000, got 4001"),
        ({"rating_rapid": -5}, "a rapid rating is 0–4000, got -5"),
    ],
)
def test_a_profile_out_of_bounds_is_refused(fields: dict[str, object], error: str) -> None:
    with pytest.raises(errors.InvalidPlayer, match=error):
        profile(**fields)  # type: ignore[arg-type]


def test_a_name_is_required_and_bounded() -> None:
    assert player_name("  Carlsen, Magnus ") == "Carlsen, Magnus"
    with pytest.raises(errors.InvalidPlayer, match="needs a name"):
        player_name("   ")
    with pytest.raises(errors.InvalidPlayer, match="at most 100"):
        player_name("x" * 101)


def test_a_change_replaces_clears_or_keeps_each_field() -> None:
    old = Profile(fide_id=1, federation="SUI", title=Title.FM, rating_standard=2300, rating_rapid=2250)
    name, new = PlayerChange(name="Meier, Anna", title=None, rating_standard=2310).apply("Meier, A.", old)
    assert name == "Meier, Anna"
    assert new == Profile(fide_id=1, federation="SUI", title=None, rating_standard=2310, rating_rapid=2250)
    assert PlayerChange().apply("X", old) == ("X", old)
    assert PlayerChange(
        fide_id=None, federation=None, rating_standard=None, rating_rapid=None, title=KEEP
    ).apply("X", Profile(fide_id=1, federation="SUI", rating_standard=1, rating_rapid=2)) == ("X", None)
    with pytest.raises(errors.InvalidPlayer):
        PlayerChange(federation="Switzerland").apply("X", old)


def test_the_starting_rank_is_by_standard_rating_then_title_then_name() -> None:
    players = [
        ("Zed", None, None),
        ("Abe", 2400, None),
        ("Bob", 2400, Title.FM),
        ("Cid", 2400, Title.IM),
        ("Dan", 2400, Title.GM),
        ("Eve", 2400, Title.WGM),
        ("Fay", 2400, Title.WIM),
        ("Gil", 2400, Title.CM),
        ("Hal", 2400, Title.WFM),
        ("Ida", 2400, Title.WCM),
        ("ann", 2500, None),
        ("Amy", 2500, None),
        ("Max", 2600, None),
        ("Ace", None, Title.GM),
    ]
    ranked = in_starting_rank(players, lambda p: (p[1], p[2], p[0]))
    assert [p[0] for p in ranked] == [
        "Max",
        "Amy",
        "ann",  # names compared without case
        "Dan",  # GM
        "Cid",  # IM
        "Eve",  # WGM
        "Bob",  # FM
        "Fay",  # WIM
        "Gil",  # CM
        "Hal",  # WFM
        "Ida",  # WCM
        "Abe",  # no title
        "Ace",  # unrated last, then by title
        "Zed",
    ]


def test_players_equal_on_every_key_keep_their_order() -> None:
    twins = [("Meier", 2000, None, i) for i in range(5)]
    assert in_starting_rank(reversed(twins), lambda p: (p[1], p[2], p[0])) == list(reversed(twins))
