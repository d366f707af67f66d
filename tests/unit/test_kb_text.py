"""Pure pieces of the KB: normalization, documents, fingerprints, contexts, gold parsing, fusion."""

from __future__ import annotations

import numpy as np
import pytest

from aria.eval.retrieval_bench import gold_items
from aria.kb.catalog import catalog_from_rows
from aria.kb.context import ContextColumn, ContextTable, SchemaContext
from aria.kb.documents import schema_documents, schema_fingerprint
from aria.kb.embed import FakeEmbedder
from aria.kb.retrieve import RetrievalOptions, ScoredDoc, fuse_scores
from aria.sql.schema import Column, ForeignKey, Schema, Table
from aria.text import contains_phrase, identifier_words, normalize, query_terms, stem, stem_text


def _shop() -> Schema:
    orders = Table("orders", (Column("order_id", "bigint", False, True), Column("table_id", "smallint"),
                              Column("total_vnd", "integer", description="what the guest pays"),
                              Column("status", "varchar(12)", sample_values=("COMPLETED", "VOID"))))
    tables = Table("tables", (Column("table_id", "smallint", False, True), Column("table_no", "smallint")))
    return Schema("shop", (orders, tables), (ForeignKey("orders", ("table_id",), "tables", ("table_id",)),))


def test_normalize_strips_vietnamese_diacritics() -> None:
    assert normalize("Lẩu Thái, Đậu hũ!") == "lau thai dau hu"
    assert identifier_words("CustomerID") == "customer id"
    assert identifier_words("Free Meal Count (K-12)") == "free meal count k 12"
    assert query_terms("What is the total of Lẩu Thái?") == ["lau", "thai"]


def test_phrases_match_on_word_boundaries_only() -> None:
    assert contains_phrase("ban so 5 hom qua", "ban so 5")
    assert not contains_phrase("ban so 55", "ban so 5")
    assert stem("schools") == "school" and stem("cities") == "city" and stem("status") == "status"
    assert stem("smoothies") == "smoothie" and stem("christmas") == "christmas"  # a plural of -ie, and no plural
    assert stem_text("the Schools' names") == "the school name"


def test_documents_are_compact_and_keyed() -> None:
    docs = schema_documents(_shop(), [{"term": "doanh thu", "meaning": "revenue", "table": "orders",
                                       "column": "total_vnd"}])
    keys = {d.key for d in docs}
    assert {"table:orders", "column:orders.total_vnd", "relation:orders.table_id->tables.table_id",
            "glossary:doanh thu"} <= keys
    status = next(d for d in docs if d.key == "column:orders.status")
    assert status.values == "completed | void" and "COMPLETED" in status.text and status.source == "sample"
    assert all(len(d.text.split()) < 150 for d in docs)


def test_wide_tables_are_chunked() -> None:
    wide = Table("wide", tuple(Column(f"c{i}", "text") for i in range(300)))
    docs = schema_documents(Schema("w", (wide,)))
    chunks = [d for d in docs if d.kind == "table"]
    assert len(chunks) == 10 and all(len(d.text.split()) < 60 for d in chunks)


def test_fingerprint_changes_with_structure_only() -> None:
    shop = _shop()
    described = Schema("shop", tuple(Table(t.name, t.columns, description="x") for t in shop.tables), shop.foreign_keys)
    assert schema_fingerprint(shop) == schema_fingerprint(described)
    fewer = Schema("shop", shop.tables[:1])
    assert schema_fingerprint(shop) != schema_fingerprint(fewer)


def test_fake_embedder_is_deterministic_and_unit_length() -> None:
    vectors = FakeEmbedder().embed(["doanh thu hôm nay", "doanh thu hôm nay", "bàn số 5"])
    assert np.allclose(vectors[0], vectors[1]) and np.allclose(np.linalg.norm(vectors, axis=1), 1.0)
    assert float(vectors[0] @ vectors[2]) < 0.5


def test_render_is_m_schema_with_foreign_keys() -> None:
    docs = schema_documents(_shop())
    rows = [{"kind": d.kind, "doc_key": d.key, "table_name": d.table_name, "column_name": d.column_name,
             "vals": d.values, "data": d.data} for d in docs]
    catalog = catalog_from_rows("shop", rows)
    full = catalog.full_context()
    text = full.render()
    assert "# Table: orders" in text and "(order_id:bigint, Primary Key)" in text
    assert "orders.table_id = tables.table_id" in text and "Examples: [COMPLETED, VOID]" in text
    assert full.token_count == catalog.full_token_count > 20
    assert catalog.connect(["orders", "tables"]) == []


def test_context_lists_qualified_columns() -> None:
    ctx = SchemaContext(db_name="d", tables=(ContextTable(name="t", columns=(ContextColumn(name="a"),)),))
    assert ctx.column_names == ["t.a"] and ctx.table("T") is not None


def test_gold_items_include_join_keys_and_resolve_aliases() -> None:
    gold = gold_items("SELECT T2.table_no FROM orders AS T1 JOIN tables AS T2 ON T1.table_id = T2.table_id "
                      "WHERE T1.status = 'VOID'", Schema("shop", _shop().tables, dialect="sqlite"))
    assert gold.tables == {"orders", "tables"}
    assert gold.columns == {"tables.table_no", "orders.table_id", "tables.table_id", "orders.status"}


def test_fusion_ranks_a_table_by_its_columns_too() -> None:
    docs = [ScoredDoc("table", "table:a", "a", None, 0.5, 0.0, None),
            ScoredDoc("table", "table:b", "b", None, 0.4, 0.0, None),
            ScoredDoc("column", "column:b.x", "b", "x", 0.9, 0.3, None),
            ScoredDoc("column", "column:a.y", "a", "y", 0.1, 0.0, None)]
    tables, columns = fuse_scores(docs, RetrievalOptions())
    assert tables["b"] > tables["a"]
    assert columns["b\x00x"] > columns["a\x00y"]


@pytest.mark.parametrize("word", ["", "a"])
def test_no_terms_for_empty_or_stopword_text(word: str) -> None:
    assert query_terms(word) == []
