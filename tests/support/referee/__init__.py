"""An independent referee for ``rummylab trace --json``: re-derives from every hand's events
that the pack is conserved, every meld and lay-off is legal and the settlement is right, from
the rules files alone (nothing here imports ``sim/`` or ``analysis/``).

``core``: reading traces, cards, melds, the exact deadwood search, the generic walker.
``closed``: the six closed-hand games (gin, tonk, knock-rummy, ramino-klop, wildcard,
cincinnati).  ``open_games``: the open-melding games.
"""
