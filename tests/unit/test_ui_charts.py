"""The chart rules: which chart a result's shape gets, and when a chart would mislead."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

import pandas as pd
import pytest

from aria.ui.charts import ChartSpec, choose_chart, render_chart
from aria.ui.frames import is_measure, is_time, result_frame, unit_of


def frame(columns: list[str], rows: list[list[object]]) -> pd.DataFrame:
    return result_frame(columns, rows)


def test_time_series_is_a_line() -> None:
    df = frame(["ngay", "doanh_thu_vnd"], [[date(2026, 11, d), Decimal(1_000_000 * d)] for d in range(1, 8)])
    spec = choose_chart(df)
    assert (spec.kind, spec.x, spec.y) == ("line", "ngay", ("doanh_thu_vnd",))


def test_timestamps_with_zone_are_a_line() -> None:
    tz = ZoneInfo("Asia/Ho_Chi_Minh")
    df = frame(["hour_start", "orders"], [[datetime(2026, 11, 15, h, tzinfo=tz), h * 3] for h in range(10, 20)])
    assert choose_chart(df).kind == "line"
    assert str(df["hour_start"].dtype).startswith("datetime64")


def test_date_strings_named_like_dates_are_time() -> None:
    df = pd.DataFrame({"thang": ["2026-09", "2026-10", "2026-11"], "doanh_thu": [1.0, 2.0, 3.0]})
    assert is_time(df, "thang")
    assert choose_chart(df).kind == "line"


def test_integer_hour_is_an_ordinal_time_axis() -> None:
    df = pd.DataFrame({"hour": list(range(10, 22)), "so_don": list(range(12))})
    spec = choose_chart(df)
    assert (spec.kind, spec.x) == ("line", "hour")


def test_time_with_a_category_colours_the_lines() -> None:
    rows = [[date(2026, 11, d), area, d * 10] for d in range(1, 5) for area in ("IN", "OU", "VP")]
    spec = choose_chart(frame(["ngay", "area_code", "so_don"], rows))
    assert (spec.kind, spec.color) == ("line", "area_code")


def test_time_with_too_many_series_is_none() -> None:
    rows = [[date(2026, 11, d), f"item {i}", d] for d in range(1, 4) for i in range(12)]
    spec = choose_chart(frame(["ngay", "mon", "so_luong"], rows))
    assert spec.kind == "none"
    assert "series" in spec.reason


def test_category_and_measure_is_a_bar() -> None:
    df = frame(["ten_mon", "so_luong"], [["Phở bò", 120], ["Bún chả", 80], ["Gỏi cuốn", 45]])
    spec = choose_chart(df)
    assert (spec.kind, spec.x, spec.y) == ("bar", "ten_mon", ("so_luong",))


def test_identifier_columns_are_categories_not_measures() -> None:
    df = pd.DataFrame({"table_no": [1, 2, 3], "revenue_vnd": [5e6, 3e6, 1e6]})
    assert not is_measure(df, "table_no")
    spec = choose_chart(df)
    assert (spec.kind, spec.x, spec.y) == ("bar", "table_no", ("revenue_vnd",))


def test_too_many_categories_is_none() -> None:
    df = pd.DataFrame({"customer": [f"c{i}" for i in range(40)], "spend_vnd": range(40)})
    spec = choose_chart(df)
    assert spec.kind == "none"
    assert "40 categories" in spec.reason


def test_mixed_units_by_category_chart_the_first_measure_only() -> None:
    df = pd.DataFrame({"area": ["IN", "OU"], "revenue_vnd": [5e6, 2e6], "order_count": [40, 12]})
    spec = choose_chart(df)
    assert (spec.kind, spec.x, spec.y) == ("bar", "area", ("revenue_vnd",))
    assert "different units" in spec.reason and spec.title == "revenue (VND) by area"


def test_same_unit_measures_by_category_are_grouped_bars() -> None:
    df = pd.DataFrame({"area": ["IN", "OU"], "revenue_vnd": [5e6, 2e6], "cost_vnd": [2e6, 1e6]})
    spec = choose_chart(df)
    assert (spec.kind, spec.y) == ("bar", ("revenue_vnd", "cost_vnd"))


def test_percent_column_summing_to_100_is_a_pie() -> None:
    df = pd.DataFrame({"payment_method": ["CASH", "CARD", "MOMO"], "ty_le_pct": [50.0, 30.0, 20.0]})
    spec = choose_chart(df)
    assert (spec.kind, spec.x, spec.y) == ("pie", "payment_method", ("ty_le_pct",))


def test_ratio_column_summing_to_one_is_a_pie() -> None:
    df = pd.DataFrame({"area": ["IN", "OU"], "share": [0.7, 0.3]})
    assert choose_chart(df).kind == "pie"


def test_percent_column_not_summing_to_100_is_a_bar() -> None:
    df = pd.DataFrame({"station": ["GRL", "WOK", "BAR"], "late_pct": [12.0, 8.0, 3.0]})
    assert choose_chart(df).kind == "bar"


def test_share_question_with_many_parts_is_a_treemap() -> None:
    df = pd.DataFrame({"category": [f"cat {i}" for i in range(9)], "revenue_vnd": [float(i + 1) for i in range(9)]})
    spec = choose_chart(df, question="Tỷ trọng doanh thu theo nhóm món?")
    assert spec.kind == "treemap"
    assert choose_chart(df, question="Doanh thu theo nhóm món?").kind == "bar"


def test_share_question_with_few_parts_is_a_pie() -> None:
    df = pd.DataFrame({"area": ["IN", "OU", "VP"], "revenue_vnd": [5e6, 3e6, 2e6]})
    assert choose_chart(df, question="What share of revenue does each area bring?").kind == "pie"


def test_one_value_is_a_metric() -> None:
    spec = choose_chart(frame(["doanh_thu_vnd"], [[Decimal("15250000")]]))
    assert (spec.kind, spec.y) == ("metric", ("doanh_thu_vnd",))


def test_one_labelled_value_is_a_metric() -> None:
    assert choose_chart(pd.DataFrame({"mon": ["Phở"], "so_luong": [42]})).kind == "metric"


def test_single_row_of_many_columns_is_none() -> None:
    df = pd.DataFrame({"orders": [40], "guests": [95], "revenue_vnd": [1e7], "avg_check_vnd": [2.5e5]})
    spec = choose_chart(df)
    assert spec.kind == "none"
    assert "one row" in spec.reason


def test_two_measures_are_a_scatter() -> None:
    df = pd.DataFrame({"prep_time_m": [5.0, 8.0, 12.0, 15.0], "price_vnd": [45e3, 65e3, 120e3, 180e3]})
    spec = choose_chart(df)
    assert (spec.kind, spec.x, spec.y) == ("scatter", "prep_time_m", ("price_vnd",))


def test_no_numbers_and_no_rows_are_none() -> None:
    assert choose_chart(pd.DataFrame({"name": ["a", "b"]})).kind == "none"
    assert choose_chart(pd.DataFrame({"x": []})).kind == "none"
    assert choose_chart(pd.DataFrame()).kind == "none"


def test_booleans_are_not_measures() -> None:
    df = pd.DataFrame({"is_active": [True, False], "so_luong": [3, 4]})
    assert not is_measure(df, "is_active")
    assert choose_chart(df).kind == "bar"


@pytest.mark.parametrize(
    ("name", "unit"),
    [("doanh_thu", "vnd"), ("total_vnd", "vnd"), ("revenue", "vnd"), ("ty_le_pct", "percent"),
     ("prep_time_m", "minutes"), ("so_luong", "count"), ("avg_rating", "number")],
)
def test_units_from_names(name: str, unit: str) -> None:
    assert unit_of(name) == unit


@pytest.mark.parametrize(
    ("df", "kind", "trace_type"),
    [
        (pd.DataFrame({"ngay": pd.to_datetime(["2026-11-01", "2026-11-02"]), "so_don": [3, 4]}), "line", "scatter"),
        (pd.DataFrame({"mon": ["a", "b"], "so_don": [3, 4]}), "bar", "bar"),
        (pd.DataFrame({"mon": ["a", "b"], "ty_le_pct": [40.0, 60.0]}), "pie", "pie"),
        (pd.DataFrame({"a_vnd": [1.0, 2.0, 3.0], "b_m": [3.0, 1.0, 2.0]}), "scatter", "scatter"),
    ],
)
def test_render_builds_the_figure_the_spec_names(df: pd.DataFrame, kind: str, trace_type: str) -> None:
    spec = choose_chart(df)
    assert spec.kind == kind
    fig = render_chart(spec, df)
    assert fig is not None
    assert fig.data[0].type == trace_type
    assert fig.layout.title.text == spec.title


def test_render_treemap_and_none() -> None:
    df = pd.DataFrame({"mon": [f"m{i}" for i in range(8)], "so_luong": list(range(1, 9))})
    spec = ChartSpec(kind="treemap", x="mon", y=("so_luong",))
    assert render_chart(spec, df).data[0].type == "treemap"
    assert render_chart(ChartSpec(kind="none"), df) is None


def test_render_refuses_a_spec_naming_missing_columns() -> None:
    with pytest.raises(ValueError, match="does not have"):
        render_chart(ChartSpec(kind="bar", x="mon", y=("missing",)), pd.DataFrame({"mon": ["a"]}))


def test_titles_speak_the_question_language() -> None:
    df = frame(["mon", "so_luong"], [["Phở", 120], ["Bún chả", 80]])
    assert choose_chart(df, "Món nào bán chạy nhất tuần này?").title == "so luong theo mon"
    assert choose_chart(df, "Which dishes sold best this week?").title == "so luong by mon"
    shares = frame(["nhom", "ty_le_pct"], [["Món chính", 60.0], ["Đồ uống", 40.0]])
    assert choose_chart(shares, "Tỷ trọng doanh thu theo nhóm món?").title == "Tỷ trọng ty le pct theo nhom"
