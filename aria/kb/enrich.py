"""Enriching the KB, only ever on an explicit call: a refined column description, a new glossary
alias or a verified example becomes a new revision with its provenance; any revision can be undone
(the previous text is restored exactly). Concurrent applies serialize on a per-document lock, so
two applies make two revisions and neither is lost. Undo reads a revision's payload through a
strict model of its kind and checks that the KB still holds what the revision wrote; a payload of
an unknown shape, or an entry changed since, is refused with the reason, never half-undone.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Literal

import psycopg
from pydantic import BaseModel, ConfigDict, ValidationError

from aria.errors import KnowledgeBaseError
from aria.kb.build import embed_documents
from aria.kb.documents import Document, column_document, glossary_document, table_documents
from aria.kb.embed import Embedder
from aria.kb.revisions import (
    Revision,
    Snapshot,
    built_fingerprint,
    document_from,
    read_payload,
    refuse_if_changed_later,
    snapshot_of,
    unrecognised,
    write_document,
)
from aria.kb.store import KnowledgeStore, NewVerifiedQuery
from aria.sql.schema import Column, Schema, Table
from aria.text import normalize

log = logging.getLogger(__name__)

ChangeKind = Literal["column_description", "table_description", "glossary_alias", "verified_example", "synonym"]


class Change(BaseModel):
    """One proposed change. ``question``/``sql``/``confirmed_by`` are its provenance."""

    model_config = ConfigDict(frozen=True)

    kind: ChangeKind
    db_name: str = ""  # filled from the KB by apply_changes
    table: str | None = None
    column: str | None = None
    text: str = ""  # the refined description, or the alias's meaning
    term: str | None = None  # glossary alias, or the learned phrase of a synonym
    target: str | None = None  # synonym: a metric name, a concept, or semantic_model.dimension=value
    synonym_kind: str | None = None  # synonym: metric | concept | value
    value: str | None = None
    sql_hint: str | None = None
    lang: str = "vi"
    question: str | None = None
    sql: str | None = None
    confirmed_by: str = ""


class EditPayload(BaseModel):
    """What a description or glossary revision stores."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    db_name: str
    key: str
    before: Snapshot | None
    after: Snapshot


class ExamplePayload(BaseModel):
    """What a verified-example revision stores."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    db_name: str
    key: Literal["verified_query"]
    verified_query_id: int


class Proposal(BaseModel):
    model_config = ConfigDict(frozen=True)

    change: Change
    key: str
    before: str | None
    after: str


def _doc_key(change: Change) -> str:
    if change.kind == "column_description":
        if not change.table or not change.column:
            raise KnowledgeBaseError("A column description change needs a table and a column.",
                                     hint="Name the column as table.column.")
        return f"column:{change.table}.{change.column}"
    if change.kind == "table_description":
        if not change.table:
            raise KnowledgeBaseError("A table description change needs a table.", hint="Name the table.")
        return f"table:{change.table}"
    if change.kind == "glossary_alias":
        if not change.term:
            raise KnowledgeBaseError("A glossary alias needs a term.", hint="Give the word the manager used.")
        return f"glossary:{normalize(change.term)}"
    if change.kind == "synonym":
        if not change.term or not change.target or not change.synonym_kind:
            raise KnowledgeBaseError("A synonym needs a phrase and what it means.",
                                     hint="Give the phrase and a metric, a concept or a value.")
        return f"synonym:{normalize(change.term)}"
    return "verified_query"


def _new_document(change: Change, old: Document | None) -> Document:
    if change.kind == "column_description":
        if old is None:
            raise KnowledgeBaseError(f"No column {change.table}.{change.column} in the KB of {change.db_name!r}.",
                                     hint="Check the name, or rebuild the KB with `aria kb build`.")
        data = old.data
        column = Column(name=str(change.column), data_type=str(data.get("type", "")), nullable=bool(data.get("nullable")),
                        is_primary_key=bool(data.get("pk")), description=change.text,
                        sample_values=tuple(str(v) for v in data.get("examples") or []),
                        value_range=tuple(data["range"]) if data.get("range") else None)
        table = Table(name=str(change.table), columns=(column,))
        doc = column_document(Schema(name=change.db_name, tables=(table,)), table, column, source="enrichment")
        return replace(doc, values=old.values, data={**data, "description": change.text})
    if change.kind == "table_description":
        if old is None:
            raise KnowledgeBaseError(f"No table {change.table} in the KB of {change.db_name!r}.",
                                     hint="Check the name, or rebuild the KB with `aria kb build`.")
        columns = tuple(Column(name=str(c), data_type="") for c in old.data.get("columns") or [])
        table = Table(name=str(change.table), columns=columns, description=change.text,
                      grain=str(old.data.get("grain") or ""), row_count=old.data.get("row_count"))
        doc = table_documents(Schema(name=change.db_name, tables=(table,)), table, source="enrichment")[0]
        return replace(doc, data={**old.data, "description": change.text})
    entry = {"term": change.term, "lang": change.lang, "meaning": change.text, "table": change.table,
             "column": change.column, "value": change.value, "sql_hint": change.sql_hint}
    return glossary_document(change.db_name, entry, source="enrichment")


def propose(store: KnowledgeStore, change: Change) -> Proposal:
    """What ``change`` would do (nothing is written)."""
    key = _doc_key(change)
    if change.kind == "verified_example":
        return Proposal(change=change, key=key, before=None, after=f"{change.question} -> {change.sql}")
    if change.kind == "synonym":
        return Proposal(change=change, key=key, before=None, after=f"{change.term} = {change.synonym_kind} {change.target}")
    with store.transaction() as conn:
        old = store.document(conn, change.db_name, key, lock=False)
    return Proposal(change=change, key=key, before=old.text if old else None, after=_new_document(change, old).text)


def _record(conn: psycopg.Connection, store: KnowledgeStore, change: Change, payload: dict[str, Any]) -> Revision:
    return Revision(**store.add_revision(conn, author=change.confirmed_by, kind=change.kind, payload=payload,
                                         question=change.question, sql_text=change.sql))


def apply_change(store: KnowledgeStore, embedder: Embedder, change: Change) -> Revision:
    """Apply ``change`` as a new revision (in one transaction, under a per-document lock)."""
    with store.transaction() as conn:
        return _apply_in(conn, store, embedder, change)


def _apply_in(conn: psycopg.Connection, store: KnowledgeStore, embedder: Embedder, change: Change) -> Revision:
    key = _doc_key(change)
    built_fingerprint(conn, store, change.db_name)
    if change.kind == "verified_example":
        return _apply_example(conn, store, embedder, change)
    store.lock_entry(conn, change.db_name, key)
    if change.kind == "synonym":
        return _apply_synonym(conn, store, change)
    old = store.document(conn, change.db_name, key, lock=True)
    new = _new_document(change, old)
    write_document(conn, store, embedder, new)
    payload = {"db_name": change.db_name, "key": key, "before": snapshot_of(old), "after": snapshot_of(new)}
    revision = _record(conn, store, change, payload)
    log.info("applied revision %s (%s %s)", revision.id, change.kind, key)
    return revision


def _apply_example(conn: psycopg.Connection, store: KnowledgeStore, embedder: Embedder, change: Change) -> Revision:
    if not change.question or not change.sql:
        raise KnowledgeBaseError("A verified example needs a question and its SQL.", hint="Give both.")
    vectors, _ = embed_documents(store, embedder, [change.question])
    [query_id] = store.insert_verified(conn, [NewVerifiedQuery(change.db_name, change.question, change.sql, "confirmed")],
                                       vectors)
    payload = {"db_name": change.db_name, "key": "verified_query", "verified_query_id": query_id}
    return _record(conn, store, change, payload)


def _apply_synonym(conn: psycopg.Connection, store: KnowledgeStore, change: Change) -> Revision:
    from aria.kb.synonyms import add_synonym_row

    payload, synonym_id = add_synonym_row(conn, store, db_name=change.db_name, phrase=str(change.term),
                                          kind=str(change.synonym_kind), target=str(change.target),
                                          language=change.lang, created_by=change.confirmed_by)
    revision = _record(conn, store, change, payload)
    store.set_synonym_revision(conn, synonym_id, revision.id)
    log.info("applied revision %s (synonym %r = %s %s)", revision.id, change.term, change.synonym_kind, change.target)
    return revision


def list_revisions(store: KnowledgeStore, db_name: str | None = None) -> list[Revision]:
    """Every revision, newest first (optionally of one database)."""
    return [Revision(**r) for r in store.revisions(db_name)]


def undo(store: KnowledgeStore, embedder: Embedder, revision_id: int, *, by: str = "") -> Revision:
    """Undo a revision: the document's previous text comes back exactly (or the addition goes).

    Refused (KnowledgeBaseError, nothing changed) when the payload has a shape Aria does not know,
    when a later revision changed the same entry, or when the entry no longer holds what the
    revision wrote.
    """
    with store.transaction() as conn:
        row = store.revision(conn, revision_id)
        if row is None:
            raise KnowledgeBaseError(f"No revision {revision_id}.", hint="List them with `aria kb revisions`.")
        revision = _readable(row)
        if revision.undone:
            raise KnowledgeBaseError(f"Revision {revision_id} is already undone.", hint="Nothing to do.")
        if revision.kind == "verified_example":
            _remove_example(conn, store, revision, read_payload(revision, ExamplePayload))
        elif revision.kind == "import":
            from aria.kb.transfer import undo_import

            undo_import(conn, store, embedder, revision)
        elif revision.kind == "synonym":
            from aria.kb.synonyms import SynonymPayload, remove_synonym_row

            remove_synonym_row(conn, store, revision.id, read_payload(revision, SynonymPayload))
        elif revision.kind in ("column_description", "table_description", "glossary_alias"):
            _restore(conn, store, embedder, revision, read_payload(revision, EditPayload))
        else:
            raise unrecognised(revision_id, f"its kind {revision.kind!r} is not one Aria writes")
        store.mark_undone(conn, revision_id, by=by)
    return revision.model_copy(update={"undone": True})


def _readable(row: dict[str, Any]) -> Revision:
    try:
        return Revision(**row)
    except ValidationError as err:
        raise unrecognised(int(row["id"]), "its columns do not parse") from err


def _restore(conn: psycopg.Connection, store: KnowledgeStore, embedder: Embedder, revision: Revision, payload: EditPayload) -> None:
    db_name, key = payload.db_name, payload.key
    store.lock_entry(conn, db_name, key)
    refuse_if_changed_later(conn, store, revision.id, db_name, key)
    current = store.document(conn, db_name, key, lock=True)
    if current is None or snapshot_of(current) != payload.after.model_dump():
        raise KnowledgeBaseError(f"{key} no longer holds what revision {revision.id} wrote (it was changed since, "
                                 "e.g. by a rebuild); nothing was undone.", hint="Edit the entry instead.")
    if payload.before is None:
        store.delete_documents(conn, db_name, [key])
    else:
        write_document(conn, store, embedder, document_from(db_name, key, payload.before))


def _remove_example(conn: psycopg.Connection, store: KnowledgeStore, revision: Revision, payload: ExamplePayload) -> None:
    found = store.verified_pairs(conn, [payload.verified_query_id]).get(payload.verified_query_id)
    if found != (revision.question, revision.sql):
        raise KnowledgeBaseError(f"Verified query #{payload.verified_query_id} is not the one revision {revision.id} "
                                 "added (it is gone or different); nothing was undone.",
                                 hint="See the verified queries in the Knowledge page.")
    store.delete_verified(conn, [payload.verified_query_id])


class Provenance(BaseModel):
    """Where a batch of changes came from: the confirmed question and SQL, and who confirmed them."""

    model_config = ConfigDict(frozen=True)

    question: str | None = None
    sql: str | None = None
    confirmed_by: str = ""
    query_log_id: int | None = None


def changes_from(*, descriptions: Sequence[Any] = (), aliases: Sequence[Any] = (),
                 example: tuple[str, str] | None = None) -> list[Change]:
    """Changes from an enrichment preview (objects with table/column/text, and term/table/column/value)."""
    changes = [Change(kind="column_description" if d.column else "table_description", table=d.table,
                      column=d.column, text=d.text) for d in descriptions]
    changes += [Change(kind="glossary_alias", term=a.term, table=a.table, column=a.column, value=a.value,
                       text=str(getattr(a, "meaning", "") or f"{a.term} = {a.table}.{a.column or ''}".rstrip(".")))
                for a in aliases]
    if example:
        changes.append(Change(kind="verified_example", question=example[0], sql=example[1]))
    return changes


def apply_changes(kb: Any, changes: Sequence[Change], provenance: Provenance) -> list[int]:
    """Apply ``changes`` to ``kb`` (a KnowledgeBase) in one transaction; returns the revision ids."""
    stamped = [c.model_copy(update={"db_name": c.db_name or kb.db_name, "question": provenance.question,
                                    "sql": c.sql if c.kind == "verified_example" and c.sql else provenance.sql,
                                    "confirmed_by": provenance.confirmed_by}) for c in changes]
    stamped = [c.model_copy(update={"sql": provenance.sql}) if c.kind == "verified_example" and not c.sql else c
               for c in stamped]
    with kb.store.transaction() as conn:
        return [_apply_in(conn, kb.store, kb.embedder, c).id for c in stamped]


# --- entry points for the UI (settings + targets in, one revision out) ------------------------------
def _open(settings: Any, targets: Any) -> tuple[KnowledgeStore, Embedder]:
    from aria.kb.embed import embedder_for

    return KnowledgeStore(targets.kb, settings), embedder_for(settings)


def edit_description(settings: Any, targets: Any, *, table: str, column: str | None, description: str,
                     author: str = "ui") -> Revision:
    """Change a table's or column's description of the business database's KB."""
    store, embedder = _open(settings, targets)
    change = Change(kind="column_description" if column else "table_description", db_name=settings.business_schema,
                    table=table, column=column, text=description, confirmed_by=author)
    try:
        return apply_change(store, embedder, change)
    finally:
        store.close()


def undo_revision(settings: Any, targets: Any, revision_id: int, *, by: str = "") -> Revision:
    """Undo one revision; ``by``: who undid it (the signed-in person, or the CLI)."""
    store, embedder = _open(settings, targets)
    try:
        return undo(store, embedder, revision_id, by=by)
    finally:
        store.close()


def save_verified_query(settings: Any, targets: Any, *, question: str, sql: str, author: str = "workbench") -> Revision:
    """Store a checked question/SQL pair as a verified example (a revision that can be undone)."""
    store, embedder = _open(settings, targets)
    change = Change(kind="verified_example", db_name=settings.business_schema, question=question, sql=sql,
                    confirmed_by=author)
    try:
        return apply_change(store, embedder, change)
    finally:
        store.close()
