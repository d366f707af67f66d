"""Every answer is written to the query log (in the KB schema), and nothing jams it.

When the database is unreachable the entry waits in ``ARIA_HOME/pending_query_log.jsonl`` and is
written, oldest first, with the next one that succeeds, so an outage never loses an entry. An entry
the database refuses for what it contains (a NUL byte, a lone surrogate, a value too large) is
written sanitised instead (NUL → ``\\u0000``, invalid text → U+FFFD, oversized values cut short,
the changes listed under ``_sanitised`` in its trace); if even that fails, it is moved to
``ARIA_HOME/quarantined_query_log.jsonl`` with the reason, and the entries behind it are still
written. Written + quarantined = entries in.
"""

from __future__ import annotations

import json
import logging
import math
import re
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypeVar

from aria.errors import AriaError, ValueRefused
from aria.reflect.answer import Answer
from aria.reflect.deps import EngineDeps

log = logging.getLogger(__name__)
T = TypeVar("T")
_LOCK = threading.Lock()

PENDING = "pending_query_log.jsonl"
QUARANTINE = "quarantined_query_log.jsonl"
MAX_TEXT_CHARS = 20_000  # question, SQL and status are cut to this
MAX_TRACE_CHARS = 1_000_000  # a larger trace is replaced by its head
MAX_DEPTH = 64
_SURROGATE = re.compile("[\ud800-\udfff]")


class LogStore(Protocol):
    """What the query log needs from :class:`aria.kb.store.KnowledgeStore`: it raises
    :class:`~aria.errors.ValueRefused` when the database refuses an entry for what it holds, another
    :class:`~aria.errors.AriaError` when the log is unavailable."""

    def log_query(self, question: str, sql_text: str | None, status: str, trace: dict[str, Any]) -> int: ...
    # (KnowledgeStore.log_query also takes ``asked_by=``; it is passed only when someone is signed in)


@dataclass(frozen=True)
class QueryLog:
    """The query log of one KB store, with its pending and quarantine files in ``home``."""

    store: LogStore
    home: Path

    @property
    def pending(self) -> Path:
        return self.home / PENDING

    @property
    def quarantine(self) -> Path:
        return self.home / QUARANTINE


def log_answer(deps: EngineDeps, answer: Answer, *, asked_by: str = "") -> int | None:
    """The query-log id of ``answer``; None when it was kept aside (or quarantined).

    Entries kept aside during an outage are written first, so the log stays in order. ``asked_by``: the
    signed-in person who asked (History shows each person their own questions).
    """
    entry = _entry(answer)
    return log_entry(QueryLog(deps.kb.store, deps.settings.home), {**entry, "asked_by": asked_by} if asked_by else entry)


def log_entry(qlog: QueryLog, entry: dict[str, Any]) -> int | None:
    """Write ``entry`` ({question, sql, status, trace}) after the pending ones; never raises for its content."""
    with _LOCK:
        try:
            _flush_pending(qlog)
            log_id, reason = _store(qlog, entry)
        except AriaError as err:
            log.warning("query log unavailable (%s); keeping the entry in %s", err, qlog.pending)
            _append(qlog.pending, _dumps(_shaped(entry)))  # bounded: an outage cannot fill the disk
            return None
        if reason is not None:
            _quarantine(qlog, entry, reason)
        return log_id


def _entry(answer: Answer) -> dict[str, Any]:
    try:
        trace: Any = answer.trace.model_dump(mode="json")
    except (ValueError, TypeError, RecursionError) as err:  # an unserialisable value in the trace
        trace = {"_sanitised": [f"trace not serialisable ({type(err).__name__})"]}
    return {"question": answer.question, "sql": answer.sql, "status": answer.status, "trace": trace}


def _shaped(entry: dict[str, Any]) -> dict[str, Any]:
    """The columns' types (text, text or NULL, text, JSON object) and sizes, whatever the entry held;
    anything changed is listed under ``trace["_sanitised"]``."""
    notes: set[str] = set()
    sql_text = entry.get("sql")
    trace = entry.get("trace")
    if not isinstance(trace, dict):
        trace = {"value": _note(trace, notes, "trace was not an object")}
    shaped = {"question": _as_text(entry.get("question"), "question", notes),
              "sql": None if sql_text is None else _as_text(sql_text, "sql", notes),
              "status": _as_text(entry.get("status"), "status", notes) or "error",
              "trace": _bounded(trace, notes)}
    if entry.get("asked_by"):
        shaped["asked_by"] = _as_text(entry["asked_by"], "asked_by", notes)
    return _with_notes(shaped, notes)


def _as_text(value: Any, name: str, notes: set[str]) -> str:
    if not isinstance(value, str):
        value = "" if value is None else repr(value)
        notes.add(f"{name} was not text")
    if len(value) > MAX_TEXT_CHARS:
        value = _note(_cut(value, MAX_TEXT_CHARS), notes, f"{name} longer than {MAX_TEXT_CHARS} characters cut")
    return value


def _bounded(trace: dict[str, Any], notes: set[str]) -> dict[str, Any]:
    """``trace``, or its head when its JSON is over MAX_TRACE_CHARS (one it cannot size is left to the write)."""
    try:
        text = json.dumps(trace, ensure_ascii=False, default=repr)
    except (ValueError, TypeError, RecursionError):
        return trace
    if len(text) <= MAX_TRACE_CHARS:
        return trace
    notes.add(f"trace of {len(text)} characters replaced by its head")
    return {"head": text[:10_000]}


def _with_notes(entry: dict[str, Any], notes: set[str]) -> dict[str, Any]:
    if not notes:
        return entry
    trace = entry["trace"]
    earlier = trace.get("_sanitised")
    merged = notes | set(earlier if isinstance(earlier, list) else [])
    return {**entry, "trace": {**trace, "_sanitised": sorted(str(n) for n in merged)}}


def _cut(text: str, limit: int) -> str:
    return f"{text[:limit]}…[{len(text) - limit} more characters cut]"


def _write(qlog: QueryLog, entry: dict[str, Any]) -> int:
    who = {"asked_by": entry["asked_by"]} if entry.get("asked_by") else {}
    return qlog.store.log_query(entry["question"], entry["sql"], entry["status"], entry["trace"], **who)


def _store(qlog: QueryLog, entry: dict[str, Any]) -> tuple[int | None, str | None]:
    """(id, None) when written, as it is or sanitised; (None, reason) when it must be quarantined.

    Raises (AriaError) only when the log itself is unavailable.
    """
    try:
        return _write(qlog, _shaped(entry)), None
    except Exception as err:  # noqa: BLE001 - re-raised unless the entry's content is the cause
        if not _is_content_problem(err):
            raise
        first = _reason(err)
    log.warning("query-log entry refused (%s); writing it sanitised", first)
    try:
        return _write(qlog, sanitised(entry)), None
    except Exception as err:  # noqa: BLE001 - as above
        if not _is_content_problem(err):
            raise
        return None, f"{first}; sanitised: {_reason(err)}"


def _is_content_problem(err: BaseException) -> bool:
    """True when the entry's content (not the database's state) made the write fail."""
    return isinstance(err, (ValueRefused, UnicodeError, TypeError, ValueError, OverflowError, RecursionError))


def _reason(err: BaseException) -> str:
    first = (str(err).strip().splitlines() or [""])[0]
    return f"{type(err).__name__}: {first[:300]}"


# --- sanitising ------------------------------------------------------------------------------------
def sanitised(entry: dict[str, Any]) -> dict[str, Any]:
    """``entry`` with NUL escaped, invalid text replaced, non-JSON values as text, oversized values cut;
    what changed is listed under ``trace["_sanitised"]``.

    >>> sanitised({"question": "a\\x00b", "sql": None, "status": "ok", "trace": {}})["question"]
    'a\\\\u0000b'
    """
    notes: set[str] = set()
    clean = {key: _clean(value, notes, 0) for key, value in _shaped(entry).items()}
    clean["trace"] = _bounded(clean["trace"], notes)
    return _with_notes(clean, notes or {"refused by the database as it was"})


def _clean(value: Any, notes: set[str], depth: int) -> Any:
    if depth > MAX_DEPTH:
        notes.add(f"nesting deeper than {MAX_DEPTH} cut")
        return "…"
    if value is None or isinstance(value, (bool, int)):
        return value if not isinstance(value, int) or abs(value) < 2**63 else _note(str(value), notes, "big integers as text")
    if isinstance(value, float):
        return value if math.isfinite(value) else _note(str(value), notes, "non-finite numbers as text")
    if isinstance(value, str):
        return _clean_text(value, notes)
    if isinstance(value, dict):
        return {_clean_text(str(k), notes): _clean(v, notes, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_clean(v, notes, depth + 1) for v in value]
    return _clean_text(_note(repr(value), notes, "non-JSON values as text"), notes)


def _note(value: T, notes: set[str], note: str) -> T:
    notes.add(note)
    return value


def _clean_text(text: str, notes: set[str]) -> str:
    if "\x00" in text:
        text = _note(text.replace("\x00", "\\u0000"), notes, "NUL characters escaped as \\u0000")
    if _SURROGATE.search(text):
        text = _note(_SURROGATE.sub("\ufffd", text), notes, "invalid Unicode replaced by U+FFFD")
    if len(text) > MAX_TEXT_CHARS:
        text = _note(_cut(text, MAX_TEXT_CHARS), notes, f"texts longer than {MAX_TEXT_CHARS} characters cut")
    return text


# --- the pending and quarantine files ---------------------------------------------------------------
def _dumps(entry: dict[str, Any]) -> str:
    """One JSON line (readable UTF-8; ASCII escapes when it holds lone surrogates, so they survive the
    file); sanitised when it cannot be dumped as is."""
    try:
        text = json.dumps(entry, ensure_ascii=False)
    except (ValueError, TypeError, RecursionError):  # a non-JSON, circular or absurdly deep value
        text = json.dumps(sanitised(entry), ensure_ascii=False)
    return json.dumps(json.loads(text), ensure_ascii=True) if _SURROGATE.search(text) else text


def _append(path: Path, line: str) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8") as handle:
            handle.write(line + "\n")
    except OSError as err:  # the answer is still shown; only this log line is lost
        log.error("could not keep a query-log entry in %s (%s)", path, err)


def _quarantine(qlog: QueryLog, entry: dict[str, Any], reason: str) -> None:
    log.error("query-log entry quarantined in %s: %s", qlog.quarantine, reason)
    _append(qlog.quarantine, json.dumps({"reason": reason, "entry": json.loads(_dumps(_shaped(entry)))},
                                        ensure_ascii=True))


def _parse(line: str, path: Path) -> dict[str, Any] | None:
    """One pending entry; an unreadable line (a crash mid-write) is moved aside, never fatal."""
    try:
        entry = json.loads(line)
        if isinstance(entry, dict) and {"question", "sql", "status", "trace"} <= set(entry):
            return entry
    except (ValueError, RecursionError):
        pass
    aside = path.with_suffix(".unreadable")
    log.warning("skipping an unreadable pending query-log line (kept in %s)", aside)
    _append(aside, line)
    return None


def _flush_pending(qlog: QueryLog) -> None:
    """Write the entries kept aside, oldest first; stop (keeping the rest) when the log is unavailable.

    An entry the database refuses for its content is quarantined and the next one is written.
    """
    path = qlog.pending
    if not path.exists():
        return
    lines = [line for line in path.read_text(encoding="utf-8", errors="replace").splitlines() if line.strip()]
    for i, line in enumerate(lines):
        entry = _parse(line, path)
        if entry is None:
            continue
        try:
            _, reason = _store(qlog, entry)
        except BaseException:
            path.write_text("\n".join(lines[i:]) + "\n", encoding="utf-8")
            raise
        if reason is not None:
            _quarantine(qlog, entry, reason)
    path.unlink()
