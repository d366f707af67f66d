"""The read-only executor for one SQLite benchmark database (Spider, BIRD): the SQLite twin of
:class:`aria.db.executor.ReadOnlyExecutor`, with the same API, so the engine runs on either.

Layers, applied to every query:

1. the safety guard (:mod:`aria.sql.guard`, dialect ``sqlite``): tables unqualified (or ``main.``),
   no ``sqlite_*``/``pragma_*`` tables, no ATTACH/PRAGMA, one SELECT; what runs is the guard's SQL;
2. the cost guard: ``EXPLAIN QUERY PLAN`` (compiles the query, so unknown tables and columns fail
   here, never executes it) and the Cartesian-product heuristic below;
3. the connection: opened ``mode=ro`` with ``PRAGMA query_only`` (:mod:`aria.db.sqlite`), one per
   thread, and a deadline enforced by a progress handler.

SQLite has no cost estimates, so the cost guard is a heuristic on the plan's shape. In one
SELECT, the plan lists the join's nested loops in order as sibling lines: ``SCAN t`` is a full
scan, ``SEARCH t USING ...`` an index lookup (SQLite builds an automatic index when a join has an
equality condition without one). The first loop of a join may scan; a *later* loop that scans
re-reads its whole table for every row of the loops before it — a join with no usable condition.
When a loop nest has such a nested scan, the work is estimated as the product of the row counts of
its scanned tables (index lookups count 1; counts come from ``count(*)``, cached per table; an
unknown name — a CTE, a subquery — counts 1, so only what is known can refuse). Above
:data:`~aria.db.executor.CARTESIAN_ROWS_LIMIT` the query is refused with an explanation for the
SQL writer. The deadline stays the backstop for everything the heuristic cannot see.

The row cap is applied by fetching at most ``cap + 1`` rows rather than by wrapping the query in
``SELECT * FROM (...) LIMIT``: on SQLite the wrapper renames duplicate column names (``name``,
``name:1``); fetching lazily stops the query at the same point.
"""

from __future__ import annotations

import logging
import math
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from sqlglot import exp, parse_one

from aria.config import Settings
from aria.db.executor import CARTESIAN_ROWS_LIMIT, QueryResult, to_jsonable
from aria.db.sqlite import close_sqlite_connections, sqlite_connection
from aria.errors import AriaError, CostRejection, QueryFailed, QueryTimeout
from aria.sql.guard import guard_sql

log = logging.getLogger(__name__)

_PROGRESS_STEPS = 10_000


@dataclass(frozen=True)
class PlanLoop:
    """One table loop of ``EXPLAIN QUERY PLAN``: its parent line, SCAN or SEARCH, and the name shown."""

    parent: int
    kind: str  # "SCAN" | "SEARCH"
    name: str


@dataclass(frozen=True)
class SqlitePlan:
    """What the cost guard read from ``EXPLAIN QUERY PLAN``."""

    lines: tuple[str, ...]
    estimated_rows: float  # the largest loop nest's estimate (product of scanned tables' rows)
    cartesian_detail: str = ""  # set when a nested full scan was found, whatever its size


def plan_loops(rows: list[tuple]) -> list[PlanLoop]:
    """The SCAN/SEARCH lines of an ``EXPLAIN QUERY PLAN`` result, in plan order.

    >>> plan_loops([(2, 0, 0, "SCAN singer"), (4, 0, 0, "SEARCH concert USING INDEX i (id=?)")])
    [PlanLoop(parent=0, kind='SCAN', name='singer'), PlanLoop(parent=0, kind='SEARCH', name='concert')]
    """
    loops = []
    for _id, parent, _unused, detail in rows:
        words = str(detail).split()
        if len(words) < 2 or words[0] not in ("SCAN", "SEARCH") or words[1] == "CONSTANT":
            continue
        name = words[2] if words[1] == "TABLE" and len(words) > 2 else words[1]  # SQLite < 3.36 says "SCAN TABLE t"
        loops.append(PlanLoop(int(parent), words[0], name))
    return loops


def table_aliases(sql: str) -> dict[str, set[str]]:
    """Plan name (alias or table, lower case) -> the tables it may stand for."""
    aliases: dict[str, set[str]] = {}
    for table in parse_one(sql, read="sqlite").find_all(exp.Table):
        if table.name:
            aliases.setdefault(table.alias_or_name.lower(), set()).add(table.name)
    return aliases


def nested_scans(loops: list[PlanLoop]) -> dict[int, list[PlanLoop]]:
    """Per loop nest (parent line) with a full scan after its first loop: the nest's scanned loops."""
    nests: dict[int, list[PlanLoop]] = {}
    for loop in loops:
        nests.setdefault(loop.parent, []).append(loop)
    return {parent: [lp for lp in nest if lp.kind == "SCAN"] for parent, nest in nests.items()
            if any(lp.kind == "SCAN" for lp in nest[1:])}


class SqliteReadOnlyExecutor:
    """Runs guarded SQL read-only on one SQLite file. Thread-safe (one connection per thread)."""

    def __init__(self, path: Path, settings: Settings, *, timeout_s: float | None = None) -> None:
        self.path = Path(path)
        self._settings = settings
        self._timeout_s = timeout_s if timeout_s is not None else settings.client_deadline_s
        self._row_counts: dict[str, int | None] = {}
        self._lock = threading.Lock()

    # --- public API (the same as ReadOnlyExecutor's) ----------------------------------------------
    def guard(self, sql: str) -> str:
        """The guard's normalized SQL, or :class:`GuardRejection`."""
        return guard_sql(sql, dialect="sqlite", allowed_schemas=frozenset({"main"}))

    def explain(self, sql: str) -> SqlitePlan:
        """``EXPLAIN QUERY PLAN`` of the guarded SQL, read by the Cartesian heuristic; never executes it."""
        return self._plan(self.guard(sql))

    def check_cost(self, sql: str) -> SqlitePlan:
        """The plan, or :class:`CostRejection` with an explanation a SQL writer can act on."""
        plan = self.explain(sql)
        problem = cost_problem(plan)
        if problem:
            raise CostRejection(problem)
        return plan

    def explain_only(self, sql: str) -> str | None:
        """For the syntactic tier: None when the SQL passes the guard and the cost guard, else the error."""
        try:
            self.check_cost(sql)
        except AriaError as err:
            return err.message
        return None

    def run(self, sql: str, *, row_cap: int | None = None) -> QueryResult:
        """Guard, cost guard, then execute read-only with the row cap and the deadline."""
        guarded = self.guard(sql)
        problem = cost_problem(self._plan(guarded))
        if problem:
            raise CostRejection(problem)
        cap = row_cap if row_cap is not None else self._settings.row_cap
        started = time.perf_counter()
        columns, fetched = self._query(guarded, max_rows=cap + 1)
        truncated = len(fetched) > cap
        rows = [[to_jsonable(value) for value in row] for row in fetched[:cap]]
        return QueryResult(columns, rows, len(rows), truncated, round((time.perf_counter() - started) * 1000, 2))

    def close(self) -> None:
        """Close this thread's read-only connections (they reopen on next use)."""
        close_sqlite_connections()

    def __enter__(self) -> SqliteReadOnlyExecutor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- internals ---------------------------------------------------------------------------------
    def _plan(self, guarded_sql: str) -> SqlitePlan:
        _, rows = self._query("EXPLAIN QUERY PLAN " + guarded_sql, max_rows=None)
        lines = tuple(str(r[3]) for r in rows)
        nests = nested_scans(plan_loops(rows))
        if not nests:
            return SqlitePlan(lines, 0.0)
        aliases = table_aliases(guarded_sql)
        worst, detail = 0.0, ""
        for scans in nests.values():
            counts = {lp.name: self._rows_for(lp.name, aliases) for lp in scans}
            estimate = float(math.prod(counts.values()))
            if estimate >= worst:
                described = ", ".join(f"{n} (~{c:,} rows)" for n, c in counts.items())
                worst, detail = estimate, f"a join without a usable condition between {described}"
        return SqlitePlan(lines, worst, detail)

    def _rows_for(self, name: str, aliases: dict[str, set[str]]) -> int:
        tables = aliases.get(name.lower(), set())
        counts = [self._row_count(t) for t in tables]
        known = [c for c in counts if c is not None]
        return max(known) if known else 1

    def _row_count(self, table: str) -> int | None:
        """``count(*)`` of a table, cached; None when it is not a table or cannot be counted."""
        key = table.lower()
        with self._lock:
            if key in self._row_counts:
                return self._row_counts[key]
        quoted = '"' + table.replace('"', '""') + '"'
        try:
            count: int | None = int(self._query(f"SELECT count(*) FROM {quoted}", max_rows=1)[1][0][0])
        except QueryFailed:  # a CTE or subquery name, or too slow to count
            count = None
        with self._lock:
            self._row_counts[key] = count
        return count

    def _query(self, sql: str, *, max_rows: int | None) -> tuple[list[str], list[tuple]]:
        """Run one statement on this thread's read-only connection, cut at the deadline."""
        conn = sqlite_connection(self.path)
        deadline = time.monotonic() + self._timeout_s
        conn.set_progress_handler(lambda: int(time.monotonic() > deadline), _PROGRESS_STEPS)
        try:
            cursor = conn.execute(sql)
            columns = [d[0] for d in cursor.description or []]
            return columns, cursor.fetchall() if max_rows is None else cursor.fetchmany(max_rows)
        except (sqlite3.Error, sqlite3.Warning) as err:
            raise _mapped(err, timed_out=time.monotonic() > deadline, timeout_s=self._timeout_s) from err
        finally:
            conn.set_progress_handler(None, 0)
            if conn.in_transaction:
                conn.rollback()


def _mapped(err: Exception, *, timed_out: bool, timeout_s: float) -> QueryFailed:
    if timed_out and "interrupt" in str(err).lower():
        return QueryTimeout(f"The SQLite query ran past its {timeout_s:g} s deadline and was cut.",
                            hint="Add the missing join condition, filter earlier, or aggregate before joining.")
    return QueryFailed(f"SQLite refused the query: {err}", hint="Fix the SQL.")


def cost_problem(plan: SqlitePlan) -> str:
    """Why the plan is refused ('' when it may run), worded for a SQL-writing model."""
    if not plan.cartesian_detail or plan.estimated_rows <= CARTESIAN_ROWS_LIMIT:
        return ""
    return (f"{plan.cartesian_detail}: ~{plan.estimated_rows:,.0f} row combinations > limit "
            f"{CARTESIAN_ROWS_LIMIT:,}; add the join condition (JOIN ... ON a.key = b.key) between those tables")

