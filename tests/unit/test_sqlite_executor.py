"""The SQLite read-only executor the engine uses on benchmark databases: guard, EXPLAIN errors,
the Cartesian-product heuristic (small joins pass, large ones are refused), row cap, deadline."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from aria.config import Settings
from aria.db.sqlite import run_sqlite
from aria.db.sqlite_executor import SqliteReadOnlyExecutor, plan_loops
from aria.errors import CostRejection, GuardRejection, QueryFailed, QueryTimeout
from tests.conftest import BENCH_DIR

CONCERT_SINGER = BENCH_DIR / "spider_dev" / "database" / "concert_singer" / "concert_singer.sqlite"
CROSS_JOIN = "SELECT * FROM singer, concert, stadium, singer_in_concert"
JOINED = (
    "SELECT s.name, c.concert_name FROM singer_in_concert AS sic JOIN singer AS s ON s.singer_id = sic.singer_id "
    "JOIN concert AS c ON c.concert_id = sic.concert_id JOIN stadium AS st ON st.stadium_id = c.stadium_id"
)
HANG = "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 1000000000000) SELECT count(*) FROM c"
needs_spider = pytest.mark.skipif(not CONCERT_SINGER.is_file(), reason=f"Spider dev databases not found under {BENCH_DIR}")


@pytest.fixture(scope="module")
def base_settings() -> Settings:
    return Settings(llm=None, row_cap=1000)


@pytest.fixture(scope="module")
def big_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """concert_singer's four tables with 100 rows each: their Cartesian product is 10^8 rows."""
    path = tmp_path_factory.mktemp("big") / "big.sqlite"
    conn = sqlite3.connect(path)
    conn.executescript(
        "CREATE TABLE singer(singer_id INTEGER PRIMARY KEY, name TEXT);"
        "CREATE TABLE stadium(stadium_id INTEGER PRIMARY KEY, name TEXT);"
        "CREATE TABLE concert(concert_id INTEGER PRIMARY KEY, concert_name TEXT, stadium_id INTEGER);"
        "CREATE TABLE singer_in_concert(concert_id INTEGER, singer_id INTEGER);"
    )
    ids = [(i, f"n{i}") for i in range(100)]
    conn.executemany("INSERT INTO singer VALUES (?, ?)", ids)
    conn.executemany("INSERT INTO stadium VALUES (?, ?)", ids)
    conn.executemany("INSERT INTO concert VALUES (?, ?, ?)", [(i, f"c{i}", i % 7) for i in range(100)])
    conn.executemany("INSERT INTO singer_in_concert VALUES (?, ?)", [(i, (i * 3) % 100) for i in range(100)])
    conn.commit()
    conn.close()
    return path


@needs_spider
def test_runs_read_only_with_the_same_rows_as_sqlite(base_settings: Settings) -> None:
    executor = SqliteReadOnlyExecutor(CONCERT_SINGER, base_settings)
    sql = "SELECT name, country, age FROM singer ORDER BY age DESC"
    result = executor.run(sql)
    assert result.columns == ["Name", "Country", "Age"]
    assert [tuple(r) for r in result.rows] == run_sqlite(CONCERT_SINGER, sql, timeout_s=5)
    assert (result.row_count, result.truncated) == (6, False)


@needs_spider
def test_row_cap_truncates_and_keeps_duplicate_column_names(base_settings: Settings) -> None:
    executor = SqliteReadOnlyExecutor(CONCERT_SINGER, base_settings)
    result = executor.run("SELECT s.name, c.concert_name AS name FROM singer AS s, concert AS c", row_cap=4)
    assert (result.row_count, result.truncated) == (4, True)
    assert result.columns == ["Name", "name"]  # a LIMIT wrapper would have renamed one to "name:1"


@needs_spider
@pytest.mark.parametrize("sql, reason", [
    ("PRAGMA table_info(singer)", "not PRAGMA"),
    ("ATTACH DATABASE '/tmp/x.db' AS x", "not ATTACH"),
    ("SELECT name FROM sqlite_master", "system catalog"),
    ("SELECT * FROM other.singer", "not allowed"),
    ("SELECT 1; DELETE FROM singer", "only one statement"),
])
def test_guard_rejects_what_is_not_a_plain_read(base_settings: Settings, sql: str, reason: str) -> None:
    executor = SqliteReadOnlyExecutor(CONCERT_SINGER, base_settings)
    with pytest.raises(GuardRejection, match=reason):
        executor.run(sql)
    assert reason in (executor.explain_only(sql) or "")


@needs_spider
def test_explain_catches_unknown_columns_and_tables_without_running(base_settings: Settings) -> None:
    executor = SqliteReadOnlyExecutor(CONCERT_SINGER, base_settings)
    with pytest.raises(QueryFailed, match="no such column: singer_name"):
        executor.check_cost("SELECT singer_name FROM singer")
    assert "no such table: singers" in (executor.explain_only("SELECT count(*) FROM singers") or "")
    assert executor.explain_only("SELECT count(*) FROM singer") is None


@needs_spider
def test_small_cross_join_passes_the_cost_guard(base_settings: Settings) -> None:
    executor = SqliteReadOnlyExecutor(CONCERT_SINGER, base_settings)
    plan = executor.check_cost(CROSS_JOIN)
    assert plan.cartesian_detail and plan.estimated_rows == 6 * 6 * 9 * 10
    assert executor.run(CROSS_JOIN, row_cap=5000).row_count == 6 * 6 * 9 * 10


def test_large_cross_join_is_refused_with_a_fix(big_db: Path, base_settings: Settings) -> None:
    executor = SqliteReadOnlyExecutor(big_db, base_settings)
    with pytest.raises(CostRejection) as err:
        executor.run(CROSS_JOIN)
    message = str(err.value)
    assert "100,000,000 row combinations" in message and "singer_in_concert (~100 rows)" in message
    assert "add the join condition" in message
    assert "join without a usable condition" in (executor.explain_only(CROSS_JOIN) or "")


def test_large_cross_join_through_aliases_is_refused(big_db: Path, base_settings: Settings) -> None:
    executor = SqliteReadOnlyExecutor(big_db, base_settings)
    with pytest.raises(CostRejection, match="T1 .~100 rows."):
        executor.check_cost("SELECT T1.name FROM singer AS T1 JOIN stadium AS T2 ON T1.name < T2.name "
                            "JOIN concert AS T3 JOIN singer_in_concert AS T4 ON T3.concert_name <> T4.singer_id")


def test_the_same_tables_joined_on_keys_pass(big_db: Path, base_settings: Settings) -> None:
    executor = SqliteReadOnlyExecutor(big_db, base_settings)
    plan = executor.check_cost(JOINED)
    assert plan.cartesian_detail == ""
    assert executor.run(JOINED).row_count == 100
    assert executor.check_cost("SELECT count(*) FROM singer").cartesian_detail == ""


def test_deadline_cuts_a_runaway_query(big_db: Path, base_settings: Settings) -> None:
    executor = SqliteReadOnlyExecutor(big_db, base_settings, timeout_s=0.2)
    with pytest.raises(QueryTimeout, match="deadline"):
        executor.run(HANG)
    assert executor.run("SELECT count(*) FROM singer").rows == [[100]]  # the connection is still usable


def test_plan_loops_reads_old_and_new_plan_wording() -> None:
    rows = [(2, 0, 0, "SCAN TABLE a AS x"), (4, 0, 0, "SEARCH b USING AUTOMATIC COVERING INDEX (k=?)"),
            (6, 0, 0, "SCAN CONSTANT ROW"), (7, 0, 0, "USE TEMP B-TREE FOR ORDER BY")]
    assert [(lp.kind, lp.name) for lp in plan_loops(rows)] == [("SCAN", "a"), ("SEARCH", "b")]
