"""The engine on a SQLite database (Spider, BIRD): :func:`open_sqlite_engine` for one file, and
:func:`eval_answer_fn` for engine mode of ``aria eval`` on the SQLite benchmarks.

Evaluation keeps the benchmark's knowledge bases apart from the restaurant's: one KB schema per
dataset (``<kb_schema>_spider_dev``, ``<kb_schema>_bird``), holding one ``db_name`` per database,
built from the benchmark's own schema files (Spider: ``tables.json`` with its natural-language
column names; BIRD: ``dev_tables.json`` with the official descriptions of ``dev_metadata.json``,
never the LLM-written ones). Each database's KB is built (incrementally: unchanged documents are
not re-embedded) the first time one of its questions is asked, then its engine is kept.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path

from aria.config import Settings
from aria.db.connect import resolve_targets
from aria.db.introspect import introspect_sqlite
from aria.db.sqlite_executor import SqliteReadOnlyExecutor
from aria.errors import ConfigError
from aria.eval.datasets import Dataset, EvalItem
from aria.kb.base import KnowledgeBase
from aria.kb.build import build_kb
from aria.kb.embed import Embedder, embedder_for
from aria.kb.sources import bird_schemas, spider_schemas
from aria.kb.store import KnowledgeStore
from aria.llm.client import ModelClient, build_model_client
from aria.reflect.answer import Answer, AskOptions
from aria.reflect.deps import EngineDeps
from aria.reflect.engine import Engine
from aria.sql.schema import Schema

log = logging.getLogger(__name__)


def open_sqlite_engine(
    settings: Settings, db_path: Path, *, kb: KnowledgeBase, models: ModelClient | None,
    schema: Schema | None = None, timeout_s: float | None = None,
) -> Engine:
    """The engine on the SQLite file ``db_path`` (dialect ``sqlite``), answering from ``kb``.

    ``schema`` (for the deterministic checks) defaults to the file's introspected schema; pass the
    schema the KB was built from when there is one. ``timeout_s`` defaults to ``client_deadline_s``.
    """
    if not Path(db_path).is_file():
        raise ConfigError(f"The SQLite database {db_path} does not exist.",
                          hint="Check --db-dir / --bench-dir (expected <db_id>/<db_id>.sqlite).")
    kb.check(schema)
    executor = SqliteReadOnlyExecutor(Path(db_path), settings, timeout_s=timeout_s)
    deps = EngineDeps(settings=settings, kb=kb, executor=executor, schema=schema or introspect_sqlite(Path(db_path)),
                      models=models, dialect="sqlite")
    return Engine(deps)


def dataset_kb_schema(settings: Settings, dataset: Dataset) -> str:
    """The KB schema holding a benchmark's databases.

    >>> dataset_kb_schema(Settings(llm=None), Dataset("spider-dev", (), "sqlite", None))
    'aria_kb_spider_dev'
    """
    return f"{settings.kb_schema}_{dataset.name}".replace("-", "_").lower()


def _bird_tables(settings: Settings, dataset: Dataset) -> Path:
    """The user's download (beside ``--db-dir``) first, then the bench folder's copy."""
    roots = ([dataset.db_dir, dataset.db_dir.parent] if dataset.db_dir else []) + [settings.bench_dir / "bird_dev"]
    for root in roots:
        if (root / "dev_tables.json").is_file():
            return root / "dev_tables.json"
    raise ConfigError(
        f"BIRD's dev_tables.json was not found in {', '.join(str(r) for r in roots)}.",
        hint="Put dev_tables.json (from the BIRD dev download) beside --db-dir or in <bench-dir>/bird_dev.",
    )


def dataset_schemas(settings: Settings, dataset: Dataset) -> tuple[dict[str, Schema], str]:
    """Every database schema of the benchmark by ``db_id``, and the KB source spec it came from."""
    if dataset.name == "spider-dev":
        tables = settings.bench_dir / "spider_dev" / "tables.json"
        return spider_schemas(tables), f"spider:{tables}"
    if dataset.name == "bird":
        tables = _bird_tables(settings, dataset)
        metadata = settings.bench_dir / "bird_dev" / "dev_metadata.json"
        if not metadata.is_file():
            metadata = tables.with_name("dev_metadata.json")
        return bird_schemas(tables, metadata, enriched=False), f"bird:{tables},{metadata}"
    raise ConfigError(f"No SQLite engine set-up for the dataset {dataset.name!r}.",
                      hint="Use --dataset spider-dev or bird, or score a file with --predictions.")


class SqliteEvalAnswerer:
    """Engine mode's answer function on a SQLite benchmark: one engine per ``db_id``, built on first
    use (thread-safe) and shared by every ablation and worker."""

    def __init__(self, settings: Settings, dataset: Dataset, *, models: ModelClient, kb_conninfo: str,
                 embedder: Embedder) -> None:
        if dataset.db_dir is None:
            raise ConfigError(f"The dataset {dataset.name} has no SQLite databases folder.",
                              hint="Pass --db-dir holding <db_id>/<db_id>.sqlite.")
        self.settings = settings.model_copy(update={"kb_schema": dataset_kb_schema(settings, dataset)})
        self.dataset = dataset
        self.db_dir = dataset.db_dir
        self.models = models
        self.embedder = embedder
        self.store = KnowledgeStore(kb_conninfo, self.settings)
        self._schemas, self._source = dataset_schemas(settings, dataset)
        self._engines: dict[str, Engine] = {}
        self._lock = threading.Lock()

    def __call__(self, item: EvalItem, options: AskOptions) -> Answer:
        return self.engine(item.db_id).ask(item.question, options=options, evidence=item.evidence)

    def engine(self, db_id: str) -> Engine:
        """The engine of ``db_id``; its KB is built (incrementally) the first time."""
        with self._lock:
            engine = self._engines.get(db_id)
            if engine is None:
                engine = self._open(db_id)
                self._engines[db_id] = engine
            return engine

    def _open(self, db_id: str) -> Engine:
        schema = self._schemas.get(db_id)
        if schema is None:
            raise ConfigError(f"The database {db_id!r} is not in the schema file of {self.dataset.name}.",
                              hint="Check the benchmark files under --bench-dir.")
        report = build_kb(self.store, self.embedder, schema, info={"source": self._source, "enriched": False})
        log.info("KB of %s in %s: %s documents (%s embedded)", db_id, self.settings.kb_schema, report.documents,
                 report.embedded)
        kb = KnowledgeBase(self.store, self.embedder, db_id)
        path = self.db_dir / db_id / f"{db_id}.sqlite"
        return open_sqlite_engine(self.settings, path, kb=kb, models=self.models, schema=schema,
                                  timeout_s=self.settings.eval_timeout_s)

    def close(self) -> None:
        with self._lock:
            for engine in self._engines.values():
                engine.deps.executor.close()
            self._engines.clear()
        self.store.close()


def eval_answer_fn(settings: Settings, dataset: Dataset) -> SqliteEvalAnswerer:
    """Engine mode on a SQLite benchmark: answers an :class:`EvalItem` with the item's options."""
    models = build_model_client(settings)
    if models is None:
        raise ConfigError("Engine mode needs a model.", hint="Pass --llm SPEC (and --judge-llm SPEC).")
    targets = resolve_targets(settings)
    return SqliteEvalAnswerer(settings, dataset, models=models, kb_conninfo=targets.kb,
                              embedder=embedder_for(settings))
