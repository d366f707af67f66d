"""Connections: which database is which, connecting with clear errors, the read-only role, pools.

Three URLs, which may all point at one server (the embedded default) or at three:
- ``admin``: the restaurant's database with rights to seed it and create the read-only role;
- ``reader``: where generated SQL runs, as the read-only role (or a read replica);
- ``kb``: the knowledge base and query log (needs pgvector).
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass
from pathlib import Path

import psycopg
from psycopg import sql
from psycopg.conninfo import make_conninfo
from psycopg_pool import ConnectionPool, PoolTimeout

from aria.config import Settings
from aria.db.availability import answering, redact, unavailable_message, wait_while_starting
from aria.errors import DatabaseUnavailable

log = logging.getLogger(__name__)

@dataclass(frozen=True)
class Targets:
    """The three connection strings Aria uses, resolved from the settings."""

    admin: str
    reader: str
    kb: str
    embedded: bool

    def describe(self) -> str:
        """The admin URL without its password, fit to print."""
        return redact(self.admin)


def connect(conninfo: str, *, settings: Settings, autocommit: bool = False) -> psycopg.Connection:
    """Open one connection (waiting briefly for a recovering server), turning every failure into a
    one-line :class:`DatabaseUnavailable`."""
    try:
        return wait_while_starting(
            lambda: answering(
                psycopg.connect(conninfo, autocommit=autocommit, connect_timeout=settings.connect_timeout_s)
            )
        )
    except psycopg.OperationalError as err:
        raise unavailable_message(conninfo, err) from err


def require_pgvector(conn: psycopg.Connection) -> None:
    """Create the vector extension, or say exactly why it cannot be."""
    row = conn.execute("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'").fetchone()
    if row is None:
        raise DatabaseUnavailable(
            "The server has no pgvector extension.",
            hint="Install pgvector on it (https://github.com/pgvector/pgvector), or set ARIA_KB_URL "
            "to a server that has it.",
        )
    conn.execute("CREATE EXTENSION IF NOT EXISTS vector")


def resolve_targets(settings: Settings) -> Targets:
    """Start the embedded server when no URL is set, and check the knowledge base has pgvector."""
    embedded = settings.database_url is None
    if embedded:
        from aria.db.embedded import start_embedded

        admin = start_embedded(settings.home)
    else:
        admin = settings.database_url or ""
    kb = settings.kb_url or admin
    with connect(kb, settings=settings, autocommit=True) as conn:
        require_pgvector(conn)
    reader = settings.reader_url or _reader_conninfo(admin, settings)
    return Targets(admin=admin, reader=reader, kb=kb, embedded=embedded)


def _password_file(settings: Settings) -> Path:
    return settings.home / "reader_password"


def _reader_password(settings: Settings) -> str:
    """The read-only role's password, generated once and kept in ARIA_HOME (mode 0600)."""
    path = _password_file(settings)
    if path.exists():
        return path.read_text().strip()
    path.parent.mkdir(parents=True, exist_ok=True)
    password = secrets.token_urlsafe(24)
    path.write_text(password)
    path.chmod(0o600)
    return password


def _reader_conninfo(admin: str, settings: Settings) -> str:
    return make_conninfo(admin, user=settings.reader_role, password=_reader_password(settings))


def ensure_reader_role(conn: psycopg.Connection, settings: Settings) -> None:
    """Create/refresh the read-only role: SELECT on the business tables only, no KB access.

    Its own settings make every session read-only with a statement timeout, work_mem and a
    temp_file_limit, even if a query somehow escaped the guard; the executor still sets its limits
    locally and adds a client-side deadline on top. temp_file_limit can only be set by a superuser,
    so the role can neither raise nor reset it (the executor checks it in every transaction).
    """
    role = sql.Identifier(settings.reader_role)
    business = sql.Identifier(settings.business_schema)
    exists = conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (settings.reader_role,)).fetchone()
    password = sql.Literal(_reader_password(settings))
    if exists:
        conn.execute(sql.SQL("ALTER ROLE {} LOGIN PASSWORD {}").format(role, password))
    else:
        conn.execute(
            sql.SQL("CREATE ROLE {} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT PASSWORD {}").format(
                role, password
            )
        )
    dbname = conn.info.dbname
    statements: list[sql.SQL | sql.Composed] = [
        sql.SQL("REVOKE ALL ON DATABASE {} FROM PUBLIC").format(sql.Identifier(dbname)),
        sql.SQL("GRANT CONNECT ON DATABASE {} TO {}").format(sql.Identifier(dbname), role),
        sql.SQL("REVOKE CREATE ON SCHEMA public FROM PUBLIC"),
        sql.SQL("GRANT USAGE ON SCHEMA {} TO {}").format(business, role),
        sql.SQL("GRANT SELECT ON ALL TABLES IN SCHEMA {} TO {}").format(business, role),
        sql.SQL("GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA {} TO {}").format(business, role),
        sql.SQL("ALTER ROLE {} SET default_transaction_read_only = on").format(role),
        sql.SQL("ALTER ROLE {} SET statement_timeout = {}").format(role, sql.Literal(settings.statement_timeout_ms)),
        sql.SQL("ALTER ROLE {} SET idle_in_transaction_session_timeout = {}").format(
            role, sql.Literal(max(settings.statement_timeout_ms * 2, 10000))
        ),
        sql.SQL("ALTER ROLE {} SET work_mem = {}").format(role, sql.Literal(f"{settings.work_mem_mb}MB")),
        sql.SQL("ALTER ROLE {} SET temp_file_limit = {}").format(
            role, sql.Literal(f"{settings.temp_file_limit_mb}MB")
        ),
        sql.SQL("ALTER ROLE {} SET search_path = {}").format(role, business),
        sql.SQL("ALTER ROLE {} SET timezone = {}").format(role, sql.Literal(settings.timezone)),
    ]
    kb_exists = conn.execute("SELECT 1 FROM pg_namespace WHERE nspname = %s", (settings.kb_schema,)).fetchone()
    if kb_exists:
        statements.append(
            sql.SQL("REVOKE ALL ON SCHEMA {} FROM {}").format(sql.Identifier(settings.kb_schema), role)
        )
    semantic_exists = conn.execute(
        "SELECT 1 FROM pg_namespace WHERE nspname = %s", (settings.semantic_schema,)
    ).fetchone()
    if semantic_exists:  # the semantic layer's time spine (aria.db.seed.ensure_time_spine)
        semantic = sql.Identifier(settings.semantic_schema)
        statements.append(sql.SQL("GRANT USAGE ON SCHEMA {} TO {}").format(semantic, role))
        statements.append(sql.SQL("GRANT SELECT ON ALL TABLES IN SCHEMA {} TO {}").format(semantic, role))
    for statement in statements:
        conn.execute(statement)


def make_pool(conninfo: str, *, settings: Settings, name: str, options: str = "") -> ConnectionPool:
    """A psycopg pool that checks connections before handing them out (so a restarted server heals)."""
    kwargs: dict[str, object] = {"connect_timeout": settings.connect_timeout_s}
    if options:
        kwargs["options"] = options
    pool = ConnectionPool(
        conninfo,
        min_size=1,
        max_size=settings.pool_max_size,
        kwargs=kwargs,
        check=ConnectionPool.check_connection,
        name=name,
        open=False,
    )
    try:
        pool.open(wait=True, timeout=settings.connect_timeout_s + 5)
    except PoolTimeout as err:
        pool.close()
        raise DatabaseUnavailable(
            f"Cannot open connections to {redact(conninfo)}.",
            hint="Check that the server is running and the URL is right.",
        ) from err
    return pool
