"""The read-only executor: the only way generated SQL reaches the restaurant's database.

Layers, each enough on its own to stop a write, all applied to every query:

1. the safety guard (:mod:`aria.sql.guard`) on the text; what runs is the guard's normalized SQL;
2. the cost guard: ``EXPLAIN (FORMAT JSON)`` (never ANALYZE) must estimate a plan under the limits;
3. the database: a ``READ ONLY`` transaction that is always rolled back, ``SET LOCAL
   statement_timeout``, the extended query protocol (one statement only), and the read-only role
   (SELECT on business tables only, its own read-only default and timeouts);
4. a client-side deadline that cancels the query whatever the server's settings say.

The row cap is applied by wrapping: ``SELECT * FROM (<sql>) AS q LIMIT cap + 1``.
"""

from __future__ import annotations

import datetime as dt
import logging
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import psycopg
from psycopg import sql as pgsql
from psycopg_pool import ConnectionPool, PoolTimeout

from aria.config import Settings
from aria.db.connect import make_pool, redact
from aria.errors import CostRejection, DatabaseUnavailable, QueryFailed, QueryTimeout
from aria.sql.guard import guard_sql

log = logging.getLogger(__name__)

# A nested loop without a join condition that yields more rows than this is a Cartesian product
# worth refusing even when the total cost is under the limit.
CARTESIAN_ROWS_LIMIT = 1_000_000


@dataclass(frozen=True)
class PlanEstimate:
    """What EXPLAIN estimates for a query."""

    total_cost: float
    plan_rows: float
    has_cartesian: bool
    raw: dict[str, Any] = field(repr=False)
    cartesian_detail: str = ""


@dataclass(frozen=True)
class QueryResult:
    """Rows as JSON-friendly values; ``truncated`` when more than the row cap existed."""

    columns: list[str]
    rows: list[list[Any]]
    row_count: int
    truncated: bool
    duration_ms: float


class ReadOnlyExecutor:
    """Runs guarded SQL on a pool of read-only connections. Thread-safe; call :meth:`close` at the end."""

    def __init__(self, conninfo: str, settings: Settings, *, pool_name: str = "",
                 columns: dict[str, frozenset[str]] | None = None) -> None:
        self._settings = settings
        self._conninfo = conninfo
        self._where = redact(conninfo)
        self._schemas = frozenset({settings.business_schema})
        self._columns = columns  # the business tables' columns (aria.sql.guard.schema_columns), when known
        self._pool_name = pool_name or f"aria-reader-{uuid.uuid4().hex[:6]}"
        self._pool_lock = threading.Lock()
        self._pool: ConnectionPool = make_pool(conninfo, settings=settings, name=self._pool_name)

    # --- public API -------------------------------------------------------------------------------
    def guard(self, sql: str) -> str:
        """The guard's normalized SQL, or :class:`GuardRejection`."""
        return guard_sql(sql, dialect="postgres", allowed_schemas=self._schemas, columns=self._columns)

    def explain(self, sql: str) -> PlanEstimate:
        """EXPLAIN (FORMAT JSON) of the guarded SQL; never executes it."""
        return self._explain(self.guard(sql))

    def check_cost(self, sql: str) -> PlanEstimate:
        """The plan estimate, or :class:`CostRejection` with an explanation a SQL writer can act on."""
        estimate = self.explain(sql)
        problem = cost_problem(estimate, self._settings)
        if problem:
            raise CostRejection(problem)
        return estimate

    def run(self, sql: str, *, row_cap: int | None = None) -> QueryResult:
        """Guard, cost guard, then execute read-only with the row cap and both deadlines."""
        guarded = self.guard(sql)
        problem = cost_problem(self._explain(guarded), self._settings)
        if problem:
            raise CostRejection(problem)
        cap = row_cap if row_cap is not None else self._settings.row_cap
        return self._execute(guarded, row_cap=cap, deadline_s=self._settings.client_deadline_s)

    def explain_only(self, sql: str) -> str | None:
        """For the syntactic tier: None when the SQL passes the guard and plans, else the error text."""
        try:
            self._explain(self.guard(sql))
        except (QueryFailed, CostRejection, DatabaseUnavailable) as err:
            return err.message
        except Exception as err:  # GuardRejection and anything unexpected: the text is the answer
            return str(err)
        return None

    def close(self) -> None:
        self._pool.close()

    def __enter__(self) -> ReadOnlyExecutor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- internals (tests call these directly to prove the database layer on its own) --------------
    def _explain(self, guarded_sql: str) -> PlanEstimate:
        query = "EXPLAIN (FORMAT JSON) " + guarded_sql
        with self._cursor(deadline_s=self._settings.client_deadline_s) as cur:
            _execute_one(cur, query)
            row = cur.fetchone()
        if row is None:
            raise QueryFailed("EXPLAIN returned nothing.", hint="Check the SQL.")
        return plan_estimate(row[0])

    def _execute(self, sql: str, *, row_cap: int | None, deadline_s: float) -> QueryResult:
        """Execute ``sql`` WITHOUT the guard (callers guard first) in a read-only, rolled-back transaction."""
        query = sql if row_cap is None else f"SELECT * FROM ({sql}) AS q LIMIT {int(row_cap) + 1}"
        started = time.perf_counter()
        with self._cursor(deadline_s=deadline_s) as cur:
            _execute_one(cur, query)
            columns = [col.name for col in cur.description or []]
            fetched = cur.fetchall() if cur.description else []
        duration_ms = (time.perf_counter() - started) * 1000
        truncated = row_cap is not None and len(fetched) > row_cap
        rows = [[to_jsonable(value) for value in row] for row in fetched[: row_cap if truncated else None]]
        return QueryResult(columns, rows, len(rows), truncated, round(duration_ms, 2))

    @contextmanager
    def _cursor(self, *, deadline_s: float) -> Iterator[psycopg.Cursor[Any]]:
        """A cursor inside a READ ONLY transaction with a local statement timeout, always rolled back."""
        deadline: _Deadline | None = None
        try:
            with self._connection() as conn:
                deadline = _Deadline(conn, deadline_s)
                try:
                    conn.read_only = True
                    with conn.cursor() as cur:
                        timeout = pgsql.SQL("SET LOCAL statement_timeout = {}").format(
                            pgsql.Literal(self._settings.statement_timeout_ms)
                        )
                        cur.execute(timeout)
                        deadline.start()
                        yield cur
                finally:
                    deadline.cancel()
                    _rollback(conn)
        except psycopg.Error as err:
            raise self._map_error(err, timed_out=deadline is not None and deadline.fired) from err
        except PoolTimeout as err:
            raise self._unavailable(_first_line(err)) from err

    @contextmanager
    def _connection(self) -> Iterator[psycopg.Connection[Any]]:
        """A pooled connection; after a server restart, a pool stuck in reconnect back-off is renewed."""
        pool = self._pool
        try:
            conn = pool.getconn(timeout=self._settings.connect_timeout_s)
        except PoolTimeout:
            pool = self._renew_pool(pool)
            conn = pool.getconn(timeout=self._settings.connect_timeout_s)
        try:
            yield conn
        finally:
            pool.putconn(conn)

    def _renew_pool(self, stale: ConnectionPool) -> ConnectionPool:
        """Probe the server directly; when it answers, replace the stale pool (else DatabaseUnavailable)."""
        try:
            psycopg.connect(self._conninfo, connect_timeout=self._settings.connect_timeout_s).close()
        except psycopg.Error as err:
            raise self._unavailable(_first_line(err)) from err
        with self._pool_lock:
            if self._pool is stale:
                log.warning("the database is back: renewing the connection pool %s", self._pool_name)
                self._pool = make_pool(self._conninfo, settings=self._settings, name=self._pool_name)
                stale.close(timeout=1.0)
            return self._pool

    def _map_error(self, err: psycopg.Error, *, timed_out: bool) -> Exception:
        first = _first_line(err)
        if isinstance(err, psycopg.errors.QueryCanceled) or timed_out:
            return QueryTimeout(
                f"The query ran too long and was cancelled ({first}).",
                hint="Narrow the date range, aggregate earlier, or add a join condition.",
            )
        if isinstance(err, psycopg.OperationalError | psycopg.InterfaceError):
            return self._unavailable(first)
        return QueryFailed(f"The database refused the query: {first}")

    def _unavailable(self, detail: str) -> DatabaseUnavailable:
        return DatabaseUnavailable(
            f"The database {self._where} is unavailable ({detail}).",
            hint="Check that the server is running; Aria reconnects by itself once it is back.",
        )


class _Deadline:
    """Cancels the connection's running query after ``seconds`` (a client-side deadline)."""

    def __init__(self, conn: psycopg.Connection[Any], seconds: float) -> None:
        self.fired = False
        self._conn = conn
        self._timer = threading.Timer(seconds, self._fire)
        self._timer.daemon = True

    def _fire(self) -> None:
        self.fired = True
        log.warning("client deadline reached: cancelling the query")
        try:
            self._conn.cancel_safe(timeout=5.0)
        except psycopg.Error as err:
            log.warning("cancelling the query failed: %s", _first_line(err))

    def start(self) -> None:
        self._timer.start()

    def cancel(self) -> None:
        self._timer.cancel()


def _execute_one(cur: psycopg.Cursor[Any], query: str) -> None:
    """Execute through the extended query protocol (pipeline mode), which refuses several statements."""
    with cur.connection.pipeline() as pipeline:
        cur.execute(query)
        pipeline.sync()


def _rollback(conn: psycopg.Connection[Any]) -> None:
    if conn.closed or conn.broken:
        return
    try:
        conn.rollback()
    except psycopg.Error as err:
        log.info("rollback after a failed query also failed: %s", _first_line(err))


def _first_line(err: BaseException) -> str:
    text = str(err).strip()
    return text.splitlines()[0] if text else type(err).__name__


def plan_estimate(explained: Any) -> PlanEstimate:
    """Read EXPLAIN (FORMAT JSON) output: total cost, row estimate and any Cartesian nested loop."""
    document = explained[0] if isinstance(explained, list) else explained
    plan = document["Plan"]
    detail = _find_cartesian(plan)
    return PlanEstimate(
        total_cost=float(plan.get("Total Cost", 0.0)),
        plan_rows=float(plan.get("Plan Rows", 0.0)),
        has_cartesian=bool(detail),
        raw=document,
        cartesian_detail=detail,
    )


def _find_cartesian(node: dict[str, Any]) -> str:
    """Describe the first nested loop without any join condition whose inner side has many rows."""
    children = node.get("Plans", [])
    if node.get("Node Type") == "Nested Loop" and len(children) == 2 and "Join Filter" not in node:
        outer, inner = children
        if not _has_condition(inner) and float(inner.get("Plan Rows", 0)) > 1:
            tables = f"{_relations(outer) or 'a subquery'} and {_relations(inner) or 'a subquery'}"
            return (
                f"a join without a condition between {tables} (Nested Loop without join filter, "
                f"~{float(node.get('Plan Rows', 0)):,.0f} rows)"
            )
    return next((found for child in children if (found := _find_cartesian(child))), "")


def _has_condition(node: dict[str, Any]) -> bool:
    keys = ("Index Cond", "Recheck Cond", "Hash Cond", "Merge Cond", "Join Filter", "Cache Key")
    return any(key in node for key in keys) or any(_has_condition(child) for child in node.get("Plans", []))


def _relations(node: dict[str, Any]) -> str:
    names: list[str] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if "Relation Name" in current and current["Relation Name"] not in names:
            names.append(current["Relation Name"])
        stack.extend(current.get("Plans", []))
    return ", ".join(names)


def cost_problem(estimate: PlanEstimate, settings: Settings) -> str:
    """Why the plan is too expensive to run ('' when it is fine), worded for a SQL-writing model."""
    problems = []
    if estimate.total_cost > settings.max_plan_cost:
        problems.append(f"estimated cost {estimate.total_cost:,.0f} > limit {settings.max_plan_cost:,.0f}")
    if estimate.plan_rows > settings.max_plan_rows:
        problems.append(f"estimated rows {estimate.plan_rows:,.0f} > limit {settings.max_plan_rows:,.0f}")
    if estimate.has_cartesian and (problems or estimate.plan_rows > CARTESIAN_ROWS_LIMIT):
        problems.append(estimate.cartesian_detail)
        problems.append("add the join condition (ON ... = ...) between those tables")
    elif problems:
        problems.append("filter earlier, aggregate before joining, or narrow the date range")
    return "; ".join(problems)


def to_jsonable(value: Any) -> Any:
    """A database value as something ``json.dumps`` accepts without losing its meaning."""
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, dt.timedelta):
        return value.total_seconds()
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value).hex()
    if isinstance(value, list | tuple):
        return [to_jsonable(item) for item in value]
    if isinstance(value, dict):
        return {str(key): to_jsonable(item) for key, item in value.items()}
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return str(value)
