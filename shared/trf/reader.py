"""Read TRF-16 / TRF-2026 text into a :class:`TrfDocument`.

Every problem is a :class:`TrfError` naming the file and the line: a line that breaks the
column layout, an unknown player number, a malformed extension record, a control character (the
file is not text).

Lines end with LF, CR LF or a lone CR (TRF-2026 asks for CR; bbpPairings writes it). A file is
UTF-8 (a byte-order mark is skipped), else read as Latin-1. Lines with a code the reader does not
know are kept and otherwise ignored, as the pairing engines do.
"""

from __future__ import annotations

import datetime as dt
import re
from fractions import Fraction
from pathlib import Path

from shared.trf.model import ByeRecord, PlayerRecord, ResultCode, RoundEntry, TrfColour, TrfDocument, TrfLine
from shared.trf.points import SCORING_LETTERS


def _digits(text: str) -> bool:
    """ASCII digits only: str.isdigit() also takes '²' or '٣', which int() then refuses."""
    return text.isascii() and text.isdigit()


ROUND_START = 91  # 0-based column of the first round block (column 92)
BLOCK_WIDTH = 10  # 8 characters and two spaces
_RESULT_CODES = {code.value: code for code in ResultCode}
_DECIMAL = re.compile(r"^-?(\d+(\.\d*)?|\.\d+)$")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_RECORD = re.compile(r"^(###|[0-9A-Z]{3}( |$))")


class TrfError(ValueError):
    """A TRF file that cannot be read; ``str()`` names the file and the line."""

    def __init__(self, message: str, *, source: str = "<trf>", line: int | None = None) -> None:
        self.message = message
        self.source = source
        self.line = line
        where = f"{source}:{line}" if line is not None else source
        super().__init__(f"{where}: {message}")


def read(path: str | Path, *, need_players: bool = False) -> TrfDocument:
    """Read a TRF file from disk (see :func:`parse` for ``need_players``)."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise TrfError(f"cannot read file: {exc.strerror or exc}", source=str(p)) from None
    return parse(decode(raw), source=str(p), need_players=need_players)


def decode(raw: bytes) -> str:
    """The text of a TRF file's bytes: UTF-8 (a byte-order mark is skipped), else Latin-1."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def parse(text: str, *, source: str = "<trf>", need_players: bool = False) -> TrfDocument:
    """Read TRF text. With ``need_players`` a text without any player (``001``) line is an error:
    an empty file, prose, anything but a tournament report."""
    doc = TrfDocument()
    player_lines: dict[int, int] = {}
    references: list[tuple[int, str, list[int]]] = []
    lines = _LINE_BREAK.split(text.removeprefix("\ufeff"))
    if lines and lines[-1] in ("", "\x1a"):  # the last line's end, or an MS-DOS end-of-file mark
        lines.pop()
    for number, line in enumerate(lines, start=1):
        code = line[:3]
        ctx = _Context(source, number)
        control = _CONTROL.search(line)
        if control:
            raise ctx.error(
                f"control character 0x{ord(control.group()):02x} in column {control.start() + 1}: "
                "this is not a text file (TRF is UTF-8 or Latin-1 text)"
            )
        if line.strip() == "":
            doc.lines.append(TrfLine(code="", text=line))
            continue
        if code == "001":
            player = _parse_player(line, ctx)
            if player.start in doc.players:
                raise ctx.error(
                    f"start number {player.start} already given on line {player_lines[player.start]}"
                )
            doc.players[player.start] = player
            player_lines[player.start] = number
            doc.lines.append(TrfLine(code=code, text=line, player=player.start))
            continue
        doc.lines.append(TrfLine(code=code, text=line))
        before = (len(doc.forbidden_pairs), set(doc.absent_next), len(doc.byes))
        _parse_record(doc, code, line, ctx)
        named = [start for pair in doc.forbidden_pairs[before[0] :] for start in pair]
        named += sorted(doc.absent_next - before[1])
        named += [start for bye in doc.byes[before[2] :] for start in bye.players]
        if named:
            references.append((number, code, named))
    if need_players and not doc.players:
        _no_players(doc, source)
    _check_references(doc, player_lines, source)
    _check_games(doc, player_lines, source)
    for number, code, named in references:
        for start in named:
            if start not in doc.players:
                raise TrfError(f"{code} names unknown player {start}", source=source, line=number)
    return doc


def _no_players(doc: TrfDocument, source: str) -> None:
    """Say why a text without player lines is no tournament: empty, or the first line that is no
    TRF record."""
    if all(not line.text.strip() for line in doc.lines):
        raise TrfError("the file is empty: no player (001) lines", source=source)
    for number, line in enumerate(doc.lines, start=1):
        if line.text.strip() and not _RECORD.match(line.text):
            shown = line.text.strip()
            shown = shown if len(shown) <= 40 else shown[:39] + "…"
            raise TrfError(
                f"no player (001) lines, and this line is no TRF record: {shown!r}",
                source=source,
                line=number,
            )
    raise TrfError("no player (001) lines: there is no tournament to read", source=source)


class _Context:
    def __init__(self, source: str, line: int) -> None:
        self.source = source
        self.line = line

    def error(self, message: str) -> TrfError:
        return TrfError(message, source=self.source, line=self.line)


def _field(line: str, first: int, last: int) -> str:
    """Columns ``first``..``last`` (1-based, inclusive), stripped."""
    return line[first - 1 : last].strip()


def _int_field(line: str, first: int, last: int, what: str, ctx: _Context) -> int | None:
    value = _field(line, first, last)
    if not value:
        return None
    if not _digits(value):
        raise ctx.error(f"{what} in columns {first}-{last} must be a number, got {value!r}")
    return int(value)


def _points(value: str, what: str, ctx: _Context) -> Fraction:
    if not _DECIMAL.match(value):
        raise ctx.error(f"{what} must be a decimal number, got {value!r}")
    return Fraction(value)


def _parse_player(line: str, ctx: _Context) -> PlayerRecord:
    if len(line) > 3 and line[3] != " ":
        raise ctx.error("a 001 line needs a space in column 4")
    start = _int_field(line, 5, 8, "the start number", ctx)
    if start is None or start == 0:
        raise ctx.error("a 001 line needs a start number in columns 5-8")
    points_text = _field(line, 81, 84)
    player = PlayerRecord(
        start=start,
        sex=_field(line, 10, 10),
        title=_field(line, 11, 13),
        name=_field(line, 15, 47),
        rating=_int_field(line, 49, 52, "the rating", ctx),
        federation=_field(line, 54, 56),
        fide_id=_field(line, 58, 68),
        birth=_field(line, 70, 79),
        points=_points(points_text, "the points in columns 81-84", ctx) if points_text else None,
        rank=_int_field(line, 86, 89, "the rank", ctx),
    )
    if len(line) > ROUND_START and line[ROUND_START - 2 : ROUND_START].strip():
        raise ctx.error("columns 90-91 must be blank before the first round block")
    round_no = 0
    pos = ROUND_START
    while pos < len(line):
        round_no += 1
        block = line[pos : pos + 8]
        gap = line[pos + 8 : pos + BLOCK_WIDTH]
        if gap.strip():
            raise ctx.error(
                f"round {round_no}: columns {pos + 9}-{pos + 10} must be blank between round blocks"
            )
        player.rounds.append(_parse_block(block, round_no, pos + 1, ctx))
        pos += BLOCK_WIDTH
    while player.rounds and player.rounds[-1] is None:
        player.rounds.pop()
    return player


def _parse_block(block: str, round_no: int, column: int, ctx: _Context) -> RoundEntry | None:
    if not block.strip():
        return None
    block = block.ljust(8)
    opp_text, sep1, colour_text, sep2, result_text = block[0:4], block[4], block[5], block[6], block[7]
    where = f"round {round_no} (columns {column}-{column + 7})"
    if sep1 != " " or sep2 != " ":
        raise ctx.error(f"{where}: expected 'NNNN c r', got {block!r}")
    opp_text = opp_text.strip()
    if opp_text and not _digits(opp_text):
        raise ctx.error(f"{where}: opponent must be a start number, got {opp_text!r}")
    opponent = int(opp_text) if opp_text else 0
    colour_char = colour_text.lower()
    if colour_char not in ("w", "b", "-", " "):
        raise ctx.error(f"{where}: colour must be w, b or -, got {colour_text!r}")
    colour = TrfColour.NONE if colour_char in ("-", " ") else TrfColour(colour_char)
    result_char = result_text.upper()
    if result_char == " ":
        result = ResultCode.ZERO_POINT_BYE
    elif result_char in _RESULT_CODES:
        result = _RESULT_CODES[result_char]
    else:
        raise ctx.error(
            f"{where}: unknown result code {result_text!r} (expected one of 1 = 0 + - W D L H F U Z)"
        )
    if opponent == 0:
        if not (result.is_bye or result.is_forfeit):
            raise ctx.error(f"{where}: result {result.value!r} needs an opponent")
        return RoundEntry(opponent=None, colour=colour, result=result)
    if result.is_bye:
        raise ctx.error(f"{where}: a bye ({result.value}) cannot have an opponent")
    if result.played and colour is TrfColour.NONE:
        raise ctx.error(f"{where}: a played game needs a colour (w or b)")
    return RoundEntry(opponent=opponent, colour=colour, result=result)


def _ids(tokens: list[str], what: str, ctx: _Context) -> list[int]:
    out = []
    for token in tokens:
        if not _digits(token):
            raise ctx.error(f"{what}: expected start numbers, got {token!r}")
        out.append(int(token))
    return out


def _parse_date(text: str, ctx: _Context) -> dt.date | None:
    text = text.strip()
    if not text:
        return None
    for fmt in ("%Y/%m/%d", "%Y-%m-%d", "%Y.%m.%d", "%d.%m.%Y", "%d/%m/%Y", "%y/%m/%d"):
        try:
            return dt.datetime.strptime(text, fmt).date()
        except ValueError:
            continue
    raise ctx.error(f"unrecognised date {text!r} (expected YYYY/MM/DD)")


_POINT_KEYS = {"BBW", "BBD", "BBL", "BBZ", "BBF", "BBU"}
_TRF2026 = {"142", "152", "162", "172", "182", "192", "202", "212", "222", "240", "250", "260", "299"}
_XXS_KEYS = {"WW", "BW", "WD", "BD", "WL", "BL", "ZPB", "HPB", "FPB", "PAB", "FW", "FL", "W", "D"}


def _parse_record(doc: TrfDocument, code: str, line: str, ctx: _Context) -> None:
    rest = line[3:].strip()
    tokens = rest.split()
    if code in _TRF2026:
        doc.trf2026 = True
    if code == "012":
        doc.name = rest
    elif code == "042":
        doc.start_date = _parse_date(rest, ctx)
    elif code == "052":
        doc.end_date = _parse_date(rest, ctx)
    elif code == "092":
        doc.tournament_type = rest
    elif code in ("XXR", "142"):
        if len(tokens) != 1 or not _digits(tokens[0]) or int(tokens[0]) < 1:
            raise ctx.error(f"{code} needs the number of rounds, got {rest!r}")
        doc.total_rounds = int(tokens[0])
    elif code == "XXC":
        for token in tokens:
            low = token.lower()
            if low == "rank":
                doc.ranking_by_rating = True
            elif low in ("white1", "black1"):
                doc.initial_colour = TrfColour.WHITE if low == "white1" else TrfColour.BLACK
            else:
                raise ctx.error(f"XXC: unknown option {token!r} (expected rank, white1 or black1)")
    elif code == "152":
        if rest.upper() not in ("W", "B"):
            raise ctx.error(f"152 needs W or B, got {rest!r}")
        doc.initial_colour = TrfColour.WHITE if rest.upper() == "W" else TrfColour.BLACK
    elif code in ("XXP", "260"):
        ids = _ids(tokens, code, ctx)
        if len(ids) < 2:
            raise ctx.error(f"{code} needs at least two start numbers")
        doc.forbidden_pairs.append(tuple(ids))
    elif code == "XXZ":
        doc.absent_next.update(_ids(tokens, code, ctx))
    elif code == "XXA":
        if not tokens or not _digits(tokens[0]):
            raise ctx.error("XXA needs a start number followed by acceleration points")
        # Several lines for one player continue its list (as bbpPairings reads them).
        points = [_points(t, "XXA points", ctx) for t in tokens[1:]]
        doc.accelerations.setdefault(int(tokens[0]), []).extend(points)
    elif code == "XXS":
        for token in tokens:
            key, eq, value = token.partition("=")
            if not eq:
                raise ctx.error(f"XXS: expected CODE=points, got {token!r}")
            if key.upper() not in _XXS_KEYS:
                raise ctx.error(f"XXS: unknown code {key!r} (expected one of {' '.join(sorted(_XXS_KEYS))})")
            _declare(doc, key.upper(), _points(value, f"XXS {key}", ctx))
    elif code in _POINT_KEYS:
        if len(tokens) != 1:
            raise ctx.error(f"{code} needs one point value")
        _declare(doc, code, _points(tokens[0], code, ctx))
    elif code == "162":
        _parse_scoring(doc, line, ctx)
    elif code == "172":
        doc.rank_method = rest
    elif code == "192":
        doc.type_code = rest
    elif code in ("202", "212"):
        doc.tiebreaks = [t for t in re.split(r"[,\s]+", rest) if t]
        doc.tiebreaks_with_points = code == "212"
    elif code == "222":
        doc.time_control = rest
    elif code == "240":
        _parse_bye(doc, line, ctx)
    elif code == "XAR":
        _parse_table_rule(doc, rest, ctx)


_XAR_KEYS = ("TIEBREAKS", "SHOWN", "BYES", "DEFINITIONS", "LOTS")


def _parse_table_rule(doc: TrfDocument, rest: str, ctx: _Context) -> None:
    """Arbiter's ``XAR KEY value`` records (:class:`~shared.trf.model.TableRules`)."""
    key, _, value = rest.partition(" ")
    key, value = key.upper(), value.strip()
    rules = doc.table_rules
    if key not in _XAR_KEYS:
        raise ctx.error(f"XAR: unknown rule {key!r} (expected one of {', '.join(_XAR_KEYS)})")
    if not value:
        raise ctx.error(f"XAR {key} needs a value")
    if key in ("TIEBREAKS", "SHOWN"):
        codes = [t for t in re.split(r"[,\s]+", value) if t]
        if key == "TIEBREAKS":
            rules.tiebreaks = codes
        else:
            rules.shown = codes
    elif key == "BYES":
        if value.upper() not in ("OPPONENT", "NO-OPPONENT"):
            raise ctx.error(f"XAR BYES is OPPONENT or NO-OPPONENT, got {value!r}")
        rules.byes_as_opponents = value.upper() == "OPPONENT"
    elif key == "DEFINITIONS":
        if value.upper() not in ("PLATFORM", "C07"):
            raise ctx.error(f"XAR DEFINITIONS is PLATFORM or C07, got {value!r}")
        rules.platform_definitions = value.upper() == "PLATFORM"
    else:
        rules.lots_seed = value


def _parse_bye(doc: TrfDocument, line: str, ctx: _Context) -> None:
    """TRF-2026 record 240: ``240 H 003  026  047`` (kind, round, start numbers)."""
    tokens = line[3:].split()
    if len(tokens) < 3:
        raise ctx.error("240 needs a bye type, a round and at least one start number")
    kind = tokens[0].upper()
    if kind not in ("H", "F", "Z", "U"):
        raise ctx.error(f"240: unknown bye type {tokens[0]!r} (expected H, F, Z or U)")
    if not _digits(tokens[1]) or int(tokens[1]) < 1:
        raise ctx.error(f"240: the round must be a number, got {tokens[1]!r}")
    doc.byes.append(ByeRecord(kind, int(tokens[1]), tuple(_ids(tokens[2:], "240", ctx))))


_SCORING_FIELD = re.compile(r"\s*([A-Za-z])\s*(\S*)")


def _declare(doc: TrfDocument, key: str, value: Fraction) -> None:
    """Record a point value; the dict stays in the order of each key's last declaration, which
    is what :func:`shared.trf.points.declared_points` replays."""
    doc.point_system.pop(key, None)
    doc.point_system[key] = value


def _parse_scoring(doc: TrfDocument, line: str, ctx: _Context) -> None:
    """TRF-2026 record 162: ``162  W 2.0    D 1.0 ...``: a result letter (column 6) and its
    points (columns 7-10), repeating every 9 columns; read by letter and number, so spacing may vary."""
    rest = line[3:].rstrip()
    pos = 0
    fields = []
    while pos < len(rest):
        match = _SCORING_FIELD.match(rest, pos)
        if match is None:
            raise ctx.error(f"162: expected a result letter, got {rest[pos:].strip()!r}")
        fields.append((match.group(1), match.group(2)))
        pos = match.end()
    if not fields:
        raise ctx.error("162 needs a result letter and its points, e.g. '162  W 3.0    D 1.0'")
    for key, value in fields:
        if key.upper() not in SCORING_LETTERS:
            raise ctx.error(
                f"162: unknown result letter {key!r} (expected one of {' '.join(SCORING_LETTERS)})"
            )
        if not value:
            raise ctx.error(f"162 {key} needs its points")
        _declare(doc, "162" + key.upper(), _points(value, f"162 {key}", ctx))


def _check_references(doc: TrfDocument, player_lines: dict[int, int], source: str) -> None:
    for start, player in doc.players.items():
        for round_no, entry in enumerate(player.rounds, start=1):
            if entry is None or entry.opponent is None:
                continue
            if entry.opponent not in doc.players:
                raise TrfError(
                    f"round {round_no}: unknown opponent {entry.opponent}",
                    source=source,
                    line=player_lines[start],
                )
            if entry.opponent == start:
                raise TrfError(
                    f"round {round_no}: player {start} paired with themselves",
                    source=source,
                    line=player_lines[start],
                )


_WINS = frozenset({ResultCode.WIN, ResultCode.WIN_UNRATED})
_LOSSES = frozenset({ResultCode.LOSS, ResultCode.LOSS_UNRATED})
_DRAWS = frozenset({ResultCode.DRAW, ResultCode.DRAW_UNRATED})
# what the opponent's block may say for each result
_MIRRORED: dict[ResultCode, frozenset[ResultCode]] = {
    **{r: _LOSSES for r in _WINS},
    **{r: _WINS for r in _LOSSES},
    **{r: _DRAWS for r in _DRAWS},
    ResultCode.FORFEIT_WIN: frozenset({ResultCode.FORFEIT_LOSS}),
    ResultCode.FORFEIT_LOSS: frozenset({ResultCode.FORFEIT_WIN, ResultCode.FORFEIT_LOSS}),  # or both lost
}
_COLOUR_MIRROR = {
    TrfColour.WHITE: TrfColour.BLACK,
    TrfColour.BLACK: TrfColour.WHITE,
    TrfColour.NONE: TrfColour.NONE,
}
_COLOUR_NAME = {TrfColour.WHITE: "white", TrfColour.BLACK: "black", TrfColour.NONE: "no colour"}


def _check_games(doc: TrfDocument, player_lines: dict[int, int], source: str) -> None:
    """Both lines of every game agree: each names the other, the colours are opposite (or both
    ``-``) and the results mirror (a win against a loss, a draw against a draw, a forfeit win
    against a forfeit loss; two forfeit losses are a double forfeit). The error is given at the
    line read first and names the other."""
    for start in sorted(doc.players, key=lambda s: player_lines[s]):
        for round_no, entry in enumerate(doc.players[start].rounds, start=1):
            if entry is None or entry.opponent is None:
                continue
            other = doc.players[entry.opponent]
            if player_lines[other.start] < player_lines[start]:
                continue  # checked from the other line
            problem = _disagreement(start, entry, other.start, other.entry(round_no))
            if problem is not None:
                raise TrfError(
                    f"round {round_no}: {problem} (line {player_lines[other.start]})",
                    source=source,
                    line=player_lines[start],
                )


def _disagreement(start: int, entry: RoundEntry, opponent: int, theirs: RoundEntry | None) -> str | None:
    said = f"player {start} plays {opponent}"
    if theirs is None or theirs.opponent is None:
        return f"{said}, but player {opponent} has no game in that round"
    if theirs.opponent != start:
        return f"{said}, but player {opponent} plays {theirs.opponent}"
    if theirs.colour is not _COLOUR_MIRROR[entry.colour]:
        return (
            f"{said} with {_COLOUR_NAME[entry.colour]}, but player {opponent} "
            f"has {_COLOUR_NAME[theirs.colour]}"
        )
    if theirs.result not in _MIRRORED[entry.result]:
        return f"{said}, result {entry.result.value!r}, but player {opponent}'s result is {theirs.result.value!r}"
    return None
