"""The built-in lexicon is cached in ARIA_HOME beside the manifest: a hit gives the entries a fresh build
gives; changed values, an edited source file or another manifest is a miss; a broken file is a miss and
is rewritten; learned phrases never reach the cache; the manifest's and the lexicon's files do not
delete each other (no database: the values come from a fake ``values_of``)."""

from __future__ import annotations

import ast
import pickle
import shutil
from collections.abc import Sequence
from pathlib import Path

import pytest

import aria.semantic.lexicon_cache as lexicon_cache
from aria.semantic.catalog import SemanticCatalog, semantic_dir
from aria.semantic.layer import load_semantic_layer
from aria.semantic.lexicon import build_lexicon, phrase_tokens
from aria.semantic.lexicon_cache import SOURCES, LexiconCache, built_in_lexicon, lexicon_key
from aria.semantic.manifest_cache import manifest_key
from aria.semantic.pickle_cache import entry_path, read_entry, write_entry

SCHEMAS = {"business_schema": "restaurant", "semantic_schema": "aria_semantic"}
ROOT = Path(__file__).resolve().parents[2]
# Aria modules the keyed sources import that do not shape the entries (errors; where seed_db is; storage).
NOT_SHAPING = {"aria.errors", "aria.paths", "aria.semantic.pickle_cache"}


class FakeValues:
    """A values_of that names a few rows per column and counts the reads."""

    def __init__(self, extra: Sequence[str] = ()) -> None:
        self.extra = tuple(extra)
        self.reads = 0

    def __call__(self, table: str, column: str) -> list[str]:
        self.reads += 1
        return [f"{table} {column} một", "Lẩu cua đồng (mùa thu)", *self.extra]


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> SemanticCatalog:
    return load_semantic_layer(business_schema="restaurant", semantic_schema="aria_semantic",
                               cache_dir=tmp_path_factory.mktemp("manifest")).catalog


@pytest.fixture()
def cache(tmp_path: Path) -> LexiconCache:
    return LexiconCache(tmp_path / "cache", manifest_key(semantic_dir(), **SCHEMAS))


def _stored_file(cache: LexiconCache) -> Path:
    (path,) = cache.cache_dir.glob("semantic-lexicon-*.pickle")
    return path


def _no_build(*_: object) -> None:
    raise AssertionError("built again: the cache was not used")


def test_a_hit_gives_the_entries_of_a_fresh_build(catalog: SemanticCatalog, cache: LexiconCache,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    first = built_in_lexicon(catalog, FakeValues(), cache)
    assert _stored_file(cache).stat().st_mode & 0o077 == 0
    monkeypatch.setattr(lexicon_cache, "build_lexicon", _no_build)
    values = FakeValues()
    second = built_in_lexicon(catalog, values, cache)
    assert second == first == build_lexicon(catalog, FakeValues())
    assert phrase_tokens("Lẩu cua đồng") in {e.tokens for e in second if e.kind == "value"}
    assert 0 < values.reads < 16  # the values are read again to check them, each column once


def test_changed_values_are_a_miss(catalog: SemanticCatalog, cache: LexiconCache) -> None:
    built_in_lexicon(catalog, FakeValues(), cache)
    before = _stored_file(cache).read_bytes()
    changed = built_in_lexicon(catalog, FakeValues(["Gà nướng muối ớt"]), cache)
    assert changed == build_lexicon(catalog, FakeValues(["Gà nướng muối ớt"]))
    assert phrase_tokens("Gà nướng muối ớt") in {e.tokens for e in changed}
    assert _stored_file(cache).read_bytes() != before  # stored again, one file
    assert built_in_lexicon(catalog, None, cache) == build_lexicon(catalog, None)  # no data: no values


def test_the_order_the_database_returns_values_in_is_not_a_change(catalog: SemanticCatalog,
                                                                 cache: LexiconCache,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    first = built_in_lexicon(catalog, FakeValues(), cache)
    monkeypatch.setattr(lexicon_cache, "build_lexicon", _no_build)
    assert built_in_lexicon(catalog, lambda t, c: list(reversed(FakeValues()(t, c))), cache) == first


def test_an_edited_source_file_or_another_manifest_is_a_miss(tmp_path: Path) -> None:
    copies = []
    for source in SOURCES:
        copies.append(tmp_path / source.name)
        shutil.copy(source, copies[-1])
    before = lexicon_key("m", copies)
    assert lexicon_key("m", copies) == before and lexicon_key("other", copies) != before
    for copy in copies:
        original = copy.read_bytes()
        copy.write_bytes(original + b"\n# edited\n")
        assert lexicon_key("m", copies) != before, copy.name
        copy.write_bytes(original)
    assert {p.name for p in SOURCES} >= {"lexicon.py", "catalog.py", "text.py", "lexicon_cache.py"}


def test_the_key_of_the_running_code_is_the_code_imported_not_the_files_now(monkeypatch: pytest.MonkeyPatch) -> None:
    """A lexicon built by this process's code is stored under that code's key, even when a source file
    is edited on disk while the process runs."""
    imported = lexicon_key("m")
    assert imported == lexicon_key("m", SOURCES)  # nothing edited yet: the same bytes

    def edited(path: Path) -> bytes:
        return b"# edited on disk after the import\n"

    monkeypatch.setattr(Path, "read_bytes", edited)
    assert lexicon_key("m") == imported
    assert lexicon_key("m", SOURCES) != imported


def _aria_imports(path: Path) -> set[str]:
    modules: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("aria"):
            modules.add(node.module)
        elif isinstance(node, ast.Import):
            modules |= {a.name for a in node.names if a.name.startswith("aria")}
    return modules


def test_every_module_that_shapes_the_entries_is_in_the_key() -> None:
    """A new import in the lexicon's code must be added to SOURCES (or here, if it does not shape them)."""
    keyed = {".".join(p.relative_to(ROOT).with_suffix("").parts) for p in SOURCES}
    for source in SOURCES:
        assert _aria_imports(source) <= keyed | NOT_SHAPING, source.name


def test_a_broken_cache_file_is_a_miss_and_is_rewritten(catalog: SemanticCatalog,
                                                       cache: LexiconCache) -> None:
    path = entry_path(cache.cache_dir, "lexicon", lexicon_key(cache.manifest_key))
    path.parent.mkdir(parents=True)
    path.write_bytes(b"not a pickle")
    assert built_in_lexicon(catalog, FakeValues(), cache) == build_lexicon(catalog, FakeValues())
    assert pickle.loads(path.read_bytes()).entries == build_lexicon(catalog, FakeValues())
    path.write_bytes(pickle.dumps({"written": "by other code"}))
    assert built_in_lexicon(catalog, FakeValues(), cache) == build_lexicon(catalog, FakeValues())
    assert not isinstance(read_entry(cache.cache_dir, "lexicon", lexicon_key(cache.manifest_key)), dict)


def test_learned_phrases_stay_out_of_the_cache(tmp_path: Path) -> None:
    layer = load_semantic_layer(business_schema="restaurant", semantic_schema="aria_semantic",
                                values_of=FakeValues(), cache_dir=tmp_path)
    layer.reload_synonyms([("khách ruột", "metric", "revenue")])
    assert layer.parser.lexicon[0].tokens == phrase_tokens("khách ruột")
    stored = pickle.loads(next(tmp_path.glob("semantic-lexicon-*.pickle")).read_bytes())
    assert phrase_tokens("khách ruột") not in {e.tokens for e in stored.entries}
    assert layer.parser.lexicon[1:] == stored.entries


def test_the_two_kinds_of_entry_keep_each_others_files(tmp_path: Path) -> None:
    write_entry(tmp_path, "manifest", "a", 1)
    write_entry(tmp_path, "lexicon", "b", 2)
    write_entry(tmp_path, "manifest", "c", 3)  # replaces the older manifest only
    kept = sorted(p.name for p in tmp_path.iterdir())
    assert kept == ["semantic-lexicon-b.pickle", "semantic-manifest-c.pickle"]
    assert read_entry(tmp_path, "lexicon", "b") == 2
    with pytest.raises(ValueError):
        entry_path(tmp_path, "manifest-x", "d")  # a kind whose files another kind's cleanup would match
