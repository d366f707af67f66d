"""A query log nothing jams: N entries in, N out (written + quarantined), whatever one contains.

Entries are kept aside while the log is unavailable, then written to a real KB schema; an entry
PostgreSQL refuses (a NUL byte, a lone surrogate, an oversized or non-JSON value) is written
sanitised, and one that still fails is quarantined with its reason while the rest are written.
"""

from __future__ import annotations

import datetime as dt
import json
import uuid
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import psycopg
import pytest
from psycopg import sql as pgsql

from aria.config import Settings
from aria.db.connect import Targets
from aria.errors import DatabaseUnavailable
from aria.kb.store import KnowledgeStore, store_error
from aria.reflect.answer import Answer
from aria.reflect.deps import EngineDeps
from aria.reflect.query_log import QUARANTINE, QueryLog, log_answer, log_entry
from aria.reflect.trace import Trace, TraceEvent


@pytest.fixture()
def store(kb_settings: Settings, targets: Targets) -> Iterator[KnowledgeStore]:
    kb = KnowledgeStore(targets.kb, kb_settings)
    kb.ensure_schema()
    yield kb
    kb.close()


class DownStore:
    """The KB's server during an outage."""

    def log_query(self, question: str, sql_text: str | None, status: str, trace: dict[str, Any]) -> int:
        raise DatabaseUnavailable("Cannot connect to the KB database.", hint="Start it.")


class PoisonedStore:
    """A real store that refuses, even sanitised, any entry whose question says "poison"."""

    def __init__(self, store: KnowledgeStore) -> None:
        self.store = store

    def log_query(self, question: str, sql_text: str | None, status: str, trace: dict[str, Any]) -> int:
        if "poison" in question:
            raise store_error(psycopg.errors.ProgramLimitExceeded("row is too big"))  # as the store maps it
        return self.store.log_query(question, sql_text, status, trace)


def _entry(tag: str, **fields: Any) -> dict[str, Any]:
    return {"question": tag, "sql": "SELECT 1", "status": "answered", "trace": {}} | fields


def _hostile(tag: str) -> list[dict[str, Any]]:
    circular: dict[str, Any] = {"name": "loop"}
    circular["self"] = circular
    deep: list[Any] = []
    cursor = deep
    for _ in range(3_000):
        cursor.append([])
        cursor = cursor[0]
    return [
        _entry(f"{tag} NUL in question\x00"),
        _entry(tag, sql="SELECT 'a\x00b' AS x"),
        _entry(tag, trace={"events": [{"detail": "row value with NUL \x00", "rows": [["x\x00", 1]]}]}),
        _entry(f"{tag} lone surrogate \ud800"),
        _entry(tag, trace={"note": "surrogate \udfff in a value", "\ud800key": 1}),
        _entry(tag, sql="SELECT " + "1 + " * 2_000_000 + "1"),
        _entry(tag, trace={"blob": "x" * 3_000_000}),
        _entry(tag, trace={"when": dt.datetime(2026, 11, 15), "amount": Decimal("1.5"), "raw": b"\x00\xff",
                           "tags": {"a", "b"}, "obj": object(), 7: "int key"}),
        _entry(tag, trace={"nan": float("nan"), "inf": float("inf"), "big": 10**40}),
        _entry(tag, trace=circular),
        _entry(tag, trace={"deep": deep}),
        {"question": None, "sql": 42, "status": 7, "trace": ["not", "a", "dict"]},
    ]


def _written(store: KnowledgeStore, tag: str) -> list[tuple[str, str | None, dict[str, Any]]]:
    rows = store.shared().execute(pgsql.SQL("SELECT question, sql, trace FROM {} WHERE question LIKE %s OR "
                                            "question = '' ORDER BY id").format(store.ident("query_log")),
                                  (f"{tag}%",)).fetchall()
    return [(r[0], r[1], r[2]) for r in rows]


def _quarantined(home: Path) -> list[dict[str, Any]]:
    path = home / QUARANTINE
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()] if path.exists() else []


def test_n_entries_in_n_out_whatever_they_contain(store: KnowledgeStore, tmp_path: Path) -> None:
    tag = f"t{uuid.uuid4().hex[:6]}"
    entries = [_entry(f"{tag} good {i}") for i in range(3)] + _hostile(tag) + [_entry(f"{tag} good last")]
    down = QueryLog(DownStore(), tmp_path)
    assert [log_entry(down, e) for e in entries] == [None] * len(entries)
    assert len(down.pending.read_text(encoding="utf-8").splitlines()) == len(entries), "every entry kept aside"
    up = QueryLog(store, tmp_path)
    assert log_entry(up, _entry(f"{tag} after the outage")) is not None
    written = _written(store, tag)
    assert len(written) + len(_quarantined(tmp_path)) == len(entries) + 1
    assert not up.pending.exists() and not _quarantined(tmp_path), "PostgreSQL took every entry, sanitised"
    questions = [w[0] for w in written]
    assert questions[:3] == [f"{tag} good {i}" for i in range(3)] and questions[-2:] == [
        f"{tag} good last", f"{tag} after the outage"], "in order, the good ones untouched"
    assert f"{tag} NUL in question\\u0000" in questions and f"{tag} lone surrogate \ufffd" in questions
    sanitised = [w[2].get("_sanitised") for w in written[3:-2]]
    assert all(sanitised), sanitised
    assert max(len(w[1] or "") for w in written) < 30_000 and max(len(json.dumps(w[2])) for w in written) < 1_100_000


def test_an_entry_that_still_fails_is_quarantined_and_the_rest_written(store: KnowledgeStore, tmp_path: Path) -> None:
    tag = f"t{uuid.uuid4().hex[:6]}"
    entries = [_entry(f"{tag} {i}") for i in range(5)]
    entries[2] = _entry(f"{tag} poison \x00")
    down = QueryLog(DownStore(), tmp_path)
    for entry in entries:
        log_entry(down, entry)
    poisoned = QueryLog(PoisonedStore(store), tmp_path)
    assert log_entry(poisoned, _entry(f"{tag} 5")) is not None
    assert [w[0] for w in _written(store, tag)] == [f"{tag} {i}" for i in (0, 1, 3, 4, 5)]
    [parked] = _quarantined(tmp_path)
    assert parked["entry"]["question"] == f"{tag} poison \x00" and "ProgramLimitExceeded" in parked["reason"]
    assert not poisoned.pending.exists()
    assert log_entry(poisoned, _entry(f"{tag} poison again")) is None, "refused now: quarantined, not retried"
    assert len(_quarantined(tmp_path)) == 2 and not poisoned.pending.exists()


def test_log_answer_with_a_nul_byte_in_model_sql(store: KnowledgeStore, tmp_path: Path) -> None:
    """The red-team case: model SQL with a NUL byte is logged (sanitised) and blocks nothing."""
    tag = f"t{uuid.uuid4().hex[:6]}"
    deps = cast(EngineDeps, SimpleNamespace(kb=SimpleNamespace(store=store), settings=SimpleNamespace(home=tmp_path)))
    trace = Trace(events=[TraceEvent(loop="synthesis", step="generate", sql="SELECT '\x00'", detail="NUL \x00")])
    bad = Answer(question=f"{tag} Doanh thu?", status="error", answer_text="x", sql="SELECT '\x00'",
                 rows=[["\x00", object()]], trace=trace)
    assert log_answer(deps, bad) is not None
    assert log_answer(deps, bad.model_copy(update={"sql": "SELECT 1", "trace": Trace()})) is not None
    [(_, first_sql, first_trace), (_, second_sql, _)] = _written(store, tag)
    assert first_sql == "SELECT '\\u0000'" and first_trace["_sanitised"] and second_sql == "SELECT 1"
    assert not (tmp_path / "pending_query_log.jsonl").exists()
