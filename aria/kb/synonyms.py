"""Learned synonyms of the semantic layer as KB revisions: a manager teaches Aria that "khách ruột"
means returning customers (a metric), a concept, or one value of a dimension. Adding one is a
revision of kind ``synonym``; undo deletes exactly the row it added, after reading the revision
through a strict model and checking the row still holds what the revision wrote.

>>> SynonymPayload(db_name="public", key="synonym:khach ruot", synonym_id=3, phrase="khách ruột",
...                kind="metric", target="returning_customers", language="vi").kind
'metric'
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from aria.errors import KnowledgeBaseError
from aria.kb.store import KnowledgeStore, LearnedSynonym
from aria.text import normalize

log = logging.getLogger(__name__)

SynonymKind = Literal["metric", "concept", "value"]


class SynonymPayload(BaseModel):
    """What a synonym revision stores."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    db_name: str
    key: str = Field(pattern=r"^synonym:")
    synonym_id: int
    phrase: str = Field(min_length=1, max_length=200)
    kind: SynonymKind
    target: str = Field(min_length=1, max_length=300)
    language: Literal["vi", "en"]


def synonym_key(phrase: str) -> str:
    """The revision key of a learned phrase: ``synonym:`` and its normalized words."""
    return f"synonym:{normalize(phrase)}"


def add_synonym_row(conn: Any, store: KnowledgeStore, *, db_name: str, phrase: str, kind: str, target: str,
                    language: str, created_by: str) -> tuple[dict[str, Any], int]:
    """Insert the phrase; returns the revision payload and the row id (the caller records the revision)."""
    if kind not in ("metric", "concept", "value"):
        raise KnowledgeBaseError(f"A synonym is of a metric, a concept or a value, not {kind!r}.",
                                 hint="Use --metric, --concept or --value.")
    normalized = normalize(phrase)
    if not normalized:
        raise KnowledgeBaseError("A synonym needs a phrase with words in it.", hint="Give the words managers use.")
    synonym_id = store.insert_synonym(conn, db_name=db_name, phrase=phrase.strip(), normalized=normalized, kind=kind,
                                      target=target, language=language, created_by=created_by)
    payload = SynonymPayload(db_name=db_name, key=synonym_key(phrase), synonym_id=synonym_id, phrase=phrase.strip(),
                             kind=kind, target=target, language=language)  # type: ignore[arg-type]
    return payload.model_dump(), synonym_id


def remove_synonym_row(conn: Any, store: KnowledgeStore, revision_id: int, payload: SynonymPayload) -> None:
    """Delete the row revision ``revision_id`` added, only when it still holds what the revision wrote."""
    row = store.synonym(conn, payload.synonym_id, lock=True)
    if row is None or _written(row) != (payload.db_name, payload.phrase, payload.kind, payload.target,
                                        payload.language, revision_id):
        raise KnowledgeBaseError(f"Learned phrase #{payload.synonym_id} is not the one revision {revision_id} added "
                                 "(it is gone or different); nothing was undone.",
                                 hint="See the learned phrases with `aria kb synonym list`.")
    store.delete_synonym(conn, payload.synonym_id)
    log.info("undid learned phrase %r (revision %s)", payload.phrase, revision_id)


def _written(row: LearnedSynonym) -> tuple[str, str, str, str, str, int | None]:
    return (row.db_name, row.phrase, row.kind, row.target, row.language, row.revision_id)


class KbLearnedSource:
    """The semantic layer's learned phrases of one database, read from the KB."""

    def __init__(self, store: KnowledgeStore, db_name: str) -> None:
        self.store = store
        self.db_name = db_name

    def version(self) -> object:
        return self.store.synonym_version(self.db_name)

    def phrases(self) -> Sequence[tuple[str, str, str]]:
        return [(s.phrase, s.kind, s.target) for s in self.store.learned_synonyms(self.db_name)]
