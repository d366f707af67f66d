"""``aria bench retrieval``: schema-linking recall and context size on BIRD dev and Spider dev.

Gold tables/columns come from the gold SQL, qualified against the schema with sqlglot (join keys
included). ``*-merged`` indexes every database of the set as one warehouse (``db_id.table``).
"""

from __future__ import annotations

import logging
import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlglot
from sqlglot import exp
from sqlglot.errors import SqlglotError
from sqlglot.optimizer.qualify import qualify
from sqlglot.optimizer.scope import traverse_scope

from aria.errors import ConfigError
from aria.eval.datasets import EvalItem, load_bird, load_spider_dev
from aria.kb.base import KnowledgeBase
from aria.kb.build import build_kb
from aria.kb.context import SchemaContext
from aria.kb.embed import Embedder
from aria.kb.retrieve import RetrievalOptions
from aria.kb.sampling import sample_sqlite
from aria.kb.sources import bird_schemas, merged_schema, spider_schemas
from aria.kb.store import KnowledgeStore
from aria.sql.schema import Schema

log = logging.getLogger(__name__)

DATASETS = ("bird-dev", "bird-merged", "spider-dev", "spider-merged")


@dataclass(frozen=True)
class Gold:
    tables: frozenset[str]
    columns: frozenset[str]  # table.column, lower case


def _columns_of(mapping: dict[str, object], table: str) -> dict[str, str]:
    columns = mapping.get(table)
    return columns if isinstance(columns, dict) else {}


def gold_items(sql_text: str, schema: Schema, *, prefix: str = "") -> Gold:
    """Tables and columns the gold SQL reads (lower case), qualified against ``schema``."""
    mapping: dict[str, object] = {t.name.lower(): {c.name.lower(): "text" for c in t.columns} for t in schema.tables}
    prefix = prefix.lower()  # retrieved names are compared in lower case too
    tree = sqlglot.parse_one(sql_text, read=schema.dialect)
    tree = qualify(tree, schema=mapping, dialect=schema.dialect, validate_qualify_columns=False,
                   quote_identifiers=False)
    tables: set[str] = set()
    columns: set[str] = set()
    for scope in traverse_scope(tree):
        for source in scope.sources.values():
            if isinstance(source, exp.Table) and source.name.lower() in mapping:
                tables.add(prefix + source.name.lower())
        for column in scope.columns:
            owner = scope.sources.get(column.table)
            if isinstance(owner, exp.Table) and column.name.lower() in _columns_of(mapping, owner.name.lower()):
                columns.add(f"{prefix}{owner.name.lower()}.{column.name.lower()}")
    return Gold(frozenset(tables), frozenset(columns))


def bench_paths(dataset: str, bench_dir: Path) -> tuple[Path, Path, Path | None]:
    """(questions, tables.json, metadata) of a dataset, or a clear error when the folder is missing."""
    paths: tuple[Path, Path, Path | None]
    if dataset.startswith("bird"):
        folder = bench_dir / "bird_dev"
        paths = (folder / "dev.json", folder / "dev_tables.json", folder / "dev_metadata.json")
    else:
        folder = bench_dir / "spider_dev"
        paths = (folder / "dev.json", folder / "tables.json", None)
    if not folder.is_dir() or not paths[0].is_file():
        raise ConfigError(f"The benchmark data {folder} is missing.",
                          hint="Pass --bench-dir (or set ARIA_BENCH_DIR) to the folder holding bird_dev/ and spider_dev/.")
    return paths


def load_bench(dataset: str, bench_dir: Path, *, enriched: bool) -> tuple[list[EvalItem], dict[str, Schema]]:
    if dataset not in DATASETS:
        raise ConfigError(f"Unknown retrieval dataset {dataset!r}.", hint=f"Use one of: {', '.join(DATASETS)}.")
    questions, tables, metadata = bench_paths(dataset, bench_dir)
    if dataset.startswith("bird"):
        return load_bird(questions), bird_schemas(tables, metadata, enriched=enriched)
    schemas = spider_schemas(tables)
    for db_id, schema in schemas.items():
        path = bench_dir / "spider_dev" / "database" / db_id / f"{db_id}.sqlite"
        if path.is_file():
            schemas[db_id] = sample_sqlite(path, schema)
    return load_spider_dev(bench_dir), schemas


def build_bench_kbs(store: KnowledgeStore, embedder: Embedder, dataset: str, schemas: dict[str, Schema], *,
                    enriched: bool, progress: Callable[[int], None] | None = None) -> dict[str, str]:
    """Index the dataset's databases; returns db_id -> KB db_name ("*" -> the merged warehouse)."""
    tag = f"{dataset.split('-')[0]}{'+ai' if enriched else ''}"
    if dataset.endswith("merged"):
        name = f"{tag}:merged"
        schema = merged_schema(name, schemas)
        build_kb(store, embedder, schema, progress=progress)
        return {"*": name}
    names = {}
    for db_id, schema in schemas.items():
        names[db_id] = f"{tag}:{db_id}"
        build_kb(store, embedder, _renamed(schema, names[db_id]), progress=progress)
    return names


def _renamed(schema: Schema, name: str) -> Schema:
    return Schema(name=name, tables=schema.tables, foreign_keys=schema.foreign_keys, dialect=schema.dialect)


def _recall(gold: frozenset[str], got: set[str]) -> float:
    return 1.0 if not gold else len(gold & got) / len(gold)


def score_question(item: EvalItem, gold: Gold, ctx: SchemaContext, full_tokens: int, latency_ms: float,
                   *, prefix: str) -> dict[str, Any]:
    tables = {t.lower() for t in ctx.table_names}
    columns = {c.lower() for c in ctx.column_names}
    return {
        "id": item.id, "db_id": item.db_id, "difficulty": item.difficulty,
        "retrieved_tables": ctx.table_names, "retrieved_columns": ctx.column_names,
        "table_recall": _recall(gold.tables, tables), "column_recall": _recall(gold.columns, columns),
        "token_ratio": ctx.token_count / max(full_tokens, 1), "latency_ms": latency_ms,
        "gold_tables": sorted(gold.tables), "gold_columns": sorted(gold.columns),
    }


def summarize(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    if not rows:
        return {"n": 0}
    return {
        "n": len(rows),
        "strict_table_recall": round(sum(r["table_recall"] == 1.0 for r in rows) / len(rows), 4),
        "strict_column_recall": round(sum(r["column_recall"] == 1.0 for r in rows) / len(rows), 4),
        "mean_column_recall": round(statistics.fmean(r["column_recall"] for r in rows), 4),
        "context_token_ratio": round(statistics.fmean(r["token_ratio"] for r in rows), 4),
        "median_latency_ms": round(statistics.median(r["latency_ms"] for r in rows), 2),
    }


def report(rows: list[dict[str, Any]], *, details: bool = False) -> dict[str, Any]:
    by_difficulty: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        by_difficulty[row["difficulty"]].append(row)
    keep = ("id", "db_id", "retrieved_tables", "retrieved_columns") + (
        ("table_recall", "column_recall", "token_ratio", "gold_tables", "gold_columns") if details else ())
    return {"overall": summarize(rows), "by_difficulty": {d: summarize(r) for d, r in sorted(by_difficulty.items())},
            "per_question": [{k: r[k] for k in keep} for r in rows]}


def markdown(result: dict[str, Any], title: str) -> str:
    head = ("| split | n | strict table recall | strict column recall | mean column recall | "
            "context tokens / full | median latency ms |")
    lines = [f"### {title}", "", head, "|---|---|---|---|---|---|---|"]
    for name, s in [("overall", result["overall"]), *result["by_difficulty"].items()]:
        if s.get("n"):
            lines.append(f"| {name} | {s['n']} | {s['strict_table_recall']:.1%} | {s['strict_column_recall']:.1%} | "
                         f"{s['mean_column_recall']:.1%} | {s['context_token_ratio']:.1%} | {s['median_latency_ms']} |")
    return "\n".join(lines)


def run_retrieval_bench(store: KnowledgeStore, embedder: Embedder, dataset: str, bench_dir: Path, *,
                        evidence: bool, enriched: bool, k: int, m: int, budget: int = 0, limit: int | None = None,
                        progress: Callable[[int], None] | None = None,
                        options: RetrievalOptions | None = None) -> list[dict[str, Any]]:
    """Build (incrementally) and run the retrieval benchmark; one row per question."""
    items, schemas = load_bench(dataset, bench_dir, enriched=enriched)
    names = build_bench_kbs(store, embedder, dataset, schemas, enriched=enriched, progress=progress)
    merged = dataset.endswith("merged")
    kbs = {name: KnowledgeBase(store, embedder, name, options=options) for name in set(names.values())}
    rows = []
    for item in items[:limit]:
        kb = kbs[names["*" if merged else item.db_id]]
        prefix = f"{item.db_id}." if merged else ""
        try:
            gold = gold_items(item.gold_sql, schemas[item.db_id], prefix=prefix)
        except SqlglotError as err:
            log.warning("skipping %s: gold SQL does not parse (%s)", item.id, err)
            continue
        text = item.evidence if evidence else ""
        started = time.perf_counter()
        ctx = kb.retrieve(item.question, evidence=text, k=k, m=m, budget=budget)
        latency = (time.perf_counter() - started) * 1000
        rows.append(score_question(item, gold, ctx, kb.catalog.full_token_count, latency, prefix=prefix))
    return rows
