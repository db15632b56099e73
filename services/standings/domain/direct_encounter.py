"""Direct encounter (DE, C.07 Art. 6), applied to a group of participants tied on every earlier
criterion.

- 6.1: the points each scored in the games among them; a pair that met more than once counts the
  average of their results (6.1.2). Only games played over the board count, unless forfeits are to
  count as played (the ``-P`` modifier, and always in events with pre-determined pairings). A game
  without a result (``NOT_PLAYED``: still open, or annulled) is no encounter.
- 6.2 (Swiss, when not all of them have met): a participant goes ahead only when their score exceeds
  the highest score every participant still behind could reach, each missing encounter counted as a
  win; this is applied from the top while it stays unique, everyone else shares the place.
- 6.3: the rule is applied again to any sub-group that remains tied, with only its members.

The value reported for each participant is their position within the tied group (1 = first, shared
positions shared), or 0 when DE does not separate the group at all (also for a participant who is
tied with nobody) — the convention of FIDE TEC's TieBreakServer.
"""

from __future__ import annotations

from fractions import Fraction

from services.standings.domain.context import TieBreakContext
from shared.scoring import Result

__all__ = ["direct_encounter"]


def _scores(ctx: TieBreakContext, group: list[int], forfeits_count: bool) -> dict[int, tuple[Fraction, int]]:
    """(points against the group, number of group members met) for each member."""
    members = set(group)
    out: dict[int, tuple[Fraction, int]] = {}
    for start in group:
        me = ctx.basis(start)
        per_opponent: dict[int, list[int]] = {}
        for i, opp in enumerate(me.opponents):
            if not opp or opp not in members or opp == start:
                continue
            if me.played[i] or (forfeits_count and me.results[i] is not Result.NOT_PLAYED):
                per_opponent.setdefault(opp, []).append(me.units[i])
        total = sum(
            (Fraction(sum(results), len(results)) for results in per_opponent.values()),
            Fraction(0),
        )
        out[start] = (total, len(per_opponent))
    return out


def _tiers(ctx: TieBreakContext, group: list[int], forfeits_count: bool) -> list[list[int]]:
    """One pass of the rule: the group split into tiers, best first."""
    scores = _scores(ctx, group, forfeits_count)
    others = len(group) - 1
    all_met = ctx.history.pre_determined or all(met >= others for _, met in scores.values())
    if all_met:
        ordered = sorted(group, key=lambda s: (-scores[s][0], s))
        tiers: list[list[int]] = []
        for start in ordered:
            if tiers and scores[tiers[-1][0]][0] == scores[start][0]:
                tiers[-1].append(start)
            else:
                tiers.append([start])
        return tiers
    win = ctx.win
    maximum = {s: scores[s][0] + (others - scores[s][1]) * win for s in group}
    ordered = sorted(group, key=lambda s: (-scores[s][0], -maximum[s], s))
    tiers = []
    for i, start in enumerate(ordered):
        rest = ordered[i + 1 :]
        if rest and scores[start][0] > max(maximum[s] for s in rest):
            tiers.append([start])
        else:
            tiers.append(ordered[i:])
            break
    return tiers


def _resolve(ctx: TieBreakContext, group: list[int], forfeits_count: bool) -> list[list[int]]:
    tiers = _tiers(ctx, group, forfeits_count)
    if len(tiers) == 1:
        return tiers
    out: list[list[int]] = []
    for tier in tiers:
        out.extend(_resolve(ctx, tier, forfeits_count) if len(tier) > 1 else [tier])
    return out


def direct_encounter(
    ctx: TieBreakContext, group: list[int], *, forfeits_count: bool = False
) -> dict[int, int]:
    """Positions within a tied group (see the module text); 0 for everyone when nothing separates."""
    if len(group) < 2:
        return dict.fromkeys(group, 0)
    tiers = _resolve(ctx, sorted(group), forfeits_count or ctx.history.pre_determined)
    if len(tiers) == 1:
        return dict.fromkeys(group, 0)
    positions: dict[int, int] = {}
    place = 1
    for tier in tiers:
        for start in tier:
            positions[start] = place
        place += len(tier)
    return positions
