"""Export the KB to a file (JSON, or YAML by suffix) and import one back, trusting nothing in it.

An import is planned first (:func:`plan_import`: what would be added, changed, skipped as a
duplicate or rejected, and why; nothing is written), then applied as ONE revision
(:func:`apply_import`) that ``aria kb undo`` reverts as a whole. The file is read by
:mod:`aria.kb.import_file` (size cap, no YAML aliases, strict schema). Every verified query must
pass the same checks as one saved from the SQL workbench (:func:`workbench_sql_check`). Revisions
in a file are never replayed as history. Vectors are not exported; import re-embeds through the
content-hash cache.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol

import psycopg
import yaml
from pydantic import BaseModel, ConfigDict

from aria.db.executor import QueryResult
from aria.errors import AriaError, GuardRejection, KnowledgeBaseError, QueryFailed
from aria.kb.build import embed_documents
from aria.kb.documents import Document
from aria.kb.embed import Embedder
from aria.kb.import_file import FORMAT_VERSION, DatabaseIn, DocumentIn, ExportFile, VerifiedQueryIn
from aria.kb.revisions import (
    Revision,
    Snapshot,
    document_from,
    read_payload,
    refuse_if_changed_later,
    snapshot_of,
    write_document,
)
from aria.kb.store import KnowledgeStore, NewVerifiedQuery
from aria.sql.schema import Schema

SqlCheck = Callable[[str, str], str | None]  # (db_name, sql) -> why it is refused, or None


# --- export ----------------------------------------------------------------------------------------
def export_data(store: KnowledgeStore, db_name: str | None = None) -> dict[str, Any]:
    """Everything in the KB (of one database, or all) as plain data; the revision history stays behind."""
    docs, verified, databases = store.export_rows(db_name)
    return {"version": FORMAT_VERSION, "databases": databases, "documents": docs, "verified_queries": verified}


def export_kb(store: KnowledgeStore, path: Path, db_name: str | None = None) -> int:
    """Write the KB to ``path`` (.yaml/.yml: YAML, else JSON); returns the number of documents."""
    data = export_data(store, db_name)
    if path.suffix in (".yaml", ".yml"):
        path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    else:
        path.write_text(json.dumps(data, ensure_ascii=False, indent=1, default=str), encoding="utf-8")
    return len(data["documents"])


# --- checking verified queries ------------------------------------------------------------------------
class SqlRunner(Protocol):
    """What :func:`workbench_sql_check` needs: :class:`aria.db.executor.ReadOnlyExecutor`'s ``run``."""

    def run(self, sql: str, *, row_cap: int | None = None) -> QueryResult: ...


def workbench_sql_check(executor: SqlRunner, schema: Schema) -> SqlCheck:
    """The SQL workbench's checks as a function: the safety guard, EXPLAIN and the cost guard, a
    read-only run, then the deterministic SQL and result checks (a *hard* finding refuses)."""
    from aria.sql.checks import check_sql as sql_findings
    from aria.sql.guard import check_sql as guard
    from aria.sql.result_checks import check_result

    def check(db_name: str, text: str) -> str | None:
        if db_name != schema.name:
            return f"it is for database {db_name!r}; only queries of {schema.name!r} can be checked here"
        verdict = guard(text, allowed_schemas=frozenset({schema.name}))
        if not verdict.allowed:
            return f"the safety guard refuses it: {verdict.reason}"
        try:
            result = executor.run(text)
        except (GuardRejection, QueryFailed) as err:  # CostRejection and QueryTimeout included
            return err.message
        findings = sql_findings(text, schema) + check_result(result.columns, result.rows, sql=text)
        hard = [f.message for f in findings if f.severity == "hard"]
        return "; ".join(hard) or None

    return check


# --- planning ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Rejected:
    query: VerifiedQueryIn
    reason: str


@dataclass(frozen=True)
class ImportPlan:
    """What importing a file would do; :func:`apply_import` does exactly this (re-checked under locks)."""

    source: str
    databases: tuple[DatabaseIn, ...]  # new or changed fingerprints
    added: tuple[DocumentIn, ...]
    changed: tuple[DocumentIn, ...]
    unchanged: int  # documents identical to the KB's (skipped)
    queries: tuple[VerifiedQueryIn, ...]  # new verified queries that passed every check
    duplicates: int  # verified queries already in the KB or repeated in the file (skipped)
    rejected: tuple[Rejected, ...]
    revisions_ignored: int

    @property
    def empty(self) -> bool:
        return not (self.databases or self.added or self.changed or self.queries)

    def summary(self, *, sample: int = 10) -> list[str]:
        """The preview, one line each."""
        lines = [f"Import from {self.source}:",
                 f"  documents: {len(self.added)} added, {len(self.changed)} changed, {self.unchanged} unchanged",
                 f"  verified queries: {len(self.queries)} added, {self.duplicates} duplicates skipped, "
                 f"{len(self.rejected)} rejected"]
        lines += [f"  database {d.db_name}: fingerprint {d.fingerprint}" for d in self.databases]
        lines += [f"  ~ {d.db_name} {d.doc_key}" for d in self.changed[:sample]]
        lines += [f"  + {d.db_name} {d.doc_key}" for d in self.added[:sample]]
        if len(self.added) + len(self.changed) > 2 * sample:
            lines.append("  ...")
        lines += [f"  + query {q.question!r}" for q in self.queries[:sample]]
        lines += [f"  rejected {r.query.question!r}: {r.reason}" for r in self.rejected]
        if self.revisions_ignored:
            lines.append(f"  {self.revisions_ignored} revisions in the file ignored (history is never imported)")
        return lines


def to_document(d: DocumentIn) -> Document:
    return Document(kind=d.kind, db_name=d.db_name, key=d.doc_key, source=d.source, text=d.text, lexical=d.lexical,
                    values=d.vals, table_name=d.table_name, column_name=d.column_name, data=d.data)


def plan_import(store: KnowledgeStore, export: ExportFile, check: SqlCheck, *, source: str = "") -> ImportPlan:
    """Compare ``export`` with the KB and check its verified queries; nothing is written."""
    names = sorted({d.db_name for d in export.documents} | {q.db_name for q in export.verified_queries}
                   | {d.db_name for d in export.databases})
    hashes, questions, prints = _existing(store, names)
    added, changed, unchanged = _plan_documents(export.documents, hashes)
    queries: list[VerifiedQueryIn] = []
    rejected: list[Rejected] = []
    duplicates = 0
    for query in export.verified_queries:
        if (query.db_name, query.question, query.sql) in questions:
            duplicates += 1
            continue
        questions.add((query.db_name, query.question, query.sql))
        reason = check(query.db_name, query.sql)
        if reason:
            rejected.append(Rejected(query, reason))
        else:
            queries.append(query)
    databases = tuple(d for d in export.databases if prints.get(d.db_name) != (d.fingerprint, d.model, d.info))
    return ImportPlan(source, databases, tuple(added), tuple(changed), unchanged, tuple(queries), duplicates,
                      tuple(rejected), len(export.revisions))


def _plan_documents(docs: list[DocumentIn], hashes: dict[tuple[str, str], str],
                    ) -> tuple[list[DocumentIn], list[DocumentIn], int]:
    seen: dict[tuple[str, str], str] = {}
    added, changed, unchanged = [], [], 0
    for doc in docs:
        key, digest = (doc.db_name, doc.doc_key), to_document(doc).content_hash
        if key in seen:
            if seen[key] != digest:
                raise KnowledgeBaseError(f"The file holds two different documents {doc.doc_key!r} of {doc.db_name!r}; "
                                         "nothing was imported.", hint="Export the KB again.")
            unchanged += 1
            continue
        seen[key] = digest
        if key not in hashes:
            added.append(doc)
        elif hashes[key] != digest:
            changed.append(doc)
        else:
            unchanged += 1
    return added, changed, unchanged


def _existing(store: KnowledgeStore, names: list[str]) -> tuple[dict[tuple[str, str], str], set[tuple[str, str, str]],
                                                                 dict[str, tuple[str, str, dict[str, Any]]]]:
    """The KB's document hashes, verified (db, question, sql) and fingerprints of ``names``."""
    if not store.exists():
        return {}, set(), {}
    return store.contents_of(names)


# --- applying: one revision -------------------------------------------------------------------------
class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class DatabaseRow(_Frozen):
    fingerprint: str
    model: str
    info: dict[str, Any]


class ImportedDatabase(_Frozen):
    db_name: str
    before: DatabaseRow | None
    after: DatabaseRow


class ImportedDocument(_Frozen):
    db_name: str
    key: str
    before: Snapshot | None
    after_hash: str


class ImportedQuery(_Frozen):
    id: int
    digest: str  # sha256 of question NUL sql: undo removes it only if it is still that query


class ImportPayload(_Frozen):
    """What an import revision stores: enough to undo exactly what it did, and nothing more."""

    db_name: str
    key: Literal["import"]
    file: str
    databases: list[ImportedDatabase]
    documents: list[ImportedDocument]
    verified_queries: list[ImportedQuery]
    skipped: dict[str, int]


def _digest(question: str, sql_text: str) -> str:
    return hashlib.sha256(f"{question}\x00{sql_text}".encode()).hexdigest()


def apply_import(store: KnowledgeStore, embedder: Embedder, plan: ImportPlan, *, author: str = "import") -> Revision | None:
    """Write ``plan`` in one transaction as one ``import`` revision; None when there is nothing to write."""
    if plan.empty:
        return None
    store.ensure_schema()
    docs = [to_document(d) for d in plan.added + plan.changed]
    vectors, _ = embed_documents(store, embedder, [d.text for d in docs])
    question_vectors, _ = embed_documents(store, embedder, [q.question for q in plan.queries])
    try:
        with store.transaction() as conn:
            databases = [_set_database(conn, store, d) for d in plan.databases]
            written = [_put_document(conn, store, doc, vector) for doc, vector in zip(docs, vectors, strict=True)]
            queries = [_add_query(conn, store, q, v) for q, v in zip(plan.queries, question_vectors, strict=True)]
            added = [q for q in queries if q is not None]
            names = sorted({d.db_name for d in docs} | {d.db_name for d in plan.databases}
                           | {q.db_name for q in plan.queries})
            payload = ImportPayload(
                db_name=names[0] if len(names) == 1 else "", key="import", file=plan.source, databases=databases,
                documents=[d for d in written if d is not None], verified_queries=added,
                skipped={"unchanged_documents": plan.unchanged + written.count(None),
                         "duplicate_queries": plan.duplicates + len(queries) - len(added),
                         "rejected_queries": len(plan.rejected), "revisions_ignored": plan.revisions_ignored})
            return Revision(**store.add_revision(conn, author=author, kind="import",
                                                 payload=payload.model_dump(mode="json")))
    except KnowledgeBaseError as err:  # the database refused a write (the store's mapping); all rolled back
        raise KnowledgeBaseError(f"The KB could not be written ({err.message}); nothing was imported.",
                                 hint="Check the KB database and try again.") from err


def _fingerprint_row(conn: psycopg.Connection, store: KnowledgeStore, db_name: str) -> DatabaseRow | None:
    row = store.database_row(conn, db_name, lock=True)
    return DatabaseRow(fingerprint=row[0], model=row[1], info=row[2]) if row else None


def _set_database(conn: psycopg.Connection, store: KnowledgeStore, d: DatabaseIn) -> ImportedDatabase:
    before = _fingerprint_row(conn, store, d.db_name)
    store.set_fingerprint(conn, d.db_name, d.fingerprint, d.model, d.info)
    return ImportedDatabase(db_name=d.db_name, before=before,
                            after=DatabaseRow(fingerprint=d.fingerprint, model=d.model, info=d.info))


def _put_document(conn: psycopg.Connection, store: KnowledgeStore, doc: Document, vector: Any) -> ImportedDocument | None:
    store.lock_entry(conn, doc.db_name, doc.key)
    old = store.document(conn, doc.db_name, doc.key, lock=True)
    if old is not None and old.content_hash == doc.content_hash:
        return None  # written meanwhile, identically
    current = _fingerprint_row(conn, store, doc.db_name)
    store.upsert_documents(conn, [doc], vector.reshape(1, -1), current.fingerprint if current else "")
    before = snapshot_of(old)
    return ImportedDocument(db_name=doc.db_name, key=doc.key, before=Snapshot(**before) if before else None,
                            after_hash=doc.content_hash)


def _add_query(conn: psycopg.Connection, store: KnowledgeStore, q: VerifiedQueryIn, vector: Any) -> ImportedQuery | None:
    store.lock_entry(conn, q.db_name, "verified_queries")
    new = NewVerifiedQuery(q.db_name, q.question, q.sql, q.source, q.params, q.ext_id)
    [query_id] = store.insert_verified(conn, [new], [vector], skip_present=True)
    return ImportedQuery(id=query_id, digest=_digest(q.question, q.sql)) if query_id is not None else None


def import_kb(store: KnowledgeStore, embedder: Embedder, path: Path, check: SqlCheck, *,
              author: str = "import") -> tuple[ImportPlan, Revision | None]:
    """Read, plan and apply ``path`` without asking (the CLI asks between the two)."""
    from aria.kb.import_file import read_export

    plan = plan_import(store, read_export(path), check, source=str(path))
    return plan, apply_import(store, embedder, plan, author=author)


# --- undo ---------------------------------------------------------------------------------------------
def undo_import(conn: psycopg.Connection, store: KnowledgeStore, embedder: Embedder, revision: Revision) -> None:
    """Revert an import revision as a whole (called by :func:`aria.kb.enrich.undo`, in its transaction).

    Refused, with nothing changed, when the payload is not an import's, when a later revision changed
    one of its entries, or when an entry no longer holds what the import wrote.
    """
    payload = read_payload(revision, ImportPayload)
    for d in payload.documents:
        store.lock_entry(conn, d.db_name, d.key)
        refuse_if_changed_later(conn, store, revision.id, d.db_name, d.key)
        current = store.document(conn, d.db_name, d.key, lock=True)
        if current is None or current.content_hash != d.after_hash:
            raise _changed(revision, f"{d.db_name} {d.key}")
    pairs = store.verified_pairs(conn, [q.id for q in payload.verified_queries])
    found = {i: _digest(question, sql_text) for i, (question, sql_text) in pairs.items()}
    for q in payload.verified_queries:
        if found.get(q.id) != q.digest:
            raise _changed(revision, f"verified query #{q.id}")
    for db in payload.databases:
        if _fingerprint_row(conn, store, db.db_name) != db.after:
            raise _changed(revision, f"the fingerprint of {db.db_name}")
    _revert(conn, store, embedder, payload)


def _revert(conn: psycopg.Connection, store: KnowledgeStore, embedder: Embedder, payload: ImportPayload) -> None:
    for d in payload.documents:
        if d.before is None:
            store.delete_documents(conn, d.db_name, [d.key])
        else:
            write_document(conn, store, embedder, document_from(d.db_name, d.key, d.before))
    store.delete_verified(conn, [q.id for q in payload.verified_queries])
    for db in payload.databases:
        if db.before is None:
            store.delete_database(conn, db.db_name)
        else:
            store.set_fingerprint(conn, db.db_name, db.before.fingerprint, db.before.model, db.before.info)


def _changed(revision: Revision, what: str) -> AriaError:
    return KnowledgeBaseError(f"{what} no longer holds what import revision {revision.id} wrote (changed since); "
                              "nothing was undone.", hint="Undo the later changes first, or edit the entry instead.")
