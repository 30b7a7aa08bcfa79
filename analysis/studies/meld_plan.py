"""``rummylab meld``: what should I lay down here?  The exact open-melding planner
(sim/open_plan.py) on one position of Basic/Block Rummy, Wrotham, Ramino Drift or Loba."""

from __future__ import annotations

import argparse
import textwrap

import numpy as np

from sim.core.errors import UserInputError
from ..args import add_command, add_rule_set_option

GOALS = ("shed", "out", "min:K")


class MeldInputError(UserInputError):
    """A position the planner cannot read."""


def _open_games() -> list[str]:
    from sim.variants import available, get_variant
    return [n for n in available() if get_variant(n).meld_setup is not None]


def _setup(args):
    """The game, its rules (``--players``, ``--rule``) and what the planner needs under them."""
    from sim.variants import get_variant
    v = get_variant(args.variant)
    if v.meld_setup is None:
        raise MeldInputError(f"rummylab meld plans the open-melding games ({', '.join(_open_games())}); "
                             f"{v.name} lays no melds on the table")
    n = args.players or v.default_players
    v.check_players(n)
    rules = v.rules_cls.from_options(args.rule, **({"players": n} if v.players_rule else {}))
    return v, n, v.meld_setup(rules)


def _goal(text: str, keep: int):
    from sim.open.open_plan import MIN_CARDS, OUT_ONLY, SHED, make_goal
    t = text.strip().lower()
    if t == "shed":
        return make_goal(SHED, keep=keep)
    if t == "out":
        return make_goal(OUT_ONLY, keep=keep)
    if t.startswith("min:") and t[4:].isdigit() and int(t[4:]) >= 1:
        return make_goal(MIN_CARDS, int(t[4:]), keep=keep)
    raise MeldInputError(f"--goal {text!r}: use shed, out or min:K (K >= 1)")


def cmd_meld(args) -> int:
    from sim.core.cards import JOKER, card_text, parse_card, parse_cards
    from sim.open import open_plan as op
    v, n, ms = _setup(args)
    game, mr = ms.game, ms.mr
    n_packs, n_jokers = op.GAME_PACK[game]
    hand_codes = parse_cards(args.hand, n_packs=n_packs, n_jokers=n_jokers)
    if len(hand_codes) == 0:
        raise MeldInputError("--hand is empty")
    if len(hand_codes) > ms.max_hand:
        raise MeldInputError(f"a {v.name} hand holds at most {ms.max_hand} cards after the draw with {n} players; "
                             f"got {len(hand_codes)}")
    tab, n_tm = op.parse_table(args.table, mr, owner=1)
    op.check_cards(hand_codes, tab, n_tm, game)
    hand = np.bincount(hand_codes, minlength=64).astype(np.int64)
    taken = -1
    if args.taken:
        taken = parse_card(args.taken)
        if hand[taken] == 0:
            raise MeldInputError(f"--taken {card_text(taken)} is not in --hand (give the hand after taking it)")
        if taken == JOKER:
            raise MeldInputError("--taken: the planner's take rules are about natural cards; give the card taken")
    keep = parse_card(args.keep) if args.keep else -1
    if keep >= 0 and hand[keep] == 0:
        raise MeldInputError(f"--keep {card_text(keep)} is not in --hand")
    goal = _goal(args.goal, keep)
    vals = ms.vals
    plan = np.zeros(op.PLAN_WIDTH, dtype=np.int64)
    value = op.plan_turn(hand, taken, tab, n_tm, 0, int(args.has_melded), mr, vals, goal, plan)
    if value == op.NO_PLAN:
        raise MeldInputError(f"no legal turn: {card_text(taken)} cannot go into a new meld laid "
                             "from this hand, so it may not be taken from the pile")
    lines = op.describe_plan(plan)
    before = op.describe_table(tab, n_tm) or '(empty)'
    n2 = op.apply_plan(plan, hand, tab, n_tm, 0, mr)
    from ..answers import answer_lines, meld_answer, rules_lines
    steps = lines[:-1] + ([lines[-1]] if lines[-1].startswith("out") else [])
    for line in [*answer_lines(meld_answer(v.name, n, steps, int(value), int(plan[op.PL_AFTER]))),
                 *rules_lines(v.rules_cls.from_options(args.rule, **({"players": n} if v.players_rule else {})),
                              v.name), ""]:
        print(line)
    print(f"{v.name}, {n} players: hand {' '.join(card_text(c) for c in hand_codes)}"
          + (f" (took {card_text(taken)})" if taken >= 0 else ""))
    print(f"table: {before}")
    if int(plan[op.PL_N_ACT]) == 0:
        print("plan: lay nothing down")
    else:
        print("plan:")
    for k, line in enumerate(lines[:-1]):
        print(f"  {k + 1}. {line}")
    print(f"  {lines[-1]}")
    left = " ".join(card_text(c) for c in range(64) for _ in range(int(hand[c])))
    print(f"left in hand: {left or '(none)'} = {value} points; {int(plan[op.PL_AFTER])} after the best discard")
    print(f"table after: {op.describe_table(tab, n2)}")
    return 0


def add_parser(subparsers) -> argparse.ArgumentParser:
    """Add the ``meld`` subcommand."""
    from analysis.args import card_text, whole
    p = add_command(
        subparsers, "meld", help="what should I lay down here? the exact open-melding planner on one position",
        description=textwrap.dedent("""\
            The best melds, layoffs, joker swaps (Wrotham, Drift) and joker moves (Loba) for
            the hand after the draw, over every legal combination; prints the plan in an
            order that can be played and the points left in hand.  The table is melds split
            by '|', runs written in order with each joker (X) where it stands."""),
        epilog="""
            rummylab meld --variant basic-rummy --hand "4S 5S 9H 9D 9C KD 2C" --table "AS 2S 3S | 7H 7D 7C"
            rummylab meld --variant wrotham --hand "6H 8S 9S" --table "5H X 7H"
            rummylab meld --variant wrotham --rule deal=4 --hand "5S 6S 7S X 9D 9H 9C 2D"
            rummylab meld --variant loba --hand "5D 6D 7D 8D 2C 9S" --taken 8D --table "X 9S TS JS"
            rummylab meld --variant basic-rummy --rule ace_high_or_low=on --hand "AS 2S 3S 9D" --goal out
        """)
    p.add_argument("--variant", default="basic-rummy",
                   help="an open-melding game: basic-rummy (default), block-rummy, wrotham, ramino-drift, loba")
    p.add_argument("--players", type=whole("--players", 1), default=None, help="number of players (default: the game's)")
    p.add_argument("--hand", required=True, help="your hand after the draw, e.g. \"AS 2S 3S X\"")
    p.add_argument("--table", default="", help="melds on the table, e.g. \"AS 2S 3S | 7H 7D X\"")
    p.add_argument("--taken", type=card_text("--taken"), default=None, help="the card you took from the discard pile (it is in --hand)")
    p.add_argument("--has-melded", action="store_true", help="you laid a meld earlier this hand")
    p.add_argument("--goal", default="shed", help="shed (default), out (only plays that go out) or min:K")
    p.add_argument("--keep", type=card_text("--keep"), default=None, help="a card to keep in hand")
    p.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                   help="a rule option of the game, repeatable (see `rummylab variants`), e.g. ace_high_or_low=on, "
                        "layoff_requires_own_meld=on, Wrotham deal=4 (all seven at once)")
    add_rule_set_option(p)
    p.set_defaults(func=cmd_meld)
    return p
