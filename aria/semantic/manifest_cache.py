"""The parsed, validated semantic manifest, cached in ``ARIA_HOME/cache`` (pickle, mode 600).

MetricFlow parses and validates the YAML in 1.5-3 s, which every fresh process (``aria ask``,
``aria eval``) paid. The cache holds a manifest that already passed every check of
:func:`~aria.semantic.catalog.load_manifest` *and* built a MetricFlow engine; its key is a hash of
the files' names and bytes, the schema names and the installed MetricFlow and Python versions, so
an edited file, another schema or an upgrade is a miss and is checked again. The file lives in
Aria's own data dir beside its database and secrets (whoever can write there owns Aria already);
one that cannot be read is ignored and rewritten.
"""

from __future__ import annotations

import hashlib
import logging
import os
import pickle
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

_PACKAGES = ("metricflow", "metricflow-semantic-interfaces", "metricflow-semantics")


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "-"


def manifest_key(directory: Path, *, business_schema: str, semantic_schema: str) -> str:
    """Hash of everything the parsed manifest depends on."""
    digest = hashlib.sha256()
    for part in (business_schema, semantic_schema, sys.version, *(_version(p) for p in _PACKAGES)):
        digest.update(part.encode() + b"\0")
    for path in sorted(directory.glob("*.y*ml")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:32]


def _path(cache_dir: Path, key: str) -> Path:
    return cache_dir / f"semantic-manifest-{key}.pickle"


def read_cached(cache_dir: Path, key: str) -> Any | None:
    """The manifest stored under ``key``, or None (absent or unreadable)."""
    path = _path(cache_dir, key)
    try:
        with path.open("rb") as handle:
            return pickle.load(handle)  # noqa: S301 - Aria's own file in its data dir (see the module doc)
    except FileNotFoundError:
        return None
    except Exception as err:  # noqa: BLE001 - a stale or broken cache file is a miss, never an error
        log.info("semantic manifest cache %s ignored: %s", path, err)
        return None


def write_cached(cache_dir: Path, key: str, manifest: Any) -> None:
    """Store a checked manifest (atomically; older entries removed). A failure only costs the next start."""
    path = _path(cache_dir, key)
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as handle:
            pickle.dump(manifest, handle, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
        for old in cache_dir.glob("semantic-manifest-*.pickle"):
            if old != path:
                old.unlink(missing_ok=True)
    except Exception as err:  # noqa: BLE001 - e.g. a read-only home, an object that does not pickle
        log.info("semantic manifest not cached in %s: %s", cache_dir, err)
