"""The one place the UI (and ``aria demo``) reaches the knowledge base.

Reads go through :class:`aria.kb.store.KnowledgeStore`; when the KB has not been built every
reader returns :data:`NOT_BUILT` so pages can say "run aria kb build" instead of failing.
Writes (description edits, undo, building) call the KB's own functions when this build has them.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable
from typing import Any

import pandas as pd
from psycopg import sql

from aria.config import Settings
from aria.db.connect import Targets
from aria.errors import KnowledgeBaseError

log = logging.getLogger(__name__)

NOT_BUILT = "The knowledge base is not built yet — run `aria kb build` (or `aria demo`, which builds it)."


def _store(settings: Settings, targets: Targets) -> Any:
    from aria.kb.store import KnowledgeStore

    return KnowledgeStore(targets.kb, settings)


def kb_exists(settings: Settings, targets: Targets) -> bool:
    store = _store(settings, targets)
    try:
        return bool(store.exists())
    finally:
        store.close()


def _read(settings: Settings, targets: Targets, query: str, params: tuple[Any, ...] = (),
          tables: tuple[str, ...] = ()) -> pd.DataFrame:
    """Rows of a read-only query over the KB tables ({0}, {1}, ... are the tables, schema-qualified)."""
    store = _store(settings, targets)
    try:
        if not store.exists():
            raise KnowledgeBaseError(NOT_BUILT)
        statement = sql.SQL(query).format(*[store.ident(t) for t in tables])
        cur = store.shared().execute(statement, params)
        columns = [d.name for d in cur.description or []]
        return pd.DataFrame(cur.fetchall(), columns=columns)
    finally:
        store.close()


def catalog(settings: Settings, targets: Targets) -> pd.DataFrame:
    """Tables and columns with their descriptions (one row per document)."""
    return _read(settings, targets,
                 "SELECT db_name, kind, table_name, column_name, source, revision, data->>'description' AS "
                 "description, text FROM {0} WHERE kind IN ('table', 'column') "
                 "ORDER BY db_name, table_name, kind DESC, column_name", tables=("documents",))


def glossary(settings: Settings, targets: Targets) -> pd.DataFrame:
    return _read(settings, targets,
                 "SELECT db_name, doc_key, source, text FROM {0} WHERE kind = 'glossary' ORDER BY doc_key",
                 tables=("documents",))


def verified_queries(settings: Settings, targets: Targets) -> pd.DataFrame:
    return _read(settings, targets,
                 "SELECT id, db_name, question, sql, source, created_at FROM {0} ORDER BY id DESC",
                 tables=("verified_queries",))


def revisions(settings: Settings, targets: Targets) -> pd.DataFrame:
    return _read(settings, targets,
                 "SELECT id, created_at, author, kind, question, payload, undone FROM {0} ORDER BY id DESC",
                 tables=("revisions",))


def query_log(settings: Settings, targets: Targets, *, limit: int = 200) -> pd.DataFrame:
    return _read(settings, targets,
                 "SELECT id, created_at, question, sql, status, trace FROM {0} ORDER BY id DESC LIMIT %s",
                 (limit,), tables=("query_log",))


def _kb_function(module: str, name: str) -> Callable[..., Any] | None:
    try:
        return getattr(importlib.import_module(module), name, None)
    except ImportError:
        return None


def edit_description(settings: Settings, targets: Targets, *, table: str, column: str | None,
                     description: str, author: str = "ui") -> Any:
    """Change a table's or column's description (a KB revision that can be undone)."""
    edit = _kb_function("aria.kb.enrich", "edit_description")
    if edit is None:
        raise KnowledgeBaseError("Editing descriptions is not part of this build yet.", hint="Update Aria.")
    return edit(settings, targets, table=table, column=column, description=description, author=author)


def undo_revision(settings: Settings, targets: Targets, revision_id: int) -> Any:
    undo = _kb_function("aria.kb.enrich", "undo_revision")
    if undo is None:
        raise KnowledgeBaseError("Undo is not part of this build yet.", hint="Update Aria.")
    return undo(settings, targets, revision_id)


def build_knowledge_base(settings: Settings, targets: Targets) -> Any:
    """Build (or refresh: unchanged documents are skipped) the KB of the restaurant database;
    a logged no-op when this build has no builder."""
    builder = _kb_function("aria.kb.build", "build_restaurant_kb")
    if builder is None:
        log.warning("aria.kb has no build_restaurant_kb; the knowledge base was not built")
        return None
    return builder(settings, targets)

def save_verified_query(settings: Settings, targets: Targets, *, question: str, sql_text: str,
                        author: str = "workbench") -> Any:
    """Store a question with SQL a person checked, so later matching questions reuse it."""
    save = _kb_function("aria.kb.enrich", "save_verified_query")
    if save is None:
        raise KnowledgeBaseError("Saving verified queries is not part of this build yet.", hint="Update Aria.")
    return save(settings, targets, question=question, sql=sql_text, author=author)
