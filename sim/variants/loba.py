"""Loba / Rami, 2-5 players (rules: ``rules/loba.md``; source: seed 000, "Loba / Rami").

Two 54-card joker packs (108 cards, 4 jokers); 9 cards each, dealt one at a time from the
dealer's left; the upcard starts the pile.  A turn: draw the stock top, or take the pile top
only to use it at once in a new meld laid down from the hand together with cards of the hand;
then lay down melds and lay off onto any meld on the table, as many as one likes; then
discard.  Melds: **piernas** (legs) of 3-6 cards of one rank in exactly three suits (two
packs: a suit may appear twice), no jokers; **escaleras** (ladders) of 4+ consecutive cards of
one suit, ace low (A-2-3-4) or high (J-Q-K-A) but not both, at most two jokers.  Jokers are
never exchanged for natural cards, but a joker on the table may be moved to the start or end
of its escalera (never below an ace or above a king).  A joker may not be discarded except as
the discard that ends the hand.  Going out ends the hand: the others score the cards in their
hands as penalty points (A, J, Q, K 10, 2-10 face, joker ``joker_penalty``); a player going
out by laying down the whole hand at once subtracts 10 from its total.  Whole games: at 100
penalty points a player is out, but may buy back in at the total of the player still in with
the most points, at most twice a game; play goes on until one player remains.

| option                      | default | meaning |
|-----------------------------|---------|---------|
| players                     | 4       | 2-5 players, 9 cards each |
| joker_penalty               | 25      | penalty points of a joker left in hand |
| at_once_bonus               | 10      | subtracted from the total of a player going out all at once |
| last_card_must_be_discarded | off     | going out needs a final discard |
| restock_shuffle             | off     | shuffle the turned-over discard pile into the new stock |
| penalty_limit               | 100     | whole games: a player reaching this many penalty points is out |
| buybacks                    | 2       | whole games: buy-backs per player per game |

Where the seed and ``rules/loba.md`` differ (the seed wins):

* Jokers' penalty: the seed gives none ("azen en hofkaarten tellen voor 10 en overige kaarten
  op getalwaarde"); rules/ makes it ``joker_penalty`` 25 **[choice]**; kept.
* The 10-point bonus: the seed says a player "mag" (may) take 10 off "reeds behaalde
  strafpunten in vorige rondes" (the penalty points of earlier hands); rules/ "subtracts 10
  from their total".  Always taken here (it never hurts); **[choice]** a total may go below 0.
* Piernas with duplicates: rules/ spells out that two copies of a card may sit in one pierna
  as long as exactly three suits appear; the seed implies it (3-6 cards, exactly three suits).
* Buy-back: the seed says the player "staat dan weer gelijk aan de speler met het meeste
  strafpunten" (equal to the player with the most points), rules/ "the remaining player with
  the most penalty points": the highest total of the seats still under 100.  Buying back is
  the player's decision (strategy ``buyback``: buy back when that total is below it).

Other **[choice]**s where both are silent:

* "All at once": the seat goes out in one turn with nothing of its own on the table before
  that turn (a final discard allowed).
* The pile top may be taken only when some legal new meld from the hand uses it; the planner
  then lays such a meld down.  The card taken can never be discarded (it is melded).
* A seat holding only jokers that cannot play them discards a joker (the only card it can
  give; the seed does not foresee it).
* A player who cannot go out and whose every card is a joker is the only case of a joker
  discarded without ending the hand.
* Going out: the hand empties, by a final discard or (``last_card_must_be_discarded=off``) by
  melds and lay-offs alone.  Restock as Ramino Drift's: the discard pile but its top turned
  over (no shuffle by default).  A hand reaching ``MAX_TURNS`` is ``turn_limit``: void.
* Seats that reach 100 in the same hand all buy back at the highest total still under 100
  (before any of them re-enters); when every seat left reaches 100 in one hand, the lowest
  total stays in and wins (:mod:`sim.games`).

Hand row: ``hand_columns(n, EXTRA_COLUMNS)``; ``score{s}`` = minus seat s's penalty (the seat
out: 0, or +``at_once_bonus`` when it went out all at once); ``deadwood{s}`` the value of the
cards left in hand; ``winner`` the seat out, ``out_turn`` its own turn, ``at_once`` 1 when it
went out all at once (-1 on a void hand).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules import RulesBase, option

MIN_PLAYERS, MAX_PLAYERS = 2, 5
HAND_SIZE = 9


@dataclass(frozen=True)
class LobaRules(RulesBase):
    VERSION = 1
    players: int = option(4, "number of players, 9 cards each", MIN_PLAYERS, MAX_PLAYERS)
    joker_penalty: int = option(25, "penalty points of a joker left in hand", 0, 1000)
    at_once_bonus: int = option(10, "subtracted from the total of a player going out all at once", 0, 1000)
    last_card_must_be_discarded: bool = option(False, "going out needs a final discard")
    restock_shuffle: bool = option(False, "shuffle the turned-over discard pile into the new stock")
    penalty_limit: int = option(100, "game: a player reaching this many penalty points is out", 1, 100000)
    buybacks: int = option(2, "game: buy-backs per player (re-entering at the highest total still in)", 0, 10)
