"""Rules objects: one frozen dataclass per variant family, flattened to a float64 array.

Every option in ``rules/`` is a field with the default stated there and a help text
(``field(default=..., metadata={"help": ...})``).  A text-valued option lists its
``choices`` (``option("seed", help, choices=("seed", "pairwise"))``): the dataclass holds the
text, :meth:`RulesBase.to_array` the index of the text in ``choices``.  Kernels read the array by index; the
indices come from :meth:`RulesBase.index`, evaluated once at import time of the variant
module (true compile-time constants).  ``VERSION`` changes whenever the behaviour of a variant
changes, and is stored with every run.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import ClassVar, Iterable

import numpy as np

from .errors import UserInputError


class RulesError(UserInputError):
    """A rule option that is unknown, malformed, out of range or contradicts another."""


_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


@dataclass(frozen=True)
class RulesBase:
    VERSION: ClassVar[int] = 1

    @classmethod
    def options(cls) -> list[dataclasses.Field]:
        return [f for f in dataclasses.fields(cls)]

    @classmethod
    def index(cls, name: str) -> int:
        for i, f in enumerate(dataclasses.fields(cls)):
            if f.name == name:
                return i
        raise KeyError(name)

    @classmethod
    def value(cls, rules_arr, name: str) -> float:
        """The option ``name`` read from a rules array (:meth:`to_array`)."""
        return float(np.asarray(rules_arr, dtype=np.float64)[cls.index(name)])

    @classmethod
    def checked_players(cls, rules_arr, lo: int, hi: int, game: str) -> int:
        """The player count of a rules array, checked against the game's range ``lo..hi``."""
        n = int(cls.value(rules_arr, "players"))
        if not lo <= n <= hi:
            raise ValueError(f"{game}: players={n}")
        return n

    @classmethod
    def choice_index(cls, name: str, value: str) -> int:
        """Index of ``value`` among the choices of the text option ``name`` (the kernel's code)."""
        f = next(f for f in dataclasses.fields(cls) if f.name == name)
        return f.metadata["choices"].index(value)

    def to_array(self) -> np.ndarray:
        vals = []
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            choices = f.metadata.get("choices")
            vals.append(float(choices.index(v) if choices and v in choices else v))
        return np.array(vals, dtype=np.float64)

    def as_dict(self) -> dict:
        return dataclasses.asdict(self)

    def validate(self) -> None:
        """Check ranges and contradictions; subclasses extend."""
        for f in dataclasses.fields(self):
            lo, hi = f.metadata.get("range", (None, None))
            v = getattr(self, f.name)
            choices = f.metadata.get("choices")
            if choices is not None:
                if v not in choices:
                    raise RulesError(f"rule {f.name}={v!r} is not one of the choices: {', '.join(choices)}")
                continue
            if lo is not None and not (lo <= v <= hi):
                raise RulesError(f"rule {f.name}={v} is out of range [{lo}, {hi}]")

    @classmethod
    def from_options(cls, items: Iterable[str] | dict | None = None, **fixed):
        """Build from ``["knock_limit=8", "oklahoma=on"]`` (CLI) or a dict, then validate."""
        values = dict(fixed)
        pairs: list[tuple[str, object]] = []
        if isinstance(items, dict):
            pairs = list(items.items())
        else:
            for item in items or []:
                if "=" not in item:
                    raise RulesError(f"bad rule {item!r}: write name=value, e.g. knock_limit=8")
                k, v = item.split("=", 1)
                pairs.append((k.strip(), v.strip()))
        fields = {f.name: f for f in dataclasses.fields(cls)}
        given = [k for k, _ in pairs]
        for k, v in pairs:
            if k not in fields:
                raise RulesError(f"unknown rule {k!r} for {cls.__name__}; options: {', '.join(fields)}")
            if given.count(k) > 1:
                raise RulesError(f"rule {k} is given {given.count(k)} times; give it once")
            choices = fields[k].metadata.get("choices")
            values[k] = _choice(k, v, choices) if choices else _coerce(k, v, fields[k].type, fields[k].default)
        try:
            rules = cls(**values)
        except TypeError as e:
            raise RulesError(str(e)) from None
        rules.validate()
        return rules


def _coerce(name: str, value, typ, default):
    kind = type(default)
    if isinstance(value, str):
        s = value.lower()
        if kind is bool:
            if s in _TRUE:
                return True
            if s in _FALSE:
                return False
            raise RulesError(f"rule {name} takes on/off, got {value!r}")
        try:
            num = float(value)
        except ValueError:
            raise RulesError(f"rule {name} takes a number, got {value!r}") from None
        if not math.isfinite(num):
            raise RulesError(f"rule {name} takes a finite number, got {value!r}")
        if kind is int:
            if num != int(num):
                raise RulesError(f"rule {name} takes a whole number, got {value!r}")
            return int(num)
        return num
    if kind is bool:
        return bool(value)
    return kind(value)


def _choice(name: str, value, choices: tuple[str, ...]) -> str:
    s = str(value).strip().lower()
    if s not in choices:
        raise RulesError(f"rule {name} takes one of {', '.join(choices)}, got {value!r}")
    return s


def option(default, help: str, lo=None, hi=None, choices: tuple[str, ...] | None = None):
    """A rules field with its help text and (for numbers) inclusive range, or (for text) its
    ``choices``: the help text then ends with them, so listings show them."""
    md = {"help": help}
    if lo is not None:
        md["range"] = (lo, hi)
    if choices is not None:
        choices = tuple(choices)
        if default not in choices:
            raise ValueError(f"default {default!r} is not among the choices {choices}")
        md["choices"] = choices
        md["help"] = f"{help} (choices: {' | '.join(choices)})"
    return dataclasses.field(default=default, metadata=md)
