"""The History page: past questions from the query log, with status, scores, time and trace."""

from __future__ import annotations

import json
from typing import Any

import pandas as pd
import streamlit as st

from aria.errors import AriaError
from aria.reflect.answer import Answer
from aria.reflect.trace import Trace
from aria.ui import kb_access
from aria.ui.resources import current_settings, current_targets
from aria.ui.results import render_result
from aria.ui.sql_access import run_sql
from aria.ui.trace_view import headline_badges, render_trace

_STATUSES = ("answered", "reused", "not_confident", "no_model", "error")


def trace_of(raw: Any) -> Trace:
    """A logged trace (JSON text or a dict); an empty trace when it cannot be read."""
    data = json.loads(raw) if isinstance(raw, str) else raw
    try:
        return Trace.model_validate(data or {})
    except ValueError:
        return Trace()


def answer_of(row: pd.Series) -> Answer:
    status = row["status"] if row["status"] in _STATUSES else "error"
    return Answer(question=row["question"], status=status, answer_text="", sql=row["sql"], trace=trace_of(row["trace"]))


def render() -> None:
    settings = current_settings()
    st.title("History")
    try:
        targets = current_targets(settings)
        log = kb_access.query_log(settings, targets)
    except AriaError as err:
        st.info(str(err))
        return
    if log.empty:
        st.info("No questions asked yet. Ask one on the Chat page.")
        return
    answers = {int(row["id"]): answer_of(row) for _, row in log.iterrows()}
    table = pd.DataFrame([
        {"#": i, "when": row["created_at"], "question": row["question"], "status": row["status"],
         "scores": " ".join(f"{b.label} {b.value:.1f}" for b in headline_badges(answers[i].trace, settings)),
         "seconds": round(answers[i].trace.duration_ms / 1000, 1), "model calls": answers[i].trace.llm_calls}
        for i, row in ((int(r["id"]), r) for _, r in log.iterrows())
    ])
    st.dataframe(table, hide_index=True)
    chosen = st.selectbox("Question", list(answers), format_func=lambda i: f"#{i} {answers[i].question[:80]}",
                          key="history_pick")
    answer = answers[chosen]
    st.markdown(f"**{answer.question}** — {answer.status}")
    if answer.sql:
        st.code(answer.sql, language="sql")
        if st.button("Re-run", key="history_rerun", icon=":material/play_arrow:"):
            try:
                run = run_sql(answer.sql, settings)
                render_result(run.columns, run.rows, question=answer.question, truncated=run.truncated,
                              language=settings.ui_language, key="history_result")
            except AriaError as err:
                st.error(str(err))
    render_trace(answer, settings, title="Trace", key="history_trace")
