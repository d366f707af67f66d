"""Limits the database and the executor enforce on every query, proven with the red team's bombs:
disk (temp_file_limit on the role), memory (work_mem; values clipped on the server; a result byte
cap while streaming), one deadline over EXPLAIN + execution, and errors that say what happened.

Small limits through Settings overrides keep each test fast; the role is restored afterwards.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import psycopg
import pytest

from aria.config import Settings
from aria.db.connect import Targets, ensure_reader_role
from aria.db.executor import QueryResult, ReadOnlyExecutor
from aria.db.result_limits import CLIP_MARKER
from aria.errors import DatabaseUnavailable, QueryFailed, QueryTimeout
from aria.reflect.deps import RunState
from aria.reflect.entailment_loop import execute
from aria.reflect.steps import StepRecorder
from aria.reflect.synthesis_loop import syntax_error
from aria.reflect.trace import Trace

DISK_BOMB = ("WITH RECURSIVE r(n, s) AS (SELECT 1, rpad('x', 2000) UNION ALL SELECT n + 1, s FROM r) "
             "SELECT count(*) FROM r")
MEMORY_BOMB = "SELECT rpad('x', 50000000) AS big FROM generate_series(1, 20)"  # 1 GB of values
MB = 1024 * 1024


@pytest.fixture()
def small_role(seeded: Targets, settings: Settings) -> Iterator[Settings]:
    """The read-only role with a 5 MB temp_file_limit and 1 MB work_mem; the session's role after."""
    small = settings.model_copy(update={"temp_file_limit_mb": 5, "work_mem_mb": 1})
    with psycopg.connect(seeded.admin, autocommit=True) as conn:
        ensure_reader_role(conn, small)
    try:
        yield small
    finally:
        with psycopg.connect(seeded.admin, autocommit=True) as conn:
            ensure_reader_role(conn, settings)


def peak_rss_reset() -> int:
    """Reset this process's peak RSS (VmHWM) to the current RSS and return it, in bytes."""
    Path("/proc/self/clear_refs").write_text("5")
    return _status_kb("VmHWM") * 1024


def peak_rss() -> int:
    return _status_kb("VmHWM") * 1024


def _status_kb(field: str) -> int:
    line = next(line for line in Path("/proc/self/status").read_text().splitlines() if line.startswith(field))
    return int(line.split()[1])


def within_executor(ex: ReadOnlyExecutor, sql: str) -> list[Any]:
    """One row of internal SQL through the executor's own transaction (the guard is bypassed)."""
    return ex._execute(sql, row_cap=None, deadline_s=10).rows[0]


# --- disk -------------------------------------------------------------------------------------------
def test_disk_bomb_is_stopped_by_temp_file_limit(seeded: Targets, small_role: Settings) -> None:
    with ReadOnlyExecutor(seeded.reader, small_role) as ex:
        started = time.monotonic()
        with pytest.raises(QueryFailed, match="temp_file_limit") as caught:
            ex.run(DISK_BOMB)
        elapsed = time.monotonic() - started
        assert not isinstance(caught.value, QueryTimeout) and str(caught.value).startswith("The query failed:")
        assert elapsed < small_role.client_deadline_s  # the limit stopped it, not a deadline
        assert ex.run("SELECT count(*) AS n FROM orders").rows[0][0] > 0  # the database still answers
    print(f"disk bomb stopped by temp_file_limit = 5 MB after {elapsed:.2f} s: {caught.value}")


def test_a_role_tampering_with_its_defaults_does_not_lift_the_limits(seeded: Targets, small_role: Settings) -> None:
    role = small_role.reader_role
    with psycopg.connect(seeded.reader, autocommit=True) as conn:
        conn.execute("SET default_transaction_read_only = off")
        conn.execute(f"ALTER ROLE {role} SET work_mem = '1GB'")  # PostgreSQL lets a role do this
        for attempt in (f"ALTER ROLE {role} SET temp_file_limit = -1", f"ALTER ROLE {role} RESET temp_file_limit",
                        "SET temp_file_limit = -1"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege, match="temp_file_limit"):
                conn.execute(attempt)
        conn.execute(f"ALTER ROLE {role} RESET ALL")  # drops what the role may drop; temp_file_limit stays
    with ReadOnlyExecutor(seeded.reader, small_role) as ex:
        assert within_executor(ex, "SELECT current_setting('work_mem'), current_setting('temp_file_limit')") == [
            "1MB", "5MB"]
        with pytest.raises(QueryFailed, match="temp_file_limit"):
            ex.run(DISK_BOMB)


def test_executor_refuses_a_role_without_a_temp_file_limit(seeded: Targets, settings: Settings) -> None:
    role = settings.reader_role
    try:
        with psycopg.connect(seeded.admin, autocommit=True) as conn:
            conn.execute(f"ALTER ROLE {role} RESET temp_file_limit")
        with ReadOnlyExecutor(seeded.reader, settings) as ex, \
                pytest.raises(DatabaseUnavailable, match="unlimited temporary disk.*ALTER ROLE"):
            ex.run("SELECT 1 AS one")
        # A superuser connection (e.g. an admin URL) sets it for its own transaction instead.
        tight = settings.model_copy(update={"temp_file_limit_mb": 5})
        with ReadOnlyExecutor(seeded.admin, tight) as admin:
            assert within_executor(admin, "SELECT current_setting('temp_file_limit')") == ["5MB"]
    finally:
        with psycopg.connect(seeded.admin, autocommit=True) as conn:
            ensure_reader_role(conn, settings)


# --- memory -----------------------------------------------------------------------------------------
def test_memory_bomb_values_are_clipped_on_the_server(seeded: Targets, settings: Settings) -> None:
    with ReadOnlyExecutor(seeded.reader, settings) as ex:
        ex.run("SELECT 1 AS warm")
        before = peak_rss_reset()
        result = ex.run(MEMORY_BOMB)
        grown = peak_rss() - before
        assert ex.run("SELECT count(*) AS n FROM orders").rows[0][0] > 0
    assert result.row_count == 20
    assert all(row[0] == "x".ljust(settings.max_value_chars) + CLIP_MARKER for row in result.rows)  # rpad: spaces
    assert grown < 100 * MB, f"peak RSS grew {grown / MB:.0f} MB for a 1000 MB result"
    print(f"memory bomb: 20 values of 50 MB clipped to {settings.max_value_chars} characters; "
          f"peak RSS +{grown / MB:.1f} MB")


def test_result_byte_cap_stops_reading_and_bounds_memory(seeded: Targets, settings: Settings) -> None:
    wide = settings.model_copy(update={"max_value_chars": 1_000_000, "max_result_bytes": 20_000_000})
    bomb = "SELECT g AS n, rpad('x', 1000000) AS big FROM generate_series(1, 1000) AS g"  # 1 GB in 1 MB values
    with ReadOnlyExecutor(seeded.reader, wide) as ex:
        ex.run("SELECT 1 AS warm")
        before = peak_rss_reset()
        started = time.monotonic()
        result = ex.run(bomb, row_cap=1000)
        elapsed = time.monotonic() - started
        grown = peak_rss() - before
        assert ex.run("SELECT count(*) AS n FROM orders").rows[0][0] > 0
    assert result.truncated and result.note == "result larger than 20 MB: stopped reading"
    assert 15 <= result.row_count <= 20 and result.rows[0][0] == 1
    assert grown < 250 * MB, f"peak RSS grew {grown / MB:.0f} MB for a 1000 MB result"
    print(f"byte cap: stopped after {result.row_count} rows in {elapsed:.2f} s; peak RSS +{grown / MB:.1f} MB")


def test_other_large_values_are_replaced_by_the_marker(seeded: Targets, settings: Settings) -> None:
    small = settings.model_copy(update={"max_value_chars": 50})
    with ReadOnlyExecutor(seeded.reader, small) as ex:
        result = ex.run("SELECT (SELECT array_agg(g) FROM generate_series(1, 1000) AS g) AS big, ARRAY[1, 2] AS small, "
                        "rpad('é', 60, 'é') AS text, 'short' AS fine")
    assert result.rows == [[CLIP_MARKER, [1, 2], "é" * 50 + CLIP_MARKER, "short"]]
    assert result.columns == ["big", "small", "text", "fine"]


def test_work_mem_is_set_locally_whatever_the_role_says(seeded: Targets, settings: Settings) -> None:
    with ReadOnlyExecutor(seeded.reader, settings.model_copy(update={"work_mem_mb": 3})) as ex:
        assert within_executor(ex, "SELECT current_setting('work_mem')") == ["3MB"]


# --- one deadline over EXPLAIN and execution --------------------------------------------------------
def test_explain_and_execution_share_one_deadline(seeded: Targets, settings: Settings,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    budget = settings.model_copy(update={"client_deadline_s": 3.0})
    given: list[float] = []
    with ReadOnlyExecutor(seeded.reader, budget) as ex:
        slow_explain, execute = ex._explain, ex._execute

        def explain(sql: str, **kwargs: Any) -> Any:
            time.sleep(0.5)
            return slow_explain(sql, **kwargs)

        def spy(sql: str, *, row_cap: int | None, deadline_s: float) -> QueryResult:
            given.append(deadline_s)
            return execute(sql, row_cap=row_cap, deadline_s=deadline_s)

        monkeypatch.setattr(ex, "_explain", explain)
        monkeypatch.setattr(ex, "_execute", spy)
        ex.run("SELECT 1 AS one")
        assert given and given[0] <= 2.5  # what planning used is not given back

        def too_slow_explain(sql: str, **kwargs: Any) -> Any:
            time.sleep(3.1)
            return slow_explain(sql, **kwargs)

        monkeypatch.setattr(ex, "_explain", too_slow_explain)
        with pytest.raises(QueryTimeout, match="planning it used the whole client deadline"):
            ex.run("SELECT 1 AS one")


def _seconds(work: Callable[[], object]) -> float:
    started = time.monotonic()
    work()
    return time.monotonic() - started


def test_slow_planning_counts_against_the_deadline_on_the_real_server(seeded: Targets, settings: Settings) -> None:
    """EXPLAIN folds constants, and execution plans (folds) again: each alone fits the deadline (the
    quickest of three EXPLAINs with 40 % to spare), both together do not."""
    folded = "SELECT length(regexp_replace(rpad('a', 4000000, 'ab'), 'a', 'c', 'g')) AS n"
    with ReadOnlyExecutor(seeded.reader, settings) as ex:
        ex.run("SELECT 1 AS one")  # the pool's first connection is not planning
        planning = min(_seconds(lambda: ex.explain(folded)) for _ in range(3))  # one run varies by a third
    tight = settings.model_copy(update={"client_deadline_s": round(planning * 1.4, 2)})
    with ReadOnlyExecutor(seeded.reader, tight) as ex, pytest.raises(QueryTimeout):
        ex.run(folded)


# --- errors that say the truth ------------------------------------------------------------------------
@pytest.mark.parametrize(("sql", "says"), [
    ("SELECT chr(0) AS c", "null character not permitted"),  # folded: fails in EXPLAIN
    ("SELECT chr((count(*) - count(*))::int) AS c FROM orders", "null character not permitted"),  # at run time
    ("SELECT rpad('x', 1100000000) AS big", "requested length too large"),
    ("SELECT 1 / (count(*) - count(*)) AS x FROM orders", "division by zero"),
])
def test_query_errors_are_query_failed_not_database_unavailable(seeded: Targets, settings: Settings, sql: str,
                                                                says: str) -> None:
    with ReadOnlyExecutor(seeded.reader, settings) as ex:
        with pytest.raises(QueryFailed) as caught:
            ex.run(sql)
        assert type(caught.value) is QueryFailed
        assert str(caught.value).startswith(f"The query failed: {says}") and "\n" not in str(caught.value)
        assert ex.run("SELECT 2 AS two").rows == [[2]]


def test_query_failures_go_back_as_feedback_not_as_an_outage(seeded: Targets, settings: Settings) -> None:
    """The engine's execution step returns a failed query's error as feedback for the next attempt
    (it raises only DatabaseUnavailable), and the EXPLAIN step hands it to the repairer."""
    with ReadOnlyExecutor(seeded.reader, settings) as ex:
        state = cast(RunState, SimpleNamespace(recorder=StepRecorder(Trace()), deps=SimpleNamespace(executor=ex)))
        at_run_time = execute(state, "SELECT chr((count(*) - count(*))::int) AS c FROM orders", 1)
        assert isinstance(at_run_time, str) and at_run_time.startswith("The query failed: null character not permitted")
        in_explain = syntax_error(state, "SELECT chr(0) AS c", 1)
        assert in_explain is not None and in_explain.startswith("EXPLAIN: The query failed: null character")
        errors = [event.error for event in state.recorder.trace.events if event.error]
    assert len(errors) == 2 and not any("unavailable" in error for error in errors)
