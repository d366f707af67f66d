"""The one place the UI (and ``aria demo``) reaches the knowledge base.

Reads go through :class:`aria.kb.store.KnowledgeStore`; when the KB has not been built every
reader raises with :data:`NOT_BUILT` so pages can say "run aria kb build" instead of failing.
Writes (description edits, undo, verified queries, building) are the KB's own functions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pandas as pd

from aria.config import Settings
from aria.db.connect import Targets
from aria.errors import KnowledgeBaseError
from aria.kb.build import BuildReport
from aria.kb.store import KnowledgeStore, Rows

NOT_BUILT = "The knowledge base is not built yet — run `aria kb build` (or `aria demo`, which builds it)."


def kb_exists(settings: Settings, targets: Targets) -> bool:
    store = KnowledgeStore(targets.kb, settings)
    try:
        return store.exists()
    finally:
        store.close()


def _frame(settings: Settings, targets: Targets, listing: Callable[[KnowledgeStore], Rows]) -> pd.DataFrame:
    """One of the store's listings as a DataFrame (its columns even when it has no rows)."""
    store = KnowledgeStore(targets.kb, settings)
    try:
        if not store.exists():
            raise KnowledgeBaseError(NOT_BUILT)
        columns, rows = listing(store)
        return pd.DataFrame(rows, columns=columns)
    finally:
        store.close()


def catalog(settings: Settings, targets: Targets) -> pd.DataFrame:
    """Tables and columns with their descriptions (one row per document)."""
    return _frame(settings, targets, KnowledgeStore.catalog)


def glossary(settings: Settings, targets: Targets) -> pd.DataFrame:
    return _frame(settings, targets, KnowledgeStore.glossary)


def verified_queries(settings: Settings, targets: Targets) -> pd.DataFrame:
    return _frame(settings, targets, KnowledgeStore.verified_query_list)


def revisions(settings: Settings, targets: Targets) -> pd.DataFrame:
    return _frame(settings, targets, KnowledgeStore.revision_list)


def query_log(settings: Settings, targets: Targets, *, limit: int = 200) -> pd.DataFrame:
    return _frame(settings, targets, lambda store: store.query_log_list(limit))


def edit_description(settings: Settings, targets: Targets, *, table: str, column: str | None,
                     description: str, author: str = "ui") -> Any:
    """Change a table's or column's description (a KB revision that can be undone)."""
    from aria.kb.enrich import edit_description as edit

    return edit(settings, targets, table=table, column=column, description=description, author=author)


def undo_revision(settings: Settings, targets: Targets, revision_id: int) -> Any:
    from aria.kb.enrich import undo_revision as undo

    return undo(settings, targets, revision_id)


def build_knowledge_base(settings: Settings, targets: Targets) -> BuildReport:
    """Build (or refresh: unchanged documents are skipped) the KB of the restaurant database."""
    from aria.kb.build import build_restaurant_kb

    return build_restaurant_kb(settings, targets)


def save_verified_query(settings: Settings, targets: Targets, *, question: str, sql_text: str,
                        author: str = "workbench") -> Any:
    """Store a question with SQL a person checked, so later matching questions reuse it."""
    from aria.kb.enrich import save_verified_query as save

    return save(settings, targets, question=question, sql=sql_text, author=author)
