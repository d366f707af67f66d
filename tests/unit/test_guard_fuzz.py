"""Fuzzing the guard: random SQL from a small grammar and mutations of safe SELECTs.

Properties: ``check_sql`` never raises, and whatever it allows is one read-only query whose
normalized text passes again unchanged, with no side door: no system column, no session keyword, no
function reached through a qualified name or ``(expr).name``, no table function of another schema. The same strategies drive the database-backed fuzz test
in ``tests/integration/test_hostile_db.py`` (what passes writes nothing).
"""

from __future__ import annotations

import sqlglot
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlglot import exp

from aria.sql.guard import check_sql
from aria.sql.guard_names import ROW_FUNCTIONS, SESSION_KEYWORDS, SYSTEM_COLUMNS

TABLES = ["orders", "order_items", "menu_items", "customers", "restaurant.payments", "pg_authid",
          "aria_kb.documents", "information_schema.tables", "pg_catalog.pg_class", "orders AS o",
          "generate_series(1, 3) AS o", "pg_catalog.generate_series(1, 3)", "unnest(ARRAY['port']) AS o"]
COLUMNS = ["order_id", "total_vnd", "status", "opened_at", "1", "'x'", "NULL", "*", "o.status", "o.row_to_json",
           "orders.hash_record", "o.pg_sleep", "o.current_setting", "xmin", "o.ctid", "user", "current_role",
           "(o).to_jsonb", "o.o", "o"]
FUNCTIONS = ["count", "sum", "lower", "coalesce", "pg_sleep", "set_config", "pg_read_file", "lo_import",
             "nextval", "query_to_xml", "dblink", "date_trunc", "business_now", "round", "txid_current",
             "current_setting", "version", "pg_backend_pid", "to_jsonb", "pg_catalog.lower"]
HOSTILE_TOKENS = [";", "; DROP TABLE orders", "--", "/*", "*/", "$$", "$a$", "E'\\''", "'", '"', "(", ")",
                  "INTO t", "FOR UPDATE", "RETURNING *", "DELETE FROM orders", "UNION SELECT 1",
                  "WITH d AS (DELETE FROM orders RETURNING 1)", "COPY", "SET ROLE postgres", "\n", "\\",
                  "U&'\\0027'", "::regclass", "pg_catalog.", "COMMIT;", "LOCK orders", ".row_to_json",
                  ".pg_sleep", " xmin", ".ctid", " user", " current_role", ").hash_record", "o."]
SAFE_SEEDS = [
    "SELECT count(*) FROM orders",
    "SELECT o.order_id, sum(oi.qty) FROM orders o JOIN order_items oi ON oi.order_id = o.order_id GROUP BY 1",
    "WITH d AS (SELECT opened_at::date AS day, sum(total_vnd) AS rev FROM orders GROUP BY 1) SELECT * FROM d",
    "SELECT name_en FROM menu_items WHERE price_vnd > 50000 ORDER BY price_vnd DESC LIMIT 5",
    "SELECT status, count(*) FROM orders WHERE opened_at >= business_now() - interval '7 days' GROUP BY status",
    "SELECT o.status, g.n FROM orders o, generate_series(1, 3) AS g(n) WHERE o.order_id = g.n",
]
WRITE_NODES = (exp.Insert, exp.Update, exp.Delete, exp.Merge, exp.Create, exp.Drop, exp.Alter, exp.Command,
               exp.Into, exp.Lock, exp.Set, exp.Copy, exp.Transaction, exp.Commit, exp.Rollback)


@st.composite
def grammar_sql(draw: st.DrawFn) -> str:
    """A statement from a small SQL grammar, possibly chained with others and sprinkled with tokens."""
    column = draw(st.sampled_from(COLUMNS))
    call = f"{draw(st.sampled_from(FUNCTIONS))}({column if column != '*' else '1'})"
    select = f"SELECT {draw(st.sampled_from([column, call]))} FROM {draw(st.sampled_from(TABLES))}"
    statement = draw(st.sampled_from([
        select,
        f"{select} WHERE {column} IS NOT NULL",
        f"WITH c AS ({select}) SELECT * FROM c",
        f"{select} UNION ALL {select}",
        f"SELECT * FROM ({select}) AS s",
        f"DELETE FROM {draw(st.sampled_from(TABLES))}",
        f"UPDATE orders SET total_vnd = {column}",
        f"INSERT INTO orders SELECT * FROM {draw(st.sampled_from(TABLES))}",
    ]))
    parts = [statement]
    for _ in range(draw(st.integers(0, 3))):
        parts.insert(draw(st.integers(0, len(parts))), draw(st.sampled_from(HOSTILE_TOKENS)))
    text = " ".join(parts)
    return text.upper() if draw(st.booleans()) else text


@st.composite
def mutated_safe_sql(draw: st.DrawFn) -> str:
    """A safe SELECT with something inserted, deleted or appended at a random place."""
    text = draw(st.sampled_from(SAFE_SEEDS))
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text)))
        action = draw(st.sampled_from(["insert", "delete", "append"]))
        if action == "insert":
            text = text[:at] + draw(st.sampled_from(HOSTILE_TOKENS)) + text[at:]
        elif action == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 8)):]
        else:
            text = text + draw(st.sampled_from(HOSTILE_TOKENS))
    return text


def sql_texts() -> st.SearchStrategy[str]:
    return st.one_of(grammar_sql(), mutated_safe_sql(), st.text(max_size=200))


def assert_read_only(normalized: str) -> None:
    """An independent check of an allowed verdict: one query, no write or session node anywhere."""
    statements = [s for s in sqlglot.parse(normalized, read="postgres") if s is not None]
    assert len(statements) == 1
    tree = statements[0]
    assert isinstance(tree, exp.Select | exp.Union | exp.Intersect | exp.Except)
    assert tree.find(*WRITE_NODES) is None, normalized
    assert_no_side_door(tree, normalized)


def assert_no_side_door(tree: exp.Expr, normalized: str) -> None:
    """Independently of the guard's scoping: nothing the red team used gets through."""
    derived = {node.alias_or_name.lower() for node in tree.find_all(exp.CTE, exp.Subquery, exp.Values)}
    for column in tree.find_all(exp.Column):
        name = column.name.lower()
        assert name not in SYSTEM_COLUMNS, normalized
        if not column.table:
            assert column.this.quoted or name not in SESSION_KEYWORDS, normalized
        elif column.table.lower() not in derived:  # CTE/subquery outputs may be named count, max, ...
            assert name not in ROW_FUNCTIONS and not name.startswith("pg_"), normalized
    assert not any(isinstance(dot.expression, exp.Identifier) for dot in tree.find_all(exp.Dot)), normalized
    assert not any(table.db.lower().startswith(("pg_", "information_schema")) for table in tree.find_all(exp.Table))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sql_texts())
def test_check_sql_never_raises_and_allowed_means_read_only(sql: str) -> None:
    verdict = check_sql(sql)
    assert isinstance(verdict.reason, str) and verdict.reason
    if verdict.allowed:
        assert_read_only(verdict.sql)
        again = check_sql(verdict.sql)
        assert again.allowed and again.sql == verdict.sql
    else:
        assert verdict.sql == ""


@settings(max_examples=150, deadline=None)
@given(sql_texts())
def test_sqlite_dialect_never_raises(sql: str) -> None:
    verdict = check_sql(sql, dialect="sqlite", allowed_schemas=frozenset())
    assert verdict.allowed in (True, False) and verdict.reason
