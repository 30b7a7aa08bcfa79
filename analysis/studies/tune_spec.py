"""The specification of a tuning run (:mod:`.tune`): :class:`TuneSpec`, and building and
checking it from the command line's words (:func:`build_spec`)."""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass

from sim.core.errors import UserInputError
from sim.runner import make_spec
from sim.strategies import FAMILIES, PRESETS, Strategy, _load_families, parse_strategy, split_specs
from sim.variants import get_variant

from ..jobs import focus_names
from ..errors import TuneError

ETA = 3                    # successive halving: a third of a rung goes on to the next
MIN_RUNG = 100             # fewest hands of the first rung (rounded up to whole rotations)
NOT_TUNED = ("random_play",)   # the uniform-random switch of every family: not a strategy to tune
SEARCH_PREFIX = "search_"      # the search player's budget and settings (sim.search): named with --params only
TARGET_TRIALS = 100        # default first rung: about this many candidates fit the budget
OBJECTIVES = {
    "mean": "the mean edge over the field members",
    "worst-gain": "the least gain over the base preset against any one field member (edge minus the base's edge)",
}


@dataclass(frozen=True)
class TuneSpec:
    variant: str
    players: int
    family: str
    base: str                                     # preset the candidates start from
    field: tuple[str, ...]
    params: tuple[tuple[str, float, float, bool], ...]   # (name, lo, hi, integer) searched
    budget: int                                   # hands the candidates may play in the search
    min_hands: int                                # hands of the first rung
    rungs: int
    trials: int                                   # most candidates
    finalists: int
    final_hands: int
    seed: int
    rules: tuple[str, ...] = ()
    objective: str = "mean"

    def rung_hands(self, r: int) -> int:
        return self.min_hands * ETA ** r

    def rung_cost(self, r: int) -> int:
        """Hands one candidate plays at rung ``r`` (every field member)."""
        return self.rung_hands(r) * len(self.field)

    @property
    def final_seed(self) -> int:
        return fresh_seed(self.seed)

    def base_strategy(self) -> Strategy:
        return parse_strategy(self.base, self.variant, self.players)

    def candidate(self, values: dict[str, float]) -> Strategy:
        """The base preset with the searched parameters set to ``values``."""
        inner = ",".join(f"{k}={_num(v)}" for k, v in values.items())
        return parse_strategy(f"{self.base}({inner})" if inner else self.base, self.variant, self.players)

    def arm(self, seat0, opponent: str, hands: int, seed: int):
        """Duplicate-deal spec: ``seat0`` in seat 0, ``opponent`` in every other seat."""
        return make_spec(self.variant, rules=list(self.rules), strategies=[seat0, *[opponent] * (self.players - 1)],
                         n=hands, seed=seed, players=self.players, mode="duplicate")


def _num(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else repr(float(v))


def fresh_seed(seed: int) -> int:
    """The seed of the finalists' re-evaluation: derived from ``seed``, never ``seed`` itself."""
    h = int.from_bytes(hashlib.sha256(f"rummylab-tune-final:{seed}".encode()).digest()[:8], "big") >> 1
    return h if h != seed else h ^ 1


def sampler_seed(seed: int, number: int) -> int:
    """The TPE sampler's seed for trial ``number`` (so a resumed run proposes the same)."""
    return int.from_bytes(hashlib.sha256(f"rummylab-tune-tpe:{seed}:{number}".encode()).digest()[:4], "big")


# ----------------------------------------------------------------------------------------
# building and checking a spec from the command line's words

def focus(spec) -> tuple[str, float]:
    """Seat 0's per-hand series of a duplicate run and its scale (as ``rummylab compare``): its
    score, or (hand scores not zero-sum) its net against the field / (n - 1)."""
    name = focus_names(spec)[0]
    return name, (1.0 / (spec.n_seats - 1) if name == "field0" else 1.0)


def build_spec(variant: str, *, players=None, family=None, field=None, base=None, params=None, budget=200_000,
               min_hands=None, rungs=4, trials=1000, finalists=3, final_hands=None, seed=0, rules=(),
               objective="mean") -> TuneSpec:
    """A checked :class:`TuneSpec`; any bad input raises one :class:`TuneError` line (or the
    game's own error: unknown variant, players, rule)."""
    _load_families()
    v = get_variant(variant)
    n = make_spec(v.name, rules=list(rules), n=1, players=players).n_seats
    fam = _family(v.name, family)
    base = base or ("simple" if PRESETS.get((v.name, "simple"), (None,))[0] is fam else fam.name)
    if PRESETS.get((v.name, base), (None,))[0] is not fam:
        raise TuneError(f"--base {base!r} is not a preset of family {fam.name} in {v.name}")
    members = _field(v.name, field)
    if rungs < 1:
        raise TuneError(f"--rungs must be >= 1, got {rungs}")
    if objective not in OBJECTIVES:
        raise TuneError(f"--objective {objective!r}: choose one of {', '.join(OBJECTIVES)}")
    first = _whole_rotations(min_hands or max(MIN_RUNG, budget // (len(members) * rungs * TARGET_TRIALS)), n)
    if budget < first * len(members):
        raise TuneError(f"--budget {budget:,} cannot evaluate one candidate at the first rung: that takes "
                        f"{first:,} hands x {len(members)} field member(s) = {first * len(members):,} hands")
    spec = TuneSpec(v.name, n, fam.name, base, members, (), budget, first, rungs, trials, finalists,
                    _whole_rotations(final_hands or first * ETA ** (rungs - 1), n), seed, tuple(rules), objective)
    searched = _search_space(spec, fam, params)
    return TuneSpec(**{**asdict(spec), "params": searched, "field": members, "rules": tuple(rules)})


def _whole_rotations(hands: int, n: int) -> int:
    """``hands`` rounded up to whole duplicate rotations (a multiple of the player count)."""
    return -(-int(hands) // n) * n


def _family(variant: str, name: str | None):
    playing = [f for f in FAMILIES.values() if variant in f.variants]
    if name is None:
        return PRESETS[(variant, "simple")][0] if (variant, "simple") in PRESETS else playing[0]
    known = f"families for {variant}: {', '.join(f.name for f in playing)}"
    fam = FAMILIES.get(name)
    if fam is None:
        raise TuneError(f"--family {name!r}: no strategy family named so; {known}")
    if variant not in fam.variants:
        raise TuneError(f"--family {name!r}: family {name} does not play {variant} (it plays "
                        f"{', '.join(fam.variants)}); {known}")
    return fam


def _field(variant: str, text) -> tuple[str, ...]:
    if text is None:
        return ("simple", "strong") if (variant, "strong") in PRESETS else ("simple",)
    if not str(text).strip():
        raise TuneError("--field is empty: give the opponents to tune against, e.g. --field simple,strong")
    members = tuple(split_specs(text))
    for m in members:
        try:
            parse_strategy(m, variant)
        except UserInputError as e:
            raise TuneError(f"--field member {m!r}: {e}") from None
    if len(set(members)) != len(members):
        raise TuneError("a strategy is listed twice in --field")
    return members


def _search_space(spec: TuneSpec, fam, names) -> tuple[tuple[str, float, float, bool], ...]:
    """(name, lo, hi, integer) of every searched parameter: ``names`` (default: all but
    :data:`NOT_TUNED` and the ``search_*`` ones), each over its declared range narrowed to the values the game accepts
    (integers: every value probed with the game's own check, the base preset elsewhere)."""
    if names is None:
        chosen = [p for p in fam.params if p.name not in NOT_TUNED and not p.name.startswith(SEARCH_PREFIX)]
    else:
        wanted = [s.strip() for s in names.split(",") if s.strip()]
        if not wanted:
            raise TuneError("--params is empty: name the parameters to search, e.g. --params knock,knock_mid")
        for w in wanted:
            if w not in (p.name for p in fam.params):
                raise TuneError(f"--params: family {fam.name} has no parameter {w!r}; parameters: "
                                + ", ".join(p.name for p in fam.params))
        chosen = [p for p in fam.params if p.name in wanted]
    out = []
    for p in chosen:
        if not p.integer:
            out.append((p.name, float(p.lo), float(p.hi), False))
            continue
        ok = [x for x in range(int(p.lo), int(p.hi) + 1) if _accepted(spec, {p.name: x})]
        if len(ok) > 1:
            out.append((p.name, float(min(ok)), float(max(ok)), True))
    if not out:
        raise TuneError(f"nothing to search: no parameter of family {fam.name} can vary in {spec.variant}")
    return tuple(out)


def _accepted(spec: TuneSpec, values: dict) -> bool:
    try:
        spec.arm(spec.candidate(values), spec.field[0], 1, spec.seed)
        return True
    except UserInputError:
        return False
