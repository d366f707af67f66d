"""What one question's run needs, passed in: settings, knowledge base, executor, schema, models.

Nothing here is global: the UI builds one :class:`EngineDeps` per browser session (sharing the
pool, the embedder and the chat models), tests build their own.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol
from zoneinfo import ZoneInfo

from aria.config import Settings
from aria.db.executor import QueryResult
from aria.kb.base import KnowledgeBase
from aria.kb.context import SchemaContext
from aria.llm.client import ModelClient
from aria.reflect.steps import StepRecorder
from aria.semantic.layer import SemanticLayer
from aria.sql.schema import Schema


class QueryExecutor(Protocol):
    """What the engine needs from an executor: :class:`aria.db.executor.ReadOnlyExecutor` (PostgreSQL)
    and :class:`aria.db.sqlite_executor.SqliteReadOnlyExecutor` (benchmark SQLite files) both fit."""

    def guard(self, sql: str) -> str: ...

    def check_cost(self, sql: str) -> object: ...

    def explain_only(self, sql: str) -> str | None: ...

    def run(self, sql: str, *, row_cap: int | None = None) -> QueryResult: ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class EngineDeps:
    settings: Settings
    kb: KnowledgeBase
    executor: QueryExecutor
    schema: Schema  # the business schema, for the deterministic checks
    models: ModelClient | None  # None: no model configured (reuse and the workbench still work)
    dialect: str = "postgres"  # sqlglot dialect of the executor: postgres or sqlite
    semantic: SemanticLayer | None = None  # the governed metrics (None: no semantic model for this database)


@dataclass(frozen=True)
class RunState:
    """The per-question context every loop reads: deps, the trace recorder, the business clock."""

    deps: EngineDeps
    recorder: StepRecorder
    now: datetime

    @property
    def settings(self) -> Settings:
        return self.deps.settings

    @property
    def models(self) -> ModelClient:
        """The question's model client, its calls reported as children of the step running now."""
        if self.deps.models is None:  # the engine checks this before any loop runs
            raise RuntimeError("a model loop ran without a model")
        return self.deps.models.with_callbacks(self.recorder.callbacks())


def business_now(executor: QueryExecutor, timezone: str) -> datetime:
    """The database's business clock (``business_now()``), falling back to the wall clock."""
    try:
        value = executor.run("SELECT business_now() AS now").rows[0][0]
        return datetime.fromisoformat(str(value)).astimezone(ZoneInfo(timezone))
    except Exception:  # a live database without the SmartRestaurant clock function
        return datetime.now(ZoneInfo(timezone))


def render_glossary(context: SchemaContext) -> str:
    """The glossary hits, one per line, for the generator's prompt; then the governed metrics the
    question names (their agreed definitions), under "Metrics"."""
    lines = []
    for hit in context.glossary_hits:
        target = ".".join(p for p in (hit.table, hit.column) if p)
        value = f" = {hit.value!r}" if hit.value else ""
        hint = f" (SQL: {hit.sql_hint})" if hit.sql_hint else ""
        lines.append(f"- {hit.term}: {hit.meaning} [{target}{value}]{hint}")
    if context.metric_hits:
        lines += ["Metrics (the restaurant's agreed definitions; compute them this way):",
                  *(f"- {metric.render()}" for metric in context.metric_hits)]
    return "\n".join(lines)
