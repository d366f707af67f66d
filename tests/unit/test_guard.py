"""The safety guard, without a database: the hostile corpus is rejected, realistic queries pass."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from aria.errors import GuardRejection
from aria.sql.guard import MAX_SQL_CHARS, check_sql, guard_sql, schema_columns
from aria.sql.guard_names import ROW_FUNCTIONS, SYSTEM_COLUMNS
from aria.sql.schema import Column, Schema, Table

HOSTILE = yaml.safe_load((Path(__file__).resolve().parent.parent / "data" / "hostile.yaml").read_text())


def _sql(item: Any) -> str:
    return item["sql"] if isinstance(item, dict) else item


POSTGRES_HOSTILE = [
    pytest.param(_sql(item), id=f"{category}-{index}")
    for category, block in HOSTILE["postgres"].items()
    for index, item in enumerate(block["statements"])
]
SQLITE_HOSTILE = [_sql(item) for item in HOSTILE["sqlite"]["statements"]]

SAFE_POSTGRES = [
    "SELECT count(*) FROM orders",
    "SELECT 1;",
    "select o.order_id, o.total_vnd from restaurant.orders o where o.status = 'COMPLETED' order by 2 desc limit 10",
    "SELECT date_trunc('day', opened_at AT TIME ZONE 'Asia/Ho_Chi_Minh') AS d, sum(total_vnd) FROM orders "
    "WHERE opened_at >= business_now() - interval '7 days' GROUP BY 1 ORDER BY 1",
    "SELECT m.name_en, sum(oi.qty) AS qty FROM order_items oi JOIN menu_items m ON m.item_id = oi.item_id "
    "WHERE oi.line_status <> 'VD' GROUP BY m.name_en ORDER BY qty DESC LIMIT 5",
    "WITH daily AS (SELECT opened_at::date AS d, sum(total_vnd) AS rev FROM orders GROUP BY 1) "
    "SELECT d, rev, avg(rev) OVER (ORDER BY d ROWS BETWEEN 6 PRECEDING AND CURRENT ROW) FROM daily",
    "SELECT extract(hour from opened_at) AS h, count(*) FILTER (WHERE order_type = 'DI') FROM orders GROUP BY 1",
    "SELECT to_char(opened_at, 'YYYY-MM') m, round(avg(total_vnd)::numeric, 2) FROM orders GROUP BY 1",
    "SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY total_vnd) FROM orders",
    "SELECT string_agg(name_en, ', ' ORDER BY name_en) FROM menu_items WHERE is_active",
    "SELECT c.full_name, coalesce(sum(o.total_vnd), 0) FROM customers c LEFT JOIN orders o USING (customer_id) "
    "GROUP BY c.customer_id, c.full_name HAVING count(o.order_id) > 3",
    "SELECT * FROM orders WHERE order_id IN (SELECT order_id FROM payments WHERE method = 'MOMO')",
    "SELECT EXISTS (SELECT 1 FROM orders)",
    "SELECT CASE WHEN total_vnd > 1000000 THEN 'big' ELSE 'small' END, count(*) FROM orders GROUP BY 1",
    "SELECT name_en FROM menu_items UNION ALL SELECT name FROM suppliers",
    "SELECT s.full_name, rank() OVER (PARTITION BY s.role_code ORDER BY s.hourly_wage_vnd DESC) FROM staff s",
    "SELECT lag(total_vnd) OVER (ORDER BY opened_at), lead(total_vnd, 1, 0) OVER w FROM orders "
    "WINDOW w AS (ORDER BY opened_at)",
    "SELECT greatest(1, 2), least(3, 4), nullif(1, 1), abs(-1), ceil(1.2), floor(1.2), upper('a'), lower('A'), "
    "length('x'), substring('abc' from 1 for 2), trim(' a ')",
    "SELECT age(business_now(), joined_at) FROM customers",
    "SELECT * FROM generate_series(1, 10) AS g(n)",
    "SELECT d::date FROM generate_series(business_now() - interval '6 days', business_now(), interval '1 day') AS d",
    "SELECT restaurant.business_now()",
    "SELECT now() AT TIME ZONE 'Asia/Ho_Chi_Minh'",
    "SELECT date_part('dow', opened_at), make_date(2026, 1, 1), now(), current_date FROM orders LIMIT 1",
    "SELECT DISTINCT ON (customer_id) customer_id, opened_at FROM orders ORDER BY customer_id, opened_at DESC",
    "SELECT name_en FROM menu_items WHERE name_en ILIKE '%pho%' OR name_vi LIKE 'Phở%'",
    "SELECT order_id FROM orders EXCEPT SELECT order_id FROM payments",
    "SELECT count(*) FROM orders WHERE closed_at IS NULL AND opened_at BETWEEN '2026-11-01' AND '2026-11-15'",
    "SELECT avg(extract(epoch from (ready_at - fired_at)) / 60) FROM kitchen_tickets WHERE ready_at IS NOT NULL",
    "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 5) SELECT * FROM r",
    "SELECT $$O'Brien$$, 'a' || 'b', 'x; DROP TABLE orders; --'",
    "SELECT total_vnd % 1000, split_part('a,b', ',', 1), concat('a', 1), regexp_replace('a', 'a', 'b') FROM orders",
    "SELECT (SELECT max(total_vnd) FROM orders) - (SELECT min(total_vnd) FROM orders)",
    "SELECT bool_and(is_active), array_agg(item_id ORDER BY item_id) FROM menu_items",
    "SELECT count(*) FROM orders o JOIN LATERAL (SELECT sum(qty) q FROM order_items oi "
    "WHERE oi.order_id = o.order_id) x ON true",
    "SELECT * FROM orders ORDER BY opened_at DESC NULLS LAST LIMIT 5 OFFSET 5",
    "SELECT cast(total_vnd as numeric(12, 2)) FROM orders FETCH FIRST 3 ROWS ONLY",
    "SELECT * FROM orders, order_items",  # allowed here: the cost guard stops it
    # qualified columns that resolve (rule 6 must not get in the way of ordinary SQL)
    "SELECT m.name_vi, m.name_en FROM menu_items AS m WHERE m.is_active ORDER BY m.name_vi",
    "SELECT restaurant.orders.status FROM restaurant.orders",
    'SELECT "o"."status" FROM orders "o"',
    "WITH c AS (SELECT customer_id, count(*) FROM orders GROUP BY 1) SELECT c.customer_id, c.count FROM c",
    "WITH d(day, rev) AS (SELECT opened_at::date, sum(total_vnd) FROM orders GROUP BY 1) SELECT d.day, d.rev FROM d",
    "SELECT s.n, s.max FROM (SELECT status AS n, max(total_vnd) FROM orders GROUP BY status) s",
    "SELECT x.q FROM orders o JOIN LATERAL (SELECT sum(qty) AS q FROM order_items oi "
    "WHERE oi.order_id = o.order_id) x ON true",
    "SELECT g.g, h.n FROM generate_series(1, 3) g, generate_series(1, 2) AS h(n)",
    "SELECT u.x, u.i FROM unnest(ARRAY[1, 2]) WITH ORDINALITY AS u(x, i)",
    "SELECT v.column1, w.a FROM (VALUES (1)) v, (VALUES (2)) AS w(a)",
    "SELECT j.status FROM (orders o JOIN payments p USING (order_id)) AS j",
    "SELECT o.order_id FROM orders o WHERE EXISTS (SELECT 1 FROM payments p WHERE p.order_id = o.order_id)",
    "SELECT n.n FROM orders o, LATERAL generate_series(1, o.guest_cnt) AS n(n)",
    # whole-row references: the same business columns as o.*, allowed (functions on them are checked)
    "SELECT o FROM orders o",
    "SELECT to_jsonb(c) FROM customers c",
    'SELECT "user", "current_role" FROM app_users',  # quoted, these are ordinary column names
]
SAFE_SQLITE = [
    "SELECT count(*) FROM singer",
    "SELECT T1.name, T1.version, T1.count FROM apps AS T1",  # SQLite: no attribute notation to guard
    "SELECT name, strftime('%Y', date) FROM concert JOIN stadium USING (stadium_id) GROUP BY 1 ORDER BY 2 LIMIT 3",
    "SELECT ifnull(a, 0), iif(b > 1, 'x', 'y'), substr(c, 1, 2), group_concat(d) FROM t GROUP BY a",
    "SELECT T1.name FROM singer AS T1 WHERE T1.age > (SELECT avg(age) FROM singer)",
]


@pytest.mark.parametrize("sql", POSTGRES_HOSTILE)
def test_hostile_postgres_is_rejected(sql: str) -> None:
    verdict = check_sql(sql)
    assert not verdict.allowed, verdict.sql
    assert verdict.reason and verdict.sql == ""


@pytest.mark.parametrize("sql", SQLITE_HOSTILE)
def test_hostile_sqlite_is_rejected(sql: str) -> None:
    verdict = check_sql(sql, dialect="sqlite")
    assert not verdict.allowed, verdict.sql


def test_corpus_is_large_enough() -> None:
    assert len(POSTGRES_HOSTILE) + len(SQLITE_HOSTILE) >= 300


@pytest.mark.parametrize("sql", SAFE_POSTGRES)
def test_realistic_postgres_queries_pass_and_normalize_stably(sql: str) -> None:
    verdict = check_sql(sql)
    assert verdict.allowed, verdict.reason
    assert not verdict.sql.rstrip().endswith(";")
    again = check_sql(verdict.sql)
    assert again.allowed and again.sql == verdict.sql


@pytest.mark.parametrize("sql", SAFE_SQLITE)
def test_realistic_sqlite_queries_pass(sql: str) -> None:
    verdict = check_sql(sql, dialect="sqlite", allowed_schemas=frozenset())
    assert verdict.allowed, verdict.reason


@pytest.mark.parametrize(
    ("sql", "fragment"),
    [
        ("SELECT 1; DROP TABLE x", "only one statement"),
        ("DROP TABLE orders", "only a read-only query"),
        ("WITH d AS (DELETE FROM orders RETURNING *) SELECT * FROM d", "DELETE"),
        ("SELECT * INTO t FROM orders", "SELECT INTO"),
        ("SELECT * FROM orders FOR UPDATE", "FOR UPDATE"),
        ("SELECT set_config('statement_timeout', '0', false)", "set_config() is not on the allow-list"),
        ("SELECT * FROM pg_authid", "system catalog"),
        ("SELECT * FROM aria_kb.documents", "schema 'aria_kb' is not allowed"),
        ("SELECT * FROM information_schema.tables", "schema 'information_schema' is not allowed"),
        ("SELECT FROM WHERE (", "could not be parsed"),
        ("   ", "empty"),
        ("SELECT 'a\x00'", "NUL"),
    ],
)
def test_reasons_name_the_cause(sql: str, fragment: str) -> None:
    verdict = check_sql(sql)
    assert not verdict.allowed
    assert fragment in verdict.reason


def test_deep_nesting_and_long_input_fail_closed() -> None:
    nested = "SELECT " + "(" * 5000 + "1" + ")" * 5000
    assert not check_sql(nested).allowed
    long_sql = "SELECT 1 AS a" + ", 1" * (MAX_SQL_CHARS // 3)
    verdict = check_sql(long_sql)
    assert not verdict.allowed and "too long" in verdict.reason


def test_allowed_schemas_and_extra_functions_are_honoured() -> None:
    assert not check_sql("SELECT * FROM shop.orders").allowed
    assert check_sql("SELECT * FROM shop.orders", allowed_schemas=frozenset({"shop"})).allowed
    assert not check_sql("SELECT my_fn(1)").allowed
    assert check_sql("SELECT my_fn(1)", allowed_functions_extra=frozenset({"MY_FN"})).allowed


def test_comments_are_stripped_from_the_normalized_sql() -> None:
    verdict = check_sql("SELECT /* */ 1 -- trailing */ DROP\n")
    assert verdict.allowed and verdict.sql == "SELECT 1"


def test_guard_sql_raises_with_the_reason() -> None:
    assert guard_sql("select 1") == "SELECT 1"
    with pytest.raises(GuardRejection, match="only one statement"):
        guard_sql("SELECT 1; SELECT 2")


def test_unknown_dialect_is_rejected() -> None:
    assert not check_sql("SELECT 1", dialect="mysql").allowed


# --- rule 6: column references that PostgreSQL could read as function calls --------------------------
COLUMNS = schema_columns(Schema("restaurant", (
    Table("orders", tuple(Column(n, "text") for n in ("order_id", "status", "total_vnd", "customer_id", "opened_at"))),
    Table("customers", tuple(Column(n, "text") for n in ("customer_id", "full_name", "user_id"))),
    Table("menu_items", tuple(Column(n, "text") for n in ("item_id", "name_vi", "name_en"))),
    Table("app_logs", tuple(Column(n, "text") for n in ("id", "version", "count", "user", "to_jsonb"))),
)))


@pytest.mark.parametrize("function", sorted(ROW_FUNCTIONS))
def test_attribute_notation_of_every_row_function_is_rejected(function: str) -> None:
    for sql in (f"SELECT o.{function} FROM orders o", f'SELECT "o"."{function}" FROM orders AS "o"',
                f"SELECT x.{function} FROM (SELECT * FROM orders) x"):
        assert not check_sql(sql).allowed, sql
        assert not check_sql(sql, columns=COLUMNS).allowed, sql


@pytest.mark.parametrize(
    ("sql", "fragment"),
    [
        ("SELECT o.row_to_json FROM orders o", "PostgreSQL would call the function row_to_json() on the row of o"),
        ("SELECT c.to_jsonb FROM customers c", "to_jsonb()"),
        ("SELECT g.pg_sleep FROM generate_series(1, 9) g", "pg_sleep() on the value of g"),
        ("SELECT t.current_setting FROM unnest(ARRAY['port']) t", "current_setting()"),
        ("SELECT f.x FROM restaurant.business_now() f", "give it a column list"),
        ("SELECT o.status FROM orders", "'o' is not a table or alias"),
        ("SELECT (o).status FROM orders o", "write alias.status"),
        ("SELECT (o.order_id).pg_sleep FROM orders o", "pg_sleep(...)"),
        ("SELECT xmin FROM orders", "system column"),
        ('SELECT o."CTID" FROM orders o', "system column"),
        ("SELECT user", "reveals who is connected"),
        ("SELECT current_role", "reveals who is connected"),
        ("SELECT current_user", "CURRENT_USER reveals details of the database server"),
        ("SELECT version()", "VERSION reveals details"),
        ("SELECT current_setting('server_version')", "current_setting reveals details"),
        ("SELECT * FROM pg_catalog.generate_series(1, 3)", "schema 'pg_catalog' is not allowed"),
        ("SELECT aria.restaurant.orders.status FROM orders", "names a database"),
    ],
)
def test_column_rule_reasons_name_the_cause(sql: str, fragment: str) -> None:
    verdict = check_sql(sql)
    assert not verdict.allowed and fragment in verdict.reason, verdict.reason


def test_with_the_schema_a_qualified_column_must_be_a_real_column() -> None:
    assert check_sql("SELECT o.status, c.user_id FROM orders o JOIN customers c USING (customer_id)",
                     columns=COLUMNS).allowed
    verdict = check_sql("SELECT o.statu FROM orders o", columns=COLUMNS)
    assert not verdict.allowed and "table orders has no column 'statu'" in verdict.reason
    # a real column wins over a function of the same name, in PostgreSQL and in the guard
    assert check_sql("SELECT l.version, l.count, l.to_jsonb, l.user FROM app_logs l", columns=COLUMNS).allowed
    # without the schema, a name that is a row function cannot be told from a column: rejected
    assert not check_sql("SELECT l.to_jsonb FROM app_logs l").allowed
    assert check_sql("SELECT l.version, l.user FROM app_logs l").allowed
    # a table the schema does not know falls back to the function-name check
    assert check_sql("SELECT t.anything FROM other_table t", columns=COLUMNS).allowed
    assert not check_sql("SELECT t.hash_record FROM other_table t", columns=COLUMNS).allowed


def test_cte_and_subquery_columns_resolve_where_they_stand() -> None:
    # the CTE named orders shadows the table: its column is a column
    assert check_sql("WITH orders AS (SELECT 1 AS row_to_json) SELECT orders.row_to_json FROM orders").allowed
    # ...but not inside an earlier CTE (non-recursive WITH): there orders is the table
    assert not check_sql("WITH a AS (SELECT orders.row_to_json FROM orders), orders AS (SELECT 1 AS row_to_json) "
                         "SELECT * FROM a").allowed
    # a derived table does not see its siblings (as in PostgreSQL); a LATERAL one does
    verdict = check_sql("SELECT s.v FROM orders o, (SELECT o.status AS v) s")
    assert not verdict.allowed and "'o' is not a table or alias" in verdict.reason
    assert check_sql("SELECT s.v FROM orders o, LATERAL (SELECT o.status AS v) s").allowed
    # a scalar subquery sees the outer query: g is the scalar function there
    assert not check_sql("SELECT (SELECT g.abs FROM (SELECT 1 AS abs) AS s LIMIT 1) FROM generate_series(1, 2) g").allowed
    # the same alias in two scopes must be valid for both
    assert not check_sql("SELECT x.total_vnd FROM orders x WHERE x.order_id IN "
                         "(SELECT x.row_to_json FROM customers x)").allowed
    # columns of a CTE built with * over a known table
    assert check_sql("WITH x AS (SELECT * FROM orders) SELECT x.status FROM x", columns=COLUMNS).allowed
    assert not check_sql("WITH x AS (SELECT * FROM orders) SELECT x.stat FROM x", columns=COLUMNS).allowed


@pytest.mark.parametrize("name", sorted(SYSTEM_COLUMNS))
def test_system_columns_are_rejected_in_every_spelling(name: str) -> None:
    for sql in (f"SELECT {name} FROM orders", f"SELECT o.{name} FROM orders o", f'SELECT "{name}" FROM orders',
                f"SELECT {name.upper()} FROM ORDERS", f"SELECT order_id FROM orders ORDER BY {name}",
                f"WITH x AS (SELECT {name} AS v FROM orders) SELECT v FROM x"):
        verdict = check_sql(sql, columns=COLUMNS)
        assert not verdict.allowed and "system column" in verdict.reason, sql


def test_schema_qualified_table_functions_follow_the_schema_rule() -> None:
    assert not check_sql("SELECT * FROM pg_catalog.unnest(ARRAY[1])").allowed
    assert not check_sql("SELECT * FROM ROWS FROM (pg_catalog.generate_series(1, 2)) r").allowed
    assert not check_sql("SELECT n FROM orders o, LATERAL pg_catalog.generate_series(1, 2) n").allowed
    assert check_sql("SELECT * FROM restaurant.business_now()").allowed
    assert check_sql("SELECT * FROM shop.top_items() AS t(a)", allowed_schemas=frozenset({"shop"}),
                     allowed_functions_extra=frozenset({"top_items"})).allowed
    assert not check_sql("SELECT * FROM main.json_each('[1]')", dialect="sqlite").allowed


def test_schema_columns_maps_each_table_to_its_column_names() -> None:
    assert COLUMNS["menu_items"] == frozenset({"item_id", "name_vi", "name_en"})
    assert guard_sql("SELECT m.name_vi FROM menu_items m", columns=COLUMNS) == "SELECT m.name_vi FROM menu_items AS m"
    with pytest.raises(GuardRejection, match="has no column 'name'"):
        guard_sql("SELECT m.name FROM menu_items m", columns=COLUMNS)
