"""The one exact play planner of the open-melding games (Basic Rummy / Block, Wrotham, Ramino
Drift, Loba): the table layout, the meld rules, the planner kernels and Python helpers.

* layout constants (table rows ``TM_*``, rules ``MR_*``, goal ``GOAL_*``, plan ``PL_*`` /
  ``A_*``): :mod:`sim.open.open_plan_layout`;
* :func:`meld_rules` builds the rules vector ``mr`` of a game and its options;
* kernels: :func:`plan_turn` / :func:`can_take` (:mod:`sim.open.open_plan_search`),
  :func:`apply_plan` (the only writer of the table) and :func:`check_table`
  (:mod:`sim.open.open_plan_table`);
* Python helpers: :func:`parse_table` / :func:`describe_table` (``"AS 2S 3S | 7H 7D X"``),
  :func:`describe_plan`, :func:`make_goal`, :func:`empty_table`, :func:`planner_values`,
  :func:`check_cards`; an illegal meld raises
  :class:`MeldError` (a UserInputError: one CLI error line).

Rules decided here [choice]: every meld holds at least one natural card; a set's joker stands
for any suit the set lacks (a swap may give any of them); Drift's "single cards onto
sequences only after melding once" covers every card laid off onto a run (sets, and joker
swaps, are free); a swapped Drift joker is "used again" when the turn puts down at least as
many jokers as it took back; Wrotham's deals 4-6 ("all seven at once") allow a play only when
it goes out; a Loba joker moves within its own escalera, to either end, anywhere a joker may
stand; and it never stands above the king (the ace-high place; nothing lies below the low
ace) in a new escalera, a lay-off or a move alike: the seed's "nooit lager dan een Aas of
hoger dan een Heer" read as where a joker may stand (``MR_JOKER_A_TO_K``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.cards import JOKER, card_text, check_pack_limits, parse_cards, value_table
from ..core.errors import UserInputError
from .open_plan_layout import *  # noqa: F401,F403  (the layout is part of this module's API)
from .open_plan_layout import (
    A_C0, A_CODE, A_HI, A_JMASK, A_KEY, A_KIND, A_LO, A_MELD, A_MOVE, A_NJ, A_POS, A_ROW,
    A_SWAP, A_TO, A_TYPE, ACE_HIGH_OR_LOW, ACE_LOW, ACE_ROUND, ACT_WIDTH, END_LOW, GOAL_K,
    GOAL_KEEP, GOAL_LAYOFF, GOAL_MODE, GOAL_WIDTH, JD_FREE, JD_OUT_ONLY, LAYOFF_FREE,
    LAYOFF_OWN_MELD, LAYOFF_RUN_OWN_MELD, MAX_TM, MIN_CARDS, MR_ACES, MR_ALL_AT_ONCE,
    MR_JOKER_A_TO_K, MR_JOKER_DISCARD, MR_JOKER_MOVE, MR_LAST_DISCARD, MR_LAYOFF, MR_N_PACKS, MR_NATURAL_MIN,
    MR_ONE_MELD, MR_RUN_MAX_JOKERS, MR_RUN_MIN, MR_SET_JOKERS, MR_SET_MAX, MR_SET_MIN,
    MR_SET_SUITS, MR_SWAP, MR_TAKE_MELD, MR_TAKE_NO_DISCARD, MR_WIDTH, OUT_DISCARD, OUT_EMPTY,
    OUT_ONLY, PL_HEAD, PL_N_ACT, PL_OUT, RUN, SET, SHED, SUITS_DISTINCT, SUITS_EXACT3,
    SWAP_FREE, SWAP_NONE, SWAP_REUSE, TM_HI, TM_JMASK, TM_KEY, TM_KIND, TM_LO, TM_NJ, TM_S0,
    TM_WIDTH,
)
from .open_plan_search import can_take, plan_turn  # noqa: F401
from .open_plan_table import (  # noqa: F401
    add_run, add_set, apply_action, apply_plan, check_table, row_legal, run_code, table_counts,
)

GAMES = ("basic", "wrotham", "drift", "loba")
# (packs, jokers) of each game's pack
@dataclass(frozen=True)
class MeldSetup:
    """What the planner needs to plan a position of a game under its rules (a game declares
    ``Variant.meld_setup(rules) -> MeldSetup``): the planner game (its pack is ``GAME_PACK``),
    the meld rules ``mr``, the card values and the most cards a hand holds after the draw."""
    game: str
    mr: np.ndarray
    vals: np.ndarray
    max_hand: int


GAME_PACK = {"basic": (1, 0), "wrotham": (1, 3), "drift": (1, 2), "loba": (2, 4)}
_OPTIONS = {
    "basic": ("multiple_melds", "last_card_must_be_discarded", "ace_high_or_low",
              "round_the_corner", "layoff_requires_own_meld"),
    "drift": (),
    "loba": (),
}
_OPTIONS["wrotham"] = _OPTIONS["basic"] + ("all_at_once",)
_DEFAULTS = {"multiple_melds": True}
# the meld rules every game starts from, then what each game fixes beyond them (its options aside)
_BASE_RULES = {MR_SET_MIN: 3, MR_SET_MAX: 4, MR_SET_SUITS: SUITS_DISTINCT, MR_RUN_MIN: 3, MR_RUN_MAX_JOKERS: 13,
               MR_ACES: ACE_LOW, MR_NATURAL_MIN: 1, MR_SWAP: SWAP_NONE, MR_LAYOFF: LAYOFF_FREE,
               MR_JOKER_DISCARD: JD_FREE, MR_TAKE_NO_DISCARD: 1}
_GAME_RULES = {
    "basic": {},
    "wrotham": {MR_SET_JOKERS: 1, MR_SWAP: SWAP_FREE},
    "drift": {MR_SET_JOKERS: 1, MR_SWAP: SWAP_REUSE, MR_LAYOFF: LAYOFF_RUN_OWN_MELD},
    "loba": {MR_SET_MAX: 6, MR_SET_SUITS: SUITS_EXACT3, MR_RUN_MIN: 4, MR_RUN_MAX_JOKERS: 2, MR_ACES: ACE_HIGH_OR_LOW,
             MR_JOKER_MOVE: 1, MR_JOKER_A_TO_K: 1, MR_JOKER_DISCARD: JD_OUT_ONLY, MR_TAKE_MELD: 1},
}


class MeldError(UserInputError):
    """A meld or table that is illegal under the game's rules, or a bad planner option."""


def _flag(name: str, value) -> bool:
    if isinstance(value, (bool, np.bool_)) or value in (0, 1):
        return bool(value)
    text = str(value).strip().lower()
    if text in ("on", "true", "yes", "1"):
        return True
    if text in ("off", "false", "no", "0"):
        return False
    raise MeldError(f"{name} takes on/off, got {value!r}")


def meld_rules(game: str, **options) -> np.ndarray:
    """The meld rules vector (int64[MR_WIDTH]) of ``game`` ("basic" for Basic and Block
    Rummy, "wrotham", "drift", "loba") with its options: Basic/Wrotham ``multiple_melds``
    (on), ``last_card_must_be_discarded``, ``ace_high_or_low``, ``round_the_corner`` (needs
    ace_high_or_low), ``layoff_requires_own_meld`` (all off); Wrotham ``all_at_once`` (deals
    4-6).  Unknown games or options raise MeldError."""
    if game not in GAMES:
        raise MeldError(f"unknown planner game {game!r}; choose from {', '.join(GAMES)}")
    allowed = _OPTIONS[game]
    for name in options:
        if name not in allowed:
            raise MeldError(f"{game} has no meld option {name!r}"
                            + (f" (options: {', '.join(allowed)})" if allowed else ""))
    opt = {name: _flag(name, options.get(name, _DEFAULTS.get(name, False))) for name in allowed}
    mr = np.zeros(MR_WIDTH, dtype=np.int64)
    for field, value in {**_BASE_RULES, **_GAME_RULES[game]}.items():
        mr[field] = value
    mr[MR_N_PACKS] = GAME_PACK[game][0]
    if game in ("basic", "wrotham"):
        if opt["round_the_corner"] and not opt["ace_high_or_low"]:
            raise MeldError("round_the_corner needs ace_high_or_low")
        mr[MR_ACES] = ACE_ROUND if opt["round_the_corner"] else (
            ACE_HIGH_OR_LOW if opt["ace_high_or_low"] else ACE_LOW)
        mr[MR_ONE_MELD] = 0 if opt["multiple_melds"] else 1
        mr[MR_LAST_DISCARD] = int(opt["last_card_must_be_discarded"])
        mr[MR_LAYOFF] = LAYOFF_OWN_MELD if opt["layoff_requires_own_meld"] else LAYOFF_FREE
    if game == "wrotham":
        mr[MR_ALL_AT_ONCE] = int(opt["all_at_once"])
    return mr


def planner_values(game: str, **options) -> np.ndarray:
    """Card values (int64[64]) of a planner game as issue 9 gives them: Basic A 1 (15 with
    ``ace_high_or_low``), 2-10 face, J Q K 10; Wrotham joker 25; Drift joker 20; Loba A and
    J Q K 10, joker ``joker_penalty`` (25).  Only ``ace_high_or_low`` / ``joker_penalty``
    matter here; other options are ignored."""
    if game not in GAMES:
        raise MeldError(f"unknown planner game {game!r}; choose from {', '.join(GAMES)}")
    if game == "loba":
        return value_table(ace=10, joker=int(options.get("joker_penalty", 25)))
    if game in ("basic", "wrotham"):
        ace = 15 if _flag("ace_high_or_low", options.get("ace_high_or_low", False)) else 1
        return value_table(ace=ace, joker=25 if game == "wrotham" else 0)
    return value_table(joker=20)


def make_goal(mode: int = SHED, k: int = 0, keep: int = -1, layoff: bool = True) -> np.ndarray:
    """A goal vector (int64[GOAL_WIDTH]): SHED / OUT_ONLY / MIN_CARDS (with ``k``), a card
    code to keep in hand (-1 none), layoffs allowed when not going out."""
    g = np.zeros(GOAL_WIDTH, dtype=np.int64)
    g[GOAL_MODE] = mode
    g[GOAL_K] = k
    g[GOAL_KEEP] = keep
    g[GOAL_LAYOFF] = int(layoff)
    return g


def empty_table() -> np.ndarray:
    return np.zeros((MAX_TM, TM_WIDTH), dtype=np.int64)


def _run_positions(codes: list[int], mr) -> tuple[int, int, int] | None:
    """(lo, hi, jmask) of a run written in order (jokers where they stand), or None."""
    nat = [(i, c) for i, c in enumerate(codes) if c != JOKER]
    if not nat or len({c >> 4 for _, c in nat}) != 1:
        return None
    i0, c0 = nat[0]
    n = len(codes)
    for base in (0, 13):
        lo = (c0 & 15) + base - i0
        if mr[MR_ACES] == ACE_ROUND:
            lo %= 13
        if lo < 0:
            continue
        if all((lo + i) % 13 == (c & 15) for i, c in nat):
            jm = sum(1 << (lo + i) for i, c in enumerate(codes) if c == JOKER)
            return lo, lo + n - 1, jm
    return None


def parse_meld(text: str, mr, *, owner: int = 0, tab=None, n_tm: int = 0) -> int:
    """Parse one meld (``"7H 7D X"``, a run written in order: ``"5S X 7S"``) onto the table
    ``tab`` at row ``n_tm``; returns the new n_tm.  MeldError if illegal under ``mr``."""
    n_packs = int(mr[MR_N_PACKS])
    codes = [int(c) for c in parse_cards(text, n_packs=n_packs, n_jokers=99)]
    if not codes:
        raise MeldError("an empty meld in the table (check the '|' separators)")
    if n_tm >= MAX_TM:
        raise MeldError(f"a table holds at most {MAX_TM} melds")
    nat = [c for c in codes if c != JOKER]
    nj = len(codes) - len(nat)
    shown = " ".join(card_text(c) for c in codes)
    tries = []
    if nat and len({c & 15 for c in nat}) == 1:
        counts = [sum(1 for c in nat if c >> 4 == s) for s in range(4)]
        tries.append(("set", counts))
    pos = _run_positions(codes, mr)
    if pos is None and nj == 0:
        pos = _run_positions(sorted(codes, key=lambda c: c & 15), mr) or _run_positions(
            sorted(codes, key=lambda c: (c & 15) or 13), mr)
    if pos is not None:
        tries.append(("run", pos))
    for kind, data in tries:
        if kind == "set":
            n = add_set(tab, n_tm, owner, nat[0] & 15, *data, nj)
        else:
            n = add_run(tab, n_tm, owner, nat[0] >> 4, *data)
        if row_legal(tab, n_tm, mr):
            return n
    raise MeldError(f"the meld {shown!r} is not legal under this game's rules")


def parse_table(text: str, mr, *, owner: int = 0):
    """Parse a table ``"AS 2S 3S | 7H 7D X"`` (melds split by ``|``; empty text: no melds).
    Returns ``(tab, n_tm)``; MeldError for an illegal meld or too many copies of a card."""
    tab = empty_table()
    n_tm = 0
    parts = [p for p in text.split("|")] if text.strip() else []
    for part in parts:
        n_tm = parse_meld(part, mr, owner=owner, tab=tab, n_tm=n_tm)
    return tab, n_tm


def meld_codes(tab, i) -> list[int]:
    """Codes of table row ``i`` (runs in order, jokers where they stand)."""
    if tab[i, TM_KIND] == RUN:
        s = int(tab[i, TM_KEY])
        return [JOKER if (int(tab[i, TM_JMASK]) >> p) & 1 else int(run_code(s, p))
                for p in range(int(tab[i, TM_LO]), int(tab[i, TM_HI]) + 1)]
    r = int(tab[i, TM_KEY])
    return ([s * 16 + r for s in range(4) for _ in range(int(tab[i, TM_S0 + s]))]
            + [JOKER] * int(tab[i, TM_NJ]))


def describe_table(tab, n_tm) -> str:
    """Text of the table: melds split by `` | ``."""
    return " | ".join(" ".join(card_text(c) for c in meld_codes(tab, i)) for i in range(n_tm))


def check_cards(hand_codes, tab, n_tm, game: str) -> None:
    """MeldError (via CardError) if the hand and the table together hold more copies of a card
    than the game's pack."""
    n_packs, n_jokers = GAME_PACK[game]
    allc = list(hand_codes)
    for i in range(n_tm):
        allc += meld_codes(tab, i)
    check_pack_limits(np.array(allc, dtype=np.int64), n_packs=n_packs, n_jokers=n_jokers)


def describe_plan(plan) -> list[str]:
    """One line of text per action of a plan, then how the turn ends."""
    lines = []
    for k in range(int(plan[PL_N_ACT])):
        a = plan[PL_HEAD + k * ACT_WIDTH:PL_HEAD + (k + 1) * ACT_WIDTH]
        t = int(a[A_TYPE])
        if t == A_MELD:
            if a[A_KIND] == RUN:
                s = int(a[A_KEY])
                cards = [JOKER if (int(a[A_JMASK]) >> p) & 1 else int(run_code(s, p))
                         for p in range(int(a[A_LO]), int(a[A_HI]) + 1)]
            else:
                r = int(a[A_KEY])
                cards = [s * 16 + r for s in range(4) for _ in range(int(a[A_C0 + s]))] + [JOKER] * int(a[A_NJ])
            lines.append("meld " + " ".join(card_text(c) for c in cards))
        elif t == A_SWAP:
            lines.append(f"swap {card_text(int(a[A_CODE]))} for the joker of meld {int(a[A_ROW]) + 1}")
        elif t == A_MOVE:
            fill = f", {card_text(int(a[A_CODE]))} in its place" if a[A_CODE] >= 0 else ""
            end = "low" if a[A_TO] == END_LOW else "high"
            lines.append(f"move the joker of meld {int(a[A_ROW]) + 1} to its {end} end{fill}")
        else:
            end = "" if a[A_POS] < 0 else (" (low end)" if a[A_POS] == END_LOW else " (high end)")
            lines.append(f"lay off {card_text(int(a[A_CODE]))} on meld {int(a[A_ROW]) + 1}{end}")
    out = int(plan[PL_OUT])
    lines.append({OUT_EMPTY: "out: the hand is empty", OUT_DISCARD: "out: discard the last card"}.get(
        out, "not out: discard"))
    return lines
