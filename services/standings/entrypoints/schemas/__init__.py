"""What the standings API answers, and what the public pages render: the same models, so the JSON and
the HTML never disagree. One module per page (``standings``, ``crosstable``, ``round``, ``player``,
``bracket``, ``arena``, ``index``, ``announced``), on what they share (``common``: the tournament's
fields, a player, a game's result and corrections). The ``group-playoff`` page's models are with its
view (``entrypoints/group_playoff.py``)."""
