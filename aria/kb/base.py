"""The knowledge base of one database: retrieval and nearest verified examples.

>>> kb = KnowledgeBase(store, get_embedder(), "restaurant")  # doctest: +SKIP
>>> kb.retrieve("doanh thu tháng này", k=3, m=8).render()  # doctest: +SKIP
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from dataclasses import replace
from functools import cached_property
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict

from aria.errors import KnowledgeBaseError
from aria.kb.catalog import Catalog, catalog_from_rows
from aria.kb.context import SchemaContext
from aria.kb.documents import schema_fingerprint
from aria.kb.embed import Embedder
from aria.kb.retrieve import RetrievalOptions, ScoredDoc, merge_selections, metric_hits, select, to_context
from aria.kb.route import database_scores, databases, pick_databases, restrict, runner_up_tier
from aria.kb.store import KnowledgeStore
from aria.sql.schema import Schema
from aria.text import normalize, query_terms

log = logging.getLogger(__name__)

QUERY_VECTOR_CACHE = 64  # question vectors kept per KnowledgeBase
LEAN_BUDGET = 1  # a lean runner-up database: its floor columns only (0 would mean m per table)


class VerifiedQuery(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: int
    question: str
    sql: str
    params: dict[str, Any] = {}
    source: str
    similarity: float = 0.0


class KnowledgeBase:
    """Retrieval over the KB documents of ``db_name``. Cheap to keep; thread-safe for reads."""

    def __init__(self, store: KnowledgeStore, embedder: Embedder, db_name: str, *,
                 options: RetrievalOptions | None = None) -> None:
        self.store = store
        self.embedder = embedder
        self.db_name = db_name
        self.options = options or RetrievalOptions()
        self._vectors: OrderedDict[str, np.ndarray] = OrderedDict()
        self._vector_lock = threading.Lock()

    def check(self, schema: Schema | None = None) -> None:
        """Fail clearly when the KB is missing, or was built for another database than ``schema``."""
        info = self.store.database_info(self.db_name)
        if info is None:
            raise KnowledgeBaseError(f"No knowledge base for {self.db_name!r} in schema {self.store.schema!r}.",
                                     hint="Build it with `aria kb build`.")
        if schema is not None and info[0] != schema_fingerprint(schema):
            raise KnowledgeBaseError(
                f"The knowledge base of {self.db_name!r} was built for another database structure "
                f"(fingerprint {info[0]} != {schema_fingerprint(schema)}).",
                hint="Rebuild it with `aria kb build`.")
        if info[1] != self.embedder.name:
            raise KnowledgeBaseError(f"The knowledge base was embedded with {info[1]!r}, not {self.embedder.name!r}.",
                                     hint="Run `aria kb build` (it re-embeds the knowledge base with the new model), "
                                          "or set ARIA_EMBEDDING_MODEL back.")

    @cached_property
    def catalog(self) -> Catalog:
        rows = self.store.catalog_rows(self.db_name)
        if not rows:
            raise KnowledgeBaseError(f"The knowledge base of {self.db_name!r} is empty.",
                                     hint="Build it with `aria kb build`.")
        return catalog_from_rows(self.db_name, rows)

    def refresh(self) -> None:
        """Forget the cached catalog (after a rebuild or an enrichment)."""
        self.__dict__.pop("catalog", None)

    def embed_query(self, text: str) -> np.ndarray:
        """The question's vector; the last few are kept, so retrieve() and nearest_examples() on one
        question embed it once."""
        with self._vector_lock:
            cached = self._vectors.get(text)
            if cached is not None:
                self._vectors.move_to_end(text)
                return cached
        vector = np.asarray(self.embedder.embed([text])[0], dtype=np.float32)
        vector.setflags(write=False)
        with self._vector_lock:
            self._vectors[text] = vector
            while len(self._vectors) > QUERY_VECTOR_CACHE:
                self._vectors.popitem(last=False)
        return vector

    def score(self, vector: np.ndarray, text: str) -> list[ScoredDoc]:
        terms = " | ".join(query_terms(text))
        rows = self.store.score_documents(self.db_name, vector, terms)
        return [ScoredDoc(kind=r[0], key=r[1], table=r[2], column=r[3], dense=float(r[4]), lex=float(r[5]),
                          values=r[6]) for r in rows]

    def retrieve(self, question: str, *, evidence: str = "", k: int = 3, m: int = 8, budget: int = 0,
                 full_schema_budget: int = 0, vector: np.ndarray | None = None) -> SchemaContext:
        """The schema context for ``question`` (whole schema when it fits ``full_schema_budget`` tokens);
        ``budget`` > 0: retrieved columns fill that many tokens, at most ``m`` per table (see ``select``)."""
        catalog = self.catalog
        text = f"{question} {evidence}".strip()
        if full_schema_budget and catalog.full_token_count <= full_schema_budget:
            full = catalog.full_context()
            return self._with_metrics(full.model_copy(update={"k": k, "m": m, "budget": budget}), text, vector)
        if vector is None:
            vector = self.embed_query(text)
        docs = self.score(vector, text)
        if self.options.max_databases <= 0 or not databases(catalog):
            sel, values, hits = select(catalog, docs, normalize(text), k=k, m=m, opts=self.options, raw=text,
                                       budget=budget)
            return self._with_metrics(to_context(catalog, sel, values, hits, k=k, m=m, budget=budget), text, vector)
        return self._retrieve_routed(catalog, docs, text, k=k, m=m, budget=budget)

    def _with_metrics(self, context: SchemaContext, text: str, vector: np.ndarray | None) -> SchemaContext:
        """The context with the governed metrics the question names (none when the KB has no metrics)."""
        if not self.catalog.metrics:
            return context
        vector = self.embed_query(text) if vector is None else vector
        hits = metric_hits(self.catalog, normalize(text), self.store.metric_similarities(self.db_name, vector))
        return context.model_copy(update={"metric_hits": tuple(hits)})

    def _retrieve_routed(self, catalog: Catalog, docs: list[ScoredDoc], text: str, *, k: int, m: int,
                         budget: int = 0) -> SchemaContext:
        """A warehouse of several databases: retrieve inside the best-scoring one with ``k`` tables, and
        keep a runner-up as long as the winner's margin over it is small (:func:`runner_up_tier`): a
        close one with ``runner_up_k`` tables and half the column budget; a near one (or one whose
        sampled value the question names) as a lean share: its best table with its best few columns
        (``column_floor``), the columns the question names or whose values it names, and keys, but
        no table added by a name alone. A wide margin commits to the winner."""
        opts = self.options
        scores = database_scores(docs, lexical_weight=opts.database_lexical)
        candidates = pick_databases(scores, max_databases=opts.max_databases,
                                    ratio=min(opts.database_ratio, opts.database_value_ratio))
        best = scores[candidates[0]] if candidates else 0.0
        lean = replace(opts, extra_tables=0, max_bridges=0, max_value_tables=2, names_add_tables=False)
        chosen, parts = [], []
        for rank, db in enumerate(candidates):
            tier = None if rank == 0 else runner_up_tier(scores[db], best, close=opts.database_close,
                                                         ratio=opts.database_ratio, value_ratio=opts.database_value_ratio)
            if rank and tier is None:
                continue
            sub = restrict(catalog, [db])
            sub_docs = [d for d in docs if d.table in sub.tables]
            share_k, share_opts, share_budget = ((k, opts, budget) if rank == 0 else
                                                 (min(k, opts.runner_up_k), opts, budget // 2) if tier == "close" else
                                                 (1, lean, LEAN_BUDGET))
            part = select(sub, sub_docs, normalize(text), k=share_k, m=m, opts=share_opts, raw=text, budget=share_budget)
            if tier != "value" or part[1]:
                chosen.append(db)
                parts.append(part)
        sel, values, hits = merge_selections(parts)
        return to_context(restrict(catalog, chosen), sel, values, hits, k=k, m=m, budget=budget)

    def nearest_examples(self, question: str, n: int = 3) -> list[VerifiedQuery]:
        """The ``n`` verified queries whose questions are closest to ``question`` (cosine similarity)."""
        vector = self.embed_query(question)
        rows = self.store.nearest_verified(self.db_name, vector, n)
        return [VerifiedQuery(id=r[0], question=r[1], sql=r[2], params=r[3] or {}, source=r[4], similarity=float(r[5]))
                for r in rows]
