"""Check a published pairing by the Dutch rules and say why it differs.

:func:`check_round` pairs the round again from the rounds before it and compares. Where the
published pairing differs, it finds the first criterion, in the order of C.04.3, on which the
published pairing does worse than the engine's:

1. **The absolute criteria**, on the published pairing alone: C1 (a rematch, a forbidden pair),
   C2 (a PAB to a player who may not get one), C3 (two players with the same absolute colour
   preference), and colours beyond the absolute limits (a colour difference beyond ±2, a colour
   three times in a row). Then C4 (more than one PAB) and C5 (the PAB goes to a higher score
   than possible).
2. **The brackets, from the top down**, as the engine decides them (:mod:`.procedure`). A
   bracket's decision is the set of pairs among its players (MDPs and residents); the others
   float down. Where the published decision differs from the engine's, both are evaluated with
   the engine's own weights (:meth:`.brackets.GeneralBracket.pair_fields`, every unpaired player
   in view): the fields of the decision's pairs, plus the best the rest can do given the
   decision (completion, the next bracket for C8, C9). The fields are compared most significant
   first; the first one on which the published decision is worse names the criterion (``c6`` is
   C6, ``n6``/``n7`` C8, ``col`` C10-C13, ``f14``-``f21`` C14-C21), with the bracket's score and
   both values. A decision that is as good on every field is *equal quality*: the engine takes
   it as the bracket's pairing and goes on with the next bracket from there.
3. **The colours** of each published board against the allocation rules (E.1-E.5).
4. Otherwise the published pairing differs from the engine's only in choices of equal quality
   (the order of exchanges and transpositions): "equal quality, another transposition".
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from services.pairing.domain.dutch.brackets import GeneralBracket
from services.pairing.domain.dutch.colours import ColourRule, allocation
from services.pairing.domain.dutch.criteria import field_order
from services.pairing.domain.dutch.engine import pair_round
from services.pairing.domain.dutch.matching import max_weight_matching
from services.pairing.domain.dutch.model import (
    Colour,
    InvalidInputError,
    NoValidPairingError,
    Pairing,
    RoundInput,
    RoundKind,
)
from services.pairing.domain.dutch.players import Field, FieldPlayer, Float, build_field
from services.pairing.domain.dutch.procedure import BracketStep, score_brackets
from services.pairing.domain.dutch.state import RoundState


@dataclass(frozen=True, slots=True)
class PublishedBoard:
    """A published game: ``white`` and ``black`` by pairing number (``coloured`` False when the
    file gives no colours, e.g. a forfeit written with ``-``)."""

    white: int
    black: int
    coloured: bool = True

    @property
    def players(self) -> frozenset[int]:
        return frozenset((self.white, self.black))


@dataclass(frozen=True, slots=True)
class PublishedRound:
    """The pairing a file holds for one round: its boards and its pairing-allocated byes."""

    boards: tuple[PublishedBoard, ...]
    byes: tuple[int, ...] = ()

    @property
    def empty(self) -> bool:
        return not self.boards and not self.byes


class Kind(StrEnum):
    ABSOLUTE = "absolute"  # an absolute criterion (C1-C3) or an absolute colour limit
    QUALITY = "quality"  # C4-C21: worse than possible
    COLOUR = "colour"  # a colour allocation rule (E.1-E.5)
    EQUAL = "equal"  # as good on every criterion: another transposition
    UNEXPLAINED = "unexplained"  # the checker found no criterion (not expected to happen)


Value = int | tuple[Fraction, ...] | None


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a published pairing differs: ``criterion`` (``C1``-``C21`` or ``E.1``-``E.5``; None
    for equal quality), the score ``bracket`` where that applies, the published (``file``) and
    the engine's value where the criterion counts something, and a sentence."""

    kind: Kind
    criterion: str | None
    text: str
    bracket: Fraction | None = None
    file: Value = None
    engine: Value = None


class CheckVerdict(StrEnum):
    OK = "ok"
    DEVIATES = "deviates"
    UNPAIRABLE = "unpairable"  # the engine finds no valid pairing for the round


@dataclass(frozen=True, slots=True)
class RoundCheck:
    """The outcome of checking one round. Pairs are ``(white, black)``; a published board without
    colours is given as its lower number first."""

    verdict: CheckVerdict
    published: PublishedRound
    engine: Pairing | None = None
    only_published: tuple[tuple[int, int], ...] = ()
    only_engine: tuple[tuple[int, int], ...] = ()
    other_colours: tuple[tuple[int, int], ...] = ()  # published boards the engine colours the other way
    reason: Reason | None = None
    message: str = ""  # why the round cannot be paired again

    @property
    def ok(self) -> bool:
        return self.verdict is CheckVerdict.OK


def check_round(data: RoundInput, published: PublishedRound) -> RoundCheck:
    """Pair the round described by ``data`` and compare with ``published``.

    Raises :class:`~.model.InvalidInputError` when the input contradicts itself, or when the
    published pairing names a player twice or one who is not to be paired."""
    players = build_field(data)
    _check_players(players, published)
    try:
        engine = pair_round(data)
    except NoValidPairingError as exc:
        reason = _Published(data, players, published).absolute()
        return RoundCheck(CheckVerdict.UNPAIRABLE, published, reason=reason, message=str(exc))
    difference = _difference(engine, published)
    if difference is None:
        return RoundCheck(CheckVerdict.OK, published, engine)
    only_published, only_engine, other_colours = difference
    return RoundCheck(
        CheckVerdict.DEVIATES,
        published,
        engine,
        only_published,
        only_engine,
        other_colours,
        _Published(data, players, published).reason(),
    )


def _check_players(players: Field, published: PublishedRound) -> None:
    present = {p.number for p in players.players}
    named = [n for board in published.boards for n in (board.white, board.black)] + list(published.byes)
    seen: set[int] = set()
    for number in named:
        if number not in present:
            raise InvalidInputError(f"the published pairing names player {number}, who is not to be paired")
        if number in seen:
            raise InvalidInputError(f"the published pairing names player {number} twice")
        seen.add(number)


def _difference(
    engine: Pairing, published: PublishedRound
) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]] | None:
    engine_pairs = {frozenset(game): game for game in engine.games}
    published_pairs = {board.players: board for board in published.boards}
    only_published = tuple(
        (b.white, b.black) for key, b in published_pairs.items() if key not in engine_pairs
    )
    only_engine = tuple(game for key, game in engine_pairs.items() if key not in published_pairs)
    other_colours = tuple(
        (b.white, b.black)
        for key, b in published_pairs.items()
        if key in engine_pairs and b.coloured and engine_pairs[key] != (b.white, b.black)
    )
    engine_byes = () if engine.bye is None else (engine.bye,)
    if not (only_published or only_engine or other_colours) and tuple(published.byes) == engine_byes:
        return None
    return only_published, only_engine, other_colours


def _points(score: int, unit: int) -> Fraction:
    return Fraction(score, unit)


def _show(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"


def _scores(values: tuple[Fraction, ...]) -> str:
    return ", ".join(_show(v) for v in values) if values else "none"


def _plural(count: int, one: str, many: str | None = None) -> str:
    return f"{count} {one if count == 1 else (many or one + 's')}"


class _Published:
    """The published pairing of one round, read against the round's field."""

    def __init__(self, data: RoundInput, players: Field, published: PublishedRound) -> None:
        self.data = data
        self.field = players
        self.published = published
        self.by_number: dict[int, FieldPlayer] = {p.number: p for p in players.players}
        self.history = {p.number: p.rounds for p in data.players}
        self.forbidden = {frozenset(pair) for pair in players.forbidden}

    # -- 1. the absolute criteria ------------------------------------------------------------

    def absolute(self) -> Reason | None:
        """C1, C2 and C3 on the published pairing, then the absolute colour limits."""
        boards = sorted(self.published.boards, key=lambda b: min(b.white, b.black))
        for board in boards:
            reason = self._met_or_forbidden(board)
            if reason is not None:
                return reason
        for number in self.published.byes:
            reason = self._pab_allowed(number)
            if reason is not None:
                return reason
        for board in boards:
            reason = self._absolute_preferences(board)
            if reason is not None:
                return reason
        for board in boards:
            reason = self._colour_limits(board)
            if reason is not None:
                return reason
        return None

    def _met_or_forbidden(self, board: PublishedBoard) -> Reason | None:
        a, b = sorted((board.white, board.black))
        for round_no, record in enumerate(self.history[a], start=1):
            if record.kind is RoundKind.PLAYED and record.opponent == b:
                return Reason(
                    Kind.ABSOLUTE,
                    "C1",
                    f"players {a} and {b} meet again: they played in round {round_no} (C1, absolute)",
                )
        if frozenset((a, b)) in self.forbidden:
            return Reason(
                Kind.ABSOLUTE, "C1", f"players {a} and {b} may not meet: a forbidden pair (C1, absolute)"
            )
        return None

    def _pab_allowed(self, number: int) -> Reason | None:
        player = self.by_number.get(number)
        if player is None or player.bye_eligible:
            return None
        win = self.data.points.win
        for round_no, record in enumerate(self.history[number], start=1):
            if record.kind is RoundKind.PAB:
                return Reason(
                    Kind.ABSOLUTE,
                    "C2",
                    f"player {number} gets the PAB again: they had it in round {round_no} (C2, absolute)",
                )
            if not record.kind.played and record.points >= win:
                return Reason(
                    Kind.ABSOLUTE,
                    "C2",
                    f"player {number} gets the PAB after scoring a win without playing in round {round_no} (C2, absolute)",
                )
        return Reason(Kind.ABSOLUTE, "C2", f"player {number} may not get the PAB (C2, absolute)")

    def _absolute_preferences(self, board: PublishedBoard) -> Reason | None:
        p, q = self.by_number[board.white], self.by_number[board.black]
        if not (p.pref.absolute and q.pref.absolute and p.pref.colour is q.pref.colour):
            return None
        if self.field.last_round and (p.topscorer or q.topscorer):
            return None
        colour = "white" if p.pref.colour is Colour.WHITE else "black"
        a, b = sorted((p.number, q.number))
        return Reason(
            Kind.ABSOLUTE,
            "C3",
            f"players {a} and {b} both have an absolute preference for {colour} and may not meet (C3, absolute)",
        )

    def _colour_limits(self, board: PublishedBoard) -> Reason | None:
        if not board.coloured:
            return None
        white, black = self.by_number[board.white], self.by_number[board.black]
        for player, opponent, colour in ((white, black, Colour.WHITE), (black, white, Colour.BLACK)):
            pref = player.pref
            if not pref.absolute or pref.colour is colour:
                continue
            if self.field.last_round and (player.topscorer or opponent.topscorer):
                continue  # topscorers in the final round: the colour rules decide (E.1-E.5)
            if opponent.pref.absolute and opponent.pref.colour is pref.colour:
                continue  # both cannot have it: C3 allows the pair (topscorers in the final round)
            colours = (*player.colours, colour)
            difference = sum(1 if c is Colour.WHITE else -1 for c in colours)
            name = "white" if colour is Colour.WHITE else "black"
            if len(colours) >= 3 and colours[-1] is colours[-2] is colours[-3]:
                beyond = f"gets {name} a third time in a row"
            else:
                beyond = f"gets a colour difference of {difference:+d}"
            rule = self._rule(board)
            return Reason(
                Kind.ABSOLUTE,
                rule.value,
                f"player {player.number} {beyond}: beyond the absolute colour limits ({rule.value}, absolute)",
            )
        return None

    def _rule(self, board: PublishedBoard) -> ColourRule:
        first, second = sorted(
            (self.by_number[board.white], self.by_number[board.black]), key=lambda p: p.number
        )
        return allocation(first.side, second.side, self.field.initial_colour)[1]

    # -- the whole reason --------------------------------------------------------------------

    def reason(self) -> Reason:
        reason = self.absolute()
        if reason is not None:
            return reason
        if len(self.published.byes) > 1:
            byes = ", ".join(str(n) for n in self.published.byes)
            return Reason(
                Kind.QUALITY,
                "C4",
                f"players {byes} are left unpaired (PAB) where at most one is possible (C4)",
                file=len(self.published.byes),
                engine=1,
            )
        walk = _BracketWalk(self)
        reason = walk.run()
        if reason is not None:
            return reason
        reason = self._colours()
        if reason is not None:
            return reason
        if walk.equal:
            brackets = ", ".join(_show(b) for b in walk.equal)
            return Reason(
                Kind.EQUAL,
                None,
                f"equal quality, another transposition (bracket {brackets})",
                bracket=walk.equal[0],
            )
        return Reason(
            Kind.UNEXPLAINED, None, "the checker finds no criterion on which the published pairing is worse"
        )

    def _colours(self) -> Reason | None:
        """E.1-E.5 on each published board with colours."""
        for board in sorted(self.published.boards, key=lambda b: min(b.white, b.black)):
            if not board.coloured:
                continue
            first, second = sorted(
                (self.by_number[board.white], self.by_number[board.black]), key=lambda p: p.number
            )
            colour, rule = allocation(first.side, second.side, self.field.initial_colour)
            white = first.number if colour is Colour.WHITE else second.number
            if white != board.white:
                return Reason(
                    Kind.COLOUR,
                    rule.value,
                    f"board {board.white}-{board.black}: player {white} should have white: {rule.text} "
                    f"({rule.value})",
                )
        return None


@dataclass
class _Evaluation:
    """A bracket decision as the weights see it: the summed fields, and the matching (the
    decision's pairs and the best pairing of everyone else) they come from."""

    fields: dict[Hashable, int]
    matching: dict[int, int]


class _BracketWalk:
    """Step 2: the brackets from the top down, the published decision compared with the
    engine's in each."""

    def __init__(self, published: _Published) -> None:
        self.published = published
        self.state = RoundState(published.field)
        self.index = {p.number: v for v, p in enumerate(self.state.players)}
        self.equal: list[Fraction] = []  # brackets decided otherwise, as well

    def run(self) -> Reason | None:
        state = self.state
        mate: dict[int, int] = {}
        for board in self.published.published.boards:
            u, v = self.index[board.white], self.index[board.black]
            mate[u], mate[v] = v, u
        for step in score_brackets(state):
            if step.index == 0:
                reason = self._pab_score()
                if reason is not None:
                    return reason
            members = step.mdps + step.residents
            inside = set(members)
            engine = {
                frozenset((u, state.mate_final[u]))
                for u in members
                if u in state.mate_final and u not in step.decided_before
            }
            chosen = {frozenset((u, mate[u])) for u in members if mate.get(u) in inside}
            if engine == chosen:
                continue
            reason = self._compare(step, engine, chosen)
            if reason is not None:
                return reason
        return None

    def _pab_score(self) -> Reason | None:
        """C5: the PAB goes to the lowest score possible."""
        state = self.state
        unit = state.field.unit
        for number in self.published.published.byes:
            player = state.players[self.index[number]]
            if player.score > state.bye_score:
                return Reason(
                    Kind.QUALITY,
                    "C5",
                    f"the PAB goes to player {number} with score {_show(_points(player.score, unit))} "
                    f"where score {_show(_points(state.bye_score, unit))} is possible (C5)",
                    file=(_points(player.score, unit),),
                    engine=(_points(state.bye_score, unit),),
                )
        return None

    def _compare(
        self, step: BracketStep, engine: set[frozenset[int]], chosen: set[frozenset[int]]
    ) -> Reason | None:
        state = self.state
        decided = state.mate_final
        state.mate_final = dict(step.decided_before)
        try:
            bracket = GeneralBracket(state, step.mdps, step.residents, step.next_group, step.c9, full=True)
            ours = self._evaluate(bracket, engine)
            theirs = self._evaluate(bracket, chosen)
        finally:
            state.mate_final = decided
        keys = sorted(set(ours.fields) | set(theirs.fields), key=field_order)
        for key in keys:
            mine, yours = ours.fields.get(key, 0), theirs.fields.get(key, 0)
            if mine == yours:
                continue
            if yours > mine:
                return Reason(
                    Kind.UNEXPLAINED,
                    None,
                    f"the published pairing of bracket {_show(self._score(step))} does better than the "
                    f"engine's on {_criterion(key)}: the checker cannot explain the difference",
                    bracket=self._score(step),
                )
            return _Describe(state, step, self._score(step), ours, theirs).reason(key)
        # As good on every criterion: the engine takes the published decision and goes on.
        state.mate_final = dict(step.decided_before)
        for pair in chosen:
            u, v = tuple(pair)
            state.mate_final[u], state.mate_final[v] = v, u
        step.window = theirs.matching
        self.equal.append(self._score(step))
        return None

    def _score(self, step: BracketStep) -> Fraction:
        return _points(self.state.players[step.residents[0]].score, self.state.field.unit)

    def _evaluate(self, bracket: GeneralBracket, decision: set[frozenset[int]]) -> _Evaluation:
        """The decision's pairs, and the best the weights can do with everyone else given it:
        the bracket's other players float (they pair only outside the bracket)."""
        state = self.state
        inside = bracket.mdp_set | bracket.sg_set
        paired = {v for pair in decision for v in pair}
        local: dict[int, int] = {}
        edges = []
        for (u, v), weight in bracket.crit.items():
            if u in state.mate_final or v in state.mate_final or u in paired or v in paired:
                continue
            if u in inside and v in inside:
                continue
            edges.append((local.setdefault(u, len(local)), local.setdefault(v, len(local)), weight))
        vertices = list(local)
        mate = max_weight_matching(len(vertices), edges)
        matching = {vertices[i]: vertices[m] for i, m in enumerate(mate) if m >= 0}
        for pair in decision:
            u, v = tuple(pair)
            matching[u], matching[v] = v, u
        fields: dict[Hashable, int] = {}
        for u, v in matching.items():
            if u < v:
                for key, value in bracket.pair_fields(u, v).items():
                    fields[key] = fields.get(key, 0) + value
        return _Evaluation({k: v for k, v in fields.items() if v}, matching)


_NAMES = {
    "top": "C4",
    "c6": "C6",
    "c7": "C7",
    "n6": "C8",
    "n7": "C8",
    "c9": "C9",
    "f14": "C14",
    "f15": "C15",
    "f16": "C16",
    "f17": "C17",
    "f18": "C18",
    "f19": "C19",
    "f20": "C20",
    "f21": "C21",
}


def _criterion(key: Hashable) -> str:
    name = key[0] if isinstance(key, tuple) else key
    if name == "col":
        assert isinstance(key, tuple)
        return f"C{10 + key[1]}"
    return _NAMES[str(name)]


class _Describe:
    """The values a criterion counts, for the published and the engine's decision of a bracket."""

    def __init__(
        self, state: RoundState, step: BracketStep, bracket: Fraction, ours: _Evaluation, theirs: _Evaluation
    ) -> None:
        self.state = state
        self.step = step
        self.ours, self.theirs = ours, theirs
        self.unit = state.field.unit
        self.bracket = bracket
        self.rounds = self.state.field.rounds_played
        self.back = 0  # how many rounds before the last the floats of C14-C21 look

    def reason(self, key: Hashable) -> Reason:
        name = str(key[0] if isinstance(key, tuple) else key)
        where = f"in bracket {_show(self.bracket)}"
        self.back = 1 if name in ("f16", "f17", "f20", "f21") else 0
        earlier = f"in round {self.rounds - self.back}"
        if name == "top":
            return self._reason(key, f"the published choice {where} leaves players who cannot all be paired")
        if name == "c9":
            mine, yours = self._unplayed(self.ours), self._unplayed(self.theirs)
            text = (
                f"the PAB goes to a player with {_plural(yours, 'unplayed game')} {where} {_possible(mine)}"
            )
            return self._reason(key, text, yours, mine)
        if name == "col":
            assert isinstance(key, tuple)
            mine, yours = -self.ours.fields.get(key, 0), -self.theirs.fields.get(key, 0)
            one, many, what = _COLOUR_CRITERIA[int(key[1])]
            text = f"{yours} {one if yours == 1 else many} {what} {where} {_possible(mine)}"
            return self._reason(key, text, yours, mine)
        counted: dict[str, tuple[str, Callable[[_Evaluation], tuple[Fraction, ...]]]] = {
            "c6": (f"the published pairing has {{n}} {where}", self._downfloaters),
            "n6": (f"the published choice {where} leaves {{n}} in the next bracket", self._next_downfloaters),
            "f14": (f"{{n}} who floated down {earlier} {{verb}} down again {where}", self._down_residents),
            "f16": (f"{{n}} who floated down {earlier} {{verb}} down again {where}", self._down_residents),
            "f15": (f"{{n}} who floated up {earlier} {{verb}} up again {where}", self._up_opponents),
            "f17": (f"{{n}} who floated up {earlier} {{verb}} up again {where}", self._up_opponents),
        }
        if name in counted:
            template, values = counted[name]
            mine_n, yours_n = len(values(self.ours)), len(values(self.theirs))
            noun = "downfloater" if name in ("c6", "n6") else "player"
            text = template.format(n=_plural(yours_n, noun), verb="floats" if yours_n == 1 else "float")
            return self._reason(key, f"{text} {_possible(mine_n)}", yours_n, mine_n)
        listed: dict[str, tuple[str, Callable[[_Evaluation], tuple[Fraction, ...]]]] = {
            "c7": (f"the downfloaters {where} score {{v}} in the published pairing", self._downfloaters),
            "n7": (
                f"the published choice {where} leaves downfloaters scoring {{v}} in the next bracket",
                self._next_downfloaters,
            ),
            "f18": (
                f"the players who floated down {earlier} and float down again {where} score {{v}}",
                self._down_members,
            ),
            "f20": (
                f"the players who floated down {earlier} and float down again {where} score {{v}}",
                self._down_members,
            ),
            "f19": (
                f"the players who floated up {earlier} float up again {where} against opponents scoring {{v}}",
                self._up_opponents,
            ),
            "f21": (
                f"the players who floated up {earlier} float up again {where} against opponents scoring {{v}}",
                self._up_opponents,
            ),
        }
        template, values = listed[name]
        mine_v, yours_v = values(self.ours), values(self.theirs)
        text = template.format(v=_scores(yours_v))
        return self._reason(key, f"{text} where {_scores(mine_v)} is possible", yours_v, mine_v)

    def _reason(self, key: Hashable, text: str, yours: Value = None, mine: Value = None) -> Reason:
        criterion = _criterion(key)
        return Reason(Kind.QUALITY, criterion, f"{text} ({criterion})", self.bracket, yours, mine)

    # -- the values ----------------------------------------------------------------------------

    def _members(self) -> list[int]:
        return self.step.mdps + self.step.residents

    def _inside(self, evaluation: _Evaluation) -> set[int]:
        """The bracket's players paired within it."""
        members = set(self._members())
        return {v for v in members if evaluation.matching.get(v) in members}

    def _desc(self, vertices: list[int]) -> tuple[Fraction, ...]:
        players = self.state.players
        return tuple(sorted((_points(players[v].score, self.unit) for v in vertices), reverse=True))

    def _downfloaters(self, evaluation: _Evaluation) -> tuple[Fraction, ...]:
        inside = self._inside(evaluation)
        return self._desc([v for v in self._members() if v not in inside])

    def _next_downfloaters(self, evaluation: _Evaluation) -> tuple[Fraction, ...]:
        inside = self._inside(evaluation)
        bracket = [v for v in self._members() if v not in inside] + self.step.next_group
        members = set(bracket)
        return self._desc([v for v in bracket if evaluation.matching.get(v) not in members])

    def _unplayed(self, evaluation: _Evaluation) -> int:
        players = self.state.players
        before = self.step.decided_before
        left = [v for v in range(self.state.n) if v not in before and v not in evaluation.matching]
        if not left:
            return 0
        return self.rounds - players[left[0]].played_games

    def _repeated_down(self, evaluation: _Evaluation, back: int, *, mdps: bool) -> tuple[Fraction, ...]:
        """Downfloaters who floated down ``back + 1`` rounds ago: the residents (C14, C16) and,
        for the scores (C18, C20), the MDPs as well, as the weights count them."""
        inside = self._inside(evaluation)
        players = self.state.players
        candidates = self._members() if mdps else self.step.residents
        return self._desc(
            [v for v in candidates if v not in inside and players[v].floats[back] is Float.DOWN]
        )

    def _down_residents(self, evaluation: _Evaluation) -> tuple[Fraction, ...]:
        return self._repeated_down(evaluation, self.back, mdps=False)

    def _down_members(self, evaluation: _Evaluation) -> tuple[Fraction, ...]:
        return self._repeated_down(evaluation, self.back, mdps=True)

    def _up_opponents(self, evaluation: _Evaluation) -> tuple[Fraction, ...]:
        """The scores of the MDPs met by residents who floated up ``back + 1`` rounds ago."""
        players = self.state.players
        mdps = set(self.step.mdps)
        return self._desc(
            [
                evaluation.matching[v]
                for v in self.step.residents
                if evaluation.matching.get(v) in mdps and players[v].floats[self.back] is Float.UP
            ]
        )


_COLOUR_CRITERIA = {
    0: ("topscorer or opponent gets", "topscorers or opponents get", "a colour difference beyond ±2"),
    1: ("topscorer or opponent gets", "topscorers or opponents get", "the same colour three times in a row"),
    2: ("player does not get", "players do not get", "their colour preference"),
    3: ("player does not get", "players do not get", "their strong colour preference"),
}


def _possible(count: int) -> str:
    return f"where {count} {'is' if count == 1 else 'are'} possible"
