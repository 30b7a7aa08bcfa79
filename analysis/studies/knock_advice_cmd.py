"""The ``knock`` subcommand: "should I knock here?" from the command line (the sampler, the
stopping rule and the report are ``knock_advice.py``'s)."""

from __future__ import annotations

import argparse
import math
import sys

from ..args import add_command, add_csv_option, add_rule_set_option, output_format, whole
from ..csv_text import print_answer
from .knock_advice import AdviceError, advise, format_advice


_EXAMPLES = """
    rummylab knock --variant gin --hand "AS 2S 3S 7H 7D 7C 9S 9D 9H 8C" --turn 3 --upcard 5C
    rummylab knock --variant gin --hand "AS 2S 3S 7H 7D 7C 9S 9D 9H 8C 5C" --turn 9   # 11 cards
    rummylab knock --variant gin --hand "AS 2S 3S 7H 7D 7C 9S 9D KH 4C" --turn 6 --upcard 5C
        (refused: deadwood 32, knocking needs <= 10)
    rummylab knock --variant gin --hand "AS 2S 3S 7H 7D 7C 9S 9D 9H 8C" --turn 9 --upcard 5C --opp-model played
    rummylab knock --variant gin --hand "AS 2S 3S 7H 7D 7C 9S 9D 9H 4C" --turn 4 --rule oklahoma=on --first-upcard 7D
    rummylab knock --variant gin --hand "4S 2H 3H 4H 5H 8H 9H TH JH AD" --turn 7 --upcard TC --history "up 3H;
        0:take 3H discard KC; 1:take KC discard QH; 0:draw discard QS; 1:draw discard TD; 0:draw discard JD;
        1:draw discard 9S; 0:draw discard JS; 1:draw discard 8D; 0:draw discard 7C; 1:draw discard QC;
        0:draw discard 6S; 1:draw discard 8H"     (the opponent holds KC; you took 8H this turn)
    rummylab knock --variant tonk --players 3 --hand "AS 2D 3C 5H" --turn 4 --spread "7S 7H 7D"
    rummylab knock --variant tonk --players 4 --hand "AS AD" --turn 3 --spread "2:7S 7H 7D" --json
    rummylab knock --variant knock-rummy --players 4 --hand "AS 2S 3S 7H 7D 7C 9S" --turn 3
    rummylab knock --variant knock-rummy --hand "AS 2S 3S 7H 7D 7C 9S 9D 9H 8C" --turn 5 --opponent strong
    rummylab knock --variant ramino-klop --players 4 --hand "AS 2S 3S X 7H 7D 5C" --turn 3
    rummylab knock --variant ramino-klop --players 3 --hand "AS AS 2S 3S X 7H 7D 4C" --turn 5   # 8 cards
"""


def _budget_arg(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--budget takes seconds, got {text!r}") from None
    if not (v > 0 and math.isfinite(v)):
        raise argparse.ArgumentTypeError(f"--budget must be > 0 seconds, got {text!r}")
    return v


def _opp_cards_arg(text: str) -> list[int]:
    try:
        return [int(x) for x in text.replace(",", " ").split()]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--opp-cards takes a number (every opponent) or one per opponent, e.g. 5,3,4; got {text!r}") from None


def add_parser(subparsers) -> argparse.ArgumentParser:
    """Add the ``knock`` subcommand to an argparse subparsers object."""
    from analysis.args import card_text
    p = add_command(
        subparsers, "knock", help="should I knock here? knock-now vs play-on EVs for a concrete hand, 95%% CIs",
        description="""\
            Sample the unseen cards (opponents' hands, stock, buried discards) and play both
            choices on the same worlds: knock now, or play on with your strategy.  Prints both
            expected scores and win probabilities with 95% CIs, the paired difference and a
            recommendation.
              gin:  the hand is the one you keep after discarding (10 cards; with 11 the exact
                    best discard is chosen); --upcard is the card you discard.
              tonk: the knock (drop) is at the start of your turn, before drawing; you play
                    first in each round.
              knock-rummy: the hand you keep after discarding (10 cards with 2 players, 7 with
                    3-5; one more: the best discard is chosen); you play first (left of the
                    dealer); points are net against the average opponent (settle=seed).
              ramino-klop: two joker packs (X = joker, a card at most twice); 7 cards kept (8: the
                    best discard is chosen); knocking needs deadwood below 7; points are the
                    penalty lead, the average opponent's penalty minus yours.
            Gin, Knock Rummy and Ramino Klop opponents' hands are replayed deals (--opp-model played), or with
            --history weighted by how likely their strategies were to play the observed turns;
            Tonk's are uniform over the unseen cards.  Sampling stops on a 95% confidence
            sequence, valid whenever it stops.""",
        epilog=_EXAMPLES)
    p.add_argument("--variant", default="gin", help="a game with a knock advisor (default gin; see "
                                                    "`rummylab variants`)")
    p.add_argument("--hand", required=True, help='your cards, e.g. "AS 2S 3S 7H 7D 7C 9S 9D 9H 8C"')
    p.add_argument("--turn", type=whole("--turn", 1), required=True, help="your own turn number, 1-based")
    p.add_argument("--upcard", type=card_text("--upcard"), default=None,
                   help="gin, knock-rummy, ramino-klop: the card you discard (top of the pile when the next player "
                        "moves); tonk: the top discard. Default: drawn from the unseen cards")
    p.add_argument("--discards", default=None, help="other discards you know of (buried in the pile)")
    p.add_argument("--spread", action="append", default=[], metavar="[SEAT:]CARDS",
                   help="tonk: a spread on the table, repeatable; SEAT 0 = you (default), 1.. = opponents "
                        "in playing order")
    p.add_argument("--players", type=whole("--players", 1), default=2, help="players at the table (default 2)")
    p.add_argument("--opp-cards", type=_opp_cards_arg, default=None, metavar="N[,N...]",
                   help="tonk: cards held by every opponent, or one count per opponent (default 5)")
    p.add_argument("--stock", type=whole("--stock", 0), default=None,
                   help="cards in the stock (gin, knock-rummy, ramino-klop: after your draw); default "
                        "from --turn")
    p.add_argument("--first-upcard", type=card_text("--first-upcard"), default=None, help="gin with oklahoma: the hand's first upcard")
    p.add_argument("--history", default=None, metavar="TEXT",
                   help="gin, knock-rummy: every turn since the deal, before your current one: 'up "
                        "CARD' (the first upcard), then per turn 'SEAT:take CARD discard CARD' or "
                        "'SEAT:draw discard CARD', separated by ';' (seat 0 = you). Opponents keep "
                        "the cards they took and not the ones they threw; with --opp-model played "
                        "only worlds where their strategies make the observed choices are kept")
    p.add_argument("--opponent", default="simple",
                   help="opponents' strategy (tonk, knock-rummy, ramino-klop: one, or one per opponent, "
                        "comma separated)")
    p.add_argument("--strategy", default="simple", help="your strategy when playing on")
    p.add_argument("--opp-model", choices=("uniform", "played"), default=None,
                   help="opponent's hand: 'played' (gin, knock-rummy, ramino-klop default): a uniform deal from the "
                        "unseen cards replayed through its turns so far by its strategy (with --history: "
                        "its observed turns); 'uniform' (tonk default): uniform from the unseen cards "
                        "(with --history: but for the cards it took and kept)")
    p.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                   help="rule option, repeatable (see `rummylab variants`)")
    add_rule_set_option(p)
    p.add_argument("--budget", type=_budget_arg, default=3.0, metavar="SECONDS",
                   help="sampling time budget (default 3); stops earlier once the 95%% confidence "
                        "sequence of the difference excludes 0")
    p.add_argument("--worlds", type=whole("--worlds", 1), default=None,
                   help="sample exactly this many worlds (ignores --budget; reproducible anywhere)")
    p.add_argument("--seed", type=whole("--seed", 0), default=0, help="random seed (default 0)")
    p.add_argument("--json", action="store_true", help="print the advice as JSON")
    add_csv_option(p, "the advice as one row (each choice's expected points and win rate and the paired "
                      "difference, with 95%% CIs and n; the recommendation; the inputs)")
    p.set_defaults(func=cmd)
    return p


def advise_args(args, progress=None):
    """The advice for the parsed command line ``args`` (the web app's asks too)."""
    return advise(args.variant, args.hand, turn=args.turn, upcard=args.upcard,
                  discards=args.discards, spreads=args.spread, players=args.players,
                  opponent=args.opponent, strategy=args.strategy, rules=args.rule,
                  stock=args.stock, opp_cards=args.opp_cards, first_upcard=args.first_upcard,
                  history=args.history, budget_s=args.budget, worlds=args.worlds, seed=args.seed,
                  opp_model=args.opp_model, progress=progress)


def cmd(args) -> int:
    fmt = output_format(args)
    try:
        adv = advise_args(args)
    except AdviceError as e:
        print(f"rummylab: error: {e}", file=sys.stderr)
        return 2
    print_answer(fmt, adv.as_dict(), lambda: format_advice(adv))
    return 0
