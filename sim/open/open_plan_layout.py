"""Array layouts of the open-melding play planner (:mod:`sim.open.open_plan`): the table, the
meld rules vector ``mr``, the goal and the plan.  Plain integer constants only, so every
kernel module and the Python helpers share one definition.

The table ``tab int64[MAX_TM, TM_WIDTH]`` holds one row per meld (the first ``n_tm`` rows):

* ``TM_OWNER`` seat that laid it; ``TM_KIND`` ``SET`` or ``RUN``; ``TM_KEY`` set rank 0..12
  or run suit 0..3; ``TM_N`` cards; ``TM_NJ`` jokers in it.
* runs: ``TM_LO``..``TM_HI`` positions (position p holds rank ``p % 13``: 13 is the ace
  played high; with ``round_the_corner`` a run may pass K-A-2, ``TM_LO`` stays in 0..12 and
  ``TM_HI`` goes up to 25); ``TM_JMASK`` bit p set where a joker stands.
* sets: ``TM_S0 + s`` natural cards of suit s (two packs: up to 2); ``TM_JSUITS`` the suits a
  set's jokers may stand for (bit s: the suits with no natural card; a swap gives any of them).
"""

SET, RUN = 0, 1

TM_OWNER = 0
TM_KIND = 1
TM_KEY = 2
TM_LO = 3
TM_HI = 4
TM_N = 5
TM_NJ = 6
TM_JMASK = 7
TM_S0 = 8            # TM_S0 .. TM_S0 + 3: natural count per suit (sets)
TM_JSUITS = 12
TM_WIDTH = 13
MAX_TM = 40          # 108 cards / 3 = 36 melds at most

# ---- meld rules: mr int64[MR_WIDTH], built by open_plan.meld_rules -----------------------
MR_SET_MIN = 0
MR_SET_MAX = 1
MR_SET_SUITS = 2          # SUITS_DISTINCT | SUITS_EXACT3
MR_SET_JOKERS = 3         # 1: jokers allowed in sets
MR_RUN_MIN = 4
MR_RUN_MAX_JOKERS = 5
MR_ACES = 6               # ACE_LOW | ACE_HIGH_OR_LOW | ACE_ROUND
MR_NATURAL_MIN = 7        # natural cards every meld holds at least
MR_SWAP = 8               # SWAP_NONE | SWAP_FREE | SWAP_REUSE
MR_JOKER_MOVE = 9         # 1: a melded joker may move to either end of its run (Loba)
MR_LAYOFF = 10            # LAYOFF_FREE | LAYOFF_OWN_MELD | LAYOFF_RUN_OWN_MELD
MR_ONE_MELD = 11          # 1: at most one new meld a turn
MR_ALL_AT_ONCE = 12       # 1: the only legal play goes out (the whole hand at once)
MR_JOKER_DISCARD = 13     # JD_FREE | JD_OUT_ONLY (a joker is discarded only to end the hand)
MR_LAST_DISCARD = 14      # 1: going out needs a final discard
MR_TAKE_MELD = 15         # 1: the card taken from the pile must go into a new meld this turn
MR_TAKE_NO_DISCARD = 16   # 1: the card taken from the pile may not be discarded this turn
MR_N_PACKS = 17           # copies of each natural card in the pack
MR_JOKER_A_TO_K = 18      # 1: a joker stands only from the (low) ace to the king, never above it (Loba)
MR_WIDTH = 19

SUITS_DISTINCT, SUITS_EXACT3 = 0, 1
ACE_LOW, ACE_HIGH_OR_LOW, ACE_ROUND = 0, 1, 2
SWAP_NONE, SWAP_FREE, SWAP_REUSE = 0, 1, 2
LAYOFF_FREE, LAYOFF_OWN_MELD, LAYOFF_RUN_OWN_MELD = 0, 1, 2
JD_FREE, JD_OUT_ONLY = 0, 1

# ---- goal: int64[GOAL_WIDTH] -------------------------------------------------------------
# SHED: the least value left after the best legal discard.  OUT_ONLY: any play only if the
# turn goes out (else none).  MIN_CARDS: any play (meld, layoff, swap) only if at least
# GOAL_K hand cards go down this turn, or it goes out.  GOAL_KEEP: that card stays in hand
# (not played, not the discard).  GOAL_LAYOFF 0: layoffs, swaps and moves only when going out.
GOAL_MODE = 0             # SHED | OUT_ONLY | MIN_CARDS
GOAL_K = 1                # MIN_CARDS: cards that must go down this turn (or go out)
GOAL_KEEP = 2             # a card code never played nor discarded this turn, -1 none
GOAL_LAYOFF = 3           # 1 lay off freely, 0 lay off (and swap) only when going out
GOAL_WIDTH = 4
SHED, OUT_ONLY, MIN_CARDS = 0, 1, 2

# ---- plan: int64[PLAN_WIDTH] -------------------------------------------------------------
PL_N_ACT = 0              # number of actions
PL_OUT = 1                # OUT_NONE | OUT_EMPTY (no discard) | OUT_DISCARD (last card discarded)
PL_VALUE = 2              # value left in hand after the plays, before the discard
PL_AFTER = 3              # value left after the best legal discard (0 when going out)
PL_PLAYED = 4             # hand cards that went down (net of jokers taken by swaps)
PL_HEAD = 8
ACT_WIDTH = 12
MAX_ACT = 40
PLAN_WIDTH = PL_HEAD + ACT_WIDTH * MAX_ACT
OUT_NONE, OUT_EMPTY, OUT_DISCARD = 0, 1, 2

# action fields (offset inside one action)
A_TYPE = 0                # A_MELD | A_LAYOFF | A_SWAP | A_MOVE
A_MELD, A_LAYOFF, A_SWAP, A_MOVE = 1, 2, 3, 4
# A_MELD: A_KIND, A_KEY; runs A_LO, A_HI, A_JMASK; sets A_C0..A_C0+3 natural counts, A_NJ
A_KIND = 1
A_KEY = 2
A_LO = 3
A_HI = 4
A_JMASK = 5
A_C0 = 6
A_NJ = 10
# A_LAYOFF: A_ROW table row, A_CODE the card (JOKER for a joker layoff), A_POS the run end
# it goes to (END_LOW / END_HIGH; -1 on a set).  A_SWAP: the natural A_CODE takes the place
# of the joker at run position A_POS (a set: of one of its jokers, A_POS -1); the joker goes
# to the hand.
A_ROW = 1
A_CODE = 2
A_POS = 3
# A_MOVE (Loba): the joker of run A_ROW at position A_POS goes to the run's end A_TO
# (END_LOW / END_HIGH, after A_POS is filled or, at an end, given up); A_CODE the natural card
# from hand filling A_POS, or -1
A_TO = 4
END_LOW, END_HIGH = 0, 1

NO_PLAN = 1 << 40
