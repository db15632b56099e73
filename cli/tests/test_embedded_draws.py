"""The embedded services' random draws come from one place (:class:`cli.embedded.Draws`), so that a demo
repeats itself for a seed: registration's ids (a tournament's id draws the first colour of a Swiss, FIDE
C.04.3's lot), a knockout's random seeding, the colours of each knockout match's first game (pairing)."""

from __future__ import annotations

import random
import uuid

from cli.embedded import Draws, EmbeddedStack


def test_seeded_draws_repeat_for_a_seed():
    def drawn(seed: int) -> tuple[list[uuid.UUID], int, list[int]]:
        draws = Draws.seeded(random.Random(seed))
        return [draws.new_id() for _ in range(3)], draws.draw_seed(), [draws.draw_white() for _ in range(8)]

    assert drawn(2026) == drawn(2026) != drawn(7)
    ids, _, colours = drawn(2026)
    assert len(set(ids)) == 3 and all(i.version == 4 for i in ids) and set(colours) <= {0, 1}


def test_the_services_draw_from_the_stack_s_draws(tmp_path):
    ids = iter(uuid.UUID(int=n, version=4) for n in range(100, 200))
    draws = Draws(new_id=lambda: next(ids), draw_seed=lambda: 4242, draw_white=lambda: 1)
    stack = EmbeddedStack.create(tmp_path, draws=draws)
    try:
        reg, staff = stack.api["registration"], stack.token(uuid.UUID(int=1), "service")
        organiser = uuid.UUID(int=2)
        reg.call("POST", "/accounts", {"name": "Organiser", "id": str(organiser)}, staff)
        body = {
            "ruleset": "knockout",
            "name": "Cup",
            "time_control": {"base_seconds": 600, "increment_seconds": 5},
            "knockout": {"seeding": "random", "games_per_match": 1},
        }
        token = stack.token(organiser)
        tid = reg.call("POST", "/tournaments", body, token)["id"]
        assert tid == str(uuid.UUID(int=100, version=4))  # registration's new id
        for n in range(8):
            player = {"name": f"P{n}", "id": str(uuid.UUID(int=10 + n)), "ratings": {"chess:rapid": 1500}}
            reg.call("POST", "/accounts", player, staff)
            reg.call("POST", f"/tournaments/{tid}/entries", {"player_id": player["id"]}, token)
        drawn = reg.call("POST", f"/tournaments/{tid}/seeding/draw", None, token)
        assert drawn["knockout"]["draw_seed"] == 4242  # the seeding's draw
        reg.call("POST", f"/tournaments/{tid}/start", None, token)
        stack.settle()
        t = stack.api["pairing"].call("GET", f"/tournaments/{tid}", None, token)
        matches = t["rounds"][0]["matches"]
        assert len(matches) == 4
        assert all(m["first_white"] == m["players"][1] for m in matches)  # slot 1 drawn White, every time
    finally:
        stack.close()
