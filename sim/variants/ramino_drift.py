"""Ramino Drift / Remigio, 2-4 players, up to 7 allowed (rules: ``rules/ramino.md``, second
part; source: seed 000, "Ramino (Drift) / Remigio").

One 54-card joker pack (2 jokers); 7 cards each, dealt one at a time from the dealer's left;
the upcard starts the pile.  A turn: draw the stock top or the pile top; then lay down melds
and lay off cards onto the melds on the table (anyone's), as many as one likes; then discard
one card, never the card just taken from the pile.  Melds of 3+ cards: runs in one suit or
sets of one rank (distinct suits: one pack), aces low (A-2-3, never Q-K-A); jokers wild.  A
melded (or laid-off) joker may be swapped for the natural card it stands for, from the hand
of the player to move, who must use that joker again in the same turn (in a new meld or a
lay-off).  Lay-offs of single cards onto **runs** (own or others') are allowed only once the
player has melded at least once in the hand; lay-offs onto sets are free.  The first player
out scores 0, every other player scores its own hand as penalty points (A 1, 2-10 face, J Q K
10, joker 20).  Whole games: a player reaching 101 penalty points is out; the others play on
until one remains.

| option                      | default | meaning |
|-----------------------------|---------|---------|
| players                     | 4       | 2-7 players, 7 cards each |
| layoff_needs_meld           | runs    | which lay-offs need an own meld earlier in the hand: runs (seed), all, none |
| joker_swap                  | reuse   | swap a melded joker for its natural card: reuse (the joker must be used again this turn; seed), keep (it may stay in hand), off |
| last_card_must_be_discarded | off     | going out needs a final discard (off: emptying the hand by melds and lay-offs is out too) |
| restock_shuffle             | off     | shuffle the turned-over discard pile into the new stock |
| penalty_limit               | 101     | whole games: a player reaching this many penalty points is out |

Where the seed and ``rules/ramino.md`` differ (the seed wins):

* Players: the seed's header says 2-4, its text "2 of meer" (2 or more, the sentence is cut
  off); rules/ says "2-4 (the seed also allows more)".  **[choice]** 2-7: with 8 players the
  pack (54) cannot deal 7 each plus the upcard.
* Lay-offs: the seed ("Zodra je uit bent gekomen mag je ook losse kaarten aan sequenties ...
  aanleggen") limits single cards onto *sequences* (runs) only; rules/ says the same
  ("single cards onto sequences"), and its turn text "meld and lay off as many cards as you
  like" leaves lay-offs onto sets free; so does this module (``layoff_needs_meld=runs``).
* Joker swap: the seed lets a player swap "uit- of aangelegde jokers" (melded *or laid-off*
  jokers) when holding a card the joker "kan voorstellen" (can stand for) and says the joker
  must be used again "onmiddellijk" (at once); rules/ says "a melded joker" and "in the same
  turn".  Here: any joker on the table, used again before the turn's discard.

Other **[choice]**s where both are silent:

* "Melded once" counts a meld laid down earlier in the same turn: after a first meld the
  player may lay off onto runs in that turn.
* Every meld holds at least one natural card; a set joker stands for a suit missing from the
  set (a set is at most 4 cards), a run joker for one position; a swap needs the exact card
  (a set joker: any suit missing from the set's natural cards).
* Going out: the hand empties, by a final discard or (``last_card_must_be_discarded=off``) by
  melds and lay-offs alone; the hand ends at once.  The final discard is never the card just
  taken from the pile; a joker taken by a swap cannot be the discard (it must be used).
* Restock: when the stock is empty, every discard but the top one is turned over (the first
  discard on top), shuffled with ``restock_shuffle``; the top discard stays.  A hand reaching
  ``MAX_TURNS`` is ``turn_limit``: void, no score, redealt by the same dealer in a whole game.
* ``winner`` of a hand: the seat that went out (-1 on a void hand).  The first dealer of a
  game is seat ``g % n``; the deal passes to the next seat still in play; if every seat left
  reaches the limit in one hand, the lowest total stays in (:mod:`sim.games`).

Hand row: ``hand_columns(n, EXTRA_COLUMNS)``; ``score{s}`` = minus seat s's penalty (0 for
the seat out and on a void hand); ``deadwood{s}`` the value of the cards left in seat s's
hand; ``winner`` the seat out, ``out_turn`` its own turn number, ``melds`` the melds on the
table at the end (-1 on a void hand).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules import RulesBase, option

MIN_PLAYERS, MAX_PLAYERS = 2, 7
HAND_SIZE = 7
JOKER_POINTS = 20


@dataclass(frozen=True)
class RaminoDriftRules(RulesBase):
    VERSION = 1
    players: int = option(4, "number of players, 7 cards each (the seed: 2-4, more allowed)", MIN_PLAYERS, MAX_PLAYERS)
    layoff_needs_meld: str = option("runs", "which lay-offs need an own meld earlier in the hand",
                                    choices=("runs", "all", "none"))
    joker_swap: str = option("reuse", "swap a melded joker for the natural card it stands for: reuse (the joker "
                             "must be used again this turn), keep (it may stay in hand), off",
                             choices=("reuse", "keep", "off"))
    last_card_must_be_discarded: bool = option(False, "going out needs a final discard")
    restock_shuffle: bool = option(False, "shuffle the turned-over discard pile into the new stock")
    penalty_limit: int = option(101, "game: a player reaching this many penalty points is out", 1, 100000)
