"""The built-in lexicon (~7,000 phrases), cached in ``ARIA_HOME/cache`` beside the manifest.

Building it from the catalogue and the data's values took 0.4-0.7 s in every fresh process. What
the entries depend on, and how each part is checked:

- the catalogue: the manifest's key (the YAML files, the schema names, MetricFlow's and Python's
  versions, :func:`~aria.semantic.manifest_cache.manifest_key`);
- the code that turns them into entries: the bytes of :data:`SOURCES` (the lexicon, the catalogue,
  the text normalizer, this module) as the process imported them, so an edited parser file is a miss;
- the values the data supplies (dish names, categories, staff ...): which columns are read is the
  lexicon's own business, so a build records the columns it asked for and stores them with a hash of
  their values (sorted); a later start reads those same columns again and takes the stored entries
  only when the hash is the same. The values are still read in every process (~0.2 s, the queries a
  build makes anyway, each column once); the build itself is what is saved. One file per start-up
  key holds the columns, their hash and the entries.

The phrases managers taught change with each KB revision and are added by the layer on top of these;
they are never cached.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import aria.semantic.catalog
import aria.semantic.lexicon
import aria.text
from aria.semantic.catalog import SemanticCatalog
from aria.semantic.lexicon import Entry, ValuesOf, build_lexicon
from aria.semantic.pickle_cache import digest, read_entry, write_entry

_KIND = "lexicon"
Column = tuple[str, str]  # (table, column), as values_of is asked


@dataclass(frozen=True)
class LexiconCache:
    """Where the built-in lexicon is cached, and the key of the manifest its catalogue came from."""

    cache_dir: Path
    manifest_key: str


@dataclass(frozen=True)
class _Stored:
    """One cache entry: the columns the build read, the hash of their values, the entries built."""

    columns: tuple[Column, ...]
    values_key: str
    entries: tuple[Entry, ...]


# The modules whose code shapes the entries (tests/unit/test_semantic_lexicon_cache.py checks that
# every Aria module the lexicon imports is here or named there as not shaping them).
SOURCES: tuple[Path, ...] = tuple(Path(str(m.__file__)) for m in (
    aria.semantic.lexicon, aria.semantic.catalog, aria.text)) + (Path(__file__),)


def _named_bytes(sources: Sequence[Path]) -> tuple[tuple[str, bytes], ...]:
    return tuple((path.name, path.read_bytes()) for path in sources)


# Read once, as the modules are imported: the key names the code this process runs, even when a file
# is edited on disk while it runs (else its old entries would be stored under the new code's key).
_RUNNING_SOURCES = _named_bytes(SOURCES)


def lexicon_key(manifest_key: str, sources: Sequence[Path] | None = None) -> str:
    """Hash of the manifest's key and the bytes of every source file that shapes the entries: those
    this process imported, or the files ``sources`` as they are now."""
    parts = [manifest_key.encode()]
    for name, code in _RUNNING_SOURCES if sources is None else _named_bytes(sources):
        parts += [name.encode(), code]
    return digest(parts)


def values_key(answers: Mapping[Column, Sequence[str]]) -> str:
    """Hash of the values read per column, in a fixed order (columns and values sorted: the database
    returns DISTINCT values in no particular order)."""
    parts: list[bytes] = []
    for table, column in sorted(answers):
        values = sorted(str(v) for v in answers[(table, column)])
        parts += [table.encode(), column.encode(), len(values).to_bytes(8, "big")]
        parts += [v.encode() for v in values]
    return digest(parts)


class _Recorder:
    """``values_of`` that reads each column once and remembers which columns the build asked for."""

    def __init__(self, values_of: ValuesOf) -> None:
        self._values_of = values_of
        self.read: dict[Column, tuple[str, ...]] = {}
        self.asked: dict[Column, tuple[str, ...]] = {}

    def __call__(self, table: str, column: str) -> tuple[str, ...]:
        if (table, column) not in self.read:
            self.read[(table, column)] = tuple(self._values_of(table, column))
        self.asked[(table, column)] = self.read[(table, column)]
        return self.asked[(table, column)]


def _still_valid(stored: object, recorder: _Recorder | None) -> tuple[Entry, ...] | None:
    """The stored entries when the values of the columns they were built from are unchanged."""
    if not isinstance(stored, _Stored):
        return None  # absent, unreadable, or written by other code
    if recorder is None:
        return stored.entries if not stored.columns else None
    answers = {c: recorder(*c) for c in stored.columns}
    return stored.entries if values_key(answers) == stored.values_key else None


def built_in_lexicon(catalog: SemanticCatalog, values_of: ValuesOf | None,
                     cache: LexiconCache | None) -> tuple[Entry, ...]:
    """The model's and the data's phrases (no learned ones), as :func:`build_lexicon` returns them;
    from ``cache`` when nothing they depend on changed, else built and stored there."""
    if cache is None:
        return build_lexicon(catalog, values_of)
    key = lexicon_key(cache.manifest_key)
    recorder = _Recorder(values_of) if values_of is not None else None
    entries = _still_valid(read_entry(cache.cache_dir, _KIND, key), recorder)
    if entries is not None:
        return entries
    if recorder is not None:
        recorder.asked.clear()  # the check read the old columns; the build says which it needs
    entries = build_lexicon(catalog, recorder)
    asked = recorder.asked if recorder is not None else {}
    write_entry(cache.cache_dir, _KIND, key, _Stored(tuple(sorted(asked)), values_key(asked), entries))
    return entries
