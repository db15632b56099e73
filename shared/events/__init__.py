"""The versioned events the services exchange, with their routing keys and the envelope.

Every message on the bus is an :class:`Envelope` whose ``type`` is the routing key (past tense,
``game.finished``) and whose ``payload`` validates against the model registered for
``(type, version)``. Models are frozen and forbid unknown fields, so a producer that drifts from
the schema fails loudly in its own tests instead of poisoning a consumer.

One module per idea, a tree (``pyproject.toml``'s import contracts hold it):

- :mod:`~shared.events.envelope`: the envelope, its encoding, the exchanges, the routing keys'
  qualifiers and bindings, and the registry of event types (``register``, ``decode``);
- :mod:`~shared.events.values`: the value types the events of several producers carry
  (``GameOutcome``, ``TimeControl``, ``DecisionBy``);
- one module per producer, each importing only the two above: :mod:`~shared.events.registration`,
  :mod:`~shared.events.pairing`, :mod:`~shared.events.clocks`, :mod:`~shared.events.standings`.

This package re-exports every name, so ``from shared.events import GameFinished`` works as it always
did; importing it (or any of its modules: they import this package first) registers every producer's
events, so that :func:`decode` knows them all.
"""

from __future__ import annotations

from shared.authority import Role
from shared.events.clocks import (
    GameCancelled,
    GameCancelledV1,
    GameColoursSwapped,
    GameFinished,
    GamePenalised,
    GameResultCorrected,
    GameStarted,
    Sides,
)
from shared.events.envelope import (
    DEAD_LETTER_EXCHANGE,
    EXACT,
    EXCHANGE,
    QUALIFIERS,
    RULESETS,
    Envelope,
    Event,
    MalformedMessage,
    UnknownEvent,
    bindings,
    decode,
    encode,
    payload_of,
    register,
    registered,
    schema_document,
    utcnow,
    wrap,
)
from shared.events.pairing import (
    AbsenceExcused,
    AbsenceUnexcused,
    ArenaGame,
    ArenaPaired,
    Bye,
    ByeRequested,
    ByeTakenBack,
    GameOpening,
    GroupPlayoffAnnounced,
    GroupPlayoffGame,
    GroupPlayoffMatch,
    GroupPlayoffStage,
    MatchDecided,
    PairedGame,
    PairedMatch,
    Placing,
    RoundCompleted,
    RoundPaired,
    RoundPublished,
    TournamentCompleted,
    TournamentReset,
)
from shared.events.registration import (
    ArbiterAppointed,
    ArbiterRevoked,
    ArenaSettings,
    FideSettings,
    GroupPlayoffSettings,
    KnockoutSettings,
    PlayerJoined,
    PlayerLeft,
    PlayerPaused,
    PlayerProfile,
    PlayerWithdrawn,
    RatingUpdated,
    RosterEntry,
    TieBreakPlan,
    TieBreakStage,
    TournamentCancelled,
    TournamentScheduled,
    TournamentSettings,
    TournamentStarted,
)
from shared.events.standings import (
    StandingRow,
    StandingsFinal,
    StandingsUpdated,
)
from shared.events.values import (
    DecisionBy,
    GameOutcome,
    TimeControl,
)
from shared.variants import Variant
from shared.vocabulary import (
    BracketFormat,
    ByeKind,
    CancelReason,
    DecidedIn,
    Ruleset,
    Section,
    Seeding,
    System,
)

__all__ = [
    "DEAD_LETTER_EXCHANGE",
    "EXACT",
    "EXCHANGE",
    "QUALIFIERS",
    "RULESETS",
    "AbsenceExcused",
    "AbsenceUnexcused",
    "ArbiterAppointed",
    "ArbiterRevoked",
    "ArenaGame",
    "ArenaPaired",
    "ArenaSettings",
    "BracketFormat",
    "Bye",
    "ByeKind",
    "ByeRequested",
    "ByeTakenBack",
    "CancelReason",
    "DecidedIn",
    "DecisionBy",
    "Envelope",
    "Event",
    "FideSettings",
    "GameCancelled",
    "GameCancelledV1",
    "GameColoursSwapped",
    "GameFinished",
    "GameOpening",
    "GameOutcome",
    "GamePenalised",
    "GameResultCorrected",
    "GameStarted",
    "GroupPlayoffAnnounced",
    "GroupPlayoffGame",
    "GroupPlayoffMatch",
    "GroupPlayoffSettings",
    "GroupPlayoffStage",
    "KnockoutSettings",
    "MalformedMessage",
    "MatchDecided",
    "PairedGame",
    "PairedMatch",
    "Placing",
    "PlayerJoined",
    "PlayerLeft",
    "PlayerPaused",
    "PlayerProfile",
    "PlayerWithdrawn",
    "RatingUpdated",
    "Role",
    "RosterEntry",
    "RoundCompleted",
    "RoundPaired",
    "RoundPublished",
    "Ruleset",
    "Section",
    "Seeding",
    "Sides",
    "StandingRow",
    "StandingsFinal",
    "StandingsUpdated",
    "System",
    "TieBreakPlan",
    "TieBreakStage",
    "TimeControl",
    "TournamentCancelled",
    "TournamentCompleted",
    "TournamentReset",
    "TournamentScheduled",
    "TournamentSettings",
    "TournamentStarted",
    "UnknownEvent",
    "Variant",
    "bindings",
    "decode",
    "encode",
    "payload_of",
    "register",
    "registered",
    "schema_document",
    "utcnow",
    "wrap",
]
