"""Building an :class:`~aria.reflect.engine.Engine` from the settings: executor, schema,
knowledge base (checked against the database's fingerprint) and models."""

from __future__ import annotations

from aria.config import Settings
from aria.db.connect import Targets, resolve_targets
from aria.db.executor import ReadOnlyExecutor
from aria.db.introspect import introspect_postgres
from aria.kb.embed import Embedder
from aria.kb.service import open_kb
from aria.llm.client import ModelClient, build_model_client
from aria.reflect.deps import EngineDeps
from aria.reflect.engine import Engine
from aria.reflect.semantic_stage import open_semantic_layer
from aria.sql.guard import schema_columns

_UNSET = object()


def open_engine(
    settings: Settings, *, targets: Targets | None = None, embedder: Embedder | None = None,
    models: ModelClient | None | object = _UNSET,
) -> Engine:
    """The engine for the restaurant database; raises a clear AriaError when a piece is missing
    (no database, no knowledge base, a bad model spec)."""
    targets = targets or resolve_targets(settings)
    schema = introspect_postgres(targets.admin, settings.business_schema)
    kb = open_kb(settings, targets.kb, schema=schema, embedder=embedder)
    client = build_model_client(settings) if models is _UNSET else models
    executor = ReadOnlyExecutor(targets.reader, settings, columns=schema_columns(schema))
    deps = EngineDeps(settings=settings, kb=kb, executor=executor, schema=schema,
                      models=client if isinstance(client, ModelClient) else None,
                      semantic=open_semantic_layer(settings, executor))
    return Engine(deps)
