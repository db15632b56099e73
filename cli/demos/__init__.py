"""`arbiter demo`: whole tournaments embedded, one module per format.

A tree, not a circle (``pyproject.toml``'s import contracts hold it): :mod:`cli.demos.command` (the click
command) imports the formats, :mod:`~cli.demos.platform`, :mod:`~cli.demos.knockout`,
:mod:`~cli.demos.fide_rapid`, :mod:`~cli.demos.group_playoff` and :mod:`~cli.demos.arena`, which import
none of each other, only :mod:`cli.demos.common` (the embedded run on a seed, the players' names and
sign-up, the final table).
"""
