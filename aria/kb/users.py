"""Aria's accounts in the KB schema: who may sign in, with which role, and recent wrong passwords.

``users`` holds a name, a role, an argon2 hash (NULL for an identity that signs in only through the
OpenID Connect provider) and whether it is disabled; ``sign_in_failures`` one row per wrong password,
for the throttle. All SQL of these two tables lives here; the rules are in :mod:`aria.kb.accounts`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import psycopg
from psycopg import sql

from aria.config import Settings
from aria.db.connect import connect
from aria.errors import KnowledgeBaseError

_DDL = """
CREATE SCHEMA IF NOT EXISTS {schema};
CREATE TABLE IF NOT EXISTS {schema}.users (
    name           text PRIMARY KEY CHECK (length(name) BETWEEN 1 AND 200),
    role           text NOT NULL CHECK (role IN ('viewer', 'manager', 'admin')),
    password_hash  text,
    disabled       boolean NOT NULL DEFAULT false,
    created_at     timestamptz NOT NULL DEFAULT now(),
    changed_at     timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS {schema}.sign_in_failures (
    id         bigserial PRIMARY KEY,
    name       text NOT NULL,
    failed_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS sign_in_failures_name ON {schema}.sign_in_failures (name, failed_at);
"""


@dataclass(frozen=True)
class Account:
    """One row of ``users`` (the hash stays in the store: :meth:`UserStore.password_hash`)."""

    name: str
    role: str
    disabled: bool
    has_password: bool
    created_at: datetime | None = None


class UserStore:
    """Reads and writes ``users`` and ``sign_in_failures`` of one KB schema; one connection per call."""

    def __init__(self, conninfo: str, settings: Settings) -> None:
        self.conninfo = conninfo
        self.settings = settings
        self.schema = settings.kb_schema

    def _ident(self, table: str) -> sql.Composed:
        return sql.SQL("{}.{}").format(sql.Identifier(self.schema), sql.Identifier(table))

    def _run(self, query: str, params: tuple[object, ...] = (), *, table: str = "users") -> list[tuple[object, ...]]:
        with connect(self.conninfo, settings=self.settings, autocommit=True) as conn:
            try:
                cur = conn.execute(sql.SQL(query).format(self._ident(table)), params)  # type: ignore[arg-type]
            except psycopg.errors.UndefinedTable:
                raise KnowledgeBaseError("There are no accounts yet.",
                                         hint="Add the first admin with `aria users add NAME --role admin`.") from None
            return cur.fetchall() if cur.description else []

    def ensure_schema(self) -> None:
        with connect(self.conninfo, settings=self.settings, autocommit=True) as conn:
            conn.execute(_DDL.format(schema=sql.Identifier(self.schema).as_string(conn)))  # type: ignore[arg-type]

    # --- accounts ---------------------------------------------------------------------------------
    def add(self, name: str, role: str, password_hash: str | None) -> None:
        try:
            self._run("INSERT INTO {} (name, role, password_hash) VALUES (%s, %s, %s)", (name, role, password_hash))
        except psycopg.errors.UniqueViolation:
            raise KnowledgeBaseError(f"There is already an account named {name!r}.",
                                     hint="Pick another name, or change its password with `aria users passwd`.") from None

    def get(self, name: str) -> Account | None:
        rows = self._run("SELECT name, role, disabled, password_hash IS NOT NULL, created_at FROM {} WHERE name = %s",
                         (name,))
        return Account(*rows[0]) if rows else None  # type: ignore[arg-type]

    def all(self) -> list[Account]:
        rows = self._run("SELECT name, role, disabled, password_hash IS NOT NULL, created_at FROM {} ORDER BY name")
        return [Account(*row) for row in rows]  # type: ignore[arg-type]

    def password_hash(self, name: str) -> str | None:
        rows = self._run("SELECT password_hash FROM {} WHERE name = %s", (name,))
        return str(rows[0][0]) if rows and rows[0][0] is not None else None

    def set_password_hash(self, name: str, password_hash: str) -> bool:
        rows = self._run("UPDATE {} SET password_hash = %s, changed_at = now() WHERE name = %s RETURNING name",
                         (password_hash, name))
        return bool(rows)

    def set_disabled(self, name: str, disabled: bool) -> bool:
        rows = self._run("UPDATE {} SET disabled = %s, changed_at = now() WHERE name = %s RETURNING name",
                         (disabled, name))
        return bool(rows)

    def set_role(self, name: str, role: str) -> bool:
        rows = self._run("UPDATE {} SET role = %s, changed_at = now() WHERE name = %s RETURNING name", (role, name))
        return bool(rows)

    def active_admins(self) -> int:
        try:
            rows = self._run("SELECT count(*) FROM {} WHERE role = 'admin' AND NOT disabled")
        except KnowledgeBaseError:
            return 0
        return int(rows[0][0])  # type: ignore[call-overload]

    # --- the throttle -------------------------------------------------------------------------------
    def record_failure(self, name: str) -> None:
        """Count a wrong password (and forget those older than a day: the table stays small)."""
        self._run("DELETE FROM {} WHERE failed_at < now() - interval '1 day'", table="sign_in_failures")
        self._run("INSERT INTO {} (name) VALUES (%s)", (name,), table="sign_in_failures")

    def recent_failures(self, name: str, window_s: int) -> tuple[int, datetime | None]:
        """Wrong passwords for ``name`` in the last ``window_s`` seconds, and when the latest was."""
        rows = self._run("SELECT count(*), max(failed_at) FROM {} WHERE name = %s "
                         "AND failed_at > now() - make_interval(secs => %s)", (name, window_s),
                         table="sign_in_failures")
        return int(rows[0][0]), rows[0][1]  # type: ignore[call-overload, return-value]

    def clear_failures(self, name: str) -> None:
        self._run("DELETE FROM {} WHERE name = %s", (name,), table="sign_in_failures")
