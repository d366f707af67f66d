"""The SQL Workbench: write SQL, run it through the same guards as generated SQL, see the checks,
and save it with its question as a verified query."""

from __future__ import annotations

import streamlit as st

from aria.config import Settings
from aria.errors import AriaError
from aria.ui import auth, kb_access
from aria.ui.formatting import Language, t
from aria.ui.resources import current_settings, current_targets
from aria.ui.results import render_result
from aria.ui.sql_access import SqlRun, run_sql
from aria.ui.state import WORKBENCH, init_state

EXAMPLE_SQL = """SELECT c.name_vi AS nhom_mon, sum(oi.line_total_vnd) AS doanh_thu_vnd
FROM order_items oi
JOIN menu_items m ON m.item_id = oi.item_id
JOIN categories c ON c.category_id = m.category_id
WHERE oi.line_status NOT IN ('VD', 'CXL')
GROUP BY c.name_vi
ORDER BY doanh_thu_vnd DESC"""


def render() -> None:
    settings = current_settings()
    language = settings.ui_language
    init_state()
    st.title(t("nav_workbench", language))
    st.caption(t("wb_caption", language))
    sql_text = st.text_area("SQL", value=EXAMPLE_SQL, height=200, key="wb_sql")
    if st.button(t("wb_run", language), key="wb_run", type="primary", icon=":material/play_arrow:") and \
            auth.refuse_unless("run_sql"):
        try:
            st.session_state[WORKBENCH] = run_sql(sql_text, settings)
        except AriaError as err:
            st.session_state[WORKBENCH] = None
            st.error(str(err))
    run: SqlRun | None = st.session_state[WORKBENCH]
    if run is None:
        return
    st.caption(t("wb_rows", language, n=f"{len(run.rows):,}".replace(",", "."), ms=f"{run.duration_ms:.0f}"))
    render_result(run.columns, run.rows, question="", truncated=run.truncated,
                  language=settings.ui_language, key="wb_result")
    _render_findings(run, language)
    _render_save(run, settings)


def _render_findings(run: SqlRun, language: Language) -> None:
    st.subheader(t("wb_checks", language))
    if not run.findings:
        st.success(t("wb_no_findings", language))
    for finding in run.findings:
        show = {"hard": st.error, "warning": st.warning, "info": st.info}[finding.severity]
        show(f"{finding.check} ({finding.dimension}): {finding.message}")


def _render_save(run: SqlRun, settings: Settings) -> None:
    language = settings.ui_language
    with st.form("wb_save"):
        question = st.text_input(t("wb_question", language), key="wb_question")
        if not st.form_submit_button(t("wb_save", language)):
            return
    if not question.strip():
        st.warning(t("wb_need_question", language))
        return
    if not auth.refuse_unless("save_verified_query"):
        return
    try:
        kb_access.save_verified_query(settings, current_targets(settings), question=question.strip(), sql_text=run.sql,
                                      author=auth.audit_name("workbench"))
        st.success(t("wb_saved", language))
    except AriaError as err:
        st.error(str(err))
