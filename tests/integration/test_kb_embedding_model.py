"""Another embedding model (here a deterministic fake of another dimension, through the same LangChain
adapter a hosted one takes): the KB built with MiniLM is re-embedded when opened with it, never mixed,
and retrieval keeps working; enrichment and confirmed questions survive; back to MiniLM on the next build."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import pytest
from langchain_core.embeddings import DeterministicFakeEmbedding

from aria.config import Settings
from aria.db.connect import Targets
from aria.db.introspect import introspect_postgres
from aria.kb.base import KnowledgeBase
from aria.kb.build import VerifiedExample, build_kb
from aria.kb.embed import BUNDLED_MODEL, LangChainEmbedder, get_embedder
from aria.kb.enrich import Change, apply_change
from aria.kb.service import open_kb
from aria.kb.store import KnowledgeStore

if TYPE_CHECKING:
    from aria.sql.schema import Schema

GLOSSARY = [{"term": "doanh thu", "lang": "vi", "meaning": "revenue", "table": "orders", "column": "total_vnd"}]
GOLDEN = [VerifiedExample(question="doanh thu hôm nay", sql="SELECT sum(total_vnd) FROM orders")]


@pytest.fixture()
def small(kb_settings: Settings, seeded: Targets) -> Schema:
    live = introspect_postgres(seeded.admin, kb_settings.business_schema)
    return replace(live, tables=tuple(t for t in live.tables if t.name in {"orders", "tables", "menu_items"}),
                   foreign_keys=tuple(fk for fk in live.foreign_keys if fk.table == "orders" and fk.ref_table == "tables"),
                   _by_name={})


def _state(store: KnowledgeStore) -> dict[str, object]:
    conn = store.shared()
    dims = {t: conn.execute("SELECT atttypmod FROM pg_attribute WHERE attrelid = to_regclass(%s) "
                            "AND attname = 'embedding'", (f'"{store.schema}".{t}',)).fetchone()[0]  # type: ignore[index]
            for t in ("documents", "verified_queries", "embedding_cache")}
    stored = {t: conn.execute(f'SELECT DISTINCT vector_dims(embedding) FROM "{store.schema}".{t}').fetchall()
              for t in ("documents", "verified_queries", "embedding_cache")}
    models = conn.execute(f'SELECT DISTINCT model, dimension FROM "{store.schema}".databases').fetchall()
    return {"columns": dims, "stored": {t: sorted(r[0] for r in rows) for t, rows in stored.items()}, "models": models}


def test_a_kb_opened_with_another_model_is_re_embedded_not_mixed(
    kb_settings: Settings, seeded: Targets, small: Schema,
) -> None:
    store = KnowledgeStore(seeded.kb, kb_settings)
    build_kb(store, get_embedder(), small, glossary=GLOSSARY, examples=GOLDEN)
    minilm = KnowledgeBase(store, get_embedder(), small.name)
    apply_change(store, get_embedder(), Change(kind="verified_example", db_name=small.name, question="bàn nào đông nhất?",
                                               sql="SELECT table_id FROM orders GROUP BY 1 ORDER BY count(*) DESC LIMIT 1"))
    apply_change(store, get_embedder(), Change(kind="column_description", db_name=small.name, table="orders",
                                               column="guest_cnt", text="lượt khách: guests at the table"))
    assert _state(store)["models"] == [(BUNDLED_MODEL, 384)]
    documents = store.shared().execute(f'SELECT count(*) FROM "{store.schema}".documents').fetchone()
    before = minilm.retrieve("doanh thu hôm nay theo bàn", k=2, m=4)

    fake = LangChainEmbedder(DeterministicFakeEmbedding(size=64), "fake:64")
    kb = open_kb(kb_settings, seeded.kb, db_name=small.name, schema=small, embedder=fake)

    assert _state(store) == {"columns": {"documents": 64, "verified_queries": 64, "embedding_cache": 64},
                             "stored": {"documents": [64], "verified_queries": [64], "embedding_cache": [64]},
                             "models": [("fake:64", 64)]}
    assert store.shared().execute(f'SELECT count(*) FROM "{store.schema}".documents').fetchone() == documents
    context = kb.retrieve("doanh thu hôm nay theo bàn", k=2, m=4)
    names = {t.name for t in context.tables}
    assert "orders" in names and names <= {"orders", "tables", "menu_items"}
    assert "orders" in {t.name for t in before.tables}
    nearest = kb.nearest_examples("bàn nào đông nhất?", n=2)
    assert nearest[0].question == "bàn nào đông nhất?" and nearest[0].source == "confirmed"
    assert nearest[0].similarity == pytest.approx(1.0, abs=1e-5), "one model's vectors on both sides"
    text = store.shared().execute(f'SELECT text, source FROM "{store.schema}".documents WHERE doc_key = %s',
                                  ("column:orders.guest_cnt",)).fetchone()
    assert text is not None and "lượt khách" in text[0] and text[1] == "enrichment"

    again = build_kb(store, fake, small, glossary=GLOSSARY, examples=GOLDEN)
    assert again.embedded == 0 and again.updated == 0, "the re-embedded vectors are cached under the new model"

    build_kb(store, get_embedder(), small, glossary=GLOSSARY, examples=GOLDEN)
    assert _state(store)["models"] == [(BUNDLED_MODEL, 384)]
    assert _state(store)["columns"] == {"documents": 384, "verified_queries": 384, "embedding_cache": 384}
    minilm.check(small)
    assert minilm.nearest_examples("bàn nào đông nhất?", n=1)[0].similarity == pytest.approx(1.0, abs=1e-5)
    store.close()


def test_a_model_beyond_hnsw_dimensions_is_searched_exactly(
    kb_settings: Settings, seeded: Targets, small: Schema,
) -> None:
    store = KnowledgeStore(seeded.kb, kb_settings)
    wide = LangChainEmbedder(DeterministicFakeEmbedding(size=3072), "fake:3072")  # text-embedding-3-large's size
    build_kb(store, wide, small, glossary=GLOSSARY, examples=GOLDEN)
    kb = open_kb(kb_settings, seeded.kb, db_name=small.name, schema=small, embedder=wide)
    assert _state(store)["columns"] == {"documents": 3072, "verified_queries": 3072, "embedding_cache": 3072}
    indexes = store.shared().execute("SELECT count(*) FROM pg_indexes WHERE schemaname = %s AND indexdef LIKE %s",
                                     (store.schema, "%hnsw%")).fetchone()
    assert indexes == (0,)
    assert kb.nearest_examples("doanh thu hôm nay", n=1)[0].similarity == pytest.approx(1.0, abs=1e-5)
    store.close()
