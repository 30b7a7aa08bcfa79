"""The section registry: every study kind registers the JSON file that marks its results folder
and the builder of its report section; :func:`detect` maps a folder to its kind.

A new kind is one module in this package::

    @section("balance", file="balance.json", methods="<p>How the balance study works.</p>")
    def balance_section(folder: Path, anchor: str) -> RunSection: ...

Its study writes ``balance.json`` with ``"kind": "balance"`` (``analysis.store.write_study``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..store import StoreError, load_meta, read_json
from .figures import FigureInfo


@dataclass
class RunSection:
    """One results folder as rendered: its body and its entries in the methods."""
    kind: str                 # a registered kind: "knock_sweep", "tonk_odds", "run", ...
    folder: str
    anchor: str
    title: str
    body: list = field(default_factory=list)      # HTML strings and FigureInfo, in order
    methods: list[str] = field(default_factory=list)
    game: str | None = None   # the game the study is about (its page); None: the cross-game balance page
    question: str = ""        # the question the section answers (its heading on the pages)
    answer: list[str] = field(default_factory=list)   # answer sentences (each study's ``*_answer``) for the landing page
    summary: str = ""         # extra HTML for the landing page (the balance table)
    group: str = "other"      # landing-page group: knock, odds, balance, melding, runs
    per_game: dict = field(default_factory=dict)     # game -> HTML for that game's page (balance rows)

    @property
    def heading(self) -> str:
        return self.question or self.title

    @property
    def figures(self) -> list[FigureInfo]:
        return [b for b in self.body if isinstance(b, FigureInfo)]


def _any_content(doc: dict) -> bool:
    return True


@dataclass(frozen=True)
class SectionKind:
    """How one kind of results folder becomes a report section."""
    kind: str
    file: str                                  # the JSON file marking such a folder
    build: Callable[[Path, str], RunSection]   # (folder, anchor) -> section
    methods: str = ""                          # HTML for the methods, once per report
    claims: Callable[[dict], bool] = _any_content   # is a file that names no kind of this kind?


SECTIONS: dict[str, SectionKind] = {}


def section(kind: str, file: str, methods: str = "", claims: Callable[[dict], bool] = _any_content):
    """Register the decorated ``build(folder, anchor) -> RunSection`` for folders of ``kind``."""
    def register(build):
        if kind in SECTIONS:
            raise ValueError(f"report section kind {kind!r} is registered twice")
        SECTIONS[kind] = SectionKind(kind, file, build, methods, claims)
        return build
    return register


def _read_json(path: Path) -> dict:
    doc = read_json(path)
    if not isinstance(doc, dict):
        raise StoreError(f"{path} does not hold a JSON object")
    return doc


def detect(run_dir) -> str:
    """The registered kind of a results folder: the ``"kind"`` stored in a registered file if it
    names that file's kind, else (runs stored before kinds were written) the first registered
    file present whose content its kind claims.  Anything else raises :class:`StoreError`."""
    d = Path(run_dir)
    if not d.is_dir():
        raise StoreError(f"{d.name or d}: no such run folder ({d})")
    present = [s for s in SECTIONS.values() if (d / s.file).exists()]
    docs = {s.file: _read_json(d / s.file) for s in present}
    for s in present:
        if docs[s.file].get("kind") == s.kind:
            return s.kind
    for s in present:
        if s.claims(docs[s.file]):
            return s.kind
    if (d / "meta.json").exists():
        raise StoreError(f"{d.name}: a stage of a study, not a run; pass the study folder ({d.parent})")
    if (d / "spec.json").exists():
        load_meta(d)  # raises: "holds no complete run"
    files = ", ".join(dict.fromkeys(s.file for s in SECTIONS.values()))
    raise StoreError(f"{d.name}: not a rummylab results folder (expected {files} in {d})")
