"""The database layer on its own: hostile SQL executed DIRECTLY as the read-only role (no guard,
no executor) must be refused or change nothing; the same for whatever the fuzzer gets past the guard."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
import yaml
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from psycopg import sql

from aria.config import Settings
from aria.db.connect import Targets, ensure_reader_role
from aria.db.introspect import introspect_postgres
from aria.sql.guard import check_sql, schema_columns
from aria.sql.guard_names import ROW_FUNCTIONS, looks_like_catalog_function
from tests.unit.test_guard_fuzz import sql_texts

HOSTILE = yaml.safe_load((Path(__file__).resolve().parent.parent / "data" / "hostile.yaml").read_text())
# Statements run with a short server-side timeout so that pg_sleep & co. do not slow the suite;
# timing out is one of the ways the database blocks them.
FAST = "-c statement_timeout=500 -c lock_timeout=500"


def fingerprint(admin: str, settings: Settings) -> dict[str, Any]:
    """Row count + hash sum of every business table, large objects, the reader role's attributes."""
    state: dict[str, Any] = {}
    with psycopg.connect(admin, autocommit=True) as conn:
        tables = conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = %s ORDER BY 1", (settings.business_schema,)
        ).fetchall()
        for (table,) in tables:
            query = sql.SQL("SELECT count(*), coalesce(sum(hashtext(t::text)::bigint), 0) FROM {}.{} AS t").format(
                sql.Identifier(settings.business_schema), sql.Identifier(table)
            )
            state[table] = conn.execute(query).fetchone()
        state["_large_objects"] = conn.execute("SELECT count(*) FROM pg_largeobject_metadata").fetchone()
        state["_reader"] = conn.execute(
            "SELECT rolsuper, rolcreaterole, rolcreatedb, rolinherit, rolbypassrls FROM pg_roles WHERE rolname = %s",
            (settings.reader_role,),
        ).fetchone()
        state["_roles"] = conn.execute("SELECT count(*) FROM pg_roles").fetchone()
    return state


@pytest.fixture()
def restore_reader(seeded: Targets, settings: Settings) -> Iterator[None]:
    """Some statements may change the role's own defaults (allowed by PostgreSQL); reset them after."""
    yield
    with psycopg.connect(seeded.admin, autocommit=True) as conn:
        ensure_reader_role(conn, settings)


def _items() -> list[tuple[str, str, str]]:
    return [
        (category, item["sql"] if isinstance(item, dict) else item,
         item.get("db", block["db"]) if isinstance(item, dict) else block["db"])
        for category, block in HOSTILE["postgres"].items()
        for item in block["statements"]
    ]


def _run_as_reader(reader: str, statement: str) -> str:
    """'' when the statement ran, else the first line of the error. The transaction is never committed."""
    conn = psycopg.connect(reader, options=FAST)  # autocommit off, as in production
    try:
        conn.execute(statement)
        return ""
    except psycopg.Error as err:
        return (str(err).strip().splitlines() or [type(err).__name__])[0]
    finally:
        conn.close()  # closing without COMMIT rolls back; it also ends a COPY left half-way


@pytest.mark.slow
def test_hostile_corpus_is_blocked_by_the_database(
    seeded: Targets, settings: Settings, restore_reader: None
) -> None:
    before = fingerprint(seeded.admin, settings)
    ran_but_must_fail = []
    outcomes = {"refused": 0, "ran_harmlessly": 0}
    for category, statement, expect in _items():
        error = _run_as_reader(seeded.reader, statement)
        outcomes["refused" if error else "ran_harmlessly"] += 1
        if expect == "error" and not error:
            ran_but_must_fail.append(f"{category}: {statement}")
    after = fingerprint(seeded.admin, settings)
    print(f"hostile corpus executed directly as the reader: {outcomes}")
    assert ran_but_must_fail == [], "\n".join(ran_but_must_fail)
    assert after == before
    assert sum(outcomes.values()) >= 300


def test_reader_role_defaults_are_in_place(seeded: Targets, settings: Settings) -> None:
    with psycopg.connect(seeded.reader) as conn:
        assert conn.execute("SHOW default_transaction_read_only").fetchone() == ("on",)
        assert (conn.execute("SHOW statement_timeout").fetchone() or ("",))[0] in {
            f"{settings.statement_timeout_ms}ms", f"{settings.statement_timeout_ms // 1000}s"
        }
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("SELECT rolpassword FROM pg_authid")


@pytest.mark.slow
def test_what_the_fuzzer_gets_past_the_guard_writes_nothing(seeded: Targets, settings: Settings) -> None:
    before = fingerprint(seeded.admin, settings)
    passed: list[str] = []
    with psycopg.connect(seeded.reader, options="-c statement_timeout=2000") as conn:

        @hsettings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), database=None)
        @given(sql_texts())
        def run_allowed(text: str) -> None:
            verdict = check_sql(text, allowed_schemas=frozenset({settings.business_schema}))
            if not verdict.allowed:
                return
            passed.append(verdict.sql)
            try:
                conn.execute(verdict.sql)
            except psycopg.Error:
                pass  # a wrong column is fine; a write is what must not happen
            finally:
                conn.rollback()

        run_allowed()
    assert fingerprint(seeded.admin, settings) == before
    print(f"fuzz: {len(passed)} allowed statements executed as the reader")


# Every function whose only required argument accepts a row: what attribute notation reaches on a table.
ROW_ARGUMENT_FUNCTIONS = """
    SELECT DISTINCT p.proname FROM pg_proc p
    WHERE p.pronargs >= 1 AND p.pronargs - p.pronargdefaults <= 1
      AND p.proargtypes[0] IN ('record'::regtype, '"any"'::regtype, 'anyelement'::regtype,
                               'anycompatible'::regtype, 'anynonarray'::regtype, 'anycompatiblenonarray'::regtype)
"""
# FROM items of each kind, each aliased o: a table, a subquery, a scalar table function of two types.
ATTRIBUTE_SOURCES = {
    "table": "{schema}.orders o",
    "subquery": "(SELECT order_id, status FROM {schema}.orders) o",
    "integer function": "generate_series(1, 2) o",
    "text function": "unnest(ARRAY['a']) o",
}


def test_the_row_function_list_covers_the_server(seeded: Targets) -> None:
    with psycopg.connect(seeded.admin, autocommit=True) as conn:
        names = {name for (name,) in conn.execute(ROW_ARGUMENT_FUNCTIONS)}
    assert {name for name in names if not looks_like_catalog_function(name)} == set(), (
        "add these to aria.sql.guard_names.ROW_FUNCTIONS"
    )
    assert len(names & ROW_FUNCTIONS) > 30


@pytest.mark.slow
def test_every_function_the_server_reaches_by_attribute_notation_is_rejected(
    seeded: Targets, settings: Settings
) -> None:
    """For every function name the server knows: where ``o.<name>`` resolves (EXPLAIN, never run)
    and is not a real column, the guard rejects it, with and without the schema's columns."""
    schema = settings.business_schema
    columns = schema_columns(introspect_postgres(seeded.admin, schema))
    real = {"table": columns["orders"], "subquery": {"order_id", "status"},
            "integer function": {"o"}, "text function": {"o"}}
    with psycopg.connect(seeded.admin, autocommit=True) as conn:
        names = [name for (name,) in conn.execute("SELECT DISTINCT proname FROM pg_proc ORDER BY 1")]
    reached: dict[str, list[str]] = {}
    passed: list[str] = []
    with psycopg.connect(seeded.reader) as conn:
        for kind, source in ATTRIBUTE_SOURCES.items():
            for name in names:
                query = sql.SQL("SELECT o.{} FROM " + source.format(schema=schema)).format(sql.Identifier(name))
                try:
                    conn.execute(sql.SQL("EXPLAIN ") + query)
                except psycopg.Error:
                    continue
                finally:
                    conn.rollback()
                if name in real[kind]:
                    continue
                reached.setdefault(kind, []).append(name)
                text = query.as_string(conn)
                if check_sql(text).allowed or check_sql(text, columns=columns).allowed:
                    passed.append(f"{kind}: {text}")
    assert passed == []
    assert {"pg_column_size", "row_to_json", "to_jsonb"} <= set(reached["table"])
    assert "pg_sleep" in reached["integer function"] and "current_setting" in reached["text function"]
