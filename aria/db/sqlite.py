"""Read-only SQLite execution for the benchmark databases (Spider, BIRD).

Every file is opened read-only (``mode=ro`` plus ``PRAGMA query_only``), every query has a
deadline enforced by a progress handler, and sqlite's errors become Aria's errors. Connections
are cached per (thread, path): a worker thread reuses its own connection, threads never share one.

>>> import tempfile, sqlite3, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "t.sqlite"
>>> sqlite3.connect(path).execute("CREATE TABLE t(x)").connection.commit()
>>> run_sqlite(path, "SELECT 1 + 1", timeout_s=5)
[(2,)]
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from pathlib import Path

from aria.errors import DatabaseUnavailable, QueryFailed, QueryTimeout

log = logging.getLogger(__name__)

# The progress handler runs every this many SQLite VM instructions (a few microseconds of work).
_PROGRESS_STEPS = 10_000

_local = threading.local()


def _decode_text(raw: bytes) -> str:
    """Some benchmark databases hold invalid UTF-8; keep going as Spider's own evaluation does."""
    return raw.decode("utf-8", errors="replace")


def _open(path: Path) -> sqlite3.Connection:
    if not path.is_file():
        raise DatabaseUnavailable(
            f"SQLite database {path} does not exist.",
            hint="Check --db-dir / --bench-dir (expected <db_id>/<db_id>.sqlite).",
        )
    try:
        conn = sqlite3.connect(f"file:{path.resolve()}?mode=ro", uri=True, check_same_thread=True)
        conn.text_factory = _decode_text
        conn.execute("PRAGMA query_only = ON")
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.Error as err:
        raise DatabaseUnavailable(
            f"{path} is not a readable SQLite database: {err}",
            hint="Re-download the benchmark database or remove it from the folder.",
        ) from err
    return conn


def sqlite_connection(path: Path) -> sqlite3.Connection:
    """This thread's read-only connection to ``path`` (opened and checked on first use)."""
    cache: dict[Path, sqlite3.Connection] | None = getattr(_local, "conns", None)
    if cache is None:
        cache = {}
        _local.conns = cache
    key = path.resolve()
    conn = cache.get(key)
    if conn is None:
        conn = _open(path)
        cache[key] = conn
    return conn


def check_sqlite(path: Path) -> None:
    """Raise :class:`DatabaseUnavailable` when ``path`` is missing or not a SQLite database."""
    sqlite_connection(path)


def close_sqlite_connections() -> None:
    """Close this thread's cached connections (worker threads call it when they finish)."""
    cache: dict[Path, sqlite3.Connection] = getattr(_local, "conns", {})
    for conn in cache.values():
        conn.close()
    cache.clear()


def run_sqlite(path: Path, sql: str, *, timeout_s: float) -> list[tuple]:
    """Run one statement read-only and return all its rows; cut it at ``timeout_s`` seconds.

    Raises :class:`QueryTimeout` past the deadline, :class:`QueryFailed` for any other sqlite
    error (syntax, missing column, a write refused by ``query_only``, ...), and
    :class:`DatabaseUnavailable` when the file is missing or corrupt.
    """
    conn = sqlite_connection(path)
    deadline = time.monotonic() + timeout_s
    conn.set_progress_handler(lambda: int(time.monotonic() > deadline), _PROGRESS_STEPS)
    try:
        return conn.execute(sql).fetchall()
    except (sqlite3.Error, sqlite3.Warning) as err:
        if time.monotonic() > deadline and "interrupt" in str(err).lower():
            raise QueryTimeout(
                f"SQLite query ran past its {timeout_s:g} s deadline and was cut.",
                hint="Simplify the query or raise the timeout.",
            ) from err
        raise QueryFailed(f"SQLite error: {err}", hint="Fix the SQL.") from err
    finally:
        conn.set_progress_handler(None, 0)
        if conn.in_transaction:
            conn.rollback()
