"""The read-only executor against the seeded SmartRestaurant database."""

from __future__ import annotations

import json
import statistics
import threading
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
import yaml
from typer.testing import CliRunner

from aria.cli import app
from aria.config import Settings, get_settings
from aria.db.connect import Targets, ensure_reader_role
from aria.db.executor import QueryResult, ReadOnlyExecutor
from aria.errors import CostRejection, GuardRejection, QueryFailed, QueryTimeout
from tests.integration.test_hostile_db import fingerprint

HOSTILE = yaml.safe_load((Path(__file__).resolve().parent.parent / "data" / "hostile.yaml").read_text())


@pytest.fixture(scope="module")
def executor(seeded: Targets, settings: Settings) -> Iterator[ReadOnlyExecutor]:
    with ReadOnlyExecutor(seeded.reader, settings) as ex:
        yield ex


def test_row_cap_is_applied_by_wrapping(executor: ReadOnlyExecutor) -> None:
    capped = executor.run("SELECT order_id, opened_at, total_vnd FROM orders ORDER BY order_id LIMIT 100000", row_cap=7)
    assert capped.row_count == 7 and capped.truncated
    assert capped.columns == ["order_id", "opened_at", "total_vnd"]
    assert [row[0] for row in capped.rows] == sorted(row[0] for row in capped.rows)
    small = executor.run("SELECT count(*) AS n, avg(total_vnd) AS mean FROM orders", row_cap=7)
    assert small.row_count == 1 and not small.truncated and small.rows[0][0] > 0
    json.dumps(capped.rows + small.rows)  # datetimes and Decimals came back JSON-friendly
    assert isinstance(capped.rows[0][1], str) and "T" in capped.rows[0][1]
    assert capped.note == "more than 7 rows: stopped at the row cap" and small.note == ""


def test_guard_runs_first(executor: ReadOnlyExecutor) -> None:
    with pytest.raises(GuardRejection, match="only one statement"):
        executor.run("SELECT 1; DELETE FROM orders")
    with pytest.raises(GuardRejection, match="pg_sleep"):
        executor.run("SELECT pg_sleep(5)")


def test_database_errors_are_one_line_query_failed(executor: ReadOnlyExecutor) -> None:
    with pytest.raises(QueryFailed, match='column "no_such_column" does not exist') as caught:
        executor.run("SELECT no_such_column FROM orders")
    assert "\n" not in str(caught.value) and str(caught.value).startswith("The query failed:")
    assert executor.explain_only("SELECT no_such_column FROM orders") is not None
    assert executor.explain_only("SELECT count(*) FROM orders") is None
    assert "only one statement" in (executor.explain_only("SELECT 1; SELECT 2") or "")


def test_client_deadline_cancels_whatever_the_server_allows(seeded: Targets, settings: Settings) -> None:
    patient = settings.model_copy(update={"statement_timeout_ms": 120_000})
    with ReadOnlyExecutor(seeded.reader, patient) as ex, pytest.raises(QueryTimeout, match="user request"):
        ex._execute("SELECT pg_sleep(5)", row_cap=None, deadline_s=1.0)


def test_statement_timeout_stops_a_heavy_cross_join(seeded: Targets, settings: Settings) -> None:
    strict = settings.model_copy(update={"statement_timeout_ms": 1000})
    heavy = "SELECT count(*) FROM generate_series(1, 100000) a, generate_series(1, 100000) b"
    with ReadOnlyExecutor(seeded.reader, strict) as ex, pytest.raises(QueryTimeout, match="statement timeout"):
        ex._execute(heavy, row_cap=10, deadline_s=60.0)


def test_cost_guard_explains_a_cartesian_product(executor: ReadOnlyExecutor) -> None:
    with pytest.raises(CostRejection) as caught:
        executor.check_cost("SELECT * FROM orders, order_items")
    message = str(caught.value)
    assert "estimated" in message and "> limit" in message
    assert "orders" in message and "order_items" in message and "Nested Loop without join filter" in message
    joined = executor.explain(
        "SELECT count(*) FROM orders o JOIN order_items oi ON oi.order_id = o.order_id"
    )
    assert not joined.has_cartesian and joined.total_cost > 0


def test_read_only_transaction_blocks_writes_even_for_the_admin(seeded: Targets, settings: Settings) -> None:
    before = fingerprint(seeded.admin, settings)
    with ReadOnlyExecutor(seeded.admin, settings) as admin:
        with pytest.raises(QueryFailed, match="read-only transaction"):
            admin._execute("UPDATE restaurant.orders SET total_vnd = 0", row_cap=None, deadline_s=10)
        with pytest.raises(QueryFailed):
            admin._execute(
                "WITH d AS (DELETE FROM restaurant.payments RETURNING 1) SELECT count(*) FROM d", row_cap=5, deadline_s=10
            )
        with pytest.raises(QueryFailed, match="multiple commands"):
            admin._execute("SELECT 1; DELETE FROM restaurant.payments", row_cap=None, deadline_s=10)
    assert fingerprint(seeded.admin, settings) == before


def test_role_that_resets_its_own_limits_still_cannot_write_or_run_long(seeded: Targets, settings: Settings) -> None:
    before = fingerprint(seeded.admin, settings)
    try:
        with psycopg.connect(seeded.reader) as conn:
            conn.execute("SELECT set_config('statement_timeout', '0', false)")
            with pytest.raises(psycopg.errors.ReadOnlySqlTransaction):
                conn.execute("DELETE FROM orders")
        with psycopg.connect(seeded.reader, autocommit=True) as conn:  # PostgreSQL lets a role do this
            conn.execute("SET default_transaction_read_only = off")
            conn.execute(f"ALTER ROLE {settings.reader_role} SET statement_timeout = 0")
            conn.execute(f"ALTER ROLE {settings.reader_role} SET default_transaction_read_only = off")
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute("DELETE FROM orders")
        strict = settings.model_copy(update={"statement_timeout_ms": 1000})
        with ReadOnlyExecutor(seeded.reader, strict) as ex:
            with pytest.raises(QueryTimeout, match="statement timeout"):  # SET LOCAL, not the role default
                ex._execute("SELECT pg_sleep(5)", row_cap=None, deadline_s=60)
            with pytest.raises(QueryTimeout, match="user request"):
                ex._execute("SELECT pg_sleep(0.9) UNION ALL SELECT pg_sleep(0.9)", row_cap=None, deadline_s=0.5)
            with pytest.raises(QueryFailed, match="read-only transaction"):
                ex._execute("DELETE FROM orders", row_cap=None, deadline_s=10)
    finally:
        with psycopg.connect(seeded.admin, autocommit=True) as conn:
            ensure_reader_role(conn, settings)
    assert fingerprint(seeded.admin, settings) == before


@pytest.mark.parametrize("item", HOSTILE["resource"], ids=lambda item: item["sql"][:50])
def test_resource_exhaustion_is_stopped(seeded: Targets, settings: Settings, item: dict[str, str]) -> None:
    strict = settings.model_copy(update={"statement_timeout_ms": 1500, "client_deadline_s": 5.0})
    expected = {"cost": CostRejection, "timeout": QueryTimeout, "guard": GuardRejection}
    with ReadOnlyExecutor(seeded.reader, strict) as ex:
        if item["expect"] == "capped":
            result = ex.run(item["sql"], row_cap=50)
            assert result.truncated and result.row_count == 50
        else:
            with pytest.raises(expected[item["expect"]]):
                ex.run(item["sql"])


def test_twenty_concurrent_runs_share_the_pool(executor: ReadOnlyExecutor) -> None:
    results: list[QueryResult] = []
    errors: list[BaseException] = []
    lock = threading.Lock()

    def one(i: int) -> None:
        try:
            result = executor.run(
                f"SELECT status, count(*) AS n FROM orders WHERE order_id % 20 = {i} GROUP BY status ORDER BY status"
            )
            with lock:
                results.append(result)
        except BaseException as err:  # collected and asserted below
            with lock:
                errors.append(err)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert errors == [] and len(results) == 20
    assert all(result.row_count > 0 for result in results)
    durations = sorted(result.duration_ms for result in results)
    p95 = durations[int(0.95 * (len(durations) - 1))]
    print(f"20 concurrent runs: p50 {statistics.median(durations):.1f} ms, p95 {p95:.1f} ms")


# --- CLI ---------------------------------------------------------------------------------------
@pytest.fixture()
def cli_env(seeded: Targets, settings: Settings, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    monkeypatch.setenv("ARIA_HOME", str(settings.home))
    monkeypatch.setenv("ARIA_CONFIG", str(tmp_path / "none.toml"))
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


def test_cli_check_exit_codes() -> None:
    runner = CliRunner()
    ok = runner.invoke(app, ["sql", "check", "SELECT count(*) FROM orders"])
    assert ok.exit_code == 0 and ok.stdout.splitlines()[0] == "allowed"
    bad = runner.invoke(app, ["sql", "check", "SELECT 1; DROP TABLE orders"])
    assert bad.exit_code == 1 and "only one statement" in bad.output


def test_cli_run_json_and_errors(cli_env: None) -> None:
    runner = CliRunner()
    ran = runner.invoke(app, ["sql", "run", "SELECT order_id FROM orders ORDER BY 1", "--json", "--row-cap", "3"])
    assert ran.exit_code == 0, ran.output
    payload = json.loads(ran.stdout)
    assert payload["columns"] == ["order_id"] and len(payload["rows"]) == 3 and payload["truncated"] is True
    table = runner.invoke(app, ["sql", "run", "SELECT count(*) AS n FROM orders"])
    assert table.exit_code == 0 and "1 rows" in table.stdout
    assert runner.invoke(app, ["sql", "run", "DELETE FROM orders"]).exit_code == 1
    assert runner.invoke(app, ["sql", "run", "SELECT * FROM orders, order_items"]).exit_code == 1
    assert runner.invoke(app, ["sql", "run", "SELECT nope FROM orders"]).exit_code == 2
