"""The evaluation datasets: Spider dev, BIRD dev and SmartRestaurant's golden ``eval`` split.

Each loader returns :class:`EvalItem` s; :func:`load_dataset` also says which SQL dialect the gold
is written in and where the databases live.

- ``spider-dev``: ``<bench>/spider_dev/dev.json``; id = 0-based index; difficulty = Spider's
  official hardness (see :mod:`aria.eval.hardness`); databases ``<bench>/spider_dev/database``.
- ``bird``: ``<bench>/bird_dev/dev.json`` (``question_id, db_id, question, evidence, SQL,
  difficulty``); the databases are not shipped, so ``--db-dir`` (``<db_id>/<db_id>.sqlite``) is
  needed to execute.
- ``smartrestaurant``: :func:`aria.db.golden.load_golden` ("eval"), run on PostgreSQL.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from aria.errors import ConfigError
from aria.eval.hardness import spider_hardness

DATASETS = ("spider-dev", "bird", "smartrestaurant")
SMARTRESTAURANT_DB = "smartrestaurant"
Dialect = Literal["sqlite", "postgres"]


@dataclass(frozen=True)
class EvalItem:
    """One question to answer, with its gold SQL."""

    id: str
    db_id: str
    question: str
    evidence: str
    gold_sql: str
    difficulty: str


@dataclass(frozen=True)
class Dataset:
    name: str
    items: tuple[EvalItem, ...]
    dialect: Dialect
    db_dir: Path | None  # SQLite datasets: holds <db_id>/<db_id>.sqlite; None for PostgreSQL


def _read_json(path: Path, what: str) -> Any:
    if not path.is_file():
        raise ConfigError(
            f"{what} not found at {path}.",
            hint="Point --bench-dir (or ARIA_BENCH_DIR) at the folder holding spider_dev/ and bird_dev/.",
        )
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as err:
        raise ConfigError(f"Cannot read {what} {path}: {err}", hint="Restore the file.") from err


def load_spider_dev(bench_dir: Path) -> list[EvalItem]:
    """Spider dev's 1,034 questions, with the official hardness levels."""
    raw = _read_json(bench_dir / "spider_dev" / "dev.json", "Spider dev")
    return [
        EvalItem(
            id=str(index),
            db_id=entry["db_id"],
            question=entry["question"],
            evidence="",
            gold_sql=entry["query"],
            difficulty=spider_hardness(entry["sql"]),
        )
        for index, entry in enumerate(raw)
    ]


def load_bird(dev_json: Path) -> list[EvalItem]:
    """BIRD dev (or any file in its format): id = ``question_id``."""
    raw = _read_json(dev_json, "BIRD dev")
    return [
        EvalItem(
            id=str(entry["question_id"]),
            db_id=entry["db_id"],
            question=entry["question"],
            evidence=entry.get("evidence", "") or "",
            gold_sql=entry["SQL"],
            difficulty=entry.get("difficulty", "all") or "all",
        )
        for entry in raw
    ]


def load_smartrestaurant() -> list[EvalItem]:
    """The golden ``eval`` split (held out from the knowledge base)."""
    from aria.db.golden import load_golden

    return [
        EvalItem(
            id=q.id,
            db_id=SMARTRESTAURANT_DB,
            question=q.question,
            evidence="",
            gold_sql=q.sql,
            difficulty=q.difficulty,
        )
        for q in load_golden("eval")
    ]


def load_dataset(name: str, *, bench_dir: Path, db_dir: Path | None = None) -> Dataset:
    """Load a dataset by name; ``db_dir`` overrides where its SQLite databases are."""
    if name == "spider-dev":
        items = load_spider_dev(bench_dir)
        return Dataset(name, tuple(items), "sqlite", db_dir or bench_dir / "spider_dev" / "database")
    if name == "bird":
        if db_dir is None:
            raise ConfigError(
                "BIRD's databases are not in the bench folder.",
                hint="Download BIRD dev and pass --db-dir holding <db_id>/<db_id>.sqlite.",
            )
        return Dataset(name, tuple(load_bird(bench_dir / "bird_dev" / "dev.json")), "sqlite", db_dir)
    if name == SMARTRESTAURANT_DB:
        return Dataset(name, tuple(load_smartrestaurant()), "postgres", None)
    raise ConfigError(f"Unknown dataset {name!r}.", hint=f"Use one of: {', '.join(DATASETS)}.")
