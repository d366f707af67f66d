"""The knowledge base's tables in PostgreSQL + pgvector (schema ``settings.kb_schema``).

documents, embedding_cache, databases (fingerprints), revisions, verified_queries, feedback,
semantic_synonyms (phrases managers taught the semantic parser) and query_log. All SQL of the KB lives here,
in typed methods; callers pass a connection (from :meth:`KnowledgeStore.transaction`) or the store opens one.

Driver errors never leave the store as they are (:func:`driver_errors`): a lost connection is
:class:`DatabaseUnavailable` ("The database stopped answering ..."), a value the server refuses for
what it holds is :class:`ValueRefused`, anything else a :class:`KnowledgeBaseError`, each in one line.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np
import psycopg
from pgvector.psycopg import register_vector
from psycopg import sql
from psycopg.rows import dict_row
from psycopg.types.json import Jsonb

from aria.config import Settings
from aria.db.availability import connection_lost, first_line
from aria.db.connect import connect, require_pgvector
from aria.errors import AriaError, DatabaseUnavailable, KnowledgeBaseError, ValueRefused
from aria.kb.documents import Document
from aria.kb.embed import DIMENSION

log = logging.getLogger(__name__)

_DDL = """
CREATE SCHEMA IF NOT EXISTS {schema};
CREATE TABLE IF NOT EXISTS {schema}.databases (
    db_name      text PRIMARY KEY,
    fingerprint  text NOT NULL,
    model        text NOT NULL,
    built_at     timestamptz NOT NULL DEFAULT now(),
    info         jsonb NOT NULL DEFAULT '{{}}'
);
CREATE TABLE IF NOT EXISTS {schema}.documents (
    id            bigserial PRIMARY KEY,
    db_name       text NOT NULL,
    doc_key       text NOT NULL,
    kind          text NOT NULL CHECK (kind IN ('table', 'column', 'glossary', 'example', 'relation', 'metric')),
    source        text NOT NULL CHECK (source IN ('schema', 'sample', 'descriptions', 'example', 'enrichment')),
    fingerprint   text NOT NULL,
    revision      integer NOT NULL DEFAULT 1,
    table_name    text,
    column_name   text,
    text          text NOT NULL,
    lexical       text NOT NULL DEFAULT '',
    vals          text NOT NULL DEFAULT '',
    content_hash  text NOT NULL,
    data          jsonb NOT NULL DEFAULT '{{}}',
    embedding     vector({dim}) NOT NULL,
    tsv           tsvector GENERATED ALWAYS AS (to_tsvector('simple', lexical)) STORED,
    vtsv          tsvector GENERATED ALWAYS AS (to_tsvector('simple', vals)) STORED,
    updated_at    timestamptz NOT NULL DEFAULT now(),
    UNIQUE (db_name, doc_key)
);
CREATE INDEX IF NOT EXISTS documents_tsv ON {schema}.documents USING gin (tsv);
CREATE INDEX IF NOT EXISTS documents_vtsv ON {schema}.documents USING gin (vtsv);
CREATE INDEX IF NOT EXISTS documents_db_kind ON {schema}.documents (db_name, kind);
-- a KB built before metric documents existed: widen its kind check (existing rows already pass it)
ALTER TABLE {schema}.documents DROP CONSTRAINT IF EXISTS documents_kind_check;
ALTER TABLE {schema}.documents ADD CONSTRAINT documents_kind_check
    CHECK (kind IN ('table', 'column', 'glossary', 'example', 'relation', 'metric')) NOT VALID;
CREATE TABLE IF NOT EXISTS {schema}.embedding_cache (
    content_hash  text PRIMARY KEY,
    embedding     vector({dim}) NOT NULL
);
CREATE TABLE IF NOT EXISTS {schema}.revisions (
    id          bigserial PRIMARY KEY,
    created_at  timestamptz NOT NULL DEFAULT now(),
    author      text NOT NULL DEFAULT '',
    question    text,
    sql         text,
    kind        text NOT NULL,
    payload     jsonb NOT NULL,
    undone      boolean NOT NULL DEFAULT false
);
CREATE TABLE IF NOT EXISTS {schema}.verified_queries (
    id          bigserial PRIMARY KEY,
    db_name     text NOT NULL,
    question    text NOT NULL,
    sql         text NOT NULL,
    params      jsonb NOT NULL DEFAULT '{{}}',
    embedding   vector({dim}) NOT NULL,
    source      text NOT NULL CHECK (source IN ('golden', 'confirmed', 'workbench')),
    ext_id      text,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS {schema}.feedback (
    id          bigserial PRIMARY KEY,
    created_at  timestamptz NOT NULL DEFAULT now(),
    query_id    bigint,
    question    text NOT NULL,
    sql         text,
    reason      text NOT NULL DEFAULT '',
    author      text NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS {schema}.query_log (
    id          bigserial PRIMARY KEY,
    created_at  timestamptz NOT NULL DEFAULT now(),
    question    text NOT NULL,
    sql         text,
    status      text NOT NULL,
    trace       jsonb NOT NULL DEFAULT '{{}}'
);
ALTER TABLE {schema}.query_log ADD COLUMN IF NOT EXISTS asked_by text NOT NULL DEFAULT '';
ALTER TABLE {schema}.revisions ADD COLUMN IF NOT EXISTS undone_by text;
ALTER TABLE {schema}.revisions ADD COLUMN IF NOT EXISTS undone_at timestamptz;
ALTER TABLE {schema}.databases ADD COLUMN IF NOT EXISTS dimension integer;
"""

Rows = tuple[list[str], list[tuple[Any, ...]]]  # column names, rows
# The vector columns' nearest-neighbour indexes; pgvector's HNSW takes at most 2,000 dimensions (a larger
# model's vectors are searched exactly: a KB holds a few thousand documents).
_HNSW_DDL = """
CREATE INDEX IF NOT EXISTS documents_embedding_hnsw ON {schema}.documents USING hnsw (embedding vector_cosine_ops);
CREATE INDEX IF NOT EXISTS verified_queries_hnsw ON {schema}.verified_queries USING hnsw (embedding vector_cosine_ops);
"""
HNSW_MAX_DIMENSION = 2000
_VECTOR_TABLES = ("documents", "verified_queries", "embedding_cache")
# Created by ensure_schema, and on first use in a KB built before it existed (no rebuild needed).
_SYNONYMS_DDL = """
CREATE TABLE IF NOT EXISTS {schema}.semantic_synonyms (
    id           bigserial PRIMARY KEY,
    db_name      text NOT NULL,
    phrase       text NOT NULL,
    normalized   text NOT NULL,
    kind         text NOT NULL CHECK (kind IN ('metric', 'concept', 'value')),
    target       text NOT NULL,
    language     text NOT NULL CHECK (language IN ('vi', 'en')),
    revision_id  bigint,
    created_by   text NOT NULL DEFAULT '',
    created_at   timestamptz NOT NULL DEFAULT now(),
    UNIQUE (db_name, normalized)
);
"""


@dataclass(frozen=True)
class LearnedSynonym:
    """A phrase a manager taught the semantic parser: ``phrase`` means ``target`` (a metric name, a
    concept, or ``semantic_model.dimension=value``)."""

    id: int
    db_name: str
    phrase: str
    normalized: str
    kind: str  # metric | concept | value
    target: str
    language: str
    revision_id: int | None
    created_by: str
    created_at: datetime


@dataclass(frozen=True)
class NewVerifiedQuery:
    """A verified question/SQL pair to store (its question's vector goes beside it)."""

    db_name: str
    question: str
    sql: str
    source: str  # golden | confirmed | workbench
    params: dict[str, Any] = field(default_factory=dict)
    ext_id: str | None = None


DatabaseRow = tuple[str, str, dict[str, Any]]  # fingerprint, embedding model, build info

_SCORE_SQL = """
SELECT kind, doc_key, table_name, column_name,
       1 - (embedding <=> %(q)s) AS dense,
       CASE WHEN %(tsq)s = '' THEN 0 ELSE ts_rank(tsv, to_tsquery('simple', %(tsq)s)) END AS lex,
       CASE WHEN %(tsq)s <> '' AND vals <> '' AND vtsv @@ to_tsquery('simple', %(tsq)s) THEN vals END AS vals
FROM {documents}
WHERE db_name = %(db)s AND kind IN ('table', 'column')
"""
# SQLSTATE classes of a value the server refuses for what it holds: data exception, integrity
# constraint violation, program limit exceeded (e.g. a row too big).
_REFUSED_CLASSES = ("22", "23", "54")


def store_error(err: psycopg.Error) -> AriaError:
    """A driver error as one of Aria's, in one line."""
    first = first_line(err)
    if connection_lost(err):
        return DatabaseUnavailable(f"The database stopped answering ({first}).",
                                   hint="Check that it is running (`aria db status`), then ask again.")
    if isinstance(err, (psycopg.DataError, psycopg.IntegrityError)) or (err.sqlstate or "")[:2] in _REFUSED_CLASSES:
        return ValueRefused(f"The knowledge base refused a value ({type(err).__name__}: {first}).",
                            hint="Change the value and try again.")
    return KnowledgeBaseError(f"The knowledge base failed ({type(err).__name__}: {first}).",
                              hint="Check the KB database (`aria db status`); rebuild it with `aria kb build` if "
                                   "a table is missing.")


@contextmanager
def driver_errors() -> Iterator[None]:
    """Map any psycopg error raised inside to :func:`store_error`'s (the cause stays attached)."""
    try:
        yield
    except psycopg.Error as err:
        raise store_error(err) from err


@dataclass(frozen=True)
class EmbeddingState:
    """What a KB schema's vectors are: the columns' dimension and the models its databases were built with."""

    dimension: int | None
    models: tuple[str, ...]

    def matches(self, model: str, dimension: int) -> bool:
        """True when every vector is ``model``'s (or there is none yet) and the columns hold ``dimension``."""
        return self.dimension in (None, dimension) and set(self.models) <= {model}


_DOC_COLUMNS = ("db_name", "doc_key", "kind", "source", "fingerprint", "table_name", "column_name", "text",
                "lexical", "vals", "content_hash", "data", "embedding")


class KnowledgeStore:
    """Reads and writes the KB tables of one schema on one server."""

    def __init__(self, conninfo: str, settings: Settings) -> None:
        self.conninfo = conninfo
        self.settings = settings
        self.schema = settings.kb_schema
        self._conn: psycopg.Connection | None = None
        self._conn_lock = threading.Lock()

    def ident(self, table: str) -> sql.Composed:
        return sql.SQL("{}.{}").format(sql.Identifier(self.schema), sql.Identifier(table))

    @contextmanager
    def transaction(self) -> Iterator[psycopg.Connection]:
        """A fresh connection in one transaction (committed on success, rolled back on error; a driver
        error comes out as one of Aria's)."""
        with driver_errors(), connect(self.conninfo, settings=self.settings) as conn:
            register_vector(conn)
            with conn.transaction():
                yield conn

    def shared(self) -> psycopg.Connection:
        """A long-lived autocommit connection for read-only queries (retrieval)."""
        with self._conn_lock:  # two sessions asking first at once must not open two connections
            if self._conn is None or self._conn.closed:
                self._conn = connect(self.conninfo, settings=self.settings, autocommit=True)
                register_vector(self._conn)
            return self._conn

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def ensure_schema(self, dimension: int = DIMENSION) -> None:
        """Create what is missing; new vector columns take ``dimension`` (existing ones keep theirs: see
        :meth:`replace_embeddings`)."""
        with driver_errors(), connect(self.conninfo, settings=self.settings, autocommit=True) as conn:
            require_pgvector(conn)
            schema = sql.Identifier(self.schema).as_string(conn)
            conn.execute(_DDL.format(schema=schema, dim=dimension))  # type: ignore[arg-type]
            if (self.embedding_state(conn).dimension or dimension) <= HNSW_MAX_DIMENSION:
                conn.execute(_HNSW_DDL.format(schema=schema))  # type: ignore[arg-type]
            self._create_synonyms(conn)

    def _create_synonyms(self, conn: psycopg.Connection) -> None:
        conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (f"{self.schema}|semantic_synonyms",))
        conn.execute(_SYNONYMS_DDL.format(schema=sql.Identifier(self.schema).as_string(conn)))  # type: ignore[arg-type]

    def exists(self) -> bool:
        with driver_errors():
            row = self.shared().execute("SELECT to_regclass(%s) IS NOT NULL", (f'"{self.schema}".documents',)).fetchone()
        return bool(row and row[0])

    def _read(self, query: str, table: str, params: Any = (), *, dicts: bool = False) -> list[Any]:
        """Rows of a read on the shared connection (``{}`` in ``query`` is ``table``)."""
        with driver_errors():
            conn = self.shared()
            cur = conn.cursor(row_factory=dict_row) if dicts else conn.cursor()
            return cur.execute(sql.SQL(query).format(self.ident(table)), params).fetchall()  # type: ignore[arg-type]

    # --- documents --------------------------------------------------------------------------------
    def document_hashes(self, conn: psycopg.Connection, db_name: str) -> dict[str, tuple[str, str]]:
        rows = conn.execute(
            sql.SQL("SELECT doc_key, content_hash, source FROM {} WHERE db_name = %s").format(self.ident("documents")),
            (db_name,),
        ).fetchall()
        return {r[0]: (r[1], r[2]) for r in rows}

    def upsert_documents(self, conn: psycopg.Connection, docs: Sequence[Document], vectors: np.ndarray,
                         fingerprint: str) -> None:
        statement = sql.SQL(
            "INSERT INTO {} ({}) VALUES ({}) ON CONFLICT (db_name, doc_key) DO UPDATE SET "
            "kind = EXCLUDED.kind, source = EXCLUDED.source, fingerprint = EXCLUDED.fingerprint, "
            "table_name = EXCLUDED.table_name, column_name = EXCLUDED.column_name, text = EXCLUDED.text, "
            "lexical = EXCLUDED.lexical, vals = EXCLUDED.vals, content_hash = EXCLUDED.content_hash, "
            "data = EXCLUDED.data, embedding = EXCLUDED.embedding, updated_at = now(), "
            "revision = {}.revision + 1"
        ).format(self.ident("documents"), sql.SQL(", ").join(map(sql.Identifier, _DOC_COLUMNS)),
                 sql.SQL(", ").join(sql.Placeholder() * len(_DOC_COLUMNS)), sql.Identifier("documents"))
        rows = [_doc_row(doc, vec, fingerprint) for doc, vec in zip(docs, vectors, strict=True)]
        with conn.cursor() as cur:
            cur.executemany(statement, rows)

    def delete_documents(self, conn: psycopg.Connection, db_name: str, keys: Sequence[str]) -> None:
        conn.execute(sql.SQL("DELETE FROM {} WHERE db_name = %s AND doc_key = ANY(%s)").format(self.ident("documents")),
                     (db_name, list(keys)))

    def set_fingerprint(self, conn: psycopg.Connection, db_name: str, fingerprint: str, model: str,
                        info: dict[str, Any], *, dimension: int | None = None) -> None:
        """Record a build of ``db_name``: its structure's fingerprint and the embedding model and dimension."""
        conn.execute(
            sql.SQL("INSERT INTO {} (db_name, fingerprint, model, info, dimension) VALUES (%s, %s, %s, %s, %s) "
                    "ON CONFLICT (db_name) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, "
                    "model = EXCLUDED.model, info = EXCLUDED.info, dimension = EXCLUDED.dimension, "
                    "built_at = now()").format(self.ident("databases")),
            (db_name, fingerprint, model, Jsonb(info), dimension),
        )

    def database_info(self, db_name: str) -> DatabaseRow | None:
        if not self.exists():
            return None
        rows = self._read("SELECT fingerprint, model, info FROM {} WHERE db_name = %s", "databases", (db_name,))
        return (rows[0][0], rows[0][1], rows[0][2]) if rows else None

    def database_row(self, conn: psycopg.Connection, db_name: str, *, lock: bool = False) -> DatabaseRow | None:
        """(fingerprint, model, info) of ``db_name`` in ``conn``'s transaction (locked until it ends)."""
        statement = "SELECT fingerprint, model, info FROM {} WHERE db_name = %s" + (" FOR UPDATE" if lock else "")
        row = conn.execute(sql.SQL(statement).format(self.ident("databases")), (db_name,)).fetchone()  # type: ignore[arg-type]
        return (row[0], row[1], row[2]) if row else None

    def delete_database(self, conn: psycopg.Connection, db_name: str) -> None:
        conn.execute(sql.SQL("DELETE FROM {} WHERE db_name = %s").format(self.ident("databases")), (db_name,))

    def restamp_documents(self, conn: psycopg.Connection, db_name: str, fingerprint: str) -> None:
        """Every document of ``db_name`` carries ``fingerprint`` (the unchanged ones too)."""
        conn.execute(sql.SQL("UPDATE {} SET fingerprint = %s WHERE db_name = %s AND fingerprint <> %s").format(
            self.ident("documents")), (fingerprint, db_name, fingerprint))

    def document(self, conn: psycopg.Connection, db_name: str, key: str, *, lock: bool) -> Document | None:
        """One document of ``db_name`` (``lock``: FOR UPDATE, until ``conn``'s transaction ends)."""
        statement = "SELECT * FROM {} WHERE db_name = %s AND doc_key = %s" + (" FOR UPDATE" if lock else "")
        row = conn.cursor(row_factory=dict_row).execute(
            sql.SQL(statement).format(self.ident("documents")), (db_name, key)).fetchone()  # type: ignore[arg-type]
        return row_to_document(row) if row else None

    def lock_entry(self, conn: psycopg.Connection, db_name: str, key: str) -> None:
        """Serialize changes of one KB entry until ``conn``'s transaction ends."""
        conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (f"{db_name}|{key}",))

    # --- retrieval (the shared connection) -----------------------------------------------------------
    def catalog_rows(self, db_name: str) -> list[dict[str, Any]]:
        """Every document of ``db_name`` as the retrieval catalog reads it, in build order."""
        return self._read("SELECT kind, doc_key, table_name, column_name, vals, data FROM {} WHERE db_name = %s "
                          "ORDER BY id", "documents", (db_name,), dicts=True)

    def score_documents(self, db_name: str, vector: np.ndarray, tsquery: str) -> list[tuple[Any, ...]]:
        """(kind, key, table, column, dense, lexical, matched values) of every table and column document."""
        with driver_errors():
            return self.shared().execute(sql.SQL(_SCORE_SQL).format(documents=self.ident("documents")),
                                         {"q": vector, "tsq": tsquery, "db": db_name}).fetchall()

    def metric_similarities(self, db_name: str, vector: np.ndarray) -> dict[str, float]:
        """Cosine similarity of ``vector`` to each metric document, by metric name."""
        rows = self._read("SELECT data->>'name', 1 - (embedding <=> %s) FROM {} WHERE db_name = %s AND kind = 'metric'",
                          "documents", (vector, db_name))
        return {str(r[0]): float(r[1]) for r in rows}

    def nearest_verified(self, db_name: str, vector: np.ndarray, n: int) -> list[tuple[Any, ...]]:
        """(id, question, sql, params, source, similarity) of the ``n`` closest verified queries."""
        return self._read("SELECT id, question, sql, params, source, 1 - (embedding <=> %s) FROM {} WHERE db_name = %s "
                          "ORDER BY embedding <=> %s LIMIT %s", "verified_queries", (vector, db_name, vector, n))

    # --- verified queries --------------------------------------------------------------------------
    def insert_verified(self, conn: psycopg.Connection, queries: Sequence[NewVerifiedQuery],
                        vectors: np.ndarray | Sequence[Any], *, skip_present: bool = False) -> list[int | None]:
        """The one way verified queries are written; their ids in order (None: skipped because
        ``skip_present`` and the same db_name, question and SQL is already there)."""
        unless = " WHERE NOT EXISTS (SELECT 1 FROM {0} WHERE db_name = %s AND question = %s AND sql = %s)"
        statement = sql.SQL("INSERT INTO {0} (db_name, question, sql, params, embedding, source, ext_id) "
                            "SELECT %s, %s, %s, %s, %s, %s, %s" + (unless if skip_present else "")
                            + " RETURNING id").format(self.ident("verified_queries"))
        ids: list[int | None] = []
        for q, vector in zip(queries, vectors, strict=True):
            params = (q.db_name, q.question, q.sql, Jsonb(q.params), vector, q.source, q.ext_id)
            row = conn.execute(statement, params + ((q.db_name, q.question, q.sql) if skip_present else ())).fetchone()
            ids.append(int(row[0]) if row else None)
        return ids

    def golden_pairs(self, db_name: str) -> list[tuple[str, str]]:
        """(question, sql) of ``db_name``'s golden verified queries, in the order they were written."""
        rows = self._read("SELECT question, sql FROM {} WHERE db_name = %s AND source = 'golden' ORDER BY id",
                          "verified_queries", (db_name,))
        return [(r[0], r[1]) for r in rows]

    def verified_pairs(self, conn: psycopg.Connection, ids: Sequence[int]) -> dict[int, tuple[str, str]]:
        """(question, sql) of the verified queries ``ids`` that exist, locked until ``conn``'s transaction ends."""
        rows = conn.execute(sql.SQL("SELECT id, question, sql FROM {} WHERE id = ANY(%s) FOR UPDATE").format(
            self.ident("verified_queries")), (list(ids),)).fetchall()
        return {int(r[0]): (r[1], r[2]) for r in rows}

    def delete_verified(self, conn: psycopg.Connection, ids: Sequence[int]) -> None:
        conn.execute(sql.SQL("DELETE FROM {} WHERE id = ANY(%s)").format(self.ident("verified_queries")), (list(ids),))

    def delete_verified_of(self, conn: psycopg.Connection, db_name: str, *, golden: bool) -> None:
        """Delete ``db_name``'s golden verified queries (``golden``), or every other one."""
        statement = "DELETE FROM {} WHERE db_name = %s AND source " + ("=" if golden else "<>") + " 'golden'"
        conn.execute(sql.SQL(statement).format(self.ident("verified_queries")), (db_name,))  # type: ignore[arg-type]

    # --- revisions ---------------------------------------------------------------------------------
    def add_revision(self, conn: psycopg.Connection, *, author: str, kind: str, payload: dict[str, Any],
                     question: str | None = None, sql_text: str | None = None) -> dict[str, Any]:
        """Record a revision in ``conn``'s transaction; its row as written."""
        row = conn.cursor(row_factory=dict_row).execute(
            sql.SQL("INSERT INTO {} (author, question, sql, kind, payload) VALUES (%s, %s, %s, %s, %s) "
                    "RETURNING *").format(self.ident("revisions")),
            (author, question, sql_text, kind, Jsonb(payload))).fetchone()
        assert row is not None  # INSERT ... RETURNING
        return row

    def revisions(self, db_name: str | None = None) -> list[dict[str, Any]]:
        """Every revision (of one database, or all), newest first."""
        with self.transaction() as conn:
            return conn.cursor(row_factory=dict_row).execute(
                sql.SQL("SELECT * FROM {} WHERE %s::text IS NULL OR payload->>'db_name' = %s ORDER BY id DESC").format(
                    self.ident("revisions")), (db_name, db_name)).fetchall()

    def revision(self, conn: psycopg.Connection, revision_id: int) -> dict[str, Any] | None:
        """One revision, locked until ``conn``'s transaction ends."""
        return conn.cursor(row_factory=dict_row).execute(
            sql.SQL("SELECT * FROM {} WHERE id = %s FOR UPDATE").format(self.ident("revisions")),
            (revision_id,)).fetchone()

    def mark_undone(self, conn: psycopg.Connection, revision_id: int, *, by: str) -> None:
        conn.execute(sql.SQL("UPDATE {} SET undone = true, undone_by = %s, undone_at = now() WHERE id = %s").format(
            self.ident("revisions")), (by, revision_id))

    def later_revision(self, conn: psycopg.Connection, revision_id: int, db_name: str, key: str) -> int | None:
        """The newest active revision after ``revision_id`` that changed the entry (an edit or an import)."""
        row = conn.execute(
            sql.SQL("SELECT id FROM {} WHERE id > %s AND NOT undone AND ((payload->>'db_name' = %s "
                    "AND payload->>'key' = %s) OR (kind = 'import' AND payload->'documents' @> %s)) "
                    "ORDER BY id DESC LIMIT 1").format(self.ident("revisions")),
            (revision_id, db_name, key, Jsonb([{"db_name": db_name, "key": key}]))).fetchone()
        return int(row[0]) if row else None

    # --- export and import -------------------------------------------------------------------------
    def export_rows(self, db_name: str | None = None) -> tuple[list[dict[str, Any]], ...]:
        """(documents, verified queries, databases) of one database, or all, as plain rows, in one snapshot."""
        where = sql.SQL("WHERE %(db)s::text IS NULL OR db_name = %(db)s")
        with self.transaction() as conn:
            cur = conn.cursor(row_factory=dict_row)
            docs = cur.execute(sql.SQL("SELECT db_name, doc_key, kind, source, table_name, column_name, text, lexical, "
                                       "vals, data FROM {} {} ORDER BY db_name, id").format(
                self.ident("documents"), where), {"db": db_name}).fetchall()
            verified = cur.execute(sql.SQL("SELECT db_name, question, sql, params, source, ext_id FROM {} {} "
                                           "ORDER BY id").format(self.ident("verified_queries"), where),
                                   {"db": db_name}).fetchall()
            databases = cur.execute(sql.SQL("SELECT db_name, fingerprint, model, info FROM {} {} ORDER BY db_name").format(
                self.ident("databases"), where), {"db": db_name}).fetchall()
        return docs, verified, databases

    def contents_of(self, names: Sequence[str]) -> tuple[dict[tuple[str, str], str], set[tuple[str, str, str]],
                                                         dict[str, DatabaseRow]]:
        """Of the databases ``names``: document hashes by (db, key), verified (db, question, sql), and
        (fingerprint, model, info) by db."""
        names = list(names)
        docs = self._read("SELECT db_name, doc_key, content_hash FROM {} WHERE db_name = ANY(%s)", "documents", (names,))
        queries = self._read("SELECT db_name, question, sql FROM {} WHERE db_name = ANY(%s)", "verified_queries",
                             (names,))
        prints = self._read("SELECT db_name, fingerprint, model, info FROM {} WHERE db_name = ANY(%s)", "databases",
                            (names,))
        return ({(r[0], r[1]): r[2] for r in docs}, {(r[0], r[1], r[2]) for r in queries},
                {r[0]: (r[1], r[2], r[3]) for r in prints})

    # --- the embedding model (one per KB schema: its vector columns have one dimension) ----------------
    def embedding_state(self, conn: psycopg.Connection) -> EmbeddingState:
        """The vector columns' dimension (None before the tables exist) and the models databases were built with."""
        row = conn.execute("SELECT atttypmod FROM pg_attribute WHERE attrelid = to_regclass(%s) AND attname = 'embedding'",
                           (f'"{self.schema}".documents',)).fetchone()
        if row is None:
            return EmbeddingState(None, ())
        models = conn.execute(sql.SQL("SELECT DISTINCT model FROM {} ORDER BY 1").format(self.ident("databases"))).fetchall()
        return EmbeddingState(int(row[0]) if row[0] > 0 else None, tuple(r[0] for r in models))

    def current_embedding(self) -> EmbeddingState:
        """:meth:`embedding_state` on the shared connection (no connection of its own: opening a KB is cheap)."""
        with driver_errors():
            return self.embedding_state(self.shared())

    def lock_embedding(self, conn: psycopg.Connection) -> None:
        """One re-embedding of the schema at a time, until ``conn``'s transaction ends."""
        conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (f"{self.schema}|embedding",))

    def embedded_texts(self, conn: psycopg.Connection) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
        """(id, text) of every document and (id, question) of every verified query, of all databases."""
        docs = conn.execute(sql.SQL("SELECT id, text FROM {} ORDER BY id").format(self.ident("documents"))).fetchall()
        queries = conn.execute(sql.SQL("SELECT id, question FROM {} ORDER BY id").format(
            self.ident("verified_queries"))).fetchall()
        return [(int(r[0]), r[1]) for r in docs], [(int(r[0]), r[1]) for r in queries]

    def replace_embeddings(self, conn: psycopg.Connection, model: str, dimension: int,
                           documents: Sequence[tuple[int, np.ndarray]], queries: Sequence[tuple[int, np.ndarray]]) -> None:
        """Give every document and verified query its vector by ``model``, in ``conn``'s transaction: the
        vector columns take ``dimension``, the cache of the old model's vectors is emptied, the indexes are
        rebuilt and every database is recorded as embedded by ``model``."""
        schema = sql.Identifier(self.schema)
        for index in ("documents_embedding_hnsw", "verified_queries_hnsw"):
            conn.execute(sql.SQL("DROP INDEX IF EXISTS {}.{}").format(schema, sql.Identifier(index)))
        conn.execute(sql.SQL("TRUNCATE {}").format(self.ident("embedding_cache")))
        for table in _VECTOR_TABLES:  # no dimension while rows change from the old one to the new one
            conn.execute(sql.SQL("ALTER TABLE {} ALTER COLUMN embedding TYPE vector").format(self.ident(table)))
        for table, rows in (("documents", documents), ("verified_queries", queries)):
            with conn.cursor() as cur:
                cur.executemany(sql.SQL("UPDATE {} SET embedding = %s WHERE id = %s").format(self.ident(table)),
                                [(np.asarray(v, dtype=np.float32), i) for i, v in rows])
        for table in _VECTOR_TABLES:
            conn.execute(sql.SQL("ALTER TABLE {} ALTER COLUMN embedding TYPE vector({})").format(
                self.ident(table), sql.Literal(dimension)))
        if dimension <= HNSW_MAX_DIMENSION:
            conn.execute(_HNSW_DDL.format(schema=schema.as_string(conn)))  # type: ignore[arg-type]
        conn.execute(sql.SQL("UPDATE {} SET model = %s, dimension = %s").format(self.ident("databases")),
                     (model, dimension))

    # --- embedding cache ---------------------------------------------------------------------------
    def cached_embeddings(self, conn: psycopg.Connection, keys: Sequence[str]) -> dict[str, np.ndarray]:
        rows = conn.execute(
            sql.SQL("SELECT content_hash, embedding FROM {} WHERE content_hash = ANY(%s)").format(
                self.ident("embedding_cache")), (list(keys),)
        ).fetchall()
        return {r[0]: as_array(r[1]) for r in rows}

    def cache_embeddings(self, conn: psycopg.Connection, items: dict[str, np.ndarray]) -> None:
        statement = sql.SQL("INSERT INTO {} (content_hash, embedding) VALUES (%s, %s) ON CONFLICT DO NOTHING").format(
            self.ident("embedding_cache"))
        with conn.cursor() as cur:
            cur.executemany(statement, list(items.items()))

    # --- query log and feedback -----------------------------------------------------------------------
    def log_query(self, question: str, sql_text: str | None, status: str, trace: dict[str, Any], *,
                  asked_by: str = "") -> int:
        with self.transaction() as conn:
            row = conn.execute(
                sql.SQL("INSERT INTO {} (question, sql, status, trace, asked_by) VALUES (%s, %s, %s, %s, %s) "
                        "RETURNING id").format(self.ident("query_log")),
                (question, sql_text, status, Jsonb(trace), asked_by),
            ).fetchone()
        return int(row[0]) if row else 0

    def add_feedback(self, question: str, sql_text: str | None, reason: str, *, query_id: int | None = None,
                     author: str = "") -> int:
        with self.transaction() as conn:
            row = conn.execute(
                sql.SQL("INSERT INTO {} (query_id, question, sql, reason, author) VALUES (%s, %s, %s, %s, %s) "
                        "RETURNING id").format(self.ident("feedback")),
                (query_id, question, sql_text, reason, author),
            ).fetchone()
        return int(row[0]) if row else 0

    # --- learned synonyms of the semantic layer -------------------------------------------------------
    def insert_synonym(self, conn: psycopg.Connection, *, db_name: str, phrase: str, normalized: str, kind: str,
                       target: str, language: str, created_by: str) -> int:
        """Add a learned phrase in ``conn``'s transaction (the table is created in a KB built before it)."""
        self._create_synonyms(conn)
        try:
            with conn.transaction():
                row = conn.execute(
                    sql.SQL("INSERT INTO {} (db_name, phrase, normalized, kind, target, language, created_by) "
                            "VALUES (%s, %s, %s, %s, %s, %s, %s) RETURNING id").format(self.ident("semantic_synonyms")),
                    (db_name, phrase, normalized, kind, target, language, created_by)).fetchone()
        except psycopg.errors.UniqueViolation as err:
            raise KnowledgeBaseError(f"'{phrase}' is already a learned phrase.",
                                     hint="See them with `aria kb synonym list`; undo that revision first.") from err
        return int(row[0]) if row else 0

    def set_synonym_revision(self, conn: psycopg.Connection, synonym_id: int, revision_id: int) -> None:
        conn.execute(sql.SQL("UPDATE {} SET revision_id = %s WHERE id = %s").format(self.ident("semantic_synonyms")),
                     (revision_id, synonym_id))

    def synonym(self, conn: psycopg.Connection, synonym_id: int, *, lock: bool) -> LearnedSynonym | None:
        if not self._has_synonyms(conn):
            return None
        statement = "SELECT * FROM {} WHERE id = %s" + (" FOR UPDATE" if lock else "")
        row = conn.cursor(row_factory=dict_row).execute(
            sql.SQL(statement).format(self.ident("semantic_synonyms")), (synonym_id,)).fetchone()  # type: ignore[arg-type]
        return LearnedSynonym(**row) if row else None

    def delete_synonym(self, conn: psycopg.Connection, synonym_id: int) -> None:
        conn.execute(sql.SQL("DELETE FROM {} WHERE id = %s").format(self.ident("semantic_synonyms")), (synonym_id,))

    def learned_synonyms(self, db_name: str | None = None) -> list[LearnedSynonym]:
        """The learned phrases (of one database, or all), oldest first; none in a KB without the table."""
        try:
            conn = self.shared()
            if not self._has_synonyms(conn):
                return []
            rows = conn.cursor(row_factory=dict_row).execute(
                sql.SQL("SELECT * FROM {} WHERE %s::text IS NULL OR db_name = %s ORDER BY id").format(
                    self.ident("semantic_synonyms")), (db_name, db_name)).fetchall()
        except psycopg.Error as err:
            raise KnowledgeBaseError(f"The learned phrases could not be read: {err}".strip(),
                                     hint="Check that the knowledge-base database is running.") from err
        return [LearnedSynonym(**r) for r in rows]

    def synonym_version(self, db_name: str) -> tuple[int, int]:
        """(count, newest id) of a database's learned phrases: changes whenever one is added or removed."""
        try:
            conn = self.shared()
            if not self._has_synonyms(conn):
                return (0, 0)
            row = conn.execute(sql.SQL("SELECT count(*), coalesce(max(id), 0) FROM {} WHERE db_name = %s").format(
                self.ident("semantic_synonyms")), (db_name,)).fetchone()
        except psycopg.Error as err:
            raise KnowledgeBaseError(f"The learned phrases could not be read: {err}".strip(),
                                     hint="Check that the knowledge-base database is running.") from err
        return (int(row[0]), int(row[1])) if row else (0, 0)

    def _has_synonyms(self, conn: psycopg.Connection) -> bool:
        row = conn.execute("SELECT to_regclass(%s) IS NOT NULL", (f'"{self.schema}".semantic_synonyms',)).fetchone()
        return bool(row and row[0])

    # --- listings for the pages (newest first where it matters) ------------------------------------------
    def catalog(self) -> Rows:
        """Tables and columns with their descriptions, one row per document."""
        return self._select(
            "SELECT db_name, kind, table_name, column_name, source, revision, data->>'description' AS description, "
            "text FROM {} WHERE kind IN ('table', 'column') ORDER BY db_name, table_name, kind DESC, column_name",
            "documents")

    def glossary(self) -> Rows:
        return self._select("SELECT db_name, doc_key, source, text FROM {} WHERE kind = 'glossary' ORDER BY doc_key",
                            "documents")

    def verified_query_list(self) -> Rows:
        return self._select("SELECT id, db_name, question, sql, source, created_at FROM {} ORDER BY id DESC",
                            "verified_queries")

    def revision_list(self) -> Rows:
        return self._select("SELECT id, created_at, author, kind, question, payload, undone, undone_by FROM {} "
                            "ORDER BY id DESC", "revisions")

    def query_log_list(self, limit: int, *, asked_by: str | None = None) -> Rows:
        """The newest ``limit`` entries; only those ``asked_by`` asked when it is given."""
        if asked_by is not None:
            return self._select("SELECT id, created_at, question, sql, status, trace FROM {} WHERE asked_by = %s "
                                "ORDER BY id DESC LIMIT %s", "query_log", (asked_by, limit))
        return self._select("SELECT id, created_at, question, sql, status, trace FROM {} ORDER BY id DESC LIMIT %s",
                            "query_log", (limit,))

    def askers(self) -> list[str]:
        """Everyone who asked something ("" for the CLI and the local operator), by name."""
        return [str(r[0]) for r in self._select("SELECT DISTINCT asked_by FROM {} ORDER BY 1", "query_log")[1]]

    def _select(self, query: str, table: str, params: tuple[Any, ...] = ()) -> Rows:
        with driver_errors():
            cur = self.shared().execute(sql.SQL(query).format(self.ident(table)), params)  # type: ignore[arg-type]
            return [d.name for d in cur.description or []], cur.fetchall()


def as_array(value: Any) -> np.ndarray:
    """A pgvector value (a Vector, or already an array) as float32 numpy."""
    return np.asarray(value.to_numpy() if hasattr(value, "to_numpy") else value, dtype=np.float32)


def _doc_row(doc: Document, vector: np.ndarray, fingerprint: str) -> tuple[Any, ...]:
    return (doc.db_name, doc.key, doc.kind, doc.source, fingerprint, doc.table_name, doc.column_name, doc.text,
            doc.lexical, doc.values, doc.content_hash, Jsonb(doc.data), np.asarray(vector, dtype=np.float32))


def row_to_document(row: dict[str, Any]) -> Document:
    """A ``documents`` row (as a dict) back to a :class:`Document`."""
    data = row["data"] if isinstance(row["data"], dict) else json.loads(row["data"])
    return Document(kind=row["kind"], db_name=row["db_name"], key=row["doc_key"], source=row["source"],
                    text=row["text"], lexical=row["lexical"], values=row["vals"], table_name=row["table_name"],
                    column_name=row["column_name"], data=data)
