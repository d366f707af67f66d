"""The pages that change or read the knowledge base, in AppTest on the seeded test database:
edit a description and undo it (Knowledge Base), the semantic layer's metrics (Knowledge Base), save
SQL as a verified query that the engine then reuses with no model (SQL Workbench), a logged question
with its status and Re-run (History), and the chat's first questions from the KB's verified examples."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator

import pytest
from streamlit.testing.v1 import AppTest

from aria.config import Settings
from aria.db.connect import Targets
from aria.errors import KnowledgeBaseError
from aria.kb.base import KnowledgeBase
from aria.kb.embed import FakeEmbedder
from aria.kb.store import KnowledgeStore
from aria.semantic.layer import SemanticLayer
from aria.ui import kb_access
from tests.app.fakes import SQL, FakeDeps, FakeEngine, sample_trace

MakeApp = Callable[..., AppTest]
pytestmark = pytest.mark.slow

SAVED_QUESTION = "Có bao nhiêu đơn hàng đã hoàn thành?"
SAVED_SQL = "SELECT count(*) AS so_don FROM orders WHERE status = 'COMPLETED'"


@pytest.fixture(scope="module")
def kb_built(settings: Settings, seeded: Targets) -> Iterator[tuple[Settings, Targets]]:
    """One KB (its own schema) built once for this module's tests."""
    built = settings.model_copy(update={"kb_schema": f"kb_{uuid.uuid4().hex[:10]}"})
    kb_access.build_knowledge_base(built, seeded)
    yield built, seeded


def open_page(make_app: MakeApp, settings: Settings, page: str) -> AppTest:
    at = make_app(settings).run()
    at.switch_page(f"../../pages/{page}.py").run()
    assert not at.exception, at.exception
    return at


def click(at: AppTest, label: str) -> AppTest:
    next(b for b in at.button if b.label == label).click().run()
    assert not at.exception, at.exception
    return at


def column_doc(settings: Settings, targets: Targets, table: str, column: str) -> tuple[str, str]:
    df = kb_access.catalog(settings, targets)
    row = df[(df["table_name"] == table) & (df["column_name"] == column)].iloc[0]
    return row["description"], row["text"]


def test_edit_a_description_then_undo_brings_the_old_text_back(make_app: MakeApp,
                                                               kb_built: tuple[Settings, Targets]) -> None:
    settings, targets = kb_built
    before = column_doc(settings, targets, "order_items", "qty")
    at = open_page(make_app, settings, "knowledge_base")
    at.selectbox(key="kb_table").set_value("order_items").run()
    at.selectbox(key="kb_edit_column").set_value("qty").run()
    assert at.text_area(key="kb_edit_text").value == before[0], "the box starts from the current description"
    at.text_area(key="kb_edit_text").input("Số phần của món trên dòng đơn này.")
    click(at, "Lưu mô tả")
    assert at.success, "the edit is confirmed on screen"
    revision = kb_access.revisions(settings, targets).iloc[0]
    assert revision["kind"] == "column_description" and not revision["undone"]
    assert column_doc(settings, targets, "order_items", "qty")[0] == "Số phần của món trên dòng đơn này."
    history = at.dataframe[-1].value  # the Revisions tab, rendered after the edit in the same run
    assert int(revision["id"]) in set(history["#"])
    at.selectbox(key="kb_undo_id").set_value(int(revision["id"]))
    click(at, "Hoàn tác thay đổi này")
    assert bool(kb_access.revisions(settings, targets).iloc[0]["undone"])
    assert column_doc(settings, targets, "order_items", "qty") == before


def test_workbench_saves_a_verified_query_the_engine_reuses_without_a_model(
        make_app: MakeApp, kb_built: tuple[Settings, Targets]) -> None:
    from aria.reflect.factory import open_engine

    settings, targets = kb_built
    at = open_page(make_app, settings, "sql_workbench")
    at.text_area(key="wb_sql").input(SAVED_SQL).run()
    at.button(key="wb_run").click().run()
    expected = at.dataframe[0].value
    at.text_input(key="wb_question").input(SAVED_QUESTION)
    click(at, "Lưu thành truy vấn đã xác minh")
    assert at.success and not at.error
    saved = kb_access.verified_queries(settings, targets)
    assert saved.iloc[0]["question"] == SAVED_QUESTION and saved.iloc[0]["sql"] == SAVED_SQL
    engine = open_engine(settings.model_copy(update={"llm": None}), targets=targets)
    try:
        answer = engine.ask(SAVED_QUESTION)
    finally:
        engine.close()
    assert answer.status == "reused" and answer.trace.llm_calls == 0
    assert answer.reused_query_id == int(saved.iloc[0]["id"])
    assert len(answer.rows) == 1 and str(int(answer.rows[0][0])) in str(expected.iloc[0, 0]).replace(".", "")


def test_history_lists_a_past_question_with_its_status_and_reruns_it(
        make_app: MakeApp, kb_built: tuple[Settings, Targets]) -> None:
    settings, targets = kb_built
    question = f"Doanh thu theo nhóm món? ({uuid.uuid4().hex[:6]})"
    store = KnowledgeStore(targets.kb, settings)
    try:
        log_id = store.log_query(question, SQL, "not_confident", sample_trace().model_dump(mode="json"))
    finally:
        store.close()
    at = open_page(make_app, settings, "history")
    listed = at.dataframe[0].value
    row = listed[listed["#"] == log_id].iloc[0]
    assert row["Câu hỏi"] == question and "chưa chắc chắn" in row["Trạng thái"]
    at.selectbox(key="history_pick").set_value(log_id).run()
    at.button(key="history_rerun").click().run()
    assert not at.exception and not at.error
    result = at.dataframe[1].value
    assert list(result.columns) == ["nhom_mon", "doanh_thu_vnd"] and len(result) > 1


def test_listings_keep_their_columns_when_empty_and_say_how_to_build_a_missing_kb(
        kb_built: tuple[Settings, Targets]) -> None:
    settings, targets = kb_built
    log = kb_access.query_log(settings, targets, limit=0)
    assert log.empty and list(log.columns) == ["id", "created_at", "question", "sql", "status", "trace"]
    glossary = kb_access.glossary(settings, targets)
    assert len(glossary) > 100 and {"doc_key", "text"} <= set(glossary.columns)
    missing = settings.model_copy(update={"kb_schema": f"kb_missing_{uuid.uuid4().hex[:8]}"})
    assert not kb_access.kb_exists(missing, targets)
    with pytest.raises(KnowledgeBaseError, match="aria kb build"):
        kb_access.revisions(missing, targets)


def test_the_metrics_tab_lists_the_semantic_layers_metrics_and_dimensions(
        make_app: MakeApp, kb_built: tuple[Settings, Targets], engine: FakeEngine,
        semantic_layer: SemanticLayer) -> None:
    settings, _ = kb_built
    engine.deps = FakeDeps(semantic=semantic_layer)
    at = open_page(make_app, settings, "knowledge_base")
    assert "Chỉ số" in [tab.label for tab in at.tabs]
    metrics = next(df.value for df in at.dataframe if "Định nghĩa" in df.value.columns)
    assert len(metrics) == len(semantic_layer.catalog.metrics)
    revenue = metrics[metrics["Mã"] == "revenue"].iloc[0]
    assert (revenue["Chỉ số"], revenue["Tên (en)"], revenue["Đơn vị"]) == ("Doanh thu", "Revenue", "vnd")
    assert revenue["Định nghĩa"] == semantic_layer.catalog.metrics["revenue"].description
    concepts = next(df.value for df in at.dataframe if "Chiều" in df.value.columns)
    assert "category" in set(concepts["Mã"]) and "Danh mục" in set(concepts["Chiều"])
    english = open_page(make_app, settings.model_copy(update={"ui_language": "en"}), "knowledge_base")
    listed = next(df.value for df in english.dataframe if "Definition" in df.value.columns)
    assert "Revenue" in set(listed["Metric"])


def test_the_metrics_tab_says_in_one_line_when_the_semantic_layer_is_off(
        make_app: MakeApp, kb_built: tuple[Settings, Targets]) -> None:
    at = open_page(make_app, kb_built[0], "knowledge_base")  # the fake engine has no semantic layer
    assert any(i.value.startswith("Lớp ngữ nghĩa đang tắt") for i in at.info)
    assert not [df for df in at.dataframe if "Định nghĩa" in df.value.columns]


def test_the_empty_chat_offers_verified_examples_from_the_kb(
        make_app: MakeApp, kb_built: tuple[Settings, Targets], engine: FakeEngine,
        semantic_layer: SemanticLayer) -> None:
    settings, targets = kb_built
    store = KnowledgeStore(targets.kb, settings)
    engine.deps = FakeDeps(semantic=semantic_layer, kb=KnowledgeBase(store, FakeEmbedder(), settings.business_schema))
    try:
        at = make_app(settings).run()
        assert not at.exception, at.exception
        offered = [b.label for b in at.button if (b.key or "").startswith("starter")]
        expected = kb_access.example_questions(engine.deps.kb, "vi", exclude=offered[:-2])  # type: ignore[arg-type]
        assert len(expected) == 2 and offered[-2:] == expected, "two verified examples after the metrics' questions"
        verified = set(kb_access.verified_queries(settings, targets)["question"])
        assert set(expected) <= verified
        next(b for b in at.button if b.label == expected[0]).click().run()
        assert [q for q, _ in engine.asked] == [expected[0]]
    finally:
        store.close()
