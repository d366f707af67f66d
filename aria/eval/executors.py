"""Where evaluation SQL runs: a benchmark's SQLite files, or SmartRestaurant's PostgreSQL as the
read-only role. Both cut every query at a deadline and raise Aria's errors.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import psycopg
from psycopg import sql as pgsql

from aria.db.sqlite import check_sqlite, run_sqlite
from aria.errors import DatabaseUnavailable, QueryFailed, QueryTimeout

log = logging.getLogger(__name__)


class Executor(Protocol):
    def check(self, db_id: str) -> None:
        """Raise :class:`DatabaseUnavailable` when ``db_id`` cannot be queried."""
        ...

    def run(self, db_id: str, sql: str, *, timeout_s: float) -> list[tuple]: ...


@dataclass(frozen=True)
class SqliteExecutor:
    """Runs SQL on ``<db_dir>/<db_id>/<db_id>.sqlite`` (Spider and BIRD layout)."""

    db_dir: Path

    def path(self, db_id: str) -> Path:
        return self.db_dir / db_id / f"{db_id}.sqlite"

    def check(self, db_id: str) -> None:
        check_sqlite(self.path(db_id))

    def run(self, db_id: str, sql: str, *, timeout_s: float) -> list[tuple]:
        return run_sqlite(self.path(db_id), sql, timeout_s=timeout_s)


@dataclass(frozen=True)
class PostgresExecutor:
    """Runs SQL on PostgreSQL through ``conninfo`` (the read-only role); one connection per thread.

    Each query runs in its own transaction, marked read only, with a local statement timeout,
    and is rolled back.
    """

    conninfo: str
    connect_timeout_s: int = 5
    _local: threading.local = field(default_factory=threading.local, compare=False, repr=False)

    def _conn(self) -> psycopg.Connection:
        conn: psycopg.Connection | None = getattr(self._local, "conn", None)
        if conn is None or conn.closed:
            try:
                conn = psycopg.connect(self.conninfo, connect_timeout=self.connect_timeout_s)
            except psycopg.OperationalError as err:
                raise DatabaseUnavailable(
                    f"Cannot connect to the evaluation database: {str(err).strip().splitlines()[0]}",
                    hint="Seed it first (aria db seed) and check ARIA_DATABASE_URL.",
                ) from err
            self._local.conn = conn
        return conn

    def check(self, db_id: str) -> None:
        self.run(db_id, "SELECT 1", timeout_s=10)

    def run(self, db_id: str, sql: str, *, timeout_s: float) -> list[tuple]:
        conn = self._conn()
        timeout = pgsql.Literal(f"{max(1, int(timeout_s * 1000))}ms")
        try:
            conn.execute("SET TRANSACTION READ ONLY")
            conn.execute(pgsql.SQL("SET LOCAL statement_timeout = {}").format(timeout))
            return conn.execute(sql).fetchall()  # type: ignore[arg-type]
        except psycopg.errors.QueryCanceled as err:
            raise QueryTimeout(
                f"PostgreSQL query ran past its {timeout_s:g} s deadline and was cancelled.",
                hint="Simplify the query or raise the timeout.",
            ) from err
        except psycopg.OperationalError as err:
            conn.close()
            raise QueryFailed(f"PostgreSQL connection failed: {err}", hint="Check the server.") from err
        except psycopg.Error as err:
            raise QueryFailed(
                f"PostgreSQL error: {str(err).strip().splitlines()[0]}", hint="Fix the SQL."
            ) from err
        finally:
            if not conn.closed:
                conn.rollback()
