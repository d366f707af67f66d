"""Enrichment on a real KB: revisions with provenance, exact undo, concurrent applies (export/import:
``test_kb_import.py``)."""

from __future__ import annotations

import threading
from dataclasses import replace

import pytest

from aria.config import Settings
from aria.db.connect import Targets
from aria.db.introspect import introspect_postgres
from aria.errors import KnowledgeBaseError
from aria.kb.base import KnowledgeBase
from aria.kb.build import VerifiedExample, build_kb
from aria.kb.embed import get_embedder
from aria.kb.enrich import Change, apply_change, list_revisions, propose, undo
from aria.kb.store import KnowledgeStore

GLOSSARY = [{"term": "doanh thu", "lang": "vi", "meaning": "revenue", "table": "orders", "column": "total_vnd"}]


@pytest.fixture()
def kb(kb_settings: Settings, seeded: Targets) -> KnowledgeBase:
    """A small KB (three tables of the seeded database) in its own schema."""
    live = introspect_postgres(seeded.admin, kb_settings.business_schema)
    small = replace(live, tables=tuple(t for t in live.tables if t.name in {"orders", "tables", "menu_items"}),
                    foreign_keys=tuple(fk for fk in live.foreign_keys if fk.table == "orders" and fk.ref_table == "tables"),
                    _by_name={})
    store = KnowledgeStore(seeded.kb, kb_settings)
    build_kb(store, get_embedder(), small, glossary=GLOSSARY,
             examples=[VerifiedExample(question="doanh thu hôm nay", sql="SELECT 1")])
    return KnowledgeBase(store, get_embedder(), kb_settings.business_schema)


def _column_text(kb: KnowledgeBase, key: str) -> tuple[str, str]:
    row = kb.store.shared().execute(
        f'SELECT text, source FROM "{kb.store.schema}".documents WHERE db_name = %s AND doc_key = %s',
        (kb.db_name, key)).fetchone()
    assert row is not None
    return row[0], row[1]


def test_apply_then_undo_restores_the_text_exactly(kb: KnowledgeBase) -> None:
    before = _column_text(kb, "column:orders.guest_cnt")
    change = Change(kind="column_description", db_name=kb.db_name, table="orders", column="guest_cnt",
                    text="lượt khách: number of guests at the table", question="bao nhiêu lượt khách?",
                    sql="SELECT sum(guest_cnt) FROM orders", confirmed_by="chị Lan")
    preview = propose(kb.store, change)
    assert preview.before == before[0] and "lượt khách" in preview.after
    assert _column_text(kb, "column:orders.guest_cnt") == before, "propose writes nothing"
    revision = apply_change(kb.store, kb.embedder, change)
    assert revision.author == "chị Lan" and revision.sql == "SELECT sum(guest_cnt) FROM orders"
    assert _column_text(kb, "column:orders.guest_cnt") == (preview.after, "enrichment")
    kb.refresh()
    assert "lượt khách" in kb.catalog.columns["orders"][[c.name for c in kb.catalog.columns["orders"]].index(
        "guest_cnt")].data["description"]
    undo(kb.store, kb.embedder, revision.id)
    assert _column_text(kb, "column:orders.guest_cnt") == before
    assert list_revisions(kb.store, kb.db_name)[0].undone
    with pytest.raises(KnowledgeBaseError, match="already undone"):
        undo(kb.store, kb.embedder, revision.id)


def test_glossary_alias_is_found_and_undo_removes_it(kb: KnowledgeBase) -> None:
    change = Change(kind="glossary_alias", db_name=kb.db_name, term="bàn VIP", table="tables", column="area_code",
                    value="VP", text="the VIP room tables", confirmed_by="manager")
    revision = apply_change(kb.store, kb.embedder, change)
    kb.refresh()
    ctx = kb.retrieve("doanh thu bàn VIP tuần này", k=1, m=2)
    assert any(h.term == "bàn VIP" and h.value == "VP" for h in ctx.glossary_hits)
    undo(kb.store, kb.embedder, revision.id)
    kb.refresh()
    assert all(h.term != "bàn VIP" for h in kb.retrieve("doanh thu bàn VIP", k=1, m=2).glossary_hits)


def test_verified_example_revision_and_undo(kb: KnowledgeBase) -> None:
    change = Change(kind="verified_example", db_name=kb.db_name, question="khách VIP hôm qua",
                    sql="SELECT count(*) FROM orders", confirmed_by="manager")
    revision = apply_change(kb.store, kb.embedder, change)
    assert kb.nearest_examples("khách VIP hôm qua", n=1)[0].source == "confirmed"
    undo(kb.store, kb.embedder, revision.id)
    assert all(e.source == "golden" for e in kb.nearest_examples("khách VIP hôm qua", n=5))


def test_two_concurrent_applies_make_two_revisions(kb: KnowledgeBase) -> None:
    texts = ["guests at the table (first edit)", "guests at the table (second edit)"]
    errors: list[BaseException] = []

    def edit(text: str) -> None:
        try:
            apply_change(kb.store, kb.embedder, Change(kind="column_description", db_name=kb.db_name, table="orders",
                                                       column="guest_cnt", text=text, confirmed_by="t"))
        except BaseException as err:  # noqa: BLE001 - reported below
            errors.append(err)

    threads = [threading.Thread(target=edit, args=(t,)) for t in texts]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    revisions = [r for r in list_revisions(kb.store, kb.db_name) if r.kind == "column_description"]
    assert len(revisions) == 2
    newest, oldest = revisions
    assert newest.payload["before"]["text"] == oldest.payload["after"]["text"], "no lost update"
    with pytest.raises(KnowledgeBaseError, match=f"Undo revision {newest.id} first"):
        undo(kb.store, kb.embedder, oldest.id)
