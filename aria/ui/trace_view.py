"""The trace panel under every answer: score badges at a glance, every step on expand.

The pure functions (badges, diffs, progress labels) are unit-tested; :func:`render_trace` only
lays their output out with Streamlit.
"""

from __future__ import annotations

import difflib
import html
import re
from dataclasses import dataclass
from typing import Literal

import streamlit as st

from aria.config import Settings
from aria.reflect.answer import Answer
from aria.reflect.trace import Loop, Score, Trace, TraceEvent
from aria.ui.formatting import Language, t

SCORE_LABELS = {
    "score_r": "Score_r", "relevance": "R", "completeness": "C",
    "s": "S", "column": "column", "granularity": "granularity", "join": "join", "logic": "logic",
    "e": "E", "schema": "E_schema", "data": "E_data",
}
_FAMILY = {
    "score_r": "r", "relevance": "r", "completeness": "r",
    "s": "s", "column": "s", "granularity": "s", "join": "s", "logic": "s",
    "e": "e", "schema": "e", "data": "e",
}
HEADLINE_SCORES = ("score_r", "s", "e")
_TEST_MODEL_NOTE = re.compile(r" \(test model[^)]*\)")  # aria.llm.spec.TEST_MODEL_NOTE, said by origin_note
Colour = Literal["green", "orange", "red", "gray"]


@dataclass(frozen=True)
class Badge:
    key: str
    label: str
    value: float
    scale: float
    threshold: float | None
    reason: str

    @property
    def passed(self) -> bool | None:
        return None if self.threshold is None else self.value >= self.threshold

    @property
    def colour(self) -> Colour:
        if self.threshold is None:
            return "gray"
        if self.value >= self.threshold:
            return "green"
        return "orange" if self.value >= self.threshold * 0.75 else "red"

    def markdown(self) -> str:
        comparison = "" if self.threshold is None else (" ≥ " if self.passed else " < ") + f"{self.threshold:g}"
        text = f"{self.label} {self.value:.1f}/{self.scale:g}{comparison}"
        return f":{self.colour}-badge[{_escape_badge(text)}]"


def _escape_badge(text: str) -> str:
    return text.replace("[", "(").replace("]", ")")


def threshold_for(key: str, settings: Settings) -> tuple[float, float]:
    """(threshold, scale) a score is read against: θ_r, θ_s on 0-10 and θ_e on 0-5."""
    family = _FAMILY.get(key)
    if family == "r":
        return settings.theta_r, 10.0
    if family == "s":
        return settings.theta_s, 10.0
    return settings.theta_e, 5.0


def badge(key: str, score: Score, settings: Settings) -> Badge:
    threshold, scale = threshold_for(key, settings)
    return Badge(key, SCORE_LABELS.get(key, key), score.value, scale, threshold, score.reason)


def event_badges(event: TraceEvent, settings: Settings) -> list[Badge]:
    """The event's scores in a stable order (aggregate first, then its dimensions)."""
    order = list(SCORE_LABELS)
    keys = sorted(event.scores, key=lambda k: order.index(k) if k in order else len(order))
    return [badge(k, event.scores[k], settings) for k in keys]


def headline_badges(trace: Trace, settings: Settings) -> list[Badge]:
    """The last Score_r, S and E the trace recorded: what decided the answer."""
    latest: dict[str, Score] = {}
    for event in trace.events:
        for key in HEADLINE_SCORES:
            if key in event.scores:
                latest[key] = event.scores[key]
    return [badge(k, latest[k], settings) for k in HEADLINE_SCORES if k in latest]


def question_diff_html(before: str, after: str) -> str:
    """A word diff of a rewritten question: removed words struck through, added words bold green.

    Every word is HTML-escaped, so the result is safe to render with ``unsafe_allow_html``.
    """
    old, new = before.split(), after.split()
    parts: list[str] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=old, b=new).get_opcodes():
        if op in ("delete", "replace"):
            parts.append(f"<del style='color:#b42318'>{html.escape(' '.join(old[i1:i2]))}</del>")
        if op in ("insert", "replace"):
            parts.append(f"<ins style='color:#067647;text-decoration:none'><b>{html.escape(' '.join(new[j1:j2]))}</b></ins>")
        if op == "equal":
            parts.append(html.escape(" ".join(old[i1:i2])))
    return " ".join(parts)


def sql_diff(before: str, after: str) -> str:
    """A unified diff between two SQL attempts (empty when they are the same)."""
    lines = difflib.unified_diff(
        before.strip().splitlines(), after.strip().splitlines(), "previous", "this attempt", lineterm="", n=2
    )
    return "\n".join(lines)


def loop_title(loop: Loop, language: Language) -> str:
    return t(f"loop_{loop}", language)


def origin_note(answer: Answer, language: Language = "en") -> str | None:
    """Say plainly where an answer came from when it was not a live model's work.

    >>> origin_note(Answer(question="q", semantic_query="Revenue · by category"), "en")
    'Answered from the semantic layer: Revenue · by category'
    """
    notes = []
    if answer.semantic_query:
        notes.append(t("origin_semantic", language, words=answer.semantic_query))
    if answer.reused_query_id is not None:
        notes.append(t("origin_reused", language, n=answer.reused_query_id))
    label = answer.trace.model_label
    if label.startswith("scripted") or "test model" in label:
        notes.append(t("origin_scripted", language, script=label.split()[0].removeprefix("scripted:")))
    return " ".join(notes) or None


_STEP_LINES = {"retrieve": "step_retrieve", "rewrite": "step_rewrite", "generate": "step_generate",
               "guard": "step_check", "explain": "step_check", "repair": "step_repair", "execute": "step_execute",
               "reuse_match": "step_reuse_match", "semantic_parse": "step_semantic_parse"}


def progress_label(event: TraceEvent, settings: Settings) -> str:
    """One line for the live progress, e.g. 'Retrieving schema… Score_r 3.2 < 4, rewriting…' (in the UI language)."""
    language = settings.ui_language
    if event.error:
        return f"{event.step}: {event.error}"
    if "score_r" in event.scores:
        value = event.scores["score_r"].value
        passed = value >= settings.theta_r
        verdict = t("verdict_ok" if passed else "verdict_rewrite", language)
        return f"{t('step_retrieve', language)} Score_r {value:.1f} {'≥' if passed else '<'} {settings.theta_r:g}, {verdict}"
    if "s" in event.scores:
        value = event.scores["s"].value
        verdict = t("verdict_ok" if value >= settings.theta_s else "verdict_regenerate", language)
        return f"{t('step_check', language)} S {value:.1f} ({verdict})"
    if "e" in event.scores:
        value = event.scores["e"].value
        verdict = t("verdict_ok" if value >= settings.theta_e else "verdict_retry", language)
        return f"{t('step_verify', language)} E {value:.1f} ({verdict})"
    if event.step in _STEP_LINES:
        return t(_STEP_LINES[event.step], language)
    return f"{loop_title(event.loop, language)}: {event.step}…"


def render_trace(answer: Answer, settings: Settings, *, title: str, key: str) -> None:
    """Badges in one line, then every loop and iteration once the reader switches the steps on.

    The steps (tabs, highlighted SQL, diffs) are only sent to the browser when asked for: rendering
    them under every answer doubled the time from Enter to the table and chart (``aria bench ui``).
    """
    trace = answer.trace
    badges = headline_badges(trace, settings)
    note = origin_note(answer, settings.ui_language)  # says in the UI language what the test-model label says
    facts = t("trace_facts", settings.ui_language, seconds=trace.duration_ms / 1000, calls=trace.llm_calls)
    if trace.model_label and trace.model_label != "none":
        facts += " · " + (_TEST_MODEL_NOTE.sub("", trace.model_label) if note else trace.model_label)
    st.markdown(" ".join(b.markdown() for b in badges) + f"  \n:gray[{html.escape(facts)}]")
    if note:
        st.info(note, icon=":material/verified:")
    if not st.toggle(title, key=f"{key}_steps"):
        return
    with st.container(border=True):
        loops = list(dict.fromkeys(e.loop for e in trace.events))
        if not loops:
            st.caption(t("no_steps", settings.ui_language))
            return
        for tab, loop in zip(st.tabs([loop_title(lp, settings.ui_language) for lp in loops]), loops, strict=True):
            with tab:
                _render_loop(answer.question, [e for e in trace.events if e.loop == loop], settings)


def _render_loop(question: str, events: list[TraceEvent], settings: Settings) -> None:
    previous_sql: str | None = None
    for event in events:
        facts = t("step_facts", settings.ui_language, iteration=event.iteration, ms=event.duration_ms,
                  calls=event.llm_calls)
        st.markdown(f"**{event.step}** · {facts}")
        for b in event_badges(event, settings):
            reason = f" — {html.escape(b.reason)}" if b.reason else ""
            st.markdown(f"{b.markdown()}{reason}")
        if event.rewritten_question:
            st.markdown("Q′: " + question_diff_html(question, event.rewritten_question), unsafe_allow_html=True)
        words_first = event.loop == "semantic" and bool(event.detail)  # the semantic query in words, then its SQL
        if words_first:
            st.markdown(f":material/functions: {html.escape(event.detail or '')}")
        if event.sql:
            if previous_sql and previous_sql.strip() != event.sql.strip():
                st.code(sql_diff(previous_sql, event.sql), language="diff")
            else:
                st.code(event.sql, language="sql")
            previous_sql = event.sql
        if event.error:
            st.error(event.error)
        for finding in event.findings:
            icon = {"hard": "⛔", "warning": "⚠️", "info": "ℹ️"}[finding.severity]
            st.markdown(f"{icon} `{finding.check}` ({finding.dimension}): {html.escape(finding.message)}")
        if event.row_count is not None:
            st.caption(t("n_rows", settings.ui_language, n=event.row_count))
        if event.detail and not words_first:
            st.caption(event.detail)
        st.divider()
