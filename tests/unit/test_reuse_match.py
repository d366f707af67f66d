"""Verified-query reuse: templates, re-binding and the refusal to reuse when anything is unexplained."""

from __future__ import annotations

import pytest
import sqlglot
from sqlglot import exp

from aria.reflect.reuse_match import plan_reuse, shift_business_clock, time_phrase

VALUES = {"menu_items.name_vi": ("Lẩu Thái", "Phở bò", "Trà sữa nướng"), "categories.cat_code": ("APP", "DRINK")}


def values_of(column: str) -> tuple[str, ...]:
    return VALUES.get(column, ())


WAIT_SQL = "SELECT max(k.fired_at) FROM kitchen_tickets k JOIN orders o ON o.order_id = k.order_id " \
    "JOIN tables t ON t.table_id = o.table_id WHERE t.table_no = 5"
DISH_SQL = (
    "SELECT sum(oi.qty) FROM order_items oi JOIN menu_items m ON m.item_id = oi.item_id "
    "JOIN orders o ON o.order_id = oi.order_id WHERE m.name_vi = 'Lẩu Thái' "
    "AND o.opened_at::date = (business_now() - interval '1 day')::date"
)
MONTH_CLOSED = (
    "SELECT sum(total_vnd) FROM orders WHERE opened_at >= date_trunc('month', business_now()) "
    "AND opened_at < date_trunc('month', business_now()) + interval '1 month'"
)


def test_table_number_is_rebound() -> None:
    plan = plan_reuse("Bàn số 7 đã đợi món khai vị bao lâu?", "Bàn số 5 đã đợi món khai vị bao lâu?", WAIT_SQL,
                      values_of=values_of)
    assert plan is not None and plan.sql.endswith("t.table_no = 7")


def test_dish_name_is_rebound_from_the_column_values() -> None:
    plan = plan_reuse("Hôm qua bán được bao nhiêu phần Phở bò?", "Hôm qua bán được bao nhiêu phần Lẩu Thái?",
                      DISH_SQL, values_of=values_of)
    assert plan is not None and "'Phở bò'" in plan.sql and "Lẩu Thái" not in plan.sql


def test_unknown_dish_is_not_reused() -> None:
    assert plan_reuse("Hôm qua bán được bao nhiêu phần Bún chả?", "Hôm qua bán được bao nhiêu phần Lẩu Thái?",
                      DISH_SQL, values_of=values_of) is None


def test_this_month_becomes_last_month_by_moving_the_clock() -> None:
    plan = plan_reuse("Doanh thu tháng trước?", "Doanh thu tháng này?", MONTH_CLOSED, values_of=values_of)
    assert plan is not None and plan.shift is not None
    assert plan.sql.count("INTERVAL '1 month'".upper()) >= 2


def test_open_ended_period_is_not_shifted() -> None:
    open_sql = "SELECT sum(total_vnd) FROM orders WHERE opened_at >= date_trunc('month', business_now())"
    assert plan_reuse("Doanh thu tháng trước?", "Doanh thu tháng này?", open_sql, values_of=values_of) is None
    assert shift_business_clock(open_sql, "month", 1) is None


@pytest.mark.parametrize(
    "new",
    [
        "Doanh thu theo món tháng này?",  # a different grouping: extra word unexplained
        "Số món bị hủy tháng này?",  # a different measure
        "Doanh thu tuần trước?",  # another unit of time
    ],
)
def test_different_questions_are_not_reused(new: str) -> None:
    assert plan_reuse(new, "Doanh thu tháng này?", MONTH_CLOSED, values_of=values_of) is None


def test_time_phrases() -> None:
    assert time_phrase("Revenue yesterday?").offset == 1
    assert time_phrase("Doanh thu hôm kia").offset == 2
    assert time_phrase("Doanh thu") is None


def test_a_date_written_in_the_question_is_rebound() -> None:
    sql = "SELECT sum(total_vnd) FROM orders WHERE opened_at::date = DATE '2026-11-01'"
    plan = plan_reuse("doanh thu ngay 5/11/2026 la bao nhieu", "Doanh thu ngày 1/11/2026 là bao nhiêu?", sql,
                      values_of=values_of)
    assert plan is not None and "'2026-11-05'" in plan.sql and "2026-11-01" not in plan.sql


def test_a_month_moves_both_of_its_boundaries() -> None:
    sql = ("SELECT count(*) FROM shifts s WHERE s.shift_date >= DATE '2026-10-01' "
           "AND s.shift_date < DATE '2026-11-01'")
    plan = plan_reuse("Số ca trong tháng 9?", "Số ca trong tháng 10?", sql, values_of=values_of)
    assert plan is not None and "'2026-09-01'" in plan.sql and "'2026-10-01'" in plan.sql


def test_the_best_seller_becomes_the_top_n() -> None:
    sql = "SELECT name_vi FROM menu_items ORDER BY price_vnd DESC LIMIT 1"
    plan = plan_reuse("Top 3 món bán chạy nhất?", "Món bán chạy nhất?", sql, values_of=values_of)
    assert plan is not None and plan.sql.endswith("LIMIT 3")


def test_a_window_of_days_is_rebound_but_not_when_the_number_is_used_elsewhere() -> None:
    window = "SELECT count(*) FROM orders WHERE opened_at >= business_now() - INTERVAL '60 days' LIMIT 10"
    plan = plan_reuse("Top 10 orders over the last 30 days", "Top 10 orders over the last 60 days", window,
                      values_of=values_of)
    assert plan is not None and "'30 DAYS'" in plan.sql.upper()
    per_day = "SELECT count(*) / 30.0 FROM orders WHERE opened_at >= business_now() - INTERVAL '30 days'"
    assert plan_reuse("Orders per day over the last 14 days", "Orders per day over the last 30 days", per_day,
                      values_of=values_of) is None


def test_one_value_of_an_in_list_is_not_rebound() -> None:
    sql = "SELECT count(*) FROM menu_items m WHERE m.name_vi IN ('Lẩu Thái', 'Phở bò')"
    assert plan_reuse("Đã bán bao nhiêu Trà sữa nướng?", "Đã bán bao nhiêu Lẩu Thái?", sql,
                      values_of=values_of) is None


def test_a_code_is_rebound_through_its_label() -> None:
    sql = ("SELECT m.name_vi FROM menu_items m JOIN categories c ON c.category_id = m.category_id "
           "WHERE c.cat_code = 'HOTPOT'")
    labels = {"categories.cat_code": {"Lẩu": "HOTPOT", "Cơm": "RICE", "Hotpots": "HOTPOT"}}
    plan = plan_reuse("mỗi món cơm bán được bao nhiêu?", "Mỗi món lẩu bán được bao nhiêu?", sql,
                      values_of=lambda c: tuple(labels.get(c, {}).values()), aliases_of=lambda c: labels.get(c, {}))
    assert plan is not None and "'RICE'" in plan.sql
    assert plan_reuse("Mỗi món lẩu thái bán được bao nhiêu?", "Mỗi món lẩu bán được bao nhiêu?", sql,
                      values_of=lambda c: (), aliases_of=lambda c: labels.get(c, {})) is None


def test_a_hostile_value_from_the_data_is_quoted_as_one_literal() -> None:
    hostile = "Bánh'; DROP TABLE orders; --"
    plan = plan_reuse(f"Hôm qua bán được bao nhiêu phần {hostile}?", "Hôm qua bán được bao nhiêu phần Lẩu Thái?",
                      DISH_SQL, values_of=lambda c: (*VALUES.get(c, ()), hostile))
    assert plan is not None
    statements = sqlglot.parse(plan.sql, read="postgres")
    assert len(statements) == 1 and isinstance(statements[0], exp.Select)
    assert hostile in [lit.this for lit in statements[0].find_all(exp.Literal) if lit.is_string]


def test_a_hostile_value_not_in_the_data_is_not_matched() -> None:
    assert plan_reuse("Hôm qua bán được bao nhiêu phần x'; DROP TABLE orders; --?",
                      "Hôm qua bán được bao nhiêu phần Lẩu Thái?", DISH_SQL, values_of=values_of) is None


def test_the_clock_moves_only_in_period_bounds() -> None:
    sql = ("SELECT sum(coalesce(ss.clock_out, business_now()) - ss.clock_in) FROM staff_shifts ss "
           "JOIN shifts s ON s.shift_id = ss.shift_id WHERE s.shift_date >= date_trunc('week', business_now()) "
           "- INTERVAL '7 days' AND s.shift_date < date_trunc('week', business_now())")
    plan = plan_reuse("Hours worked this week?", "Hours worked last week?", sql, values_of=values_of)
    assert plan is not None and "COALESCE(ss.clock_out, BUSINESS_NOW())" in plan.sql
    assert plan.into_current == (("shifts", "shift_date"),)  # the caller checks for rows after now


def test_today_to_tomorrow_and_typing_without_diacritics() -> None:
    sql = "SELECT count(*) FROM reservations WHERE reserved_for::date = business_now()::date"
    plan = plan_reuse("ngay mai co bao nhieu luot dat ban", "Hôm nay có bao nhiêu lượt đặt bàn?", sql,
                      values_of=values_of)
    assert plan is not None and "+ INTERVAL '1 DAY'" in plan.sql and plan.into_current == ()


@pytest.mark.parametrize(
    ("new", "old"),
    [
        ("Hôm qua có bao nhiêu đơn hàng?", "Hôm qua có bao nhiêu đơn hàng bị hủy?"),  # a condition dropped
        ("Món bán chậm nhất?", "Món bán chạy nhất?"),  # the opposite order
        ("Which 5 dishes had the shortest wait last week?", "Which 5 dishes had the longest wait last week?"),
        ("Hôm qua bán được bao nhiêu phần Lẩu Thái mang đi?", "Hôm qua bán được bao nhiêu phần Lẩu Thái?"),
        ("Món nào không bán được tuần trước?", "Món nào bán được tuần trước?"),  # a negation
    ],
)
def test_near_misses_are_not_reused(new: str, old: str) -> None:
    assert plan_reuse(new, old, DISH_SQL, values_of=values_of) is None
