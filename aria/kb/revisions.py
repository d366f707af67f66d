"""What a KB revision is, and the steps that enrichment (:mod:`aria.kb.enrich`) and import
(:mod:`aria.kb.transfer`) both take to write or undo one: a document as a revision stores it, a
payload read strictly, a document written with its vector, a refusal when a later revision changed
the same entry.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, TypeVar

import psycopg
from pydantic import BaseModel, ConfigDict, ValidationError

from aria.errors import KnowledgeBaseError
from aria.kb.build import embed_documents
from aria.kb.documents import Document, Kind, Source
from aria.kb.embed import Embedder
from aria.kb.store import KnowledgeStore

Payload = TypeVar("Payload", bound=BaseModel)


class Revision(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: int
    created_at: datetime
    author: str
    question: str | None
    sql: str | None
    kind: str
    payload: dict[str, Any]
    undone: bool
    undone_by: str | None = None  # who undid it (issue 16's audit); None before it was recorded


class Snapshot(BaseModel):
    """A document as a revision stores it (before or after the change)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Kind
    source: Source
    text: str
    lexical: str
    values: str
    table_name: str | None
    column_name: str | None
    data: dict[str, Any]


def snapshot_of(doc: Document | None) -> dict[str, Any] | None:
    """``doc`` as a revision payload stores it (None when there was no document)."""
    if doc is None:
        return None
    return {"kind": doc.kind, "source": doc.source, "text": doc.text, "lexical": doc.lexical, "values": doc.values,
            "table_name": doc.table_name, "column_name": doc.column_name, "data": doc.data}


def document_from(db_name: str, key: str, snap: Snapshot) -> Document:
    return Document(kind=snap.kind, db_name=db_name, key=key, source=snap.source, text=snap.text,
                    lexical=snap.lexical, values=snap.values, table_name=snap.table_name,
                    column_name=snap.column_name, data=snap.data)


def built_fingerprint(conn: psycopg.Connection, store: KnowledgeStore, db_name: str) -> str:
    """The fingerprint ``db_name``'s KB was built with; refused when there is no KB for it."""
    row = store.database_row(conn, db_name)
    if row is None:
        raise KnowledgeBaseError(f"No knowledge base for {db_name!r}.", hint="Build it with `aria kb build`.")
    return row[0]


def write_document(conn: psycopg.Connection, store: KnowledgeStore, embedder: Embedder, doc: Document) -> None:
    vectors, _ = embed_documents(store, embedder, [doc.text])
    store.upsert_documents(conn, [doc], vectors, built_fingerprint(conn, store, doc.db_name))


def refuse_if_changed_later(conn: psycopg.Connection, store: KnowledgeStore, revision_id: int, db_name: str,
                            key: str) -> None:
    later = store.later_revision(conn, revision_id, db_name, key)
    if later is not None:
        raise KnowledgeBaseError(f"Revision {later} changed the same entry after revision {revision_id}.",
                                 hint=f"Undo revision {later} first.")


def read_payload(revision: Revision, model: type[Payload]) -> Payload:
    """The revision's payload read strictly as ``model``; an unknown shape is refused, never guessed."""
    try:
        return model.model_validate(revision.payload)
    except ValidationError as err:
        first = err.errors(include_url=False, include_input=False)[0]
        where = ".".join(str(p) for p in first["loc"]) or "payload"
        raise unrecognised(revision.id, f"payload.{where}: {first['msg']}") from None


def unrecognised(revision_id: int, why: str) -> KnowledgeBaseError:
    return KnowledgeBaseError(f"Revision {revision_id} has a shape Aria does not recognise ({why}); nothing was undone.",
                              hint="It was not written by this version of Aria; leave it, or edit the entry instead.")
