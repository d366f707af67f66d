"""Literal extraction and rebinding for verified-query reuse."""

from __future__ import annotations

import datetime as dt

import pytest
import sqlglot

from aria.sql.literals import RebindError, extract_parameters, rebind

SQL = (
    "SELECT m.name_vi, sum(oi.qty) AS portions FROM order_items oi "
    "JOIN orders o ON o.order_id = oi.order_id JOIN tables t ON t.table_id = o.table_id "
    "JOIN menu_items m ON m.item_id = oi.item_id "
    "WHERE t.table_no = 5 AND m.name_vi = 'Lẩu Thái' AND o.status = 'COMPLETED' "
    "AND o.opened_at >= business_now() - interval '1 day' AND o.opened_at::date <> DATE '2026-11-01' "
    "GROUP BY m.name_vi ORDER BY portions DESC LIMIT 5"
)


def by_kind(sql: str) -> dict[str, list]:
    found: dict[str, list] = {}
    for p in extract_parameters(sql):
        found.setdefault(p.kind, []).append(p)
    return found


def test_extracts_kinds_values_and_columns() -> None:
    params = extract_parameters(SQL)
    assert [p.id for p in params] == [f"p{i}" for i in range(1, len(params) + 1)]
    kinds = by_kind(SQL)
    assert [(p.value, p.column) for p in kinds["number"]] == [(5, "tables.table_no")]
    assert [(p.value, p.column) for p in kinds["name"]] == [("Lẩu Thái", "menu_items.name_vi")]
    assert [(p.value, p.column) for p in kinds["code"]] == [("COMPLETED", "orders.status")]
    assert [p.value for p in kinds["interval"]] == ["1 day"]
    assert [p.value for p in kinds["date"]] == [dt.date(2026, 11, 1)]
    assert [p.value for p in kinds["top_n"]] == [5]


def _rebound(values_by_kind: dict[str, object]) -> str:
    kinds = by_kind(SQL)
    return rebind(SQL, {kinds[k][0].id: v for k, v in values_by_kind.items()})


def test_rebind_table_number_and_top_n() -> None:
    out = _rebound({"number": 7, "top_n": 10})
    assert "t.table_no = 7" in out and out.endswith("LIMIT 10")
    assert [p.value for p in by_kind(out)["number"]] == [7]


def test_rebind_name_and_interval() -> None:
    out = _rebound({"name": "Phở bò", "interval": "2 days"})
    assert "m.name_vi = 'Phở bò'" in out
    assert [p.value for p in by_kind(out)["interval"]] == ["2 days"]
    assert [p.value for p in by_kind(out)["name"]] == ["Phở bò"]


def test_rebind_quotes_values_safely() -> None:
    evil = "x'; DROP TABLE orders; --"
    out = _rebound({"name": evil})
    statements = sqlglot.parse(out, read="postgres")
    assert len(statements) == 1
    assert [p.value for p in by_kind(out)["name"]] == [evil]


def test_rebind_refuses_wrong_values() -> None:
    kinds = by_kind(SQL)
    with pytest.raises(RebindError, match="needs a number"):
        rebind(SQL, {kinds["top_n"][0].id: "10; DELETE"})
    with pytest.raises(RebindError, match="no parameter p99"):
        rebind(SQL, {"p99": 1})
    with pytest.raises(RebindError, match="interval"):
        rebind(SQL, {kinds["interval"][0].id: "1 day'; --"})
