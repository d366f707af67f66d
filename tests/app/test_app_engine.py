"""Chat in AppTest with the real engine and the scripted test model on the seeded database:
the answer, table, chart and trace render; Reject records feedback and no KB revision; Confirm
creates KB revisions."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from psycopg import sql
from streamlit.testing.v1 import AppTest

from aria.config import Settings
from aria.db.connect import Targets, connect
from aria.reflect.factory import open_engine
from aria.ui import engine_access, kb_access, resources
from tests.app.elements import answer_charts, answer_tables

APP_FILE = Path(__file__).resolve().parents[2] / "aria" / "ui" / "app.py"
SCRIPT = Path(__file__).resolve().parents[1] / "data" / "scripted" / "demo.json"
QUESTION = "Món bán chạy nhất?"

pytestmark = pytest.mark.slow


@pytest.fixture()
def engine_settings(kb_settings: Settings, seeded: Targets) -> Iterator[Settings]:
    """A fresh KB built for the seeded database, the scripted model, and the engine without its semantic
    layer (which would answer this question before the loops the script drives)."""
    settings = kb_settings.model_copy(update={"llm": f"scripted:{SCRIPT}"})
    kb_access.build_knowledge_base(settings, seeded)
    with connect(seeded.kb, settings=settings) as conn:  # no verified query to reuse: the loops run
        conn.execute(sql.SQL("DELETE FROM {}.verified_queries").format(sql.Identifier(settings.kb_schema)))
        conn.commit()
    engine = open_engine(settings, targets=seeded)
    engine.deps = replace(engine.deps, semantic=None)
    engine_access.install_engine(lambda _settings: engine)
    resources.use_settings(settings)
    yield settings
    engine_access.install_engine(None)
    resources.use_settings(None)
    engine.close()


def count(settings: Settings, targets: Targets, table: str) -> int:
    with connect(targets.kb, settings=settings) as conn:
        query = sql.SQL("SELECT count(*) FROM {}.{}").format(sql.Identifier(settings.kb_schema), sql.Identifier(table))
        return int(conn.execute(query).fetchone()[0])  # type: ignore[index]


def asked(settings: Settings) -> AppTest:
    at = AppTest.from_file(str(APP_FILE), default_timeout=120).run()
    at.chat_input[0].set_value(QUESTION).run()
    assert not at.exception, at.exception
    return at


def test_answer_with_table_chart_and_scores(engine_settings: Settings) -> None:
    at = asked(engine_settings)
    assert list(answer_tables(at)[0].value.columns) == ["mon", "so_luong"]
    assert len(answer_tables(at)[0].value) == 5
    assert '"type":"bar"' in answer_charts(at)[0].proto.spec
    badges = "\n".join(m.value for m in at.markdown)
    assert ":green-badge[Score_r 9.0/10 ≥ 4]" in badges and ":green-badge[E 5.0/5 ≥ 3]" in badges
    assert any("scripted test model" in i.value for i in at.info)


def test_reject_records_feedback_and_no_revision(engine_settings: Settings, seeded: Targets) -> None:
    revisions, feedback = count(engine_settings, seeded, "revisions"), count(engine_settings, seeded, "feedback")
    at = asked(engine_settings)
    at.button(key="reject0").click().run()
    at.text_input(key="reason0").input("sai khoảng thời gian").run()
    at.button(key="send0").click().run()
    assert not at.exception, at.exception
    assert count(engine_settings, seeded, "revisions") == revisions
    assert count(engine_settings, seeded, "feedback") == feedback + 1


def test_confirm_previews_then_creates_revisions(engine_settings: Settings, seeded: Targets) -> None:
    before = count(engine_settings, seeded, "revisions")
    at = asked(engine_settings)
    at.button(key="confirm0").click().run()
    assert count(engine_settings, seeded, "revisions") == before  # the preview writes nothing
    assert any("order_items.qty" in m.value for m in at.markdown)
    at.button(key="apply0").click().run()
    assert not at.exception, at.exception
    assert count(engine_settings, seeded, "revisions") > before


def test_no_model_question_answered_by_the_semantic_layer_shows_its_words(kb_settings: Settings,
                                                                          seeded: Targets) -> None:
    """The real engine with its semantic layer and no model: the empty chat's first starter question is
    answered from the defined metrics, and the answer says so with the query in words beside its SQL."""
    kb_access.build_knowledge_base(kb_settings, seeded)
    engine_access.install_engine(None)
    resources.use_settings(kb_settings)
    try:
        at = AppTest.from_file(str(APP_FILE), default_timeout=120).run()
        assert not at.exception, at.exception
        starter = at.button(key="starter0")
        assert starter.label == "Doanh thu hôm qua là bao nhiêu?"
        starter.click().run()
        assert not at.exception, at.exception
        note = next(i.value for i in at.info if i.value.startswith("Trả lời từ lớp ngữ nghĩa: "))
        assert note.startswith("Trả lời từ lớp ngữ nghĩa: Doanh thu")
        sql_text = at.text_area(key="sql0").value or ""
        assert "revenue" in sql_text.lower() or "total" in sql_text.lower()
        at.toggle(key="trace0_steps").set_value(True).run()
        assert "Lớp ngữ nghĩa (chỉ số đã định nghĩa)" in [tab.label for tab in at.tabs]
        assert sql_text in [c.value for c in at.code]
    finally:
        resources.use_settings(None)
