"""``rummylab meld``: what should I lay down here?  The exact open-melding planner
(sim/open_plan.py) on one position of Basic/Block Rummy, Wrotham, Ramino Drift or Loba."""

from __future__ import annotations

import argparse

import numpy as np

from sim.core.errors import UserInputError
from ..args import add_command, add_csv_option, add_rule_set_option
from ..wording import answer_lines, rules_lines

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


def plan_position(args) -> dict:
    """The best plan for the position of ``args`` (``rummylab meld``'s answer, as ``--json``
    prints it): the steps in an order that can be played, how the turn ends, the points left."""
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
    plan = np.zeros(op.PLAN_WIDTH, dtype=np.int64)
    value = op.plan_turn(hand, taken, tab, n_tm, 0, int(args.has_melded), mr, ms.vals, _goal(args.goal, keep), plan)
    if value == op.NO_PLAN:
        raise MeldInputError(f"no legal turn: {card_text(taken)} cannot go into a new meld laid "
                             "from this hand, so it may not be taken from the pile")
    lines = op.describe_plan(plan)
    doc = {"variant": v.name, "players": n, "hand": [card_text(c) for c in hand_codes],
           "taken": card_text(taken) if taken >= 0 else None, "table": op.describe_table(tab, n_tm),
           "has_melded": bool(args.has_melded), "keep": card_text(keep) if keep >= 0 else None,
           "goal": args.goal, "plan": lines[:-1], "finish": lines[-1]}
    n2 = op.apply_plan(plan, hand, tab, n_tm, 0, mr)
    doc.update({"left_in_hand": [card_text(c) for c in range(64) for _ in range(int(hand[c]))],
                "points_left": int(value), "points_after_best_discard": int(plan[op.PL_AFTER]),
                "table_after": op.describe_table(tab, n2),
                "rules": v.rules_cls.from_options(args.rule, **({"players": n} if v.players_rule else {})).as_dict()})
    return doc


def ranked_plays(args, best: dict) -> list[dict]:
    """The other plays, ranked: for each card of the hand, the best plan that keeps it (the
    planner's ``--keep``), distinct plans only, fewest points left first (then after the best
    discard); ``best`` (:func:`plan_position`'s answer for ``args``) is not repeated."""
    seen = {(tuple(best["plan"]), best["finish"])}
    out = []
    for card in dict.fromkeys(best["hand"]):
        try:
            doc = plan_position(argparse.Namespace(**{**vars(args), "keep": card}))
        except UserInputError:
            continue
        key = (tuple(doc["plan"]), doc["finish"])
        if key not in seen:
            seen.add(key)
            out.append({k: doc[k] for k in ("keep", "plan", "finish", "points_left", "points_after_best_discard")})
    return sorted(out, key=lambda d: (d["points_left"], d["points_after_best_discard"]))


def format_meld(doc: dict) -> str:
    """The plan as text: the answer sentence and the rules first, then the position and the steps."""
    steps = doc["plan"] + ([doc["finish"]] if doc["finish"].startswith("out") else [])
    out = [*answer_lines(meld_answer(doc["variant"], doc["players"], steps, doc["points_left"],
                                     doc["points_after_best_discard"])),
           *rules_lines(doc["rules"], doc["variant"]), ""]
    out.append(f"{doc['variant']}, {doc['players']} players: hand {' '.join(doc['hand'])}"
               + (f" (took {doc['taken']})" if doc["taken"] else ""))
    out.append(f"table: {doc['table'] or '(empty)'}")
    out.append("plan:" if doc["plan"] else "plan: lay nothing down")
    out += [f"  {k + 1}. {line}" for k, line in enumerate(doc["plan"])] + [f"  {doc['finish']}"]
    out.append(f"left in hand: {' '.join(doc['left_in_hand']) or '(none)'} = {doc['points_left']} points; "
               f"{doc['points_after_best_discard']} after the best discard")
    out.append(f"table after: {doc['table_after']}")
    return "\n".join(out)


def cmd_meld(args) -> int:
    from ..args import output_format
    from ..csv_text import print_answer
    fmt = output_format(args)
    doc = plan_position(args)
    print_answer(fmt, doc, lambda: format_meld(doc))
    return 0


def add_parser(subparsers) -> argparse.ArgumentParser:
    """Add the ``meld`` subcommand."""
    from analysis.args import card_text, whole
    p = add_command(
        subparsers, "meld", help="what should I lay down here? the exact open-melding planner on one position",
        description="""\
            The best melds, layoffs, joker swaps (Wrotham, Drift) and joker moves (Loba) for
            the hand after the draw, over every legal combination; prints the plan in an
            order that can be played and the points left in hand.  The table is melds split
            by '|', runs written in order with each joker (X) where it stands.""",
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
    p.add_argument("--json", action="store_true", help="print the plan as JSON (steps, points left, the table after)")
    add_csv_option(p, "the plan as one row (its steps in one cell, the points left)")
    p.set_defaults(func=cmd_meld)
    return p


# ----------------------------------------------------------------------------------------
# the plan's answer in sentences (analysis.wording has the words)

def meld_answer(variant: str, players: int, steps: list[str], left: int, after: int) -> list[str]:
    """The meld planner's plan for one position in a sentence: what to lay down, what is left."""
    plays = "; ".join(steps) if steps else "lay nothing down"
    return [f"{variant}, {players} players: {plays}; {left} points left in hand, {after} after the best discard."]
