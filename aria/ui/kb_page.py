"""The Knowledge Base page: what Aria knows about the tables, the semantic layer's metrics (and the phrases
managers taught it), its glossary, verified examples, and every change (with undo)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd
import streamlit as st

from aria.config import Settings
from aria.db.connect import Targets
from aria.errors import AriaError
from aria.ui import auth, engine_access, kb_access
from aria.ui.formatting import Language, columns_of, t
from aria.ui.history_page import local_time
from aria.ui.resources import current_settings, current_targets

if TYPE_CHECKING:
    from aria.semantic.catalog import Labels, SemanticCatalog

EDITING = "kb_edit_for"  # the (table, column) whose description the edit box holds
EDIT_TEXT = "kb_edit_text"


def render() -> None:
    settings = current_settings()
    language = settings.ui_language
    st.title(t("nav_kb", language))
    try:
        targets = current_targets(settings)
        built = kb_access.kb_exists(settings, targets)
    except AriaError as err:
        st.error(str(err))
        return
    if not built:
        st.info(kb_access.NOT_BUILT)
        return
    tabs = st.tabs(t("kb_tabs", language).split("|"))
    sections = (_catalog, _metrics, _glossary, _examples, _revisions)
    for tab, section in zip(tabs, sections, strict=True):
        with tab:
            try:
                section(settings, targets)
            except AriaError as err:
                st.error(str(err))


def _catalog(settings: Settings, targets: Targets) -> None:
    language = settings.ui_language
    df = kb_access.catalog(settings, targets)
    if df.empty:
        st.info(kb_access.NOT_BUILT)
        return
    tables = sorted(df["table_name"].dropna().unique())
    about = {r.table_name: r.description or "" for r in df[df["kind"] == "table"].itertuples()}
    widest = df[df["kind"] == "column"]["table_name"].value_counts()
    first = tables.index(widest.index[0]) if not widest.empty else 0  # open on the table with most columns
    chosen = st.selectbox(t("kb_table", language), tables, index=first, key="kb_table",
                          format_func=lambda name: _with_description(name, about.get(name, "")))
    rows = df[df["table_name"] == chosen]
    shown = rows[["kind", "column_name", "description", "source", "revision"]].fillna({"column_name": ""})
    shown.columns = columns_of("kb_columns", language)
    st.dataframe(shown, hide_index=True)
    if auth.permitted("kb_edit"):  # an admin's
        _edit_form(settings, targets, chosen, rows, language)


def _with_description(name: str, description: str, width: int = 70) -> str:
    """'orders — Đơn hàng: một lần khách gọi món…' for the table picker."""
    if not description:
        return name
    short = description if len(description) <= width else description[:width].rsplit(" ", 1)[0] + "…"
    return f"{name} — {short}"


def _edit_form(settings: Settings, targets: Targets, table: str, rows: pd.DataFrame, language: Language) -> None:
    """Pick the table or a column; its current description is there to be edited, then saved."""
    with st.container(border=True):
        st.markdown(f"**{t('kb_edit', language)}**")
        choices = [t("kb_the_table", language), *sorted(rows["column_name"].dropna().unique())]
        target = st.selectbox(t("kb_column", language), choices, key="kb_edit_column")
        column = None if target == choices[0] else target
        if st.session_state.get(EDITING) != (table, column):  # a new pick: start from its current text
            st.session_state[EDITING] = (table, column)
            st.session_state[EDIT_TEXT] = _current_description(rows, column)
        text = st.text_area(t("kb_new_text", language), key=EDIT_TEXT)
        if not st.button(t("kb_save", language), key="kb_save"):
            return
    if not text.strip():
        st.warning(t("kb_empty_text", language))
        return
    if not auth.refuse_unless("kb_edit"):
        return
    try:
        kb_access.edit_description(settings, targets, table=table, column=column, description=text.strip(),
                                   author=auth.audit_name("ui"))
        st.success(t("kb_saved", language))
    except AriaError as err:
        st.error(str(err))


def _current_description(rows: pd.DataFrame, column: str | None) -> str:
    match = rows[rows["column_name"] == column] if column else rows[rows["kind"] == "table"]
    return str(match["description"].iloc[0] or "") if not match.empty else ""


def _synonyms(labels: Labels) -> str:
    return ", ".join(dict.fromkeys((*labels.synonyms_vi, *labels.synonyms_en)))


def metric_frame(catalog: SemanticCatalog, language: Language) -> pd.DataFrame:
    """One row per metric: its name in the UI language, both labels, unit, definition, synonyms, id."""
    rows = [(m.labels.label(language), m.labels.vi, m.labels.en, m.unit, m.description, _synonyms(m.labels), m.name)
            for m in sorted(catalog.metrics.values(), key=lambda m: m.labels.label(language).lower())]
    return pd.DataFrame(rows, columns=columns_of("kb_metric_columns", language))


def concept_frame(catalog: SemanticCatalog, language: Language) -> pd.DataFrame:
    """One row per dimension concept (dish, category, shift ...) with its labels and synonyms."""
    rows = [(labels.label(language), labels.vi, labels.en, _synonyms(labels), concept)
            for concept, labels in sorted(catalog.concepts.items(), key=lambda c: c[1].label(language).lower())]
    return pd.DataFrame(rows, columns=columns_of("kb_concept_columns", language))


def _metrics(settings: Settings, targets: Targets) -> None:
    """The semantic layer's metrics and dimensions, as the engine loaded them."""
    language = settings.ui_language
    layer = engine_access.semantic_layer(engine_access.get_engine(settings))
    if layer is None:
        st.info(t("kb_semantic_off", language))
        return
    st.caption(t("kb_metrics_caption", language))
    st.dataframe(metric_frame(layer.catalog, language), hide_index=True)
    st.markdown(f"**{t('kb_concepts', language)}**")
    st.dataframe(concept_frame(layer.catalog, language), hide_index=True)
    _learned_phrases(settings, targets, layer.catalog, language)


_LEARNED = {
    "title": {"vi": "Cụm từ đã học", "en": "Learned phrases"},
    "none": {"vi": "Chưa học cụm từ nào.", "en": "No learned phrases yet."},
    "undo": {"vi": "Hoàn tác ở thẻ Lịch sử thay đổi (mỗi cụm từ là một bản sửa đổi).",
             "en": "Undo one in the revisions tab (each phrase is a revision)."},
    "add": {"vi": "Dạy Aria một cụm từ", "en": "Teach Aria a phrase"},
    "phrase": {"vi": "Cụm từ quản lý hay dùng", "en": "The words managers use"},
    "means": {"vi": "nghĩa là", "en": "means"},
    "save": {"vi": "Học cụm từ", "en": "Learn the phrase"},
    "saved": {"vi": "Đã học (bản sửa đổi #{n}).", "en": "Learned (revision #{n})."},
    "columns": {"vi": "Cụm từ|Loại|Nghĩa|Ngôn ngữ|Bản sửa đổi|Người dạy",
                "en": "Phrase|Kind|Means|Language|Revision|Taught by"},
}


def _learned_phrases(settings: Settings, targets: Targets, catalog: SemanticCatalog, language: Language) -> None:
    """The phrases managers taught (undo through the revisions tab) and, for managers, a form to add one."""
    from aria.kb.store import KnowledgeStore

    st.markdown(f"**{_LEARNED['title'][language]}**")
    learned = KnowledgeStore(targets.kb, settings).learned_synonyms(settings.business_schema)
    if learned:
        rows = [(s.phrase, s.kind, s.target, s.language, s.revision_id, s.created_by) for s in learned]
        st.dataframe(pd.DataFrame(rows, columns=_LEARNED["columns"][language].split("|")), hide_index=True)
        st.caption(_LEARNED["undo"][language])
    else:
        st.caption(_LEARNED["none"][language])
    if auth.permitted("confirm"):  # what a manager may confirm, a manager may teach
        _synonym_form(settings, targets, catalog, language)


def _synonym_form(settings: Settings, targets: Targets, catalog: SemanticCatalog, language: Language) -> None:
    choices = [("metric", m.name, m.labels.label(language)) for m in catalog.metrics.values()]
    choices += [("concept", c, labels.label(language)) for c, labels in catalog.concepts.items()]
    with st.form("kb_synonym_form", border=True):
        st.markdown(f"**{_LEARNED['add'][language]}**")
        phrase = st.text_input(_LEARNED["phrase"][language], key="kb_synonym_phrase")
        kind, target, _ = st.selectbox(_LEARNED["means"][language], sorted(choices, key=lambda c: c[2].lower()),
                                       format_func=lambda c: f"{c[2]} ({c[1]})", key="kb_synonym_target")
        if not st.form_submit_button(_LEARNED["save"][language]) or not phrase.strip():
            return
    if not auth.refuse_unless("confirm"):
        return
    from aria.reflect.synonyms import teach_from_settings

    try:
        revision = teach_from_settings(settings, targets, phrase.strip(), kind, target, language=language,
                                       author=auth.audit_name("ui"))
        st.success(_LEARNED["saved"][language].format(n=revision.id))
    except AriaError as err:
        st.error(str(err))


def _glossary(settings: Settings, targets: Targets) -> None:
    df = kb_access.glossary(settings, targets)
    if df.empty:
        st.info(t("kb_no_glossary", settings.ui_language))
        return
    st.dataframe(df, hide_index=True)


def _examples(settings: Settings, targets: Targets) -> None:
    df = kb_access.verified_queries(settings, targets)
    if df.empty:
        st.info(t("kb_no_examples", settings.ui_language))
        return
    df["created_at"] = df["created_at"].map(lambda v: local_time(v, settings.timezone))
    st.dataframe(df, hide_index=True)


def revision_frame(df: pd.DataFrame, settings: Settings) -> pd.DataFrame:
    """Revisions for reading: local time, no raw JSON payload, labels in the UI language."""
    shown = df[["id", "created_at", "author", "kind", "question", "undone"]].copy()
    shown["created_at"] = shown["created_at"].map(lambda v: local_time(v, settings.timezone))
    shown["question"] = shown["question"].fillna("")
    shown.columns = columns_of("kb_revision_columns", settings.ui_language)
    return shown


def _revisions(settings: Settings, targets: Targets) -> None:
    language = settings.ui_language
    df = kb_access.revisions(settings, targets)
    if df.empty:
        st.info(t("kb_no_revisions", language))
        return
    st.dataframe(revision_frame(df, settings), hide_index=True)
    open_ids = [int(i) for i in df.loc[~df["undone"].astype(bool), "id"]]
    if not open_ids or not auth.permitted("kb_undo"):  # undo is an admin's
        return
    chosen = st.selectbox(t("kb_undo_pick", language), open_ids, key="kb_undo_id")
    if st.button(t("kb_undo", language), key="kb_undo") and auth.refuse_unless("kb_undo"):
        try:
            kb_access.undo_revision(settings, targets, chosen, by=auth.audit_name("ui"))
            st.success(t("kb_undone", language, n=chosen))
        except AriaError as err:
            st.error(str(err))
