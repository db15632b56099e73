"""Request and response bodies; the OpenAPI document is generated from these."""

from __future__ import annotations

import datetime as dt
import re
import uuid
from typing import Annotated, Any, Final

from pydantic import AfterValidator, BaseModel, Field, field_validator

from services.registration.domain import errors, fide, knockout, players
from services.registration.domain.account import AccountKind
from services.registration.domain.audit import AuditEntry, AuditKind, SubjectKind
from services.registration.domain.entries import Arbiter, Entry, Standing
from services.registration.domain.fide import ClockKeeping, FideFormat, LateEntryBye, PairingSystem
from services.registration.domain.group_playoff import GroupFormat
from services.registration.domain.knockout import KnockoutFormat
from services.registration.domain.passwords import InviteLink
from services.registration.domain.players import KEEP, Person, PlayerChange, Profile, Sex, Title
from services.registration.domain.rulesets import not_offered
from services.registration.domain.rulesets.fide_rapid import starting_rank
from services.registration.domain.rulesets.group_playoff import field as group_field
from services.registration.domain.rulesets.platform import DURATION, SEATS, THRESHOLD
from services.registration.domain.rulesets.scheduled import RATING_FLOOR
from services.registration.domain.speed import Speed, rating_key
from services.registration.domain.tournament import MAX_REASON, MIN_PLAYERS, RateOfPlay, Status, Tournament
from shared.authority import Role
from shared.http.problems import unprocessable
from shared.http.schemas import BLANK, NOT_BLANK_SCHEMA, OptionalBody, Strict, Text, Words, words
from shared.openings.errors import UnknownOpeningOption
from shared.openings.options import ALLOWED
from shared.time_control import (
    DEFAULT_PLAN,
    MAX_BASE_SECONDS,
    MAX_DAYS_PER_MOVE,
    MAX_INCREMENT_SECONDS,
    Stage,
    TieBreakSchedule,
    clock_dict,
)
from shared.variants import Variant
from shared.vocabulary import Ruleset, Seeding

RULESETS = frozenset(r.value for r in Ruleset)
STATUSES = frozenset(s.value for s in Status)
# the nine opening options as written (shared/openings/options.py), a thematic code without blanks
OPENING_OPTION: Final = rf"^(free|random-[1-3]|table-([1-3]|all)|thematic:[^\x00{BLANK}]+)$"
FEDERATION: Final = r"^([A-Za-z]{3})?$"

# What the schemas state and the service checked before they did, refused as it was: with the
# service's own problem type and words (docs/api.md lists them by endpoint).


def _an_opening(value: str) -> str:
    if not re.match(OPENING_OPTION, value):  # (a ValueError pydantic would take as its own: a Problem)
        detail = f"unknown opening option {value!r}: the options are {', '.join(ALLOWED)}"
        raise unprocessable(UnknownOpeningOption.slug, detail)
    return value


def _a_tournament_name(value: str) -> str:
    return words(value, lambda: errors.InvalidSettings("a tournament needs a name"))


def _a_player_name(value: str) -> str:
    return words(value, lambda: errors.InvalidPlayer("a player needs a name"))


def _a_reason(value: str) -> str:
    return words(value, lambda: errors.ReasonRequired("a decision needs its reason"))


def _regular_games(value: int) -> int:
    if value not in knockout.REGULAR_GAMES:
        raise errors.InvalidSettings(f"a match has 1, 2, 4 or 6 regular games, not {value}")
    return value


def _a_federation(value: str) -> str:
    if not re.match(FEDERATION, value):
        raise errors.InvalidSettings(f"a federation is FIDE's three-letter code (e.g. SUI), got {value!r}")
    return value


Opening = Annotated[str, AfterValidator(_an_opening), Field(json_schema_extra={"pattern": OPENING_OPTION})]
TournamentName = Annotated[str, AfterValidator(_a_tournament_name), NOT_BLANK_SCHEMA]
PlayerName = Annotated[str, AfterValidator(_a_player_name), NOT_BLANK_SCHEMA]
Reason = Annotated[str, AfterValidator(_a_reason), NOT_BLANK_SCHEMA]
RegularGames = Annotated[
    int, AfterValidator(_regular_games), Field(json_schema_extra={"enum": list(knockout.REGULAR_GAMES)})
]
Federation = Annotated[str, AfterValidator(_a_federation), Field(json_schema_extra={"pattern": FEDERATION})]


class TimeControlBody(Strict):
    base_seconds: int = Field(ge=0, le=MAX_BASE_SECONDS, examples=[180])
    increment_seconds: int = Field(0, ge=0, le=MAX_INCREMENT_SECONDS, examples=[2])
    days_per_move: int | None = Field(None, ge=1, le=MAX_DAYS_PER_MOVE)


MAX_ROSTER: Final = max(knockout.MAX_PLAYERS.values())
RATING_KEYS: Final = tuple(rating_key(v, s) for v in Variant for s in Speed)
MAX_RATING: Final = 4000


def _known_rating_key(key: str) -> str:
    if key not in RATING_KEYS:
        variants = ", ".join(v.value for v in Variant)
        speeds = ", ".join(s.value for s in Speed)
        raise ValueError(
            f"unknown rating key {key!r}: a key is <variant>:<speed>, the variant one of {variants},"
            f" the speed one of {speeds}"
        )
    return key


RatingKey = Annotated[str, AfterValidator(_known_rating_key)]
Rating = Annotated[int, Field(ge=0, le=MAX_RATING)]


def _ratings_schema(schema: dict[str, Any]) -> None:
    """The ratings as the document states them: one integer property per known key, no other key
    (flask-openapi3's schemas carry no ``propertyNames``)."""
    schema.pop("propertyNames", None)
    value = schema.pop("additionalProperties")
    schema["properties"] = {key: dict(value) for key in RATING_KEYS}
    schema["additionalProperties"] = False


class AccountBody(Strict):
    id: uuid.UUID | None = None
    name: Words = Field(max_length=100, description="not blank")
    kind: AccountKind = AccountKind.REGISTERED
    ratings: dict[RatingKey, Rating] = Field(
        default_factory=dict,
        max_length=len(RATING_KEYS),
        description=(
            f"per variant and time-control category, each an integer 0–{MAX_RATING}; a key is"
            f" <variant>:<speed>, the variant one of {', '.join(Variant)}, the speed one of {', '.join(Speed)}"
        ),
        examples=[{"chess:blitz": 1650}],
        json_schema_extra=_ratings_schema,
    )


class AccountOut(BaseModel):
    id: uuid.UUID
    name: str
    kind: AccountKind
    ratings: dict[str, int]


class ClockBody(Strict):
    base_seconds: int = Field(ge=0, le=MAX_BASE_SECONDS, examples=[900])
    increment_seconds: int = Field(0, ge=0, le=MAX_INCREMENT_SECONDS, examples=[10])

    def domain(self) -> RateOfPlay:
        return RateOfPlay(self.base_seconds, self.increment_seconds)


class StageBody(Strict):
    games: int = Field(ge=1, le=2)
    time_control: ClockBody


class TieBreakPlanBody(Strict):
    """Up to five stages of 1 or 2 games, then one sudden-death game."""

    stages: list[StageBody] = Field(max_length=5)
    sudden_death: ClockBody

    def domain(self) -> TieBreakSchedule:
        return TieBreakSchedule(
            tuple(Stage(s.games, s.time_control.domain()) for s in self.stages),
            self.sudden_death.domain(),
        )

    @classmethod
    def of(cls, plan: TieBreakSchedule) -> TieBreakPlanBody:
        return cls(
            stages=[
                StageBody(games=s.games, time_control=ClockBody(**clock_dict(s.time_control)))
                for s in plan.stages
            ],
            sudden_death=ClockBody(**clock_dict(plan.sudden_death)),
        )


class KnockoutBody(Strict):
    """The format of a `knockout` or `double-knockout` tournament (RULES.md §4)."""

    games_per_match: RegularGames = Field(2, description="regular games per match: 1, 2, 4 or 6")
    seeding: Seeding = Field(Seeding.RATING, description="rating | custom | random")
    custom_order: list[uuid.UUID] = Field(
        default_factory=list, max_length=MAX_ROSTER, description="custom seeding: seed 1 first"
    )
    third_place: bool = Field(False, description="knockout: the semi-final losers play for third place")
    second_final: bool = Field(
        True,
        description="double knockout: a second final if the first is lost by the winners'-bracket player",
    )
    tiebreak_plan: TieBreakPlanBody | None = Field(
        None, description="default: 2 games 15+10, 2 games 5+3, then sudden death 3+2"
    )

    def domain(self) -> KnockoutFormat:
        return KnockoutFormat(
            games_per_match=self.games_per_match,
            seeding=self.seeding,
            custom_order=tuple(self.custom_order),
            third_place=self.third_place,
            second_final=self.second_final,
            tiebreak_plan=self.tiebreak_plan.domain() if self.tiebreak_plan else DEFAULT_PLAN,
        )


class KnockoutChangeBody(Strict):
    """What to change in a draft's format; what is left out stays as it is."""

    games_per_match: RegularGames | None = None
    seeding: Seeding | None = None
    custom_order: list[uuid.UUID] | None = Field(None, max_length=MAX_ROSTER)
    third_place: bool | None = None
    second_final: bool | None = None
    tiebreak_plan: TieBreakPlanBody | None = None

    def domain(self) -> knockout.FormatChange:
        return knockout.FormatChange(
            games_per_match=self.games_per_match,
            seeding=self.seeding,
            custom_order=tuple(self.custom_order) if self.custom_order is not None else None,
            third_place=self.third_place,
            second_final=self.second_final,
            tiebreak_plan=self.tiebreak_plan.domain() if self.tiebreak_plan else None,
        )


class FideBody(Strict):
    """The settings of a `fide-rapid` event (RULES.md §6)."""

    rounds: int | None = Field(
        None, ge=1, le=fide.MAX_ROUNDS, description="a Swiss: 1–30 (required); a round robin: left out"
    )
    system: PairingSystem = Field(PairingSystem.SWISS, description="swiss (the Dutch system) | round_robin")
    place: Text = Field("", max_length=fide.MAX_PLACE)
    start_date: dt.date | None = Field(None, description="default: the day it starts")
    end_date: dt.date | None = Field(None, description="on or after the start date; default: the start date")
    acceleration: bool = Field(False, description="Baku acceleration (FIDE C.04.7), a Swiss only")
    clocks: ClockKeeping = Field(ClockKeeping.BOARD, description="board (over the board) | server")
    default_time_minutes: int = Field(
        10, ge=fide.DEFAULT_TIME_MINUTES[0], le=fide.DEFAULT_TIME_MINUTES[1], description="0–60"
    )
    late_entry_bye: LateEntryBye = Field(
        LateEntryBye.ZERO, description="what a late entry scores for each round missed: zero | half"
    )
    federation: Federation = Field(
        "", description="the organising federation, FIDE's three-letter code (TRF 032), or empty"
    )
    chief_arbiter: Text = Field(
        "", max_length=fide.MAX_ARBITER, description="TRF 102, e.g. 'IA Hans Muster 1300001'"
    )
    deputy_arbiters: list[Annotated[Text, Field(max_length=fide.MAX_ARBITER)]] = Field(
        [], max_length=fide.MAX_DEPUTIES, description="TRF 112, one line each"
    )

    def domain(self) -> FideFormat:
        return FideFormat(
            rounds=self.rounds,
            system=self.system,
            place=self.place,
            start_date=self.start_date,
            end_date=self.end_date,
            acceleration=self.acceleration,
            clocks=self.clocks,
            default_time_minutes=self.default_time_minutes,
            late_entry_bye=self.late_entry_bye,
            federation=self.federation,
            chief_arbiter=self.chief_arbiter,
            deputy_arbiters=tuple(self.deputy_arbiters),
        )


class FideOut(BaseModel):
    rounds: int | None = Field(description="a round robin's: null until the start fixes it from the field")
    system: PairingSystem
    place: str
    start_date: dt.date | None
    end_date: dt.date | None
    acceleration: bool
    clocks: ClockKeeping
    default_time_minutes: int
    late_entry_bye: LateEntryBye
    federation: str
    chief_arbiter: str
    deputy_arbiters: list[str]
    rounds_paired: int = Field(
        description="the last round pairing announced: a late entry plays from the next"
    )

    @classmethod
    def of(cls, fmt: FideFormat, rounds_paired: int) -> FideOut:
        return cls(
            rounds=fmt.rounds,
            system=fmt.system,
            place=fmt.place,
            start_date=fmt.start_date,
            end_date=fmt.end_date,
            acceleration=fmt.acceleration,
            clocks=fmt.clocks,
            default_time_minutes=fmt.default_time_minutes,
            late_entry_bye=fmt.late_entry_bye,
            federation=fmt.federation,
            chief_arbiter=fmt.chief_arbiter,
            deputy_arbiters=list(fmt.deputy_arbiters),
            rounds_paired=rounds_paired,
        )


class ChangeTournamentBody(Strict):
    name: TournamentName | None = Field(None, max_length=200)
    time_control: TimeControlBody | None = None
    variant: Variant | None = None
    rated: bool | None = None
    knockout: KnockoutChangeBody | None = None
    fide: FideBody | None = Field(None, description="fide-rapid, before the start: the whole block, replaced")


class GroupPlayoffBody(Strict):
    """A group-playoff event's settings (RULES.md §5): the entry window and the rating window."""

    closes_at: dt.datetime = Field(description="the closing date of the entries, with a time zone")
    expected_start: dt.date | None = Field(None, description="announced with the window")
    rating_above: int = Field(1699, ge=0, le=MAX_RATING, description="ratings strictly above this")
    rating_below: int = Field(2001, ge=0, le=MAX_RATING, description="and strictly below this")

    def domain(self) -> GroupFormat:
        return GroupFormat(self.closes_at, self.expected_start, self.rating_above, self.rating_below)


class GroupPlayoffOut(BaseModel):
    closes_at: dt.datetime
    expected_start: dt.date | None
    rating_above: int
    rating_below: int
    lot_seed: int | None = Field(description="the groups' lot seed, drawn and recorded at the start")
    playing: list[uuid.UUID] = Field(description="before the start: the first eight confirmed entries")
    waiting: list[uuid.UUID] = Field(description="before the start: the waiting list, in order")

    @classmethod
    def of(cls, t: Tournament) -> GroupPlayoffOut:
        fmt = t.group_playoff
        assert fmt is not None
        playing, waiting = group_field(t)
        return cls(
            closes_at=fmt.closes_at,
            expected_start=fmt.expected_start,
            rating_above=fmt.rating_above,
            rating_below=fmt.rating_below,
            lot_seed=fmt.lot_seed,
            playing=[e.player_id for e in playing],
            waiting=[e.player_id for e in waiting],
        )


class RefuseBody(Strict):
    reason: Reason = Field(max_length=MAX_REASON, description="why (required, not blank)")


class CreateTournamentBody(Strict):
    name: TournamentName = Field(max_length=200, description="not blank")
    starts_at: dt.datetime | None = Field(
        None, description="platform: 5 minutes to 14 days ahead, with a time zone; knockouts have none"
    )
    time_control: TimeControlBody
    seats: int = Field(200, ge=SEATS[0], le=SEATS[1], description="platform: 4–200")
    minimum: int = Field(
        MIN_PLAYERS, ge=MIN_PLAYERS, le=SEATS[1], description="platform: 4 or more, at most the seats"
    )
    threshold: int = Field(
        THRESHOLD[0],
        ge=THRESHOLD[0],
        le=THRESHOLD[1],
        description="platform: 7–20: fewer players → round robin, else Swiss",
    )
    ruleset: Ruleset = Field(
        Ruleset.PLATFORM, description="platform | knockout | double-knockout | fide-rapid | group-playoff"
    )
    variant: Variant = Variant.CHESS
    double_rounds: bool = False
    extra_round: bool = False
    rated: bool = True
    min_rating: int | None = Field(
        None,
        ge=RATING_FLOOR[0],
        le=RATING_FLOOR[1],
        multiple_of=RATING_FLOOR[2],
        description="1000–2000 in steps of 100; rated only",
    )
    password: Text | None = Field(None, min_length=1, max_length=100, description="makes it private")
    opening: Opening = Field(
        "free",
        max_length=60,
        description="platform: free, random-1|2|3, table-1|2|3, table-all, thematic:CODE (RULES.md §2)",
    )
    knockout: KnockoutBody | None = Field(
        None, description="knockout rulesets: the format (defaults if left out)"
    )
    byes_on_request: bool | None = Field(
        None,
        description="players may ask for a zero-point bye before a round is paired; default by ruleset"
        " (platform: off, a hand-set option; knockouts: never; fide-rapid: always)",
    )
    fide: FideBody | None = Field(None, description="fide-rapid: its settings (required)")
    duration_minutes: int | None = Field(
        None,
        ge=1,
        le=DURATION[1],
        description="arena: how long it runs, 10–480 minutes (required); platform: the announced duration "
        "(10–20160 minutes, optional), then running games get ten more minutes, open games are drawn and "
        "no further round is paired",
    )
    group_playoff: GroupPlayoffBody | None = Field(None, description="group-playoff: its settings (required)")

    @field_validator("ruleset", mode="before")
    @classmethod
    def _known_ruleset(cls, value: object) -> object:
        """A name outside the list is the same 422 ``invalid-settings`` as a listed ruleset not offered
        yet, not a schema error (raised as the domain error, which pydantic lets through)."""
        if isinstance(value, str) and value not in RULESETS:
            raise not_offered(value)
        return value


class TournamentPath(BaseModel):
    tournament_id: uuid.UUID


class EntryPath(BaseModel):
    tournament_id: uuid.UUID
    player_id: uuid.UUID


class AccountPath(BaseModel):
    account_id: uuid.UUID


class ProfileBody(Strict):
    """A player's FIDE data; each field may be left out (unknown). A rating of 0 is unrated."""

    fide_id: int | None = Field(None, ge=1, le=players.FIDE_ID_MAX)
    federation: Text | None = Field(
        None, min_length=3, max_length=3, pattern=r"^[A-Za-z]{3}$", description="FIDE code, e.g. SUI"
    )
    title: Title | None = Field(None, description="GM, IM, WGM, FM, WIM, CM, WFM, WCM")
    sex: Sex | None = Field(None, description="m | w")
    birth_year: int | None = Field(None, ge=players.BIRTH_YEARS[0], le=players.BIRTH_YEARS[1])
    rating_standard: int | None = Field(
        None, ge=0, le=MAX_RATING, description="FIDE standard rating: the starting rank uses it"
    )
    rating_rapid: int | None = Field(None, ge=0, le=MAX_RATING, description="FIDE rapid rating")

    def domain(self) -> Profile | None:
        return players.profile(
            fide_id=self.fide_id,
            federation=self.federation,
            title=self.title,
            sex=self.sex,
            birth_year=self.birth_year,
            rating_standard=self.rating_standard,
            rating_rapid=self.rating_rapid,
        )


class PlayerBody(ProfileBody):
    """A person entered by hand in a `fide-rapid` event (no account)."""

    name: PlayerName = Field(
        max_length=players.MAX_NAME, examples=["Carlsen, Magnus"], description="not blank"
    )

    def person(self) -> Person:
        return Person(players.player_name(self.name), self.domain())


class PlayerChangeBody(ProfileBody):
    """What to change in an entered player: a field given replaces (null clears it), one left out stays."""

    name: PlayerName | None = Field(None, max_length=players.MAX_NAME)

    def change(self) -> PlayerChange:
        given = self.model_fields_set
        values = {f: getattr(self, f) if f in given else KEEP for f in PlayerChange.__dataclass_fields__}
        if values["name"] is None:
            values["name"] = KEEP  # a name is never cleared
        return PlayerChange(**values)


class PlayerPath(BaseModel):
    tournament_id: uuid.UUID
    player_id: uuid.UUID


class JoinBody(Strict):
    player_id: uuid.UUID | None = Field(
        None,
        description="the service principal: enter a player; a knockout's organiser (or an arbiter of the"
        " whole tournament): add a player to the roster; a fide-rapid event's: enter an account, confirmed",
    )
    password: Text | None = Field(None, max_length=100)
    invite: Text | None = Field(
        None, min_length=1, max_length=100, description="a private tournament: an invite link's token"
    )
    profile: ProfileBody | None = Field(None, description="fide-rapid: the player's FIDE data")
    creates_games: bool = Field(
        True, description="group-playoff: false if the player cannot create games themselves (ranks last)"
    )


class InviteBody(OptionalBody):
    valid_for_minutes: int | None = Field(
        None,
        ge=1,
        le=20_160,
        description="the link expires after this long (≤ 14 days); unset: until revoked",
    )


class InviteOut(BaseModel):
    token: str = Field(description="the link's secret: joining sends it as `invite`")
    tournament_id: uuid.UUID
    created_at: dt.datetime
    expires_at: dt.datetime | None
    revoked_at: dt.datetime | None
    join: str = Field(description="where the holder joins: POST this path with {invite: token}")

    @classmethod
    def of(cls, link: InviteLink) -> InviteOut:
        return cls(
            token=link.token,
            tournament_id=link.tournament_id,
            created_at=link.created_at,
            expires_at=link.expires_at,
            revoked_at=link.revoked_at,
            join=f"/tournaments/{link.tournament_id}/entries",
        )


class InviteList(BaseModel):
    invites: list[InviteOut]


class InvitePath(BaseModel):
    tournament_id: uuid.UUID
    token: Text = Field(min_length=1, max_length=100)


class ProfileOut(BaseModel):
    fide_id: int | None
    federation: str | None
    title: Title | None
    sex: Sex | None
    birth_year: int | None
    rating_standard: int | None
    rating_rapid: int | None

    @classmethod
    def of(cls, p: Profile | None) -> ProfileOut | None:
        if p is None:
            return None
        return cls(
            fide_id=p.fide_id,
            federation=p.federation,
            title=p.title,
            sex=p.sex,
            birth_year=p.birth_year,
            rating_standard=p.rating_standard,
            rating_rapid=p.rating_rapid,
        )


class EntryOut(BaseModel):
    player_id: uuid.UUID
    name: str
    rating: int | None = Field(description="the rating pairing uses (fide-rapid: the FIDE standard rating)")
    status: Standing = Field(
        Standing.ACTIVE,
        description="active | withdrawn | excluded (after the start, for good) | unconfirmed (fide-rapid:"
        " an account's entry before an official confirms it)",
    )
    withdrawn_at: dt.datetime | None = None
    profile: ProfileOut | None = Field(None, description="fide-rapid: the player's FIDE data")
    by_hand: bool = Field(False, description="fide-rapid: a person entered by an official, with no account")
    from_round: int | None = Field(None, description="a late entry: the first round they play")
    paused: bool = Field(False, description="arena: out of the waiting pool until they join again")

    @classmethod
    def of(cls, e: Entry) -> EntryOut:
        return cls(
            player_id=e.player_id,
            name=e.name,
            rating=e.rating,
            status=e.standing,
            withdrawn_at=e.withdrawal.at if e.withdrawal else None,
            paused=e.paused,
            profile=ProfileOut.of(e.profile),
            by_hand=e.by_hand,
            from_round=e.from_round,
        )


ROSTER_REVISION = (
    "the tournament's roster revision: the roster changes published so far, this answer's included (also in"
    " the `Roster-Revision` header). Name it to pairing (`?roster_revision=`) to pair after it"
)


class EnteredOut(EntryOut):
    """An entry as the command that entered or changed it answers, with the roster revision after it."""

    roster_revision: int = Field(ge=0, description=ROSTER_REVISION)


class RankedOut(EntryOut):
    rank: int = Field(ge=1, description="the starting rank")


class PlayerList(BaseModel):
    tournament_id: uuid.UUID
    players: list[RankedOut] = Field(
        description="the confirmed players in starting-rank order: FIDE standard rating, title, name"
    )

    @classmethod
    def of(cls, t: Tournament) -> PlayerList:
        ranked = [
            RankedOut(rank=i, **EntryOut.of(e).model_dump()) for i, e in enumerate(starting_rank(t), start=1)
        ]
        return cls(tournament_id=t.id, players=ranked)


class ImportOut(BaseModel):
    tournament_id: uuid.UUID
    players: list[EntryOut] = Field(description="the players imported, in the list's order")
    roster_revision: int = Field(ge=0, description=ROSTER_REVISION)


class KnockoutOut(BaseModel):
    games_per_match: int
    seeding: Seeding
    custom_order: list[uuid.UUID]
    third_place: bool
    second_final: bool
    tiebreak_plan: TieBreakPlanBody
    draw_seed: int | None = Field(
        description="the recorded draw of a random seeding: drawn on request or at the start, then kept"
    )
    draw_order: list[uuid.UUID] | None = Field(
        None, description="a random seeding once drawn: the players in the drawn order, seed 1 first"
    )

    @classmethod
    def of(cls, fmt: KnockoutFormat, draw_order: list[uuid.UUID] | None = None) -> KnockoutOut:
        return cls(
            draw_order=draw_order,
            games_per_match=fmt.games_per_match,
            seeding=fmt.seeding,
            custom_order=list(fmt.custom_order),
            third_place=fmt.third_place,
            second_final=fmt.second_final,
            tiebreak_plan=TieBreakPlanBody.of(fmt.tiebreak_plan),
            draw_seed=fmt.draw_seed,
        )


class TournamentOut(BaseModel):
    id: uuid.UUID
    organiser_id: uuid.UUID
    name: str
    status: Status = Field(
        description="draft (knockouts) | scheduled (fide-rapid: open until its arbiters start it) | started"
        " | cancelled | completed"
    )
    status_reason: str | None
    starts_at: dt.datetime | None = Field(
        description="a knockout's or a fide-rapid event's: when it was started (none before)"
    )
    time_control: TimeControlBody
    seats: int
    minimum: int
    threshold: int
    ruleset: Ruleset
    variant: str
    double_rounds: bool
    extra_round: bool
    rated: bool
    min_rating: int | None
    private: bool
    opening: str = Field("free", description="the opening option (platform)")
    rated_reason: str | None = Field(
        None, description="why it is friendly, or rated despite an opening beyond 2N/2B; decided at creation"
    )
    byes_on_request: bool = Field(False, description="players may ask for a zero-point bye (RULES.md §6)")
    entries: list[EntryOut]
    knockout: KnockoutOut | None = None
    fide: FideOut | None = None
    duration_minutes: int | None = Field(
        None, description="arena: how long it runs; platform: the announced duration (null: none)"
    )
    ends_at: dt.datetime | None = Field(None, description="arena: its end (no new game after it closes)")
    group_playoff: GroupPlayoffOut | None = None
    roster_revision: int = Field(0, ge=0, description=ROSTER_REVISION)

    @classmethod
    def of(cls, t: Tournament) -> TournamentOut:
        tc = t.time_control
        return cls(
            id=t.id,
            organiser_id=t.organiser_id,
            name=t.name,
            status=t.status,
            status_reason=t.status_reason,
            starts_at=t.starts_at,
            time_control=TimeControlBody(
                base_seconds=tc.base_seconds,
                increment_seconds=tc.increment_seconds,
                days_per_move=tc.days_per_move,
            ),
            seats=t.seats,
            minimum=t.minimum,
            threshold=t.threshold,
            ruleset=t.ruleset,
            variant=t.variant,
            double_rounds=t.double_rounds,
            extra_round=t.extra_round,
            rated=t.rated,
            min_rating=t.min_rating,
            private=t.private,
            opening=t.opening,
            rated_reason=t.rated_reason,
            byes_on_request=t.byes_on_request,
            entries=[EntryOut.of(e) for e in t.entries],
            knockout=KnockoutOut.of(t.knockout, t.drawn_order()) if t.knockout is not None else None,
            fide=FideOut.of(t.fide, t.rounds_paired) if t.fide is not None else None,
            duration_minutes=t.arena_minutes if t.arena_minutes is not None else t.duration_minutes,
            ends_at=t.ends_at,
            group_playoff=GroupPlayoffOut.of(t) if t.group_playoff is not None else None,
            roster_revision=t.roster_revision,
        )


class TournamentList(BaseModel):
    tournaments: list[TournamentOut]


class ListQuery(BaseModel):
    status: Status | None = None
    limit: int = Field(100, ge=1, le=500)

    @field_validator("status", mode="before")
    @classmethod
    def _known_status(cls, value: object) -> object:
        """An unknown status (an empty one too) is its own 422 ``unknown-status``; leave the parameter
        out to list them all."""
        if isinstance(value, str) and value not in STATUSES:
            raise unprocessable("unknown-status", f"status must be one of {[s.value for s in Status]}")
        return value


# -- arbiters, withdrawals, the audit log -----------------------------------------------------------
MAX_SCOPE: Final = 1000  # games named in one appointment


class ArbiterPath(BaseModel):
    tournament_id: uuid.UUID
    account_id: uuid.UUID


class AppointBody(Strict):
    account_id: uuid.UUID = Field(description="a registered account")
    games: list[uuid.UUID] | None = Field(
        None,
        min_length=1,
        max_length=MAX_SCOPE,
        description="the games in the arbiter's scope; left out or null: the whole tournament",
    )


class ArbiterOut(BaseModel):
    account_id: uuid.UUID
    name: str
    games: list[uuid.UUID] | None = Field(description="null: the whole tournament")
    appointed_at: dt.datetime

    @classmethod
    def of(cls, a: Arbiter) -> ArbiterOut:
        games = None if a.games is None else sorted(a.games, key=str)
        return cls(account_id=a.account_id, name=a.name, games=games, appointed_at=a.appointed_at)


class ArbiterList(BaseModel):
    tournament_id: uuid.UUID
    organiser_id: uuid.UUID
    arbiters: list[ArbiterOut]

    @classmethod
    def of(cls, t: Tournament) -> ArbiterList:
        ordered = sorted(t.arbiters.values(), key=lambda a: (a.appointed_at, str(a.account_id)))
        return cls(
            tournament_id=t.id, organiser_id=t.organiser_id, arbiters=[ArbiterOut.of(a) for a in ordered]
        )


class WithdrawBody(Strict):
    player_id: uuid.UUID
    reason: Reason = Field(max_length=MAX_REASON, description="why: required, not blank")
    exclude: bool = Field(False, description="an exclusion (the organiser's alone) rather than a withdrawal")


class SubjectOut(BaseModel):
    kind: SubjectKind = Field(description="player | arbiter | game | round | tournament")
    id: uuid.UUID | None = None
    round: int | None = None


class AuditEntryOut(BaseModel):
    at: dt.datetime
    by: uuid.UUID
    role: Role
    kind: AuditKind
    subject: SubjectOut
    detail: str
    reason: str | None

    @classmethod
    def of(cls, e: AuditEntry) -> AuditEntryOut:
        return cls(
            at=e.at,
            by=e.by,
            role=e.role,
            kind=e.kind,
            subject=SubjectOut(kind=e.subject.kind, id=e.subject.id, round=e.subject.round),
            detail=e.detail,
            reason=e.reason,
        )


class AuditLogOut(BaseModel):
    tournament_id: uuid.UUID
    entries: list[AuditEntryOut] = Field(description="every decision taken in the tournament, in time order")
