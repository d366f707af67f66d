"""The knowledge base on the seeded SmartRestaurant database (real PostgreSQL + pgvector, real MiniLM)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest

from aria.config import Settings
from aria.db.connect import Targets
from aria.db.introspect import introspect_postgres
from aria.kb.base import KnowledgeBase
from aria.kb.build import BuildReport, build_kb
from aria.kb.embed import get_embedder
from aria.kb.service import postgres_bundle
from aria.kb.store import KnowledgeStore


@pytest.fixture(scope="module")
def built(settings: Settings, seeded: Targets) -> Iterator[tuple[KnowledgeBase, BuildReport, Settings]]:
    """One KB of the seeded database, built once for the read-only tests of this module."""
    cfg = settings.model_copy(update={"kb_schema": f"kb_{uuid.uuid4().hex[:10]}"})
    store = KnowledgeStore(seeded.kb, cfg)
    bundle = postgres_bundle(seeded.admin, cfg)
    report = build_kb(store, get_embedder(), bundle.schema, glossary=bundle.glossary, examples=bundle.examples)
    kb = KnowledgeBase(store, get_embedder(), cfg.business_schema)
    yield kb, report, cfg
    store.close()


def test_build_indexes_every_table_and_the_glossary(built: tuple[KnowledgeBase, BuildReport, Settings]) -> None:
    kb, report, _ = built
    assert report.added == report.documents > 50
    assert {"orders", "order_items", "menu_items", "tables"} <= set(kb.catalog.tables)
    assert kb.catalog.glossary, "the glossary of descriptions.yaml is indexed"
    assert report.examples > 0


def test_revenue_question_finds_orders_items_and_menu(built: tuple[KnowledgeBase, BuildReport, Settings]) -> None:
    kb, _, _ = built
    ctx = kb.retrieve("Which dishes brought the most revenue this month?", k=3, m=8)
    assert {"orders", "order_items", "menu_items"} <= set(ctx.table_names)
    assert ctx.table("order_items").column("item_id") is not None  # join key to menu_items
    assert any(edge.ref_table == "menu_items" for edge in ctx.join_paths)
    assert "# Table: order_items" in ctx.render()
    assert 0 < ctx.token_count < kb.catalog.full_token_count


def test_value_match_finds_the_dish_by_its_vietnamese_name(built: tuple[KnowledgeBase, BuildReport, Settings]) -> None:
    kb, _, _ = built
    ctx = kb.retrieve("Tuần này bán được bao nhiêu phần Lẩu Thái?", k=3, m=6)
    assert any(v.table == "menu_items" and v.column == "name_vi" and v.value == "lau thai" for v in ctx.matched_values)
    assert ctx.table("menu_items").column("name_vi") is not None


def test_table_number_finds_table_no(built: tuple[KnowledgeBase, BuildReport, Settings]) -> None:
    kb, _, _ = built
    ctx = kb.retrieve("Doanh thu của bàn số 5 hôm qua", k=3, m=6)
    assert ctx.table("tables") is not None and ctx.table("tables").column("table_no") is not None
    assert ctx.table("orders") is not None


def test_glossary_hit_for_doanh_thu(built: tuple[KnowledgeBase, BuildReport, Settings]) -> None:
    kb, _, _ = built
    ctx = kb.retrieve("doanh thu hôm nay là bao nhiêu?", k=2, m=5)
    hit = next(h for h in ctx.glossary_hits if h.term == "doanh thu")
    assert hit.table == "orders" and hit.column == "total_vnd"
    assert ctx.table("orders").column("total_vnd") is not None
    assert "doanh thu" in ctx.render()


def test_whole_schema_when_it_fits_the_budget(built: tuple[KnowledgeBase, BuildReport, Settings]) -> None:
    kb, _, _ = built
    ctx = kb.retrieve("doanh thu", k=1, m=1, full_schema_budget=10**6)
    assert ctx.full_schema and len(ctx.tables) == len(kb.catalog.tables)
    small = kb.retrieve("doanh thu", k=1, m=1, full_schema_budget=10)
    assert not small.full_schema


def test_nearest_examples_come_from_the_golden_file(built: tuple[KnowledgeBase, BuildReport, Settings]) -> None:
    kb, _, _ = built
    first = kb.nearest_examples("doanh thu hôm qua", n=3)
    assert len(first) == 3 and all(e.source == "golden" for e in first)
    assert first[0].similarity >= first[-1].similarity


def test_rebuild_without_changes_embeds_nothing(built: tuple[KnowledgeBase, BuildReport, Settings],
                                                seeded: Targets) -> None:
    kb, report, cfg = built
    bundle = postgres_bundle(seeded.admin, cfg)
    again = build_kb(kb.store, get_embedder(), bundle.schema, glossary=bundle.glossary, examples=bundle.examples)
    assert (again.embedded, again.added, again.updated, again.deleted) == (0, 0, 0, 0)
    assert again.unchanged == report.documents
    assert again.fingerprint == report.fingerprint


def test_kb_of_another_database_is_refused(built: tuple[KnowledgeBase, BuildReport, Settings],
                                          seeded: Targets) -> None:
    from dataclasses import replace

    from aria.errors import KnowledgeBaseError

    kb, _, cfg = built
    live = introspect_postgres(seeded.admin, cfg.business_schema)
    kb.check(live)  # the same structure passes
    other = replace(live, tables=live.tables[:-1], _by_name={})
    with pytest.raises(KnowledgeBaseError, match="aria kb build"):
        kb.check(other)


def test_missing_kb_says_how_to_build_it(kb_settings: Settings, seeded: Targets) -> None:
    from aria.errors import KnowledgeBaseError

    kb = KnowledgeBase(KnowledgeStore(seeded.kb, kb_settings), get_embedder(), "restaurant")
    with pytest.raises(KnowledgeBaseError, match="aria kb build"):
        kb.check()


def test_batched_embeddings_keep_the_order_of_the_texts() -> None:
    """Batches are formed by length; each vector must still land on its own text's row."""
    texts = ["doanh thu theo ngày của từng món trong thực đơn, kể cả món đã ngừng bán " * 3, "orders",
             "table_no: số bàn", "x"] * 5
    embedder = get_embedder()
    together = embedder.embed(texts)
    alone = [embedder.embed([t])[0] for t in texts[:4]]
    for row, vector in enumerate(alone):
        assert float(together[row] @ vector) > 0.999
    assert float(together[0] @ together[1]) < 0.9
