"""The balance study's plan: every run it plays (name, spec), in order, before any is played.

:mod:`.balance` measures from the runs named here and nothing else, so the plan is the one
place that says which runs a study holds and how large each is; the plan's size gives the
study's one progress bar its total (:meth:`Plan.work`).  Whole games take many hands each, at
a length known only once played: the bar counts hands, a whole game as
:data:`HANDS_PER_GAME_GUESS` hands until its cell's base games are played, then as their mean
(:meth:`Plan.learn`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sim.core.errors import UserInputError
from sim.runner import RunSpec, make_spec
from sim.strategies import has_preset
from sim.variants import get_variant

HANDS_PER_GAME_GUESS = 10     # whole games of simple play at the default sizes: 6-13 hands


@dataclass(frozen=True)
class Step:
    """One part of the study: a cell's measures (``kind`` "cell": game x player count x rules)
    or one player count's rule sensitivity (``kind`` "sensitivity")."""
    kind: str
    variant: str
    players: int
    rules: tuple[str, ...] = ()
    tag: str = ""
    cfg: object = None            # the game's sizes (BalanceConfig.for_game)


@dataclass(frozen=True)
class Planned:
    spec: RunSpec
    cell: str                     # runs of one cell share a game length (see Plan.learn)


@dataclass
class Plan:
    steps: list[Step] = field(default_factory=list)
    runs: dict[str, Planned] = field(default_factory=dict)      # name -> run, in play order
    game_hands: dict[str, int] = field(default_factory=dict)    # cell -> hands per whole game

    def weight(self, name: str) -> int:
        """A study bar's units of work per unit of run ``name``: 1 per hand, per game its hands."""
        p = self.runs[name]
        return self.game_hands.get(p.cell, HANDS_PER_GAME_GUESS) if p.spec.mode == "games" else 1

    def work(self) -> int:
        """Every run's units of work: hands, whole games counted as hands."""
        return sum(p.spec.n * self.weight(name) for name, p in self.runs.items())

    def counts(self) -> dict[str, int]:
        """Hands and whole games the plan plays (over every run)."""
        out = {"hands": 0, "games": 0}
        for p in self.runs.values():
            out["games" if p.spec.mode == "games" else "hands"] += p.spec.n
        return out

    def learn(self, cell: str, hands_per_game: float, waiting) -> int:
        """Count the whole games of ``cell`` as ``hands_per_game`` from now on; returns the change
        of the work of its runs still ``waiting`` (names), for the bar's total."""
        old = {name: self.weight(name) for name in waiting if self.runs[name].cell == cell}
        self.game_hands[cell] = max(1, round(hands_per_game))
        return sum(self.runs[name].spec.n * (self.weight(name) - w) for name, w in old.items())


def spec(v, n, rules, strategies, units, seed, mode="hands") -> RunSpec:
    return make_spec(v.name, rules=list(rules), strategies=strategies, n=units, seed=seed,
                     players=n, mode=mode)


def rotations(weak: str, strong: str, n: int) -> list[str]:
    """One strategy text per seat of the stronger player: ``strong`` there, ``weak`` elsewhere."""
    return [",".join(strong if s == r else weak for s in range(n)) for r in range(n)]


def ladder_pairs(v) -> list[tuple[str, str]]:
    """Every pair of rungs (weaker, stronger): neighbours first, the whole ladder (``random``
    against the strongest: the skill gradient) last."""
    lad = v.ladder
    return [(lad[i], lad[j]) for d in range(1, len(lad)) for i in range(len(lad) - d) for j in [i + d]]


def pair_runs(v, n, rules, weak, strong, seed, pre, hands, games):
    """The duplicate-deal runs of a pair of rungs, one per seat of the stronger: ``hands`` hands,
    then (``games`` > 0) ``games`` whole games."""
    for r, strats in enumerate(rotations(weak, strong, n)):
        yield f"{pre}-{weak}-{strong}-r{r}", spec(v, n, rules, strats, hands, seed)
    for r, strats in enumerate(rotations(weak, strong, n)) if games > 0 else ():
        yield f"{pre}-{weak}-{strong}-games-r{r}", spec(v, n, rules, strats, games, seed, "games")


def cell_runs(v, n, rules, cfg, pre):
    """Every run of one game x player count x rules (see :mod:`.balance`)."""
    simple = v.ladder[1]
    games = cfg.games if v.game_kernel is not None else 0
    yield f"{pre}-base", spec(v, n, rules, simple, cfg.hands, cfg.seed)
    if cfg.dup_hands > 0:
        yield f"{pre}-base-dup", spec(v, n, rules, simple, max(n, cfg.dup_hands // n * n), cfg.seed, "duplicate")
    if games > 0:
        yield f"{pre}-base-games", spec(v, n, rules, simple, games, cfg.seed, "games")
    for weak, strong in ladder_pairs(v):
        yield from pair_runs(v, n, rules, weak, strong, cfg.seed, pre, cfg.ladder_hands, games // 4)
    if champion_rung(v, cfg):
        yield from pair_runs(v, n, rules, v.ladder[-1], v.champion, cfg.seed, pre, cfg.champion_hands, 0)
    if search_rung(v, cfg):
        yield from pair_runs(v, n, rules, v.ladder[-1], SEARCH, cfg.seed, pre, cfg.search_hands, 0)
        if champion_rung(v, cfg):
            yield from pair_runs(v, n, rules, v.champion, SEARCH, cfg.seed, pre, cfg.search_hands, 0)


SEARCH = "search"      # the rung above the heuristic ladder, where the game's kernel searches


def search_rung(v, cfg) -> bool:
    """True if the study puts ``search`` on top of ``v``'s ladder (``--search-hands`` > 0 and the
    game has a search player): played against the strongest heuristic only, on duplicate deals."""
    return cfg.search_hands > 0 and has_preset(v.name, SEARCH)


def champion_rung(v, cfg) -> bool:
    """True if the study puts the game's champion (``Variant.champion``, Gin's ``marjj``) on top
    of the ladder (``--champion-hands`` > 0): played against the strongest heuristic on duplicate
    deals, and against search where the search rung is played too."""
    return cfg.champion_hands > 0 and bool(v.champion)


def arm_runs(v, n, rules, cfg, pre):
    """One rules setting of the sensitivity: ``simple`` everywhere, and the top pair (``random``
    against the strongest), ``cfg.rule_hands`` hands each."""
    yield f"{pre}-base", spec(v, n, rules, v.ladder[1], cfg.rule_hands, cfg.seed)
    yield from pair_runs(v, n, rules, v.ladder[0], v.ladder[-1], cfg.seed, pre, cfg.rule_hands, 0)


def rule_changes(v) -> list[str]:
    """``option=value`` for every on/off option flipped and every other choice of a text option
    (numeric options are left to ``--rule``; ``players`` is the player count)."""
    base = v.rules_cls()
    out = []
    for f in v.rules_cls.options():
        val = getattr(base, f.name)
        if f.name == "players":
            continue
        if isinstance(val, bool):
            out.append(f"{f.name}={'off' if val else 'on'}")
        elif f.metadata.get("choices"):
            out += [f"{f.name}={c}" for c in f.metadata["choices"] if c != val]
    return out


def checked_changes(v, n: int) -> tuple[list[str], list[dict]]:
    """The rule changes that can be played with ``n`` players, and those that cannot (with why)."""
    ok, skipped = [], []
    for change in rule_changes(v):
        try:
            make_spec(v.name, rules=[change], n=1, players=n)
        except UserInputError as e:
            skipped.append({"rule": change, "why": str(e)})
            continue
        ok.append(change)
    return ok, skipped


def sensitivity_counts(v, counts: tuple[int, ...]) -> list[int]:
    """Player counts of the rule sensitivity: the default (else the fewest asked for) and the
    most asked for (options of larger tables, e.g. how a hand is settled, act there)."""
    first = v.default_players if v.default_players in counts else min(counts)
    return sorted({first, max(counts)})


def default_prefix(v, n: int) -> str:
    return f"{v.name}-{n}p-rules-default"


def change_prefix(v, n: int, change: str) -> str:
    return f"{v.name}-{n}p-rule-{change}"


def study_plan(cfg) -> Plan:
    """The steps and runs of a balance study (a ``BalanceConfig``), in play order."""
    plan = Plan()

    def add(runs, cell):
        for name, s in runs:
            plan.runs[name] = Planned(s, cell)
    arms = [((), "")] + ([((cfg.rule,), f"-rule-{cfg.rule}")] if cfg.rule else [])
    for name in cfg.variants:
        v = get_variant(name)
        vcfg = cfg.for_game(v)
        for n in cfg.players[name]:
            for rules, tag in arms:
                plan.steps.append(Step("cell", v.name, n, rules, tag, vcfg))
                add(cell_runs(v, n, rules, vcfg, f"{v.name}-{n}p{tag}"), f"{v.name}-{n}p{tag}")
        if cfg.sensitivity and not cfg.rule and rule_changes(v):
            for n in sensitivity_counts(v, cfg.players[name]):
                plan.steps.append(Step("sensitivity", v.name, n, cfg=vcfg))
                add(arm_runs(v, n, (), vcfg, default_prefix(v, n)), default_prefix(v, n))
                for change in checked_changes(v, n)[0]:
                    add(arm_runs(v, n, (change,), vcfg, change_prefix(v, n, change)), change_prefix(v, n, change))
    return plan
