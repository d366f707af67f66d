"""Every answer is written to the query log (in the KB schema). When the database is unreachable
the entry waits in ``ARIA_HOME/pending_query_log.jsonl`` and is written with the next one that
succeeds, so a fault never loses an entry."""

from __future__ import annotations

import json
import logging
import threading
from pathlib import Path
from typing import Any

import psycopg

from aria.errors import AriaError
from aria.reflect.answer import Answer
from aria.reflect.deps import EngineDeps

log = logging.getLogger(__name__)
_LOCK = threading.Lock()


def _pending_path(deps: EngineDeps) -> Path:
    return deps.settings.home / "pending_query_log.jsonl"


def _entry(answer: Answer) -> dict[str, Any]:
    return {"question": answer.question, "sql": answer.sql, "status": answer.status,
            "trace": answer.trace.model_dump(mode="json")}


def _write(deps: EngineDeps, entry: dict[str, Any]) -> int:
    return deps.kb.store.log_query(entry["question"], entry["sql"], entry["status"], entry["trace"])


def _parse(line: str, path: Path) -> dict[str, Any] | None:
    """One pending entry; an unreadable line (a crash mid-write) is moved aside, never fatal."""
    try:
        entry = json.loads(line)
        if isinstance(entry, dict) and {"question", "sql", "status", "trace"} <= set(entry):
            return entry
    except json.JSONDecodeError:
        pass
    aside = path.with_suffix(".unreadable")
    log.warning("skipping an unreadable pending query-log line (kept in %s)", aside)
    with aside.open("a", encoding="utf-8") as handle:
        handle.write(line + "\n")
    return None


def _flush_pending(deps: EngineDeps) -> None:
    """Write the entries kept aside, oldest first; stop (keeping the rest) at the first failure."""
    path = _pending_path(deps)
    if not path.exists():
        return
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    for i, line in enumerate(lines):
        entry = _parse(line, path)
        if entry is None:
            continue
        try:
            _write(deps, entry)
        except (AriaError, psycopg.Error):
            path.write_text("\n".join(lines[i:]) + "\n", encoding="utf-8")
            return
    path.unlink()


def log_answer(deps: EngineDeps, answer: Answer) -> int | None:
    """The query-log id of ``answer``; None when it was kept aside for later.

    Entries kept aside during an outage are written first, so the log stays in order.
    """
    entry = _entry(answer)
    with _LOCK:
        try:
            _flush_pending(deps)
            return _write(deps, entry)
        except (AriaError, psycopg.Error) as err:
            log.warning("query log unavailable (%s); keeping the entry in %s", err, _pending_path(deps))
            path = _pending_path(deps)
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("a", encoding="utf-8") as handle:
                handle.write(json.dumps(entry, ensure_ascii=False) + "\n")
            return None
