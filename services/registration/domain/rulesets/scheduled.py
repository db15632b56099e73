"""What the two rulesets whose competitions start by themselves at a scheduled time share, a `platform`
tournament (RULES.md §2, ``platform.py``) and an arena (RULES.md §3, ``arena.py``): the registration
policy — registered accounts, one running competition per organiser, a start 5 minutes to 14 days ahead,
a rating floor, a password — the opening option and whether it leaves the competition rated
(``rated.py``), and how an account joins one."""

from __future__ import annotations

import datetime as dt

from services.registration.domain import errors, passwords
from services.registration.domain.account import Account
from services.registration.domain.entries import Entry
from services.registration.domain.events import TournamentScheduled
from services.registration.domain.rated import RatedDecision, RatingSettings, rated_after_openings
from services.registration.domain.tournament import (
    Creation,
    Joining,
    RulesetSettings,
    Settings,
    Tournament,
    check_name,
    check_time_control,
)
from shared.games import boards
from shared.openings import OpeningOption, OpeningTable, check_option

MAX_LEAD = dt.timedelta(days=14)
DEFAULT_MIN_LEAD = dt.timedelta(minutes=5)
RATING_FLOOR = (1000, 2000, 100)  # from, to, step


def require_free(creation: Creation) -> None:
    """An organiser runs one such competition at a time (RULES.md §2 "Creating")."""
    if creation.organiser_busy:
        raise errors.OrganiserBusy(
            "you already run a competition; a new one can be opened once it is finished or cancelled"
        )


def validate_scheduled(s: Settings, what: str, *, now: dt.datetime, min_lead: dt.timedelta) -> None:
    """What a competition that starts by itself at a scheduled time checks, a platform tournament and an
    arena alike (``what`` names it): its name, its start (5 minutes to 14 days ahead), its time
    control and its rating floor."""
    if s.starts_at is None:
        raise errors.InvalidSettings(f"{what} needs its start time (starts_at)")
    check_name(s.name, what)
    if s.starts_at.tzinfo is None:
        raise errors.InvalidSettings("the start time needs a time zone")
    lead = s.starts_at - now
    if lead < min_lead or lead > MAX_LEAD:
        raise errors.StartOutOfRange(
            f"the start must be {_human(min_lead)} to 14 days ahead; it is {_human(lead)} ahead"
        )
    check_time_control(s.time_control)
    if s.min_rating is not None:
        lo, hi, step = RATING_FLOOR
        if not s.rated:
            raise errors.InvalidSettings("only rated tournaments may set a minimum rating")
        if not lo <= s.min_rating <= hi or s.min_rating % step:
            raise errors.InvalidSettings(f"the minimum rating must be {lo}–{hi} in steps of {step}")


def schedule(organiser: Account, s: Settings, creation: Creation, own: RulesetSettings) -> Tournament:
    """The competition, validated, open for entries until its start (``tournament.scheduled``)."""
    assert s.starts_at is not None  # both validators refuse a competition without one
    decided = rated(s, creation.italian)
    t = Tournament(
        id=creation.tournament_id,
        organiser_id=organiser.id,
        name=s.name.strip(),
        starts_at=s.starts_at,
        time_control=s.time_control,
        seats=s.seats,
        minimum=s.minimum,
        threshold=s.threshold,
        variant=s.variant,
        double_rounds=s.double_rounds,
        extra_round=s.extra_round,
        rated=decided.rated,
        min_rating=decided.min_rating(s.min_rating),
        password_hash=passwords.hash_password(s.password) if s.password else None,
        created_at=creation.now,
        byes_on_request=False if s.byes_on_request is None else s.byes_on_request,  # off unless chosen
        opening=str(OpeningOption.parse(s.opening)),
        rated_reason=decided.reason,
        settings=own,
    )
    t.record(
        TournamentScheduled(
            tournament_id=t.id,
            organiser_id=t.organiser_id,
            name=t.name,
            starts_at=s.starts_at,
            seats=t.seats,
            minimum=t.minimum,
            settings=t.play_settings(),
        )
    )
    return t


def entry_for(t: Tournament, account: Account, joining: Joining, now: dt.datetime) -> Entry:
    """An account joins: a private competition takes its password (or an invite link the caller
    checked), a rating floor its rating in the competition's variant and speed, and a seat must be free."""
    joining.require_no_profile()
    if (
        not joining.invited
        and t.password_hash is not None
        and not passwords.verify_password(joining.password or "", t.password_hash)
    ):
        raise errors.WrongPassword("this tournament is private: the organiser's password is needed")
    rating = account.ratings.get(t.rating_key)
    if t.min_rating is not None and (rating is None or rating < t.min_rating):
        raise errors.RatingTooLow(
            f"this tournament needs a {t.rating_key} rating of at least {t.min_rating}"
            f" (yours: {rating if rating is not None else 'none'})"
        )
    if len(t.entries) >= t.seats:
        raise errors.TournamentFull(f"all {t.seats} seats are taken")
    return Entry(account.id, account.name, rating, now)


def rated(s: Settings, italian: OpeningTable | None) -> RatedDecision:
    """The variant and opening checked (422 with the opening rules' slug), and whether the tournament is
    rated given them (``rated.py``): an opening beyond 2N/2B makes it friendly instead of refusing it."""
    variant = boards.variant_of(s.variant)
    option = OpeningOption.parse(s.opening)
    check_option(option, variant, italian=italian)
    return rated_after_openings(RatingSettings(s.rated, variant, option, s.double_rounds, italian))


def _human(delta: dt.timedelta) -> str:
    seconds = int(delta.total_seconds())
    if abs(seconds) < 120:
        return f"{seconds} s"
    if abs(seconds) < 7200:
        return f"{seconds // 60} min"
    return f"{seconds / 3600:.1f} h"
