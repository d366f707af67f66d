"""Building the KB: documents from a schema, embedded in batches (cached by content hash), written
incrementally (unchanged documents are neither re-embedded nor rewritten; enrichment is kept).

A KB schema holds the vectors of one embedding model: a build or an open with another model (or
dimension) first re-embeds everything in it (:func:`match_embedder`) instead of mixing vectors.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from aria.errors import KnowledgeBaseError
from aria.kb.documents import Document, embedding_key, schema_documents, schema_fingerprint
from aria.kb.embed import Embedder
from aria.kb.store import KnowledgeStore, NewVerifiedQuery
from aria.sql.schema import Schema

log = logging.getLogger(__name__)

Progress = Callable[[int], None]


@dataclass(frozen=True)
class VerifiedExample:
    question: str
    sql: str
    ext_id: str = ""
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class BuildReport:
    db_name: str
    fingerprint: str
    documents: int
    added: int
    updated: int
    unchanged: int
    deleted: int
    embedded: int  # vectors the model computed (the rest came from the cache)
    examples: int


def check_schema(schema: Schema) -> None:
    """Reject what cannot make a useful KB, with the fix."""
    if not schema.tables:
        raise KnowledgeBaseError(f"The database {schema.name!r} has no tables: nothing to index.",
                                 hint="Point `aria kb build --source` at a database with tables.")
    empty = [t.name for t in schema.tables if not t.columns]
    if len(empty) == len(schema.tables):
        raise KnowledgeBaseError(f"No table of {schema.name!r} has columns.", hint="Check the source database.")


def embed_documents(store: KnowledgeStore, embedder: Embedder, texts: Sequence[str], *,
                    progress: Progress | None = None) -> tuple[np.ndarray, int]:
    """Vectors for ``texts``: from the cache when known, else computed in batches and cached."""
    keys = [embedding_key(embedder.name, t) for t in texts]
    with store.transaction() as conn:
        cached = store.cached_embeddings(conn, list(dict.fromkeys(keys)))
    missing = list(dict.fromkeys(t for t, k in zip(texts, keys, strict=True) if k not in cached))
    if progress and len(missing) < len(texts):
        progress(len(texts) - len(missing))
    if missing:
        vectors = embedder.embed(missing, progress=progress)
        fresh = {embedding_key(embedder.name, t): v for t, v in zip(missing, vectors, strict=True)}
        with store.transaction() as conn:
            store.cache_embeddings(conn, fresh)
        cached.update(fresh)
    out = np.vstack([cached[k] for k in keys]) if keys else np.zeros((0, 0), dtype=np.float32)
    return out, len(missing)


def match_embedder(store: KnowledgeStore, embedder: Embedder) -> int:
    """Re-embed the whole KB schema when it was embedded by another model or dimension than ``embedder``:
    every document and verified query of every database (enrichment and confirmed questions kept, only
    their vectors change), in one transaction that also gives the vector columns the new dimension.
    How many texts were re-embedded (0: the KB already matches, or does not exist)."""
    if store.current_embedding().matches(embedder.name, embedder.dimension):
        return 0
    with store.transaction() as conn:
        store.lock_embedding(conn)
        state = store.embedding_state(conn)
        if state.matches(embedder.name, embedder.dimension):  # another process re-embedded it meanwhile
            return 0
        docs, queries = store.embedded_texts(conn)
        log.warning("the knowledge base %s was embedded by %s (%s dimensions); re-embedding its %d documents and "
                    "%d verified questions with %s (%d)", store.schema, ", ".join(state.models) or "another model",
                    state.dimension, len(docs), len(queries), embedder.name, embedder.dimension)
        texts = [t for _, t in docs] + [q for _, q in queries]
        vectors = embedder.embed(texts) if texts else np.zeros((0, embedder.dimension), dtype=np.float32)
        store.replace_embeddings(conn, embedder.name, embedder.dimension,
                                 [(i, v) for (i, _), v in zip(docs, vectors, strict=False)],
                                 [(i, v) for (i, _), v in zip(queries, vectors[len(docs):], strict=True)])
        store.cache_embeddings(conn, {embedding_key(embedder.name, t): v for t, v in zip(texts, vectors, strict=True)})
    return len(texts)


def build_kb(store: KnowledgeStore, embedder: Embedder, schema: Schema, *,
             glossary: list[dict[str, Any]] | None = None, examples: Sequence[VerifiedExample] = (),
             metrics: list[dict[str, Any]] | None = None, progress: Progress | None = None,
             info: dict[str, Any] | None = None) -> BuildReport:
    """Index ``schema`` (and its glossary, metrics and verified examples) under ``schema.name``; idempotent."""
    check_schema(schema)
    store.ensure_schema(embedder.dimension)
    match_embedder(store, embedder)
    fingerprint = schema_fingerprint(schema)
    docs = schema_documents(schema, glossary, metrics)
    with store.transaction() as conn:
        existing = store.document_hashes(conn, schema.name)
    enriched = {k for k, (_, src) in existing.items() if src == "enrichment"}
    changed = [d for d in docs if d.key not in enriched and existing.get(d.key, ("",))[0] != d.content_hash]
    stale = [k for k in existing if k not in {d.key for d in docs} and k not in enriched]
    vectors, computed = embed_documents(store, embedder, [d.text for d in changed], progress=progress)
    example_count, example_computed = _examples_vectors(store, embedder, schema.name, examples)
    with store.transaction() as conn:
        if changed:
            store.upsert_documents(conn, changed, vectors, fingerprint)
        if stale:
            store.delete_documents(conn, schema.name, stale)
        store.restamp_documents(conn, schema.name, fingerprint)
        if example_count is not None:
            store.delete_verified_of(conn, schema.name, golden=True)
            store.insert_verified(conn, [NewVerifiedQuery(schema.name, e.question, e.sql, "golden", e.params, e.ext_id)
                                         for e in examples], example_count)
        store.set_fingerprint(conn, schema.name, fingerprint, embedder.name, info or {},
                              dimension=embedder.dimension)
    added = sum(1 for d in changed if d.key not in existing)
    report = BuildReport(db_name=schema.name, fingerprint=fingerprint, documents=len(docs), added=added,
                         updated=len(changed) - added, unchanged=len(docs) - len(changed), deleted=len(stale),
                         embedded=computed + example_computed, examples=len(examples))
    log.info("built KB for %s: %s", schema.name, report)
    return report


def _examples_vectors(store: KnowledgeStore, embedder: Embedder, db_name: str,
                      examples: Sequence[VerifiedExample]) -> tuple[np.ndarray | None, int]:
    """Vectors of the golden examples, or None when the stored ones are already identical."""
    if store.golden_pairs(db_name) == [(e.question, e.sql) for e in examples]:
        return None, 0
    return embed_documents(store, embedder, [e.question for e in examples])


def documents_of(schema: Schema, glossary: list[dict[str, Any]] | None = None,
                 metrics: list[dict[str, Any]] | None = None) -> list[Document]:
    """The documents a build would write (for inspection and tests)."""
    return schema_documents(schema, glossary, metrics)
