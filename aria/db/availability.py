"""Is the server there: a recovering server waited for briefly, a lost connection told apart from a
failed statement, and the one-line error for either. Used by :mod:`aria.db.connect`,
:mod:`aria.db.embedded` and every store that maps driver errors to Aria's.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TypeVar

import psycopg
from psycopg.conninfo import conninfo_to_dict

from aria.errors import DatabaseUnavailable

log = logging.getLogger(__name__)

T = TypeVar("T")
# What a server says while it starts, or recovers after a crash: worth waiting for, briefly.
STARTING_UP = ("starting up", "in recovery mode", "not yet accepting connections")
# ...and what a connection attempt may also meet while the server restarts after a crash.
RETRY_ON = (*STARTING_UP, "server closed the connection unexpectedly", "crash of another server process")
RECOVERY_WAIT_S = 10.0
# Connection-level failures: the server is gone, restarting or refusing connections. Everything
# else the server says about a query (program limits, bad data, ...) is the query's own failure.
UNAVAILABLE_STATES = frozenset({"57P01", "57P02", "57P03", "57P04", "53300"})


def redact(conninfo: str) -> str:
    params = conninfo_to_dict(conninfo)
    params.pop("password", None)
    where = params.get("host") or "localhost"
    return f"postgresql://{params.get('user', '')}@{where}/{params.get('dbname', '')}"


def starting_up(err: BaseException, phrases: tuple[str, ...] = STARTING_UP) -> bool:
    """True when the server refused a connection because it is starting or recovering from a crash."""
    text = str(err).lower()
    return isinstance(err, psycopg.OperationalError) and any(phrase in text for phrase in phrases)


def connection_lost(err: psycopg.Error) -> bool:
    """True only when the connection or the server failed, not the statement."""
    if isinstance(err, psycopg.InterfaceError):
        return True
    state = err.sqlstate or ""
    return isinstance(err, psycopg.OperationalError) and (not state or state[:2] == "08" or state in UNAVAILABLE_STATES)


def first_line(err: BaseException) -> str:
    """The first line of an error's text (its class name when it has none)."""
    text = str(err).strip()
    return text.splitlines()[0] if text else type(err).__name__


def wait_while_starting(open_: Callable[[], T], *, wait_s: float | None = None) -> T:
    """``open_()``, tried again for up to ``wait_s`` seconds (default :data:`RECOVERY_WAIT_S`) while
    the server is starting or recovering."""
    give_up_at = time.monotonic() + (RECOVERY_WAIT_S if wait_s is None else wait_s)
    delay = 0.2
    while True:
        try:
            return open_()
        except psycopg.OperationalError as err:
            if not starting_up(err, RETRY_ON) or time.monotonic() + delay > give_up_at:
                raise
            log.info("the database is starting or recovering; trying again in %.1f s", delay)
            time.sleep(delay)
            delay = min(delay * 2, 2.0)


def answering(conn: psycopg.Connection) -> psycopg.Connection:
    """``conn`` once it has answered a trivial query: a connection opened in the instant before the
    server noticed a crashed backend is closed under it, and that failure must reach
    :func:`wait_while_starting` (to be tried again) rather than the caller's first statement."""
    try:
        conn.execute("SELECT 1")
        if not conn.autocommit:
            conn.rollback()
    except BaseException:
        conn.close()
        raise
    return conn


def unavailable_message(conninfo: str, err: BaseException) -> DatabaseUnavailable:
    """The one-line error for a connection that failed (a recovering server said so)."""
    first = first_line(err)
    if starting_up(err):
        return DatabaseUnavailable(
            f"The database {redact(conninfo)} is still starting or recovering after a crash ({first}).",
            hint="Try again in a moment; `aria db status` shows when it is back.",
        )
    return DatabaseUnavailable(
        f"Cannot connect to {redact(conninfo)}: {first}",
        hint="Check that the server is running and ARIA_DATABASE_URL is right, "
        "or unset it to use the embedded server.",
    )
