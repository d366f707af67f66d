"""The deterministic SQL checks on a small hand-built schema (pure: no database)."""

from __future__ import annotations

import pytest

from aria.sql.checks import cap_scores, check_sql
from aria.sql.schema import Column, ForeignKey, Schema, Table

SCHEMA = Schema(
    name="mini",
    tables=(
        Table("tables", (Column("table_id", "smallint", False, True), Column("table_no", "smallint", False))),
        Table("orders", (
            Column("order_id", "bigint", False, True), Column("table_id", "smallint"),
            Column("customer_id", "integer"), Column("status", "varchar(12)", False),
            Column("opened_at", "timestamp with time zone", False), Column("total_vnd", "integer", False),
            Column("guest_cnt", "smallint", False),
        )),
        Table("order_items", (
            Column("order_item_id", "bigint", False, True), Column("order_id", "bigint", False),
            Column("qty", "smallint", False), Column("line_total_vnd", "integer", False),
        )),
    ),
    foreign_keys=(
        ForeignKey("orders", ("table_id",), "tables", ("table_id",)),
        ForeignKey("order_items", ("order_id",), "orders", ("order_id",)),
    ),
)


def checks(sql: str, severity: str = "hard", dialect: str = "postgres") -> set[str]:
    return {f.check for f in check_sql(sql, SCHEMA, dialect=dialect) if f.severity == severity}


@pytest.mark.parametrize("sql", [
    "SELECT t.table_no, sum(o.total_vnd) AS revenue FROM orders o JOIN tables t ON t.table_id = o.table_id "
    "WHERE o.status = 'COMPLETED' GROUP BY t.table_no ORDER BY revenue DESC LIMIT 5",
    "WITH x AS (SELECT order_id, sum(qty) AS n FROM order_items GROUP BY order_id) SELECT o.order_id, x.n "
    "FROM orders o JOIN x ON x.order_id = o.order_id",
    "SELECT round(100.0 * count(*) FILTER (WHERE status = 'VOID') / nullif(count(*), 0), 1) AS void_pct FROM orders",
    "SELECT o.order_id FROM orders o WHERE EXISTS (SELECT 1 FROM order_items oi WHERE oi.order_id = o.order_id)",
])
def test_correct_sql_has_no_hard_findings(sql: str) -> None:
    assert checks(sql) == set()


def test_parse_error_is_one_hard_finding() -> None:
    findings = check_sql("SELEC FROM WHERE (", SCHEMA)
    assert [(f.check, f.severity) for f in findings] == [("parse_error", "hard")]


def test_unknown_column_suggests_the_close_name() -> None:
    (finding,) = [f for f in check_sql("SELECT sum(o.total) FROM orders o", SCHEMA) if f.severity == "hard"]
    assert finding.check == "column_exists" and "total_vnd" in finding.message and finding.dimension == "column"


def test_ambiguous_unqualified_column() -> None:
    assert "ambiguous_column" in checks("SELECT order_id FROM orders o JOIN order_items oi ON oi.order_id = o.order_id")


def test_join_errors() -> None:
    assert "join_wrong_key" in checks("SELECT count(*) FROM orders o JOIN tables t ON o.table_id = t.table_no")
    assert "cartesian_product" in checks("SELECT count(*) FROM orders o CROSS JOIN tables t")
    assert "join_fan_out" in checks("SELECT sum(o.total_vnd) FROM orders o JOIN order_items oi ON oi.order_id = o.order_id")
    assert "join_fan_out" not in checks(
        "SELECT sum(DISTINCT o.total_vnd) FROM orders o JOIN order_items oi ON oi.order_id = o.order_id")


def test_grouping_errors_and_functional_dependency() -> None:
    assert "ungrouped_column" in checks("SELECT status, guest_cnt, count(*) FROM orders GROUP BY status")
    assert checks("SELECT order_id, status, count(*) FROM orders GROUP BY order_id") == set()
    assert "aggregate_in_where" in checks("SELECT status FROM orders WHERE count(*) > 1 GROUP BY status")


def test_sqlite_bare_column_with_max_is_only_a_warning() -> None:
    sql = "SELECT status, max(total_vnd) FROM orders"
    assert "ungrouped_column" not in checks(sql, dialect="sqlite")
    assert "ungrouped_column" in checks(sql, "warning", dialect="sqlite")
    assert "ungrouped_column" in checks(sql)  # PostgreSQL refuses it


def test_integer_division_and_its_fixes() -> None:
    assert "integer_division" in checks("SELECT sum(qty) / count(*) FROM order_items")
    assert "integer_division" not in checks("SELECT sum(qty)::numeric / count(*) FROM order_items")
    assert "integer_division" not in checks("SELECT 1.0 * sum(qty) / count(*) FROM order_items")
    assert "integer_division" in checks("SELECT sum(qty) / 7 FROM order_items", "warning")


def test_double_quoted_words_are_strings_in_sqlite() -> None:
    assert checks('SELECT count(*) FROM orders WHERE status = "COMPLETED"', dialect="sqlite") == set()


def test_cap_scores() -> None:
    findings = check_sql("SELECT status, guest_cnt, count(*) FROM orders GROUP BY status", SCHEMA)
    caps = cap_scores(findings)
    assert caps["granularity"] == 2.0 and caps["join"] == 10.0 and set(caps) == {"column", "granularity", "join", "logic"}
