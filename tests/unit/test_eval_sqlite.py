"""Read-only SQLite execution of benchmark databases: rows, errors, deadlines, per-thread connections."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from aria.db.sqlite import run_sqlite, sqlite_connection
from aria.errors import DatabaseUnavailable, QueryFailed, QueryTimeout

HANG = "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 1000000000000) SELECT count(*) FROM c"


@pytest.fixture()
def db(tmp_path: Path) -> Path:
    path = tmp_path / "shop.sqlite"
    conn = sqlite3.connect(path)
    conn.executescript("CREATE TABLE item(id INTEGER, name TEXT); INSERT INTO item VALUES (1, 'pho'), (2, 'bun');")
    conn.close()
    return path


def test_returns_all_rows(db: Path) -> None:
    assert run_sqlite(db, "SELECT id, name FROM item ORDER BY id", timeout_s=5) == [(1, "pho"), (2, "bun")]


def test_writes_are_refused_and_nothing_changes(db: Path) -> None:
    with pytest.raises(QueryFailed) as err:
        run_sqlite(db, "INSERT INTO item VALUES (3, 'com')", timeout_s=5)
    assert not isinstance(err.value, QueryTimeout)
    assert run_sqlite(db, "SELECT count(*) FROM item", timeout_s=5) == [(2,)]


def test_bad_sql_is_a_query_failure(db: Path) -> None:
    with pytest.raises(QueryFailed, match="no such column"):
        run_sqlite(db, "SELECT price FROM item", timeout_s=5)


def test_a_hanging_query_is_cut_at_the_deadline(db: Path) -> None:
    with pytest.raises(QueryTimeout, match="deadline"):
        run_sqlite(db, HANG, timeout_s=0.3)
    assert run_sqlite(db, "SELECT 1", timeout_s=5) == [(1,)]  # the connection is still usable


def test_missing_file_is_reported(tmp_path: Path) -> None:
    with pytest.raises(DatabaseUnavailable, match="does not exist"):
        run_sqlite(tmp_path / "nope.sqlite", "SELECT 1", timeout_s=5)


def test_corrupt_file_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "bad.sqlite"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(DatabaseUnavailable, match="not a readable SQLite database"):
        run_sqlite(path, "SELECT 1", timeout_s=5)


def test_connections_are_cached_per_thread(db: Path) -> None:
    mine = sqlite_connection(db)
    assert sqlite_connection(db) is mine
    other: list[sqlite3.Connection] = []
    thread = threading.Thread(target=lambda: other.append(sqlite_connection(db)))
    thread.start()
    thread.join()
    assert other and other[0] is not mine
