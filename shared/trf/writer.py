"""Write a :class:`TrfDocument` back as TRF text, in canonical column layout."""

from __future__ import annotations

from fractions import Fraction

from shared.trf.model import PlayerRecord, RoundEntry, TrfDocument
from shared.trf.reader import BLOCK_WIDTH, ROUND_START


def format_points(points: Fraction) -> str:
    """``2.5``, ``10.0``: one decimal, as TRF writes scores."""
    return f"{float(points):.1f}"


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


def write(doc: TrfDocument) -> str:
    out = []
    for line in doc.lines:
        if line.player is not None:
            out.append(format_player(doc.players[line.player]))
        else:
            out.append(line.text)
    return "\n".join(out) + "\n"
