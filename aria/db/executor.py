"""The read-only executor: the only way generated SQL reaches the restaurant's database.

Layers, each enough on its own to stop a write, all applied to every query:

1. the safety guard (:mod:`aria.sql.guard`) on the text; what runs is the guard's normalized SQL;
2. the cost guard: ``EXPLAIN (FORMAT JSON)`` (never ANALYZE) must estimate a plan under the limits;
3. the database: a ``READ ONLY`` transaction that is always rolled back, ``SET LOCAL
   statement_timeout``, the extended query protocol (one statement only), and the read-only role
   (SELECT on business tables only, its own read-only default and timeouts);
4. a client-side deadline that cancels the query whatever the server's settings say; in
   :meth:`ReadOnlyExecutor.run`, EXPLAIN and execution share one deadline.

Resource limits: ``SET LOCAL work_mem`` in every transaction, and ``temp_file_limit`` (only a
superuser may set it, so it lives on the read-only role, where the role cannot lift it; the executor
checks it in every transaction and refuses to run without it). The row cap and the value clip are
applied by wrapping the query on the server (:mod:`aria.db.result_limits`); rows are streamed and
reading stops at ``max_result_bytes``, so a huge result never reaches the process whole.
"""

from __future__ import annotations

import datetime as dt
import logging
import math
import threading
import time
import uuid
from collections.abc import Generator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, cast

import psycopg
from psycopg import pq
from psycopg import sql as pgsql
from psycopg_pool import ConnectionPool, PoolTimeout

from aria.config import Settings
from aria.db.availability import connection_lost, first_line
from aria.db.connect import make_pool, redact
from aria.db.result_limits import CLIP_MARKER, Column, capped_query, clip_value, flagged_positions, value_size
from aria.errors import ConfigError, CostRejection, DatabaseUnavailable, QueryFailed, QueryTimeout
from aria.sql.guard import guard_sql

log = logging.getLogger(__name__)

# A nested loop without a join condition that yields more rows than this is a Cartesian product
# worth refusing even when the total cost is under the limit.
CARTESIAN_ROWS_LIMIT = 1_000_000
# Rows per network chunk while streaming a result (libpq 17+ can chunk; older ones send row by row).
# Chunks hold at most about CHUNK_BYTES of (clipped) values.
STREAM_CHUNK = 100 if pq.version() >= 170000 else 1
CHUNK_BYTES = 1_000_000
QUERY_HINTS = {
    "53400": "It needs more temporary disk than temp_file_limit allows: filter earlier, aggregate before "
    "joining, or narrow the date range.",
    "53200": "It needs more memory than the server allows: filter earlier or aggregate before joining.",
    "54": "It goes past a PostgreSQL limit (a value over 1 GB, a NUL character, too many columns, ...): "
    "change the SQL.",
    "22": "A value does not fit the operation (division by zero, a bad cast, ...): change the SQL.",
}


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
    """Rows as JSON-friendly values; ``truncated`` when reading stopped early, ``note`` saying why
    (more rows than the row cap, or more bytes than ``max_result_bytes``)."""

    columns: list[str]
    rows: list[list[Any]]
    row_count: int
    truncated: bool
    duration_ms: float
    note: str = ""


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
        """Guard, cost guard, then execute read-only with the row cap and both deadlines.

        EXPLAIN and execution share ONE client deadline: planning can be slow too (it folds
        constants), and the time it took is not given back to the execution."""
        guarded = self.guard(sql)
        deadline_at = time.monotonic() + self._settings.client_deadline_s
        problem = cost_problem(self._explain(guarded, deadline_s=self._settings.client_deadline_s), self._settings)
        if problem:
            raise CostRejection(problem)
        cap = row_cap if row_cap is not None else self._settings.row_cap
        return self._execute(guarded, row_cap=cap, deadline_s=self._time_left(deadline_at))

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
    def _explain(self, guarded_sql: str, *, deadline_s: float | None = None) -> PlanEstimate:
        query = "EXPLAIN (FORMAT JSON) " + guarded_sql
        with self._cursor(deadline_s=deadline_s or self._settings.client_deadline_s) as cur:
            _execute_one(cur, query)
            row = cur.fetchone()
        if row is None:
            raise QueryFailed("EXPLAIN returned nothing.", hint="Check the SQL.")
        return plan_estimate(row[0])

    def _execute(self, sql: str, *, row_cap: int | None, deadline_s: float) -> QueryResult:
        """Execute ``sql`` WITHOUT the guard (callers guard first) in a read-only, rolled-back transaction:
        wrapped to cap rows and clip values on the server, streamed until ``max_result_bytes``."""
        started = time.perf_counter()
        with self._cursor(deadline_s=deadline_s) as cur:
            columns = _describe(cur, sql)
            if not columns:  # a statement without a result (the read-only layers refuse any write)
                _execute_one(cur, sql)
                rows: list[list[Any]] = []
                note = ""
            else:
                rows, note = self._read(cur, sql, columns, row_cap)
        duration_ms = (time.perf_counter() - started) * 1000
        names = [column.name for column in columns]
        return QueryResult(names, rows, len(rows), bool(note), round(duration_ms, 2), note)

    def _read(self, cur: psycopg.Cursor[Any], sql: str, columns: list[Column],
              row_cap: int | None) -> tuple[list[list[Any]], str]:
        """Stream the capped query's rows; stop at the row cap or the byte cap (and say which)."""
        max_chars, max_bytes = self._settings.max_value_chars, self._settings.max_result_bytes
        query, _ = capped_query(sql, columns, row_cap=row_cap, max_chars=max_chars)
        flagged = flagged_positions(columns)
        rows: list[list[Any]] = []
        size = 0
        chunk = max(1, min(STREAM_CHUNK, CHUNK_BYTES // (len(columns) * (max_chars + 1))))
        stream = cast(Generator[Any, None, None], cur.stream(query, size=chunk))
        try:  # closing the stream early cancels the query on the server
            for raw in stream:
                row = _clean_row(raw, len(columns), flagged, max_chars)
                size += sum(value_size(value) for value in row)
                if size > max_bytes:
                    return rows, f"result larger than {max_bytes / 1e6:g} MB: stopped reading"
                if row_cap is not None and len(rows) == row_cap:
                    return rows, f"more than {row_cap} rows: stopped at the row cap"
                rows.append(row)
        finally:
            stream.close()
        return rows, ""

    def _time_left(self, deadline_at: float) -> float:
        left = deadline_at - time.monotonic()
        if left <= 0:
            raise QueryTimeout(
                f"The query ran too long and was cancelled (planning it used the whole client deadline of "
                f"{self._settings.client_deadline_s:g} s).",
                hint="Simplify the expressions, narrow the date range, or aggregate earlier.",
            )
        return left

    def _apply_limits(self, cur: psycopg.Cursor[Any]) -> None:
        """SET LOCAL the statement timeout and work_mem; make sure temp_file_limit holds.

        Only a superuser may set temp_file_limit, so for the read-only role it is the role's
        default (set by the admin; the role can neither change nor reset it). Where it is missing
        or too high, a superuser connection sets it locally; any other is refused."""
        limits = self._settings
        cur.execute(
            "SELECT set_config('statement_timeout', %s, true), set_config('work_mem', %s, true), current_user, "
            "(SELECT setting::bigint FROM pg_catalog.pg_settings WHERE name = 'temp_file_limit')",
            (str(limits.statement_timeout_ms), f"{limits.work_mem_mb}MB"),
        )
        row = cur.fetchone()
        user, temp_kb = (row[2], row[3]) if row else ("?", None)
        if temp_kb is not None and 0 <= temp_kb <= limits.temp_file_limit_mb * 1024:
            return
        try:
            cur.execute(pgsql.SQL("SET LOCAL temp_file_limit = {}").format(
                pgsql.Literal(f"{limits.temp_file_limit_mb}MB")))
        except psycopg.errors.InsufficientPrivilege as err:
            shown = "none" if temp_kb is None or temp_kb < 0 else f"{temp_kb / 1024:g} MB"
            raise DatabaseUnavailable(
                f"The role {user} may use unlimited temporary disk (temp_file_limit: {shown}, Aria's limit "
                f"{limits.temp_file_limit_mb} MB), and only an admin can limit it: refusing to run queries.",
                hint=f"As the admin: ALTER ROLE {user} SET temp_file_limit = '{limits.temp_file_limit_mb}MB' "
                "(Aria does this when it sets up its own read-only role).",
            ) from err

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
                        self._apply_limits(cur)
                        deadline.start()
                        yield cur
                finally:
                    deadline.cancel()
                    _rollback(conn)
        except psycopg.Error as err:
            raise self._map_error(err, timed_out=deadline is not None and deadline.fired) from err
        except PoolTimeout as err:
            raise self._unavailable(first_line(err)) from err

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
            raise self._unavailable(first_line(err)) from err
        with self._pool_lock:
            if self._pool is stale:
                log.warning("the database is back: renewing the connection pool %s", self._pool_name)
                self._pool = make_pool(self._conninfo, settings=self._settings, name=self._pool_name)
                stale.close(timeout=1.0)
            return self._pool

    def _map_error(self, err: psycopg.Error, *, timed_out: bool) -> Exception:
        first = first_line(err)
        if isinstance(err, psycopg.errors.QueryCanceled) or timed_out:
            return QueryTimeout(
                f"The query ran too long and was cancelled ({first}).",
                hint="Narrow the date range, aggregate earlier, or add a join condition.",
            )
        if connection_lost(err):
            return self._unavailable(first)
        state = err.sqlstate or ""
        hint = QUERY_HINTS.get(state) or QUERY_HINTS.get(state[:2]) or "Fix the SQL."
        return QueryFailed(f"The query failed: {first}", hint=hint)

    def _unavailable(self, detail: str) -> DatabaseUnavailable:
        return DatabaseUnavailable(
            f"The database {self._where} is unavailable ({detail}).",
            hint="Check that the server is running; Aria reconnects by itself once it is back.",
        )


class _Deadline:
    """Cancels the connection's running query after ``seconds`` (a client-side deadline)."""

    def __init__(self, conn: psycopg.Connection[Any], seconds: float) -> None:
        if not math.isfinite(seconds) or seconds <= 0:  # a Timer would die in its thread: no deadline at all
            raise ConfigError(f"The client deadline must be a positive number of seconds (it is {seconds}).",
                              hint="Set ARIA_CLIENT_DEADLINE_S to e.g. 20.")
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
            log.warning("cancelling the query failed: %s", first_line(err))

    def start(self) -> None:
        self._timer.start()

    def cancel(self) -> None:
        self._timer.cancel()


def _execute_one(cur: psycopg.Cursor[Any], query: str) -> None:
    """Execute through the extended query protocol (pipeline mode), which refuses several statements."""
    with cur.connection.pipeline() as pipeline:
        cur.execute(query)
        pipeline.sync()


def _describe(cur: psycopg.Cursor[Any], sql: str) -> list[Column]:
    """The result's columns from Parse + Describe alone: nothing is planned or run."""
    pgconn, encoding = cur.connection.pgconn, cur.connection.info.encoding
    for result in (pgconn.prepare(b"", sql.encode(encoding)), pgconn.describe_prepared(b"")):
        if result.status != pq.ExecStatus.COMMAND_OK:
            raise psycopg.errors.error_from_result(result, encoding=encoding)
    described = result
    return [Column((described.fname(i) or b"?column?").decode(encoding), described.ftype(i))
            for i in range(described.nfields)]


def _clean_row(raw: Any, width: int, flagged: list[int], max_chars: int) -> list[Any]:
    """JSON-friendly, clipped values; a value the server found too large becomes the clip marker."""
    row = [clip_value(to_jsonable(value), max_chars) for value in raw[:width]]
    for too_large, position in zip(raw[width:], flagged, strict=True):
        if too_large:
            row[position] = CLIP_MARKER
    return row


def _rollback(conn: psycopg.Connection[Any]) -> None:
    if conn.closed or conn.broken:
        return
    try:
        conn.rollback()
    except psycopg.Error as err:
        log.info("rollback after a failed query also failed: %s", first_line(err))


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
