"""The positions the web app's pages open on: an Ask page per game the advisor takes, a Meld page
per open-melding game (the README's, `knock --help`'s and `meld --help`'s examples).  Read by the
pages (:mod:`.app`) and by a worker's warm-up (:mod:`.work`)."""

from __future__ import annotations

ASK_GAMES = ("gin", "knock-rummy", "ramino-klop", "tonk")
# each Ask page opens on a position the advisor takes (the README's and `knock --help`'s examples)
ASK_EXAMPLES = {
    "gin": {"hand": "AS 2S 3S 7H 7D 7C 9S 9D 9H 8C", "turn": 6, "upcard": "5C", "seed": 1},
    "knock-rummy": {"hand": "AS 2S 3S 7H 7D 7C 9S", "turn": 3, "players": 4},
    "ramino-klop": {"hand": "AS 2S 3S X 7H 7D 5C", "turn": 3, "players": 4},
    "tonk": {"hand": "AS 2D 3C 5H", "turn": 4, "players": 3, "spread": "7S 7H 7D"},
}
# each Meld page opens on a position (`meld --help`'s examples)
MELD_EXAMPLES = {
    "basic-rummy": {"hand": "4S 5S 9H 9D 9C KD 2C", "table": "AS 2S 3S | 7H 7D 7C"},
    "block-rummy": {"hand": "4S 5S 9H 9D 9C KD 2C", "table": "AS 2S 3S | 7H 7D 7C"},
    "wrotham": {"hand": "6H 8S 9S", "table": "5H X 7H"},
    "ramino-drift": {"hand": "5S 6S 7S X 9D 9H 9C 2D", "table": ""},
    "loba": {"hand": "5D 6D 7D 8D 2C 9S", "taken": "8D", "table": "X 9S TS JS"},
}
MELD_GAMES = tuple(MELD_EXAMPLES)
