"""Export the KB to a file (JSON, or YAML by suffix) and import it back: documents, verified
queries, revisions and database fingerprints. Vectors are not exported; import re-embeds through
the content-hash cache.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml
from psycopg import sql
from psycopg.rows import dict_row
from psycopg.types.json import Jsonb

from aria.errors import KnowledgeBaseError
from aria.kb.build import embed_documents
from aria.kb.embed import Embedder
from aria.kb.store import KnowledgeStore, row_to_document

FORMAT_VERSION = 1


def export_data(store: KnowledgeStore, db_name: str | None = None) -> dict[str, Any]:
    """Everything in the KB (of one database, or all) as plain data."""
    where = sql.SQL("WHERE %(db)s::text IS NULL OR db_name = %(db)s")
    with store.transaction() as conn:
        cur = conn.cursor(row_factory=dict_row)
        docs = cur.execute(sql.SQL("SELECT db_name, doc_key, kind, source, table_name, column_name, text, lexical, "
                                   "vals, data FROM {} {} ORDER BY db_name, id").format(
            store.ident("documents"), where), {"db": db_name}).fetchall()
        verified = cur.execute(sql.SQL("SELECT db_name, question, sql, params, source, ext_id FROM {} {} "
                                       "ORDER BY id").format(store.ident("verified_queries"), where),
                               {"db": db_name}).fetchall()
        databases = cur.execute(sql.SQL("SELECT db_name, fingerprint, model, info FROM {} {} ORDER BY db_name").format(
            store.ident("databases"), where), {"db": db_name}).fetchall()
        revisions = cur.execute(sql.SQL("SELECT created_at::text, author, question, sql, kind, payload, undone FROM {} "
                                        "WHERE %(db)s::text IS NULL OR payload->>'db_name' = %(db)s ORDER BY id").format(
            store.ident("revisions")), {"db": db_name}).fetchall()
    return {"version": FORMAT_VERSION, "databases": databases, "documents": docs, "verified_queries": verified,
            "revisions": revisions}


def export_kb(store: KnowledgeStore, path: Path, db_name: str | None = None) -> int:
    """Write the KB to ``path`` (.yaml/.yml: YAML, else JSON); returns the number of documents."""
    data = export_data(store, db_name)
    if path.suffix in (".yaml", ".yml"):
        path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    else:
        path.write_text(json.dumps(data, ensure_ascii=False, indent=1, default=str), encoding="utf-8")
    return len(data["documents"])


def _read(path: Path) -> dict[str, Any]:
    if not path.is_file():
        raise KnowledgeBaseError(f"No KB export at {path}.", hint="Give the file `aria kb export` wrote.")
    text = path.read_text(encoding="utf-8")
    data = yaml.safe_load(text) if path.suffix in (".yaml", ".yml") else json.loads(text)
    if not isinstance(data, dict) or data.get("version") != FORMAT_VERSION:
        raise KnowledgeBaseError(f"{path} is not a KB export of version {FORMAT_VERSION}.",
                                 hint="Export it again with this version of Aria.")
    return data


def import_kb(store: KnowledgeStore, embedder: Embedder, path: Path) -> int:
    """Load an export into the KB (documents replaced by key; verified queries and revisions appended)."""
    data = _read(path)
    store.ensure_schema()
    docs = [row_to_document(d) for d in data["documents"]]
    vectors, _ = embed_documents(store, embedder, [d.text for d in docs])
    questions, _ = embed_documents(store, embedder, [v["question"] for v in data["verified_queries"]])
    prints = {d["db_name"]: d["fingerprint"] for d in data["databases"]}
    with store.transaction() as conn:
        for db in data["databases"]:
            store.set_fingerprint(conn, db["db_name"], db["fingerprint"], db["model"], db["info"])
        for doc, vector in zip(docs, vectors, strict=True):
            store.upsert_documents(conn, [doc], vector.reshape(1, -1), prints.get(doc.db_name, ""))
        for v, vector in zip(data["verified_queries"], questions, strict=True):
            conn.execute(sql.SQL("INSERT INTO {} (db_name, question, sql, params, embedding, source, ext_id) "
                                 "VALUES (%s, %s, %s, %s, %s, %s, %s)").format(store.ident("verified_queries")),
                         (v["db_name"], v["question"], v["sql"], Jsonb(v["params"]), vector, v["source"], v["ext_id"]))
        for r in data["revisions"]:
            conn.execute(sql.SQL("INSERT INTO {} (created_at, author, question, sql, kind, payload, undone) "
                                 "VALUES (%s, %s, %s, %s, %s, %s, %s)").format(store.ident("revisions")),
                         (r["created_at"], r["author"], r["question"], r["sql"], r["kind"], Jsonb(r["payload"]),
                          r["undone"]))
    return len(docs)
