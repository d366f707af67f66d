"""The History page: past questions from the query log, with status, scores, time and trace."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import pandas as pd
import streamlit as st

from aria.config import Settings
from aria.errors import AriaError
from aria.reflect.answer import Answer
from aria.reflect.trace import Trace
from aria.ui import auth, kb_access
from aria.ui.formatting import Language, columns_of, t
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
    return Answer.model_validate({"question": row["question"], "status": status, "answer_text": "",
                                  "sql": row["sql"], "trace": trace_of(row["trace"])})


def local_time(value: Any, timezone: str) -> str:
    """A logged timestamp as the restaurant reads it: '15/11/2026 19:40' in its own time zone."""
    if not isinstance(value, datetime):
        return "" if value is None else str(value)
    if value.tzinfo is not None:
        value = value.astimezone(ZoneInfo(timezone))
    return value.strftime("%d/%m/%Y %H:%M")


def status_label(status: str, language: Language) -> str:
    return t(f"status_{status}", language) if status in _STATUSES else status


def history_frame(log: pd.DataFrame, answers: dict[int, Answer], settings: Settings) -> pd.DataFrame:
    language = settings.ui_language
    rows = []
    for _, row in log.iterrows():
        answer = answers[int(row["id"])]
        scores = " ".join(f"{b.label} {b.value:.1f}" for b in headline_badges(answer.trace, settings))
        rows.append([int(row["id"]), local_time(row["created_at"], settings.timezone), row["question"],
                     status_label(answer.status, language), scores, round(answer.trace.duration_ms / 1000, 1),
                     answer.trace.llm_calls])
    return pd.DataFrame(rows, columns=columns_of("history_columns", language))


def render() -> None:
    settings = current_settings()
    language = settings.ui_language
    st.title(t("nav_history", language))
    user = auth.require("page:history")
    everyone = auth.permitted("history_everyone")  # a viewer sees their own questions only
    try:
        targets = current_targets(settings)
        person = _pick_person(kb_access.askers(settings, targets), language) if everyone else user.name
        log = kb_access.query_log(settings, targets, asked_by=person)
    except AriaError as err:
        st.info(str(err))
        return
    if log.empty:
        st.info(t("history_empty", language))
        return
    answers = {int(row["id"]): answer_of(row) for _, row in log.iterrows()}
    st.dataframe(history_frame(log, answers, settings), hide_index=True)
    chosen = st.selectbox(t("history_pick", language), list(answers),
                          format_func=lambda i: f"#{i} {answers[i].question[:80]}", key="history_pick")
    answer = answers[chosen]
    st.markdown(f"**{answer.question}** — {status_label(answer.status, language)}")
    if answer.sql:
        st.code(answer.sql, language="sql")
        if auth.permitted("run_sql") and st.button(t("rerun", language), key="history_rerun",
                                                   icon=":material/play_arrow:") and auth.refuse_unless("run_sql"):
            try:
                run = run_sql(answer.sql, settings)
                render_result(run.columns, run.rows, question=answer.question, truncated=run.truncated,
                              language=language, key="history_result")
            except AriaError as err:
                st.error(str(err))
    render_trace(answer, settings, title=t("history_trace", language), key="history_trace")



def _pick_person(people: list[str], language: Language) -> str | None:
    """Whose questions to list (None: everyone's); "" is the local operator or the CLI."""
    if not [p for p in people if p]:
        return None
    everyone = "— " + ("mọi người" if language == "vi" else "everyone") + " —"
    local = "(" + ("máy này / CLI" if language == "vi" else "this machine / CLI") + ")"
    chosen = st.selectbox("Người hỏi" if language == "vi" else "Asked by", [everyone, *people], key="history_person",
                          format_func=lambda p: p or local)
    return None if chosen == everyone else chosen
