"""The Chat page in AppTest with a fake engine: answer, table, chart, trace, feedback, bad input."""

from __future__ import annotations

import gc
from collections.abc import Callable

import pytest
from streamlit.testing.v1 import AppTest

from aria.config import Settings
from aria.errors import DatabaseUnavailable, ModelError
from aria.ui import engine_access
from tests.app.elements import answer_charts, answer_tables
from tests.app.fakes import FakeEngine

QUESTION = "Doanh thu theo nhóm món tháng này?"
MakeApp = Callable[..., AppTest]


def ask(at: AppTest, text: str) -> AppTest:
    at.chat_input[0].set_value(text).run()
    assert not at.exception, at.exception
    return at


def markdown_text(at: AppTest) -> str:
    return "\n".join(m.value for m in at.markdown)


def test_answer_shows_text_table_chart_and_scores(make_app: MakeApp, engine: FakeEngine) -> None:
    at = ask(make_app().run(), QUESTION)
    at.toggle(key="trace0_steps").set_value(True).run()  # the steps are sent only when asked for
    text = markdown_text(at)
    assert "Món chính mang lại nhiều doanh thu nhất." in text
    assert ":green-badge[Score_r 7.4/10 ≥ 4]" in text
    assert ":green-badge[S 8.1/10 ≥ 5]" in text and ":green-badge[E 4.4/5 ≥ 3]" in text
    assert ":orange-badge[Score_r 3.2/10 < 4]" in text  # the first, rejected retrieval
    assert "misses categories" in text  # the judge's reason
    table = answer_tables(at)[0].value
    assert list(table.columns) == ["nhom_mon", "doanh_thu_vnd"]
    assert table["doanh_thu_vnd"].iloc[0] == "152.500.000 ₫"
    charts = answer_charts(at)
    assert len(charts) == 1 and '"type":"bar"' in charts[0].proto.spec
    assert any("scripted test model" in i.value for i in at.info)
    assert engine.asked[0][0] == QUESTION


def test_live_progress_is_recorded(make_app: MakeApp) -> None:
    at = ask(make_app().run(), QUESTION)
    assert "Đang tìm lược đồ… Score_r 3.2 < 4, đang viết lại câu hỏi…" in markdown_text(at)  # the UI is in Vietnamese


def test_confirm_previews_then_applies(make_app: MakeApp, engine: FakeEngine) -> None:
    at = ask(make_app().run(), QUESTION)
    at.button(key="confirm0").click().run()
    assert engine.proposed and not engine.confirmed  # first click: only the preview
    assert "Verified example: “Doanh thu theo nhóm món tháng này?”" in markdown_text(at)
    assert "Alias “nhóm món” → `categories.name_vi`" in markdown_text(at)
    at.button(key="apply0").click().run()
    assert len(engine.confirmed) == 1 and not engine.rejected
    assert at.success[0].value == "Đã lưu vào cơ sở tri thức."


def test_reject_asks_why_and_records_it(make_app: MakeApp, engine: FakeEngine) -> None:
    at = ask(make_app().run(), QUESTION)
    at.button(key="reject0").click().run()
    at.text_input(key="reason0").input("thiếu món lẩu").run()
    at.button(key="send0").click().run()
    assert [reason for _, reason in engine.rejected] == ["thiếu món lẩu"]
    assert not engine.confirmed and not engine.proposed


def test_follow_up_carries_previous_question_and_sql(make_app: MakeApp, engine: FakeEngine) -> None:
    at = ask(make_app().run(), QUESTION)
    ask(at, "Còn tháng trước thì sao?")
    options = engine.asked[1][1]
    assert options.previous_question == QUESTION
    assert options.previous_sql is not None and options.previous_sql.startswith("SELECT")


@pytest.mark.parametrize(
    ("text", "expected"),
    [("   ", "trống"), ("doanh thu " * 1000, "quá giới hạn 2000"), ("昨天晚上的营业额是多少？", "tiếng Việt hoặc tiếng Anh")],
)
def test_bad_questions_get_a_message_and_the_session_goes_on(
    make_app: MakeApp, engine: FakeEngine, text: str, expected: str
) -> None:
    at = ask(make_app().run(), text)
    assert expected in at.error[0].value  # the engine's error answer: the UI does not check the question itself
    ask(at, QUESTION)
    assert len(engine.asked) == 2 and len(answer_tables(at)) == 1


@pytest.mark.parametrize(
    "error",
    [ModelError("The model did not answer within 60 s.", hint="Try again."),
     DatabaseUnavailable("Cannot connect to the database.", hint="Check that the server is running.")],
)
def test_engine_failures_are_messages(make_app: MakeApp, engine: FakeEngine, error: Exception) -> None:
    engine.fail = error  # type: ignore[assignment]
    at = ask(make_app().run(), QUESTION)
    assert str(error) in at.warning[0].value
    engine.fail = None
    ask(at, QUESTION)
    assert len(answer_tables(at)) == 1


def test_no_model_banner_says_how_to_connect(make_app: MakeApp, settings: Settings) -> None:
    text = markdown_text(make_app().run())
    assert "Chưa kết nối mô hình ngôn ngữ nào" in text and "ARIA_LLM=ollama:" in text and "SQL Workbench" in text
    english = markdown_text(make_app(settings.model_copy(update={"ui_language": "en"})).run())
    assert "No language model is connected" in english and "ARIA_LLM=anthropic:" in english


def test_english_ui_labels(make_app: MakeApp, settings: Settings) -> None:
    at = ask(make_app(settings.model_copy(update={"ui_language": "en"})).run(), QUESTION)
    assert {"Confirm", "Reject", "Re-run"} <= {b.label for b in at.button}


def test_sql_edited_into_a_delete_is_refused_by_the_guard(make_app: MakeApp, seeded: object) -> None:
    at = ask(make_app().run(), QUESTION)
    at.text_area(key="sql0").input("DELETE FROM orders").run()
    at.button(key="rerun0").click().run()
    assert not at.exception
    assert at.error, "the guard's refusal is shown"
    assert "DELETE" in at.error[0].value or "not allowed" in at.error[0].value.lower()


def test_rerun_of_the_sql_runs_it_read_only(make_app: MakeApp, seeded: object) -> None:
    at = ask(make_app().run(), QUESTION)
    at.button(key="rerun0").click().run()
    assert not at.exception and not at.error
    assert len(answer_tables(at)) == 2  # the answer's table and the re-run's
    assert len(answer_tables(at)[1].value) > 0


def test_an_answer_is_built_once_and_redrawn_on_later_runs(make_app: MakeApp) -> None:
    at = make_app().run()
    preload = at.container(key="aria_preload")
    assert preload.dataframe and preload.get("plotly_chart"), "an empty chat draws the hidden preload"
    at = ask(at, QUESTION)
    view = at.session_state["aria_turns"][0].view
    assert view is not None and view.figure is not None
    ask(at, "Còn tháng trước thì sao?")
    assert at.session_state["aria_turns"][0].view is view  # the first answer was not rebuilt
    assert len(answer_tables(at)) == 2 and len(answer_charts(at)) == 2
    assert not [c for c in at.get("flex_container") if getattr(c, "key", None) == "aria_preload"], \
        "the preload is dropped once answers are on the page"


def test_opening_the_chat_builds_the_engine_once_per_session(make_app: MakeApp, engine: FakeEngine) -> None:
    built: list[Settings] = []

    def factory(settings: Settings) -> FakeEngine:
        built.append(settings)
        return engine

    engine_access.install_engine(factory)
    at = make_app().run()
    assert len(built) == 1, "the engine is built when the chat opens, before the first question"
    at.run()
    assert len(built) == 1, "and not again on every rerun of the page"


def test_settling_the_heap_freezes_what_was_built() -> None:
    try:
        engine_access.settle_heap()
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()


def test_older_answers_keep_their_sentence_and_show_the_rest_on_request(make_app: MakeApp) -> None:
    at = make_app().run()
    for n in range(5):
        ask(at, f"{QUESTION} ({n})")
    assert len(answer_tables(at)) == 3, "the newest answer and the two before it are drawn in full"
    assert "Món chính mang lại nhiều doanh thu nhất." in at.chat_message[1].markdown[0].value
    at.toggle(key="details0").set_value(True).run()
    assert len(answer_tables(at)) == 4 and len(answer_charts(at)) == 4
    assert at.button(key="confirm0"), "the oldest answer can still be confirmed"
