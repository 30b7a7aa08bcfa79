"""The stored report pages under ``/report`` and the runs of ``--runs`` under ``/runs``.

* ``GET /report/`` and ``GET /report/{path}``: the files ``rummylab report`` (``make demo``) wrote
  in the reports folder (its pages, their PNGs); with no ``index.html`` there, a page saying how
  to make one;
* ``GET /runs``: every results folder under the runs folder with its seals checked: *sound*,
  *damaged* (the reason, naming the file), *incomplete* (no ``meta.json`` yet) or *unchecked*
  (written before seals existed); only a sound run is described as a result;
* ``GET /runs/{path}``: one sound run's summary (anything else: its state and reason).

A run is checked as ``rummylab report`` reads it (:func:`analysis.store.load_meta`: meta.json's
seal, every chunk record's seal and the rows files each lists, their chained hash), and more:
``spec.json`` against its key and against meta.json, every other JSON document of the folder
(a study's own result) against its seal, every stage run below it the same way, and no link out
of the runs folder.  No path from a request leaves its folder (:func:`safe_path`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse

router = APIRouter()
SERVED = {".html", ".png", ".svg", ".jpg", ".jpeg", ".webp", ".css", ".js", ".json", ".csv", ".txt"}
MAX_PATH = 1024           # characters of a requested path
MAX_DEPTH = 4             # folders below the runs folder searched for results folders
NOT_CHECKED = ("chunks", "rows")    # read through the run's own records, not as documents
FACTS = ("variant", "variants", "players", "hands", "games", "deals", "seed",
         "strategies", "strategy", "opponent", "thresholds")


def safe_path(root, requested: str) -> Path | None:
    """``requested`` (a request's path below ``root``, percent-decoded once) as the resolved path
    of an existing file or folder inside ``root``; None for anything else: ``..``, an absolute
    path, a backslash, a NUL, a ``%`` left by double encoding, a hidden name, a symlink resolving
    outside ``root``, a name too long, or nothing there."""
    if (not isinstance(requested, str) or len(requested) > MAX_PATH
            or any(c in requested for c in ("\x00", "\\", "%")) or requested.startswith(("/", "~"))):
        return None
    parts = PurePosixPath(requested).parts
    if any(p == ".." or p.startswith(".") or ":" in p for p in parts):
        return None
    try:
        base = Path(root).resolve(strict=True)
        target = base.joinpath(*parts).resolve(strict=True)
    except (OSError, RuntimeError, ValueError):
        return None
    return target if target.is_relative_to(base) else None


# ----------------------------------------------------------------------------------------
# /report

def _config(request: Request):
    return request.app.state.config


def _page(request: Request, name: str, context: dict, status: int = 200):
    return request.app.state.templates.TemplateResponse(request, name, context, status_code=status)


def _missing(request: Request, what: str):
    return _page(request, "missing.html", {"what": what}, 404)


@router.get("/report", include_in_schema=False)
async def report_slash():
    return RedirectResponse("/report/", status_code=307)


@router.get("/report/", response_class=HTMLResponse)
def report_index(request: Request):
    index = safe_path(_config(request).reports, "index.html")
    if index is None or not index.is_file():
        reports = _config(request).reports
        return _page(request, "runs.html", {"no_report": True, "reports": reports.as_posix(),
                                            "runs_dir": _config(request).runs.as_posix()})
    return _file(index)


@router.get("/report/{path:path}")
def report_file(request: Request, path: str):
    found = safe_path(_config(request).reports, path)
    if found is None or not found.is_file() or found.suffix.lower() not in SERVED:
        return _missing(request, "no such report file")
    return _file(found)


def _file(path: Path) -> FileResponse:
    return FileResponse(path, headers={"X-Content-Type-Options": "nosniff", "Cache-Control": "no-cache"})


# ----------------------------------------------------------------------------------------
# the runs and their seals

@dataclass
class Checked:
    """One results folder as checked: ``state`` sound, damaged, incomplete or unchecked."""
    rel: str                                   # its path below the runs folder
    state: str = "sound"
    kind: str = ""                             # "run" (a simulate run) or the study's kind
    reasons: list[str] = field(default_factory=list)
    facts: list[tuple[str, str]] = field(default_factory=list)
    stages: list[str] = field(default_factory=list)    # the runs below it, checked with it
    meta: dict | None = None                   # a single run's metadata (sound: shown)
    doc: dict | None = None                    # a study's own result (sound: shown)

    @property
    def sound(self) -> bool:
        return self.state == "sound"


RANK = {"sound": 0, "unchecked": 1, "incomplete": 2, "damaged": 3}
_CHECKED: dict[Path, tuple[tuple, Checked]] = {}


def _markers() -> set[str]:
    from analysis.report import SECTIONS
    return {s.file for s in SECTIONS.values()} | {"spec.json"}


def _is_results(folder: Path, markers: set[str]) -> bool:
    return any((folder / m).is_file() for m in markers)


def find_runs(root: Path) -> list[Path]:
    """The results folders below ``root`` (at any depth to :data:`MAX_DEPTH`; a study's stages
    belong to it), sorted; hidden folders are skipped, a link out of ``root`` is listed (and
    refused when checked)."""
    base, markers, found = root.resolve(), _markers(), []

    def walk(d: Path, depth: int) -> None:
        try:
            kids = sorted(p for p in d.iterdir() if not p.name.startswith(".") and p.is_dir())
        except OSError:
            return
        for p in kids:
            if not p.resolve().is_relative_to(base) or _is_results(p, markers):
                found.append(p)
            elif depth < MAX_DEPTH:
                walk(p, depth + 1)
    walk(base, 1)
    return found


def _tree(folder: Path, base: Path) -> tuple[list[Path], tuple, str | None]:
    """(the folders of ``folder``'s tree holding documents, a signature of every file in it
    (chunks and rows included), the first link out of ``base`` or None)."""
    folders, sig = [], []
    for top, dirs, names in os.walk(folder, followlinks=False):
        t = Path(top)
        if not set(t.relative_to(folder).parts) & set(NOT_CHECKED):
            folders.append(t)
        dirs.sort()
        for name in sorted(dirs + names):
            p = t / name
            if p.is_symlink() and not p.resolve().is_relative_to(base):
                return folders, (), p.relative_to(base).as_posix()
            st = p.stat() if p.exists() else None
            sig.append((p.relative_to(folder).as_posix(),
                        st and (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)))
    return folders, tuple(sig), None


def check_folder(folder: Path, root: Path) -> Checked:
    """``folder`` (a results folder below ``root``, as :func:`find_runs` or :func:`safe_path`
    gives it) with its seals checked; never raises."""
    base = Path(root).resolve()
    rel = folder.relative_to(base).as_posix() if folder.is_relative_to(base) else folder.name
    out = Checked(rel)
    if not folder.resolve().is_relative_to(base):
        return _damage(out, f"{rel} links outside the runs folder; it is not read")
    try:
        folders, sig, escape = _tree(folder, base)
    except (OSError, RuntimeError) as e:      # RuntimeError: a symlink loop
        return _damage(out, f"{rel} cannot be read ({getattr(e, 'strerror', None) or e})")
    if escape:
        return _damage(out, f"{escape} links outside the runs folder; it is not read")
    hit = _CHECKED.get(folder.resolve())
    if hit and hit[0] == sig:
        return hit[1]
    try:
        _check_tree(out, folder, folders, base)
    except Exception as e:    # noqa: BLE001 - a malformed store is damaged, never a 500
        _damage(out, f"{rel} cannot be read as a rummylab results folder ({type(e).__name__}: {e})")
    if len(_CHECKED) > 2000:
        _CHECKED.clear()
    _CHECKED[folder.resolve()] = (sig, out)
    return out


def _check_tree(out: Checked, folder: Path, folders: list[Path], base: Path) -> None:
    """Check every run and sealed document of the tree into ``out`` (the top folder's describe it)."""
    from analysis.store import StoreError
    for d in folders:
        where = d.resolve().relative_to(base).as_posix()
        try:
            if (d / "spec.json").exists() or (d / "meta.json").exists():
                meta = _check_run(d, out, where)
                if d != folder:
                    out.stages.append(d.relative_to(folder).as_posix())
                elif meta is not None:
                    out.meta, out.kind = meta, "run"
            doc = _check_documents(d, out, where)
            if d == folder and doc is not None:
                out.doc, out.kind = doc, str(doc.get("kind") or out.kind or "study")
        except StoreError as e:
            _damage(out, _reason(e, base))
    if out.sound:
        out.facts = _facts(out)


def _check_run(d: Path, out: Checked, where: str) -> dict | None:
    """A run folder's checked metadata (None: it did not finish); raises :class:`StoreError`."""
    from analysis.store import Damaged, key_of, load_meta, read_json
    spec = read_json(d / "spec.json")
    if spec is None:
        raise Damaged(d / "spec.json", "it is missing")
    if not isinstance(spec, dict) or key_of({k: v for k, v in spec.items() if k != "key"}) != spec.get("key"):
        raise Damaged(d / "spec.json", "its content does not match its key")
    if not (d / "meta.json").exists():
        _mark(out, "incomplete", f"{where} did not finish (no meta.json); rerun its command to resume it")
        return None
    _check_chunk_names(d)
    meta = load_meta(d)
    for k, v in spec.items():
        if meta.get(k) != v:
            raise Damaged(d / "meta.json", f"its {k} differs from spec.json's")
    if "sha256" not in (read_json(d / "meta.json") or {}):
        _mark(out, "unchecked", f"{where}/meta.json carries no seal (written before seals existed)")
    return meta


def _check_chunk_names(d: Path) -> None:
    """:class:`Damaged` if a chunk record lists a file outside its run (it would be read)."""
    from analysis.store import Damaged, read_json
    for path in sorted((d / "chunks").glob("*.json")):
        doc = read_json(path)
        files = doc.get("files", {}) if isinstance(doc, dict) else {}
        if not isinstance(files, dict) or not all(
                isinstance(f, str) and not f.startswith("/") and not {"\\", "\x00"} & set(f)
                and ".." not in PurePosixPath(f).parts for f in files):
            raise Damaged(path, "it lists a file outside its run")


def _check_documents(d: Path, out: Checked, where: str) -> dict | None:
    """Unseal every JSON document of ``d`` but spec.json and meta.json; the study's own result
    (the registered file, else the first with a ``kind``) or None."""
    from analysis.integrity import SEAL, unseal
    from analysis.store import Damaged, read_json
    markers, study = _markers(), None
    for path in sorted(d.glob("*.json")):
        if path.name in ("spec.json", "meta.json"):
            continue
        doc = read_json(path)
        if not isinstance(doc, dict):
            if path.name in markers:
                raise Damaged(path, "it is not a JSON object")
            continue
        if SEAL not in doc:
            _mark(out, "unchecked", f"{where}/{path.name} carries no seal (written before seals existed)")
        doc = unseal(doc, path)
        if study is None and (path.name in markers or "kind" in doc):
            study = doc
    return study


def _mark(out: Checked, state: str, reason: str) -> None:
    out.reasons.append(reason)
    if RANK[state] > RANK[out.state]:
        out.state = state


def _damage(out: Checked, reason: str) -> Checked:
    _mark(out, "damaged", reason)
    out.facts, out.meta, out.doc = [], None, None
    return out


def _reason(e: Exception, base: Path) -> str:
    from analysis.store import Damaged
    if isinstance(e, Damaged):
        p = e.path.resolve()
        return f"{p.relative_to(base).as_posix() if p.is_relative_to(base) else p.name}: {e.why}"
    return str(e).replace(f"{base}/", "")


def _facts(c: Checked) -> list[tuple[str, str]]:
    """What the run is, from its metadata or the study's settings: (name, text) pairs."""
    if c.meta is not None:
        m = c.meta
        src = {"variant": m.get("variant"), "players": m.get("players") or m.get("rules", {}).get("players")
               or len(m.get("strategies", [])) or None, m.get("mode", "n"): m.get("n"), "seed": m.get("seed"),
               "strategies": [s.get("spec", s) if isinstance(s, dict) else s for s in m.get("strategies", [])]}
    else:
        src = (c.doc or {}).get("spec", c.doc or {})
    if not isinstance(src, dict):
        return []
    facts = []
    for k in dict.fromkeys([*src] if c.meta is not None else FACTS):
        v = src.get(k)
        if v is None or v == [] or isinstance(v, dict):
            continue
        facts.append((k, ", ".join(map(str, v)) if isinstance(v, list) else f"{v:,}" if type(v) is int
                      and k != "seed" else str(v)))
    return facts


def check_runs(root: Path) -> list[Checked]:
    return [check_folder(p, root) for p in find_runs(root)]


# ----------------------------------------------------------------------------------------
# /runs

@router.get("/runs", response_class=HTMLResponse)
def runs_list(request: Request):
    root = _config(request).runs
    there = root.is_dir()
    runs = check_runs(root) if there else []
    return _page(request, "runs.html", {"runs": runs, "runs_dir": root.as_posix(), "there": there,
                                        "reports": _config(request).reports.as_posix()})


@router.get("/runs/{path:path}", response_class=HTMLResponse)
def run_page(request: Request, path: str):
    root = _config(request).runs
    if not path.strip("/"):
        return runs_list(request)
    found = safe_path(root, path.rstrip("/"))
    if found is None or not found.is_dir() or found == root.resolve() or not _is_results(found, _markers()):
        return _missing(request, "no such run in the runs folder")
    checked = check_folder(found, root)
    stage = found.parent != root.resolve() and _is_results(found.parent, _markers())
    return _page(request, "run.html", {"run": checked, "runs_dir": root.as_posix(), "stage": stage,
                                       "details": _details(checked) if checked.sound else []})


def _details(c: Checked) -> list[tuple[str, str]]:
    """A sound run's settings beyond :func:`_facts`: rules, strategies' parameters, versions."""
    from analysis.json_text import dumps
    src = c.meta if c.meta is not None else (c.doc or {}).get("spec", {})
    rows = []
    for k in ("rules", "rules_version", "chunk", "timings", "versions", "git", "complete"):
        if isinstance(src, dict) and k in src:
            rows.append((k, dumps(src[k], compact=True) if isinstance(src[k], (dict, list)) else str(src[k])))
    if c.meta is not None:
        for s, st in enumerate(c.meta.get("strategies", [])):
            if isinstance(st, dict):
                rows.append((f"seat {s}", f"{st.get('spec')}: {dumps(st.get('params', {}), compact=True)}"))
    return rows
