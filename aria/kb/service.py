"""What the CLI and the UI call: build the KB from a source spec, open it for retrieval.

Source specs: ``postgres`` (the live SmartRestaurant database, sampled, with
``seed_db/descriptions.yaml`` and the golden examples), ``sqlite:PATH``, ``spider:TABLES_JSON``,
``bird:DEV_TABLES_JSON`` (``dev_metadata.json`` beside it is read when present, or
``bird:TABLES,METADATA``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aria.config import Settings
from aria.db.connect import Targets
from aria.db.introspect import introspect_postgres, introspect_sqlite
from aria.errors import KnowledgeBaseError
from aria.kb.base import KnowledgeBase
from aria.kb.build import BuildReport, VerifiedExample, build_kb, match_embedder
from aria.kb.embed import Embedder, embedder_for
from aria.kb.metric_docs import metric_entries
from aria.kb.sampling import sample_postgres, sample_sqlite
from aria.kb.sources import apply_descriptions, bird_schemas, read_descriptions, spider_schemas
from aria.kb.store import KnowledgeStore
from aria.paths import seed_dir
from aria.sql.schema import Schema

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SourceBundle:
    schema: Schema
    glossary: list[dict[str, Any]]
    examples: list[VerifiedExample]
    metrics: list[dict[str, Any]] = field(default_factory=list)  # the semantic model's metrics, as KB entries


def golden_examples() -> list[VerifiedExample]:
    """The SmartRestaurant golden examples (``seed_db/questions/examples.yaml``), if present."""
    if not (seed_dir() / "questions" / "examples.yaml").is_file():
        log.warning("no seed_db/questions/examples.yaml: building without verified examples")
        return []
    from aria.db.golden import load_golden

    return [VerifiedExample(question=q.question, sql=q.sql, ext_id=q.id) for q in load_golden("examples")]


def postgres_bundle(conninfo: str, settings: Settings, *, descriptions: Path | None = None) -> SourceBundle:
    """The live database, sampled, with its descriptions file and golden examples."""
    schema = sample_postgres(conninfo, introspect_postgres(conninfo, settings.business_schema))
    path = descriptions or seed_dir() / "descriptions.yaml"
    glossary: list[dict[str, Any]] = []
    if path.is_file():
        schema, glossary = apply_descriptions(schema, read_descriptions(path))
    else:
        log.warning("no descriptions file at %s: building from the schema and samples only", path)
    metrics = metric_entries(business_schema=settings.business_schema, semantic_schema=settings.semantic_schema)
    return SourceBundle(schema, glossary, golden_examples(), metrics)


def source_bundles(spec: str, conninfo: str, settings: Settings, *, enriched: bool = False) -> list[SourceBundle]:
    """Parse a ``--source`` spec into the schemas to index."""
    kind, _, arg = spec.partition(":")
    if kind == "postgres":
        return [postgres_bundle(conninfo, settings)]
    if not arg:
        raise KnowledgeBaseError(f"The source {spec!r} needs a path.", hint="Use e.g. sqlite:shop.db or spider:tables.json.")
    if kind == "sqlite":
        path = Path(arg)
        return [SourceBundle(sample_sqlite(path, introspect_sqlite(path)), [], [])]
    if kind == "spider":
        return [SourceBundle(s, [], []) for s in spider_schemas(Path(arg)).values()]
    if kind == "bird":
        tables, _, meta = arg.partition(",")
        metadata = Path(meta) if meta else Path(tables).with_name("dev_metadata.json")
        return [SourceBundle(s, [], []) for s in bird_schemas(Path(tables), metadata, enriched=enriched).values()]
    raise KnowledgeBaseError(f"Unknown KB source {spec!r}.",
                             hint="Use postgres, sqlite:PATH, spider:TABLES_JSON or bird:DEV_TABLES_JSON.")


def build_from_source(spec: str, conninfo: str, kb_conninfo: str, settings: Settings, *, enriched: bool = False,
                      embedder: Embedder | None = None,
                      progress: Callable[[int], None] | None = None) -> list[BuildReport]:
    """Build (incrementally) the KB for every database of the source."""
    store = KnowledgeStore(kb_conninfo, settings)
    embedder = embedder or embedder_for(settings)
    try:
        return [build_kb(store, embedder, b.schema, glossary=b.glossary, examples=b.examples, metrics=b.metrics,
                         progress=progress, info={"source": spec, "enriched": enriched})
                for b in source_bundles(spec, conninfo, settings, enriched=enriched)]
    finally:
        store.close()


def build_restaurant_kb(settings: Settings, targets: Targets, *,
                        progress: Callable[[int], None] | None = None) -> BuildReport:
    """Build (incrementally) the KB of the live restaurant database: the UI's and `aria kb build`'s default."""
    return build_from_source("postgres", targets.admin, targets.kb, settings, progress=progress)[0]


def open_kb(settings: Settings, kb_conninfo: str, *, db_name: str | None = None, schema: Schema | None = None,
            embedder: Embedder | None = None) -> KnowledgeBase:
    """The KB of ``db_name`` (default: the business schema), checked against ``schema`` when given; a KB
    embedded by another model than ``embedder`` (default: ``ARIA_EMBEDDING_MODEL``'s) is re-embedded first."""
    store = KnowledgeStore(kb_conninfo, settings)
    kb = KnowledgeBase(store, embedder or embedder_for(settings), db_name or settings.business_schema)
    match_embedder(store, kb.embedder)
    kb.check(schema)
    return kb
