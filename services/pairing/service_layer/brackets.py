"""Pairing's handlers for the knockout rulesets (RULES.md §4). The same queues as the `platform` flow
carry them (``handlers.Handlers`` hands knockouts over here, under the tournament's row lock):

* ``tournament.started`` with knockout settings → the bracket and its seed list are stored and round 1 is
  due (the organiser's start pairs round 1);
* the worker pairs a due round: every match of it, with its regular games (the colours of each match's
  first game drawn), unpublished → ``round.paired`` (``published: false``, the round's matches);
* the organiser publishes it → ``round.published``;
* ``game.finished`` → the match goes on: a level match gets its next tie-break stage (``round.paired``
  again for that round, with the new games), a decided one publishes ``match.decided`` with the games it
  no longer needs; once every match of the round is decided, ``round.completed`` and the next round is
  due, or, the bracket finished, ``tournament.completed`` with the final placing.
"""

from __future__ import annotations

import datetime as dt
import logging
import secrets
import uuid
from collections.abc import Callable

from services.pairing.domain import errors
from services.pairing.domain.elimination.elimination import (
    Elimination,
    MatchGame,
    PairedMatch,
    new_bracket,
    round_of_games,
)
from services.pairing.domain.elimination.match_play import MatchFormat
from services.pairing.domain.elimination.seeding import SeedList
from services.pairing.domain.rounds.tournament import Player, Status
from services.pairing.service_layer import commands
from services.pairing.service_layer.unit_of_work import PairingUnitOfWork
from shared import events
from shared.time_control import Stage, TieBreakPlan
from shared.time_control import TimeControl as GameTimeControl
from shared.timesource import Clock

log = logging.getLogger(__name__)


def draw_white() -> int:
    """The slot with White in a match's first game: drawn (RULES.md §4), then stored with the match."""
    return secrets.randbelow(2)


def _clock(tc: events.TimeControl) -> GameTimeControl:
    return GameTimeControl(tc.base_seconds, tc.increment_seconds, tc.days_per_move)


def match_format(settings: events.TournamentSettings) -> MatchFormat:
    ko = settings.knockout
    assert ko is not None
    plan = TieBreakPlan(
        tuple(Stage(s.games, _clock(s.time_control)) for s in ko.tiebreak_plan.stages),
        _clock(ko.tiebreak_plan.sudden_death),
    )
    return MatchFormat(ko.games_per_match, _clock(settings.time_control), plan)


class BracketHandlers:
    def __init__(self, clock: Clock, draw: Callable[[], int] = draw_white) -> None:
        self.clock = clock
        self.draw = draw

    # -- consumer --------------------------------------------------------------------------------------
    def on_tournament_started(self, event: events.TournamentStarted, uow: PairingUnitOfWork) -> None:
        ko = event.settings.knockout
        assert ko is not None
        roster = sorted(event.roster, key=lambda r: r.seed)
        if [r.seed for r in roster] != list(range(1, len(roster) + 1)):
            raise errors.UnsupportedField("a knockout's roster must be seeded 1 … N")
        try:
            seeding = SeedList(ko.seeding, tuple(str(r.player_id) for r in roster), ko.draw_seed)
            bracket = new_bracket(
                ko.format, len(roster), third_place=ko.third_place, second_final=ko.second_final
            )
            fmt = match_format(event.settings)
        except (KeyError, ValueError) as exc:  # BracketError, SeedingError, MatchPlayError
            raise errors.UnsupportedField(f"cannot run this knockout: {exc}") from exc
        e = Elimination(event.tournament_id, fmt, bracket, seeding)
        uow.tournaments.add_elimination(
            e,
            organiser_id=event.organiser_id,
            name=event.name,
            ruleset=event.settings.ruleset,
            time_control=event.settings.time_control,
            started_at=event.started_at,
            roster=[Player(r.seed, r.player_id, r.name, r.rating) for r in roster],
        )
        uow.publish(events.RoundDue(tournament_id=e.id, round=1), e.id)

    def on_game_finished(self, event: events.GameFinished, uow: PairingUnitOfWork) -> None:
        tid = event.tournament_id
        e = self._load(uow, tid)
        found = e.game(event.game_id)
        if found is None:
            raise errors.RoundNotFound(f"game {event.game_id} is not in tournament {tid}")
        recorded = e.record(event.game_id, event.outcome)
        if recorded is None:
            return  # a second result for the game: the first one stands
        uow.tournaments.record_outcome(event.game_id, event.outcome, event.finished_at)
        match = recorded.match
        if recorded.added:
            uow.tournaments.add_match_games(tid, match, recorded.added)
            published = uow.tournaments.published(tid).get(match.round, False)
            uow.publish(self._round_paired(uow, e, match.round, published), tid)
        if recorded.winner is None:
            return
        now = self.clock.now()
        uow.tournaments.decide_match(e, match, recorded.cancelled, now)
        uow.publish(self._decided(e, match, recorded.winner, recorded.cancelled, now), tid)
        if not e.round_decided(match.round):
            return
        uow.tournaments.complete_round(tid, match.round, now)
        uow.publish(events.RoundCompleted(tournament_id=tid, round=match.round), tid)
        if not e.bracket.is_finished():
            uow.publish(events.RoundDue(tournament_id=tid, round=match.round + 1), tid)
            return
        uow.tournaments.set_status(tid, Status.COMPLETED)
        uow.publish(
            events.TournamentCompleted(
                tournament_id=tid,
                organiser_id=uow.tournaments.organiser(tid),
                rounds=e.paired_rounds,
                completed_at=now,
                placing=[
                    events.Placing(
                        player_id=_player(e, p.seed),
                        seed=p.seed,
                        rank=p.rank,
                        places=list(p.places),
                        matches_won=p.matches_won,
                    )
                    for p in e.placings()
                ],
            ),
            tid,
        )

    # -- worker --------------------------------------------------------------------------------------
    def pair_round(self, tournament_id: uuid.UUID, number: int, uow: PairingUnitOfWork) -> None:
        e = self._load(uow, tournament_id)
        if number <= e.paired_rounds:
            return  # paired already (redelivered or raced)
        if e.next_round_number() != number:
            log.warning("round %d of %s is not due (next: %s)", number, tournament_id, e.next_round_number())
            return
        paired = e.pair_round(number, self.draw)
        uow.tournaments.add_bracket_round(
            tournament_id, number, paired, self.clock.now()
        )  # bracket unchanged
        uow.publish(self._round_paired(uow, e, number, published=False), tournament_id)

    # -- commands ------------------------------------------------------------------------------------
    def publish_round(self, cmd: commands.PublishRound, uow: PairingUnitOfWork) -> None:
        """Make a knockout round public; publishing it again changes nothing."""
        with uow:
            tid = cmd.tournament_id
            head = uow.tournaments.lock(tid)
            if head is None:
                raise errors.TournamentNotFound(f"no tournament {tid}")
            if cmd.actor.id != head.organiser_id and not cmd.actor.staff:
                raise errors.NotOrganiser("only the organiser of this tournament may publish its rounds")
            if not head.system.elimination:
                raise errors.PublishedWhenPaired(
                    f"a {head.system.value} round is public as soon as it is paired"
                )
            now = self.clock.now()
            changed = uow.tournaments.publish_round(tid, cmd.number, now)
            if changed is None:
                raise errors.RoundNotFound(f"round {cmd.number} of tournament {tid} is not paired")
            if changed:
                uow.publish(events.RoundPublished(tournament_id=tid, round=cmd.number, published_at=now), tid)
            uow.commit()

    # -- events --------------------------------------------------------------------------------------
    @staticmethod
    def _load(uow: PairingUnitOfWork, tournament_id: uuid.UUID) -> Elimination:
        e = uow.tournaments.elimination(tournament_id)
        if e is None:
            raise errors.TournamentNotFound(f"no knockout {tournament_id}")
        return e

    def _round_paired(
        self, uow: PairingUnitOfWork, e: Elimination, number: int, published: bool
    ) -> events.RoundPaired:
        """The round as it stands: every match and every game paired in it so far (consumers add the
        games they do not know yet)."""
        round_matches = e.round_matches(number)
        games = [
            events.PairedGame(
                game_id=g.game_id,
                board=m.board,
                white=_player(e, m.white(g)),
                black=_player(e, m.black(g)),
                match_id=str(m.id),
                number=g.planned.number,
                label=g.planned.label,
                time_control=_tc(g),
            )
            for m, g in round_of_games(round_matches)
        ]
        paired = [_paired_match(e, m) for m in round_matches]
        byes = [
            events.PairedMatch(
                match_id=str(w.id),
                section=w.id.section.value,
                section_round=w.id.round,
                number=w.id.number,
                players=[_player(e, p) if p is not None else None for p in w.players],
            )
            for w in e.walkovers(number)
        ]
        return events.RoundPaired(
            tournament_id=e.id,
            organiser_id=uow.tournaments.organiser(e.id),
            round=number,
            total_rounds=e.rounds_total(),
            system=e.format,
            games=games,
            byes=[events.Bye(player_id=_player(e, seed)) for seed in e.byes(number)],
            time_control=uow.tournaments.time_control(e.id),
            published=published,
            matches=[*paired, *byes],
        )

    @staticmethod
    def _decided(
        e: Elimination, match: PairedMatch, winner: int, cancelled: tuple[MatchGame, ...], now: dt.datetime
    ) -> events.MatchDecided:
        assert match.how is not None
        return events.MatchDecided(
            tournament_id=e.id,
            match_id=str(match.id),
            round=match.round,
            section=match.id.section.value,
            players=[_player(e, s) for s in match.players],
            winner=_player(e, winner),
            how=match.how.value,
            games_cancelled=[g.game_id for g in cancelled],
            decided_at=now,
        )


def _player(e: Elimination, seed: int) -> uuid.UUID:
    return uuid.UUID(e.player_of(seed))


def _tc(game: MatchGame) -> events.TimeControl:
    tc = game.planned.time_control
    return events.TimeControl(
        base_seconds=tc.base_seconds, increment_seconds=tc.increment_seconds, days_per_move=tc.days_per_move
    )


def _paired_match(e: Elimination, m: PairedMatch) -> events.PairedMatch:
    return events.PairedMatch(
        match_id=str(m.id),
        section=m.id.section.value,
        section_round=m.id.round,
        number=m.id.number,
        board=m.board,
        players=[_player(e, s) for s in m.players],
        first_white=_player(e, m.seed(m.first_white)),
    )
