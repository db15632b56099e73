"""A `fide-rapid` round as arbiters print it: the pairing list by board (names, ratings, points before the
round, the result once entered) and its byes, and the preview before pairing. From pairing's JSON
(``GET /tournaments/{id}/rounds/{n}/pairings`` and ``…/preview``); used by ``arbiter pair`` and the demo."""

from __future__ import annotations

from typing import Any

from cli.text import points
from cli.text import result as written

BYES = {"pairing_allocated": "pairing-allocated bye (1 point)", "zero_point": "zero-point bye (asked for)"}


def _player(p: dict[str, Any]) -> str:
    rating = str(p["rating"]) if p.get("rating") else "-"
    return f"{p['name'][:24]:<24} {rating:>4} {points(p['points']):>4}"


def pairing_lines(listing: dict[str, Any]) -> list[str]:
    """The pairing list of one round, one line per board, then the byes."""
    state = "published" if listing["published"] else "not published"
    lines = [
        f"Round {listing['round']} ({state})",
        f"{'Bd':>3}  {'White':<24} {'Rtg':>4} {'Pts':>4}  {'Black':<24} {'Rtg':>4} {'Pts':>4}  Result",
    ]
    for b in listing["boards"]:
        result = written(b["result"]) if b.get("result") else ""  # White first: 1-0, ½-½, 0-1, +/- ...
        lines.append(f"{b['board']:>3}  {_player(b['white'])}  {_player(b['black'])}  {result}".rstrip())
    for bye in listing["byes"]:
        p = bye["player"]
        lines.append(f"Bye: {p['name']} ({points(p['points'])}) — {BYES.get(bye['kind'], bye['kind'])}")
    return lines


def preview_lines(preview: dict[str, Any]) -> list[str]:
    """Who the pairing of the round takes, and who it leaves out."""

    def names(key: str) -> str:
        return ", ".join(p["name"] for p in preview[key]) or "none"

    lines = [f"Round {preview['round']}: {len(preview['present'])} present"]
    if preview["unfinished_boards"]:
        boards = ", ".join(str(b) for b in preview["unfinished_boards"])
        lines.append(f"  round {preview['round'] - 1} lacks results on boards {boards}")
    lines += [
        f"  zero-point byes asked for: {names('bye_requests')}",
        f"  withdrawn: {names('withdrawn')}",
        f"  absent from the round before (left out unless excused): {names('absent')}",
        f"  excused: {names('excused')}",
        f"  late entries not in yet: {names('late')}",
    ]
    state = "published" if preview["published"] else "paired, not published" if preview["paired"] else ""
    if state:
        lines.append(f"  the round is {state}")
    return lines
