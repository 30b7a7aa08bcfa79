"""``rummylab trace``: what happened in hand I?  The hands of a run, play by play.

``rummylab trace --variant V [--players P] [--rule NAME=VALUE ...] [--strategies ...] --seed S
--hand I`` (or ``--hands A..B``) plays those hands exactly as ``rummylab simulate --seed S``
with the same arguments plays them (hand I here is row I there: the same outcome row) and
prints every draw, take, discard, meld, lay-off, joker move or swap, knock and going out, and
the outcome row, as the playthroughs (tests/crosscut/playthroughs/) do.  With ``--json``: one JSON
object per event per line, the contract a referee reads:

One JSON object per line. Every line has at least:
  "hand": int (hand index within the seed's run), "turn": int (0 for start/deal/upcard lines;
  then the turn counter: 1 for the first seat's first turn, +1 at each new seat's turn),
  "seat": int (-1 where no seat acts), "event": str, "cards": [str, ...]
Cards are written as the project writes them (`sim/cards.py` card_text): rank+suit "AS", "TD",
"KH", jokers "X". Two-pack games simply repeat texts.

Per hand, in order:
1. {"event": "start", ..., "variant": "gin", "players": 2, "rules": {every rule option: value},
    "strategies": ["simple", ...], "seed": S, "dealer": seat or -1 if the game has none,
    "columns": [outcome column names], "pack": {card text: copies in the pack}}
2. {"event": "deal", "seat": s, "cards": [the seat's whole dealt hand]}   one per seat
3. {"event": "upcard", "cards": [c]}   where the game turns one up
4. one line per action, in play order:
   "draw" (from the stock; cards = [card drawn]), "take" (from the discard pile; cards = the cards
   taken), "pass" (declines the upcard), "discard" ([card]), "knock" ([] plus "deadwood": n where
   the engine logs it), "meld" (a new meld: its cards in table order), "lay_off" ([card], "meld": i),
   "swap" ([natural card put in], "meld": i: the joker goes to the hand), "move" (joker moved to an
   end of run i: [], "meld": i), "drop", "restock" / "turn_over" ("count": n cards in the new stock),
   "end" (the hand ends: "outcome_name").
   Wherever the engine knows it, a line may carry more keys (e.g. "meld": i, "deadwood").
5. After every event that changes the table in the open-melding games (meld, lay_off, swap, move):
   "table": [[...], ...]: the whole table, one list per meld in table index order, each meld's cards
   in order (runs from low to high) with a joker written "X" WHERE IT STANDS. Optionally
   "owners": [seat per meld].
6. Last line of each hand: {"event": "outcome", "outcome": {column name: value, ...},
   "outcome_name": str}.

Keys this command adds to the schema: start: "rules_version", "hand_word" (deadwood or count);
"discard": "deadwood" (what the hand counts after the discard, in the game's hand word);
"drop": "deadwood" (the dropper's count); "meld": "meld" (its table index); "move": "fill"
([the hand's card put in the joker's place] or []) and "to" ("low" or "high": the end of the
run the joker went to); "pass": cards [the upcard] where the seat declines it (no turn of
its own), [] where the seat to move cannot draw because the stock is out (the open-melding
games and Tonk; the hand ends); the turn counter counts turns as the outcome's "turns" column; Tonk's "meld" and
"lay_off" lines carry "table" and "owners" too (its spreads are open on the table); with
"table" comes "kinds": ["run" or "set" per meld, as the engine holds it].  A set
is written naturals in suit order (S H D C), then its jokers; the plays of a turn come in the
order they were made.

The arrangements shown (Gin and Knock Rummy at the knock, Gin's gin and big gin, Knock Rummy's
stock-out end; Ramino Klop at the knock or rummy; Wildcard and Cincinnati at the going out):
the knock line (the end line where the hand ends without one) carries
  "melds": [[card, ...], ...]  the knocker's (the ender's) melds in the engine's order, each
      meld's cards as they lie (a run low to high, a set naturals by suit then its wilds, a
      joker "X" and a Wildcard 2 played wild WHERE IT STANDS);
  "deadwood_cards": [card, ...]  its cards in no meld;
  "defenders": [{"seat": s, "melds": [...], "deadwood_cards": [...],
                 "lay_offs": [{"card": c, "meld": k}, ...]}, ...]  every other seat in play
      order from the knocker's left: its own melds, what it keeps as deadwood, and (Gin) the
      cards it lays off, in the order laid, onto the knocker's meld k (index into "melds").
The seat's cards are exactly its melds + deadwood_cards + lay-off cards.  They are the
arrangements the engine settled: the Gin knocker's melds as it showed them (its strategy's
choice: first, fewest lay-off spots or random minimum arrangement) with the defender's
lay-offs onto them; elsewhere the score counts only each seat's minimum deadwood, and the
trace shows the minimum arrangement the engine's own search found (wild games: the search
behind the engine's deadwood; Gin without lay-offs and Knock Rummy: a minimum arrangement of
the single-pack search), checked to count the deadwood the row holds.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator

from sim.runner import MAX_UNITS

from .trace_events import hand_events, play_traced, text_lines
from . import json_text
from .args import add_command, add_game_options, add_strategies_option, whole

MAX_TRACE_HANDS = 100_000


def trace_stream(spec, hands: range) -> Iterator[list[dict]]:
    """The events of each hand of ``hands`` (a range of hand numbers) of ``spec``."""
    for h in hands:
        rows, out = play_traced(spec, h)
        yield hand_events(spec, h, rows, out)


def hand_range(text: str) -> range:
    """--hands A..B: hands A to B, both included."""
    lo, sep, hi = text.partition("..")
    try:
        a, b = int(lo.replace("_", "")), int(hi.replace("_", ""))
    except ValueError:
        a = b = None
    if not sep or a is None:
        raise argparse.ArgumentTypeError(f"--hands takes a range of hand numbers like 0..99, got {text!r}")
    if a < 0 or b < a:
        raise argparse.ArgumentTypeError(f"--hands {text}: expected 0 <= A <= B")
    if b >= MAX_UNITS:
        raise argparse.ArgumentTypeError(f"--hands {text}: hand numbers go up to {MAX_UNITS - 1:,}")
    if b - a + 1 > MAX_TRACE_HANDS:
        raise argparse.ArgumentTypeError(f"--hands {text}: at most {MAX_TRACE_HANDS:,} hands per trace")
    return range(a, b + 1)


def cmd_trace(args) -> int:
    from sim.runner import make_spec
    hands = range(args.hand, args.hand + 1) if args.hand is not None else args.hands
    spec = make_spec(args.variant, rules=args.rule, rule_set=args.rule_set, strategies=args.strategies, n=hands.stop,
                     seed=args.seed, players=args.players)
    open_game = spec.variant.meld_setup is not None
    for k, events in enumerate(trace_stream(spec, hands)):
        if args.json:
            text = "\n".join(json_text.dumps(e, compact=True) for e in events)
        else:
            text = ("\n" if k else "") + "\n".join(text_lines(events, spec.variant.outcomes, open_game))
        print(text, flush=True)
    return 0


def add_parser(subparsers) -> argparse.ArgumentParser:
    """Add the ``trace`` subcommand."""
    p = add_command(
        subparsers, "trace", help="what happened in hand I? the hands of a run, play by play (text or JSON lines)",
        description="""\
            Play hands of a run exactly as `rummylab simulate` with the same --variant,
            --players, --rule, --strategies and --seed plays them (hand I here is row I there)
            and print every draw, take, discard, meld, lay-off, joker swap or move, knock and
            going out, then the hand's outcome row.  The open-melding games print the whole
            table after every change (melds split by '|', runs low to high, each joker X where
            it stands).  --json: one JSON object per event per line (keys: docs/trace-and-referee.md).""",
        epilog="""
            rummylab trace --variant gin --seed 7 --hand 1234
            rummylab trace --variant loba --players 5 --seed 1 --hand 3 --json
            rummylab trace --variant tonk --players 3 --strategies "simple,random,simple" --hands 0..9 --json > tonk.jsonl
            rummylab trace --variant basic-rummy --rule ace_high_or_low=on --seed 2 --hands 10..12
        """)
    add_game_options(p)
    add_strategies_option(p)
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--hand", type=whole("--hand", 0, MAX_UNITS - 1), default=None, metavar="I",
                       help="the hand to show (0 is the first hand of the run)")
    which.add_argument("--hands", type=hand_range, default=None, metavar="A..B",
                       help=f"hands A to B, both included (at most {MAX_TRACE_HANDS:,})")
    p.add_argument("--json", action="store_true", help="one JSON object per event per line")
    p.set_defaults(func=cmd_trace)
    return p
