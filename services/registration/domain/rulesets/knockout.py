"""The `knockout` and `double-knockout` rulesets (RULES.md §4): a tournament created as a **draft**,
whose organiser keeps the roster (no self-registration) and changes the settings until they start it,
which pairs round 1. There is no scheduled start, and the `platform` rules (start window, threshold, one
running competition) do not apply. Its own settings are its format (``knockout.py``: games per match,
seeding, third place, second final, tie-breaks); a random seeding is drawn on request or at the start,
from a recorded draw seed, then kept."""

from __future__ import annotations

import dataclasses
import datetime as dt
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import ClassVar

from services.registration.domain import errors
from services.registration.domain.account import Account
from services.registration.domain.audit import AuditKind, Subject, SubjectKind
from services.registration.domain.entries import Entry, seed
from services.registration.domain.events import Seeded
from services.registration.domain.knockout import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    KnockoutFormat,
    check_custom_order,
)
from services.registration.domain.knockout import validate as validate_format
from services.registration.domain.tournament import (
    AccountsOf,
    Changes,
    Creation,
    Entering,
    Joining,
    RulesetFields,
    RulesetSettings,
    Settings,
    Status,
    Tournament,
    check_name,
    check_time_control,
    not_a_draft,
)
from shared.authority import Decided, Role
from shared.seed_draw import draw_order
from shared.vocabulary import Ruleset, Seeding


@dataclass(frozen=True)
class Knockout(RulesetSettings):
    """A knockout's own settings: its format, and whether it is a double knockout."""

    format: KnockoutFormat
    double: bool = False
    entering: ClassVar[Entering] = Entering.OFFICIALS

    @property
    def ruleset(self) -> Ruleset:
        return Ruleset.DOUBLE_KNOCKOUT if self.double else Ruleset.KNOCKOUT

    def fields(self) -> RulesetFields:
        return RulesetFields(knockout=self.format)

    @classmethod
    def from_fields(cls, ruleset: Ruleset, fields: RulesetFields) -> Knockout:
        return cls(fields.knockout or KnockoutFormat(), double=ruleset is Ruleset.DOUBLE_KNOCKOUT)

    @classmethod
    def create(cls, organiser: Account, settings: Settings, creation: Creation) -> Tournament:
        """A draft: no start time, its organiser adds the players and starts it."""
        fmt = settings.knockout or KnockoutFormat()
        validate(settings, fmt)
        return Tournament(
            id=creation.tournament_id,
            organiser_id=organiser.id,
            name=settings.name.strip(),
            starts_at=None,
            time_control=settings.time_control,
            seats=MAX_PLAYERS[settings.ruleset],
            minimum=MIN_PLAYERS,
            threshold=settings.threshold,
            variant=settings.variant,
            rated=settings.rated,
            status=Status.DRAFT,
            created_at=creation.now,
            settings=cls(fmt, double=settings.ruleset is Ruleset.DOUBLE_KNOCKOUT),
        )

    def check_joining(self) -> None:
        raise errors.RosterKeptByOrganiser("the organiser keeps a knockout's roster: ask them to add you")

    def entry_for(self, t: Tournament, account: Account, joining: Joining, now: dt.datetime) -> Entry:
        self.check_joining()  # its officials add the players (:func:`add_player`)
        raise AssertionError("unreachable")

    def require_leaving(self, t: Tournament, now: dt.datetime) -> None:
        require_draft(t, "remove players")

    def without(self, player_id: uuid.UUID) -> Knockout:
        """A player removed from the roster leaves the custom order too."""
        order = tuple(p for p in self.format.custom_order if p != player_id)
        return dataclasses.replace(self, format=dataclasses.replace(self.format, custom_order=order))

    def change(self, t: Tournament, changes: Changes) -> None:
        """Change a draft's settings (only while it is a draft)."""
        if changes.fide is not None:
            raise errors.InvalidSettings("fide settings are for the fide-rapid ruleset")
        require_draft(t, "change its settings")
        name = t.name if changes.name is None else changes.name.strip()
        check_name(name)
        tc = changes.time_control or t.time_control
        check_time_control(tc)
        fmt = changes.format.apply(self.format)
        if changes.format.seeding not in (None, Seeding.CUSTOM) and changes.format.custom_order is None:
            fmt = dataclasses.replace(
                fmt, custom_order=()
            )  # the old custom order goes with the custom seeding
        if fmt.seeding is not Seeding.RANDOM:
            fmt = dataclasses.replace(fmt, draw_seed=None)  # a draw goes with the random seeding
        validate_format(self.ruleset, fmt, [e.player_id for e in t.entries])
        t.name, t.time_control, t.settings = name, tc, dataclasses.replace(self, format=fmt)
        t.variant = changes.variant or t.variant
        t.rated = t.rated if changes.rated is None else changes.rated

    def start_on_request(
        self,
        t: Tournament,
        actor_id: uuid.UUID,
        now: dt.datetime,
        accounts: AccountsOf,
        draw_seed: Callable[[], int],
    ) -> list[Seeded]:
        """Its organiser starts it, seeded by the players' ratings as they are now."""
        t.require_organiser(actor_id, "start it")
        players = {a.id: a for a in accounts(e.player_id for e in t.entries)}
        return start(t, now, players, draw_seed())

    def drawn_order(self, entries: list[Entry]) -> list[uuid.UUID] | None:
        fmt = self.format
        if fmt.seeding is not Seeding.RANDOM or fmt.draw_seed is None:
            return None
        ids = (str(e.player_id) for e in entries if e.withdrawal is None)
        return [uuid.UUID(p) for p in draw_order(ids, fmt.draw_seed)]


def require_draft(t: Tournament, action: str) -> Knockout:
    """The knockout's settings, while it is a draft; NotADraft otherwise."""
    own = t.settings
    if not isinstance(own, Knockout):
        raise not_a_draft(t, action, f"a {t.ruleset} tournament")
    if t.status is not Status.DRAFT:
        raise not_a_draft(t, action, "a knockout draft")
    return own


def add_player(t: Tournament, account: Account, *, now: dt.datetime) -> Entry:
    """The organiser adds a registered account to a knockout draft's roster."""
    require_draft(t, "add players")
    account.require_registered("play in tournaments")
    if any(e.player_id == account.id for e in t.entries):
        raise errors.AlreadyJoined(f"{account.name} is on the roster already")
    if len(t.entries) >= t.seats:
        raise errors.TournamentFull(f"a {t.ruleset} takes at most {t.seats} players")
    return t.enter(Entry(account.id, account.name, account.ratings.get(t.rating_key), now))


def draw_seeding(t: Tournament, actor_id: uuid.UUID, draw_seed: int, *, now: dt.datetime) -> list[uuid.UUID]:
    """The organiser draws a knockout draft's random seeding now, from ``draw_seed``, which is recorded
    and kept at the start (RULES.md §4: "drawn on request ..., then kept"). A lot is drawn once:
    players added later take their places from the same draw. The drawn order."""
    t.require_organiser(actor_id, "draw its seeding")
    own = require_draft(t, "draw its seeding")
    fmt = own.format
    if fmt.seeding is not Seeding.RANDOM:
        raise errors.SeedingNotRandom(
            f"the seeding is by {fmt.seeding.value}: only a random seeding is drawn"
        )
    if fmt.draw_seed is not None:
        raise errors.SeedingAlreadyDrawn(f"the seeding was drawn already (draw seed {fmt.draw_seed})")
    t.settings = dataclasses.replace(own, format=dataclasses.replace(fmt, draw_seed=draw_seed))
    _seeding_drawn(t, Decided(actor_id, Role.ORGANISER, now), draw_seed, "on request")
    return t.drawn_order() or []


def start(
    t: Tournament, now: dt.datetime, players: Mapping[uuid.UUID, Account], draw_seed: int
) -> list[Seeded]:
    """The organiser starts a knockout draft (round 1 is then paired): the roster and its seeds are
    fixed. ``players``: the entered players' accounts as they are now (their ratings in the
    tournament's time control seed them); ``draw_seed``: recorded for a random seeding not drawn
    yet. A player withdrawn before a reset to the draft stays withdrawn: they are not seeded."""
    own = require_draft(t, "be started")
    fmt = own.format
    playing = [e for e in t.entries if e.withdrawal is None]
    if len(playing) < MIN_PLAYERS:
        raise errors.TooFewPlayers(
            f"a {t.ruleset} needs at least {MIN_PLAYERS} players; the roster has {len(playing)}"
        )
    for entry in playing:
        account = players.get(entry.player_id)
        rating = account.ratings.get(t.rating_key) if account is not None else None
        if rating != entry.rating:
            entry.rating = rating
            t.rerated(entry)
    ids = [e.player_id for e in playing]
    if fmt.seeding is Seeding.CUSTOM:
        gone = {e.player_id for e in t.entries if e.withdrawal is not None}
        order = [p for p in fmt.custom_order if p not in gone]
        check_custom_order(order, ids)
    elif fmt.seeding is Seeding.RANDOM:
        drawn = fmt.draw_seed
        if drawn is None:  # not drawn on request: drawn now, when round 1 is paired
            drawn = draw_seed
            fmt = dataclasses.replace(fmt, draw_seed=drawn)
            _seeding_drawn(t, Decided(t.organiser_id, Role.ORGANISER, now), drawn, "at the start")
        order = [uuid.UUID(p) for p in draw_order((str(p) for p in ids), drawn)]
    else:
        order = [s.player_id for s in seed(playing)]
    by_id = {e.player_id: e for e in playing}
    t.settings = dataclasses.replace(own, format=fmt)
    t.status = Status.STARTED
    t.starts_at = now
    roster = [Seeded(i, pid, by_id[pid].name, by_id[pid].rating) for i, pid in enumerate(order, start=1)]
    t.announce_started(now, roster)
    return roster


def reset_to_draft(t: Tournament) -> bool:
    """Pairing undid round 1 of a started knockout (``tournament.reset``): it is a draft again, its
    settings editable and its roster kept (with its recorded draw). False when there is nothing to
    reset (not a started knockout: a repeated or stray reset)."""
    if not isinstance(t.settings, Knockout) or t.status is not Status.STARTED:
        return False
    t.status = Status.DRAFT
    t.starts_at = None
    return True


def validate(s: Settings, fmt: KnockoutFormat) -> None:
    """A knockout draft's settings: its format checked (``knockout.py``), the `platform` ones refused."""
    check_name(s.name)
    if s.starts_at is not None:
        raise errors.InvalidSettings("a knockout has no scheduled start: its organiser starts it")
    if s.byes_on_request:
        raise errors.InvalidSettings(
            "a knockout takes no requested byes (RULES.md §4): byes_on_request is off"
        )
    platform_only = [
        name
        for name, given in (
            ("password", s.password is not None),
            ("min_rating", s.min_rating is not None),
            ("double_rounds", s.double_rounds),
            ("extra_round", s.extra_round),
        )
        if given
    ]
    if platform_only:
        raise errors.InvalidSettings(f"not a knockout setting: {', '.join(platform_only)}")
    if s.fide is not None:
        raise errors.InvalidSettings("fide settings are for the fide-rapid ruleset")
    check_time_control(s.time_control)
    if fmt.custom_order:
        raise errors.InvalidSettings("a custom order is set once the players are on the roster")
    validate_format(s.ruleset, fmt)


def _seeding_drawn(t: Tournament, decided: Decided, draw_seed: int, when: str) -> None:
    t.decided(
        AuditKind.SEEDING_DRAWN,
        Subject(SubjectKind.TOURNAMENT, t.id),
        f"random seeding drawn {when}: draw seed {draw_seed}",
        decided,
    )
