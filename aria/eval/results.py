"""One evaluation result per line of ``results.jsonl``: appended and flushed as soon as a question
is scored, so an interrupted run loses nothing and a re-run resumes where it stopped.
"""

from __future__ import annotations

import json
import logging
import threading
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from aria.eval.metric import ErrorClass

log = logging.getLogger(__name__)

RESULTS_FILE = "results.jsonl"


class ResultRow(BaseModel):
    """One question, under one ablation, scored (or skipped, with ``skipped`` saying why)."""

    model_config = ConfigDict(frozen=True)

    id: str
    db_id: str
    difficulty: str
    ablation: str
    prediction: Any = None  # normally SQL text; whatever a predictions file held otherwise
    gold: str
    correct: bool
    error_class: ErrorClass | None = None
    error: str = ""
    trace_summary: str = ""
    llm_calls: int = 0
    tokens: int = 0
    latency_ms: float = 0.0
    skipped: str | None = None  # "missing_database", "gold_failed": not counted in EX

    @property
    def key(self) -> tuple[str, str]:
        return (self.id, self.ablation)


def read_results(out_dir: Path) -> list[ResultRow]:
    """Every row in ``results.jsonl``, the last one winning per (id, ablation).

    A line cut short by a crash is ignored (and its question re-run on resume).
    """
    path = out_dir / RESULTS_FILE
    if not path.exists():
        return []
    latest: dict[tuple[str, str], ResultRow] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = ResultRow.model_validate_json(line)
        except ValidationError:
            log.warning("Ignoring unreadable line %d of %s (re-scored on resume)", number, path)
            continue
        latest[row.key] = row
    return list(latest.values())


def scored_keys(rows: list[ResultRow]) -> set[tuple[str, str]]:
    """Keys a resumed run skips: scored rows only (skipped ones are tried again)."""
    return {row.key for row in rows if row.skipped is None}


def _last_byte(path: Path) -> bytes:
    with path.open("rb") as handle:
        handle.seek(-1, 2)
        return handle.read(1)


class ResultWriter:
    """Appends rows to ``results.jsonl`` and flushes each one; safe to call from worker threads."""

    def __init__(self, out_dir: Path) -> None:
        out_dir.mkdir(parents=True, exist_ok=True)
        path = out_dir / RESULTS_FILE
        torn = path.exists() and path.stat().st_size > 0 and _last_byte(path) != b"\n"
        self._file = path.open("a", encoding="utf-8")
        if torn:  # a crash cut the last line short: start on a fresh line
            self._file.write("\n")
        self._lock = threading.Lock()

    def write(self, row: ResultRow) -> None:
        line = json.dumps(row.model_dump(mode="json"), ensure_ascii=False, default=str)
        with self._lock:
            self._file.write(line + "\n")
            self._file.flush()

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> ResultWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
