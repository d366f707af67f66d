"""The trace panel's pure parts: badges against thresholds, diffs, origin notes, progress lines."""

from __future__ import annotations

from typing import get_args

from aria.config import Settings
from aria.reflect.answer import Answer
from aria.reflect.trace import Loop, Score, Trace, TraceEvent
from aria.ui.trace_view import (
    badge,
    event_badges,
    headline_badges,
    loop_title,
    origin_note,
    progress_label,
    question_diff_html,
    sql_diff,
)

SETTINGS = Settings(llm=None, database_url=None)


def test_badges_read_against_the_paper_thresholds() -> None:
    assert badge("score_r", Score(value=3.2), SETTINGS).markdown() == ":orange-badge[Score_r 3.2/10 < 4]"
    assert badge("s", Score(value=5.0), SETTINGS).markdown() == ":green-badge[S 5.0/10 ≥ 5]"
    assert badge("e", Score(value=1.0), SETTINGS).markdown() == ":red-badge[E 1.0/5 < 3]"
    assert badge("data", Score(value=3.5), SETTINGS).colour == "green"  # E_data against θ_e on 0-5
    strict = SETTINGS.model_copy(update={"theta_r": 8.0})
    assert not badge("score_r", Score(value=7.0), strict).passed


def test_headline_badges_take_the_last_score_of_each_loop() -> None:
    trace = Trace(events=[
        TraceEvent(loop="retrieval", step="judge_retrieval", scores={"score_r": Score(value=2.0)}),
        TraceEvent(loop="retrieval", step="judge_retrieval", scores={"score_r": Score(value=6.0)}),
        TraceEvent(loop="entailment", step="judge_entailment", scores={"e": Score(value=4.0)}),
    ])
    assert [(b.label, b.value) for b in headline_badges(trace, SETTINGS)] == [("Score_r", 6.0), ("E", 4.0)]


def test_event_badges_put_the_aggregate_first() -> None:
    event = TraceEvent(loop="synthesis", step="judge_sql",
                       scores={"join": Score(value=3), "s": Score(value=6), "column": Score(value=9)})
    assert [b.label for b in event_badges(event, SETTINGS)] == ["S", "column", "join"]


def test_question_diff_escapes_html_and_marks_changes() -> None:
    out = question_diff_html("doanh thu <b>hôm qua</b>", "doanh thu ca tối <b>hôm qua</b>")
    assert "<b>hôm" not in out.replace("<ins style='color:#067647;text-decoration:none'><b>", "")
    assert "&lt;b&gt;hôm" in out
    assert "ca tối" in out and "<del" not in out
    replaced = question_diff_html("tháng này", "tháng trước")
    assert "<del style='color:#b42318'>này</del>" in replaced and "trước" in replaced


def test_sql_diff_shows_changed_lines() -> None:
    diff = sql_diff("SELECT a\nFROM t", "SELECT a, b\nFROM t")
    assert "-SELECT a" in diff and "+SELECT a, b" in diff
    assert sql_diff("SELECT 1", "SELECT 1") == ""


def test_origin_note_for_reused_and_scripted_answers() -> None:
    reused = Answer(question="q", status="reused", answer_text="", reused_query_id=12)
    assert origin_note(reused, "en") == "Reused verified query #12 with new values."
    assert origin_note(reused, "vi") == "Dùng lại truy vấn đã xác minh #12 với giá trị mới."
    scripted = Answer(question="q", status="answered", answer_text="", trace=Trace(model_label="scripted:demo.json"))
    assert "scripted test model (demo.json)" in (origin_note(scripted, "en") or "")
    assert "(demo.json)" in (origin_note(scripted, "vi") or "") and "scripted test model" in (origin_note(scripted, "vi") or "")
    live = Answer(question="q", status="answered", answer_text="", trace=Trace(model_label="anthropic:claude"))
    assert origin_note(live) is None


def test_origin_note_for_an_answer_from_the_semantic_layer() -> None:
    words = "Doanh thu · theo danh mục · 2026-11-01 → 2026-11-15 · thấp nhất 1"
    semantic = Answer(question="q", status="answered", answer_text="", semantic_query=words,
                      trace=Trace(model_label="none"))
    assert origin_note(semantic, "vi") == f"Trả lời từ lớp ngữ nghĩa: {words}"
    assert origin_note(semantic, "en") == f"Answered from the semantic layer: {words}"
    judged = semantic.model_copy(update={"trace": Trace(model_label="scripted:demo.json")})
    note = origin_note(judged, "en") or ""
    assert note.startswith(f"Answered from the semantic layer: {words} ") and "scripted test model (demo.json)" in note
    assert origin_note(semantic.model_copy(update={"semantic_query": None})) is None


def test_progress_label_and_loop_title_of_the_semantic_layer() -> None:
    parse = TraceEvent(loop="semantic", step="semantic_parse", detail="Revenue · yesterday")
    assert progress_label(parse, SETTINGS) == "Đang đọc câu hỏi theo các chỉ số…"
    assert progress_label(parse, SETTINGS.model_copy(update={"ui_language": "en"})) == \
        "Reading the question against the metrics…"
    assert loop_title("semantic", "vi") == "Lớp ngữ nghĩa (chỉ số đã định nghĩa)"
    assert loop_title("semantic", "en") == "Semantic layer (defined metrics)"


def test_progress_labels_in_english() -> None:
    english = SETTINGS.model_copy(update={"ui_language": "en"})
    low = TraceEvent(loop="retrieval", step="judge_retrieval", scores={"score_r": Score(value=3.2)})
    assert progress_label(low, english) == "Retrieving schema… Score_r 3.2 < 4, rewriting…"
    assert progress_label(TraceEvent(loop="synthesis", step="guard"), english) == "Checking SQL…"
    failed = TraceEvent(loop="synthesis", step="explain", error="column x does not exist")
    assert progress_label(failed, english) == "explain: column x does not exist"
    assert progress_label(TraceEvent(loop="entailment", step="judge_entailment", scores={"e": Score(value=4)}),
                          english).startswith("Verifying the result… E 4.0")


def test_progress_labels_in_vietnamese() -> None:
    low = TraceEvent(loop="retrieval", step="judge_retrieval", scores={"score_r": Score(value=3.2)})
    assert progress_label(low, SETTINGS) == "Đang tìm lược đồ… Score_r 3.2 < 4, đang viết lại câu hỏi…"
    assert progress_label(TraceEvent(loop="synthesis", step="judge_sql", scores={"s": Score(value=8.1)}),
                          SETTINGS) == "Đang kiểm tra SQL… S 8.1 (đạt)"
    assert progress_label(TraceEvent(loop="enrichment", step="propose"), SETTINGS) == "Bổ sung cơ sở tri thức: propose…"


def test_every_loop_has_a_title_in_both_languages() -> None:
    for loop in get_args(Loop):
        assert loop_title(loop, "vi") and loop_title(loop, "en")


def test_the_trace_drops_the_english_test_model_note_that_the_origin_note_says_in_the_ui_language() -> None:
    from aria.llm.spec import TEST_MODEL_NOTE
    from aria.ui.trace_view import _TEST_MODEL_NOTE

    label = f"scripted:demo.json {TEST_MODEL_NOTE} / judge: openai:gpt-4.1"
    assert _TEST_MODEL_NOTE.sub("", label) == "scripted:demo.json / judge: openai:gpt-4.1"
