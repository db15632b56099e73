"""Write a :class:`TrfDocument` back as TRF text.

``write(doc)`` reproduces a document read from a file exactly: every record is written as read, and a
player line is written as read unless its player record was changed (then it is laid out anew in
canonical columns). ``write(doc, canonical=True)`` — and any document built in code without lines —
lays out every record from the model, in the order: headers (012 ... 222, those kept as read among
them by number), comments, player lines, then the
extension records (JaVaFo's ``XX*``, bbpPairings' ``BB*``, Arbiter's ``XAR``). TRF-16 documents get ``XXR``/``XXC``/``XXP``; documents that use TRF-2026 records get
``142``/``152``/``260`` instead.
"""

from __future__ import annotations

from fractions import Fraction

from shared.trf.model import PlayerRecord, RoundEntry, TableRules, TrfDocument, TrfLine
from shared.trf.reader import BLOCK_WIDTH, ROUND_START, TrfError, _Context, _digits, _parse_player

__all__ = ["format_player", "format_points", "records", "write"]


def format_points(points: Fraction) -> str:
    """``2.5``, ``10.0``: one decimal, as TRF writes scores (more where a value needs them)."""
    for places in (1, 2, 3):
        text = f"{float(points):.{places}f}"
        if Fraction(text) == points:
            return text
    return f"{float(points):.4f}"


def _put(buf: list[str], first: int, text: str, *, right: bool = False, width: int | None = None) -> None:
    if width is not None:
        text = text.rjust(width) if right else text.ljust(width)
    end = first - 1 + len(text)
    if len(buf) < end:
        buf.extend(" " * (end - len(buf)))
    buf[first - 1 : end] = list(text)


def _block(entry: RoundEntry | None) -> str:
    if entry is None:
        return " " * 8
    opponent = f"{entry.opponent:4d}" if entry.opponent is not None else "0000"
    return f"{opponent} {entry.colour.value} {entry.result.value}"


def format_player(player: PlayerRecord) -> str:
    buf: list[str] = list("001")
    _put(buf, 5, str(player.start), right=True, width=4)
    _put(buf, 10, player.sex[:1], width=1)
    _put(buf, 11, player.title[:3], right=True, width=3)
    _put(buf, 15, player.name[:33], width=33)
    _put(buf, 49, str(player.rating) if player.rating else "", right=True, width=4)
    _put(buf, 54, player.federation[:3], width=3)
    _put(buf, 58, player.fide_id[:11], right=True, width=11)
    _put(buf, 70, player.birth[:10], width=10)
    _put(buf, 81, format_points(player.points) if player.points is not None else "", right=True, width=4)
    _put(buf, 86, str(player.rank) if player.rank is not None else "", right=True, width=4)
    for index, entry in enumerate(player.rounds):
        _put(buf, ROUND_START + 1 + BLOCK_WIDTH * index, _block(entry))
    return "".join(buf).rstrip()


def _as_read(line: TrfLine, player: PlayerRecord) -> str:
    """The line as read if it still describes the player, else the player laid out anew."""
    try:
        if _parse_player(line.text, _Context("<write>", 0)) == player:
            return line.text
    except TrfError:
        pass
    return format_player(player)


def _decimal(value: Fraction) -> str:
    return format_points(value)


_MODELLED = {
    "001", "012", "042", "052", "092", "142", "152", "162", "172", "192", "202", "212", "222", "240",
    "260", "XXR", "XXC", "XXP", "XXZ", "XXA", "XXS", "BBW", "BBD", "BBL", "BBZ", "BBF", "BBU", "XAR", "",
}  # fmt: skip


def records(doc: TrfDocument) -> list[TrfLine]:
    """Every record of the document laid out from the model (the canonical form). Records the
    model does not describe (022, 062, 102, 132, ``###`` comments, ...) are kept as read: numbered
    header records among the modelled ones in number order, comments after them, both before the
    player lines; anything else after them."""
    out: list[TrfLine] = []
    kept = [line for line in doc.lines if line.code not in _MODELLED]
    head = [line for line in kept if _digits(line.code) or line.code.startswith("#")]
    tail = [line for line in kept if line not in head]

    def add(code: str, text: str) -> None:
        out.append(TrfLine(code=code, text=f"{code} {text}".rstrip()))

    if doc.name:
        add("012", doc.name)
    if doc.start_date:
        add("042", doc.start_date.strftime("%Y/%m/%d"))
    if doc.end_date:
        add("052", doc.end_date.strftime("%Y/%m/%d"))
    if doc.tournament_type:
        add("092", doc.tournament_type)
    modern = doc.trf2026 or bool(
        doc.rank_method
        or doc.type_code
        or doc.tiebreaks
        or doc.time_control
        or doc.byes
        or any(k.startswith("162") for k in doc.point_system)
    )
    if modern:
        if doc.total_rounds is not None:
            add("142", str(doc.total_rounds))
        if doc.initial_colour is not None and doc.initial_colour.value in ("w", "b"):
            add("152", doc.initial_colour.value.upper())
    scoring = [(k[3:], v) for k, v in doc.point_system.items() if k.startswith("162")]
    if scoring:
        # letter in column 6, points right-aligned in columns 7-10, every 9 columns (as bbpPairings)
        out.append(TrfLine("162", "162  " + "    ".join(f"{k}{_decimal(v):>4}" for k, v in scoring)))
    if doc.rank_method:
        add("172", doc.rank_method)
    if doc.type_code:
        add("192", doc.type_code)
    if doc.tiebreaks:
        add("212" if doc.tiebreaks_with_points else "202", ", ".join(doc.tiebreaks))
    if doc.time_control:
        add("222", doc.time_control)
    numbered = [line for line in head if _digits(line.code)]
    out = sorted(out + numbered, key=lambda line: line.code)  # headers in number order (stable)
    out.extend(line for line in head if line not in numbered)
    for start in sorted(doc.players):
        out.append(TrfLine(code="001", text=format_player(doc.players[start]), player=start))
    for bye in doc.byes:
        add("240", f"{bye.kind} {bye.round:03d} " + "  ".join(f"{p:04d}" for p in bye.players))
    if not modern:
        if doc.total_rounds is not None:
            add("XXR", str(doc.total_rounds))
        options = (["rank"] if doc.ranking_by_rating else []) + (
            [f"{'white' if doc.initial_colour.value == 'w' else 'black'}1"]
            if doc.initial_colour is not None and doc.initial_colour.value in ("w", "b")
            else []
        )
        if options:
            add("XXC", " ".join(options))
    elif doc.ranking_by_rating:
        add("XXC", "rank")
    for pair in doc.forbidden_pairs:
        add("260" if modern else "XXP", " ".join(str(p) for p in pair))
    if doc.absent_next:
        add("XXZ", " ".join(str(p) for p in sorted(doc.absent_next)))
    for start, points in doc.accelerations.items():
        add("XXA", f"{start:4d}" + "".join(f" {_decimal(p):>4}" for p in points))
    xxs = [(k, v) for k, v in doc.point_system.items() if not k.startswith(("162", "BB"))]
    if xxs:
        add("XXS", " ".join(f"{k}={_decimal(v)}" for k, v in xxs))
    for key, value in doc.point_system.items():
        if key.startswith("BB"):
            add(key, f"{_decimal(value):>4}")  # bbpPairings reads the value from columns 5-8
    out.extend(TrfLine("XAR", text) for text in table_rule_records(doc.table_rules))
    out.extend(tail)
    return out


def table_rule_records(rules: TableRules) -> list[str]:
    """Arbiter's ``XAR`` records (:class:`~shared.trf.model.TableRules`)."""
    out = []
    if rules.tiebreaks:
        out.append("XAR TIEBREAKS " + ", ".join(rules.tiebreaks))
    if rules.shown:
        out.append("XAR SHOWN " + ", ".join(rules.shown))
    if rules.byes_as_opponents is not None:
        out.append("XAR BYES " + ("OPPONENT" if rules.byes_as_opponents else "NO-OPPONENT"))
    if rules.platform_definitions is not None:
        out.append("XAR DEFINITIONS " + ("PLATFORM" if rules.platform_definitions else "C07"))
    if rules.lots_seed:
        out.append(f"XAR LOTS {rules.lots_seed}")
    return out


def write(doc: TrfDocument, *, canonical: bool = False) -> str:
    if canonical or not doc.lines:
        lines = records(doc)
        return "\n".join(line.text for line in lines) + "\n"
    out = []
    for line in doc.lines:
        if line.player is not None:
            out.append(_as_read(line, doc.players[line.player]))
        else:
            out.append(line.text)
    return "\n".join(out) + "\n"
