"""The arena (RULES.md §3): continuous pairing of a waiting pool.

- :mod:`.cooldown` — when two players may meet again (5 minutes per game already played together);
- :mod:`.closing` — when pairing stops before the arena's end;
- :mod:`.pairing` — one pairing pass over the waiting pool;
- :mod:`.checker` — what a pass promises, checked from its input and output alone (tests, benchmark).
- :mod:`.record` — what the waiting pool holds, derived from the arena's record in the database (a pool
  that Redis lost is rebuilt from it).

Points, streaks and the ranking are shared (``shared/arena_scoring.py``); the boost's
clock change is the clocks' (``services/clocks/domain/boost.py``). The pool itself, its lease and the
atomic commit of a pass live in ``services/pairing/adapters/arena_pool.py``. docs/arena.md has it all.
"""
