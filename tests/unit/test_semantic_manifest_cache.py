"""The parsed semantic manifest is cached in ARIA_HOME: a second start reads it and compiles the same SQL;
an edited file is a miss (checked again)."""

from __future__ import annotations

import shutil
from pathlib import Path

from aria.semantic.catalog import semantic_dir
from aria.semantic.layer import load_semantic_layer
from aria.semantic.manifest_cache import manifest_key
from aria.semantic.query import SemanticQuery

SCHEMAS = {"business_schema": "restaurant", "semantic_schema": "aria_semantic"}


def test_second_load_reads_the_cache_and_compiles_the_same(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = load_semantic_layer(**SCHEMAS, cache_dir=cache)
    stored = list(cache.glob("semantic-manifest-*.pickle"))
    assert len(stored) == 1 and stored[0].stat().st_mode & 0o077 == 0
    second = load_semantic_layer(**SCHEMAS, cache_dir=cache)
    assert second.compiler._mf_engine is None  # MetricFlow's engine waits for the first compilation
    query = SemanticQuery(metrics=["revenue"], group_by=["shift__shift_code"])
    assert second.compile(query).sql == first.compile(query).sql
    assert set(second.catalog.metrics) == set(first.catalog.metrics)


def test_an_edited_file_or_another_schema_is_a_miss(tmp_path: Path) -> None:
    copy = tmp_path / "semantic"
    shutil.copytree(semantic_dir(), copy)
    before = manifest_key(copy, **SCHEMAS)
    assert manifest_key(copy, business_schema="other", semantic_schema="aria_semantic") != before
    first = sorted(copy.glob("*.y*ml"))[0]
    first.write_text(first.read_text() + "\n# edited\n")
    assert manifest_key(copy, **SCHEMAS) != before


def test_a_broken_cache_file_is_ignored(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    key = manifest_key(semantic_dir(), **SCHEMAS)
    (cache / f"semantic-manifest-{key}.pickle").write_bytes(b"not a pickle")
    layer = load_semantic_layer(**SCHEMAS, cache_dir=cache)
    assert layer.compiler._mf_engine is not None  # checked and built as without a cache
    assert (cache / f"semantic-manifest-{key}.pickle").read_bytes() != b"not a pickle"
