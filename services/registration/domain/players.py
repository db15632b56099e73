"""Players of an over-the-board event: people, not accounts (RULES.md §6). What the organiser knows of
each — FIDE's player data, as a TRF-16 ``001`` line carries it — and the starting rank built from it.

The **starting rank** (the initial ranking list, FIDE C.04.2 B) is by FIDE *standard* rating, highest
first (the regulations: "more accurate where many participants have no rapid rating"), unrated players
last; then by title, GM > IM > WGM > FM > WIM > CM > WFM > WCM > none; then by name (case-insensitive).
Two entries equal on all three keep the order they were entered in.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import Enum, StrEnum
from typing import Final, TypeVar

from services.registration.domain import errors

MAX_NAME: Final = 100
FIDE_ID_MAX: Final = 2_000_000_000
BIRTH_YEARS: Final = (1900, 2100)
RATINGS: Final = (0, 4000)


class Title(StrEnum):
    """FIDE titles in the order of the starting rank (TRF-16 codes in :data:`TRF_TITLES`)."""

    GM = "GM"
    IM = "IM"
    WGM = "WGM"
    FM = "FM"
    WIM = "WIM"
    CM = "CM"
    WFM = "WFM"
    WCM = "WCM"


TITLE_ORDER: Final[tuple[Title, ...]] = tuple(Title)
# TRF-16 columns 11-13 write the titles in lower case, without the "M" of the open titles
TRF_TITLES: Final = {
    "g": Title.GM,
    "m": Title.IM,
    "wg": Title.WGM,
    "f": Title.FM,
    "wm": Title.WIM,
    "c": Title.CM,
    "wf": Title.WFM,
    "wc": Title.WCM,
}


class Sex(StrEnum):
    """As TRF-16 column 10: ``m`` or ``w``."""

    M = "m"
    W = "w"


@dataclass(frozen=True)
class Profile:
    """A player's FIDE data; every field may be unknown. A rating of 0 means unrated (as in FIDE's
    lists): :func:`profile` stores it as None."""

    fide_id: int | None = None
    federation: str | None = None
    title: Title | None = None
    sex: Sex | None = None
    birth_year: int | None = None
    rating_standard: int | None = None
    rating_rapid: int | None = None

    @property
    def empty(self) -> bool:
        return self == Profile()


def profile(
    *,
    fide_id: int | None = None,
    federation: str | None = None,
    title: Title | None = None,
    sex: Sex | None = None,
    birth_year: int | None = None,
    rating_standard: int | None = None,
    rating_rapid: int | None = None,
) -> Profile | None:
    """A checked profile (InvalidPlayer naming the field), or None when nothing is known."""
    p = Profile(
        fide_id=fide_id,
        federation=federation.strip().upper() if federation and federation.strip() else None,
        title=title,
        sex=sex,
        birth_year=birth_year,
        rating_standard=rating_standard or None,
        rating_rapid=rating_rapid or None,
    )
    problem = profile_problem(p)
    if problem is not None:
        raise errors.InvalidPlayer(problem)
    return None if p.empty else p


def profile_problem(p: Profile) -> str | None:
    """What is wrong with a profile, or None."""
    if p.fide_id is not None and not 1 <= p.fide_id <= FIDE_ID_MAX:
        return f"a FIDE id is 1–{FIDE_ID_MAX}, got {p.fide_id}"
    if p.federation is not None and not (len(p.federation) == 3 and p.federation.isalpha()):
        return f"a federation is FIDE's three-letter code (e.g. SUI), got {p.federation!r}"
    if p.birth_year is not None and not BIRTH_YEARS[0] <= p.birth_year <= BIRTH_YEARS[1]:
        return f"a birth year is {BIRTH_YEARS[0]}–{BIRTH_YEARS[1]}, got {p.birth_year}"
    for what, rating in (("standard", p.rating_standard), ("rapid", p.rating_rapid)):
        if rating is not None and not RATINGS[0] <= rating <= RATINGS[1]:
            return f"a {what} rating is {RATINGS[0]}–{RATINGS[1]}, got {rating}"
    return None


def player_name(name: str) -> str:
    """A player's name as entered, checked: not blank, at most 100 characters."""
    text = name.strip()
    if not text:
        raise errors.InvalidPlayer("a player needs a name")
    if len(text) > MAX_NAME:
        raise errors.InvalidPlayer(f"a name has at most {MAX_NAME} characters")
    return text


class Keep(Enum):
    """A field a change leaves as it is."""

    KEEP = "keep"


KEEP: Final = Keep.KEEP
V = TypeVar("V")


@dataclass(frozen=True)
class PlayerChange:
    """What the organiser changes in an entered player: each field given replaces (None clears it);
    :data:`KEEP` leaves it."""

    name: str | Keep = KEEP
    fide_id: int | Keep | None = KEEP
    federation: str | Keep | None = KEEP
    title: Title | Keep | None = KEEP
    sex: Sex | Keep | None = KEEP
    birth_year: int | Keep | None = KEEP
    rating_standard: int | Keep | None = KEEP
    rating_rapid: int | Keep | None = KEEP

    def apply(self, name: str, current: Profile | None) -> tuple[str, Profile | None]:
        """The checked name and profile after the change."""
        old = current or Profile()

        def pick(new: V | Keep, was: V) -> V:
            return was if isinstance(new, Keep) else new

        new_name = name if isinstance(self.name, Keep) else player_name(self.name)
        return new_name, profile(
            fide_id=pick(self.fide_id, old.fide_id),
            federation=pick(self.federation, old.federation),
            title=pick(self.title, old.title),
            sex=pick(self.sex, old.sex),
            birth_year=pick(self.birth_year, old.birth_year),
            rating_standard=pick(self.rating_standard, old.rating_standard),
            rating_rapid=pick(self.rating_rapid, old.rating_rapid),
        )


@dataclass(frozen=True)
class Person:
    """A player the organiser enters by hand or imports: a name and what is known of them. ``line``:
    where an imported player came from (the file's line), for the errors that name it."""

    name: str
    profile: Profile | None = None
    line: int | None = None


def title_rank(title: Title | None) -> int:
    """0 for a GM, ... 7 for a WCM, 8 for no title."""
    return len(TITLE_ORDER) if title is None else TITLE_ORDER.index(title)


def starting_rank_key(rating: int | None, title: Title | None, name: str) -> tuple[bool, int, int, str]:
    """The sort key of the starting rank (module docstring): rating (unrated last), title, name."""
    return (rating is None, -(rating or 0), title_rank(title), name.casefold())


T = TypeVar("T")


def in_starting_rank(
    players: Iterable[T], key: Callable[[T], tuple[int | None, Title | None, str]]
) -> list[T]:
    """``players`` in starting-rank order; ``key`` gives each one's standard rating, title and name.
    A stable sort: players equal on all three keep the order they came in."""
    return sorted(players, key=lambda p: starting_rank_key(*key(p)))
