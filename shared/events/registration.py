"""The events registration publishes: a tournament's schedule, start, cancellation and settings, its
roster and entries, its officials, and the ratings its games moved."""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, model_serializer

from shared.events.envelope import Event, register
from shared.events.values import DecisionBy, TimeControl
from shared.variants import Variant
from shared.vocabulary import BracketFormat, CancelReason, Ruleset, Seeding

ROSTER_REVISION_DESCRIPTION = (
    "the tournament's roster revision this change produced (registration counts each change of the roster"
    " it publishes, its start included: 1, 2, …); a command that must follow it names it (pairing's"
    " `?roster_revision=`). Left out of the JSON when absent (a producer before it)"
)


def roster_revision() -> Any:
    """The field every roster change carries: the revision it produced (docs/events.md, "Causal commands")."""
    return Field(None, ge=1, le=2_147_483_647, description=ROSTER_REVISION_DESCRIPTION)


def _omit_absent_revision(self: BaseModel, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
    """A roster change without a revision serialises exactly as before the field existed."""
    data: dict[str, Any] = handler(self)
    if "roster_revision" in data and data["roster_revision"] is None:
        del data["roster_revision"]
    return data


class PlayerProfile(BaseModel):
    """What an over-the-board event knows of a player (FIDE's player data, TRF-16 ``001``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    fide_id: int | None = Field(None, ge=1, le=2_000_000_000)
    federation: str | None = Field(None, min_length=3, max_length=3, description="FIDE code, e.g. SUI")
    title: str | None = Field(None, max_length=3, description="GM, IM, WGM, FM, WIM, CM, WFM, WCM")
    sex: Literal["m", "w"] | None = None
    birth_year: int | None = Field(None, ge=1900, le=2100)
    rating_standard: int | None = Field(None, ge=0, le=4000)
    rating_rapid: int | None = Field(None, ge=0, le=4000)


class RosterEntry(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    seed: int = Field(ge=1)
    player_id: uuid.UUID
    name: str
    rating: int | None = None
    profile: PlayerProfile | None = None
    creates_games: bool = Field(
        True,
        description="group-playoff: false when the player said at entry they cannot create games (4T1 §3(5)):"
        " the other player of their matches invites (§4(5)); left out of the JSON when true",
    )

    @model_serializer(mode="wrap")
    def _omit_the_default(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """A roster entry of a player who creates games serialises exactly as before the field existed,
        so a consumer of an older release reads every roster but one that says otherwise."""
        data: dict[str, Any] = handler(self)
        if data.get("creates_games") is True:
            del data["creates_games"]
        return data


class TieBreakStage(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    games: int = Field(ge=1, le=2)
    time_control: TimeControl


class TieBreakPlan(BaseModel):
    """What a match level after its regular games plays next: up to five stages, then one
    sudden-death game (RULES.md §4)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    stages: list[TieBreakStage] = Field(max_length=5)
    sudden_death: TimeControl


class KnockoutSettings(BaseModel):
    """The format settings of a `knockout` or `double-knockout` tournament, fixed at its start."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    format: BracketFormat
    games_per_match: int = Field(ge=1, le=6, description="regular games: 1, 2, 4 or 6")
    seeding: Seeding
    draw_seed: int | None = Field(None, description="the recorded draw of a random seeding")
    third_place: bool = False
    second_final: bool = True
    tiebreak_plan: TieBreakPlan


class FideSettings(BaseModel):
    """The settings of a `fide-rapid` event (RULES.md §6): an over-the-board Swiss (or round robin) run by its
    arbiters, who start it and pair each round."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    place: str = Field("", max_length=100)
    start_date: dt.date | None = None
    end_date: dt.date | None = None
    rounds: int = Field(ge=1, le=30)
    system: Literal["swiss", "round_robin"] = "swiss"
    acceleration: bool = Field(False, description="Baku acceleration (FIDE C.04.7)")
    clocks: Literal["board", "server"] = Field("board", description="who keeps the time")
    default_time_minutes: int = Field(10, ge=0, le=120)
    late_entry_bye: Literal["zero", "half"] = Field("zero", description="for the rounds a late entry missed")
    federation: str | None = Field(
        None, min_length=3, max_length=3, description="the organising federation (TRF 032)"
    )
    chief_arbiter: str = Field("", max_length=80, description="TRF 102, as the file writes it")
    deputy_arbiters: list[str] = Field([], max_length=10, description="TRF 112, one line each")


class ArenaSettings(BaseModel):
    """The arena's own settings (RULES.md §3, docs/arena.md): how long it runs from its start."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    duration_minutes: int = Field(
        ge=1, le=480, description="10 minutes to 8 hours by the rules (registration enforces them)"
    )


class GroupPlayoffSettings(BaseModel):
    """The settings of a `group-playoff` event (RULES.md §5) the other services need: the recorded lot
    that draws the groups (its seed, who drew it; when: the start)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    lot_seed: int = Field(ge=0, description="the seed of the groups' lot (shared.seed_draw), recorded")
    drawn_by: uuid.UUID = Field(description="who drew the lot (the organiser)")


class TournamentSettings(BaseModel):
    """What the other services need to know of a tournament's configuration."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    ruleset: Ruleset = Ruleset.PLATFORM
    variant: Variant = Variant.CHESS
    threshold: int = Field(7, ge=2, le=200)
    double_rounds: bool = False
    extra_round: bool = False
    rated: bool = True
    byes_on_request: bool = Field(
        False, description="players may ask for a zero-point bye before a round is paired (fide-rapid)"
    )
    time_control: TimeControl
    knockout: KnockoutSettings | None = Field(None, description="knockout rulesets only")
    fide: FideSettings | None = Field(None, description="fide-rapid only")
    opening: str = Field(
        "free",
        max_length=60,
        description="platform: free, random-1|2|3, table-1|2|3, table-all or thematic:CODE (RULES.md §2)",
    )
    duration_minutes: int | None = Field(
        None,
        ge=1,
        le=20_160,
        description="platform: the announced duration from the start; then games still running get ten "
        "more minutes, the tournament closes and no further round is paired (RULES.md §2)",
    )
    arena: ArenaSettings | None = Field(None, description="arena only")
    group_playoff: GroupPlayoffSettings | None = Field(None, description="group-playoff only")


@register
class TournamentScheduled(Event):
    TYPE: ClassVar[str] = "tournament.scheduled"
    tournament_id: uuid.UUID
    organiser_id: uuid.UUID
    name: str
    starts_at: dt.datetime
    seats: int
    minimum: int
    settings: TournamentSettings


@register
class PlayerJoined(Event):
    TYPE: ClassVar[str] = "player.joined"
    tournament_id: uuid.UUID
    player_id: uuid.UUID
    name: str
    rating: int | None = None
    profile: PlayerProfile | None = None
    late: bool = Field(False, description="entered after the start (fide-rapid): plays from `from_round`")
    from_round: int | None = Field(None, ge=1)
    roster_revision: int | None = roster_revision()
    _without_absent_revision = model_serializer(mode="wrap")(_omit_absent_revision)


@register
class PlayerLeft(Event):
    TYPE: ClassVar[str] = "player.left"
    tournament_id: uuid.UUID
    player_id: uuid.UUID
    roster_revision: int | None = roster_revision()
    _without_absent_revision = model_serializer(mode="wrap")(_omit_absent_revision)


@register
class PlayerPaused(Event):
    """An arena's player paused: out of the waiting pool until they join again, keeping their score."""

    TYPE: ClassVar[str] = "player.paused"
    tournament_id: uuid.UUID
    player_id: uuid.UUID
    roster_revision: int | None = roster_revision()
    _without_absent_revision = model_serializer(mode="wrap")(_omit_absent_revision)


@register
class TournamentStarted(Event):
    TYPE: ClassVar[str] = "tournament.started"
    tournament_id: uuid.UUID
    organiser_id: uuid.UUID
    name: str
    started_at: dt.datetime
    settings: TournamentSettings
    roster: list[RosterEntry] = Field(description="seeded by rating, seed 1 = highest")
    roster_revision: int | None = roster_revision()
    _without_absent_revision = model_serializer(mode="wrap")(_omit_absent_revision)


@register
class TournamentCancelled(Event):
    TYPE: ClassVar[str] = "tournament.cancelled"
    tournament_id: uuid.UUID
    reason: CancelReason
    detail: str
    present: int | None = None


@register
class PlayerWithdrawn(Event):
    """A player left a started tournament for good: withdrawn, or excluded by the organiser. Their
    unfinished and future games are lost by forfeit (RULES.md §4, §5)."""

    TYPE: ClassVar[str] = "player.withdrawn"
    tournament_id: uuid.UUID
    player_id: uuid.UUID
    reason: str = ""
    excluded: bool = Field(False, description="true: excluded by the organiser; false: withdrawn")
    decision: DecisionBy | None = None
    roster_revision: int | None = roster_revision()
    _without_absent_revision = model_serializer(mode="wrap")(_omit_absent_revision)


@register
class ArbiterAppointed(Event):
    """The organiser appointed an arbiter, for the whole tournament or for named games (RULES.md §5)."""

    TYPE: ClassVar[str] = "arbiter.appointed"
    tournament_id: uuid.UUID
    arbiter_id: uuid.UUID
    games: list[uuid.UUID] | None = Field(None, description="None: the whole tournament")
    decision: DecisionBy


@register
class ArbiterRevoked(Event):
    TYPE: ClassVar[str] = "arbiter.revoked"
    tournament_id: uuid.UUID
    arbiter_id: uuid.UUID
    decision: DecisionBy


@register
class RatingUpdated(Event):
    """A rated game moved a player's Glicko-2 rating in one variant and speed class (RULES.md §2)."""

    TYPE: ClassVar[str] = "rating.updated"
    account_id: uuid.UUID
    key: str = Field(max_length=60, description="<variant>:<speed>, e.g. english:blitz")
    rating: int = Field(description="as shown: the Glicko-2 rating rounded")
    previous: int = Field(description="the rating before the game, as shown")
    deviation: float = Field(ge=0)
    volatility: float = Field(ge=0)
    games: int = Field(ge=1, description="the rated games counted under this key")
    game_id: uuid.UUID
    tournament_id: uuid.UUID
    updated_at: dt.datetime
