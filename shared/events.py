"""The versioned events the services exchange, with their routing keys and the envelope.

Every message on the bus is an :class:`Envelope` whose ``type`` is the routing key (past tense,
``game.finished``) and whose ``payload`` validates against the model registered for
``(type, version)``. Models are frozen and forbid unknown fields, so a producer that drifts from
the schema fails loudly in its own tests instead of poisoning a consumer.
"""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any, ClassVar, Literal, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    SerializerFunctionWrapHandler,
    ValidationError,
    model_serializer,
)

from shared import correlation, time_control
from shared.authority import Role
from shared.scoring import Outcome
from shared.variants import Variant
from shared.vocabulary import (
    BracketFormat,
    ByeKind,
    CancelReason,
    Decision,
    Ruleset,
    Section,
    Seeding,
    System,
)

__all__ = [
    "BracketFormat",
    "ByeKind",
    "CancelReason",
    "Decision",
    "Role",
    "Ruleset",
    "Section",
    "Seeding",
    "System",
    "Variant",
]

GameOutcome = Outcome  # how a game ended, on the wire; points are derived by the scoring

EXCHANGE = "arbiter.events"
DEAD_LETTER_EXCHANGE = "arbiter.dead"


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class Event(BaseModel):
    """Base of every event payload. Subclasses set ``TYPE`` (routing key) and ``VERSION``."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    TYPE: ClassVar[str] = ""
    VERSION: ClassVar[int] = 1
    INTERNAL: ClassVar[bool] = False
    """Internal to its service (it travels over the broker only between that service's own processes):
    left out of the published schema."""


class Envelope(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    id: uuid.UUID = Field(default_factory=uuid.uuid4, description="idempotency key")
    type: str
    version: int = 1
    occurred_at: dt.datetime = Field(default_factory=utcnow)
    tournament_id: uuid.UUID | None = None
    payload: dict[str, Any]
    correlation_id: str | None = Field(
        None,
        max_length=correlation.MAX_LENGTH,
        pattern=correlation.VALID_ID.pattern,
        description="the id of the request (or root event) this event follows from (shared.correlation)",
    )
    causation_id: uuid.UUID | None = Field(
        None, description="the id of the event whose handler wrote this one"
    )

    _qualifier: str | None = PrivateAttr(None)

    @property
    def routing_key(self) -> str:
        """The key it is published with: its type, or ``<type>.<qualifier>`` for a message only some
        of the queues of its type want (:data:`QUALIFIERS`). Not part of the body."""
        return self.type if self._qualifier is None else f"{self.type}.{self._qualifier}"

    def qualified(self, *qualifiers: str | None) -> Envelope:
        """This envelope, published under ``<type>.<qualifier>…`` (none, or only None: its type). A type
        may have several kinds of qualifier (:data:`QUALIFIERS`), each at its place in the key: at most
        one of each kind, in their order (``game.finished.platform.decided``)."""
        given = [q for q in qualifiers if q is not None]
        _placed(self.type, given)
        self._qualifier = ".".join(given) or None
        return self

    @model_serializer(mode="wrap")
    def _omit_absent_trace(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """An envelope without correlation fields serialises exactly as before they existed."""
        data: dict[str, Any] = handler(self)
        for key in ("correlation_id", "causation_id"):
            if data.get(key, "") is None:
                del data[key]
        return data


RULESETS: tuple[str, ...] = tuple(r.value for r in Ruleset)

QUALIFIERS: dict[str, tuple[tuple[str, ...], ...]] = {
    "tournament.started": (("arena",),),
    "player.joined": (("arena",),),
    "player.left": (("arena",),),
    "game.finished": (RULESETS, ("decided",)),
}
"""Event types published under ``<type>.<qualifier>…`` when a message is one only some queues want,
each kind of qualifier at its place: an arena's start and entries go as ``tournament.started.arena``,
``player.joined.arena``, ``player.left.arena``, so that the arena queues bind those alone. A result
goes with its tournament's ruleset when clocks knew it as it created the game
(``game.finished.platform``), so that the group-playoff page's queue takes only results of
group-playoff events and of games whose ruleset clocks did not know; a result someone entered (a
``game.finished`` with a ``decision``) with ``decided`` after it (``game.finished.decided``,
``game.finished.knockout.decided``), for the audit log. A queue bound to the bare type hears them all
(:func:`bindings`)."""

EXACT = "="
"""Before a routing key in a subscription: bind that key alone, not the qualified keys it stands for
(``=game.finished``: the results published without a ruleset)."""


def _placed(kind: str, given: list[str]) -> dict[int, str]:
    """Each of a key's qualifiers by its place among ``kind``'s (:data:`QUALIFIERS`); ValueError for one
    the type does not have, or not in their order."""
    places = QUALIFIERS.get(kind, ())
    out: dict[int, str] = {}
    at = 0
    for q in given:
        while at < len(places) and q not in places[at]:
            at += 1
        if at == len(places):
            raise ValueError(f"{kind} has no routing qualifier {q!r} at that place")
        out[at] = q
        at += 1
    return out


def _split(key: str) -> tuple[str, list[str]]:
    """A routing key as its type and its qualifiers (a type's name has dots of its own)."""
    for kind in QUALIFIERS:
        if key == kind or key.startswith(kind + "."):
            rest = key[len(kind) + 1 :]
            return kind, rest.split(".") if rest else []
    return key, []


def bindings(routing_keys: tuple[str, ...]) -> tuple[str, ...]:
    """What a queue is bound to for its routing keys. A key stands for every key of its type that has
    its qualifiers, whatever the other kinds of qualifier: ``player.joined`` binds
    ``player.joined.arena`` too, so that a queue that wants every entry still hears an arena's;
    ``game.finished.decided`` binds ``game.finished.decided`` and ``game.finished.<ruleset>.decided``
    for every ruleset. ``=<key>`` (:data:`EXACT`) binds that key alone."""
    out: list[str] = []
    for key in routing_keys:
        if key.startswith(EXACT):
            out.append(key[len(EXACT) :])
            continue
        kind, given = _split(key)
        fixed = _placed(kind, given)
        keys = [kind]
        for at, place in enumerate(QUALIFIERS.get(kind, ())):
            options: list[str | None] = [fixed[at]] if at in fixed else [None, *place]
            keys = [k if q is None else f"{k}.{q}" for k in keys for q in options]
        out.extend(keys)
    return tuple(dict.fromkeys(out))


class MalformedMessage(ValueError):
    """The body is not a valid envelope, or its payload does not match its schema."""


class UnknownEvent(ValueError):
    """The envelope names a type/version nobody registered."""


_REGISTRY: dict[tuple[str, int], type[Event]] = {}
E = TypeVar("E", bound=type[Event])


def register(cls: E) -> E:
    key = (cls.TYPE, cls.VERSION)
    if not cls.TYPE or key in _REGISTRY:
        raise RuntimeError(f"event {key} has no type or is registered twice")
    _REGISTRY[key] = cls
    return cls


def registered() -> dict[tuple[str, int], type[Event]]:
    return dict(_REGISTRY)


def wrap(event: Event, tournament_id: uuid.UUID | None, **kwargs: Any) -> Envelope:
    """The envelope of a new event. It follows the current correlation context (the HTTP request, or
    the event being handled: :mod:`shared.correlation`); outside any, it starts a chain of its own."""
    trace = {**correlation.stamp(), **kwargs}
    envelope_id = trace.pop("id", None) or uuid.uuid4()
    trace.setdefault("correlation_id", str(envelope_id))
    return Envelope(
        id=envelope_id,
        type=event.TYPE,
        version=event.VERSION,
        tournament_id=tournament_id,
        payload=event.model_dump(mode="json"),
        **trace,
    )


def encode(envelope: Envelope) -> bytes:
    return envelope.model_dump_json().encode()


def decode(body: bytes | str) -> tuple[Envelope, Event]:
    """Parse and validate a message body; raise MalformedMessage or UnknownEvent."""
    try:
        envelope = Envelope.model_validate_json(body)
    except ValidationError as exc:
        raise MalformedMessage(f"not an event envelope: {_first_error(exc)}") from None
    return envelope, payload_of(envelope)


def payload_of(envelope: Envelope) -> Event:
    cls = _REGISTRY.get((envelope.type, envelope.version))
    if cls is None:
        raise UnknownEvent(f"unknown event {envelope.type!r} version {envelope.version}")
    try:
        return cls.model_validate(envelope.payload)
    except ValidationError as exc:
        raise MalformedMessage(f"{envelope.type} v{envelope.version}: {_first_error(exc)}") from None


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err.get("loc", ())) or "body"
    return f"{where}: {err.get('msg', 'invalid')}"


def schema_document() -> dict[str, Any]:
    """JSON Schema of every public event, for docs/events.md and for consumers in other languages."""
    return {
        f"{t} v{v}": cls.model_json_schema()
        for (t, v), cls in sorted(_REGISTRY.items(), key=lambda kv: kv[0])
        if not cls.INTERNAL
    }


# --------------------------------------------------------------------------------------------------
# Shared vocabulary


class TimeControl(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    base_seconds: int = Field(ge=0, le=time_control.MAX_BASE_SECONDS)
    increment_seconds: int = Field(0, ge=0, le=time_control.MAX_INCREMENT_SECONDS)
    days_per_move: int | None = Field(
        None, ge=1, le=time_control.MAX_DAYS_PER_MOVE, description="correspondence"
    )

    def label(self) -> str:
        return time_control.label(self.base_seconds, self.increment_seconds, self.days_per_move)


class DecisionBy(BaseModel):
    """Who decided, in what capacity, when and why: carried by every event that records a decision
    (a result entered or corrected, a withdrawal, a bye, an appointment, ...), so each service can keep
    its audit trail and the organiser can read one log per tournament."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    by: uuid.UUID
    role: Role
    at: dt.datetime
    reason: str | None = Field(None, max_length=500)


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


class GameOpening(BaseModel):
    """The opening a game starts from (RULES.md §2): a table code (None for random moves), the moves in
    the variant's notation (SAN for chess) and the position after them (FEN)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    code: str | None = Field(None, max_length=20)
    moves: list[str] = Field(max_length=20)
    fen: str = Field(max_length=200)

    @property
    def label(self) -> str:
        """What pages and ``arbiter demo --json`` show: the table code, or the moves played."""
        return self.code if self.code is not None else " ".join(self.moves)


GroupPlayoffStage = Literal[
    "group", "playoff", "semi-final", "final", "third-place", "fifth-place", "seventh-place"
]


class GroupPlayoffMatch(BaseModel):
    """A match of a `group-playoff` event (RULES.md §5): what it is for, its group, its players (the one
    named first, who invites, first), and who withdrew from it (scored 0:2) if anyone."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    stage: GroupPlayoffStage
    phase: int = Field(ge=1, le=3)
    group: Literal["I", "II"] | None = None
    match: str = Field(max_length=200, description="the match's key: stage:first:second")
    players: list[uuid.UUID] = Field(min_length=2, max_length=2, description="the one named first first")
    forfeited_by: uuid.UUID | None = Field(None, description="withdrawn or excluded: the match scored 0:2")


class GroupPlayoffGame(GroupPlayoffMatch):
    """A `group-playoff` game's place in its event: its match, and who invites (creates) it."""

    inviter: uuid.UUID = Field(
        description="the player who creates the game: the one named first, unless they cannot create games"
        " and the other can (4T1 §4(5))"
    )
    extra: int = Field(0, ge=0, le=2, description="0: one of the match's two games; 1, 2: an extra game")


class PairedGame(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    game_id: uuid.UUID
    board: int = Field(ge=1)
    white: uuid.UUID
    black: uuid.UUID
    leg: int = Field(1, ge=1, le=2, description="2 = the return game of a double round")
    # knockouts (RULES.md §4): a match is several games, played one after the other
    match_id: str | None = Field(None, description="the bracket match this game belongs to")
    number: int | None = Field(None, ge=1, description="the game's number within its match")
    label: str | None = Field(None, description="e.g. 'Game 2', 'Tie-break 1, game 1 (15+10)'")
    time_control: TimeControl | None = Field(
        None, description="the game's own time control (tie-break games); None: the round's"
    )
    rated: bool = Field(True, description="false: a knockout tie-break or sudden-death game (RULES.md §4)")
    opening: GameOpening | None = Field(None, description="platform: the drawn opening; None: free")
    group_playoff: GroupPlayoffGame | None = Field(
        None, description="group-playoff: the game's phase, match and inviter"
    )


class PairedMatch(BaseModel):
    """A bracket match of a knockout round; a bye (walkover) has one player and no games."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    match_id: str = Field(description="section:round:number, e.g. winners:2:1")
    section: Section
    section_round: int = Field(ge=1)
    number: int = Field(ge=1)
    board: int | None = Field(None, ge=1, description="None for a bye")
    players: list[uuid.UUID | None] = Field(min_length=2, max_length=2, description="slot order")
    first_white: uuid.UUID | None = Field(None, description="White in the first game (drawn)")


class Bye(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    player_id: uuid.UUID
    kind: ByeKind = ByeKind.PAIRING_ALLOCATED


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


# --------------------------------------------------------------------------------------------------
# registration


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


@register
class PlayerLeft(Event):
    TYPE: ClassVar[str] = "player.left"
    tournament_id: uuid.UUID
    player_id: uuid.UUID


@register
class PlayerPaused(Event):
    """An arena's player paused: out of the waiting pool until they join again, keeping their score."""

    TYPE: ClassVar[str] = "player.paused"
    tournament_id: uuid.UUID
    player_id: uuid.UUID


@register
class TournamentStarted(Event):
    TYPE: ClassVar[str] = "tournament.started"
    tournament_id: uuid.UUID
    organiser_id: uuid.UUID
    name: str
    started_at: dt.datetime
    settings: TournamentSettings
    roster: list[RosterEntry] = Field(description="seeded by rating, seed 1 = highest")


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


# --------------------------------------------------------------------------------------------------
# pairing


@register
class RoundPaired(Event):
    TYPE: ClassVar[str] = "round.paired"
    tournament_id: uuid.UUID
    organiser_id: uuid.UUID
    round: int = Field(ge=1)
    total_rounds: int = Field(ge=1)
    system: System
    games: list[PairedGame]
    byes: list[Bye] = []
    time_control: TimeControl
    published: bool | None = Field(
        None,
        description="False: only organisers see the round until round.published (knockouts); "
        "None: public when paired",
    )
    matches: list[PairedMatch] = Field(default_factory=list, description="knockouts: the round's matches")
    variant: Variant = Field(Variant.CHESS, description="the tournament's variant: the board its games use")
    games_cancelled: list[uuid.UUID] = Field(
        default_factory=list,
        description="knockouts: games announced before that will not be played, because a correction "
        "changed who plays their match (paired again, with new games, in this announcement)",
    )


class ArenaGame(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    game_id: uuid.UUID
    white: uuid.UUID
    black: uuid.UUID


@register
class ArenaPaired(Event):
    """An arena pass paired these games (docs/arena.md): clocks creates and starts them at once. A game is
    announced once per pass that made it; a worker taking over an arena may announce it again (same id)."""

    TYPE: ClassVar[str] = "arena.paired"
    tournament_id: uuid.UUID
    organiser_id: uuid.UUID
    games: list[ArenaGame]
    time_control: TimeControl
    paired_at: dt.datetime
    variant: Variant = Field(Variant.CHESS, description="the arena's variant: the board its games use")


@register
class RoundPublished(Event):
    """The organiser published a paired knockout round: its pairings are public, its games may start."""

    TYPE: ClassVar[str] = "round.published"
    tournament_id: uuid.UUID
    round: int = Field(ge=1)
    published_at: dt.datetime
    restarts: int | None = Field(
        default=None,
        ge=0,
        description="the number of the knockout's start the round belongs to: the resets to its draft before "
        "it (0: its first start; null: a producer before starts were numbered)",
    )


@register
class MatchDecided(Event):
    """A knockout match has its winner; the games it no longer needs are listed to be cancelled."""

    TYPE: ClassVar[str] = "match.decided"
    tournament_id: uuid.UUID
    match_id: str
    round: int = Field(ge=1)
    section: Section
    players: list[uuid.UUID] = Field(min_length=2, max_length=2)
    winner: uuid.UUID
    how: Decision
    games_cancelled: list[uuid.UUID] = Field(default_factory=list)
    decided_at: dt.datetime
    revision: int | None = Field(
        default=None,
        ge=1,
        description="the match's decisions so far, this one included: 1 for its first, one more for each "
        "decision after a correction; a consumer keeps the decision with the highest (null: a producer "
        "before revisions)",
    )


@register
class ByeRequested(Event):
    """A zero-point bye for a round not yet paired, asked by the player or granted by an arbiter
    (RULES.md §6): the player is left out of that round's pairing."""

    TYPE: ClassVar[str] = "bye.requested"
    tournament_id: uuid.UUID
    player_id: uuid.UUID
    round: int = Field(ge=1)
    kind: ByeKind = ByeKind.ZERO_POINT
    decision: DecisionBy


@register
class ByeTakenBack(Event):
    """A zero-point bye asked for a round not yet paired, taken back before it was paired (by the player,
    an arbiter or the organiser): the player is paired in that round again."""

    TYPE: ClassVar[str] = "bye.taken_back"
    tournament_id: uuid.UUID
    player_id: uuid.UUID
    round: int = Field(ge=1)
    decision: DecisionBy


@register
class TournamentReset(Event):
    """The organiser reset a knockout to its draft: round 1 is undone (RULES.md §4)."""

    TYPE: ClassVar[str] = "tournament.reset"
    tournament_id: uuid.UUID
    decision: DecisionBy
    games: list[uuid.UUID] = Field(
        default_factory=list,
        description="the games the reset removed (every game paired for the start it undoes): news of them "
        "that comes after the reset is settled, not waited for",
    )
    restarts: int | None = Field(
        default=None,
        ge=0,
        description="the number of the start it undoes: the resets before it (0: the knockout's first start; "
        "null: a producer before starts were numbered)",
    )


@register
class AbsenceUnexcused(Event):
    """A player lost by default (not at the board in time) and no arbiter excused it before the next round was
    paired: by FIDE C.04.2 the player counts as withdrawn (registration withdraws them)."""

    TYPE: ClassVar[str] = "absence.unexcused"
    tournament_id: uuid.UUID
    player_id: uuid.UUID
    round: int = Field(ge=1, description="the round the player was absent from")


@register
class AbsenceExcused(Event):
    """An arbiter accepted the reasons for an absence before the next pairing: the player is paired again."""

    TYPE: ClassVar[str] = "absence.excused"
    tournament_id: uuid.UUID
    player_id: uuid.UUID
    round: int = Field(ge=1)
    decision: DecisionBy


@register
class RoundCompleted(Event):
    TYPE: ClassVar[str] = "round.completed"
    tournament_id: uuid.UUID
    round: int


class Placing(BaseModel):
    """A knockout's final place: players out in the same round share ``places``."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    player_id: uuid.UUID
    seed: int = Field(ge=1)
    rank: int = Field(ge=1, description="dense: one step per group")
    places: list[int] = Field(min_length=2, max_length=2, description="the span shared, e.g. [5, 8]")
    matches_won: int = Field(ge=0)


@register
class TournamentCompleted(Event):
    TYPE: ClassVar[str] = "tournament.completed"
    tournament_id: uuid.UUID
    organiser_id: uuid.UUID
    rounds: int
    completed_at: dt.datetime
    placing: list[Placing] | None = Field(None, description="knockouts: the final placing")


@register
class GroupPlayoffAnnounced(Event):
    """What a group-playoff event announces on its page (RULES.md §5): ``groups`` (a group as the lot drew
    it), ``playoff`` (a play-off match the event created), ``lot`` (the organiser's lot for a tie, the
    players in the order drawn), ``colour-lot`` (White in the final's extra game), ``phase`` (a phase
    opened, with the matches it opened), ``deadline`` (a phase's deadline), ``withdrawal`` (a player
    withdrawn or excluded: every match of ``phase`` scored 0:2), ``game-lot`` (an overdue game's result
    drawn by the organiser's lot: ``game_id``, ``result``, the players in the order drawn, the first
    drawn wins)."""

    TYPE: ClassVar[str] = "group_playoff.announced"
    tournament_id: uuid.UUID
    kind: Literal["groups", "playoff", "lot", "colour-lot", "phase", "deadline", "withdrawal", "game-lot"]
    at: dt.datetime
    phase: int | None = Field(None, ge=1, le=3)
    group: Literal["I", "II"] | None = None
    players: list[uuid.UUID] = []
    seed: str | None = Field(None, description="the lot's recorded seed")
    drawn_by: str | None = Field(None, description="who drew the lot ('system': from the event's seed)")
    deadline: dt.datetime | None = None
    matches: list[GroupPlayoffMatch] = Field(
        default_factory=list, description="phase, playoff: the matches created (those scored 0:2 too)"
    )
    game_id: uuid.UUID | None = Field(None, description="game-lot: the overdue game")
    result: GameOutcome | None = Field(None, description="game-lot: the result the lot gave")


# --------------------------------------------------------------------------------------------------
# clocks


class Sides(BaseModel):
    """A yes or no for each side of a game (an arena game's boost)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    white: bool = False
    black: bool = False


@register
class GameStarted(Event):
    TYPE: ClassVar[str] = "game.started"
    tournament_id: uuid.UUID
    game_id: uuid.UUID
    round: int
    white: uuid.UUID
    black: uuid.UUID
    started_at: dt.datetime
    time_control: TimeControl


@register
class GameFinished(Event):
    TYPE: ClassVar[str] = "game.finished"
    tournament_id: uuid.UUID
    game_id: uuid.UUID
    round: int
    white: uuid.UUID
    black: uuid.UUID
    outcome: GameOutcome
    reason: str = Field(description="e.g. resignation, agreement, checkmate, time, forfeit, reported")
    moves: int = 0
    finished_at: dt.datetime
    both_moved: bool | None = Field(
        None,
        description="false when one side never moved: such a game changes no rating (RULES §2); "
        "None when the publisher does not say",
    )
    rated: bool = Field(True, description="false: the game moves no rating (tie-break, sudden death)")
    decision: DecisionBy | None = Field(
        None, description="who entered the result, when it was not played out on the server"
    )
    boost: Sides | None = Field(None, description="arena games: who took the boost")


@register
class GameResultCorrected(Event):
    """An arbiter or the organiser corrected a finished game's result. Pairings already published stand;
    the next pairing and the standings use the corrected outcome."""

    TYPE: ClassVar[str] = "game.result_corrected"
    tournament_id: uuid.UUID
    game_id: uuid.UUID
    round: int
    white: uuid.UUID
    black: uuid.UUID
    old_outcome: GameOutcome
    outcome: GameOutcome
    decision: DecisionBy


@register
class GamePenalised(Event):
    """An arbiter penalised a player in a game (RULES.md §6): an illegal move or displaced pieces, with what
    followed (a warning, one extra minute for the opponent, or the loss of the game)."""

    TYPE: ClassVar[str] = "game.penalised"
    tournament_id: uuid.UUID
    game_id: uuid.UUID
    round: int
    player_id: uuid.UUID
    kind: Literal["illegal_move", "displaced_pieces"]
    occurrence: int = Field(
        ge=1, description="the how-many-th of its kind (displaced pieces: in the tournament)"
    )
    consequence: Literal["warning", "extra_minute", "loss"]
    decision: DecisionBy


@register
class GameColoursSwapped(Event):
    """Before its result, a knockout game's colours were swapped by the organiser or an arbiter."""

    TYPE: ClassVar[str] = "game.colours_swapped"
    tournament_id: uuid.UUID
    game_id: uuid.UUID
    round: int
    white: uuid.UUID
    black: uuid.UUID
    decision: DecisionBy


@register
class GameCancelledV1(Event):
    """``game.cancelled`` as first published, without the players: still read (a message written before
    version 2 may wait in a queue or a dead-letter queue), no longer written."""

    TYPE: ClassVar[str] = "game.cancelled"
    tournament_id: uuid.UUID
    game_id: uuid.UUID
    round: int
    reason: str = Field(description="e.g. match_decided")
    cancelled_at: dt.datetime


@register
class GameCancelled(GameCancelledV1):
    """A game nobody will play: its knockout match was decided before it. Version 2 names the players,
    so that whoever marked them as in this game (``game.started``) can clear the mark."""

    VERSION: ClassVar[int] = 2
    white: uuid.UUID
    black: uuid.UUID


# --------------------------------------------------------------------------------------------------
# standings


class StandingRow(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    rank: int
    player_id: uuid.UUID
    seed: int
    name: str
    points: float
    tiebreaks: dict[str, float | None] = {}


@register
class StandingsUpdated(Event):
    TYPE: ClassVar[str] = "standings.updated"
    tournament_id: uuid.UUID
    after_round: int
    games_counted: int
    rows: list[StandingRow]


@register
class StandingsFinal(Event):
    TYPE: ClassVar[str] = "standings.final"
    tournament_id: uuid.UUID
    rows: list[StandingRow]
