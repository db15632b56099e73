"""The games themselves: positions and legal moves of every variant, from the real move generators
(python-chess for chess, pydraughts for the draughts variants) behind one small interface
(:mod:`shared.games.boards`). Pure: no framework, no I/O; the generators are imported only when a
position is first asked for, so importing this package costs nothing."""
