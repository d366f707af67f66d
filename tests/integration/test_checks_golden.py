"""The deterministic checks on the SmartRestaurant schema: no hard finding on any golden SQL, and
each check catches the error class it exists for."""

from __future__ import annotations

import importlib.util
import uuid
from collections.abc import Iterator

import psycopg
import pytest

from aria.config import Settings
from aria.db.connect import Targets
from aria.db.introspect import introspect_postgres
from aria.sql.checks import check_sql
from aria.sql.schema import Schema
from tests.conftest import REPO

QUESTIONS = REPO / "seed_db" / "questions"


@pytest.fixture(scope="module")
def smart_schema(request: pytest.FixtureRequest, settings: Settings, targets: Targets) -> Iterator[Schema]:
    """The seeded database's schema; before the seeder exists, the same DDL in a private schema."""
    if importlib.util.find_spec("aria.db.seed") is not None:
        seeded: Targets = request.getfixturevalue("seeded")
        yield introspect_postgres(seeded.admin, settings.business_schema)
        return
    name = f"sr_{uuid.uuid4().hex[:8]}"
    ddl = (REPO / "seed_db" / "schema.sql").read_text().replace("restaurant", name)
    with psycopg.connect(targets.admin, autocommit=True) as conn:
        conn.execute(ddl)
    try:
        yield introspect_postgres(targets.admin, name)
    finally:
        with psycopg.connect(targets.admin, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{name}" CASCADE')


@pytest.mark.parametrize("split", ["examples", "eval"])
def test_golden_sql_has_no_hard_findings(split: str, smart_schema: Schema) -> None:
    if not (QUESTIONS / f"{split}.yaml").exists():
        pytest.skip(f"seed_db/questions/{split}.yaml is not written yet")
    from aria.db.golden import load_golden

    questions = load_golden(split)  # type: ignore[arg-type]
    assert questions
    problems = {
        q.id: [f.message for f in check_sql(q.sql, smart_schema) if f.severity == "hard"] for q in questions
    }
    assert {k: v for k, v in problems.items() if v} == {}


def _checks(sql: str, schema: Schema, severity: str = "hard") -> set[str]:
    return {f.check for f in check_sql(sql, schema) if f.severity == severity}


def test_unknown_column_with_suggestion(smart_schema: Schema) -> None:
    findings = check_sql("SELECT sum(o.totl_vnd) FROM orders o", smart_schema)
    assert [f.check for f in findings if f.severity == "hard"] == ["column_exists"]
    assert "total_vnd" in findings[0].message
    assert _checks("SELECT count(*) FROM order_lines", smart_schema) == {"table_exists"}


def test_aliases_ctes_and_output_aliases_resolve(smart_schema: Schema) -> None:
    sql = """
        WITH daily AS (SELECT opened_at::date AS day, sum(total_vnd) AS revenue FROM orders GROUP BY 1)
        SELECT d.day, d.revenue, r.cnt
        FROM daily d
        JOIN (SELECT reserved_for::date AS day, count(*) AS cnt FROM reservations GROUP BY 1) r ON r.day = d.day
        ORDER BY revenue DESC"""
    assert _checks(sql, smart_schema) == set()


def test_type_mismatch_is_a_warning(smart_schema: Schema) -> None:
    assert "type_mismatch" in _checks("SELECT count(*) FROM orders WHERE opened_at > 5", smart_schema, "warning")


def test_wrong_join_keys_are_hard(smart_schema: Schema) -> None:
    wrong_table = "SELECT t.table_no, count(*) FROM orders o JOIN tables t ON o.table_id = t.table_no GROUP BY t.table_no"
    assert "join_wrong_key" in _checks(wrong_table, smart_schema)
    wrong_column = "SELECT count(*) FROM order_items oi JOIN orders o ON oi.order_id = o.customer_id"
    assert "join_wrong_key" in _checks(wrong_column, smart_schema)
    right = "SELECT t.table_no, count(*) FROM orders o JOIN tables t ON o.table_id = t.table_id GROUP BY t.table_no"
    assert _checks(right, smart_schema) == set()


def test_cartesian_product_is_hard(smart_schema: Schema) -> None:
    sql = "SELECT m.name_vi, sum(oi.qty) FROM order_items oi, menu_items m GROUP BY m.name_vi"
    assert "cartesian_product" in _checks(sql, smart_schema)
    joined = "SELECT m.name_vi, sum(oi.qty) FROM order_items oi, menu_items m WHERE m.item_id = oi.item_id GROUP BY m.name_vi"
    assert _checks(joined, smart_schema) == set()


def test_fan_out_sum_is_hard(smart_schema: Schema) -> None:
    sql = "SELECT sum(o.total_vnd) FROM orders o JOIN order_items oi ON oi.order_id = o.order_id WHERE oi.item_id = 3"
    assert "join_fan_out" in _checks(sql, smart_schema)
    many_to_one = "SELECT sum(oi.line_total_vnd) FROM order_items oi JOIN orders o ON oi.order_id = o.order_id"
    assert _checks(many_to_one, smart_schema) == set()


def test_grouping_errors(smart_schema: Schema) -> None:
    assert "ungrouped_column" in _checks("SELECT status, order_type, count(*) FROM orders GROUP BY status", smart_schema)
    assert "aggregate_in_where" in _checks("SELECT order_id FROM orders WHERE sum(total_vnd) > 10", smart_schema)
    having = "SELECT status, count(*) FROM orders GROUP BY status HAVING status <> 'VOID'"
    assert "having_without_aggregate" in _checks(having, smart_schema, "warning")
    by_key = "SELECT m.item_id, m.name_vi, sum(oi.qty) FROM order_items oi JOIN menu_items m ON m.item_id = oi.item_id GROUP BY m.item_id"
    assert _checks(by_key, smart_schema) == set()


def test_integer_division_of_counts_is_hard(smart_schema: Schema) -> None:
    """The paper's Table 4 case: a share computed from two integer counts truncates to 0."""
    sql = "SELECT count(*) FILTER (WHERE status = 'CANCELLED') / count(*) AS cancel_rate FROM orders"
    assert "integer_division" in _checks(sql, smart_schema)
    fixed = "SELECT count(*) FILTER (WHERE status = 'CANCELLED')::numeric / count(*) AS cancel_rate FROM orders"
    assert "integer_division" not in _checks(fixed, smart_schema, "hard") | _checks(fixed, smart_schema, "warning")


def test_logic_warnings(smart_schema: Schema) -> None:
    div = "SELECT sum(total_vnd) / guest_cnt FROM orders GROUP BY guest_cnt"
    assert "division_by_zero" in _checks(div, smart_schema, "warning")
    guarded = "SELECT sum(total_vnd) / nullif(guest_cnt, 0) FROM orders GROUP BY guest_cnt"
    assert "division_by_zero" not in _checks(guarded, smart_schema, "warning")
    not_in = "SELECT count(*) FROM tables WHERE table_id NOT IN (SELECT table_id FROM orders)"
    assert "not_in_nullable" in _checks(not_in, smart_schema, "warning")
    assert "equals_null" in _checks("SELECT count(*) FROM orders WHERE closed_at = NULL", smart_schema, "warning")
    assert "limit_without_order" in _checks("SELECT order_id FROM orders LIMIT 5", smart_schema, "info")
