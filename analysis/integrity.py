"""Content hashes (SHA-256) of the results store, so that a damaged store never gives a number.

* a JSON document is *sealed* (:func:`seal`): it carries ``"sha256"``, the hash of its own
  content (every other key, canonical JSON), so an edited seed or total is caught;
* a chunk record lists the hash of each file written with it (its Parquet rows);
* ``meta.json`` holds the hash of all the run's chunk records in order (``chunks_sha256``).

Documents stored before seals existed carry no ``sha256`` and are read as they are.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

from sim.core.errors import UserInputError

SEAL = "sha256"


class StoreError(UserInputError):
    """A results folder that cannot be used for this run or cannot be read."""


class Damaged(StoreError):
    """A stored file whose content is not what was written (truncated, edited, missing, unreadable)."""

    def __init__(self, path, why: str):
        self.path, self.why = Path(path), why
        super().__init__(f"{path} is damaged ({why}); it is not used")

    def __reduce__(self):       # pickled from a worker process (the report's, :mod:`analysis.report.workers`)
        return type(self), (self.path, self.why)


def file_digest(path) -> str:
    """SHA-256 of a file's bytes; :class:`Damaged` if it is missing or unreadable."""
    h = hashlib.sha256()
    try:
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
    except FileNotFoundError:
        raise Damaged(path, "it is missing") from None
    except OSError as e:
        raise Damaged(path, f"it cannot be read: {e.strerror or e}") from None
    return h.hexdigest()


def doc_digest(doc: dict) -> str:
    """SHA-256 of a JSON document's content (without its seal), as it reads back from JSON."""
    body = json.loads(json.dumps({k: v for k, v in doc.items() if k != SEAL}))
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()


def seal(doc: dict) -> dict:
    return {**doc, SEAL: doc_digest(doc)}


def unseal(doc, path, sealed_keys: tuple[str, ...] = ()) -> dict:
    """``doc`` without its seal, checked; :class:`Damaged` if the seal does not match, or if it is
    missing from a document holding any of ``sealed_keys`` (written only in sealed documents)."""
    if not isinstance(doc, dict):
        raise Damaged(path, "it is not a JSON object")
    if SEAL not in doc:
        if any(k in doc for k in sealed_keys):
            raise Damaged(path, "its content hash is missing")
        return doc
    if doc[SEAL] != doc_digest(doc):
        raise Damaged(path, "its content differs from the hash recorded when it was written")
    return {k: v for k, v in doc.items() if k != SEAL}


def files_digests(folder, paths) -> dict[str, str]:
    """{path relative to ``folder``: SHA-256} of the files written with a chunk."""
    return {Path(p).relative_to(folder).as_posix(): file_digest(p) for p in paths}


def check_files(folder, digests: dict[str, str]) -> None:
    """:class:`Damaged` unless every listed file still has the recorded content."""
    for rel, digest in digests.items():
        p = Path(folder) / rel
        if file_digest(p) != digest:
            raise Damaged(p, "its content differs from the hash recorded when it was written")


def chain_digest(digests) -> str:
    """One hash over a sequence of hashes (the chunk records of a run, in order)."""
    h = hashlib.sha256()
    for d in digests:
        h.update(d.encode())
    return h.hexdigest()


def warn(text: str) -> None:
    print(f"rummylab: warning: {text}", file=sys.stderr, flush=True)
