"""The one place the UI (and ``aria demo``) reaches the knowledge base.

Reads go through :class:`aria.kb.store.KnowledgeStore`; when the KB has not been built every
reader raises with :data:`NOT_BUILT` so pages can say "run aria kb build" instead of failing.
Writes (description edits, undo, verified queries, building) are the KB's own functions.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection
from typing import TYPE_CHECKING, Any

import pandas as pd

from aria.config import Settings
from aria.db.connect import Targets
from aria.errors import AriaError, KnowledgeBaseError
from aria.kb.build import BuildReport
from aria.kb.store import KnowledgeStore, Rows
from aria.reflect.language import detect_language

if TYPE_CHECKING:
    from aria.kb.base import KnowledgeBase

log = logging.getLogger(__name__)

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


def example_questions(kb: KnowledgeBase, language: str, *, limit: int = 2, exclude: Collection[str] = ()) -> list[str]:
    """Verified questions of the KB's database in ``language``, which Aria answers with no model by reusing
    their SQL: the restaurant's own (confirmed or saved) newest first, then the seeded ones in their order.
    Empty when the listing fails (the chat then offers the semantic layer's questions alone)."""
    try:
        columns, rows = kb.store.verified_query_list()  # newest first
    except AriaError as err:
        log.info("no verified examples for the chat: %s", err)
        return []
    at = {name: i for i, name in enumerate(columns)}
    mine = [r for r in rows if r[at["db_name"]] == kb.db_name and r[at["question"]] not in exclude
            and detect_language(r[at["question"]]) == language]
    own = [r[at["question"]] for r in mine if r[at["source"]] != "golden"]
    seeded = [r[at["question"]] for r in reversed(mine) if r[at["source"]] == "golden"]
    return list(dict.fromkeys(own + seeded))[:limit]


def revisions(settings: Settings, targets: Targets) -> pd.DataFrame:
    return _frame(settings, targets, KnowledgeStore.revision_list)


def query_log(settings: Settings, targets: Targets, *, limit: int = 200, asked_by: str | None = None) -> pd.DataFrame:
    """The newest questions; only ``asked_by``'s when it is given."""
    return _frame(settings, targets, lambda store: store.query_log_list(limit, asked_by=asked_by))


def askers(settings: Settings, targets: Targets) -> list[str]:
    """Everyone with a question in the query log ("" is the CLI and the local operator)."""
    return list(_frame(settings, targets, lambda store: (["asked_by"], [(p,) for p in store.askers()]))["asked_by"])


def edit_description(settings: Settings, targets: Targets, *, table: str, column: str | None,
                     description: str, author: str = "ui") -> Any:
    """Change a table's or column's description (a KB revision that can be undone)."""
    from aria.kb.enrich import edit_description as edit

    return edit(settings, targets, table=table, column=column, description=description, author=author)


def undo_revision(settings: Settings, targets: Targets, revision_id: int, *, by: str = "") -> Any:
    from aria.kb.enrich import undo_revision as undo

    return undo(settings, targets, revision_id, by=by)


def build_knowledge_base(settings: Settings, targets: Targets) -> BuildReport:
    """Build (or refresh: unchanged documents are skipped) the KB of the restaurant database."""
    from aria.kb.service import build_restaurant_kb

    return build_restaurant_kb(settings, targets)


def save_verified_query(settings: Settings, targets: Targets, *, question: str, sql_text: str,
                        author: str = "workbench") -> Any:
    """Store a question with SQL a person checked, so later matching questions reuse it."""
    from aria.kb.enrich import save_verified_query as save

    return save(settings, targets, question=question, sql=sql_text, author=author)
