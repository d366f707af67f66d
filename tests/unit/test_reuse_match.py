"""Verified-query reuse: templates, re-binding and the refusal to reuse when anything is unexplained."""

from __future__ import annotations

import pytest

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
