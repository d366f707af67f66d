"""A small keyed pickle cache in ``ARIA_HOME/cache`` for what the semantic layer builds in every fresh
process (the checked manifest, the built-in lexicon).

Each kind of entry keeps one file, ``semantic-<kind>-<key>.pickle``, whose key is a hash of everything
the value depends on, so a changed input is a miss and the value is built again. The file lives in
Aria's own data dir beside its database and secrets (whoever can write there owns Aria already), is
written atomically with mode 600, and replaces the older entries of its own kind only (a new manifest
never deletes the lexicon's file, nor the reverse). One that cannot be read (truncated, written by
other code, not a pickle) is a miss, never an error, and is rewritten after the build.

>>> digest([b"a", b"bc"]) == digest([b"ab", b"c"])
False
"""

from __future__ import annotations

import gc
import hashlib
import logging
import os
import pickle
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

_KIND = re.compile(r"[a-z0-9_]+")  # no "-": one kind's glob must not match another kind's files


def digest(parts: Iterable[bytes]) -> str:
    """A key from ``parts`` in order; each part is length-prefixed, so no two splits of the same bytes
    collide."""
    hashed = hashlib.sha256()
    for part in parts:
        hashed.update(len(part).to_bytes(8, "big") + part)
    return hashed.hexdigest()[:32]


def entry_path(cache_dir: Path, kind: str, key: str) -> Path:
    """Where the ``kind`` entry under ``key`` is stored."""
    if not _KIND.fullmatch(kind):
        raise ValueError(f"cache kind {kind!r} must be lower-case letters, digits or '_'")
    return cache_dir / f"semantic-{kind}-{key}.pickle"


def read_entry(cache_dir: Path, kind: str, key: str) -> Any | None:
    """The value stored under ``key``, or None (absent or unreadable)."""
    path = entry_path(cache_dir, kind, key)
    try:
        with path.open("rb") as handle, _collector_paused():
            return pickle.load(handle)  # noqa: S301 - Aria's own file in its data dir (see the module doc)
    except FileNotFoundError:
        return None
    except Exception as err:  # noqa: BLE001 - a stale or broken cache file is a miss, never an error
        log.info("semantic %s cache %s ignored: %s", kind, path, err)
        return None


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off while a pickle loads: the lexicon's ~7,000 small objects
    set off collections over a heap MetricFlow made large (0.1-0.5 s added to a 0.07 s read, measured);
    what loads is live data, not garbage, so the pause leaves nothing uncollected."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def write_entry(cache_dir: Path, kind: str, key: str, value: Any) -> None:
    """Store ``value`` (atomically; older entries of this kind removed, other kinds' kept). A failure only
    costs the next start."""
    path = entry_path(cache_dir, kind, key)
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as handle:
            pickle.dump(value, handle, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
        for old in cache_dir.glob(f"semantic-{kind}-*.pickle"):
            if old != path:
                old.unlink(missing_ok=True)
    except Exception as err:  # noqa: BLE001 - e.g. a read-only home, an object that does not pickle
        log.info("semantic %s not cached in %s: %s", kind, cache_dir, err)
