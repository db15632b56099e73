"""The projection: each event is stored as rows and applied to the tournament's live table in one
unit of work, under the tournament's row lock (so one tournament's events never interleave, while
different tournaments proceed in parallel). After every change the table's snapshot is saved and
``standings.updated`` published; ``tournament.completed`` publishes ``standings.final``.

An event about a tournament or game this service has not recorded yet, or a completion that
overtook the last results, is not ready: the broker delivers it again later, behind the others
(the queues of different events give no order between them). A second result for a game changes nothing
(the first one stands), and a redelivered event is stopped by the inbox before it gets here.
"""

from __future__ import annotations

import uuid
from typing import Any

from services.standings.domain import errors
from services.standings.domain.bracket import BracketMatch, KnockoutFormat, Placing
from services.standings.domain.live_table import LiveTable
from services.standings.domain.tournament import (
    Bye,
    Competitor,
    Game,
    PairedRound,
    TimeControl,
    Tournament,
    TournamentInfo,
    published_on_pairing,
)
from services.standings.service_layer.unit_of_work import StandingsUnitOfWork
from shared import events
from shared.messaging.port import NotReady
from shared.timesource import Clock


def _rows(snapshot: dict[str, Any]) -> list[events.StandingRow]:
    table = snapshot["table"]
    return [
        events.StandingRow(
            rank=row["rank"],
            player_id=uuid.UUID(row["player_id"]),
            seed=row["seed"],
            name=row["name"],
            points=row["points"],
            tiebreaks=row["tiebreaks"],
        )
        for row in table["rows"]
    ]


def _knockout(settings: events.TournamentSettings) -> KnockoutFormat | None:
    ko = settings.knockout
    if ko is None:
        return None
    plan = ko.tiebreak_plan

    def clock(tc: events.TimeControl) -> TimeControl:
        return TimeControl(tc.base_seconds, tc.increment_seconds)

    return KnockoutFormat(
        format=ko.format,
        games_per_match=ko.games_per_match,
        seeding=ko.seeding,
        draw_seed=ko.draw_seed,
        third_place=ko.third_place,
        second_final=ko.second_final,
        stages=tuple((s.games, clock(s.time_control)) for s in plan.stages),
        sudden_death=clock(plan.sudden_death),
    )


def _seed(t: Tournament, player_id: uuid.UUID | None) -> int | None:
    return None if player_id is None else t.seed_of(player_id)


def _placing(t: Tournament, placing: list[events.Placing] | None) -> list[Placing] | None:
    if placing is None:
        return None
    for p in placing:
        if t.seed_of(p.player_id) != p.seed:
            raise errors.EventMismatch(f"the placing gives {p.player_id} seed {p.seed}")
    return [Placing(p.seed, p.rank, (p.places[0], p.places[1]), p.matches_won) for p in placing]


class Handlers:
    """Built by bootstrap with the clock they need."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock

    def on_tournament_started(self, event: events.TournamentStarted, uow: StandingsUnitOfWork) -> None:
        if uow.tournaments.lock(event.tournament_id) is not None:
            return  # recorded already (the same start published twice)
        tc = event.settings.time_control
        t = Tournament(
            TournamentInfo(
                id=event.tournament_id,
                name=event.name,
                ruleset=event.settings.ruleset,
                started_at=event.started_at,
                time_control=TimeControl(tc.base_seconds, tc.increment_seconds, tc.days_per_move),
                variant=event.settings.variant,
                double_rounds=event.settings.double_rounds,
                knockout=_knockout(event.settings),
            ),
            [
                Competitor(r.seed, r.player_id, r.name, r.rating)
                for r in sorted(event.roster, key=lambda r: r.seed)
            ],
        )
        live = LiveTable(t)
        uow.tournaments.add(t, live.snapshot())
        uow.keep(t.id, 0, live)

    def on_round_paired(self, event: events.RoundPaired, uow: StandingsUnitOfWork) -> None:
        tid = event.tournament_id
        revision, live = self._live(uow, tid)
        t = live.tournament
        games = [
            Game(
                g.game_id,
                event.round,
                g.board,
                t.seed_of(g.white),
                t.seed_of(g.black),
                g.leg,
                match_id=g.match_id,
                number=g.number,
                label=g.label,
            )
            for g in event.games
        ]
        matches = [
            BracketMatch(
                m.match_id,
                event.round,
                m.section,
                m.section_round,
                m.number,
                m.board,
                (_seed(t, m.players[0]), _seed(t, m.players[1])),
                _seed(t, m.first_white),
            )
            for m in event.matches
        ]
        if event.round in t.rounds:
            # the same round again: the games it adds (a knockout's tie-break games), else nothing
            new_games, new_matches = live.extend_round(event.round, games, matches)
            if not new_games and not new_matches:
                return
            uow.tournaments.add_games(tid, new_games, new_matches)
            self._save(uow, revision + 1, live)
            return
        published = event.published if event.published is not None else published_on_pairing(t.info.ruleset)
        rnd = PairedRound(
            event.round,
            games,
            [Bye(event.round, t.seed_of(b.player_id), b.kind) for b in event.byes],
            published=published,
            matches=matches,
        )
        live.pair_round(rnd, system=event.system, total_rounds=event.total_rounds)
        uow.tournaments.add_round(t, rnd, self.clock.now())
        self._save(uow, revision + 1, live)

    def on_game_finished(self, event: events.GameFinished, uow: StandingsUnitOfWork) -> None:
        tid = event.tournament_id
        revision, live = self._live(uow, tid)
        t = live.tournament
        try:
            game = t.game(event.game_id)
        except errors.GameNotFound as exc:  # its pairing is still on its way
            raise NotReady(str(exc)) from None
        if (game.round, game.white, game.black) != (
            event.round,
            t.seed_of(event.white),
            t.seed_of(event.black),
        ):
            raise errors.EventMismatch(
                f"game.finished for {event.game_id} names round {event.round} and other players than its pairing"
            )
        finished = live.record_result(event.game_id, event.outcome, event.reason, event.finished_at)
        if finished is None:
            return  # a second result for the game: the first one stands
        uow.tournaments.record_result(finished)
        self._save(uow, revision + 1, live)

    def on_round_published(self, event: events.RoundPublished, uow: StandingsUnitOfWork) -> None:
        """A knockout round is public: its pairings and results are shown from now on."""
        tid = event.tournament_id
        revision, live = self._live(uow, tid)
        try:
            changed = live.publish(event.round)
        except errors.RoundNotFound as exc:  # its pairing is still on its way
            raise NotReady(str(exc)) from None
        if not changed:
            return
        uow.tournaments.publish_round(tid, event.round)
        self._save(uow, revision + 1, live)

    def on_match_decided(self, event: events.MatchDecided, uow: StandingsUnitOfWork) -> None:
        """Who advances from a knockout match, and how it was decided."""
        tid = event.tournament_id
        revision, live = self._live(uow, tid)
        try:
            match = live.tournament.decide(event.match_id, event.winner, event.how, event.decided_at)
        except errors.MatchNotFound as exc:  # its pairing is still on its way
            raise NotReady(str(exc)) from None
        if match is None:
            return
        uow.tournaments.decide_match(tid, match)
        self._save(uow, revision + 1, live)

    def on_game_cancelled(self, event: events.GameCancelled, uow: StandingsUnitOfWork) -> None:
        """A game its knockout match no longer needed: shown as cancelled, counted nowhere."""
        tid = event.tournament_id
        revision, live = self._live(uow, tid)
        try:
            cancelled = live.tournament.cancel(event.game_id)
        except errors.GameNotFound as exc:  # its pairing is still on its way
            raise NotReady(str(exc)) from None
        if cancelled is None:
            return
        uow.tournaments.cancel_game(event.game_id, event.cancelled_at)
        self._save(uow, revision + 1, live)

    def on_tournament_completed(self, event: events.TournamentCompleted, uow: StandingsUnitOfWork) -> None:
        tid = event.tournament_id
        revision, live = self._live(uow, tid)
        if live.tournament.info.completed_at is not None:
            return
        open_games = [
            g.game_id for r in live.tournament.rounds.values() for g in r.live_games if g.outcome is None
        ]
        # pairing completes a tournament only after its last result (a knockout's games it no longer
        # needed: their cancellation): those are on their way
        if open_games:
            raise NotReady(f"tournament.completed before the results of {len(open_games)} games")
        live.tournament.info.completed_at = event.completed_at
        placing = _placing(live.tournament, event.placing)
        live.tournament.placing = placing
        uow.tournaments.complete(tid, event.completed_at, revision + 1, placing)
        uow.keep(tid, revision + 1, live)
        snapshot = live.snapshot()
        if snapshot["table"] is not None:
            uow.publish(events.StandingsFinal(tournament_id=tid, rows=_rows(snapshot)), tid)

    # -- the live table ------------------------------------------------------------------------------

    def _live(self, uow: StandingsUnitOfWork, tournament_id: uuid.UUID) -> tuple[int, LiveTable]:
        """Lock the tournament and take its live table: from the cache when it is current, else
        built from the rows. It goes back to the cache as it is when the unit commits, unless a
        change saves a new revision (a rolled-back change forgets it: ``restore``)."""
        revision = uow.tournaments.lock(tournament_id)
        if revision is None:
            raise NotReady(f"no tournament {tournament_id} (tournament.started not seen yet)")
        live = uow.take(tournament_id, revision)
        if live is None:
            loaded = uow.tournaments.get(tournament_id)
            assert loaded is not None  # locked above
            live = LiveTable(loaded[0])
        uow.keep(tournament_id, revision, live)
        return revision, live

    def _save(self, uow: StandingsUnitOfWork, revision: int, live: LiveTable) -> None:
        t = live.tournament
        snapshot = live.snapshot()
        uow.tournaments.save_snapshot(t.id, revision, snapshot)
        uow.keep(t.id, revision, live)
        if snapshot["table"] is not None:
            uow.publish(
                events.StandingsUpdated(
                    tournament_id=t.id,
                    after_round=snapshot["after_round"],
                    games_counted=snapshot["games_counted"],
                    rows=_rows(snapshot),
                ),
                t.id,
            )
