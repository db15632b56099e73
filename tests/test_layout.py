"""The house stays walkable (issue 24): no domain module over 800 lines. A module that outgrows it is split by
the ideas it holds (CONTRIBUTING.md, "Rules of the house")."""

from __future__ import annotations

import inspect
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAX_LINES = 800


def test_no_domain_module_is_over_800_lines() -> None:
    modules = [
        p
        for top in ("services", "shared", "cli")
        for p in sorted((ROOT / top).rglob("*.py"))
        if "domain" in str(p.relative_to(ROOT))
    ]
    assert len(modules) > 100  # the domain packages were found
    lines = {str(p.relative_to(ROOT)): len(p.read_text(encoding="utf-8").splitlines()) for p in modules}
    assert {path: n for path, n in lines.items() if n > MAX_LINES} == {}


def test_an_aggregate_implements_what_its_mixins_declare() -> None:
    """A mixin declares the aggregate's methods it uses as abstract (CONTRIBUTING.md). ``Aggregate`` is no
    ABC, so nothing else would notice one left without its implementation: its stub would answer None."""
    from services.clocks.domain.game import Game
    from services.standings.domain.tournament import Tournament

    for aggregate in (Tournament, Game):
        mixins = [c for c in aggregate.__mro__[1:] if c.__module__ != aggregate.__module__]
        assert len(mixins) > 2, aggregate  # Aggregate and at least two parts
        left = []
        for name in dir(aggregate):
            found = inspect.getattr_static(aggregate, name)
            member = found.fget if isinstance(found, property) else found
            if getattr(member, "__isabstractmethod__", False):
                left.append(name)
        assert left == [], aggregate
