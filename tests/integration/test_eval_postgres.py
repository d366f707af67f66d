"""The evaluation's PostgreSQL executor on the real embedded server: rows, deadlines, read only."""

from __future__ import annotations

import pytest

from aria.db.connect import Targets
from aria.errors import QueryFailed, QueryTimeout
from aria.eval.executors import PostgresExecutor


@pytest.fixture()
def executor(targets: Targets) -> PostgresExecutor:
    return PostgresExecutor(targets.admin)  # even an admin login cannot write through it


def test_rows_come_back_as_tuples(executor: PostgresExecutor) -> None:
    assert executor.run("db", "SELECT g, g * 2 FROM generate_series(1, 3) g ORDER BY g", timeout_s=5) == [
        (1, 2),
        (2, 4),
        (3, 6),
    ]


def test_a_slow_query_is_cancelled_at_the_deadline(executor: PostgresExecutor) -> None:
    with pytest.raises(QueryTimeout, match="deadline"):
        executor.run("db", "SELECT pg_sleep(30)", timeout_s=0.3)
    assert executor.run("db", "SELECT 1", timeout_s=5) == [(1,)]  # the connection recovered


def test_errors_and_writes_are_query_failures(executor: PostgresExecutor) -> None:
    with pytest.raises(QueryFailed, match="does not exist"):
        executor.run("db", "SELECT * FROM no_such_table", timeout_s=5)
    with pytest.raises(QueryFailed, match="read-only"):
        executor.run("db", "CREATE TABLE eval_should_not_exist (x int)", timeout_s=5)
    assert executor.run("db", "SELECT to_regclass('eval_should_not_exist') IS NULL", timeout_s=5) == [(True,)]
