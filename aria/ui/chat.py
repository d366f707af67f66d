"""The Chat page: ask, watch the loops work, read the answer, then Confirm or Reject it."""

from __future__ import annotations

import logging
import time

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from aria.config import Settings
from aria.errors import AriaError
from aria.reflect.answer import Answer, AskOptions, Question
from aria.ui import auth, engine_access, kb_access
from aria.ui.formatting import Language, t
from aria.ui.resources import current_settings
from aria.ui.results import ResultView, build_view, draw_view, preload_components
from aria.ui.sql_access import run_sql
from aria.ui.state import ChatTurn, RerunResult, turns
from aria.ui.trace_view import progress_label, render_trace

log = logging.getLogger(__name__)

CONNECT_A_MODEL = """```
ARIA_LLM=anthropic:claude-sonnet-4-5          # with ANTHROPIC_API_KEY
ARIA_LLM=openai:gpt-4o-mini                   # with OPENAI_API_KEY
ARIA_LLM=openai-compatible:qwen2.5-coder@http://localhost:8000/v1
ARIA_LLM=ollama:qwen2.5-coder:7b
ARIA_JUDGE_LLM=anthropic:claude-haiku-4-5     # optional: a separate judge model
```"""
NO_MODEL_BANNER = {
    "vi": """**Chưa kết nối mô hình ngôn ngữ nào**, nên Aria chưa thể viết SQL mới.
Không cần mô hình, bạn vẫn có thể: nhận câu trả lời cho những câu hỏi khớp với một **truy vấn đã xác minh**
(dùng lại với giá trị mới của bạn), chạy SQL trong **SQL Workbench**, và xem hoặc sửa **Cơ sở tri thức**.

Để kết nối một mô hình (Claude, OpenAI, máy chủ tương thích OpenAI hoặc Ollama), đặt một trong các biến sau
trước khi chạy `aria demo` (hoặc ở trang Cài đặt):
""" + CONNECT_A_MODEL,
    "en": """**No language model is connected**, so Aria cannot write new SQL yet.
Without a model you can still: get answers to questions that match a **verified query** (reused with
your new values), run SQL in the **SQL Workbench**, and browse or edit the **Knowledge Base**.

To connect a model (Claude, OpenAI, an OpenAI-compatible server or Ollama), set one of these before
`aria demo` (or on the Settings page):
""" + CONNECT_A_MODEL,
}
FEEDBACK_STATUSES = ("answered", "reused", "not_confident")
WARMED = "aria_engine_warmed"
# A session's first page sends the hidden preload (aria.ui.results) this much after the rest, so the
# browser makes the chat usable before it compiles the chart code (0.7 s instead of 0.9-1.9 s to a usable
# chat input; aria bench ui).
PRELOAD_AFTER_S = 0.4
RECENT_TURNS_IN_FULL = 3  # the newest answers drawn in full; older ones keep their sentence, the rest is a switch away
STARTERS = "aria_starters"  # (language, questions) offered by the empty chat, found once per session
PICKED = "aria_picked_question"  # a clicked starter or suggestion: asked on the next run, as if typed
STARTER_METRIC_QUESTIONS = 4  # from the semantic layer
STARTER_VERIFIED_QUESTIONS = 2  # from the KB's verified queries


def render() -> None:
    settings = current_settings()
    language: Language = settings.ui_language
    st.title(t("chat_title", language))
    question = st.chat_input(t("chat_placeholder", language))  # first: the browser shows it first
    if question is None:
        question = st.session_state.pop(PICKED, None)
    needs_preload = not turns() and question is None  # an empty chat, waiting for its first question
    if settings.llm is None:
        with st.expander(t("no_model_title", language), icon=":material/info:", expanded=not turns()):
            st.markdown(NO_MODEL_BANNER[language])
    starters = st.empty() if needs_preload else None  # filled at the end of the run, once the page is drawn
    # the first turn drawn in full, counting the one this run may add (so a rerun keeps the same layout)
    shown_in_full = len(turns()) + (question is not None) - RECENT_TURNS_IN_FULL
    for index, turn in enumerate(turns()):
        _render_turn(index, turn, settings, in_full=index >= shown_in_full)
    if question is not None:
        options = _follow_up_options()
        turn = ChatTurn(question=question.strip() or "…")
        turns().append(turn)
        with st.chat_message("user"):
            st.markdown(_quote(turn.question))
        with st.chat_message("assistant"):
            ask(turn, question, options, settings)
            turn.view = _answer_view(turn.answer)
            _render_body(len(turns()) - 1, turn, settings)
    else:
        _after_drawing(settings, starters)
    if needs_preload:  # last, so the messages above keep their place in the page from one run to the next
        preload_components()


def _after_drawing(settings: Settings, starters: DeltaGenerator | None) -> None:
    """Once the page is drawn: build the engine (once per session) and offer the empty chat's questions."""
    first = not st.session_state.get(WARMED)
    engine = engine_access.get_engine(settings) if first else None  # built once per server
    st.session_state[WARMED] = True
    if starters is not None:
        questions = starter_questions(settings, engine)
        if questions:
            with starters.container():
                _question_buttons(questions, t("starters_title", settings.ui_language), key="starter")
    if first:
        time.sleep(PRELOAD_AFTER_S)


def starter_questions(settings: Settings, engine: engine_access.EngineLike | None = None) -> list[str]:
    """Questions Aria can answer right now, in the UI language: the semantic layer's, then one or two
    verified examples from the KB. Found once per session (parsing a few questions is cheap, not free);
    without an engine (no database yet) there are none until the next session."""
    language = settings.ui_language
    cached = st.session_state.get(STARTERS)
    if cached is not None and cached[0] == language:
        return list(cached[1])
    from aria.semantic.suggest import starter_questions as from_metrics  # loaded after the first paint

    engine = engine or engine_access.get_engine(settings)
    layer = engine_access.semantic_layer(engine)
    found = from_metrics(layer, language, limit=STARTER_METRIC_QUESTIONS) if layer is not None else []
    kb = engine_access.knowledge_base(engine)
    if kb is not None:
        found += kb_access.example_questions(kb, language, limit=STARTER_VERIFIED_QUESTIONS, exclude=found)
    st.session_state[STARTERS] = (language, tuple(found))
    return found


def _pick(question: str) -> None:
    st.session_state[PICKED] = question


def _question_buttons(questions: list[str], title: str, *, key: str) -> None:
    """One button per question; a click asks it, like typing it into the chat input."""
    st.caption(title)
    with st.container(horizontal=True):
        for n, question in enumerate(questions):
            st.button(question, key=f"{key}{n}", on_click=_pick, args=(question,), icon=":material/chat_bubble:")


def _follow_up_options() -> AskOptions:
    previous = next((tn.answer for tn in reversed(turns()) if tn.answer is not None and tn.answer.sql), None)
    if previous is None:
        return AskOptions()
    return AskOptions(previous_question=previous.question, previous_sql=previous.sql)


def ask(turn: ChatTurn, question: str, options: AskOptions, settings: Settings) -> None:
    """Ask the engine while a status line shows each step as it finishes (the engine's stream). The
    engine checks the question: a refused one comes back as an error answer saying why."""
    if not auth.refuse_unless("ask"):
        return
    live = st.empty()  # not st.status: creating one sleeps 50 ms in Streamlit, on every answer
    live.caption(f":material/progress_activity: {t('thinking', settings.ui_language)}")
    options = options.model_copy(update={"asked_by": auth.asked_by()})  # the query log names who asked
    try:
        for chunk in engine_access.get_engine(settings).stream(Question(text=question, options=options)):
            if isinstance(chunk, Answer):
                turn.answer = chunk
                continue
            label = progress_label(chunk, settings)
            turn.progress.append(label)
            live.caption(f":material/progress_activity: {label}")
    except AriaError as err:
        log.warning("question failed: %s", err)
        turn.message = str(err)
    with live.container():
        _render_progress(turn, settings.ui_language, failed=turn.message is not None)


def _render_progress(turn: ChatTurn, language: Language, *, failed: bool = False) -> None:
    """The finished steps, collapsed: one expander and one block of text."""
    if not turn.progress:
        return
    icon = ":material/error:" if failed else ":material/check_circle:"
    with st.expander(_done_label(turn, language), icon=icon):
        st.markdown(_progress_markdown(turn.progress))


def _answer_view(answer: Answer | None) -> ResultView | None:
    if answer is None or not answer.columns:
        return None
    return build_view(answer.columns, answer.rows, question=answer.question, truncated=answer.truncated)


def _progress_markdown(lines: list[str]) -> str:
    """The steps as one block (one element per line made every rerun and redraw slower)."""
    return "  \n".join(f"{n}. {line}" for n, line in enumerate(lines, 1))


def _done_label(turn: ChatTurn, language: Language) -> str:
    return t("done_steps", language, n=len(turn.progress)) if turn.progress else t("done", language)


def _quote(text: str) -> str:
    """User text shown as text, not as markdown (a 2,000-character question stays readable)."""
    shown = text if len(text) <= 300 else text[:300] + f"… ({len(text)} characters)"
    return shown.replace("\\", "\\\\").replace("*", "\\*").replace("_", "\\_").replace("#", "\\#")


def _render_turn(index: int, turn: ChatTurn, settings: Settings, *, in_full: bool = True) -> None:
    """A past turn: the question, the collapsed progress, and the answer. An older answer shows its
    sentence, with its table, chart, SQL and trace behind a switch: every question redraws the page, so
    a long conversation would otherwise make each new answer slower (``aria bench ui``)."""
    with st.chat_message("user"):
        st.markdown(_quote(turn.question))
    with st.chat_message("assistant"):
        if in_full or turn.answer is None or turn.message:
            _render_progress(turn, settings.ui_language, failed=turn.message is not None)
            _render_body(index, turn, settings)
            return
        _render_answer_text(index, turn.answer, settings.ui_language)
        if st.toggle(t("show_details", settings.ui_language), key=f"details{index}"):
            _render_progress(turn, settings.ui_language)
            _render_answer_details(index, turn, turn.answer, settings)


def _render_body(index: int, turn: ChatTurn, settings: Settings) -> None:
    if turn.message:
        st.warning(turn.message)
    elif turn.answer is not None:
        _render_answer(index, turn, turn.answer, settings)


def _render_answer(index: int, turn: ChatTurn, answer: Answer, settings: Settings) -> None:
    _render_answer_text(index, answer, settings.ui_language)
    _render_answer_details(index, turn, answer, settings)


def _render_answer_text(index: int, answer: Answer, language: Language) -> None:
    if answer.status == "error":
        st.error(answer.error or answer.answer_text)
    elif answer.status == "no_model":
        st.warning(answer.answer_text)  # it names the tables that look relevant
    elif answer.status == "not_confident":
        st.warning(answer.answer_text)
    else:
        st.markdown(answer.answer_text)
    if answer.suggestions:  # nearby questions Aria can answer now (an honest "no" with no model)
        _question_buttons(answer.suggestions, t("suggestions_title", language), key=f"suggest{index}_")


def _render_answer_details(index: int, turn: ChatTurn, answer: Answer, settings: Settings) -> None:
    """The table, chart and CSV, then the SQL, trace and feedback."""
    if answer.columns:
        if turn.view is None:
            turn.view = _answer_view(answer)
        if turn.view is not None:
            draw_view(turn.view, language=settings.ui_language, key=f"turn{index}")
    _render_actions(index, turn, answer, settings)


@st.fragment
def _render_actions(index: int, turn: ChatTurn, answer: Answer, settings: Settings) -> None:
    """SQL, trace and feedback: a fragment, so a click here reruns only this answer's part."""
    if answer.sql:
        _render_sql_editor(index, turn, answer, settings)
    render_trace(answer, settings, title=t("trace", settings.ui_language), key=f"trace{index}")
    if answer.status in FEEDBACK_STATUSES and answer.sql:
        _render_feedback(index, turn, answer, settings)


def _render_sql_editor(index: int, turn: ChatTurn, answer: Answer, settings: Settings) -> None:
    language = settings.ui_language
    if not auth.permitted("run_sql"):  # a viewer reads the SQL; running edited SQL is the workbench's (manager)
        with st.expander("SQL", icon=":material/code:"):
            st.code(answer.sql or "", language="sql")
        return
    with st.expander("SQL", icon=":material/code:"):
        edited = st.text_area(t("sql_label", language), value=answer.sql or "", key=f"sql{index}", height=160)
        if st.button(t("rerun", language), key=f"rerun{index}", icon=":material/play_arrow:") and \
                auth.refuse_unless("run_sql"):
            try:
                run = run_sql(edited, settings)
                view = build_view(run.columns, run.rows, question=answer.question, truncated=run.truncated)
                turn.rerun = RerunResult(edited, run.columns, run.rows, run.truncated, view=view)
            except AriaError as err:
                turn.rerun = RerunResult(edited, error=str(err))
    if turn.rerun is not None:
        if turn.rerun.error:
            st.error(turn.rerun.error)
        elif turn.rerun.view is not None:
            st.caption("Result of the edited SQL:")
            draw_view(turn.rerun.view, language=language, key=f"rerun{index}")


def _render_feedback(index: int, turn: ChatTurn, answer: Answer, settings: Settings) -> None:
    language = settings.ui_language
    if turn.feedback == "confirmed":
        st.success(t("confirmed", language))
        return
    if turn.feedback == "rejected":
        st.info(t("rejected", language))
        return
    if not auth.permitted("confirm"):  # a viewer sees answers and traces; confirming is a manager's
        return
    engine = engine_access.get_engine(settings)
    left, right, _ = st.columns([1, 1, 4])
    if left.button(t("confirm", language), key=f"confirm{index}", icon=":material/check:", type="primary"):
        try:
            turn.proposal = engine.propose(answer)
            turn.confirming, turn.rejecting = True, False
        except AriaError as err:
            st.error(str(err))
    if right.button(t("reject", language), key=f"reject{index}", icon=":material/close:"):
        turn.rejecting, turn.confirming = True, False
    if turn.confirming:
        _render_confirm(index, turn, answer, engine, language)
    if turn.rejecting:
        _render_reject(index, turn, answer, engine, language)


def _render_confirm(index: int, turn: ChatTurn, answer: Answer, engine: engine_access.EngineLike,
                    language: Language) -> None:
    with st.container(border=True):
        st.markdown(f"**{t('kb_would_gain', language)}**")
        lines = engine_access.proposal_lines(turn.proposal)
        st.markdown("\n".join(f"- {line}" for line in lines) or "- (nothing new)")
        if st.button(t("confirm_apply", language), key=f"apply{index}", type="primary"):
            if turn.proposal is None or not auth.refuse_unless("confirm"):
                return
            try:
                engine.confirm(turn.proposal, confirmed_by=auth.audit_name("chat"))
            except AriaError as err:
                st.error(str(err))
                return
            turn.feedback, turn.confirming = "confirmed", False
            st.rerun()


def _render_reject(index: int, turn: ChatTurn, answer: Answer, engine: engine_access.EngineLike,
                   language: Language) -> None:
    with st.container(border=True):
        reason = st.text_input(t("reject_reason", language), key=f"reason{index}")
        if st.button(t("reject_send", language), key=f"send{index}"):
            if not auth.refuse_unless("reject"):
                return
            try:
                engine.reject(answer, reason=reason.strip(), rejected_by=auth.audit_name("chat"))
            except AriaError as err:
                st.error(str(err))
                return
            turn.feedback, turn.feedback_note, turn.rejecting = "rejected", reason.strip(), False
            st.rerun()
