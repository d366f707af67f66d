"""The semantic layer in the Chat page (AppTest, fake engine carrying the real semantic layer): the empty
chat offers questions Aria can answer now, a no-model "no" offers nearby ones, and an answer from the
semantic layer shows its query in words beside its SQL."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from streamlit.testing.v1 import AppTest

from aria.config import Settings
from aria.semantic import suggest
from aria.semantic.layer import SemanticLayer
from aria.ui.chat import STARTERS
from tests.app.fakes import (
    SEMANTIC_SQL,
    SEMANTIC_WORDS,
    SUGGESTIONS,
    FakeDeps,
    FakeEngine,
    no_model_answer,
    semantic_answer,
)

MakeApp = Callable[..., AppTest]


def run(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, at.exception
    return at


def buttons(at: AppTest, prefix: str) -> dict[str, str]:
    """Label of every button whose key starts with ``prefix``, by key."""
    return {b.key: b.label for b in at.button if b.key and b.key.startswith(prefix)}


def markdown_text(at: AppTest) -> str:
    return "\n".join(m.value for m in at.markdown)


@pytest.fixture()
def with_layer(engine: FakeEngine, semantic_layer: SemanticLayer) -> FakeEngine:
    engine.deps = FakeDeps(semantic=semantic_layer)
    return engine


def test_the_empty_chat_offers_starter_questions_and_a_click_asks_one(make_app: MakeApp, with_layer: FakeEngine,
                                                                      semantic_layer: SemanticLayer) -> None:
    at = run(make_app())
    offered = buttons(at, "starter")
    assert list(offered.values()) == suggest.starter_questions(semantic_layer, "vi", limit=4)
    assert "Doanh thu hôm qua là bao nhiêu?" in offered.values()
    assert "Bạn có thể hỏi ngay:" in [c.value for c in at.caption]
    at.button(key="starter0").click()
    run(at)
    assert [q for q, _ in with_layer.asked] == [offered["starter0"]], "the click asked it, like typing it"
    assert at.chat_message[0].markdown[0].value == offered["starter0"]
    assert not buttons(at, "starter"), "the starters leave once the chat has a question"


def test_starter_questions_follow_the_ui_language(make_app: MakeApp, settings: Settings,
                                                  with_layer: FakeEngine) -> None:
    at = run(make_app(settings.model_copy(update={"ui_language": "en"})))
    offered = list(buttons(at, "starter").values())
    assert offered and "What was revenue yesterday?" in offered
    assert all("hôm" not in q for q in offered)


def test_starter_questions_are_found_once_per_session(make_app: MakeApp, with_layer: FakeEngine,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    real = suggest.starter_questions

    def counting(layer: SemanticLayer, language: str, *, limit: int = 5) -> list[str]:
        calls.append(language)
        return real(layer, language, limit=limit)

    monkeypatch.setattr(suggest, "starter_questions", counting)
    at = run(make_app())
    first = buttons(at, "starter")
    run(at)
    run(at)
    assert calls == ["vi"], "parsed once, then read from the session"
    assert buttons(at, "starter") == first and at.session_state[STARTERS][0] == "vi"


def test_without_a_semantic_layer_the_empty_chat_offers_nothing_and_still_works(make_app: MakeApp,
                                                                                engine: FakeEngine) -> None:
    at = run(make_app())
    assert not buttons(at, "starter")
    at.chat_input[0].set_value("Doanh thu theo nhóm món tháng này?")
    run(at)
    assert len(engine.asked) == 1


def test_a_no_model_answer_offers_its_suggestions_and_a_click_asks_one(make_app: MakeApp,
                                                                       engine: FakeEngine) -> None:
    engine.reply = no_model_answer
    at = run(make_app())
    at.chat_input[0].set_value("Món nào được khách khen nhiều nhất?")
    run(at)
    assert list(buttons(at, "suggest0_").values()) == SUGGESTIONS
    assert "Bạn có thể hỏi:" in [c.value for c in at.caption]
    at.button(key="suggest0_1").click()
    run(at)
    assert [q for q, _ in engine.asked] == ["Món nào được khách khen nhiều nhất?", SUGGESTIONS[1]]
    assert list(buttons(at, "suggest1_").values()) == SUGGESTIONS, "the new no-model answer offers its own"


def test_an_answer_from_the_semantic_layer_shows_its_words_beside_its_sql(make_app: MakeApp,
                                                                          engine: FakeEngine) -> None:
    engine.reply = semantic_answer
    at = run(make_app())
    at.chat_input[0].set_value("Danh mục nào có doanh thu thấp nhất nửa đầu tháng 11?")
    run(at)
    assert f"Trả lời từ lớp ngữ nghĩa: {SEMANTIC_WORDS}" in [i.value for i in at.info]
    assert "Đang đọc câu hỏi theo các chỉ số…" in markdown_text(at), "the live progress names the step"
    assert at.text_area(key="sql0").value == SEMANTIC_SQL, "the SQL is there to read and edit"
    at.toggle(key="trace0_steps").set_value(True)
    run(at)
    assert "Lớp ngữ nghĩa (chỉ số đã định nghĩa)" in [tab.label for tab in at.tabs]
    assert f":material/functions: {SEMANTIC_WORDS}" in markdown_text(at)
    assert SEMANTIC_SQL in [c.value for c in at.code]


def test_the_semantic_origin_note_in_english(make_app: MakeApp, settings: Settings, engine: FakeEngine) -> None:
    engine.reply = semantic_answer
    at = run(make_app(settings.model_copy(update={"ui_language": "en"})))
    at.chat_input[0].set_value("Which category had the lowest revenue in early November?")
    run(at)
    assert f"Answered from the semantic layer: {SEMANTIC_WORDS}" in [i.value for i in at.info]
