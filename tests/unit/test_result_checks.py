"""Deterministic checks of query results."""

from __future__ import annotations

from decimal import Decimal

from aria.sql.result_checks import check_result


def checks(columns: list[str], rows: list[list], sql: str | None = None) -> set[str]:
    return {f.check for f in check_result(columns, rows, sql=sql)}


def test_plausible_result_has_no_findings() -> None:
    rows = [["Phở bò", 120, Decimal("8500000"), Decimal("12.5")], ["Lẩu Thái", 80, Decimal("9600000"), Decimal("8.3")]]
    assert checks(["dish", "portions", "sales_vnd", "share_pct"], rows) == set()


def test_empty_result() -> None:
    (finding,) = check_result(["revenue_vnd"], [])
    assert finding.check == "empty_result" and finding.dimension == "data"


def test_degenerate_measures() -> None:
    assert "all_zero_measure" in checks(["area", "cancel_rate"], [["IN", 0], ["OU", 0]])
    assert "all_null_measure" in checks(["area", "avg_wait_min"], [["IN", None], ["OU", None]])


def test_null_in_ratio_column_found_from_the_sql() -> None:
    sql = "SELECT area_code, sum(a) / nullif(sum(b), 0) AS avg_spend FROM t GROUP BY 1"
    assert "null_ratio" in checks(["area_code", "avg_spend"], [["IN", 5.0], ["OU", None]], sql)


def test_implausible_values() -> None:
    assert "negative_money" in checks(["revenue_vnd"], [[-5000]])
    assert "fractional_vnd" in checks(["avg_bill_vnd"], [[152333.3333]])
    assert "implausible_percentage" in checks(["ty_le"], [[250.0]])
    assert "implausible_minutes" in checks(["avg_prep_min"], [[3600.0]])


def test_shape_problems() -> None:
    assert "duplicate_rows" in checks(["dish"], [["Phở"], ["Phở"], ["Lẩu"]])
    assert "duplicate_column" in checks(["name", "NAME"], [["a", "b"]])
