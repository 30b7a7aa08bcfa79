"""The ``search`` player: decide by simulation (determinized Monte Carlo, "perfect
information Monte Carlo").

At a decision the searching seat samples ``worlds``: the cards it has not seen, dealt to the
opponents (beside the cards it knows they hold) and to the stock in a random order.  In every
world it plays each candidate action out to the end of the hand with its own heuristic (its
strategy row with the search switched off) as the policy of every seat, and takes the
candidate with the best mean result for itself.  Every candidate plays the same worlds with
the same random streams (common random numbers), so the comparison is paired.

Shared here (:mod:`sim.search.worlds`, njit, no game knowledge): the decision's key and the
per-world random streams, the shuffle of the unseen cards, the candidate tally and the choice.

What a game declares to offer ``search`` (its *decision interface*, in its game module, e.g.
:mod:`sim.variants.gin_search`):

* its decision points and their candidate actions (an int64 code each, the heuristic's choice
  first, so ties keep it), pruned by the heuristic where that measures as good;
* ``world``: a copy of the state as the deciding seat sees it, the hidden cards replaced by a
  sample of :func:`worlds.shuffle_unseen` (cards an opponent is known to hold stay with it);
* ``apply`` + ``play out``: carry one candidate out on a copy with the game's own turn kernels
  and finish the hand with the heuristic policy, returning the deciding seat's score;
* the strategy parameters ``search_worlds`` (0: no search) and, where it prunes,
  ``search_top``; the preset ``search`` is the game's ``strong`` with the default budget
  (:data:`sim.strategies.SEARCH_WORLDS`).

Rule: nothing here imports ``sim.variants``; game modules import this package.
"""
