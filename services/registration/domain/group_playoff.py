"""Entries of a `group-playoff` event (the 4T1 rules, RULES.md §5).

* **The window.** Registration is announced with its closing date (``closes_at``) and the expected start
  (``expected_start``); an entry after the closing date is refused (409).
* **Lower case (§3(3)).** "Entries whose letters are all lower case are not accepted": an entry
  states the player's name and rating (§3(2)); here the entry is made under the account's name, so a
  name with letters and none of them upper case is refused (422 ``entry-all-lower-case``, naming the
  rule). **Decision:** letters without case (as in CJK scripts) do not count, so a name written only
  in them is accepted; so is a name without letters.
* **Ratings.** The account's rating in the event's variant and time control (correspondence) at the time
  of entry lies strictly between ``rating_above`` and ``rating_below`` (the preset: 1699 and 2001, so
  1700-2000): else 422 stating the window. An account with no rating there is refused the same way.
* **Order.** Entries count in order of arrival, and the organiser confirms or refuses each. Entries of
  players who cannot create games themselves rank after all others (**decision:** the player says so
  when entering, ``creates_games: false``; among themselves they keep the order of arrival).
* **The field.** The first eight confirmed entries in that order play; the rest form the waiting list in
  order. A confirmed player who withdraws before the start leaves the field and the next on the waiting
  list moves up (the order is recomputed, nothing else changes).
* **The start.** The organiser starts the event with eight confirmed players: the roster is seeded by
  rating, then by the order of entry; the groups' lot seed is drawn and recorded then (pairing draws the
  groups from it, :mod:`services.pairing.domain.group_playoff.seeding`). The waiting list is left out.
* **Time control.** Correspondence: days per move (the preset: 2), 1-60.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final, TypeVar

from services.registration.domain import errors
from shared.time_control import MAX_DAYS_PER_MOVE, RateOfPlay

PLAYERS: Final = 8
RATING_ABOVE: Final = 1699
RATING_BELOW: Final = 2001
DAYS_PER_MOVE: Final = 2


@dataclass(frozen=True)
class GroupFormat:
    """The organiser's settings of a `group-playoff` event; ``lot_seed`` is drawn at the start."""

    closes_at: dt.datetime
    expected_start: dt.date | None = None
    rating_above: int = RATING_ABOVE
    rating_below: int = RATING_BELOW
    lot_seed: int | None = None

    @property
    def window(self) -> str:
        return f"strictly between {self.rating_above} and {self.rating_below}"


def validate(fmt: GroupFormat, tc: RateOfPlay, now: dt.datetime) -> GroupFormat:
    if fmt.closes_at <= now:
        raise errors.InvalidSettings(f"the closing date {fmt.closes_at.isoformat()} has passed")
    if fmt.expected_start is not None and fmt.expected_start < fmt.closes_at.date():
        raise errors.InvalidSettings("the expected start comes after the closing date")
    if fmt.rating_below - fmt.rating_above < 2:
        raise errors.InvalidSettings(
            f"no rating lies strictly between {fmt.rating_above} and {fmt.rating_below}"
        )
    if tc.days_per_move is None or not 1 <= tc.days_per_move <= MAX_DAYS_PER_MOVE:
        raise errors.InvalidSettings(
            f"a group-playoff event is played by correspondence: 1-{MAX_DAYS_PER_MOVE} days per move"
        )
    return fmt


def all_lower_case(text: str) -> bool:
    """Whether every letter of ``text`` that has a case is lower case (and there is one)."""
    cased = [c for c in text if c.isalpha() and (c.islower() or c.isupper())]
    return bool(cased) and all(c.islower() for c in cased)


def check_entry(
    fmt: GroupFormat, rating: int | None, rating_key: str, now: dt.datetime, name: str = ""
) -> None:
    """An entry now, under this name, with this rating: 409 after the closing date, 422 for an entry
    written all in lower case (§3(3)) or a rating outside the window."""
    if now >= fmt.closes_at:
        raise errors.RegistrationClosed(f"entries closed on {fmt.closes_at.isoformat()}")
    if all_lower_case(name):
        raise errors.EntryAllLowerCase(
            f"the entry {name!r} is written all in lower case: 4T1 §3(3) accepts no such entry"
            " (write the name as it is spelled, with its capitals)"
        )
    if rating is None or not fmt.rating_above < rating < fmt.rating_below:
        raise errors.RatingOutsideWindow(
            f"entries need a {rating_key} rating {fmt.window} (yours: {rating if rating is not None else 'none'})"
        )


E = TypeVar("E")


def field(
    entries: Sequence[E], *, arrived: Callable[[E], dt.datetime], creates_games: Callable[[E], bool]
) -> tuple[list[E], list[E]]:
    """The confirmed entries given, in order: (the eight who play, the waiting list)."""
    ordered = sorted(entries, key=lambda e: (not creates_games(e), arrived(e)))
    return ordered[:PLAYERS], ordered[PLAYERS:]
