"""The Knowledge Base page: what Aria knows about the tables, its glossary, verified examples, and
every change (with undo)."""

from __future__ import annotations

import streamlit as st

from aria.config import Settings
from aria.errors import AriaError
from aria.ui import kb_access
from aria.ui.resources import current_settings, current_targets


def render() -> None:
    settings = current_settings()
    st.title("Knowledge Base")
    try:
        targets = current_targets(settings)
        built = kb_access.kb_exists(settings, targets)
    except AriaError as err:
        st.error(str(err))
        return
    if not built:
        st.info(kb_access.NOT_BUILT)
        return
    tabs = st.tabs(["Tables & columns", "Glossary", "Verified examples", "Revisions"])
    sections = (_catalog, _glossary, _examples, _revisions)
    for tab, section in zip(tabs, sections, strict=True):
        with tab:
            try:
                section(settings, targets)
            except AriaError as err:
                st.error(str(err))


def _catalog(settings: Settings, targets: object) -> None:
    df = kb_access.catalog(settings, targets)  # type: ignore[arg-type]
    if df.empty:
        st.info("No tables indexed yet.")
        return
    tables = sorted(df["table_name"].dropna().unique())
    chosen = st.selectbox("Table", tables, key="kb_table")
    rows = df[df["table_name"] == chosen]
    st.dataframe(rows[["kind", "column_name", "description", "source", "revision"]], hide_index=True)
    with st.form("kb_edit"):
        st.markdown("**Edit a description**")
        columns = ["(the table itself)"] + sorted(rows["column_name"].dropna().unique())
        target = st.selectbox("Column", columns, key="kb_edit_column")
        text = st.text_area("New description", key="kb_edit_text")
        if st.form_submit_button("Save description") and text.strip():
            column = None if target == columns[0] else target
            try:
                kb_access.edit_description(settings, targets, table=chosen, column=column,  # type: ignore[arg-type]
                                           description=text.strip())
                st.success("Saved as a new revision (undo it on the Revisions tab).")
            except AriaError as err:
                st.error(str(err))


def _glossary(settings: Settings, targets: object) -> None:
    df = kb_access.glossary(settings, targets)  # type: ignore[arg-type]
    st.dataframe(df, hide_index=True) if not df.empty else st.info("No glossary entries.")


def _examples(settings: Settings, targets: object) -> None:
    df = kb_access.verified_queries(settings, targets)  # type: ignore[arg-type]
    if df.empty:
        st.info("No verified queries yet: confirm a good answer in Chat, or save one from the SQL Workbench.")
        return
    st.dataframe(df, hide_index=True)


def _revisions(settings: Settings, targets: object) -> None:
    df = kb_access.revisions(settings, targets)  # type: ignore[arg-type]
    if df.empty:
        st.info("No changes yet. Every confirmed answer and every edit appears here, and can be undone.")
        return
    st.dataframe(df, hide_index=True)
    open_ids = [int(i) for i in df.loc[~df["undone"], "id"]]
    if not open_ids:
        return
    chosen = st.selectbox("Revision to undo", open_ids, key="kb_undo_id")
    if st.button("Undo this revision", key="kb_undo"):
        try:
            kb_access.undo_revision(settings, targets, chosen)  # type: ignore[arg-type]
            st.success(f"Revision #{chosen} undone.")
        except AriaError as err:
            st.error(str(err))
