"""The parsed, validated semantic manifest, cached in ``ARIA_HOME/cache`` (pickle, mode 600).

MetricFlow parses and validates the YAML in 1.5-3 s, which every fresh process (``aria ask``,
``aria eval``) paid. The cache holds a manifest that already passed every check of
:func:`~aria.semantic.catalog.load_manifest` *and* built a MetricFlow engine; its key is a hash of
the files' names and bytes, the schema names and the installed MetricFlow and Python versions, so
an edited file, another schema or an upgrade is a miss and is checked again. The file lives in
Aria's own data dir beside its database and secrets (whoever can write there owns Aria already);
one that cannot be read is ignored and rewritten (:mod:`aria.semantic.pickle_cache` does the
storing, for the built-in lexicon too).
"""

from __future__ import annotations

import hashlib
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

from aria.semantic.pickle_cache import read_entry, write_entry

_PACKAGES = ("metricflow", "metricflow-semantic-interfaces", "metricflow-semantics")
_KIND = "manifest"


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


def read_cached(cache_dir: Path, key: str) -> Any | None:
    """The manifest stored under ``key``, or None (absent or unreadable)."""
    return read_entry(cache_dir, _KIND, key)


def write_cached(cache_dir: Path, key: str, manifest: Any) -> None:
    """Store a checked manifest (atomically; older manifests removed). A failure only costs the next start."""
    write_entry(cache_dir, _KIND, key, manifest)
