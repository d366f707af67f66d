"""The SQL Workbench: write SQL, run it through the same guards as generated SQL, see the checks,
and save it with its question as a verified query."""

from __future__ import annotations

import streamlit as st

from aria.errors import AriaError
from aria.ui import kb_access
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
    init_state()
    st.title("SQL Workbench")
    st.caption("Read-only: every statement passes the safety guard and the cost guard, then runs as the "
               "read-only role with a time limit.")
    sql_text = st.text_area("SQL", value=EXAMPLE_SQL, height=200, key="wb_sql")
    if st.button("Run", key="wb_run", type="primary", icon=":material/play_arrow:"):
        try:
            st.session_state[WORKBENCH] = run_sql(sql_text, settings)
        except AriaError as err:
            st.session_state[WORKBENCH] = None
            st.error(str(err))
    run: SqlRun | None = st.session_state[WORKBENCH]
    if run is None:
        return
    st.caption(f"{len(run.rows)} rows in {run.duration_ms:.0f} ms")
    render_result(run.columns, run.rows, question="", truncated=run.truncated,
                  language=settings.ui_language, key="wb_result")
    _render_findings(run)
    _render_save(run, settings)


def _render_findings(run: SqlRun) -> None:
    st.subheader("Checks")
    if not run.findings:
        st.success("No findings from the deterministic checks.")
    for finding in run.findings:
        show = {"hard": st.error, "warning": st.warning, "info": st.info}[finding.severity]
        show(f"{finding.check} ({finding.dimension}): {finding.message}")


def _render_save(run: SqlRun, settings: object) -> None:
    with st.form("wb_save"):
        question = st.text_input("Question this SQL answers", key="wb_question")
        if st.form_submit_button("Save as verified query") and question.strip():
            try:
                targets = current_targets(settings)  # type: ignore[arg-type]
                kb_access.save_verified_query(settings, targets, question=question.strip(),  # type: ignore[arg-type]
                                              sql_text=run.sql)
                st.success("Saved: questions like this one will reuse it.")
            except AriaError as err:
                st.error(str(err))
