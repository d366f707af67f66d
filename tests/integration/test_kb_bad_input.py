"""Awkward databases: empty, very wide, odd names, all-NULL, binary/JSON columns, a name in two schemas."""

from __future__ import annotations

import sqlite3
import uuid
from pathlib import Path

import psycopg
import pytest

from aria.config import Settings
from aria.db.connect import Targets
from aria.db.introspect import introspect_postgres, introspect_sqlite
from aria.errors import KnowledgeBaseError
from aria.kb.base import KnowledgeBase
from aria.kb.build import build_kb
from aria.kb.embed import get_embedder
from aria.kb.sampling import sample_postgres, sample_sqlite
from aria.kb.store import KnowledgeStore


def _sqlite(tmp_path: Path, *statements: str) -> Path:
    path = tmp_path / "odd.sqlite"
    conn = sqlite3.connect(path)
    for statement in statements:
        conn.execute(statement)
    conn.commit()
    conn.close()
    return path


def test_a_database_without_tables_is_refused(tmp_path: Path, kb_settings: Settings, targets: Targets) -> None:
    path = _sqlite(tmp_path)
    schema = sample_sqlite(path, introspect_sqlite(path))
    with pytest.raises(KnowledgeBaseError, match="no tables"):
        build_kb(KnowledgeStore(targets.kb, kb_settings), get_embedder(), schema)


def test_odd_names_null_binary_and_json_columns(tmp_path: Path, kb_settings: Settings, targets: Targets) -> None:
    path = _sqlite(
        tmp_path,
        'CREATE TABLE "order lines" ("line id" INTEGER PRIMARY KEY, "it\'s ""quoted""" TEXT, "món ăn" TEXT, '
        'empty TEXT, photo BLOB, extra JSON, payload TEXT)',
        "INSERT INTO \"order lines\" VALUES (1, 'a', 'Lẩu Thái', NULL, x'00ff', '{\"k\": 1}', '{\"secret\": 2}')",
        "INSERT INTO \"order lines\" VALUES (2, 'b', 'Phở bò', NULL, x'0102', '[1]', '[3]')",
    )
    schema = sample_sqlite(path, introspect_sqlite(path))
    table = schema.table("order lines")
    assert table is not None
    assert table.column("empty").sample_values == () and table.column("empty").value_range is None
    assert table.column("photo").sample_values == () and table.column("extra").sample_values == ()
    assert table.column("payload").sample_values == (), "JSON text is never sampled"
    assert table.column("món ăn").sample_values == ("Lẩu Thái", "Phở bò")
    store = KnowledgeStore(targets.kb, kb_settings)
    build_kb(store, get_embedder(), schema)
    kb = KnowledgeBase(store, get_embedder(), schema.name)
    ctx = kb.retrieve("how many Lẩu Thái lines?", k=1, m=2)
    assert any(v.column == "món ăn" for v in ctx.matched_values)
    rendered = kb.catalog.full_context().render()
    assert "secret" not in rendered and "\\x00" not in rendered and 'it\'s "quoted"' in rendered
    store.close()


def test_a_table_with_hundreds_of_columns(tmp_path: Path, kb_settings: Settings, targets: Targets) -> None:
    columns = ", ".join(f"measure_{i} INTEGER" for i in range(240))
    path = _sqlite(tmp_path, f"CREATE TABLE wide (id INTEGER PRIMARY KEY, {columns}, fuel_price REAL)",
                   "CREATE TABLE other (id INTEGER PRIMARY KEY, wide_id INTEGER REFERENCES wide(id), note TEXT)")
    schema = introspect_sqlite(path)
    store = KnowledgeStore(targets.kb, kb_settings)
    report = build_kb(store, get_embedder(), schema)
    assert report.documents > 240
    kb = KnowledgeBase(store, get_embedder(), schema.name)
    ctx = kb.retrieve("average fuel_price", k=1, m=5)
    wide = ctx.table("wide")
    assert wide is not None and wide.column("fuel_price") is not None and len(wide.columns) <= 10
    store.close()


def test_same_table_name_in_two_schemas(settings: Settings, kb_settings: Settings, targets: Targets) -> None:
    names = [f"s_{uuid.uuid4().hex[:8]}" for _ in range(2)]
    with psycopg.connect(targets.admin, autocommit=True) as conn:
        for name, column in zip(names, ("dish_name", "supplier_city"), strict=True):
            conn.execute(f'CREATE SCHEMA "{name}"')
            conn.execute(f'CREATE TABLE "{name}".items (id int PRIMARY KEY, {column} text, doc jsonb, raw bytea)')
            conn.execute(f"INSERT INTO \"{name}\".items VALUES (1, 'Hà Nội', '{{\"a\": 1}}', '\\x00')")
    store = KnowledgeStore(targets.kb, kb_settings)
    try:
        for name in names:
            schema = sample_postgres(targets.admin, introspect_postgres(targets.admin, name))
            assert schema.table("items").column("doc").sample_values == ()
            build_kb(store, get_embedder(), schema)
        first, second = (KnowledgeBase(store, get_embedder(), n) for n in names)
        assert [c.name for c in first.catalog.columns["items"]][1] == "dish_name"
        assert [c.name for c in second.catalog.columns["items"]][1] == "supplier_city"
    finally:
        store.close()
        with psycopg.connect(targets.admin, autocommit=True) as conn:
            for name in names:
                conn.execute(f'DROP SCHEMA "{name}" CASCADE')
