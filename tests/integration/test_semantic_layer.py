"""The semantic layer on the real seeded database: questions of our own (not eval.yaml) parsed,
compiled by MetricFlow, run read-only and checked against hand-written SQL; refusals; the engine
stage with no model; a broken semantic model."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path
from typing import Any

import pytest

from aria.config import Settings
from aria.db.connect import Targets
from aria.db.executor import ReadOnlyExecutor
from aria.eval.metric import row_set
from aria.eval.semantic_bench import same_answer
from aria.reflect.deps import business_now
from aria.reflect.semantic_stage import values_reader
from aria.semantic.catalog import SemanticModelError, semantic_dir
from aria.semantic.compile import CHANGE_AMOUNT_COLUMN, CHANGE_COLUMN, where_filter
from aria.semantic.layer import SemanticLayer, load_semantic_layer
from aria.semantic.query import ValueFilter
from aria.semantic.suggest import nearby_questions, starter_questions


@pytest.fixture(scope="module")
def executor(seeded: Targets, settings: Settings):
    ex = ReadOnlyExecutor(seeded.reader, settings)
    yield ex
    ex.close()


@pytest.fixture(scope="module")
def layer(executor: ReadOnlyExecutor, settings: Settings) -> SemanticLayer:
    return load_semantic_layer(business_schema=settings.business_schema, semantic_schema=settings.semantic_schema,
                               values_of=values_reader(executor))


@pytest.fixture(scope="module")
def now(executor: ReadOnlyExecutor, settings: Settings) -> dt.datetime:
    return business_now(executor, settings.timezone)


def _answer(layer: SemanticLayer, executor: ReadOnlyExecutor, question: str, language: str, now: dt.datetime):
    parsed = layer.parse(question, language=language, now=now)
    assert parsed.ok, (parsed.problem, parsed.unknown, parsed.recognised)
    assert parsed.query is not None
    return parsed.query, executor.run(layer.compile(parsed.query).sql)


LAST_WEEK = ("opened_at >= date_trunc('week', business_now()) - interval '7 days' "
             "AND opened_at < date_trunc('week', business_now())")
CASES = [
    ("Tổng doanh thu tuần trước là bao nhiêu?", "vi",
     f"SELECT sum(total_vnd), count(*) FROM orders WHERE status = 'COMPLETED' AND {LAST_WEEK}"),
    ("How many completed orders did we have yesterday?", "en",  # orders with their revenue (as ex-013's dishes)
     "SELECT count(*), sum(total_vnd) FROM orders WHERE status = 'COMPLETED' "
     "AND opened_at::date = (business_now() - interval '1 day')::date"),
    ("Danh mục nào có doanh thu thấp nhất tháng này?", "vi",
     "SELECT c.name_vi, sum(oi.line_total_vnd), sum(oi.qty) FROM order_items oi JOIN orders o USING (order_id) "
     "JOIN menu_items m USING (item_id) JOIN categories c ON c.category_id = m.category_id "
     "WHERE o.status = 'COMPLETED' AND oi.line_status NOT IN ('VD', 'CXL') "
     "AND o.opened_at >= date_trunc('month', business_now()) GROUP BY c.category_id, c.name_vi "
     "ORDER BY 2 LIMIT 1"),
    ("Doanh thu ca tối hôm qua là bao nhiêu?", "vi",
     "SELECT sum(o.total_vnd), count(*) FROM orders o JOIN shifts s ON s.shift_id = o.shift_id "
     "WHERE o.status = 'COMPLETED' AND s.shift_code = 'D' "
     "AND o.opened_at::date = (business_now() - interval '1 day')::date"),
    ("Daily revenue for the last 3 days", "en",  # split by day: whole days
     "SELECT opened_at::date, sum(total_vnd), count(*) FROM orders WHERE status = 'COMPLETED' "
     "AND opened_at::date >= business_now()::date - 2 GROUP BY 1"),
    ("Doanh thu 3 ngày qua?", "vi",  # a total: the rolling window, to the second
     "SELECT sum(total_vnd), count(*) FROM orders WHERE status = 'COMPLETED' "
     "AND opened_at >= business_now() - interval '3 days'"),
    ("Compare revenue so far this week with the same days of last week.", "en",  # ex-044
     "SELECT coalesce(sum(total_vnd) FILTER (WHERE opened_at >= date_trunc('week', business_now())), 0), "
     "coalesce(sum(total_vnd) FILTER (WHERE opened_at < date_trunc('week', business_now())), 0) "
     "FROM orders WHERE status = 'COMPLETED' AND (opened_at >= date_trunc('week', business_now()) "
     "OR (opened_at >= date_trunc('week', business_now()) - interval '7 days' "
     "AND opened_at < business_now() - interval '7 days'))"),
    ("Doanh thu tháng 10 so với tháng 9", "vi",
     "SELECT sum(total_vnd) FILTER (WHERE opened_at >= DATE '2026-10-01'), "
     "sum(total_vnd) FILTER (WHERE opened_at < DATE '2026-10-01') FROM orders WHERE status = 'COMPLETED' "
     "AND opened_at >= DATE '2026-09-01' AND opened_at < DATE '2026-11-01'"),
    ("Doanh thu từ 1/11 đến 5/11", "vi",
     "SELECT sum(total_vnd), count(*) FROM orders WHERE status = 'COMPLETED' "
     "AND opened_at >= DATE '2026-11-01' AND opened_at < DATE '2026-11-06'"),
    ("Voided items by dish this week", "en",  # only the dishes that had a voided line, with their portions
     "SELECT m.name_en, count(*), sum(oi.qty), sum(oi.line_total_vnd) FROM order_items oi "
     "JOIN menu_items m USING (item_id) "
     "WHERE oi.line_status = 'VD' AND oi.added_at >= date_trunc('week', business_now()) "
     "GROUP BY oi.item_id, m.name_en"),
    ("Reservations by weekday last month", "en",  # the ISO weekday and its name (ex-046)
     "SELECT extract(isodow FROM reserved_for)::int, to_char(reserved_for, 'Dy'), count(*), sum(party_size) "
     "FROM reservations WHERE status <> 'CANCELLED' "
     "AND reserved_for >= date_trunc('month', business_now()) - interval '1 month' "
     "AND reserved_for < date_trunc('month', business_now()) GROUP BY 1, 2"),
    ("Tỷ trọng doanh thu theo danh mục tháng trước?", "vi",  # a share of the total, biggest first
     "SELECT c.name_vi, sum(oi.line_total_vnd), sum(oi.qty), "
     "round(100.0 * sum(oi.line_total_vnd) / sum(sum(oi.line_total_vnd)) OVER (), 1) "
     "FROM order_items oi JOIN orders o USING (order_id) JOIN menu_items m USING (item_id) "
     "JOIN categories c ON c.category_id = m.category_id WHERE o.status = 'COMPLETED' "
     "AND oi.line_status NOT IN ('VD', 'CXL') AND o.opened_at >= date_trunc('month', business_now()) - interval "
     "'1 month' AND o.opened_at < date_trunc('month', business_now()) GROUP BY c.category_id, c.name_vi"),
    ("Which 5 dishes sold the least last month?", "en",  # the bottom counts the active dishes that sold nothing
     "WITH sold AS (SELECT oi.item_id, sum(oi.qty) AS portions FROM order_items oi JOIN orders o USING (order_id) "
     "WHERE o.status = 'COMPLETED' AND oi.line_status NOT IN ('VD', 'CXL') "
     "AND o.opened_at >= date_trunc('month', business_now()) - interval '1 month' "
     "AND o.opened_at < date_trunc('month', business_now()) GROUP BY oi.item_id) "
     "SELECT m.name_en, coalesce(s.portions, 0) FROM menu_items m LEFT JOIN sold s USING (item_id) "
     "WHERE m.is_active ORDER BY 2, m.item_id LIMIT 5"),
    ("Tháng này món tráng miệng nào bán ế nhất?", "vi",  # the bottom of a category: its dishes that sold nothing too
     "WITH sold AS (SELECT oi.item_id, sum(oi.qty) AS portions FROM order_items oi JOIN orders o USING (order_id) "
     "WHERE o.status = 'COMPLETED' AND oi.line_status NOT IN ('VD', 'CXL') "
     "AND o.opened_at >= date_trunc('month', business_now()) GROUP BY oi.item_id) "
     "SELECT m.name_vi, coalesce(s.portions, 0) FROM menu_items m JOIN categories c USING (category_id) "
     "LEFT JOIN sold s USING (item_id) WHERE m.is_active AND c.cat_code = 'DES' ORDER BY 2, m.item_id LIMIT 1"),
    ("Bottom 3 noodle dishes last week", "en",  # the same in English
     "WITH sold AS (SELECT oi.item_id, sum(oi.qty) AS portions FROM order_items oi JOIN orders o USING (order_id) "
     "WHERE o.status = 'COMPLETED' AND oi.line_status NOT IN ('VD', 'CXL') "
     "AND o.opened_at >= date_trunc('week', business_now()) - interval '7 days' "
     "AND o.opened_at < date_trunc('week', business_now()) GROUP BY oi.item_id) "
     "SELECT m.name_en, coalesce(s.portions, 0) FROM menu_items m JOIN categories c USING (category_id) "
     "LEFT JOIN sold s USING (item_id) WHERE m.is_active AND c.cat_code = 'NOODLE' ORDER BY 2, m.item_id LIMIT 3"),
    ("Món nào bán nhiều nhất tháng này?", "vi",  # "bán" after a dish is selling, not "bàn" (a table)
     "SELECT m.name_vi, sum(oi.qty), sum(oi.line_total_vnd) FROM order_items oi JOIN orders o USING (order_id) "
     "JOIN menu_items m USING (item_id) WHERE o.status = 'COMPLETED' AND oi.line_status NOT IN ('VD', 'CXL') "
     "AND o.opened_at >= date_trunc('month', business_now()) GROUP BY m.item_id, m.name_vi "
     "ORDER BY 2 DESC, m.item_id LIMIT 1"),
    ("How did we do on Saturday, November 7? Total revenue please.", "en",  # the weekday names the date: one day
     "SELECT sum(total_vnd), count(*) FROM orders WHERE status = 'COMPLETED' AND opened_at::date = DATE '2026-11-07'"),
    ("What did waste cost us in each of the last 4 weeks?", "en",  # by week, with the write-offs (kilos don't add up)
     "SELECT date_trunc('week', l.logged_at)::date, round(sum(-l.qty_delta * i.unit_cost_vnd)), count(*) "
     "FROM inventory_logs l JOIN ingredients i USING (ingredient_id) WHERE l.mv_type = 'WST' "
     "AND l.logged_at >= date_trunc('week', business_now()) - interval '3 weeks' GROUP BY 1"),
    ("How did last week's revenue compare with the week before, and the percent change?", "en",  # a change column
     "WITH w AS (SELECT sum(total_vnd) FILTER (WHERE opened_at >= date_trunc('week', business_now()) - interval "
     "'7 days') AS a, sum(total_vnd) FILTER (WHERE opened_at < date_trunc('week', business_now()) - interval "
     "'7 days') AS b FROM orders WHERE status = 'COMPLETED' AND opened_at >= date_trunc('week', business_now()) "
     "- interval '14 days' AND opened_at < date_trunc('week', business_now())) "
     "SELECT a, b, round(100.0 * (a - b) / b, 1) FROM w"),
    ("What were our three best-selling drinks this month?", "en",  # a ranking within a category ranks its dishes
     "SELECT m.name_en, sum(oi.qty), sum(oi.line_total_vnd) FROM order_items oi JOIN orders o USING (order_id) "
     "JOIN menu_items m USING (item_id) JOIN categories c ON c.category_id = m.category_id "
     "WHERE o.status = 'COMPLETED' AND oi.line_status NOT IN ('VD', 'CXL') AND c.cat_code = 'DRINK' "
     "AND o.opened_at >= date_trunc('month', business_now()) GROUP BY m.item_id, m.name_en "
     "ORDER BY 2 DESC, m.item_id LIMIT 3"),
    ("How many deliveries did each supplier make last month?", "en",  # a delivery: one supplier, one day
     "SELECT s.name, count(DISTINCT l.logged_at::date), sum(l.qty_delta * l.unit_cost_vnd) FROM inventory_logs l "
     "JOIN suppliers s USING (supplier_id) WHERE l.mv_type = 'RCV' "
     "AND l.logged_at >= date_trunc('month', business_now()) - interval '1 month' "
     "AND l.logged_at < date_trunc('month', business_now()) GROUP BY s.supplier_id, s.name"),
    ("Giờ công theo bộ phận (phục vụ, thu ngân, pha chế) tuần trước?", "vi",  # roles: "pha chế" is not the bar station
     "SELECT st.role_code, round(sum(extract(epoch FROM coalesce(ss.clock_out, business_now()) - ss.clock_in)) "
     "/ 3600, 1), "
     "count(*) FROM staff_shifts ss JOIN staff st USING (staff_id) WHERE st.role_code IN ('SRV', 'CSH', 'BAR') "
     "AND ss.clock_in >= date_trunc('week', business_now()) - interval '7 days' "
     "AND ss.clock_in < date_trunc('week', business_now()) GROUP BY 1"),
    ("What share of last week's revenue came from delivery orders?", "en",  # a value's share of the whole
     "SELECT coalesce(sum(total_vnd) FILTER (WHERE order_type = 'DL'), 0), sum(total_vnd), "
     "round(100.0 * coalesce(sum(total_vnd) FILTER (WHERE order_type = 'DL'), 0) / sum(total_vnd), 1) "
     f"FROM orders WHERE status = 'COMPLETED' AND {LAST_WEEK}"),
    ("Revenue by payment method this week", "en",  # revenue has no payment method: what was paid, with each
     "SELECT method, sum(amount_vnd), count(*), "  # method's share (ex-026)
     "round(100.0 * sum(amount_vnd) / sum(sum(amount_vnd)) OVER (), 1) FROM payments WHERE pay_status = 'OK' "
     "AND paid_at >= date_trunc('week', business_now()) GROUP BY method"),
    ("Which day last week was the slowest in terms of revenue?", "en",  # slowest: the least revenue
     "SELECT opened_at::date, sum(total_vnd), count(*) FROM orders WHERE status = 'COMPLETED' AND "
     f"{LAST_WEEK} GROUP BY 1 ORDER BY 2 LIMIT 1"),
    ("Top 2 món bán chạy nhất của mỗi danh mục tuần trước", "vi",  # a ranking within each category
     "SELECT category, dish, portions, sales FROM (SELECT c.name_vi AS category, m.name_vi AS dish, "
     "sum(oi.qty) AS portions, sum(oi.line_total_vnd) AS sales, row_number() OVER (PARTITION BY c.category_id "
     "ORDER BY sum(oi.qty) DESC, m.item_id) AS rn FROM order_items oi JOIN orders o USING (order_id) "
     "JOIN menu_items m USING (item_id) JOIN categories c ON c.category_id = m.category_id "
     "WHERE o.status = 'COMPLETED' AND oi.line_status NOT IN ('VD', 'CXL') AND o.opened_at >= "
     "date_trunc('week', business_now()) - interval '7 days' AND o.opened_at < date_trunc('week', business_now()) "
     "GROUP BY c.category_id, c.name_vi, m.item_id, m.name_vi) ranked WHERE rn <= 2"),
    ("Which station had the most voided tickets this week?", "en",  # voided tickets, not all tickets
     "SELECT ks.name_en, count(*) FROM kitchen_tickets k JOIN kitchen_stations ks USING (station_code) "
     "WHERE k.tkt_status = 'VD' AND k.fired_at >= date_trunc('week', business_now()) GROUP BY ks.station_code, ks.name_en"),
    ("How many hours did each staff member work this week?", "en",  # hours summed, then divided once
     "SELECT st.full_name, st.role_code, round(sum(extract(epoch FROM coalesce(ss.clock_out, business_now()) "
     "- ss.clock_in)) / 3600, 1), count(*) FROM staff_shifts ss JOIN staff st USING (staff_id) "
     "WHERE ss.clock_in >= date_trunc('week', business_now()) GROUP BY st.staff_id, st.full_name, st.role_code"),
    ("Tháng này có bao nhiêu lượt đặt bàn ở khu ngoài trời?", "vi",  # bookings: the days still to come too
     "SELECT count(*), coalesce(sum(r.party_size), 0) FROM reservations r JOIN tables t USING (table_id) "
     "WHERE t.area_code = 'OU' AND r.status <> 'CANCELLED' AND r.reserved_for >= date_trunc('month', business_now()) "
     "AND r.reserved_for < date_trunc('month', business_now()) + interval '1 month'"),
    ("What were the top 3 dishes in the VIP room last week?", "en",  # the top dishes: by portions sold
     "SELECT m.name_en, sum(oi.qty), sum(oi.line_total_vnd) FROM order_items oi JOIN orders o USING (order_id) "
     "JOIN tables t ON t.table_id = o.table_id JOIN menu_items m USING (item_id) WHERE t.area_code = 'VP' "
     "AND o.status = 'COMPLETED' AND oi.line_status NOT IN ('VD', 'CXL') AND o.opened_at >= "
     "date_trunc('week', business_now()) - interval '7 days' AND o.opened_at < date_trunc('week', business_now()) "
     "GROUP BY m.item_id, m.name_en ORDER BY 2 DESC, m.item_id LIMIT 3"),
    ("Ca trưa hôm qua đã phục vụ bao nhiêu khách?", "vi",  # "đã phục vụ": served, not a line status
     "SELECT sum(o.guest_cnt), count(*) FROM orders o JOIN shifts s ON s.shift_id = o.shift_id "
     "WHERE o.status = 'COMPLETED' AND s.shift_code = 'L' "
     "AND o.opened_at::date = (business_now() - interval '1 day')::date"),
    ("Tháng này mỗi loại đồ uống bán được bao nhiêu?", "vi",  # "mỗi loại": each drink, not their total
     "SELECT m.name_vi, sum(oi.qty), sum(oi.line_total_vnd) FROM order_items oi JOIN orders o USING (order_id) "
     "JOIN menu_items m USING (item_id) JOIN categories c ON c.category_id = m.category_id "
     "WHERE c.cat_code = 'DRINK' AND o.status = 'COMPLETED' AND oi.line_status NOT IN ('VD', 'CXL') "
     "AND o.opened_at >= date_trunc('month', business_now()) GROUP BY m.item_id, m.name_vi"),
    ("Bàn trong nhà nào có doanh thu cao nhất tuần trước?", "vi",  # which table (the word before the value)
     "SELECT t.table_no, sum(o.total_vnd), count(*) FROM orders o JOIN tables t ON t.table_id = o.table_id "
     f"WHERE t.area_code = 'IN' AND o.status = 'COMPLETED' AND o.{LAST_WEEK.replace(' AND opened_at', ' AND o.opened_at')} "
     "GROUP BY t.table_id, t.table_no ORDER BY 2 DESC, 3 DESC, t.table_id LIMIT 1"),
    ("Hôm qua mỗi mã khuyến mãi giảm bao nhiêu tiền?", "vi",  # "giảm bao nhiêu tiền": the discount
     "SELECT p.promo_code, p.name_vi, sum(o.discount_vnd), count(*) FROM orders o JOIN promotions p "
     "ON p.promo_id = o.promo_id WHERE o.status = 'COMPLETED' "
     "AND o.opened_at::date = (business_now() - interval '1 day')::date GROUP BY p.promo_id, p.promo_code, p.name_vi"),
    ("Tháng này đến nay có bao nhiêu lượt đặt bàn?", "vi",  # "so far": up to now (ex-049)
     "SELECT count(*), coalesce(sum(party_size), 0) FROM reservations WHERE status <> 'CANCELLED' "
     "AND reserved_for >= date_trunc('month', business_now()) AND reserved_for < business_now()"),
    ("Doanh thu tối nay?", "vi",  # tonight: today's dinner shift, not the whole day
     "SELECT sum(o.total_vnd), count(*) FROM orders o JOIN shifts s ON s.shift_id = o.shift_id "
     "WHERE o.status = 'COMPLETED' AND s.shift_code = 'D' AND o.opened_at::date = business_now()::date"),
    ("Tuần này có bao nhiêu đơn giao hàng bị hủy?", "vi",  # orders said "cancelled": the cancelled orders
     "SELECT count(*) FROM orders WHERE status = 'CANCELLED' AND order_type = 'DL' "
     "AND opened_at >= date_trunc('week', business_now())"),
    ("Tuần trước khách thanh toán qua thẻ bao nhiêu tiền?", "vi",  # "thẻ" is a card, not the article "the"
     "SELECT sum(amount_vnd), count(*) FROM payments WHERE pay_status = 'OK' AND method = 'CARD' "
     "AND paid_at >= date_trunc('week', business_now()) - interval '7 days' "
     "AND paid_at < date_trunc('week', business_now())"),
    ("Weekly revenue over the last four weeks?", "en",  # a count in words
     "SELECT date_trunc('week', opened_at)::date, sum(total_vnd), count(*) FROM orders WHERE status = 'COMPLETED' "
     "AND opened_at >= date_trunc('week', business_now()) - interval '3 weeks' GROUP BY 1"),
    ("Tối qua quán đón bao nhiêu khách?", "vi",  # last night: yesterday's dinner shift
     "SELECT sum(o.guest_cnt), count(*) FROM orders o JOIN shifts s ON s.shift_id = o.shift_id "
     "WHERE o.status = 'COMPLETED' AND s.shift_code = 'D' "
     "AND o.opened_at::date = (business_now() - interval '1 day')::date"),
    ("How many loyalty members are there in each tier?", "en",  # the customers on the books: no period
     "SELECT tier, count(*) FROM customers GROUP BY tier"),
    ("Quán có bao nhiêu thành viên hạng vàng?", "vi",
     "SELECT count(*) FROM customers WHERE tier = 'GLD'"),
    ("Labour cost by role last week", "en",  # by role: with the people who worked and their hours
     "SELECT st.role_code, round(sum(extract(epoch FROM coalesce(ss.clock_out, business_now()) - ss.clock_in) "
     "/ 3600 * st.hourly_wage_vnd)), count(DISTINCT st.staff_id), "
     "round(sum(extract(epoch FROM coalesce(ss.clock_out, business_now()) - ss.clock_in)) / 3600, 1) "
     "FROM staff_shifts ss JOIN staff st USING (staff_id) JOIN shifts s USING (shift_id) "
     "WHERE s.shift_date >= (date_trunc('week', business_now()) - interval '7 days')::date "
     "AND s.shift_date < date_trunc('week', business_now())::date GROUP BY st.role_code"),
    ("Ba món lẩu nào bán chạy nhất 30 ngày qua?", "vi",  # a count in words; dish sales dated by the order
     "SELECT m.name_vi, sum(oi.qty), sum(oi.line_total_vnd) FROM order_items oi JOIN orders o USING (order_id) "
     "JOIN menu_items m USING (item_id) JOIN categories c USING (category_id) WHERE c.cat_code = 'HOTPOT' "
     "AND o.status = 'COMPLETED' AND oi.line_status NOT IN ('VD', 'CXL') "
     "AND o.opened_at >= business_now() - interval '30 days' GROUP BY m.item_id, m.name_vi "
     "ORDER BY 2 DESC, 3 DESC, m.item_id LIMIT 3"),
    ("Mã GIAM10 tháng trước khách xài bao nhiêu lần?", "vi",  # "khách xài": who used it, not a split by customer
     "SELECT sum(o.discount_vnd), count(*) FROM orders o JOIN promotions p ON p.promo_id = o.promo_id "
     "WHERE p.promo_code = 'GIAM10' AND o.status = 'COMPLETED' "
     "AND o.opened_at >= date_trunc('month', business_now()) - interval '1 month' "
     "AND o.opened_at < date_trunc('month', business_now())"),
    ("How much did we take in over lunch yesterday?", "en",  # "over" before a shift says when
     "SELECT sum(o.total_vnd), count(*) FROM orders o JOIN shifts s ON s.shift_id = o.shift_id "
     "WHERE o.status = 'COMPLETED' AND s.shift_code = 'L' "
     "AND o.opened_at::date = (business_now() - interval '1 day')::date"),
    ("Delivery revenue day by day for the past week", "en",  # the past week: the last seven days
     "SELECT opened_at::date, sum(total_vnd), count(*) FROM orders WHERE status = 'COMPLETED' "
     "AND order_type = 'DL' AND opened_at >= business_now()::date - 6 GROUP BY 1"),
    ("Which day last week brought in the most guests?", "en",  # "brought in" guests: people, not money
     "SELECT o.opened_at::date, sum(o.guest_cnt), count(*) FROM orders o WHERE o.status = 'COMPLETED' "
     f"AND o.{LAST_WEEK.replace(' AND opened_at', ' AND o.opened_at')} GROUP BY 1 ORDER BY 2 DESC, 3 DESC LIMIT 1"),
    ("What was the busiest hour yesterday by number of orders?", "en",  # the busiest hour: a split by hour
     "SELECT extract(hour FROM opened_at)::int, count(*), sum(total_vnd) FROM orders WHERE status = 'COMPLETED' "
     "AND opened_at::date = (business_now() - interval '1 day')::date GROUP BY 1 ORDER BY 2 DESC, 3 DESC LIMIT 1"),
    ("Which dish gets voided the most this month?", "en",  # "gets voided": the verb names the metric; a dish's
     "SELECT m.name_en, count(*), sum(oi.qty), sum(oi.line_total_vnd) FROM order_items oi "  # voids with portions
     "JOIN menu_items m USING (item_id) WHERE oi.line_status = 'VD' "
     "AND oi.added_at >= date_trunc('month', business_now()) GROUP BY m.item_id, m.name_en "
     "ORDER BY 2 DESC, 4 DESC, m.item_id LIMIT 1"),
    ("Hôm nay bán được bao nhiêu rồi em?", "vi",  # selling with no dish named: the money taken
     "SELECT sum(total_vnd), count(*) FROM orders WHERE status = 'COMPLETED' "
     "AND opened_at::date = business_now()::date"),
    ("Hôm qua bếp nào ra món chậm nhất?", "vi",  # "ra món" sends dishes out: the stations' prep time, not by dish
     "SELECT ks.name_vi, ks.target_prep_m, count(*), "
     "round((avg(extract(epoch FROM k.ready_at - k.fired_at)) / 60)::numeric, 1) FROM kitchen_tickets k "
     "JOIN kitchen_stations ks USING (station_code) WHERE k.ready_at IS NOT NULL "
     "AND k.fired_at::date = (business_now() - interval '1 day')::date "
     "GROUP BY ks.station_code, ks.name_vi, ks.target_prep_m"),
    ("Tháng trước thứ mấy trong tuần bán được nhiều tiền nhất?", "vi",  # "thứ mấy": which weekday
     "SELECT extract(isodow FROM opened_at)::int, to_char(opened_at, 'Dy'), sum(total_vnd), count(*) FROM orders "
     "WHERE status = 'COMPLETED' AND opened_at >= date_trunc('month', business_now()) - interval '1 month' "
     "AND opened_at < date_trunc('month', business_now()) GROUP BY 1, 2 ORDER BY 3 DESC LIMIT 1"),
    ("Tháng này bàn nào khách ngồi lâu nhất?", "vi",  # ranked by the average as shown, to the minute (ex-034);
     "SELECT t.table_no, round(avg(extract(epoch FROM o.closed_at - o.opened_at)) / 60) AS m, count(*) AS n "
     "FROM orders o JOIN tables t ON t.table_id = o.table_id WHERE o.order_type = 'DI' AND o.status = 'COMPLETED' "
     "AND o.closed_at IS NOT NULL AND o.opened_at >= date_trunc('month', business_now()) "
     "GROUP BY t.table_id, t.table_no ORDER BY m DESC, n DESC, t.table_id LIMIT 1"),  # a tie: more parties, first id
    ("Tháng này đồ uống nào khách gọi nhiều nhất?", "vi",  # "khách gọi": ordered by the customers, portions
     "SELECT m.name_vi, sum(oi.qty), sum(oi.line_total_vnd) FROM order_items oi JOIN orders o USING (order_id) "
     "JOIN menu_items m USING (item_id) JOIN categories c USING (category_id) WHERE c.cat_code = 'DRINK' "
     "AND o.status = 'COMPLETED' AND oi.line_status NOT IN ('VD', 'CXL') "
     "AND o.opened_at >= date_trunc('month', business_now()) GROUP BY m.item_id, m.name_vi "
     "ORDER BY 2 DESC, 3 DESC, m.item_id LIMIT 1"),
    ("Tuần trước bạn phục vụ nào bán được nhiều tiền nhất?", "vi",  # people: a leaderboard of 5 (ex-047)
     "SELECT st.full_name, sum(o.total_vnd), count(*) FROM orders o JOIN staff st ON st.staff_id = o.server_id "
     f"WHERE o.status = 'COMPLETED' AND o.{LAST_WEEK.replace(' AND opened_at', ' AND o.opened_at')} "
     "GROUP BY st.staff_id, st.full_name ORDER BY 2 DESC, 3 DESC, st.staff_id LIMIT 5"),
    ("Tuần trước có mấy bàn đặt trước mà khách không tới?", "vi",  # bookings with their guests (ex-023)
     "SELECT count(*), sum(party_size) FROM reservations WHERE status = 'NO_SHOW' "
     f"AND {LAST_WEEK.replace('opened_at', 'reserved_for')}"),
    ("Average ticket time on the wok yesterday?", "en",  # one station: its row, beside its target (ex-011)
     "SELECT ks.name_en, ks.target_prep_m, count(*), "
     "round((avg(extract(epoch FROM k.ready_at - k.fired_at)) / 60)::numeric, 1) FROM kitchen_tickets k "
     "JOIN kitchen_stations ks USING (station_code) WHERE k.ready_at IS NOT NULL AND k.station_code = 'WOK' "
     "AND k.fired_at::date = (business_now() - interval '1 day')::date "
     "GROUP BY ks.station_code, ks.name_en, ks.target_prep_m"),
    ("Quán mình có bao nhiêu khách hạng bạc?", "vi",  # a tier's people: its customers, not covers
     "SELECT count(*) FROM customers WHERE tier = 'SIL'"),
    ("Tháng này có bao nhiêu khách hạng Bạc đã đến ăn?", "vi",  # "đã đến ăn": came to eat, not a seated booking;
     "SELECT count(DISTINCT o.customer_id), count(*) FROM orders o JOIN customers c USING (customer_id) "  # visits
     "WHERE c.tier = 'SIL' AND o.status = 'COMPLETED' AND o.opened_at >= date_trunc('month', business_now())"),
    ("Khách hạng vàng tháng 10 xài hết bao nhiêu?", "vi",  # what a tier spent, and how many of its customers
     "SELECT sum(o.total_vnd), count(*), count(DISTINCT o.customer_id) FROM orders o JOIN customers c "
     "USING (customer_id) WHERE c.tier = 'GLD' AND o.status = 'COMPLETED' "
     "AND o.opened_at >= DATE '2026-10-01' AND o.opened_at < DATE '2026-11-01'"),
    ("Tuần này combo bán được bao nhiêu phần, từng loại?", "vi",  # "từng loại": each combo, never dropped
     "SELECT m.name_vi, sum(oi.qty), sum(oi.line_total_vnd) FROM order_items oi JOIN orders o USING (order_id) "
     "JOIN menu_items m USING (item_id) WHERE m.is_combo AND o.status = 'COMPLETED' "
     "AND oi.line_status NOT IN ('VD', 'CXL') AND o.opened_at >= date_trunc('week', business_now()) "
     "GROUP BY m.item_id, m.name_vi"),
    ("Average party size per area this month?", "en",  # a party at a table (a dine-in order), not a booking
     "SELECT t.area_code, round(avg(o.guest_cnt), 1), count(*) FROM orders o JOIN tables t USING (table_id) "
     "WHERE o.status = 'COMPLETED' AND o.order_type = 'DI' AND o.opened_at >= date_trunc('month', business_now()) "
     "GROUP BY 1"),
    ("Average reservation party size by day of the week over the last 8 weeks.", "en",  # a booking's (ex-046)
     "SELECT extract(isodow FROM reserved_for)::int, to_char(reserved_for, 'Dy'), count(*), "
     "round(avg(party_size), 1) FROM reservations WHERE status <> 'CANCELLED' "
     "AND reserved_for >= business_now()::date - 56 AND reserved_for < business_now() GROUP BY 1, 2"),
    ("How many guests came yesterday?", "en",  # the guests who ate, not those of seated bookings
     "SELECT sum(guest_cnt), count(*) FROM orders WHERE status = 'COMPLETED' "
     "AND opened_at::date = (business_now() - interval '1 day')::date"),
    ("Đồ uống nào bán chạy nhất tuần này?", "vi",  # "bán" typed with its accent: selling, never "bàn" (a table)
     "SELECT m.name_vi, sum(oi.qty), sum(oi.line_total_vnd) FROM order_items oi JOIN orders o USING (order_id) "
     "JOIN menu_items m USING (item_id) JOIN categories c USING (category_id) WHERE c.cat_code = 'DRINK' "
     "AND o.status = 'COMPLETED' AND oi.line_status NOT IN ('VD', 'CXL') "
     "AND o.opened_at >= date_trunc('week', business_now()) GROUP BY m.item_id, m.name_vi "
     "ORDER BY 2 DESC, 3 DESC, m.item_id LIMIT 1"),
    ("Hôm qua có bao nhiêu người làm, chia theo vai trò?", "vi",  # people who worked, not their shifts
     "SELECT st.role_code, count(DISTINCT ss.staff_id) FROM staff_shifts ss JOIN staff st USING (staff_id) "
     "WHERE ss.clock_in::date = (business_now() - interval '1 day')::date GROUP BY 1"),
    ("Revenue by each type of order this month", "en",  # with the average bill of each (ex-035)
     "SELECT order_type, sum(total_vnd), count(*), round(avg(total_vnd)) FROM orders WHERE status = 'COMPLETED' "
     "AND opened_at >= date_trunc('month', business_now()) GROUP BY 1"),
    ("Doanh thu hôm qua không tính giao hàng", "vi",  # an exclusion: the value left out (NOT IN)
     "SELECT sum(total_vnd), count(*) FROM orders WHERE status = 'COMPLETED' AND order_type <> 'DL' "
     "AND opened_at::date = (business_now() - interval '1 day')::date"),
    ("Món nào bán chạy nhất tuần này, trừ các món lẩu?", "vi",
     "SELECT m.name_vi, sum(oi.qty), sum(oi.line_total_vnd) FROM order_items oi JOIN orders o USING (order_id) "
     "JOIN menu_items m USING (item_id) JOIN categories c USING (category_id) WHERE c.cat_code <> 'HOTPOT' "
     "AND o.status = 'COMPLETED' AND oi.line_status NOT IN ('VD', 'CXL') "
     "AND o.opened_at >= date_trunc('week', business_now()) GROUP BY m.item_id, m.name_vi "
     "ORDER BY 2 DESC, 3 DESC, m.item_id LIMIT 1"),
    ("Tuần trước tỷ lệ khách đặt bàn không tới là bao nhiêu?", "vi",  # a count said as a rate: its rate
     "SELECT round(100.0 * count(*) FILTER (WHERE status = 'NO_SHOW') / count(*), 1), count(*), "
     "count(*) FILTER (WHERE status = 'NO_SHOW') FROM reservations WHERE status <> 'CANCELLED' "
     f"AND {LAST_WEEK.replace('opened_at', 'reserved_for')}"),
    ("Tuần trước đơn mang về chiếm mấy phần trăm tổng số đơn?", "vi",  # a share of the number of orders
     "SELECT count(*) FILTER (WHERE order_type = 'TA'), count(*), "
     "round(100.0 * count(*) FILTER (WHERE order_type = 'TA') / count(*), 1) FROM orders "
     f"WHERE status = 'COMPLETED' AND {LAST_WEEK}"),
    ("Gross profit by category last month", "en",  # sales less the menu's standard cost of the portions sold
     "SELECT c.name_en, sum(oi.line_total_vnd), sum(oi.qty * m.cost_vnd), "
     "sum(oi.line_total_vnd) - sum(oi.qty * m.cost_vnd), "
     "round(100.0 * (sum(oi.line_total_vnd) - sum(oi.qty * m.cost_vnd)) / sum(oi.line_total_vnd), 1) "
     "FROM order_items oi JOIN orders o USING (order_id) JOIN menu_items m USING (item_id) "
     "JOIN categories c USING (category_id) WHERE o.status = 'COMPLETED' AND oi.line_status NOT IN ('VD', 'CXL') "
     "AND o.opened_at >= date_trunc('month', business_now()) - interval '1 month' "
     "AND o.opened_at < date_trunc('month', business_now()) GROUP BY c.category_id, c.name_en"),
    ("Yesterday's labour cost as a % of revenue", "en",  # two models over the same day
     "WITH l AS (SELECT sum(extract(epoch FROM coalesce(ss.clock_out, business_now()) - ss.clock_in) / 3600 "
     "* st.hourly_wage_vnd) AS cost FROM staff_shifts ss JOIN staff st USING (staff_id) JOIN shifts sh "
     "USING (shift_id) WHERE sh.shift_date = (business_now() - interval '1 day')::date), "
     "r AS (SELECT sum(total_vnd) AS revenue FROM orders WHERE status = 'COMPLETED' "
     "AND opened_at::date = (business_now() - interval '1 day')::date) "
     "SELECT round(l.cost), r.revenue, round(100.0 * l.cost / r.revenue, 1) FROM l, r"),
    ("Which ingredients are below their reorder level right now?", "en",  # ex-018: stock below its level
     "SELECT i.name_en, i.uom, round(coalesce(sum(l.qty_delta), 0), 2), i.reorder_lvl FROM ingredients i "
     "LEFT JOIN inventory_logs l USING (ingredient_id) GROUP BY i.ingredient_id, i.name_en, i.uom, i.reorder_lvl "
     "HAVING coalesce(sum(l.qty_delta), 0) < i.reorder_lvl"),
    ("Tối nay còn mấy bàn đặt trước mà khách chưa tới?", "vi",  # bookings still to come, with their guests
     "SELECT count(*), sum(party_size) FROM reservations WHERE status = 'BOOKED' "
     "AND reserved_for::date = business_now()::date"),
    ("Pork belly usage per week for the last 4 full weeks", "en",  # whole weeks; one item: each week, its unit
     "SELECT date_trunc('week', l.logged_at)::date, i.uom, round(-sum(l.qty_delta), 2), "
     "round(-sum(l.qty_delta) * i.unit_cost_vnd) FROM inventory_logs l JOIN ingredients i USING (ingredient_id) "
     "WHERE i.name_en = 'Pork belly' AND l.mv_type = 'USE' "
     "AND l.logged_at >= date_trunc('week', business_now()) - interval '28 days' "
     "AND l.logged_at < date_trunc('week', business_now()) GROUP BY 1, i.uom, i.unit_cost_vnd"),
    ("Tháng này khách trả bằng ví điện tử chiếm bao nhiêu phần trăm?", "vi",  # one phrase, three methods: one part
     "SELECT sum(amount_vnd) FILTER (WHERE method IN ('MOMO', 'ZALO', 'VNPAY')), sum(amount_vnd), "
     "round(100.0 * sum(amount_vnd) FILTER (WHERE method IN ('MOMO', 'ZALO', 'VNPAY')) / sum(amount_vnd), 1) "
     "FROM payments WHERE pay_status = 'OK' AND paid_at >= date_trunc('month', business_now())"),
    ("How many staff are clocked in right now?", "en",  # a state right now: clocked in, not yet out
     "SELECT count(DISTINCT staff_id) FROM staff_shifts WHERE clock_out IS NULL"),
    ("Which server has voided the most items this month?", "en",  # the items are what is counted, not a split
     "SELECT s.full_name, count(*), sum(oi.line_total_vnd) FROM order_items oi JOIN orders o USING (order_id) "
     "JOIN staff s ON s.staff_id = o.server_id WHERE oi.line_status = 'VD' "
     "AND oi.added_at >= date_trunc('month', business_now()) GROUP BY s.staff_id, s.full_name "
     "ORDER BY 2 DESC, 3 DESC, s.staff_id LIMIT 5"),
    ("avg bill yesterday?", "en",  # "avg" is "average"
     "SELECT round(avg(total_vnd)), count(*) FROM orders WHERE status = 'COMPLETED' "
     "AND opened_at::date = (business_now() - interval '1 day')::date"),
    ("Món nào bị hủy nhiều nhất tuần trước?", "vi",  # "món ... bị hủy": the split, then the rest of "món bị hủy"
     "SELECT m.name_vi, count(*), sum(oi.qty), sum(oi.line_total_vnd) FROM order_items oi JOIN menu_items m "
     "USING (item_id) WHERE oi.line_status = 'VD' AND oi.added_at >= date_trunc('week', business_now()) - "
     "interval '7 days' AND oi.added_at < date_trunc('week', business_now()) GROUP BY m.item_id, m.name_vi "
     "ORDER BY 2 DESC, 4 DESC, m.item_id LIMIT 1"),
    ("Top 5 most voided dishes this month", "en",  # the verb first, then the rows ranked
     "SELECT m.name_en, count(*), sum(oi.qty), sum(oi.line_total_vnd) FROM order_items oi JOIN menu_items m "
     "USING (item_id) WHERE oi.line_status = 'VD' AND oi.added_at >= date_trunc('month', business_now()) "
     "GROUP BY m.item_id, m.name_en ORDER BY 2 DESC, 4 DESC, m.item_id LIMIT 5"),
    ("Hôm qua có bao nhiêu phiếu bếp bị trễ?", "vi",  # the tickets named, then which of them: the late ones
     "SELECT count(*) FILTER (WHERE k.ready_at - k.fired_at > make_interval(mins => ks.target_prep_m)), count(*), "
     "round(100.0 * count(*) FILTER (WHERE k.ready_at - k.fired_at > make_interval(mins => ks.target_prep_m)) "
     "/ count(*), 1) FROM kitchen_tickets k JOIN kitchen_stations ks USING (station_code) "
     "WHERE k.ready_at IS NOT NULL AND k.fired_at::date = (business_now() - interval '1 day')::date"),
    ("Ca tối hôm qua thu được bao nhiêu, bao nhiêu khách?", "vi",  # two questions in one: the money and the guests
     "SELECT sum(o.total_vnd), sum(o.guest_cnt), count(*) FROM orders o JOIN shifts s USING (shift_id) "
     "WHERE o.status = 'COMPLETED' AND s.shift_code = 'D' AND s.shift_date = business_now()::date - 1"),
    ("How many guests are seated right now?", "en",  # guests right now: at a table, not the day's covers (and
     "SELECT sum(guest_cnt), count(DISTINCT table_id) FROM orders "  # the tables they sit at)
     "WHERE status IN ('OPEN', 'IN_PROGRESS') AND order_type = 'DI'"),
    ("Bây giờ đang có bao nhiêu bàn có khách ngồi?", "vi",  # the tables occupied, and their guests
     "SELECT count(DISTINCT table_id), sum(guest_cnt) FROM orders "
     "WHERE status IN ('OPEN', 'IN_PROGRESS') AND order_type = 'DI'"),
    ("What stock do we need to reorder tonight?", "en",  # stock is every movement ever: "tonight" is now
     "SELECT i.name_en, i.uom, round(coalesce(sum(l.qty_delta), 0), 2), i.reorder_lvl FROM ingredients i "
     "LEFT JOIN inventory_logs l USING (ingredient_id) GROUP BY i.ingredient_id, i.name_en, i.uom, i.reorder_lvl "
     "HAVING coalesce(sum(l.qty_delta), 0) < i.reorder_lvl"),
    ("How much Heineken is left in stock?", "en",  # a brand said alone names its one ingredient
     "SELECT i.name_en, i.uom, round(coalesce(sum(l.qty_delta), 0), 2), i.reorder_lvl FROM ingredients i "
     "LEFT JOIN inventory_logs l USING (ingredient_id) WHERE i.name_en = 'Heineken beer (bottle)' "
     "GROUP BY i.ingredient_id, i.name_en, i.uom, i.reorder_lvl"),
    ("What percentage of bookings were no-shows last month?", "en",  # the share of a count: its rate
     "SELECT round(100.0 * count(*) FILTER (WHERE status = 'NO_SHOW') / count(*), 1), count(*), "
     "count(*) FILTER (WHERE status = 'NO_SHOW') FROM reservations WHERE status <> 'CANCELLED' "
     "AND reserved_for >= date_trunc('month', business_now()) - interval '1 month' "
     "AND reserved_for < date_trunc('month', business_now())"),
    ("What share of orders were delivery last week?", "en",  # a share of orders: of their number
     f"SELECT count(*) FILTER (WHERE order_type = 'DL'), count(*), round(100.0 * count(*) FILTER "
     f"(WHERE order_type = 'DL') / count(*), 1) FROM orders WHERE status = 'COMPLETED' AND {LAST_WEEK}"),
    ("What share of last week's orders were delivery?", "en",  # the period said between: of their number still
     f"SELECT count(*) FILTER (WHERE order_type = 'DL'), count(*), round(100.0 * count(*) FILTER "
     f"(WHERE order_type = 'DL') / count(*), 1) FROM orders WHERE status = 'COMPLETED' AND {LAST_WEEK}"),
    ("thang nay trung binh moi ngay co bao nhieu khach", "vi",  # guests per day with sales
     "SELECT round(sum(guest_cnt)::numeric / count(DISTINCT opened_at::date), 1), sum(guest_cnt), "
     "count(DISTINCT opened_at::date) FROM orders WHERE status = 'COMPLETED' "
     "AND opened_at >= date_trunc('month', business_now())"),
    ("Tiền thuế VAT tháng 9 với tháng 10 mỗi tháng bao nhiêu?", "vi",  # two months side by side, split by month
     "SELECT date_trunc('month', opened_at)::date, sum(tax_vnd), sum(subtotal_vnd - discount_vnd) FROM orders "
     "WHERE status = 'COMPLETED' AND opened_at >= DATE '2026-09-01' AND opened_at < DATE '2026-11-01' GROUP BY 1"),
    ("So với Chủ nhật tuần trước thì hôm nay tới giờ này doanh thu thế nào?", "vi",  # the period after "so với" is
     "SELECT coalesce(sum(total_vnd) FILTER (WHERE opened_at::date = business_now()::date), 0), "  # the base
     "coalesce(sum(total_vnd) FILTER (WHERE opened_at::date = business_now()::date - 7), 0) FROM orders "
     "WHERE status = 'COMPLETED' AND (opened_at::date = business_now()::date OR "
     "(opened_at::date = business_now()::date - 7 AND opened_at < business_now() - interval '7 days'))"),
    ("Bàn nào đang chờ món lâu nhất, chờ mấy phút rồi?", "vi",  # the dishes of open bills not yet served (ex-013),
     "SELECT t.table_no, count(*), round(max(extract(epoch FROM business_now() - k.fired_at)) / 60) "  # by the wait
     "FROM kitchen_tickets k JOIN orders o USING (order_id) JOIN tables t ON t.table_id = o.table_id "
     "WHERE o.status IN ('OPEN', 'IN_PROGRESS') AND k.served_at IS NULL AND k.tkt_status <> 'VD' "
     "GROUP BY t.table_no ORDER BY 3 DESC, t.table_no LIMIT 1"),
    ("Which tables are still waiting on food right now?", "en",
     "SELECT t.table_no, count(*), round(max(extract(epoch FROM business_now() - k.fired_at)) / 60) "
     "FROM kitchen_tickets k JOIN orders o USING (order_id) JOIN tables t ON t.table_id = o.table_id "
     "WHERE o.status IN ('OPEN', 'IN_PROGRESS') AND k.served_at IS NULL AND k.tkt_status <> 'VD' "
     "GROUP BY t.table_no"),
    ("Thực đơn hiện có bao nhiêu món đang bán?", "vi",  # ex-037: the menu as it is now
     "SELECT count(*) FROM menu_items WHERE is_active"),
    ("How many drinks are on the menu right now?", "en",
     "SELECT count(*) FROM menu_items m JOIN categories c USING (category_id) WHERE c.cat_code = 'DRINK' "
     "AND m.is_active"),
    ("What's the priciest dish on the menu?", "en",  # "priciest" says what is ranked: the price on the menu
     "SELECT name_en, price_vnd FROM menu_items WHERE is_active ORDER BY price_vnd DESC, item_id LIMIT 1"),
    ("avg ticket this week vs last", "en",  # "vs last": the week before; an average with the orders it is over
     "SELECT round(avg(total_vnd) FILTER (WHERE opened_at >= date_trunc('week', business_now()))), "
     "count(*) FILTER (WHERE opened_at >= date_trunc('week', business_now())), "
     f"round(avg(total_vnd) FILTER (WHERE {LAST_WEEK})), count(*) FILTER (WHERE {LAST_WEEK}) "
     "FROM orders WHERE status = 'COMPLETED' "
     "AND opened_at >= date_trunc('week', business_now()) - interval '7 days'"),
    ("covers tuần này vs tuần trước", "vi",  # a total so far beside last week up to the same point
     "SELECT coalesce(sum(guest_cnt) FILTER (WHERE opened_at >= date_trunc('week', business_now())), 0), "
     "coalesce(sum(guest_cnt) FILTER (WHERE opened_at < date_trunc('week', business_now())), 0) FROM orders "
     "WHERE status = 'COMPLETED' AND (opened_at >= date_trunc('week', business_now()) OR "
     "(opened_at >= date_trunc('week', business_now()) - interval '7 days' "
     "AND opened_at < business_now() - interval '7 days'))"),
    ("revenue tối nay so với tối chủ nhật tuần trước cùng giờ này thì sao?", "vi",  # that Sunday, to this hour
     "SELECT coalesce(sum(o.total_vnd) FILTER (WHERE o.opened_at::date = business_now()::date), 0), "
     "coalesce(sum(o.total_vnd) FILTER (WHERE o.opened_at::date = business_now()::date - 7), 0) "
     "FROM orders o JOIN shifts s ON s.shift_id = o.shift_id WHERE o.status = 'COMPLETED' AND s.shift_code = 'D' "
     "AND (o.opened_at::date = business_now()::date OR (o.opened_at::date = business_now()::date - 7 "
     "AND o.opened_at < business_now() - interval '7 days'))"),
    ("Lượt khách tháng này so với cùng kỳ tháng trước tăng hay giảm bao nhiêu phần trăm?", "vi",  # how many
     "WITH p AS (SELECT coalesce(sum(guest_cnt) FILTER (WHERE opened_at >= date_trunc('month', business_now())), 0) "  # %
     "AS a, coalesce(sum(guest_cnt) FILTER (WHERE opened_at < date_trunc('month', business_now())), 0) AS b "
     "FROM orders WHERE status = 'COMPLETED' AND (opened_at >= date_trunc('month', business_now()) OR "
     "(opened_at >= date_trunc('month', business_now()) - interval '1 month' "
     "AND opened_at < business_now() - interval '1 month'))) "
     "SELECT a, b, round(100.0 * (a - b) / nullif(b, 0), 1) FROM p"),
    ("revenue this month vs last month, up or down?", "en",  # so far, beside last month to the same point; the
     "SELECT coalesce(sum(total_vnd) FILTER (WHERE opened_at >= date_trunc('month', business_now())), 0), "  # two alone
     "coalesce(sum(total_vnd) FILTER (WHERE opened_at < date_trunc('month', business_now())), 0) FROM orders "
     "WHERE status = 'COMPLETED' AND (opened_at >= date_trunc('month', business_now()) OR "
     "(opened_at >= date_trunc('month', business_now()) - interval '1 month' "
     "AND opened_at < business_now() - interval '1 month'))"),
    ("7 ngày qua mỗi ngày bán được bao nhiêu ly cà phê?", "vi",  # "cà phê" starts two dishes' names: both
     "SELECT o.opened_at::date, sum(oi.qty), sum(oi.line_total_vnd) FROM order_items oi JOIN orders o "
     "USING (order_id) JOIN menu_items m USING (item_id) WHERE m.name_vi LIKE 'Cà phê %' "
     "AND o.status = 'COMPLETED' AND oi.line_status NOT IN ('VD', 'CXL') "
     "AND o.opened_at >= business_now()::date - 6 GROUP BY 1"),
    ("tuan nay ban duoc bao nhieu chai bia roi?", "vi",  # "chai" counts bottles sold here (a stock unit elsewhere)
     "SELECT sum(oi.qty), sum(oi.line_total_vnd) FROM order_items oi JOIN orders o USING (order_id) "
     "JOIN menu_items m USING (item_id) WHERE m.name_vi LIKE 'Bia %' AND o.status = 'COMPLETED' "
     "AND oi.line_status NOT IN ('VD', 'CXL') AND o.opened_at >= date_trunc('week', business_now())"),
    ("Compare last week with the week before: revenue, covers and spend per guest", "en",  # several figures of two
     "SELECT date_trunc('week', opened_at)::date, count(*), sum(total_vnd), sum(guest_cnt), "  # whole weeks: a row each
     "round(sum(total_vnd)::numeric / nullif(sum(guest_cnt), 0)) FROM orders WHERE status = 'COMPLETED' "
     "AND opened_at >= date_trunc('week', business_now()) - interval '14 days' "
     "AND opened_at < date_trunc('week', business_now()) GROUP BY 1"),
    ("dt hqua?", "vi",  # shorthand typed on a phone: doanh thu hôm qua
     "SELECT sum(total_vnd), count(*) FROM orders WHERE status = 'COMPLETED' "
     "AND opened_at::date = (business_now() - interval '1 day')::date"),
    ("dt tháng trc bn", "vi",  # "trc": trước
     "SELECT sum(total_vnd), count(*) FROM orders WHERE status = 'COMPLETED' "
     "AND opened_at >= date_trunc('month', business_now()) - interval '1 month' "
     "AND opened_at < date_trunc('month', business_now())"),
    ("lẩu thái wk này bán đc mấy nồi", "vi",  # "wk này" in a Vietnamese question: tuần này
     "SELECT sum(oi.qty), sum(oi.line_total_vnd) FROM order_items oi JOIN orders o USING (order_id) "
     "JOIN menu_items m USING (item_id) WHERE m.name_vi = 'Lẩu Thái' AND o.status = 'COMPLETED' "
     "AND oi.line_status NOT IN ('VD', 'CXL') AND o.opened_at >= date_trunc('week', business_now())"),
    ("avg spend per customer this week", "en",  # the spend per guest, never each customer's
     "SELECT round(sum(total_vnd)::numeric / nullif(sum(guest_cnt), 0)), count(*), sum(guest_cnt) FROM orders "
     "WHERE status = 'COMPLETED' AND opened_at >= date_trunc('week', business_now())"),
    ("dt cuối tuần trc bn tr", "vi",  # "bao nhiêu triệu": an amount of money, asked in millions
     "SELECT sum(total_vnd), count(*) FROM orders WHERE status = 'COMPLETED' "
     "AND opened_at >= date_trunc('week', business_now()) - interval '2 days' "
     "AND opened_at < date_trunc('week', business_now())"),
    ("covers lunch nay bao nhiêu", "vi",  # "lunch nay": trưa nay, today's lunch (never every lunch)
     "SELECT sum(o.guest_cnt), count(*) FROM orders o JOIN shifts s ON s.shift_id = o.shift_id "
     "WHERE o.status = 'COMPLETED' AND s.shift_code = 'L' AND o.opened_at::date = business_now()::date"),
    ("dth bữa qua bnhieu", "vi",  # shorthand and a southern "bữa qua": doanh thu hôm qua bao nhiêu
     "SELECT sum(total_vnd), count(*) FROM orders WHERE status = 'COMPLETED' "
     "AND opened_at::date = (business_now() - interval '1 day')::date"),
    ("Tháng trước khách trả tiền mặt, thẻ và ví điện tử mỗi loại chiếm bao nhiêu phần trăm?", "vi",  # e-wallets
     "SELECT CASE WHEN method IN ('MOMO', 'ZALO', 'VNPAY') THEN 'E_WALLET' ELSE method END, count(*), "  # as one
     "sum(amount_vnd), round(100.0 * sum(amount_vnd) / sum(sum(amount_vnd)) OVER (), 1) FROM payments "
     "WHERE pay_status = 'OK' AND paid_at >= date_trunc('month', business_now()) - interval '1 month' "
     "AND paid_at < date_trunc('month', business_now()) GROUP BY 1"),
    ("cash vs card vs e-wallet today", "en",  # the values alone: the payments of each
     "SELECT CASE WHEN method IN ('MOMO', 'ZALO', 'VNPAY') THEN 'E_WALLET' ELSE method END, count(*), "
     "sum(amount_vnd), round(100.0 * sum(amount_vnd) / sum(sum(amount_vnd)) OVER (), 1) FROM payments "
     "WHERE pay_status = 'OK' AND paid_at::date = business_now()::date GROUP BY 1"),
    ("doanh thu qua ví điện tử tháng này", "vi",  # "qua" typed bare among marked words: via, never "quả"
     "SELECT sum(amount_vnd), count(*) FROM payments WHERE pay_status = 'OK' AND method IN ('MOMO', 'ZALO', "
     "'VNPAY') AND paid_at >= date_trunc('month', business_now())"),
    ("bookings for each of the next three days?", "en",  # days to come, one row each
     "SELECT reserved_for::date, count(*), sum(party_size) FROM reservations WHERE status <> 'CANCELLED' "
     "AND reserved_for::date BETWEEN business_now()::date + 1 AND business_now()::date + 3 GROUP BY 1"),
    ("ton kho thit bo con bao nhieu", "vi",  # the first words of one ingredient's name name it
     "SELECT i.name_vi, i.uom, i.reorder_lvl, sum(l.qty_delta) FROM inventory_logs l JOIN ingredients i "
     "USING (ingredient_id) WHERE i.name_vi = 'Thịt bò thăn' GROUP BY 1, 2, 3"),
    ("how much beef do we have in stock", "en",  # a word only one ingredient's English name holds
     "SELECT i.name_en, i.uom, i.reorder_lvl, sum(l.qty_delta) FROM inventory_logs l JOIN ingredients i "
     "USING (ingredient_id) WHERE i.name_en = 'Beef tenderloin' GROUP BY 1, 2, 3"),
    ("How many items have we sold so far today?", "en",  # what "how many" counts with "sold": the portions
     "SELECT sum(oi.qty), sum(oi.line_total_vnd) FROM order_items oi JOIN orders o USING (order_id) "
     "WHERE o.status = 'COMPLETED' AND oi.line_status NOT IN ('VD', 'CXL') "
     "AND o.opened_at::date = business_now()::date"),
    ("Số lượt đặt bàn theo từng thứ trong tuần của tháng trước?", "vi",  # "Số" is a number, never "so" (compare)
     "SELECT extract(isodow FROM reserved_for)::int, to_char(reserved_for, 'Dy'), count(*), sum(party_size) "
     "FROM reservations WHERE status <> 'CANCELLED' AND reserved_for >= date_trunc('month', business_now()) "
     "- interval '1 month' AND reserved_for < date_trunc('month', business_now()) GROUP BY 1, 2"),
    ("Bookings by area so far this month?", "en",  # so far: up to now, not the evening still to come
     "SELECT t.area_code, count(*), sum(r.party_size) FROM reservations r JOIN tables t USING (table_id) "
     "WHERE r.status <> 'CANCELLED' AND r.reserved_for >= date_trunc('month', business_now()) "
     "AND r.reserved_for < business_now() GROUP BY 1"),
    ("What's our dish void rate this month?", "en",  # voided lines of every line ordered
     "SELECT round(100.0 * count(*) FILTER (WHERE line_status = 'VD') / count(*), 1), count(*), "
     "count(*) FILTER (WHERE line_status = 'VD') FROM order_items WHERE added_at >= date_trunc('month', business_now())"),
    ("Tuần trước khách đặt bàn không tới theo từng khu vực, tỷ lệ bao nhiêu?", "vi",  # the rate, said after the
     "SELECT t.area_code, round(100.0 * count(*) FILTER (WHERE r.status = 'NO_SHOW') / count(*), 1), count(*), "  # split;
     "count(*) FILTER (WHERE r.status = 'NO_SHOW') FROM reservations r JOIN tables t USING (table_id) "  # an area with
     "WHERE r.status <> 'CANCELLED' AND r.reserved_for >= date_trunc('week', business_now()) - interval '7 days' "  # none: 0
     "AND r.reserved_for < date_trunc('week', business_now()) GROUP BY 1"),
    ("Tháng 10 có bao nhiêu bill dùng khuyến mãi, chiếm mấy % tổng số bill?", "vi",  # a count's share of the rows
     "SELECT round(100.0 * count(*) FILTER (WHERE promo_id IS NOT NULL) / count(*), 1), count(*), "  # it is taken
     "count(*) FILTER (WHERE promo_id IS NOT NULL) FROM orders WHERE status = 'COMPLETED' "  # from, named after it
     "AND opened_at >= DATE '2026-10-01' AND opened_at < DATE '2026-11-01'"),
    ("How much have we given away in discounts this month, and on how many bills?", "en",  # the second figure as
     "SELECT sum(discount_vnd), count(*), count(*) FILTER (WHERE promo_id IS NOT NULL) FROM orders "  # asked, without
     "WHERE status = 'COMPLETED' AND opened_at >= date_trunc('month', business_now())"),  # its own companions
    ("Bếp đang còn bao nhiêu phiếu chưa làm xong?", "vi",  # "bếp" said bare: the whole kitchen, not a split
     "SELECT count(*), round(extract(epoch FROM business_now() - min(fired_at)) / 60) FROM kitchen_tickets "
     "WHERE tkt_status IN ('QUE', 'PRP')"),
    ("Giá vốn món ăn tuần trước chiếm bao nhiêu % doanh số, chia theo từng danh mục?", "vi",  # one metric as a %
     "SELECT c.name_vi, round(100.0 * sum(oi.qty * m.cost_vnd) / nullif(sum(oi.line_total_vnd), 0), 1), "  # of another:
     "sum(oi.line_total_vnd), sum(oi.qty * m.cost_vnd) FROM order_items oi JOIN orders o USING (order_id) "  # their
     "JOIN menu_items m USING (item_id) JOIN categories c ON c.category_id = m.category_id "  # ratio (food cost %)
     "WHERE o.status = 'COMPLETED' AND oi.line_status NOT IN ('VD', 'CXL') "
     "AND o.opened_at >= date_trunc('week', business_now()) - interval '7 days' "
     "AND o.opened_at < date_trunc('week', business_now()) GROUP BY c.category_id, c.name_vi"),
    ("Tháng trước khách đặt bàn trước trung bình bao nhiêu ngày?", "vi",  # booking lead time, in days
     "SELECT round(avg(extract(epoch FROM reserved_for - created_at)) / 86400, 1), count(*) FROM reservations "
     "WHERE status <> 'CANCELLED' AND reserved_for >= date_trunc('month', business_now()) - interval '1 month' "
     "AND reserved_for < date_trunc('month', business_now())"),
    ("Sữa tươi còn đủ dùng mấy ngày nữa nếu dùng như 7 ngày qua?", "vi",  # stock over the last 7 days' daily use
     "WITH s AS (SELECT i.ingredient_id, i.name_vi, i.uom, sum(l.qty_delta) AS on_hand, coalesce(-sum(l.qty_delta) "
     "FILTER (WHERE l.mv_type = 'USE' AND l.logged_at >= business_now() - interval '7 days'), 0) AS used "
     "FROM ingredients i JOIN inventory_logs l USING (ingredient_id) WHERE i.name_vi = 'Sữa tươi' "
     "GROUP BY 1, 2, 3) SELECT name_vi, uom, round(on_hand / nullif(used / 7.0, 0), 1), round(on_hand, 2), "
     "round(used / 7.0, 2) FROM s"),
    ("top món tháng này", "vi",  # "top" with no number: the first five
     "SELECT m.name_vi, sum(oi.qty), sum(oi.line_total_vnd) FROM order_items oi JOIN orders o USING (order_id) "
     "JOIN menu_items m USING (item_id) WHERE o.status = 'COMPLETED' AND oi.line_status NOT IN ('VD', 'CXL') "
     "AND o.opened_at >= date_trunc('month', business_now()) GROUP BY m.item_id, m.name_vi "
     "ORDER BY 2 DESC, m.item_id LIMIT 5"),
    ("How many beers did we sell yesterday?", "en",  # the names that end in "beer", together
     "SELECT sum(oi.qty), sum(oi.line_total_vnd) FROM order_items oi JOIN orders o USING (order_id) "
     "JOIN menu_items m USING (item_id) WHERE o.status = 'COMPLETED' AND oi.line_status NOT IN ('VD', 'CXL') "
     "AND m.name_en LIKE '% beer' AND o.opened_at::date = (business_now() - interval '1 day')::date"),
    ("Hôm nay quầy bar bán được bao nhiêu ly mỗi loại cà phê?", "vi",  # each coffee, not each kind of bar
     "SELECT m.name_vi, sum(oi.qty), sum(oi.line_total_vnd) FROM order_items oi JOIN orders o USING (order_id) "
     "JOIN menu_items m USING (item_id) WHERE o.status = 'COMPLETED' AND oi.line_status NOT IN ('VD', 'CXL') "
     "AND m.name_vi LIKE 'Cà phê%' AND m.station_code = 'BAR' AND o.opened_at::date = business_now()::date "
     "GROUP BY m.item_id, m.name_vi"),
    ("What share of this month's revenue came from members versus walk-ins?", "en",  # a bill with a customer or not
     "SELECT CASE WHEN customer_id IS NULL THEN 'walk-in' ELSE 'member' END, sum(total_vnd), count(*), "
     "round(100.0 * sum(total_vnd) / sum(sum(total_vnd)) OVER (), 1) FROM orders WHERE status = 'COMPLETED' "
     "AND opened_at >= date_trunc('month', business_now()) GROUP BY 1"),
    ("This week, how many guests had booked versus just walked in?", "en",  # dine-in parties only
     "SELECT CASE WHEN reservation_id IS NULL THEN 'walk-in' ELSE 'booked' END, sum(guest_cnt), count(*) "
     "FROM orders WHERE status = 'COMPLETED' AND order_type = 'DI' "
     "AND opened_at >= date_trunc('week', business_now()) GROUP BY 1"),
    ("How many drinks did we sell between 5 and 7pm yesterday?", "en",  # a window of hours, its end excluded
     "SELECT sum(oi.qty), sum(oi.line_total_vnd) FROM order_items oi JOIN orders o USING (order_id) "
     "JOIN menu_items m USING (item_id) JOIN categories c ON c.category_id = m.category_id "
     "WHERE o.status = 'COMPLETED' AND oi.line_status NOT IN ('VD', 'CXL') AND c.cat_code = 'DRINK' "
     "AND extract(hour FROM o.opened_at) IN (17, 18) "
     "AND o.opened_at::date = (business_now() - interval '1 day')::date"),
    ("Doanh thu từ 11h đến 14h hôm qua", "vi",
     "SELECT sum(total_vnd), count(*) FROM orders WHERE status = 'COMPLETED' "
     "AND extract(hour FROM opened_at) BETWEEN 11 AND 13 "
     "AND opened_at::date = (business_now() - interval '1 day')::date"),
    ("Average delivery bill last month?", "en",  # the average of one bill: the average check
     "SELECT round(avg(total_vnd)), count(*) FROM orders WHERE status = 'COMPLETED' AND order_type = 'DL' "
     "AND opened_at >= date_trunc('month', business_now()) - interval '1 month' "
     "AND opened_at < date_trunc('month', business_now())"),
    ("hom nay co bao nhieu don bi huy ko", "vi",  # "có ... không": a question, "ko" its shorthand
     "SELECT count(*) FROM orders WHERE status = 'CANCELLED' AND opened_at::date = business_now()::date"),
    ("sl khach hqua ca trua vs ca toi", "vi",  # shorthand spelled without accents in a question typed without them
     "SELECT s.shift_code, sum(o.guest_cnt), count(*) FROM orders o JOIN shifts s ON s.shift_id = o.shift_id "
     "WHERE o.status = 'COMPLETED' AND o.opened_at::date = (business_now() - interval '1 day')::date "
     "GROUP BY s.shift_code"),
    ("revenue per labour hour last week", "en",  # revenue by the bills' day, hours by the shifts' day
     "WITH r AS (SELECT sum(total_vnd) AS revenue FROM orders WHERE status = 'COMPLETED' AND " + LAST_WEEK + "), "
     "h AS (SELECT sum(extract(epoch FROM coalesce(ss.clock_out, business_now()) - ss.clock_in)) / 3600 AS hours "
     "FROM staff_shifts ss JOIN shifts s ON s.shift_id = ss.shift_id "
     "WHERE s.shift_date >= (date_trunc('week', business_now()) - interval '7 days')::date "
     "AND s.shift_date < date_trunc('week', business_now())::date) "
     "SELECT round(r.revenue / h.hours), r.revenue, round(h.hours, 1) FROM r, h"),
    ("Tuần này trung bình mỗi đơn gọi bao nhiêu món?", "vi",  # portions over the completed bills
     "WITH p AS (SELECT sum(oi.qty) AS portions FROM order_items oi JOIN orders o USING (order_id) "
     "WHERE o.status = 'COMPLETED' AND oi.line_status NOT IN ('VD', 'CXL') "
     "AND o.opened_at >= date_trunc('week', business_now())), "
     "b AS (SELECT count(*) AS bills FROM orders WHERE status = 'COMPLETED' "
     "AND opened_at >= date_trunc('week', business_now())) "
     "SELECT round(1.0 * p.portions / b.bills, 1), p.portions, b.bills FROM p, b"),
    ("How many tables and seats are there in each area?", "en",  # the tables in service now
     "SELECT area_code, count(*), sum(seats) FROM tables WHERE is_active GROUP BY area_code"),
    ("co bao nhieu ban VIP, tong cong bao nhieu cho ngoi", "vi",
     "SELECT count(*), sum(seats) FROM tables WHERE is_active AND area_code = 'VP'"),
    ("tuan nay bep lam sai mon nao, moi mon bao nhieu lan?", "vi",  # a void's reason: the voided lines, never sales
     "SELECT m.name_vi, count(*), sum(oi.line_total_vnd), sum(oi.qty) FROM order_items oi JOIN menu_items m "
     "USING (item_id) WHERE oi.line_status = 'VD' AND oi.void_reason = 'Bếp làm sai món' "
     "AND oi.added_at >= date_trunc('week', business_now()) GROUP BY m.item_id, m.name_vi"),
    ("Tháng này giá nhập tôm sú trung bình bao nhiêu một ký?", "vi",  # spend over quantity received, weighted
     "SELECT i.name_vi, i.uom, round(sum(l.qty_delta * l.unit_cost_vnd) / sum(l.qty_delta)), "
     "round(sum(l.qty_delta), 2) FROM inventory_logs l "
     "JOIN ingredients i USING (ingredient_id) WHERE l.mv_type = 'RCV' AND i.name_vi = 'Tôm sú' "
     "AND l.logged_at >= date_trunc('month', business_now()) GROUP BY i.name_vi, i.uom"),
    ("gia von mon ca kho to bao nhieu", "vi",  # no period: the dish's cost per portion, beside its price and name
     "SELECT name_vi, cost_vnd, price_vnd FROM menu_items WHERE name_vi = 'Cá kho tộ'"),
    ("Bill trung bình có và không có khuyến mãi tháng này", "vi",  # the two kinds of bills, side by side
     "SELECT promo_id IS NOT NULL, round(avg(total_vnd)), count(*) FROM orders WHERE status = 'COMPLETED' "
     "AND opened_at >= date_trunc('month', business_now()) GROUP BY 1"),
    ("What was the average bill on weekends versus weekdays last month?", "en",  # labelled, not true / false
     "SELECT CASE WHEN extract(isodow FROM opened_at) IN (6, 7) THEN 'weekend' ELSE 'weekday' END, "
     "round(avg(total_vnd)), count(*) FROM orders WHERE status = 'COMPLETED' "
     "AND opened_at >= date_trunc('month', business_now()) - interval '1 month' "
     "AND opened_at < date_trunc('month', business_now()) GROUP BY 1"),
    ("How many hours did each server work last week?", "en",  # the staff whose role is server (ex-024)
     "SELECT st.full_name, round(sum(extract(epoch FROM coalesce(ss.clock_out, business_now()) - ss.clock_in)) "
     "/ 3600, 1), count(*) FROM staff_shifts ss JOIN staff st ON st.staff_id = ss.staff_id "
     "JOIN shifts s ON s.shift_id = ss.shift_id WHERE st.role_code = 'SRV' "
     "AND s.shift_date >= (date_trunc('week', business_now()) - interval '7 days')::date "
     "AND s.shift_date < date_trunc('week', business_now())::date GROUP BY st.staff_id, st.full_name"),
    ("Which active dishes sold fewer than 100 portions last month?", "en",  # those that sold none too
     "SELECT m.name_en, coalesce(sum(oi.qty) FILTER (WHERE o.status = 'COMPLETED' "
     "AND oi.line_status NOT IN ('VD', 'CXL') AND o.opened_at >= date_trunc('month', business_now()) "
     "- interval '1 month' AND o.opened_at < date_trunc('month', business_now())), 0) AS sold "
     "FROM menu_items m LEFT JOIN order_items oi ON oi.item_id = m.item_id LEFT JOIN orders o "
     "ON o.order_id = oi.order_id WHERE m.is_active GROUP BY m.item_id, m.name_en "
     "HAVING coalesce(sum(oi.qty) FILTER (WHERE o.status = 'COMPLETED' AND oi.line_status NOT IN ('VD', 'CXL') "
     "AND o.opened_at >= date_trunc('month', business_now()) - interval '1 month' "
     "AND o.opened_at < date_trunc('month', business_now())), 0) < 100"),
    ("ngày nào tháng 10 doanh thu trên 150 triệu", "vi",  # a condition on the figure of each row
     "SELECT opened_at::date, sum(total_vnd), count(*) FROM orders WHERE status = 'COMPLETED' "
     "AND opened_at >= DATE '2026-10-01' AND opened_at < DATE '2026-11-01' GROUP BY 1 "
     "HAVING sum(total_vnd) > 150000000"),
    ("Of the customers who ordered in October, how many came back in November?", "en",  # a cohort and its return
     "WITH oct AS (SELECT DISTINCT customer_id FROM orders WHERE status = 'COMPLETED' AND customer_id IS NOT NULL "
     "AND opened_at >= DATE '2026-10-01' AND opened_at < DATE '2026-11-01'), "
     "nov AS (SELECT DISTINCT customer_id FROM orders WHERE status = 'COMPLETED' AND customer_id IS NOT NULL "
     "AND opened_at >= DATE '2026-11-01' AND opened_at < DATE '2026-12-01') "
     "SELECT count(*), count(n.customer_id), round(100.0 * count(n.customer_id) / nullif(count(*), 0), 1) "
     "FROM oct LEFT JOIN nov n ON n.customer_id = oct.customer_id"),
    ("How many members who came in October haven't been back yet this month, by tier?", "en",
     "WITH oct AS (SELECT DISTINCT customer_id FROM orders WHERE status = 'COMPLETED' AND customer_id IS NOT NULL "
     "AND opened_at >= DATE '2026-10-01' AND opened_at < DATE '2026-11-01'), "
     "nov AS (SELECT DISTINCT customer_id FROM orders WHERE status = 'COMPLETED' AND customer_id IS NOT NULL "
     "AND opened_at >= date_trunc('month', business_now())) "
     "SELECT c.tier, count(*), count(*) FILTER (WHERE nov.customer_id IS NULL), "
     "round(100.0 * count(*) FILTER (WHERE nov.customer_id IS NULL) / count(*), 1) FROM oct "
     "JOIN customers c ON c.customer_id = oct.customer_id LEFT JOIN nov ON nov.customer_id = oct.customer_id "
     "GROUP BY c.tier"),
    ("Khách mới đăng ký tháng trước có bao nhiêu người quay lại ăn trong tháng này?", "vi",  # who joined, then ate
     "SELECT count(*), count(*) FILTER (WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id "
     "AND o.status = 'COMPLETED' AND o.opened_at >= date_trunc('month', business_now()))), "
     "round(100.0 * count(*) FILTER (WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id "
     "AND o.status = 'COMPLETED' AND o.opened_at >= date_trunc('month', business_now()))) / count(*), 1) "
     "FROM customers c WHERE c.joined_at >= date_trunc('month', business_now()) - interval '1 month' "
     "AND c.joined_at < date_trunc('month', business_now())"),
    ("Which table has waited longest for food this lunch?", "en",  # a past lunch: its longest wait, not the live one
     "SELECT t.table_no, round(max(CASE WHEN k.served_at IS NOT NULL THEN extract(epoch FROM k.served_at - "
     "k.fired_at) / 60 WHEN k.tkt_status <> 'VD' AND o.status IN ('OPEN', 'IN_PROGRESS') THEN extract(epoch FROM "
     "business_now() - k.fired_at) / 60 END), 1) AS w FROM kitchen_tickets k JOIN orders o ON o.order_id = k.order_id "
     "JOIN shifts s ON s.shift_id = o.shift_id JOIN tables t ON t.table_id = o.table_id "
     "WHERE s.shift_code = 'L' AND k.fired_at::date = business_now()::date GROUP BY t.table_id, t.table_no "
     "ORDER BY w DESC NULLS LAST, t.table_id LIMIT 1"),
    ("Who's clocked in right now?", "en",  # each one still on shift, their role, since when
     "SELECT st.full_name, st.role_code, ss.clock_in FROM staff_shifts ss JOIN staff st USING (staff_id) "
     "WHERE ss.clock_out IS NULL"),
    ("ca trua nay ai quan ly", "vi",  # the manager on duty, and the shift's hours (ex-025)
     "SELECT st.full_name, s.starts_at, s.ends_at FROM shifts s JOIN staff st ON st.staff_id = s.manager_id "
     "WHERE s.shift_date = business_now()::date AND s.shift_code = 'L'"),
    ("Hôm nay được bao nhiêu tiền tip, mấy bill có tip?", "vi",
     "SELECT sum(tip_vnd), count(DISTINCT order_id) FILTER (WHERE tip_vnd > 0) FROM payments "
     "WHERE pay_status = 'OK' AND paid_at::date = business_now()::date"),
    ("Which category grew the most in percent this month compared with the same days last month?", "en",
     "WITH s AS (SELECT m.category_id, sum(oi.line_total_vnd) FILTER (WHERE o.opened_at >= "
     "date_trunc('month', business_now())) AS now_, sum(oi.line_total_vnd) FILTER (WHERE o.opened_at < "
     "date_trunc('month', business_now())) AS before_ FROM order_items oi JOIN orders o USING (order_id) "
     "JOIN menu_items m USING (item_id) WHERE o.status = 'COMPLETED' AND oi.line_status NOT IN ('VD', 'CXL') "
     "AND (o.opened_at >= date_trunc('month', business_now()) OR (o.opened_at >= date_trunc('month', "
     "business_now()) - interval '1 month' AND o.opened_at < business_now() - interval '1 month')) "
     "GROUP BY m.category_id) SELECT c.name_en, coalesce(s.now_, 0), coalesce(s.before_, 0), "
     "round(100.0 * (coalesce(s.now_, 0) - s.before_) / nullif(s.before_, 0), 1) AS pct FROM s "
     "JOIN categories c USING (category_id) ORDER BY pct DESC NULLS LAST, c.category_id LIMIT 1"),
    ("Which 5 dishes grew the most in portions this week compared with the same days last week?", "en",  # the rise
     "WITH s AS (SELECT oi.item_id, coalesce(sum(oi.qty) FILTER (WHERE o.opened_at >= date_trunc('week', "
     "business_now())), 0) AS now_, coalesce(sum(oi.qty) FILTER (WHERE o.opened_at < date_trunc('week', "
     "business_now())), 0) AS before_ FROM order_items oi JOIN orders o USING (order_id) WHERE o.status = "
     "'COMPLETED' AND oi.line_status NOT IN ('VD', 'CXL') AND (o.opened_at >= date_trunc('week', business_now()) "
     "OR (o.opened_at >= date_trunc('week', business_now()) - interval '7 days' AND o.opened_at < business_now() "
     "- interval '7 days')) GROUP BY oi.item_id) SELECT m.name_en, s.now_, s.before_, s.now_ - s.before_ AS up "
     "FROM s JOIN menu_items m USING (item_id) ORDER BY up DESC, m.item_id LIMIT 5"),
    ("So sánh doanh thu tuần trước với tuần trước nữa", "vi",  # the week before last
     "SELECT sum(total_vnd) FILTER (WHERE " + LAST_WEEK + "), sum(total_vnd) FILTER (WHERE "
     "opened_at >= date_trunc('week', business_now()) - interval '14 days' "
     "AND opened_at < date_trunc('week', business_now()) - interval '7 days') FROM orders "
     "WHERE status = 'COMPLETED'"),
    ("How many of our members have their birthday this month?", "en",  # the whole month, days to come too
     "SELECT count(*) FROM customers WHERE extract(month FROM birth_date) = extract(month FROM business_now())"),
    ("co bao nhieu khach thanh vien sinh nhat tuan sau", "vi",  # next week's days, this year
     "SELECT count(*) FROM customers WHERE to_char(birth_date, 'MM-DD') IN (SELECT to_char(d, 'MM-DD') FROM "
     "generate_series(date_trunc('week', business_now()) + interval '7 days', date_trunc('week', business_now()) "
     "+ interval '13 days', interval '1 day') AS d)"),
    ("How many bills used the birthday code last week?", "en",  # the code by what managers call it: its uses
     "SELECT count(*), coalesce(sum(o.discount_vnd), 0) FROM orders o JOIN promotions p USING (promo_id) "
     "WHERE p.promo_code = 'SINHNHAT' AND o.status = 'COMPLETED' AND " + LAST_WEEK.replace("opened_at", "o.opened_at")),
    ("hom qua don mang ve duoc bao nhieu tien", "vi",  # "đơn mang về": takeaway orders, not "brought in"
     "SELECT count(*), sum(total_vnd) FROM orders WHERE status = 'COMPLETED' AND order_type = 'TA' "
     "AND opened_at::date = (business_now() - interval '1 day')::date"),
    ("Tháng trước nguyên liệu nào có tỷ lệ hao hụt cao nhất? Cho 5 cái.", "vi",  # waste over use; "5 cái": five
     "SELECT i.name_vi, i.uom, round(100.0 * sum(-l.qty_delta) FILTER (WHERE l.mv_type = 'WST') / "
     "nullif(sum(-l.qty_delta) FILTER (WHERE l.mv_type = 'USE'), 0), 1) AS pct, "
     "round(coalesce(sum(-l.qty_delta) FILTER (WHERE l.mv_type = 'USE'), 0), 2), "
     "round(coalesce(sum(-l.qty_delta) FILTER (WHERE l.mv_type = 'WST'), 0), 2) FROM inventory_logs l "
     "JOIN ingredients i USING (ingredient_id) WHERE l.logged_at >= date_trunc('month', business_now()) - "
     "interval '1 month' AND l.logged_at < date_trunc('month', business_now()) GROUP BY i.ingredient_id, i.name_vi, "
     "i.uom ORDER BY pct DESC NULLS LAST, 4 DESC, 5 DESC, i.ingredient_id LIMIT 5"),  # a tie: the bigger use
    ("What's our stock worth right now, split by supplier?", "en",  # each ingredient's supplier, at its unit cost
     "SELECT sp.name, sum(l.qty_delta * i.unit_cost_vnd) FROM inventory_logs l JOIN ingredients i "
     "USING (ingredient_id) JOIN suppliers sp ON sp.supplier_id = i.supplier_id GROUP BY sp.supplier_id, sp.name"),
    ("Giá trị hàng tồn kho hiện tại là bao nhiêu?", "vi",
     "SELECT sum(l.qty_delta * i.unit_cost_vnd) FROM inventory_logs l JOIN ingredients i USING (ingredient_id)"),
    ("Doanh thu sáng nay bao nhiêu?", "vi",  # this morning: before noon, not the whole day so far
     "SELECT sum(total_vnd), count(*) FROM orders WHERE status = 'COMPLETED' AND opened_at >= "
     "business_now()::date AND opened_at < business_now()::date + interval '12 hours'"),
    ("What did waste cost us last week, by supplier?", "en",  # a write-off names no supplier: its ingredient's
     "SELECT sp.name, sum(-l.qty_delta * i.unit_cost_vnd), count(*) FROM inventory_logs l JOIN ingredients i "
     "USING (ingredient_id) JOIN suppliers sp ON sp.supplier_id = i.supplier_id WHERE l.mv_type = 'WST' AND "
     "l.logged_at >= date_trunc('week', business_now()) - interval '7 days' AND l.logged_at < "
     "date_trunc('week', business_now()) GROUP BY sp.supplier_id, sp.name"),
    ("Giờ mỗi khu còn trống mấy bàn?", "vi",  # "giờ" opening a question of what is still so: now, not hours
     "SELECT t.area_code, count(*) FILTER (WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.table_id = t.table_id "
     "AND o.order_type = 'DI' AND o.status IN ('OPEN', 'IN_PROGRESS'))), count(*) FROM tables t WHERE t.is_active "
     "GROUP BY t.area_code"),  # free, of the tables in service
    ("Tháng 10 mỗi khách thành viên ghé trung bình mấy lần, tính theo từng hạng?", "vi",
     "SELECT c.tier, round(count(*)::numeric / count(DISTINCT o.customer_id), 2), count(DISTINCT o.customer_id), "
     "count(*) FROM orders o JOIN customers c USING (customer_id) WHERE o.status = 'COMPLETED' "
     "AND o.opened_at >= DATE '2026-10-01' AND o.opened_at < DATE '2026-11-01' GROUP BY c.tier"),
    ("How many cooks clocked in for each shift this week?", "en",  # the chefs, on each shift of each day
     "SELECT s.shift_date, s.shift_code, count(DISTINCT ss.staff_id) FROM staff_shifts ss "
     "JOIN shifts s USING (shift_id) JOIN staff st USING (staff_id) WHERE st.role_code = 'CHF' "
     "AND s.shift_date >= date_trunc('week', business_now())::date GROUP BY 1, 2"),
    ("Tối nay có mấy bàn đặt trước, tổng cộng bao nhiêu khách?", "vi",  # a booking tonight: from 17:00
     "SELECT count(*), sum(party_size) FROM reservations WHERE status <> 'CANCELLED' "
     "AND reserved_for >= date_trunc('day', business_now()) + interval '17 hours' "
     "AND reserved_for < date_trunc('day', business_now()) + interval '1 day'"),
    ("What share of this month's sales is takeaway and delivery?", "en",  # each of all order types' revenue
     "SELECT order_type, sum(total_vnd), count(*), round(100.0 * sum(total_vnd) / (SELECT sum(total_vnd) FROM orders "
     "WHERE status = 'COMPLETED' AND opened_at >= date_trunc('month', business_now())), 1) FROM orders "
     "WHERE status = 'COMPLETED' AND order_type IN ('TA', 'DL') AND opened_at >= date_trunc('month', business_now()) "
     "GROUP BY order_type"),
    ("What has delivery brought in each month, and what share of revenue is that?", "en",  # of each month's revenue
     "SELECT date_trunc('month', opened_at)::date, sum(total_vnd) FILTER (WHERE order_type = 'DL'), "
     "count(*) FILTER (WHERE order_type = 'DL'), round(100.0 * sum(total_vnd) FILTER (WHERE order_type = 'DL') "
     "/ sum(total_vnd), 1) FROM orders WHERE status = 'COMPLETED' GROUP BY 1"),
    ("Tháng trước trung bình mỗi ngày có bao nhiêu bill với bao nhiêu khách?", "vi",  # both per day
     "SELECT round(count(*)::numeric / count(DISTINCT opened_at::date), 1), "
     "round(sum(guest_cnt)::numeric / count(DISTINCT opened_at::date), 1), count(DISTINCT opened_at::date) "
     "FROM orders WHERE status = 'COMPLETED' AND opened_at >= DATE '2026-10-01' AND opened_at < DATE '2026-11-01'"),
    ("How were October's payments split across methods, tips included?", "en",  # shares of the amount paid
     "SELECT p.method, count(*), sum(p.tip_vnd), sum(p.amount_vnd), round(100.0 * sum(p.amount_vnd) / "
     "sum(sum(p.amount_vnd)) OVER (), 1) FROM payments p WHERE p.pay_status = 'OK' "
     "AND p.paid_at >= DATE '2026-10-01' AND p.paid_at < DATE '2026-11-01' GROUP BY p.method"),
    ("Tối qua món tráng miệng chiếm bao nhiêu phần trăm doanh số?", "vi",  # of last night's sales, not the day's
     "SELECT sum(oi.line_total_vnd) FILTER (WHERE c.cat_code = 'DES'), sum(oi.line_total_vnd), round(100.0 * "
     "sum(oi.line_total_vnd) FILTER (WHERE c.cat_code = 'DES') / sum(oi.line_total_vnd), 1) FROM orders o "
     "JOIN shifts s USING (shift_id) JOIN order_items oi USING (order_id) JOIN menu_items m USING (item_id) "
     "JOIN categories c USING (category_id) WHERE o.status = 'COMPLETED' AND oi.line_status NOT IN ('VD', 'CXL') "
     "AND s.shift_date = business_now()::date - 1 AND s.shift_code = 'D'"),
    ("What did we take yesterday before noon?", "en",  # that morning, never the whole day
     "SELECT sum(total_vnd), count(*) FROM orders WHERE status = 'COMPLETED' AND opened_at >= "
     "business_now()::date - 1 AND opened_at < business_now()::date - 1 + interval '12 hours'"),
    ("What share of dine-in guests came with a booking last week?", "en",  # of the dine-in guests, not all of them
     f"SELECT sum(guest_cnt) FILTER (WHERE reservation_id IS NOT NULL), sum(guest_cnt), round(100.0 * sum(guest_cnt) "
     f"FILTER (WHERE reservation_id IS NOT NULL) / sum(guest_cnt), 1) FROM orders WHERE status = 'COMPLETED' "
     f"AND order_type = 'DI' AND {LAST_WEEK}"),
    ("Average party size for bookings on weekends vs weekdays last month?", "en",  # of the days booked for
     "SELECT CASE WHEN extract(isodow FROM reserved_for) IN (6, 7) THEN 'weekend' ELSE 'weekday' END, "
     "round(avg(party_size), 1), count(*) FROM reservations WHERE status <> 'CANCELLED' "
     "AND reserved_for >= date_trunc('month', business_now()) - interval '1 month' "
     "AND reserved_for < date_trunc('month', business_now()) GROUP BY 1"),
    ("Which members have a birthday in the next 7 days?", "en",  # each one, with a phone to call
     "SELECT full_name, tier, phone, birth_date FROM customers WHERE birth_date IS NOT NULL AND "
     "make_date(2026, extract(month FROM birth_date)::int, 1) + (extract(day FROM birth_date)::int - 1) "
     "BETWEEN business_now()::date + 1 AND business_now()::date + 7"),
    ("How many bookings were made today?", "en",  # taken today, for any date: never the bookings for today
     "SELECT count(*), sum(party_size) FROM reservations WHERE status <> 'CANCELLED' "
     "AND created_at >= business_now()::date AND created_at < business_now()::date + 1"),
    ("Who worked the lunch shift yesterday?", "en",  # each one who did, clocked in and out
     "SELECT st.full_name, st.role_code, min(ss.clock_in), max(ss.clock_out) FROM staff_shifts ss "
     "JOIN shifts s USING (shift_id) JOIN staff st USING (staff_id) "
     "WHERE s.shift_date = business_now()::date - 1 AND s.shift_code = 'L' GROUP BY st.staff_id"),
    ("What share of last week's dine-in covers sat at the bar counter?", "en",  # of the dine-in guests: an area
     f"SELECT sum(o.guest_cnt) FILTER (WHERE t.area_code = 'BR'), sum(o.guest_cnt), round(100.0 * sum(o.guest_cnt) "
     f"FILTER (WHERE t.area_code = 'BR') / sum(o.guest_cnt), 1) FROM orders o LEFT JOIN tables t USING (table_id) "
     f"WHERE o.status = 'COMPLETED' AND o.order_type = 'DI' AND {LAST_WEEK.replace('opened_at', 'o.opened_at')}"),
    ("What share of this month's tips came from dinner?", "en",  # of the tips, never the tip rate
     "SELECT sum(p.tip_vnd) FILTER (WHERE s.shift_code = 'D'), sum(p.tip_vnd), round(100.0 * sum(p.tip_vnd) "
     "FILTER (WHERE s.shift_code = 'D') / sum(p.tip_vnd), 1) FROM payments p LEFT JOIN orders o USING (order_id) "
     "LEFT JOIN shifts s USING (shift_id) WHERE p.pay_status = 'OK' AND p.paid_at >= date_trunc('month', business_now())"),
    ("Tháng này bạn Bùi Thanh Hoa được khách tip bao nhiêu?", "vi",  # "bạn" before a name: how she is called
     "SELECT sum(p.tip_vnd) FROM payments p JOIN orders o USING (order_id) JOIN staff st ON st.staff_id = o.server_id "
     "WHERE p.pay_status = 'OK' AND st.full_name = 'Bùi Thanh Hoa' "
     "AND p.paid_at >= date_trunc('month', business_now())"),
]


@pytest.mark.parametrize(("question", "language", "gold"), CASES, ids=[c[0][:40] for c in CASES])
def test_questions_of_our_own_match_hand_written_sql(layer, executor, now, question, language, gold) -> None:
    _, result = _answer(layer, executor, question, language, now)
    expected = executor.run(gold).rows
    assert same_answer(result.rows, expected), (result.columns, result.rows[:3], expected[:3])


def test_top_n_is_ordered_with_a_stable_tie_break(layer, executor, now) -> None:
    query, result = _answer(layer, executor, "Top 3 món bán chạy nhất tuần trước", "vi", now)
    assert query.limit == 3 and query.order_by[0].descending
    assert result.columns[0] == "dish" and len(result.rows) == 3
    portions = [row[1] for row in result.rows]
    assert portions == sorted(portions, reverse=True)


@pytest.mark.parametrize("question", [
    "Doanh thu của chi nhánh Hà Nội tuần trước?",  # a branch the restaurant does not have
    "Which bookings are still to come tonight?",  # which of the rows a count counts: a list of rows
    "Revenue last week without the discounts",  # an exclusion of what is not a value: never guessed
    "Tháng này có bao nhiêu khách mới đăng ký, trong đó mấy người đã ăn ở quán?",  # "ăn", "đó": not English fillers
    "How many Pizza Margherita did we sell yesterday?",  # a dish that is not on the menu
    "Compare revenue this week with yesterday and last week",  # three periods
    "Which customers haven't been back in the last 30 days?",  # a negation inside a contraction
    "List all the orders from table 12 yesterday.",  # single rows, not a metric
    "Revenue last week with the percent change",  # a change needs two periods
    "Which are the best-selling dishes in each category this month?",  # how many of each is not said
    "Revenue yesterday, each kind",  # "each kind" of nothing with kinds: never dropped
    "Which table seated the most parties last week?",  # a booking's status says nothing of the orders it brought
    "Shifts and cost by role this month",  # "cost" is a second figure asked for, not a verb to drop
    "Revenue by number of guests this month",  # a split by a measure
    "Khách hạng Vàng đặt bàn bao nhiêu lần tháng này, bao nhiêu lần không đến?",  # two asks, not the no-shows alone
    "Doanh thu đơn bị hủy tuần này",  # cancelled orders have no revenue: never the completed ones
    "Tuần này đồ hư phải bỏ đi những gì, mất bao nhiêu tiền?",  # "những gì": which items, a list
    "How many dishes sold more than 100 portions last week?",  # a condition on rows, then their number
    "Which dish grew the most this month?",  # a change needs a second period
    "Which dishes sold more than 100 portions and less than 200 portions last week?",  # two conditions
    "Which servers had the highest cancellation rate last month among those with at least 50 orders?",  # on orders
    "Which ingredients have less than 3 days of stock left at the average daily usage of the last 14 days?",
    "How many orders over 500000 last week?",  # "over" a number is a condition, not a period
    "Bàn 3 đang đợi món gì vậy?",  # which dishes: the tickets themselves, a list (ex-013)
    "What was the stock on hand of each ingredient last week?",  # stock is known as of now, not for a past week
    "Tuần này món nào bị hủy nhiều nhất, lý do chủ yếu là gì?",  # a second question: its main reason
    "Which dish was voided most this week and what was the main reason?",
    "Revenue next week",  # nothing has been sold yet: only bookings are known ahead
    "Which 10 dishes had the most voids as a share of their sales last month?",  # a ratio of two metrics
    "Tuần này chị Trần Thị Phương quản lý mấy ca?",  # "chị" (she) is not "chi" (to spend): no revenue
    "How much did we spend on seafood this month?",  # a word of one long dish name names no dish
    "giá nhập tháng này",  # a price per kg across ingredients of every unit
    "What share of this month's revenue came from each loyalty tier, and from walk-ins?",  # no booking, or no card?
    "Tháng trước ngày nào doanh thu cao nhất, ngày nào thấp nhất?",  # both ends: one ranking shows one
    "What were the busiest and the quietest days last month by revenue?",
    "Tuần này đơn mang về chiếm bao nhiêu % số đơn và bao nhiêu % doanh thu?",  # two shares: never one dropped
    "Tuần trước mỗi bạn phục vụ làm ra bao nhiêu doanh thu cho mỗi giờ đi làm?",  # per hour worked, not by hour
    "What have we got on hand from Hải sản Cần Giờ right now, and what's it worth?",  # the stock, and its worth
    "How many of this month's new sign-ups have already eaten with us?",  # those who ate, not every sign-up
    "Khách gọi Lẩu Thái thì hay gọi kèm món gì nhất? Cho top 5.",  # what is ordered with it, not its own portions
    "Lãi gộp từng món nước tháng trước là bao nhiêu?",  # soups or drinks: "món nước" says neither for sure
    "khach hang bac nao hon 2 tuan roi chua quay lai",  # more than two weeks ago: never last week's members
    "Top 10 khách hạng vàng lâu nhất chưa quay lại quán",  # the longest away: never the tier's revenue
    "What's the biggest bill so far today, which table and who served it?",  # one bill: never the busiest table
    "Bàn nào ngồi lâu nhất mà chưa tính tiền vậy?",  # the tables not paid yet: never an open-bill count beside
    "Last month, how much did each promo code cost us as a % of the sales on those bills?",  # its discount, not a
    # share of revenue
    "toi nay ban phuc vu nao chay nhieu ban nhat",  # ranked by the tables served: never by the portions sold
    "Cancelled orders by reason this month",  # the reasons are the voided dishes': never swapped for them
    "bàn nào đang mở bill lâu nhất",  # ranked by how long: never by the number of open bills
    "What does a portion of Bò lúc lắc cost us, and what's the margin on it?",  # one portion: never all sold
    "What's the value of the stock we used this month?",  # the use's value: never the stock of one movement type
    "how many tables have we served today",  # the tables used: never how many the restaurant has
    "ban nao ngoi lau nhat ma chua tinh tien vay",  # "mà" typed bare: never the tables' average stay
    "ban 12 goi het bao nhieu tien roi em",  # its bill now: never everything table 12 ever sold
    "Bàn 14 đang ngồi mấy khách, vô từ mấy giờ vậy?",  # since what time: never the guests by hour
    "nhập hàng từ mấy nhà cung cấp tuần này, tổng tiền hàng hết bao nhiêu?",  # the suppliers counted: never dropped
    "Which 5 ingredients have we wasted the most of this month, as a share of what we received?",  # a ratio
    "Nguyên liệu nào bên quầy bar sắp hết, cần đặt thêm?",  # never the stock of the bar's orders' movements
    "lương theo giờ của phục vụ",  # their hourly rate: never every wage ever paid
    "nhân viên thu ngân nào thu nhiều tiền nhất hôm nay",  # money taken in: never the cashiers' wages
    "nhà cung cấp nào giao hàng chậm nhất",  # how long it takes: never the fewest deliveries
    "Hôm nay nhập hàng gì?",  # what goods came in: a list, never the total spent
    "Who waited the longest for food tonight?",  # a table? a guest? never the servers
    "Show me the bookings of 6 or more people over the next three days.",  # the bookings themselves, a list
    "doanh thu 7 ngày",  # seven days: which ones is unsaid, never the 7 best days of all time
    "revenue trend this month",  # a trend by what (day? week?) is unsaid
    "Tháng này chị Lan làm được bao nhiêu giờ rồi?",  # no Lan on the staff: never everyone's hours ("lan" is not "lần")
    "how many days of stock do we have left",  # each ingredient's own: never stock over use across kg, l and pieces
    "Thành viên mới đăng ký hồi tháng 10, bao nhiêu người quay lại ăn lần thứ hai?",  # the second time: no Monday
    "How many split bills did we have yesterday?",  # bills paid in parts: never all the bills
    "Did anyone clock in late today?",  # a shift's start is not recorded: never the late kitchen tickets
    "Which station had the most late tickets on Friday and Saturday?",  # "Saturday" is a day, never every Saturday
    "Tối qua khách phải chờ món lâu nhất là bao nhiêu phút?",  # the guests as a whole: never the members ranked
    "Bia chiếm bao nhiêu phần trăm doanh thu đồ uống tháng này?",  # beer within drinks: never drinks' share
    "Was the last order of the night paid by MoMo?",  # one row; "last" is a word, never mended into "least"
    "How many bowls of pho went out from Monday to Thursday?",  # the days between, never Mondays and Thursdays
    "khach hang thanh vien hang bac co bao nhieu nguoi quay lai",  # came back since when: never all silver members
    "Bill to nhất hôm qua là bao nhiêu?",  # one bill, a row: never the table with the most revenue
    "How is table 5 doing tonight?",  # how a table did: no figure ranks a table by itself
    "is pho on the menu",  # a dish with no figure, not asked how it did
    "doanh thu mỗi người tuần này",  # per guest or per staff member: never each of the staff by itself
    "Beer vs coffee this month, cups and sales?",  # two groups of dishes: a row each, never one sum of all four
    "Đơn có giá trị lớn nhất tuần này là đơn nào, ở bàn mấy?",  # one bill, a row: never the table with most bills
    "Món bán chạy thứ hai tuần trước là món gì?",  # the second best seller, or a Monday's?
    "bun cha combo sales this week",  # a dish and a group it is not in: never both, an empty answer
    "ban nao cho mon qua lau",  # "quá lâu" (too long) with no bound, never the hotpots ("lẩu")
    "Top 3 và bottom 3 món chính theo doanh số tuần này",  # two rankings, never the bottom alone
    "Trung bình mỗi tối thứ 7 nhà hàng thu được bao nhiêu?",  # every Saturday evening, never the last one alone
    "Bàn số 5 xếp hạng thứ mấy về doanh thu trong tuần trước?",  # a place in a ranking, never a weekday
    "món bị void nhiều nhất 30 ngày qua và lý do là gì",  # the most voided dish, then its reasons: two questions
    "Vui lòng thống kê số hóa đơn bị hủy và bị void trong tháng này, chia theo từng loại đơn.",  # two counts, never
    # the voided items of the cancelled bills
    "bep dang tre mon nao vay, ban may",  # "bàn mấy" said last: which table, never how many sold
    "Lúc này mỗi bạn phục vụ đang giữ mấy bàn, bao nhiêu khách?",  # "bàn" with its mark is never "bán"
    "Món nào bị hủy nhiều nhất và thường hủy vì lý do gì?",  # the most voided dish, then its reasons
    "co mon nao cho lau ko",  # "chờ lâu" typed bare: waiting long, never the hotpots
    "table for 10 people we have?",  # a table's size, never the top 10 tables
    "Which loyalty tier makes the most bookings per member?",  # a ratio, never a split by member
    "Which zone brought in the most revenue per table this month?",
    "Mấy hôm nay bếp nướng ra món có chậm hơn thời gian mục tiêu không?",  # some days lately, never today
    "Did anyone split a bill between card and cash today?",  # one bill paid both ways, never the payments by method
    "What did table 12 order tonight?",  # its dishes, never its orders counted
    "tien thue mat bang thang nay bao nhieu",  # the rent, never "thuế" (the VAT)
    "How much in tips did Quân collect this month?",  # a name, never "quán" (the restaurant)
    "what did we order most from suppliers last month",  # bought, never the dishes guests ordered
    "top 3 mon bi void nhieu nhat tuan nay, ty le bn",  # the rate asked, never the counts alone
    "ca toi qua co bao nhieu don huy va bao nhieu mon bi void",  # last night's shift: never the whole day
    "How many members in each tier are repeat guests with two or more paid visits?",  # a condition on the visits,
    # never on the members counted
    "How many minutes from ready to served, by station, yesterday?",  # between two states, never those tickets
    "Revenue from member guests vs walk-ins this week",  # "walk-ins" names the guests who came without a booking
    "Đồ uống nào bán chạy nhất thứ 7 và chủ nhật vừa rồi?",  # ranked over both days or in each: never a comparison
    "Tháng 10 có bao nhiêu lượt đặt bàn bị hủy và bao nhiêu lượt đến ăn?",  # the second ask names no figure
    "Khách hạng vàng tháng này đến bao nhiêu lượt so với tháng trước?",  # a count of visits, never the money
    "Who got the biggest single tip yesterday?",  # one payment's tip, never the servers' tips summed
    "How many silver customers do we have and who are they?",  # the members listed, never a split by server
    "How many orders had discounts over 100k last week?",  # the discount's figure, never each bill's total
    "Which dine-in bills came in under 100k today?",  # the bills listed one by one, never counted
    "Which 5 servers looked after the most tables of 6+ guests this month?",  # each party's size, never the guests
    "Tuần này có đơn ăn tại chỗ nào chỉ 1 khách mà tổng tiền trên 500 nghìn không?",  # two conditions: one is kept
    "How many covers did we serve per labour hour each week?",  # the guests divided, never revenue per labour hour
    "How many orders today, and how many were delivery?",  # the total and the part, never only the part
    "hom nay bao nhieu don, bao nhieu don giao hang",
    "Tối nay có bao nhiêu bàn đặt, bao nhiêu bàn từ 6 người trở lên?",
    "What's the most expensive dish and how many did we sell this month?",  # ranked by price, then its sales
    "How many kitchen tickets per cook yesterday?",  # a ticket names no cook: never "cook" the verb, dropped
    "Revenue per cook yesterday",  # never each server's
    "What share of our drink sales is beer?",  # within the drinks, never the drinks' share of the total
    "How many new members joined last month and how much did they spend?",  # theirs alone, never everyone's
    "Drinks per guest after 9pm vs at lunch, this month",  # two windows of the day: never both as one filter
    "staff nào clock in trễ hôm nay hông",  # who came in late: never the late kitchen tickets of their bills
    "Which staff were late today?",
    "What % of takeaway sales are drinks this week?",  # of the takeaway sales or of all: the whole is unclear
    "Tỷ lệ khách vãng lai trong đơn mang về tháng này là bao nhiêu?",
    "What percent of last night's covers were at 2-seat tables?",  # a table's size, never the top 2
    "How many guests sat at 4-seat tables yesterday?",
    "Which server had the highest average check on dine-in dinner orders with a promotion last month?",  # the
    # average of the promo orders, which their count cannot filter
    "Discount given on dine-in dinner bills over 2 million with a promo last month, by promo code",  # each bill's
    "giảm giá cho đơn giao hàng trên 500k tháng này theo từng mã khuyến mãi",  # total, never the discount's
    "khach trung binh moi ban toi thu 6 khu VIP vs trong nha thang nay",  # two areas side by side, never two periods
    "Which manager ran the most weekend shifts last month?",  # never the weekend dropped
    "hours worked by each manager this week",  # never split by the manager on duty of their shifts
    "khu ngoài trời thứ 7 cn có đông hơn ngày thường ko",  # weekdays, of a weekend
    "bookings cancelled vs no-shows last month",  # both asked, side by side: never the no-shows alone
    "Who used the SINHNHAT code this month?",  # who: the customers or the servers, never dropped
    "how many new loyalty members signed up in late October",  # part of a month: never the late kitchen tickets
    "Món nào hôm nay gọi rồi mà bếp chưa làm xong?",  # ordered, then not yet cooked: never the portions sold
    "how many dine-in parties were cancelled yesterday",  # never the cancelled orders of every kind
    "What was our lunch table turnover on each weekday last week?",  # its days, or Monday to Friday?
    "Tuần này ai vào ca trễ nhiều lần nhất?",  # clocked in late: never the late kitchen tickets
    "co ai lam qua 8 tieng 1 ca k",  # one person's shift: never a shift's hours summed over its staff
    "khách đăng ký thành viên hôm qua đã chi bao nhiêu",  # what those who signed up spent: never everyone's
    "tối qua ai quản lý ca, có bao nhiêu nhân viên đi làm",  # who managed: never the managers who worked counted
    "which suppliers delivered on Friday and how much did each delivery cost",  # goods received have no order:
    "ngay 3/11 nhap nhung hang gi, cua ncc nao",  # never the delivery channel, never a member's tier
    "khach sinh nhat thang nay co ai dat ban chua",  # which members booked: never the two counts side by side
    "khách sinh nhật tháng này có bao nhiêu người đặt bàn",
    "Khách có sinh nhật tháng này đã có ai đến ăn chưa?",  # who among them came in: never the members alone
    "hqua có khách nào sinh nhật tới ăn ko",
    "Biggest discount on a single bill this week and which code was it",  # one bill: never the codes' discounts
    "đơn mang vê hqua bn đơn",  # "vê" is not "về" (takeaway): never every order, the words dropped
    "trung binh moi ngay bao nhieu don bi huy tuan nay",  # per day: never the week's cancelled orders summed
    "on average how many bookings do we take per day this week",  # never the average daily revenue beside them
    "how much did the Women's Day promo cost us",  # the promotion named for the day ran over several: never 20/10
    "how many different drinks did we sell today",  # each drink once: never the portions sold
    "how many different promo codes were used last month",  # each code once: never the orders with one
    "cheapest drink we sell",  # ranked by the price: never the portions sold
    "The 20 slowest tickets today with dish and station",  # single tickets: never their counts ranked
    "2 tuần trước ngày nào doanh thu cao nhất?",  # two weeks back (the week, or the 14 days?): never the top 2
    "Which dishes get ordered most during peak hours?",  # the peak as a window: its hours unsaid, never each hour
    "giờ cao điểm tối qua bếp nào bị trễ nhiều nhất",  # ranked
    "Supplier spend in the week before 20/10",  # a day as a bound: never 20/10 beside the week before
    "8 tuần gần đây tuần nào doanh thu bị tụt so với tuần liền trước, tụt bao nhiêu?",  # those weeks only: never
    # every week with its change
])
def test_questions_it_cannot_account_for_are_handed_over(layer, now, question) -> None:
    parsed = layer.parse(question, language="en" if question[0] in "RHCWhwL" else "vi", now=now)
    assert not parsed.ok
    assert parsed.problem


@pytest.mark.parametrize(("question", "metric", "limit", "group"), [
    ("slowest dish on the wok this week?", "avg_prep_time", 1, "menu_item"),  # slow at a station: cooking time
    ("late ticket % per station, this month vs last month", "late_ticket_rate", None, "station"),  # "X %": its rate
    ("Mã khuyến mãi nào giảm nhiều tiền nhất tháng trước?", "discounts", None, "promotion"),  # all codes, ranked
    ("tháng này mỗi ca đồ uống nào bán chạy nhất", "portions_sold", 1, "shift"),  # each shift's best-selling drink
    ("What was our biggest revenue day last month?", "revenue", 1, "metric_time"),  # the day, ranked by revenue
    ("ngày có doanh thu thấp nhất tuần trước", "revenue", 1, "metric_time"),
    ("Tuần trước ca trưa hay ca tối bán được nhiều đồ uống hơn?", "portions_sold", None, "shift"),  # side by side
    ("Revenue, guests and average bill: September against October.", "revenue", None, "metric_time"),  # a list
    ("top dishes this month", "portions_sold", 5, "menu_item"),
    ("What sold best at lunch today?", "portions_sold", 1, "menu_item"),  # "what sold best": the dishes, ranked
    ("Nguyên liệu nào còn dùng được ít ngày nhất theo mức dùng 7 ngày qua?", "days_of_stock_left", 1,
     "ingredient"),  # "ít ngày nhất": the fewest days left, ranked from the bottom
    ("top dish this month", "portions_sold", 1, "menu_item"),
    ("5 món ra chậm nhất tháng này là những món nào?", "avg_prep_time", 5, "menu_item"),  # slow out of the kitchen
    ("what's the best seller yday", "portions_sold", 1, "menu_item"),  # the dish ranked, not a total of portions
    ("How many beers did we sell last week, by brand?", "portions_sold", None, "menu_item"),  # each beer
    ("Which area had the highest spend per guest last week?", "avg_spend_per_guest", None, "dining_table"),
    ("Khách hạng bạc với hạng vàng tháng này, bill trung bình mỗi hạng bao nhiêu?", "avg_check", None,
     "customer"),  # "mỗi hạng" (each tier) is never "mối hàng" (a supplier)
    ("What was our worst day last month?", "revenue", 1, "metric_time"),  # a day ranked with nothing named: money
    ("Tháng này ngày nào bán đắt nhất?", "revenue", 1, "metric_time"),  # "bán đắt": sold for the most
    ("Tháng 10 khách thành viên với khách vãng lai, bill trung bình bên nào cao hơn?", "avg_check", None,
     "order"),  # both sides, the higher first
    ("top 3 slowest drinks for the bar to make over the last 30 days", "avg_prep_time", 3, "menu_item"),
    ("Average prep time for each dessert this month, slowest on top", "avg_prep_time", None, "menu_item"),  # sorted
])
def test_what_a_word_says_of_the_metric_and_the_ranking(layer, now, question, metric, limit, group) -> None:
    parsed = layer.parse(question, language="en" if question.isascii() else "vi", now=now)
    assert parsed.query is not None, (parsed.problem, parsed.unknown)
    assert parsed.query.metrics[0] == metric and parsed.query.limit == limit
    assert parsed.query.group_by and f"{group}__" in parsed.query.group_by[0]


def test_the_fewest_days_of_stock_come_first(layer, now) -> None:
    """"Ít ngày nhất", "sắp cạn nhất": the bottom of days of stock left, never its top."""
    for question in ("Nguyên liệu nào còn dùng được ít ngày nhất theo mức dùng 7 ngày qua?",
                     "Theo mức dùng 7 ngày qua thì 10 nguyên liệu nào sắp cạn nhất, còn đủ dùng mấy ngày?"):
        parsed = layer.parse(question, language="vi", now=now)
        assert parsed.query is not None, (parsed.problem, parsed.unknown)
        assert parsed.query.order_by[0].by == "days_of_stock_left" and not parsed.query.order_by[0].descending
        assert parsed.query.time is None  # the last 7 days are the rate's, the stock is now


def test_a_weekday_said_beside_yesterday_is_the_one_before(layer, now) -> None:
    """On a Sunday, "yesterday vs last Saturday" compares two Saturdays, never yesterday with itself."""
    parsed = layer.parse("avg check yday vs last sat?", language="en", now=now)
    assert parsed.query is not None and parsed.query.time is not None and parsed.query.compare is not None
    assert parsed.query.compare.start == parsed.query.time.start - dt.timedelta(days=7)


def test_typos_of_swapped_letters_are_read_and_nothing_else_is(layer, now) -> None:
    fixed = layer.parse("revneue yesterdya", language="en", now=now)
    assert fixed.query is not None and fixed.query.metrics[0] == "revenue"
    missing = layer.parse("avg chek yday", language="en", now=now)  # one letter left out, in English only
    assert missing.query is not None and missing.query.metrics[0] == "avg_check"
    assert not layer.parse("how mcuh cash in the drawer today", language="en", now=now).ok  # "drawer" is unknown
    assert not layer.parse("mon nao chua co ai goi hom nay", language="vi", now=now).ok  # "chua" is never Châu


def test_tables_booked_are_bookings_and_tables_alone_are_the_restaurants(layer, now) -> None:
    booked = layer.parse("Ngày mai có bao nhiêu bàn đặt trước, tổng mấy khách?", language="vi", now=now)
    assert booked.query is not None and booked.query.metrics[0] == "reservations"
    tables = layer.parse("quán có tổng số bàn bao nhiêu", language="vi", now=now)
    assert tables.query is not None and tables.query.metrics == ["table_count", "seat_count"]


def test_bookings_then_which_of_them_are_the_no_shows(layer, now) -> None:
    """"Có mấy bàn đặt mà khách không đến": the bookings named, then which of them (a filler between)."""
    parsed = layer.parse("Hôm qua có mấy bàn đặt mà khách không đến?", language="vi", now=now)
    assert parsed.query is not None and parsed.query.metrics[0] == "no_shows"


def test_two_figures_asked_apart_by_a_comma_are_both_answered(layer, now) -> None:
    parsed = layer.parse("Ca tối nay tới giờ được bao nhiêu khách, bill trung bình bao nhiêu?", language="vi", now=now)
    assert parsed.query is not None and parsed.query.metrics[:2] == ["guests", "avg_check"]
    both = layer.parse("Hôm nay có mấy đơn bị hủy, mấy bill bị void?", language="vi", now=now)  # not "which of them"
    assert both.query is not None and both.query.metrics == ["cancelled_orders", "void_orders"]


def test_an_average_per_table_is_no_split_by_table(layer, now) -> None:
    parsed = layer.parse("tuan truoc trung binh moi ban khach ngoi bao lau", language="vi", now=now)
    assert parsed.query is not None and parsed.query.metrics[0] == "avg_minutes_seated" and not parsed.query.group_by


def test_staff_counted_without_a_period_are_the_employees(layer, now) -> None:
    """"How many staff do we have" asks for the employees, not everyone who ever clocked in."""
    employed = layer.parse("how many staff do we have", language="en", now=now)
    assert employed.query is not None and employed.query.metrics == ["employees"]
    parsed = layer.parse("How many staff are on the dinner shift tonight, by role?", language="en", now=now)
    assert parsed.query is not None and parsed.query.metrics == ["staff_worked"]


def test_an_average_is_compared_with_the_whole_period_before(layer, now) -> None:
    parsed = layer.parse("avg bill this month vs last month", language="en", now=now)
    assert parsed.query is not None and parsed.query.compare is not None
    assert parsed.query.compare.end_before is None and parsed.query.compare.end == dt.date(now.year, now.month, 1) \
        - dt.timedelta(days=1)


def test_two_periods_are_compared_only_when_the_question_sets_them_side_by_side(layer, now) -> None:
    """"Khách mới đăng ký tháng trước ... quay lại ăn trong tháng này" names two periods of two different things
    (who joined, then which of them came back): not a comparison of the months; "tháng này và tháng trước" is one."""
    cohort = layer.parse("Khách mới đăng ký tháng trước có bao nhiêu người quay lại ăn trong tháng này?",
                         language="vi", now=now)
    assert cohort.query is not None and cohort.query.returning == "back" and cohort.query.metrics == ["new_customers"]
    apart = layer.parse("Doanh thu tháng trước, khách mới tháng này", language="vi", now=now)
    assert not apart.ok and "not compared" in apart.problem
    for question in ("Doanh thu tháng này và tháng trước", "Doanh thu tháng 10 so với tháng 9"):
        parsed = layer.parse(question, language="vi", now=now)
        assert parsed.ok and parsed.query is not None and parsed.query.compare is not None, question


def test_accents_typed_must_match_a_phrases_own(layer, now) -> None:
    """Typed with accents, "lâu" (long) is not "lẩu" (hotpot): no hotpot station filter; typed bare, "bep lau"
    still finds the hotpot station, and "bán" after a dish is selling, never "bàn" (a table)."""
    def station_filters(question: str) -> list[str]:
        parsed = layer.parse(question, language="vi", now=now)
        return [v for f in (parsed.query.filters if parsed.query else []) for v in f.values if "station" in f.dimension]

    assert station_filters("Doanh thu bếp lẩu tuần này") == ["HOT"]
    assert station_filters("doanh thu bep lau tuan nay") == ["HOT"]
    assert station_filters("Bếp nào nấu lâu nhất hôm qua?") == []
    parsed = layer.parse("5 món bán ế nhất tháng 10", language="vi", now=now)
    assert parsed.ok and parsed.query is not None and not any("table" in g for g in parsed.query.group_by)
    parsed = layer.parse("Tháng trước bếp nào nấu chậm nhất? Cho anh xem cả bảng so với mục tiêu.", language="vi",
                         now=now)  # "cả" (all of) is not "ca" (a shift), a Vietnamese word spelled bare
    assert parsed.ok and parsed.query is not None and not any("shift" in g for g in parsed.query.group_by)


def test_a_name_made_of_common_words_is_never_read_as_a_verb(layer, now) -> None:
    """"Đỗ Thu Hà" folds to "do thu ha" ("thu": to take in): a customer, kept as the filter; "đang phục vụ"
    (being served) is a live state, not the verb "phục vụ"."""
    parsed = layer.parse("Đỗ Thu Hà chi bao nhiêu tiền tháng này?", language="vi", now=now)
    assert parsed.ok and parsed.query is not None
    assert [f.values for f in parsed.query.filters] == [("Đỗ Thu Hà",)]
    assert not layer.parse("Bàn nào đang phục vụ nhiều khách nhất?", language="vi", now=now).ok


def test_a_ranking_within_each_group_keeps_the_top_of_each(layer, executor, now) -> None:
    query, result = _answer(layer, executor, "Món nào bán chạy nhất mỗi ngày tuần trước?", "vi", now)
    assert query.limit == 1 and query.limit_per == "metric_time__day"
    days = [row[0] for row in result.rows]
    assert len(days) == 7 == len(set(days))
    assert layer.describe(query, "vi").endswith("cao nhất 1 mỗi ngày")


def test_each_area_shows_its_tables_free_and_taken_even_with_none_free(layer, executor, now) -> None:
    query, result = _answer(layer, executor, "bay gio moi khu con bao nhieu ban trong, bao nhieu ban dang co khach",
                            "vi", now)
    assert query.metrics[:2] == ["free_tables", "occupied_tables"]
    areas = executor.run("SELECT count(DISTINCT area_code) FROM restaurant.tables WHERE is_active").rows[0][0]
    assert len(result.rows) == areas  # a row with any count of the moment, never only those with both


def test_figures_asked_beside_a_list_of_rows_are_kept(layer, now) -> None:
    parsed = layer.parse("Liệt kê giúp chị các bàn chưa thanh toán, ngồi bao lâu rồi và tạm tính bao nhiêu tiền",
                         language="vi", now=now)
    assert parsed.query is not None and "open_subtotal" in parsed.query.metrics  # never dropped for the list's own


def test_a_tie_at_the_cut_goes_to_the_bigger_companion_then_the_id(layer, now) -> None:
    """As ex-021 orders promotions by uses, then discount, then id."""
    parsed = layer.parse("Top 5 khách hàng đến ăn nhiều lần nhất tháng trước", language="vi", now=now)
    assert parsed.ok and parsed.query is not None
    sql = layer.compile(parsed.query).sql
    order = sql[sql.rindex("ORDER BY"):]
    assert order.index("completed_orders, 0))::numeric") < order.index("revenue, 0) DESC") < order.index("customer ASC")


def test_an_unknown_dish_is_named(layer, now) -> None:
    parsed = layer.parse("How many Pizza Margherita did we sell yesterday?", language="en", now=now)
    assert "pizza" in parsed.unknown and "margherita" in parsed.unknown


@pytest.mark.parametrize(("question", "language", "said"), [
    ("How much did table 42 spend tonight?", "en", "table 42"), ("doanh thu bàn 5 với bàn 35 hôm qua", "vi", "bàn 35")])
def test_a_table_the_restaurant_does_not_have_is_named(layer, now, question, language, said) -> None:
    parsed = layer.parse(question, language=language, now=now)
    assert not parsed.ok and parsed.unknown == [said] and "1–30" in parsed.problem


def test_dates_follow_the_restaurants_time_zone(layer, executor, now) -> None:
    """DATE_TRUNC on timestamptz follows the session time zone: a day's revenue must equal the local day's."""
    day = now.date() - dt.timedelta(days=2)
    question = f"Doanh thu ngày {day.day}/{day.month}/{day.year}"
    _, result = _answer(layer, executor, question, "vi", now)
    gold = executor.run("SELECT sum(total_vnd), count(*) FROM orders WHERE status = 'COMPLETED' "
                        f"AND (opened_at AT TIME ZONE 'Asia/Ho_Chi_Minh')::date = DATE '{day.isoformat()}'").rows
    assert same_answer(result.rows, gold)


def test_suggestions_are_answerable(layer, now) -> None:
    for language in ("vi", "en"):
        starters = starter_questions(layer, language)
        assert len(starters) >= 3
        for question in starters:
            assert layer.parse(question, language=language, now=now).ok, question
    parsed = layer.parse("Doanh thu của chi nhánh Hà Nội tuần trước?", language="vi", now=now)
    nearby = nearby_questions(layer, "vi", parsed)
    assert nearby and all("Doanh thu" in q or "doanh thu" in q for q in nearby)


def test_compiled_sql_passes_the_guard_and_reads_only_business_tables(layer, executor, now) -> None:
    query, _ = _answer(layer, executor, "Doanh thu theo danh mục tháng này", "vi", now)
    sql = layer.compile(query).sql
    assert executor.guard(sql)
    assert "aria_kb" not in sql


def test_a_broken_semantic_file_names_the_object(tmp_path: Path, settings: Settings) -> None:
    broken = tmp_path / "semantic"
    shutil.copytree(semantic_dir(), broken, ignore=shutil.ignore_patterns("agreement*"))
    path = broken / "orders.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("measure: revenue_vnd", "measure: no_such_measure", 1)
                    .replace("name: revenue_vnd", "name: revenue_vnd", 1), encoding="utf-8")
    text = path.read_text(encoding="utf-8")
    if "no_such_measure" not in text:  # the metric may name its measure differently; break any measure reference
        text = text.replace("measure:", "measure: no_such_measure #", 1)
        path.write_text(text, encoding="utf-8")
    with pytest.raises(SemanticModelError) as err:
        load_semantic_layer(business_schema="restaurant", semantic_schema="aria_semantic", directory=broken)
    assert "no_such_measure" in str(err.value) or "orders.yaml" in str(err.value)


def test_the_engine_answers_with_no_model(seeded: Targets, settings: Settings) -> None:
    from tests.integration.engine_support import build_kb_settings, engine_with

    engine = engine_with(build_kb_settings(settings, seeded), seeded, None, semantic=True)
    try:
        assert engine.deps.semantic is not None
        answer = engine.ask("Tổng doanh thu tuần trước là bao nhiêu?")
        assert answer.status in ("answered", "reused")
        assert answer.llm_calls == 0
        if answer.status == "answered":
            assert answer.semantic_query and "Doanh thu" in answer.semantic_query
        refused = engine.ask("Doanh thu của chi nhánh Hà Nội tuần trước?")
        assert refused.status == "no_model"
        assert refused.suggestions
        assert row_set([]) == row_set(refused.rows)
    finally:
        engine.close()


def test_metricflow_queries_run_through_the_read_only_executor(executor, settings: Settings) -> None:
    """MetricFlow's own ``query`` uses Aria's SqlClient: guarded, read-only; statements are refused."""
    from metricflow.engine.metricflow_engine import MetricFlowQueryRequest

    from aria.semantic.compile import SemanticQueryError

    layer = load_semantic_layer(business_schema=settings.business_schema, semantic_schema=settings.semantic_schema,
                                executor=executor)
    result = layer.compiler._engine.query(MetricFlowQueryRequest.create(metric_names=["completed_orders"]))
    expected = executor.run("SELECT count(*) FROM orders WHERE status = 'COMPLETED'").rows[0][0]
    assert result.result_df is not None and result.result_df.rows[0][0] == expected
    with pytest.raises(SemanticQueryError):
        layer.compiler._engine._sql_client.execute("DELETE FROM orders")


def test_a_metric_cycle_is_named(tmp_path: Path) -> None:
    broken = tmp_path / "semantic"
    shutil.copytree(semantic_dir(), broken)
    (broken / "cycle.yaml").write_text(
        "metric:\n  name: loop_a\n  type: derived\n  type_params:\n    expr: loop_b\n    metrics: [{name: loop_b}]\n"
        "---\nmetric:\n  name: loop_b\n  type: derived\n  type_params:\n    expr: loop_a\n    metrics: [{name: loop_a}]\n",
        encoding="utf-8")
    with pytest.raises(SemanticModelError, match="loop_a → loop_b → loop_a"):
        load_semantic_layer(business_schema="restaurant", semantic_schema="aria_semantic", directory=broken)


def test_an_entity_that_joins_nothing_is_named(tmp_path: Path) -> None:
    broken = tmp_path / "semantic"
    shutil.copytree(semantic_dir(), broken)
    path = broken / "orders.yaml"
    text = path.read_text(encoding="utf-8")
    assert "{name: promotion, type: foreign, expr: promo_id}" in text
    path.write_text(text.replace("{name: promotion, type: foreign, expr: promo_id}",
                                 "{name: promotionz, type: foreign, expr: promo_id}", 1), encoding="utf-8")
    with pytest.raises(SemanticModelError, match="orders.promotionz"):
        load_semantic_layer(business_schema="restaurant", semantic_schema="aria_semantic", directory=broken)


@pytest.mark.parametrize("question", [
    "How many Cà phê muối' OR '1'='1 did we sell yesterday?",
    "Doanh thu hôm qua; DROP TABLE orders",
    "Revenue yesterday -- and more",
    'Doanh thu "hôm qua"',
])
def test_characters_that_are_not_words_are_never_dropped_silently(layer, now, question) -> None:
    parsed = layer.parse(question, language="en", now=now)
    assert not parsed.ok and parsed.unknown


def test_returning_customers_of_two_periods_side_by_side_are_compared_not_followed(layer, now) -> None:
    """"Khách quay lại tháng 10 và tháng 11": the returning customers of each month, not October's customers who
    came back in November."""
    compared = layer.parse("so sánh khách quay lại tháng 10 và tháng 11", language="vi", now=now).query
    followed = layer.parse("Trong số khách có đơn trong tháng 9, bao nhiêu người quay lại ăn trong tháng 10?",
                           language="vi", now=now).query
    assert compared is not None and compared.returning is None and compared.compare is not None
    assert followed is not None and followed.returning == "back" and followed.time.start.month == 9


def test_the_guests_said_as_the_subject_are_not_a_split_beside_the_rows_asked(layer, now) -> None:
    """"Khách hay đặt bàn vào khung giờ nào nhất": which hour, not each customer; "thường" there is "usually",
    never the regular tier."""
    hour = layer.parse("30 ngày qua khách hay đặt bàn vào khung giờ nào nhất?", language="vi", now=now).query
    assert hour is not None and hour.group_by == ["reservation__hour_of_day"] and hour.limit == 1
    ahead = layer.parse("Tháng này khách thường đặt bàn trước mấy ngày?", language="vi", now=now).query
    assert ahead is not None and ahead.metrics[0] == "avg_days_ahead" and not ahead.filters
    tiers = layer.parse("Doanh thu tháng trước theo hạng thẻ (thường, bạc, vàng)?", language="vi", now=now).query
    assert tiers is not None and {"REG", "SIL", "GLD"} == set(tiers.filters[0].values)


def test_possessives_and_dates_are_prose(layer, now) -> None:
    assert layer.parse("What's today's revenue?", language="en", now=now).ok
    assert layer.parse("Doanh thu ngày 1/11/2026, theo ca?", language="vi", now=now).ok


def test_a_name_is_found_by_its_own_last_words_and_a_month_by_its_year(layer, now) -> None:
    supplier = layer.parse("How much did we spend with Cần Giờ last month?", language="en", now=now)
    assert supplier.query is not None and supplier.query.metrics[0] == "supplier_spend"
    assert [tuple(f.values) for f in supplier.query.filters] == [("Hải sản Cần Giờ",)]
    december = layer.parse("doanh thu tháng 12 năm ngoái", language="vi", now=now)
    assert december.query is not None and december.query.compare is None
    assert (december.query.time.start, december.query.time.end) == (dt.date(2025, 12, 1), dt.date(2025, 12, 31))
    tomorrow = layer.parse("Tối mai có bao nhiêu bàn đặt?", language="vi", now=now)
    assert tomorrow.query is not None and tomorrow.query.time.start == now.date() + dt.timedelta(days=1)
    whole = layer.parse("Cả tháng 10 quán thu về bao nhiêu tiền?", language="vi", now=now)  # "cả": all of it
    assert whole.query is not None and whole.query.time.start == dt.date(2026, 10, 1)
    weekend = layer.parse("Doanh thu cuối tuần vừa rồi", language="vi", now=now)
    assert weekend.query is not None and (weekend.query.time.start, weekend.query.time.end) == (
        dt.date(2026, 11, 7), dt.date(2026, 11, 8))
    cooks = layer.parse("How many hours did the kitchen staff work last week?", language="en", now=now)
    assert cooks.query is not None and [tuple(f.values) for f in cooks.query.filters] == [("CHF",)]
    full = layer.parse("doanh thu tuần này tới giờ so với cả tuần trước", language="vi", now=now)
    assert full.query is not None and full.query.compare is not None
    assert full.query.compare.end_before is None and full.query.compare.end == dt.date(2026, 11, 8)  # not cut


def test_how_much_two_periods_differ_is_their_change(layer, now) -> None:
    parsed = layer.parse("Doanh thu tuần này tới giờ so với nguyên tuần trước chênh nhau bao nhiêu?", language="vi",
                         now=now)
    assert parsed.query is not None and parsed.query.change_amount and parsed.query.compare is not None
    assert parsed.query.compare.end_before is None  # "nguyên tuần trước": all of it, not cut at the same point


def test_so_opening_a_question_typed_bare_is_the_number_of(layer, now) -> None:
    parsed = layer.parse("so khach moi thang 10 co bao nhieu nguoi da quay lai trong thang 11", language="vi", now=now)
    assert parsed.query is not None and parsed.query.returning == "back"  # of October's new, who came in November


def test_a_clause_closed_by_khong_asks_whether_any(layer, now) -> None:
    parsed = layer.parse("Hôm nay có món nào phải hủy vì hết nguyên liệu không, món gì?", language="vi", now=now)
    assert parsed.query is not None and parsed.query.metrics[0] == "voided_lines"
    assert [f.dimension for f in parsed.query.filters] == ["order_item__void_reason"]  # not the cancelled orders


def test_bottles_of_a_dish_are_portions_and_of_stock_its_units(layer, now) -> None:
    sold = layer.parse("heineken vs saigon beer this week, how many bottles each", language="en", now=now)
    assert sold.query is not None and sold.query.metrics[0] == "portions_sold"
    assert sold.query.group_by == ["menu_item__name_en"]  # each beer named: one row each, "beer" their noun
    stock = layer.parse("Bia Heineken trong kho còn bao nhiêu chai", language="vi", now=now)
    assert stock.query is not None and stock.query.metrics == ["stock_on_hand"]


def test_a_value_listed_beside_a_figure_is_a_figure_of_its_own(layer, now) -> None:
    parsed = layer.parse("Day by day this week, bills closed, tips and refunds", language="en", now=now)
    assert parsed.query is not None and parsed.query.filters == []  # never the tips of refunded payments
    assert {"tips", "refunded_amount"} <= set(parsed.query.metrics)


def test_what_happened_most_often_is_ranked_by_the_times(layer, now) -> None:
    parsed = layer.parse("Top 5 nguyên liệu bị hao hụt nhiều lần nhất trong tháng 10", language="vi", now=now)
    assert parsed.query is not None and parsed.query.metrics[0] == "waste_entries"  # write-offs, not kilos


def test_a_word_with_its_marks_is_never_a_filler_spelt_otherwise(layer, now) -> None:
    wallet = layer.parse("hôm nay trả bằng ví bao nhiêu", language="vi", now=now)  # "ví" (wallet), not "vì"
    assert wallet.query is not None and [tuple(f.values) for f in wallet.query.filters] == [("E_WALLET",)]
    free = layer.parse("bàn nào trong khu VIP đang trống", language="vi", now=now)  # "trống" (free), not "trong"
    assert free.query is None or "free_tables" in free.query.metrics
    on_time = layer.parse("bao nhiêu món ra đúng giờ hôm qua", language="vi", now=now)  # "đúng" is not "dùng"
    assert on_time.query is None  # was: the staff's hours worked
    second = layer.parse("món bán chạy nhì tháng này là món nào", language="vi", now=now)  # "nhì" is not "nhỉ"
    assert second.query is None
    for food in ("tuần này bán được bao nhiêu phần cua", "hôm nay bán được mấy ly ổi", "bán được bao nhiêu tô phở tái",
                 "món chay bán được bao nhiêu phần tuần này", "tuần này bán được bao nhiêu kem", "bàn nào to nhất"):
        assert layer.parse(food, language="vi", now=now).query is None, food  # crab, guava, rare beef, vegetarian,
        # ice cream, big: never a filler, a verb or a unit spelt otherwise
    tea = layer.parse("hôm nay bán được bao nhiêu ly trà", language="vi", now=now)  # "trà" (tea) is not "trả"
    assert tea.query is None or tea.query.metrics[0] == "portions_sold"


def test_a_verbs_own_question_after_its_split_is_answered_beside_the_figure_named(layer, now) -> None:
    parsed = layer.parse("Tuần này thu theo từng phương thức thanh toán được bao nhiêu, tip mỗi loại bao nhiêu?",
                         language="vi", now=now)  # what came in by method, and the tips of each: both
    assert parsed.query is not None and {"payment_amount", "tips"} <= set(parsed.query.metrics)
    assert parsed.query.group_by == ["payment__method"]


def test_each_one_shift_over_days_is_each_day(layer, now) -> None:
    for question, language in (("revenue of each dinner shift last week", "en"),
                               ("Tuần trước mỗi ca tối có bao nhiêu nhân viên đi làm?", "vi")):
        parsed = layer.parse(question, language=language, now=now)  # one row per dinner, not the week's dinners
        assert parsed.query is not None and parsed.query.group_by[:1] == ["metric_time__day"], question


@pytest.mark.parametrize(("question", "exclude"), [
    ("doanh thu tuần trước ngoài đồ uống ra", True), ("số đơn tuần trước không phải giao hàng", True),
    ("doanh thu tháng này chỉ tính ăn tại chỗ", False)])
def test_only_and_except_said_in_vietnamese(layer, now, question, exclude) -> None:
    parsed = layer.parse(question, language="vi", now=now)  # "ngoài ... ra", "không phải": left out; "chỉ": only
    assert parsed.query is not None and len(parsed.query.filters) == 1 and parsed.query.filters[0].exclude == exclude


def test_a_weekday_night_is_its_dinner(layer, now) -> None:
    parsed = layer.parse("How many covers did we do on Friday night?", language="en", now=now)
    assert parsed.query is not None and parsed.query.time.start == dt.date(2026, 11, 13)
    assert [tuple(f.values) for f in parsed.query.filters] == [("D",)]


def test_mai_opening_a_question_is_tomorrow(layer, now) -> None:
    parsed = layer.parse("mai có bao nhiêu bàn đặt trước", language="vi", now=now)
    assert parsed.query is not None and parsed.query.time.start == now.date() + dt.timedelta(days=1)


@pytest.mark.parametrize("question", ["dt 1/11 đến 14/11", "doanh thu trong khoảng 1/11 đến 14/11",
                                      "revenue 1/11 to 14/11"])
def test_a_bare_day_and_month_opens_a_span_to_a_second(layer, now, question) -> None:
    parsed = layer.parse(question, language="en" if "revenue" in question else "vi", now=now)
    assert parsed.query is not None, parsed.problem
    assert (parsed.query.time.start, parsed.query.time.end) == (dt.date(2026, 11, 1), dt.date(2026, 11, 14))


def test_a_weekday_then_its_date_is_that_one_day(layer, now) -> None:
    parsed = layer.parse("VIP room revenue on Saturday the 24th of October", language="en", now=now)
    assert parsed.query is not None and parsed.query.time is not None, parsed.problem
    assert parsed.query.compare is None  # one day, never Saturday compared with the 24th
    assert (parsed.query.time.start, parsed.query.time.end) == (dt.date(2026, 10, 24), dt.date(2026, 10, 24))


def test_since_the_start_of_a_period_runs_to_now(layer, now) -> None:
    for question in ("takeaway order count per week since the start of last month", "revenue from the start of last month"):
        parsed = layer.parse(question, language="en", now=now)
        assert parsed.query is not None and parsed.query.time is not None, parsed.problem
        assert (parsed.query.time.start, parsed.query.time.end) == (dt.date(2026, 10, 1), now.date()), question


def test_bookings_since_the_start_of_a_period_run_to_now_and_this_month_is_set_beside_all_of_the_last(layer,
                                                                                                       now) -> None:
    parsed = layer.parse("khách hạng bạc đặt bàn bao nhiêu lần từ đầu quý", language="vi", now=now)
    assert parsed.query is not None and parsed.query.time is not None, parsed.problem
    assert (parsed.query.time.start, parsed.query.time.end, parsed.query.time.end_before) == (
        dt.date(2026, 10, 1), now.date(), now)  # since the start: never the bookings still to come
    parsed = layer.parse("so sánh số lượt đặt bàn tháng này vs tháng trước", language="vi", now=now)
    assert parsed.query is not None and parsed.query.time is not None and parsed.query.compare is not None
    assert (parsed.query.time.start, parsed.query.time.end) == (dt.date(2026, 11, 1), dt.date(2026, 11, 30))
    assert (parsed.query.compare.start, parsed.query.compare.end, parsed.query.compare.end_before) == (
        dt.date(2026, 10, 1), dt.date(2026, 10, 31), None)  # the whole month beside the whole month


@pytest.mark.parametrize(("question", "start", "end"), [
    ("mon to fri last week, revenue and covers per day", dt.date(2026, 11, 2), dt.date(2026, 11, 6)),  # never "món"
    ("covers Mon-Fri this week", dt.date(2026, 11, 9), dt.date(2026, 11, 13)),
    ("VAT for 5/11", dt.date(2026, 11, 5), dt.date(2026, 11, 5)),
    ("takings by shift for 3/11", dt.date(2026, 11, 3), dt.date(2026, 11, 3)),
])
def test_short_weekday_spans_and_a_day_and_month_after_for(layer, now, question, start, end) -> None:
    parsed = layer.parse(question, language="en", now=now)
    assert parsed.query is not None and parsed.query.time is not None, parsed.problem
    assert (parsed.query.time.start, parsed.query.time.end) == (start, end)


@pytest.mark.parametrize(("question", "language", "first", "second"), [
    ("dt t7 cn tuan nay vs tuan truoc", "vi", (dt.date(2026, 11, 14), dt.date(2026, 11, 15)),
     (dt.date(2026, 11, 7), dt.date(2026, 11, 8))),  # the same days of last week, never all of it
    ("doanh thu thứ 7 tuần này vs tuần trước", "vi", (dt.date(2026, 11, 14),) * 2, (dt.date(2026, 11, 7),) * 2),
    ("Saigon beers sold last weekend vs the weekend before", "en", (dt.date(2026, 11, 7), dt.date(2026, 11, 8)),
     (dt.date(2026, 10, 31), dt.date(2026, 11, 1))),
    ("chi phi nhan cong t7 cn tuan truoc", "vi", (dt.date(2026, 11, 7), dt.date(2026, 11, 8)), None),
    ("Doanh thu giao hàng ngày 2/9 so với 2/9 ăn tại chỗ", "vi", (dt.date(2026, 9, 2),) * 2, None),  # one day said
    # twice, never a week before
    ("Revenue on Women's Day 20/10 vs the Monday before", "en", (dt.date(2026, 10, 20),) * 2,
     (dt.date(2026, 10, 19),) * 2),  # the latest Monday before it, never a week back
    ("Ngày Quốc khánh 2/9 có bao nhiêu lượt khách?", "vi", (dt.date(2026, 9, 2),) * 2, None),  # a holiday by its name
    ("best seller on Halloween", "en", (dt.date(2026, 10, 31),) * 2, None),
    ("Which category sold most on National Day?", "en", (dt.date(2026, 9, 2),) * 2, None),
    ("revenue per labour hour week by week since 3/11", "en", (dt.date(2026, 11, 3), dt.date(2026, 11, 15)), None),
    ("Avg daily revenue in the last 7 days vs the 7 days before that", "en",
     (dt.date(2026, 11, 8), dt.date(2026, 11, 14)), (dt.date(2026, 11, 1), dt.date(2026, 11, 7))),  # whole days
    ("doanh thu tuần trước so với tuần trước đó", "vi", (dt.date(2026, 11, 2), dt.date(2026, 11, 8)),
     (dt.date(2026, 10, 26), dt.date(2026, 11, 1))),  # the week before that one, never last week twice
    ("Tháng trước đồ uống lãi gộp được bao nhiêu?", "vi", (dt.date(2026, 10, 1), dt.date(2026, 10, 31)), None),  # "đồ"
    # (things), never "đó" (that one)
    ("doanh thu 5/11", "vi", (dt.date(2026, 11, 5),) * 2, None),  # a bare day and month after a figure
    ("dt 3/11 so với 2/11", "vi", (dt.date(2026, 11, 3),) * 2, (dt.date(2026, 11, 2),) * 2),
    ("revenue 5/11", "en", (dt.date(2026, 11, 5),) * 2, None),
    ("3 ngày trước bếp nướng ra món trung bình mấy phút", "vi", (dt.date(2026, 11, 12),) * 2, None),  # that day
    ("doanh thu 7 ngày qua so với 7 ngày trước", "vi", (dt.date(2026, 11, 9), dt.date(2026, 11, 15)),
     (dt.date(2026, 11, 2), dt.date(2026, 11, 8))),  # the 7 days before the first, never the day 7 days ago
    ("đầu tháng đến nay mỗi nhà cung cấp giao hàng mấy lần", "vi", (dt.date(2026, 11, 1), dt.date(2026, 11, 15)),
     None),  # since the month began, its "từ" unsaid
    ("First half of the month: how many orders were delivery?", "en", (dt.date(2026, 11, 1), dt.date(2026, 11, 15)),
     None),  # of this month
    ("Hotpot sales, last 7 days vs previous 7 days", "en", (dt.date(2026, 11, 9), dt.date(2026, 11, 15)),
     (dt.date(2026, 11, 2), dt.date(2026, 11, 8))),  # the 7 days before, never the same 7 days twice
    # the last day of a period said
    ("dt tu ngay 1 den 10 thang nay", "vi", (dt.date(2026, 11, 1), dt.date(2026, 11, 10)), None),  # to the 10th,
    ("doanh thu từ 1 đến 10 tháng 11", "vi", (dt.date(2026, 11, 1), dt.date(2026, 11, 10)), None),  # never to now
    ("doanh thu ngày 10 tháng này", "vi", (dt.date(2026, 11, 10), dt.date(2026, 11, 10)), None),
    ("revenue on the 20th of last month", "en", (dt.date(2026, 10, 20), dt.date(2026, 10, 20)), None),
    ("food cost % tháng này tính tới hôm qua là bao nhiêu", "vi", (dt.date(2026, 11, 1), dt.date(2026, 11, 14)),
     None),  # this month up to yesterday: never this month compared with yesterday
    ("Gross profit by category this month through yesterday", "en", (dt.date(2026, 11, 1), dt.date(2026, 11, 14)),
     None),
    ("Waste cost through the 10th", "en", (dt.date(2026, 11, 1), dt.date(2026, 11, 10)), None),  # never the 10th
    ("Delivery revenue through the 10th vs the same days last month", "en",
     (dt.date(2026, 11, 1), dt.date(2026, 11, 10)), (dt.date(2026, 10, 1), dt.date(2026, 10, 10))),
    ("dt thang nay ko tinh hom nay dc bn", "vi", (dt.date(2026, 11, 1), dt.date(2026, 11, 14)), None),  # today left
    ("Total sales this week excluding today", "en", (dt.date(2026, 11, 9), dt.date(2026, 11, 14)), None),  # out
    ("Revenue month to date, up to and including yesterday", "en", (dt.date(2026, 11, 1), dt.date(2026, 11, 14)),
     None),
    ("Doanh thu từ đầu tháng tính đến hết hôm qua là bao nhiêu?", "vi", (dt.date(2026, 11, 1),
                                                                       dt.date(2026, 11, 14)), None),
    ("Average check from the 1st to the 10th inclusive", "en", (dt.date(2026, 11, 1), dt.date(2026, 11, 10)), None),
])
def test_the_days_said_and_the_days_set_beside_them(layer, now, question, language, first, second) -> None:
    parsed = layer.parse(question, language=language, now=now)
    assert parsed.query is not None and parsed.query.time is not None, parsed.problem
    assert (parsed.query.time.start, parsed.query.time.end) == first
    compare = parsed.query.compare
    assert (None if compare is None else (compare.start, compare.end)) == second


def test_a_greeting_before_the_question_is_set_aside_and_shown(layer, now) -> None:
    parsed = layer.parse("Hi Aria, hope you are well! How many covers did we do last night?", language="en", now=now)
    assert parsed.query is not None, parsed.problem
    assert parsed.query.metrics[0] == "guests" and parsed.recognised[0].kind == "setting"
    # a setting that names data may narrow what follows: never set aside
    assert layer.parse("Table 12 complained last night. How long did each dish take?", language="en",
                       now=now).query is None


def test_since_an_hour_is_today(layer, now) -> None:
    parsed = layer.parse("how many orders since 6pm", language="en", now=now)
    assert parsed.query is not None and parsed.query.time is not None
    assert parsed.query.time.start == parsed.query.time.end == now.date()


@pytest.mark.parametrize(("question", "figure"), [("bao nhiêu bill trên một triệu hôm nay", "1000000"),
                                                  ("bao nhieu bill tren hai trieu hom qua", "2000000")])
def test_a_sum_said_in_words_is_a_bills_size(layer, now, question, figure) -> None:
    parsed = layer.parse(question, language="vi", now=now)
    assert parsed.query is not None, parsed.problem
    assert [(f.dimension, f.values, f.op) for f in parsed.query.filters] == [("order__bill_total", (figure,), ">")]


@pytest.mark.parametrize("question", ["doanh thu giao hàng tháng này so với cùng tháng năm ngoái",
                                      "luot khach thang nay vs cung thang nam ngoai"])
def test_the_same_month_last_year(layer, now, question) -> None:
    parsed = layer.parse(question, language="vi", now=now)
    assert parsed.query is not None and parsed.query.compare is not None, parsed.problem
    assert (parsed.query.compare.start, parsed.query.time.start) == (dt.date(2025, 11, 1), dt.date(2026, 11, 1))
    quarter = layer.parse("Doanh thu từ đầu quý đến giờ", language="vi", now=now)
    assert quarter.query is not None and quarter.query.time.start == dt.date(2026, 10, 1), quarter.problem


@pytest.mark.parametrize(("question", "days"), [("doanh thu mười ngày nay", 10), ("doanh thu bảy ngày nay", 7)])
def test_a_count_of_days_in_words_up_to_now(layer, now, question, days) -> None:
    parsed = layer.parse(question, language="vi", now=now)
    assert parsed.query is not None, parsed.problem
    assert parsed.query.time.start_at == now - dt.timedelta(days=days) and parsed.query.time.end_before == now


def test_a_day_and_month_after_vs_or_opening_the_question(layer, now) -> None:
    parsed = layer.parse("drink revenue on 28/10 vs 4/11", language="en", now=now)
    assert parsed.query is not None and parsed.query.compare is not None, parsed.problem
    assert (parsed.query.time.start, parsed.query.compare.start) == (dt.date(2026, 10, 28), dt.date(2026, 11, 4))
    opening = layer.parse("2/11 ca trưa bếp lạnh trễ mấy phiếu", language="vi", now=now)
    assert opening.query is not None and opening.query.time.start == dt.date(2026, 11, 2), opening.problem


@pytest.mark.parametrize("question", ["doanh thu 2 tháng nay", "doanh thu 2 thang nay", "2 tháng nay doanh thu"])
def test_a_count_of_months_up_to_now(layer, now, question) -> None:
    """"2 tháng nay": the last two months up to now, never the top 2 (but "ngày 5 tháng này", "bàn số 5 tháng này":
    a day, a table, of this month)."""
    parsed = layer.parse(question, language="vi", now=now)
    assert parsed.query is not None and parsed.query.limit is None, parsed.problem
    assert parsed.query.time.start_at == now - dt.timedelta(days=61) and parsed.query.time.end_before == now
    table = layer.parse("Bàn số 5 tháng này mang về bao nhiêu doanh thu?", language="vi", now=now)
    assert table.query is not None and table.query.time.start == dt.date(2026, 11, 1)


@pytest.mark.parametrize(("question", "days"), [  # on Sunday 15 Nov
    ("revenue on Tuesday of last week", (3, 3)),
    ("Dinner revenue on Tuesday of last week vs Tuesday of the week before?", (3, 3)),
    ("doanh thu tháng này tính đến hôm nay", (1, 15)),  # so far, never two periods
    ("doanh thu thứ 7 chủ nhật tuần trước", (7, 8)),  # Saturday and Sunday side by side: both, never the Sunday
    ("dt thu 7 cn tuan truoc", (7, 8)),
])
def test_a_said_weeks_weekday_and_a_period_up_to_today(layer, now, question, days) -> None:
    parsed = layer.parse(question, language="vi" if "doanh" in question else "en", now=now)
    assert parsed.query is not None, parsed.problem
    assert (parsed.query.time.start, parsed.query.time.end) == tuple(dt.date(2026, 11, d) for d in days)


@pytest.mark.parametrize(("question", "days"), [  # on Sunday 15 Nov
    ("Doanh thu thứ 7 và chủ nhật tuần trước?", (7, 8)),
    ("thứ 7 vs chủ nhật tuần trước dt chênh nhau bn", (7, 8)),
    ("dt thứ 7 so với chủ nhật tuần trước", (7, 8)),
    ("dt thứ 7 so với thứ 7 tuần trước", (14, 7)),  # the same weekday: yesterday, then the week before's
    ("dt thứ bảy với thứ 7 tuần trước", (14, 7)),
])
def test_two_weekdays_of_one_said_week_are_both_that_weeks(layer, now, question, days) -> None:
    parsed = layer.parse(question, language="vi", now=now)
    assert parsed.query is not None and parsed.query.compare is not None
    assert (parsed.query.time.start, parsed.query.compare.start) == tuple(dt.date(2026, 11, d) for d in days)


@pytest.mark.parametrize("question", ["hôm nay thu được bao nhiêu tiền mặt?", "hom nay thu duoc bao nhieu tien mat"])
def test_a_value_is_never_split_by_a_longer_phrase_of_words_that_mean_nothing(layer, now, question) -> None:
    parsed = layer.parse(question, language="vi", now=now)  # not "bao nhiêu tiền" then "mất": cash
    assert parsed.query is not None and [tuple(f.values) for f in parsed.query.filters] == [("CASH",)]
    assert parsed.query.metrics[0] == "payment_amount"


@pytest.mark.parametrize(("question", "metrics"), [
    ("Tuần trước lãi gộp được bao nhiêu, food cost chiếm mấy %?", ["gross_profit", "food_cost_pct"]),  # its rate
    ("Average shift length by role this month?", ["avg_shift_hours", "closed_shifts"]),
    ("What's the longest anyone's been waiting on a dish right now?", ["oldest_pending_wait"]),  # no ranking
    ("Tháng này ai đi làm nhiều ca nhất?", ["shifts_worked", "hours_worked"]),
    ("Hôm nay có bao nhiêu khách đặt bàn?", ["reservations", "guests_expected"]),  # the bookings, with their guests
    ("Tuần này bếp nướng ra bao nhiêu món?", ["tickets_ready"]),
    ("Tháng này có bao nhiêu đơn bị void?", ["void_orders"]),  # whole bills voided, not dish lines
    ("What's the average table turnover this week?", ["table_turnover"]),
    ("How's business today?", ["revenue", "completed_orders"]),
    ("Giá trị hàng tồn kho hiện tại là bao nhiêu?", ["stock_value"]),
    ("Bàn số 7 đang tạm tính bao nhiêu tiền?", ["open_subtotal"]),  # what the open bill comes to so far
    ("Quầy pha chế làm một ly trung bình mất mấy phút?", ["avg_prep_time"]),  # per cup, in minutes
    ("bep nuong gio con may phieu chua lam xong", ["pending_tickets"]),  # "giờ còn": now, never hours
    ("How many bills were paid with MoMo last night?", ["payments"]),  # bills paid by a method: the payments
    ("What's the current stock of Tôm sú?", ["stock_on_hand"]),
    ("Lúc này khu nào đang đông khách nhất?", ["seated_guests"]),  # guests right now: those seated
    ("Hôm qua nhận hàng của những nhà cung cấp nào?", ["deliveries"]),
    ("Payment method mix last week?", ["payment_amount"]),  # a mix: what was paid by each, with its share
    ("How much discount did we give out last week?", ["discounts"]),
    ("Tuần trước có mấy bill bị hoàn tiền, tổng hoàn bao nhiêu?", ["refunds", "refunded_amount"]),  # not every bill
    ("Food cost tuần trước chiếm bao nhiêu % doanh số bán món?", ["food_cost_pct"]),
    ("Which table got booked the most last month?", ["reservations"]),
    ("Tuần này bên mình có bao nhiêu đơn mang về?", ["completed_orders"]),
    ("Bill trung bình tuần trước khoảng bao nhiêu, tiền mỗi khách bao nhiêu?", ["avg_check", "avg_spend_per_guest"]),
    ("top 3 món bị hủy nhiều nhất tuần này", ["voided_lines"]),  # the dishes voided, ranked
    ("Hiện quán có bao nhiêu khách hạng bạc?", ["members"]),  # a tier's guests now: its members, not those seated
    ("Doanh thu từ khách đặt bàn trước tháng này?", ["revenue"]),  # the parties who booked
    ("Hôm nay có bao nhiêu khách đặt trước?", ["guests_expected"]),  # still the guests of the bookings
    ("Hàng tồn trong kho bây giờ trị giá bao nhiêu tiền tất cả?", ["stock_value"]),  # the stock, asked in money
    ("Tuần trước quán thu được bao nhiêu tiền, chạy được mấy bill?", ["revenue", "completed_orders"]),  # bills that
    # went through ("chạy được"), never the portions sold
    ("Which 5 dishes got voided the most this week?", ["voided_lines"]),  # the dishes, ranked by their voids
    ("How many hours did the floor staff put in yesterday, all together?", ["hours_worked"]),
    ("Did anyone sign up as a member today? How many?", ["new_customers"]),
    ("tuan nay moi ngay thu ve bao nhieu tien, tip bao nhieu", ["revenue", "tips"]),  # the takings asked too
    ("Net sales before VAT yesterday?", ["taxable_sales", "completed_orders"]),  # beside its bills, as revenue is
    ("Average ticket-to-table time per station last week?", ["avg_wait_time"]),
    ("Quầy pha chế làm mỗi ly trung bình mất mấy phút?", ["avg_prep_time"]),  # per cup, never each cup
    ("Tuần trước bếp nướng làm trung bình bao nhiêu phút một món, có đạt target không?", ["avg_prep_time"]),
])
def test_figures_said_in_other_words(layer, now, question, metrics) -> None:
    parsed = layer.parse(question, language="en" if question.isascii() else "vi", now=now)
    assert parsed.query is not None, (parsed.problem, parsed.unknown)
    assert parsed.query.metrics[:len(metrics)] == metrics


def test_a_verb_opening_a_new_clause_is_not_the_value_spelt_like_it(layer, now) -> None:
    parsed = layer.parse("Tuần trước từng bạn phục vụ chạy được bao nhiêu bill, mang về bao nhiêu doanh thu?",
                         language="vi", now=now)  # "mang về" (brought in) after the comma: never the takeaway orders
    assert parsed.query is not None and parsed.query.filters == []
    assert parsed.query.metrics[:2] == ["completed_orders", "revenue"]


@pytest.mark.parametrize(("question", "language"), [
    ("Top 5 món tăng mạnh nhất so với cùng kỳ tháng trước, tính theo số phần bán ra?", "vi"),
    ("Which menu categories are up or down versus the same point last month, and by how much?", "en"),
])
def test_the_same_point_last_month_alone_is_set_beside_this_month_so_far(layer, now, question, language) -> None:
    parsed = layer.parse(question, language=language, now=now)
    assert parsed.query is not None and parsed.query.time is not None and parsed.query.compare is not None, \
        parsed.problem
    assert (parsed.query.time.start, parsed.query.time.end) == (dt.date(2026, 11, 1), dt.date(2026, 11, 15))
    assert parsed.query.compare.start == dt.date(2026, 10, 1) and parsed.query.compare.end_before == \
        dt.datetime(2026, 10, 15, 19, 40, tzinfo=now.tzinfo)  # cut at the same moment
    assert parsed.query.change_amount  # "tăng mạnh nhất", "by how much": ranked or shown by the change
    lost = layer.parse("Which 5 dishes lost the most sales in VND compared with the same point last month?",
                       language="en", now=now)
    assert lost.query is not None and lost.query.order_by[0].descending is False and lost.query.limit == 5  # the falls
    versus = layer.parse("sales vs last week", language="en", now=now)  # this week so far, beside last week's
    assert versus.query is not None and versus.query.compare is not None and versus.query.time is not None
    assert (versus.query.time.start, versus.query.compare.start) == (dt.date(2026, 11, 9), dt.date(2026, 11, 2))
    whole = layer.parse("Doanh thu tháng trước thế nào?", language="vi", now=now)
    assert whole.query is not None and whole.query.compare is None  # last month said alone: itself


def test_what_moved_the_most_either_way_is_handed_over(layer, now) -> None:
    parsed = layer.parse("Food cost % by category last week versus the week before, and which categories moved the "
                         "most?", language="en", now=now)
    assert parsed.query is None and "up or down" in parsed.problem  # the rise or the fall: never one of them guessed


@pytest.mark.parametrize(("question", "descending"), [
    ("món nào tuần này bán giảm nhiều nhất so với tuần trước", False),
    ("món nào bán tăng nhiều nhất tháng này so với tháng trước", True),
])
def test_selling_less_or_more_is_ranked_by_the_change(layer, now, question, descending) -> None:
    parsed = layer.parse(question, language="vi", now=now)  # never by this period's portions
    assert parsed.query is not None and parsed.query.compare is not None
    assert [(o.by, o.descending) for o in parsed.query.order_by] == [("change", descending)]


def test_a_percent_beside_two_periods_is_their_change_in_percent(layer, now) -> None:
    parsed = layer.parse("doanh thu tuần này so với tuần trước bao nhiêu %", language="vi", now=now)
    assert parsed.query is not None and parsed.query.compare is not None and parsed.query.change
    amount = layer.parse("Doanh thu tuần này so với tuần trước tăng bao nhiêu?", language="vi", now=now)
    assert amount.query is not None and amount.query.change_amount and not amount.query.change
    for question in ("Doanh thu tháng này so với cùng kỳ tháng trước tăng hay giảm mấy %?",
                     "doanh thu thang 10 so voi thang 9 tang hay giam bao nhieu phan tram"):
        percent = layer.parse(question, language="vi", now=now)  # how many percent: the percent, not an amount too
        assert percent.query is not None and percent.query.change and not percent.query.change_amount


def test_a_yes_no_question_closed_by_chua_asks_whether_any(layer, now) -> None:
    parsed = layer.parse("hôm nay có món nào bị void chưa?", language="vi", now=now)
    assert parsed.query is not None and parsed.query.metrics[0] == "voided_lines"


@pytest.mark.parametrize("question", ["Cups sold for each drink last week?", "sales of each drink this month"])
def test_each_drink_is_each_of_the_drinks(layer, now, question) -> None:
    parsed = layer.parse(question, language="en", now=now)  # never every dish on the menu
    assert parsed.query is not None and parsed.query.group_by[:1] == ["menu_item__name_en"]
    assert [tuple(f.values) for f in parsed.query.filters] == [("DRINK",)]


@pytest.mark.parametrize(("question", "language", "metrics", "filters", "group_by", "limit"), [
    ("How many cooks worked yesterday?", "en", ["staff_worked"], [("CHF",)], [], None),  # the cooks, never a verb
    ("bao nhiêu đầu bếp đi làm hôm qua", "vi", ["staff_worked"], [("CHF",)], [], None),
    ("Tuần rồi ca nào khách bỏ về, hủy order nhiều nhất?", "vi", ["cancelled_orders"], [],  # that one shift
     ["metric_time__day", "shift__shift_code"], 1),
    ("what was the main reason for voids this week", "en", ["voided_lines", "voided_value"], [],  # never the mains
     ["order_item__void_reason"], None),
    ("Tháng này món tráng miệng bị hủy bao nhiêu lần, lý do là gì?", "vi", ["voided_lines", "voided_value"],  # voided
     [("DES",)], ["order_item__void_reason"], None),  # dishes, never the cancelled orders
    ("tuan nay ngay nao ban dat hang nhat vay", "vi", ["revenue"], [], ["metric_time__day"], 1),  # sold best, not bookings
    ("How many covers have we got booked for tomorrow night?", "en", ["reservations", "guests_expected"], [("D",)], [],
     None),  # the guests of the bookings, not those who ate
    ("tuan nay hai san can gio giao may chuyen, tong tien hang bao nhieu", "vi", ["deliveries", "supplier_spend"],
     [("Hải sản Cần Giờ",)], [], None),  # both asked: never the count dropped as the supplier's noun
    ("which promo code was used most this month", "en", ["promo_orders"], [], ["promotion__promo_code"], None),
    ("how much chicken did we use last week", "en", ["qty_used"], [("Free-range chicken",)], [], None),
    ("khách hạng vàng tuần này ghé mấy lần", "vi", ["member_visits"], [("GLD",)], [], None),
    ("For each payment method, how did October compare with September?", "en", ["payment_amount"], [],  # what was
     ["payment__method"], None),  # paid by each, not the number of payments
    ("how many orders are still open right now", "en", ["open_orders"], [], [], None),  # unpaid, served or not
    ("tuan nay khach den bao nhieu nguoi", "vi", ["guests"], [], [], None),
    ("how much did we pay the cooks last week", "en", ["labour_cost"], [("CHF",)], [], None),  # wages, never takings
    ("nhà cung cấp nào giao hàng nhiều lần nhất tháng này", "vi", ["deliveries"], [], ["supplier__name"], None),
    ("tháng trước nhập nguyên liệu nào nhiều tiền nhất", "vi", ["supplier_spend"], [], ["ingredient__name_vi"], 1),
    ("how many times did GIAM10 get used last week", "en", ["promo_orders"], [("GIAM10",)], [], None),
    ("how much does each dish cost to make", "en", ["menu_cost"], [], ["menu_item__name_en"], None),  # its cost,
    # never how long it takes to make
    ("ca phe muoi ban duoc bao nhieu ly", "vi", ["portions_sold"], [("Cà phê muối",)], [], None),  # salt, never ten
    ("khach hang vang thang nay bao nhieu nguoi", "vi", ["customers_served"], [("GLD",)], [], None),  # the tier's
    # customers, never the covers of their bills
    ("Which supplier delivered the most by value in October?", "en", ["deliveries"], [], ["supplier__name"], None),
    ("món nào giá bán cao nhất", "vi", ["menu_price"], [], ["menu_item__name_vi"], 1),  # "nào" ranks the dishes
    ("Which supplier do we spend the most with?", "en", ["supplier_spend"], [], ["supplier__name"], None),  # all time
    ("How much did we pay suppliers in October?", "en", ["supplier_spend"], [], [], None),
    ("hôm nay bán bao nhiêu ly nước", "vi", ["portions_sold"], [("DRINK",)], [], None),  # "bán bao nhiêu": sold
    ("hom nay ban bao nhieu ly nuoc", "vi", ["portions_sold"], [("DRINK",)], [], None),
    ("toi nay huy mon nao, ly do gi vay", "vi", ["voided_lines"], [("D",)],  # which dish, and why
     ["menu_item__name_vi", "order_item__void_reason"], None),
    ("Tuần này khách trả bằng gì nhiều nhất?", "vi", ["payment_amount"], [], ["payment__method"], None),
    ("Tháng 10 doanh thu chưa tính VAT là bao nhiêu vậy?", "vi", ["taxable_sales"], [], [], None),
    ("Which servers pulled in the most tips this month?", "en", ["tips"], [], ["order__server__full_name"], 5),
    ("Ca tối nay bạn phục vụ nào chạy nhiều bill nhất? Cho chị top 3.", "vi", ["completed_orders"], [("D",)],
     ["server__full_name"], 3),  # the bills, never the portions
    ("Tuần trước hao hụt nguyên liệu mất bao nhiêu tiền?", "vi", ["waste_cost"], [], [], None),
    ("Tháng này món bị void nhiều nhất của từng bếp là món nào?", "vi", ["voided_lines"], [],  # each station's top
     ["menu_item__station__name_vi", "menu_item__name_vi"], 1),
    ("How many bills have been voided since Monday?", "en", ["void_orders"], [], [], None),  # whole bills
    ("Who took home the most tips last night?", "en", ["tips"], [("D",)], ["order__server__full_name"], 5),
    ("How many beers and glasses of red wine did we sell last weekend?", "en", ["portions_sold"],  # each, listed
     [("Heineken beer", "Saigon Special beer", "Red wine (glass)")], ["menu_item__name_en"], None),
    ("Ngày nào trong tuần doanh thu cao nhất?", "vi", ["revenue"], [], ["order__weekday"], 1),  # never weekdays only
    ("Food cost tháng này bao nhiêu %?", "vi", ["food_cost_pct"], [], [], None),  # asked in %: its rate
    ("hom qua ban duoc bao nhieu bill", "vi", ["completed_orders"], [], [], None),  # "bán được bao nhiêu": the verb
    ("How much did we waste last month?", "en", ["waste_cost"], [], [], None),  # across items: what it cost
    ("how many staff on shift right now", "en", ["staff_on_shift"], [], [], None),  # never two figures run together
    ("how r we doing tonite", "en", ["revenue"], [("D",)], [], None),  # shorthand spelled out
    ("Tuần trước mỗi nhân viên làm bao nhiêu giờ, lương bao nhiêu?", "vi", ["hours_worked", "labour_cost"], [],
     ["staff__full_name"], None),  # "lương" (wages) is never "lượng" dropped
    ("lợi nhuận tháng trước", "vi", ["gross_profit"], [], [], None),  # as "profit": the gross profit
    ("How many orders used a discount code this week?", "en", ["promo_orders"], [], [], None),
    ("How much VAT do we owe for October?", "en", ["vat"], [], [], None),
    ("Tuần rồi mình bán được tổng cộng bao nhiêu tiền, được mấy bill?", "vi", ["revenue", "completed_orders"], [], [],
     None),  # money sold, never the portions
    ("top 5 drinks this wk by qty?", "en", ["portions_sold"], [("DRINK",)], ["menu_item__name_en"], 5),
    ("hqua co hd nao bi void ko, may cai", "vi", ["void_orders"], [], [], None),  # "hd": a bill
    ("hnay phuc vu dc bao nhieu ks roi", "vi", ["guests"], [], [], None),  # "ks": guests
    ("how many hrs did each bartender put in this week", "en", ["hours_worked"], [("BAR",)], ["staff__full_name"], None),
    ("Ba ngày tới mỗi ngày có bao nhiêu booking, dự kiến bao nhiêu khách?", "vi", ["reservations", "guests_expected"],
     [], ["metric_time__day"], None),
    ("How many hours has the kitchen crew clocked this week, station by station?", "en", ["hours_worked"],
     [("CHF",)], ["staff__station__name_en"], None),  # one split said twice
    ("What's the stock on the shelves worth right now, supplier by supplier?", "en", ["stock_value"], [],
     ["ingredient__supplier__name"], None),
    ("What were our three biggest sales days since we started?", "en", ["revenue"], [], ["metric_time__day"], 3),
    ("Which server is looking after the most tables right now?", "en", ["occupied_tables"], [], ["server__full_name"],
     5),  # the tables occupied now, counted for each server
    ("Bạn phục vụ nào đang ôm nhiều bàn nhất lúc này?", "vi", ["occupied_tables"], [], ["server__full_name"], 5),
    ("Tomorrow night's bookings by area - how many parties and covers?", "en", ["reservations", "guests_expected"],
     [("D",)], ["dining_table__area_code"], None),  # a night still to come: its bookings' parties and guests
    ("Food cost % by category for everything we sold last month", "en", ["food_cost_pct"], [],
     ["menu_item__category__name_en"], None),  # "everything we sold": all of it, never the portions
    ("How much did promo codes knock off bills last week? split by code pls", "en", ["discounts"], [],
     ["promotion__promo_code"], None),  # the codes said, then split by them
    ("ty le huy order theo khu vuc thang truoc", "vi", ["cancel_rate"], [], ["dining_table__area_code"], None),
    ("hom qua co bao nhieu phieu bep ra mon tre hon chi tieu", "vi", ["late_tickets"], [], [], None),
    ("Tháng này nước nào bán được nhiều ly nhất? Cho chị xem top 5 nha", "vi", ["portions_sold"], [("DRINK",)],
     ["menu_item__name_vi"], 5),  # "nước": the drinks, never the coconut milk or the fish sauce
    ("revenue for each dinner service this week", "en", ["revenue"], [("D",)], ["metric_time__day"], None),  # each
    ("How much have promo codes cost us in discounts this month?", "en", ["discounts"], [], [], None),  # all codes
    ("Tuần này bếp nào bị void món nhiều nhất? Cho anh số món với tiền luôn", "vi", ["voided_lines", "voided_value"],
     [], ["menu_item__station__name_vi"], None),  # "luôn" closing it: as well (stations: all, ranked)
    ("Tỷ lệ booking không tới tuần trước", "vi", ["no_show_rate"], [], [], None),
    ("Dạ cho em hỏi tuần này nhà mình có tổng cộng bao nhiêu booking, dự kiến bao nhiêu khách ạ?", "vi",
     ["reservations", "guests_expected"], [], [], None),  # "dạ": politeness
    ("Tuần này khách hủy bao nhiêu booking rồi?", "vi", ["cancelled_bookings"], [], [], None),  # never an order's
    ("Tuần này nguyên liệu nào hao hụt tốn tiền nhất? top 5 thôi", "vi", ["qty_wasted", "waste_cost"], [],
     ["ingredient__name_vi"], 5),  # "thôi" closing it: only
    ("Tháng này khuyến mãi giảm giá cho khách hết bao nhiêu tiền rồi?", "vi", ["discounts"], [], [], None),
    ("Which week has been our best for revenue since we started recording?", "en", ["revenue"], [],
     ["metric_time__week"], 1),  # all the data there is
    ("How many bar tickets have been fired each hour tonight?", "en", ["tickets"], [("BAR",), ("D",)],
     ["kitchen_ticket__hour_of_day"], None),
    ("Which drinks are barely selling this month? Give me the bottom 5.", "en", ["portions_sold"], [("DRINK",)],
     ["menu_item__name_en"], 5),  # the least sold first
    ("How are tomorrow's bookings spread across the hours?", "en", ["reservations"], [],
     ["reservation__hour_of_day"], None),
    ("Phục vụ nào đang giữ nhiều bàn nhất lúc này?", "vi", ["occupied_tables"], [], ["server__full_name"], 5),
    ("Lúc này mỗi bạn phục vụ đang giữ mấy bàn?", "vi", ["occupied_tables"], [], ["server__full_name"], None),
    ("tien tip tuan nay ban nao nhan nhieu nhat", "vi", ["tips"], [], ["order__server__full_name"], 5),  # a person
    # receives the tips: typed bare, "ban nao nhan" is "bạn nào", never "bàn nào" (a table)
    ("toi nay bep nao nhan nhieu phieu nhat", "vi", ["tickets"], [("D",)], ["station__name_vi"], None),
    ("Hôm nay bếp nướng nhận bao nhiêu phiếu order rồi?", "vi", ["tickets"], [("GRL",)], [], None),
    ("dt hom nay toi gio dc bao nhieu r e", "vi", ["revenue"], [], [], None),  # "e": em, typed short
    ("Tuần này món nào hay bị void nhất? cho xin top 5", "vi", ["voided_lines"], [], ["menu_item__name_vi"], 5),
    ("What's the card total so far today?", "en", ["payment_amount"], [("CARD",)], [], None),
    ("Tuần này mang về với giao hàng so với cùng mấy ngày tuần trước thì doanh thu tăng hay giảm bao nhiêu?", "vi",
     ["revenue"], [("TA", "DL")], ["order__order_type"], None),  # the same days of last week
    # the kitchen as a whole: never a split by station
    ("How many tickets has the kitchen fired tonight?", "en", ["tickets"], [("D",)], [], None),
    ("Giờ nào bếp chậm nhất tuần này?", "vi", ["avg_prep_time"], [], ["kitchen_ticket__hour_of_day"], 1),
    ("What hour is the kitchen slowest this week?", "en", ["avg_prep_time"], [], ["kitchen_ticket__hour_of_day"], 1),
    ("which kitchen station was slowest by hour yesterday", "en", ["avg_prep_time"], [],  # "by hour": a split,
     ["station__name_en", "station__target_prep_m", "kitchen_ticket__hour_of_day"], None),  # never what is counted
    # "each one" after a role or the staff: each of them
    ("Tháng này mấy bạn pha chế, mỗi người làm được bao nhiêu giờ?", "vi", ["hours_worked"], [("BAR",)],
     ["staff__full_name"], None),
    ("hôm nay mấy bạn phục vụ, mỗi bạn được bao nhiêu tip", "vi", ["tips"], [], ["order__server__full_name"], None),
    ("Hôm nay có mấy bill được giảm giá, tổng cộng giảm bao nhiêu tiền?", "vi", ["promo_orders", "discounts"], [], [],
     None),  # the discounted bills, never all of them
    ("What are the top 5 drinks people have ordered so far tonight?", "en", ["portions_sold"], [("DRINK",), ("D",)],
     ["menu_item__name_en"], 5),  # "ordered": a verb, never the status of a line not yet served
    ("How many gold members have we got?", "en", ["members"], [("GLD",)], [], None),
    ("Từ đầu tuần tới giờ có thêm mấy khách mới làm thẻ thành viên?", "vi", ["new_customers"], [], [], None),
    ("thang nay moi nha cung cap giao hang may chuyen, tong tien bao nhieu", "vi", ["deliveries", "supplier_spend"],
     [], ["supplier__name"], None),
    ("What's everything in the storeroom worth right now at standard cost?", "en", ["stock_value"], [], [], None),
    ("only takeaway orders today, how many", "en", ["completed_orders"], [("TA",)], [], None),
    ("What have we been paying per kilo for beef tenderloin, week by week since the start of October?", "en",
     ["avg_purchase_price"], [("Beef tenderloin",)], ["metric_time__week"], None),
    ("Tháng 10 mỗi chương trình khuyến mãi kéo về bao nhiêu doanh thu?", "vi", ["revenue"], [],
     ["promotion__name_vi"], None),
    ("How much did we give away in birthday discounts last month?", "en", ["discounts"], [("SINHNHAT",)], [], None),
    ("Average prep time for each hotpot this month?", "en", ["avg_prep_time"], [("HOTPOT",)],
     ["menu_item__name_en"], None),  # a ticket's dish is one hop away, its category two
    ("This month, what's the average tip per bill for each payment method?", "en",
     ["avg_tip_per_bill", "paid_bills", "tips"], [], ["payment__method"], None),  # per bill: a split bill is one
    ("Tháng này bill có khuyến mãi với bill không có, trung bình mỗi bill bao nhiêu tiền?", "vi", ["avg_check"], [],
     ["order__has_promotion"], None),
    ("Which 5 tables have waited longest on average for their food during tonight's dinner service?", "en",
     ["avg_wait_time"], [("D",)], ["order__dining_table__table_no"], 5),
    ("hôm qua tối bao nhiêu khách", "vi", ["guests"], [("D",)], [], None),  # "tối" with its marks: the evening,
    # never "tới" (came) read as a verb and dropped
    ("5 slowest dishes to reach the table last night", "en", ["avg_wait_time"], [("D",)], ["menu_item__name_en"], 5),
    ("How long do parties on the terrace stay, on average, this month?", "en", ["seated_parties", "avg_minutes_seated"],
     [("OU",)], [], None),
    # one figure in percent of another, however the percent is said
    ("Chi phí nhân công tuần trước bằng bao nhiêu % doanh thu?", "vi", ["labour_cost_pct"], [], [], None),
    ("Chi phí nhân công hôm nay bao nhiêu, so với doanh thu hôm nay là mấy %?", "vi", ["labour_cost_pct"], [], [],
     None),
    ("Tháng 10 food cost của từng nhóm món là bao nhiêu phần trăm so với doanh số?", "vi", ["food_cost_pct"], [],
     ["menu_item__category__name_vi"], None),
    ("Giá vốn món ăn tuần trước chiếm bao nhiêu % doanh số, chia theo từng danh mục?", "vi", ["food_cost_pct"], [],
     ["menu_item__category__name_vi"], None),
    # ranked, and nothing else to rank: the rows the value's word names ("gold-tier members": the members)
    ("Who are the top 5 gold-tier members by spend this month?", "en", ["revenue"], [("GLD",)],
     ["customer__full_name"], 5),
    ("Which 3 terrace tables made us the most money this month?", "en", ["revenue"], [("OU",)],
     ["dining_table__table_no"], 3),
    ("Which station was slowest during dinner service last night?", "en", ["avg_prep_time"], [("D",)],
     ["station__name_en", "station__target_prep_m"], None),  # "dinner service": the dinner shift, no split
    ("Tháng trước bao nhiêu phần trăm hóa đơn có xài mã giảm giá?", "vi", ["promo_rate"], [], [], None),
    ("tuan nay bao nhieu phan tram bill co dung ma giam gia", "vi", ["promo_rate"], [], [], None),  # % before a count
    ("Tips per server for last night's dinner shift?", "en", ["tips", "paid_bills"], [("D",)],  # each one's bills
     ["order__server__full_name"], None),
    ("Tips by payment method this week?", "en", ["tips", "payments"], [], ["payment__method"], None),
    ("How many glasses of red wine did we pour last month?", "en", ["portions_sold"], [("Red wine (glass)",)], [],
     None),
    ("How many drinks did we sell in the 3 to 5pm happy hour each day this week?", "en", ["portions_sold"],
     [("DRINK",), ("15", "16")], ["metric_time__day"], None),  # "happy hour" said with its hours: those hours
    ("Happy hour 3h-5h chiều hôm qua bar bán được bao nhiêu ly?", "vi", ["portions_sold"], [("BAR",), ("15", "16")],
     [], None),
    ("What was the table turn rate in each area yesterday?", "en", ["area_table_turnover"], [], ["dining_table__area_code"], None),
    ("How much did promo discounts cost us last week?", "en", ["discounts"], [], [], None),
    ("bay gio trong quan dang co bao nhieu ban co khach, tong cong may nguoi", "vi",  # "mấy người": the guests
     ["occupied_tables", "seated_guests"], [], [], None),
    ("How many tables have guests at them right now, and how many people is that?", "en",
     ["occupied_tables", "seated_guests"], [], [], None),
    ("Mấy bạn pha chế tuần này mỗi người làm bao nhiêu giờ, tiền lương bao nhiêu?", "vi", ["hours_worked"],
     [("BAR",)], ["staff__full_name"], None),  # "mỗi người" after the period: each bartender
    ("hom nay bar bi huy bao nhieu ly nuoc roi", "vi", ["voided_lines"], [("BAR",), ("DRINK",)], [], None),
    ("How much Heineken went out this weekend?", "en", ["portions_sold"], [("Heineken beer",)], [], None),
    ("Revenue per seat for each seating area last month", "en", ["area_revenue_per_seat"], [],  # a ratio, never a
     ["dining_table__area_code"], None),  # split by the number of seats
    ("How many covers are booked for tomorrow?", "en", ["guests_expected", "reservations"], [], [], None),  # and bookings
    ("Which drinks have been voided the most this month?", "en", ["voided_lines"], [("DRINK",)], ["menu_item__name_en"],
     None),  # "which drinks": every drink, ranked
    ("Drinks as a percentage of food and beverage sales this month?", "en", ["dish_sales"], [("DRINK",)], [], None),
    ("How many covers did each area of the floor do this week?", "en", ["guests"], [], ["dining_table__area_code"], None),
    ("What % of our gross sales went on discounts last month?", "en", ["discount_rate"], [], [], None),  # the
    ("Từ đầu tháng 10 tới giờ, mỗi tuần tiền giảm giá chiếm bao nhiêu % tiền hàng?", "vi",  # discounts over the
     ["discounts", "discount_rate"], [], ["metric_time__week"], None),  # bills' subtotal
    ("What percent of yesterday's bills had a discount on them?", "en", ["promo_rate"], [], [], None),
    ("Lẩu Thái tuần này bếp ra món trung bình mấy phút?", "vi", ["avg_prep_time"], [("Lẩu Thái",)], [], None),
    ("Tuần trước trung bình mỗi ca tối phục vụ bao nhiêu khách?", "vi", ["avg_daily_guests"], [("D",)], [], None),
    ("hom qua tip duoc bao nhieu, tach rieng tien mat voi the giup minh", "vi", ["tips"], [("CASH", "CARD")],
     ["payment__method"], None),  # "tách riêng": each of the values listed
    ("Which dishes were slowest on the wok last week? Top 5 by average cook time.", "en", ["avg_prep_time"],
     [("WOK",)], ["menu_item__name_en"], 5),  # "by average cook time": what the ranking is by
    ("How long are drinks taking at the bar tonight, on average?", "en", ["avg_prep_time"], [("BAR",), ("D",)],
     ["station__name_en"], None),  # "taking" with "how long": the time, never the takings
    ("ty le bill bi huy hoac void tung tuan trong 6 tuan gan day", "vi", ["cancel_rate"], [], ["metric_time__week"],
     None),  # the rate of the count said next, whatever else was marked first
    ("Tỷ lệ khách đặt bàn mà không tới theo từng khu trong tháng 10?", "vi", ["no_show_rate"], [],
     ["dining_table__area_code"], None),
    ("Over the last four full weeks, which day of the week has averaged the most revenue?", "en", ["avg_daily_revenue"],
     [], ["order__weekday"], 1),
    ("How much beef did we go through last week, and what did it cost?", "en", ["qty_used", "usage_cost"],
     [("Beef tenderloin",)], ["ingredient__name_en"], None),  # "what did it cost": the quantity's money beside it
    ("What did we throw away this week, and what did it cost us?", "en", ["qty_wasted", "waste_cost"], [],
     ["ingredient__name_en"], None),  # "what did we throw away": each item
    ("Deliveries per supplier last week, and what did they cost?", "en", ["deliveries", "supplier_spend"], [],
     ["supplier__name"], None),
    ("Yesterday, how much revenue did each shift make per labour hour?", "en", ["revenue", "revenue_per_labour_hour"],
     [], ["shift__shift_code"], None),
    ("Over the last 4 full weeks, which day of the week is our weakest on average?", "en", ["avg_daily_revenue"], [],
     ["order__weekday"], 1),  # a weekday on average: per day of it
    ("Tính trung bình 4 tuần gần nhất thì thứ mấy quán đông khách nhất?", "vi", ["avg_daily_guests"], [],
     ["order__weekday"], 1),
    ("Giờ đang có bao nhiêu bàn có khách ngồi?", "vi", ["occupied_tables", "seated_guests"], [], [], None),
    ("How many guests are sitting in the restaurant right now?", "en", ["seated_guests", "occupied_tables"], [], [],
     None),  # a count of the moment: with the other count of the same tables
    ("how many tickets went out tonight", "en", ["tickets"], [("D",)], [], None),  # the tickets named, not sold
    ("How many walk-in guests without a booking did we seat yesterday?", "en", ["guests"], [("walk-in",)], [], None),
    ("Tuần này khách bỏ về không ăn ở khu nào nhiều nhất?", "vi", ["cancelled_orders"], [], ["dining_table__area_code"], None),
    ("Tháng 10 chi phí lương theo giờ của từng bộ phận là bao nhiêu?", "vi", ["labour_cost"], [], ["staff__role_code"], None),
    ("Tuần này khung giờ nào quầy bar ra nước chậm nhất?", "vi", ["avg_prep_time"], [("BAR",), ("DRINK",)],
     ["kitchen_ticket__hour_of_day"], 1),  # "nào" asks which hour, not which bar
    ("How long did each station take to get dishes out at lunch today, vs their target?", "en",
     ["avg_prep_time", "tickets_ready"], [("L",)], ["station__name_en", "station__target_prep_m"], None),
    ("Lunch vs dinner, what was the average prep time at each station last week, next to the target?", "en",
     ["avg_prep_time"], [("L", "D")], ["station__name_en", "station__target_prep_m"], None),
    ("Hôm nay từng bếp ra món trung bình mất mấy phút, có kịp chuẩn không?", "vi", ["avg_prep_time"], [],
     ["station__name_vi", "station__target_prep_m"], None),  # each station beside its target
    ("Tháng trước giảm giá hết bao nhiêu, bằng mấy % tiền hàng trước giảm?", "vi", ["discounts", "discount_rate"], [],
     [], None),  # the bills' subtotal before discounts, said short
    ("Tháng này phòng VIP mỗi lượt khách ngồi trung bình bao lâu?", "vi", ["avg_minutes_seated"], [("VP",)], [], None),
    ("thang nay moi booking trung binh may nguoi, chia theo khu", "vi", ["avg_party_size"], [],
     ["dining_table__area_code"], None),  # "mỗi booking", "mỗi lượt khách": what the average is of
    ("nguyen lieu nao chi con du dung duoi 3 ngay", "vi", ["days_of_stock_left"], [], ["ingredient__name_vi"],
     None),  # "dưới 3 ngày": a condition in days, never a period
    ("Slowest station at getting food out to the table this week?", "en", ["avg_wait_time"], [], ["station__name_en"],
     None),  # out to the table: served, not only cooked (the stations ranked in full)
    ("how many tickets did the wok station push out yesterday", "en", ["tickets"], [("WOK",)], [], None),
    ("Which server served the most guests this week?", "en", ["guests"], [], ["server__full_name"], 5),  # "served"
    # after a person is what they did, never the dishes' status (and never their revenue)
    ("tuan nay co bao nhieu booking doan tu 8 nguoi tro len", "vi", ["reservations"], [("8",)], [], None),  # a group
    # said before its size is the party itself
    ("Which servers racked up the most voided items this month?", "en", ["voided_lines"], [], ["order__server__full_name"],
     5),
    ("How has our food cost percentage moved month by month?", "en", ["food_cost_pct"], [], ["metric_time__month"],
     None),
    ("Hiện giờ bếp còn bao nhiêu món chưa ra cho khách?", "vi", ["dishes_waiting"], [], [], None),  # not yet served
    ("Set gia đình 2-3 người tháng này bán được bao nhiêu set rồi?", "vi", ["portions_sold"],
     [("Set gia đình 2-3 người",)], [], None),  # the numbers of a dish's name are the name's, never a top 2
    ("What was the average wait for food at dinner on each night this weekend?", "en", ["avg_wait_time"], [("D",)],
     ["metric_time__day"], None),  # each night: a row each
    ("How long do dine-in parties stay in each area, lunch vs dinner, this month?", "en", ["avg_minutes_seated"],
     [("L", "D")], ["dining_table__area_code"], None),  # the parties are who stays, not a count of their own
    ("How long are guests waiting for food at each station today, on average?", "en", ["avg_wait_time"], [],
     ["station__name_en"], None),
    ("guest count by daypart yesterday", "en", ["guests"], [], ["shift__shift_code"], None),
    ("What's our ATV this week?", "en", ["avg_check"], [], [], None),
    ("Khách hàng nào chi tiêu nhiều nhất tháng này?", "vi", ["revenue"], [], ["customer__full_name"], 1),  # which
    # customer, never the customers served
    ("Doanh thu trung bình mỗi khách hôm qua", "vi", ["avg_spend_per_guest"], [], [], None),
    ("Which customer spent the most this month?", "en", ["revenue"], [], ["customer__full_name"], 1),
    ("Who's our best customer?", "en", ["revenue"], [], ["customer__full_name"], 1),  # never the servers
    ("Which bartenders are working tonight?", "en", ["clocked_in_at"], [("BAR",), ("D",)], ["staff__full_name"], None),
    ("tiền mặt hôm qua bao nhiêu", "vi", ["payment_amount"], [("CASH",)], [], None),  # one value asked how much: its
    ("How much did the birthday discount cost us last month?", "en", ["promo_orders"], [("SINHNHAT",)], [], None),  # figure
    ("How did last week compare to the week before on revenue?", "en", ["revenue"], [], [], None),  # "to": no bowl
    ("hom qua ban duoc bao nhieu to pho bo", "vi", ["portions_sold"], [("Phở bò tái nạm",)], [], None),  # "tô": a bowl
    ("Hôm qua ai đứng ca trưa?", "vi", ["clock_in_time", "clock_out_time"], [("L",)], ["staff__full_name"], None),
    ("Which servers worked last night?", "en", ["clock_in_time", "clock_out_time"], [("SRV",), ("D",)],
     ["staff__full_name"], None),  # each one who did (the role a filter)
    ("Tuần này mỗi bạn phục vụ đứng bao nhiêu bill?", "vi", ["completed_orders"], [], ["server__full_name"],
     None),  # "đứng" bills: handles them
    ("Top 5 dishes in delivery orders last week", "en", ["portions_sold"], [("DL",)], ["menu_item__name_en"], 5),
    ("top 5 dishes for delivery last week", "en", ["portions_sold"], [("DL",)], ["menu_item__name_en"], 5),  # never
    # the deliveries from suppliers
    ("Is revenue higher at lunch or dinner this month?", "en", ["revenue"], [("L", "D")], ["shift__shift_code"],
     None),  # "higher ... or": the two side by side
    ("How many people came in last night?", "en", ["guests"], [("D",)], [], None),  # people: never the money
    ("Which payment method is used the most?", "en", ["payments"], [], ["payment__method"], None),  # never stock
    ("How much VAT did we charge last week?", "en", ["vat"], [], [], None),
    ("How many walk-ins today?", "en", ["seated_parties"], [("walk-in",)], [], None),  # the parties that walked in
    ("walk-ins vs bookings last week", "en", ["seated_parties"], [("booked", "walk-in")], ["order__booked"], None),
    ("Who visits us most often?", "en", ["completed_orders"], [], ["customer__full_name"], 1),  # never the staff
    ("Who are our most frequent customers?", "en", ["completed_orders"], [], ["customer__full_name"], None),
    ("Who are our top customers?", "en", ["revenue"], [], ["customer__full_name"], 5),  # never the servers
    ("Who spent the most this month?", "en", ["revenue"], [], ["customer__full_name"], 1),  # a guest's spending
    ("bếp nướng tuần này trung bình mấy phút, so với chỉ tiêu?", "vi", ["avg_prep_time"], [("GRL",)],
     ["station__name_vi"], None),  # "chỉ tiêu" (its target), never "chi tiêu" (spending)
    ("How much did each guest spend last night?", "en", ["avg_spend_per_guest"], [("D",)], [], None),  # on average
    ("hom qua co may booking ma khach khong toi", "vi", ["no_shows"], [], [], None),  # "mà" typed bare, never "mã"
    ("How many bills did managers void this week?", "en", ["void_orders"], [], [], None),  # who voided: no filter
    ("Tháng này có bao nhiêu hóa đơn bị quản lý hủy?", "vi", ["void_orders"], [], [], None),  # a manager voids
    ("Weekly revenue trend for the last 8 weeks", "en", ["revenue"], [], ["metric_time__week"], None),  # the series
    ("What's the price of a Heineken?", "en", ["menu_price"], [("Heineken beer",)], ["menu_item__name_en"], None),
    ("How many dishes are ready at the pass?", "en", ["dishes_at_pass"], [], [], None),
    ("Tối nay còn bao nhiêu bàn trống?", "vi", ["free_tables", "table_count"], [], [], None),  # now, beside all
    ("Where are we at on VAT for this week's sales so far?", "en", ["vat", "taxable_sales"], [], [], None),  # the
    # sales are what it is charged on, never a figure of their own
    ("tiền thu từng phương thức hôm qua", "vi", ["payment_amount"], [], ["payment__method"], None),
    ("refunds this month, count and amount", "en", ["refunds", "refunded_amount"], [], [], None),  # "amount": money
    ("No-show rate by party size last month", "en", ["no_show_rate"], [], ["reservation__booked_party_size"], None),
    ("What's the number one drink this week?", "en", ["portions_sold"], [("DRINK",)], ["menu_item__name_en"], 1),
    ("Revenue yesterday, and guests too", "en", ["revenue", "guests"], [], [], None),  # "too": as well
    ("Give me gross sales, discounts, net before VAT and the VAT for each month so far.", "en",
     ["gross_sales", "discounts", "taxable_sales", "vat"], [], ["metric_time__month"], None),
    ("Tuần này khuyến mãi giảm cho khách tổng cộng bao nhiêu tiền?", "vi", ["discounts"], [], [], None),  # all of
    # them: a verb names the figure
    ("How much did we pay Hải sản Cần Giờ last month?", "en", ["supplier_spend"], [("Hải sản Cần Giờ",)], [], None),  # goods
    ("Who is our biggest supplier this month?", "en", ["supplier_spend"], [], ["supplier__name"], None),  # bought from it
    ("tỷ lệ đơn hủy tuần này", "vi", ["cancel_rate"], [], [], None),  # the rate of what "đơn hủy" counts
    ("ti le mon tre theo bep thang nay", "vi", ["late_ticket_rate"], [], ["station__name_vi"], None),  # "món trễ"
    ("Tỷ lệ khách quen tháng này là bao nhiêu?", "vi", ["returning_rate"], [], [], None),  # of the members served
    ("What was our repeat customer rate last month?", "en", ["returning_rate"], [], [], None),
    ("Top delivery dishes last week", "en", ["portions_sold"], [("DL",)], ["menu_item__name_en"], 5),  # the dishes of
    # delivery orders (never the supplier deliveries), the first few
    ("top drinks this month", "en", ["portions_sold"], [("DRINK",)], ["menu_item__name_en"], 5),  # "top" of a plural
    ("How many deliveries came in this week?", "en", ["deliveries"], [], [], None),  # deliveries: from suppliers
    ("How much revenue did we actually make yesterday?", "en", ["revenue"], [], [], None),  # "actually": no meaning
    ("October close: gross sales, discounts, VAT and what guests paid", "en",  # what they paid: the bills' totals
     ["gross_sales", "discounts", "vat", "revenue"], [], [], None),
    ("Which 5 dishes are slowest to come out of the kitchen this month?", "en", ["avg_prep_time"], [],
     ["menu_item__name_en"], 5),  # coming out of the kitchen: the prep time
    ("Hôm nay đã nhận những hàng gì từ nhà cung cấp?", "vi", ["supplier_spend"], [], ["ingredient__name_vi"], None),
    # "hàng" (goods) is never "hạng" (a tier)
    ("revenue on fridays last month", "en", ["revenue"], [("5",)], [], None),  # every Friday of it (one is a period)
    ("doanh thu các ngày thứ 6 tháng này", "vi", ["revenue"], [("5",)], [], None),
    ("friday and saturday revenue last month", "en", ["revenue"], [("5", "6")], ["order__weekday"], None),  # each
    ("bookings on saturdays this month", "en", ["reservations"], [("6",)], [], None),  # the day booked for
    ("Giá trị trung bình 1 bill ca tối tuần này là bn?", "vi", ["avg_check"], [("D",)], [], None),  # each bill's,
    # never the top day
    ("Có khách thành viên nào sinh nhật trong tuần này không?", "vi", ["birthdays"], [], ["customer__full_name"],
     None),  # which members: the birthday list, never the birthday promotion
    ("which server has the highest check average MTD", "en", ["avg_check"], [], ["server__full_name"], 5),
    ("whats the PPA for dinner tonight", "en", ["avg_spend_per_guest"], [("D",)], [], None),  # per person average
    ("avg turn time for dinner", "en", ["avg_minutes_seated"], [("D",)], [], None),  # how long a table is held
    ("repeat guests this month", "en", ["returning_customers"], [], [], None),
    ("what are we low on rn", "en", ["stock_on_hand"], [], ["ingredient__name_en"], None),  # below reorder level
    ("cafe sua da ban bao nhieu ly trong 7 ngay qua", "vi", ["portions_sold"], [("Cà phê sữa đá",)], [], None),
    ("best day ever for sales", "en", ["revenue"], [], ["metric_time__day"], 1),  # "ever": all the data
    ("ty le thanh toan tien mat chiem bao nhieu", "vi", ["payment_amount"], [("CASH",)], [], None),  # cash's share
    ("hom nay ai lam ca toi", "vi", ["clock_in_time"], [("D",)], ["staff__full_name"], None),  # who worked the shift
    ("revenue excl VAT last week", "en", ["taxable_sales"], [], [], None),
    ("new loyalty signups so far this month", "en", ["new_customers"], [], [], None),
    ("revenue per table in the garden last saturday", "en", ["revenue"], [("OU",)], ["dining_table__table_no"], None),
    ("voided items from yesterday by reason", "en", ["voided_lines"], [], [], None),  # "from" a period: of it
    ("who voided the most items last night", "en", ["voided_lines"], [("D",)], ["order__server__full_name"], 5),  # staff,
    # the items counted
    ("Ca tối qua ai void món nhiều nhất vậy?", "vi", ["voided_lines"], [("D",)], ["order__server__full_name"], 5),
    ("the longest anyone waited for food last night", "en", ["longest_wait"], [("D",)], [], None),
    ("avg bill size dine-in vs takeaway vs delivery last week", "en", ["avg_check"], [("DI", "TA", "DL")],
     ["order__order_type"], None),
    ("Tuần này trạm nào trong bếp ra món chậm nhất?", "vi", ["avg_prep_time"], [], ["station__name_vi"], None),
    ("thang nay bao nhieu khach no show", "vi", ["no_shows"], [], [], None),
    ("Khu sân vườn tối qua phục vụ bao nhiêu bàn vậy?", "vi", ["dine_in_orders"], [("OU",), ("D",)], [], None),
    ("tu thu 2 den gio sl khach la bao nhieu roi", "vi", ["guests"], [], [], None),  # "số lượng khách", never "so"
    ("Khách hay gọi đồ uống gì nhất?", "vi", ["portions_sold"], [("DRINK",)], ["menu_item__name_vi"], 1),  # what the
    # guests often order: never a split by customer
    ("Chi phí nhân viên tháng này bao nhiêu?", "vi", ["labour_cost"], [], [], None),
    ("sales last night vs the night before", "en", ["revenue"], [("D",)], [], None),
    ("Pho bo or bun cha, which sold more last week?", "en", ["portions_sold"], [("Phở bò tái nạm", "Bún chả Hà Nội")],
     [], None),  # the two side by side
    ("What's the average prep time at the grill station during the lunch rush?", "en", ["avg_prep_time"],
     [("GRL",), ("L",)], ["station__name_en"], None),
    ("bếp nướng còn mấy món chưa xong", "vi", ["pending_tickets"], [("GRL",)], [], None),  # not done: waiting
    ("có bao nhiêu nguyên liệu đang dưới mức cần đặt hàng lại", "vi", ["low_stock_ingredients"], [], [], None),
    ("how are the drinks doing this week", "en", ["dish_sales", "portions_sold"], [("DRINK",)], [], None),  # how
    ("lẩu thái tháng này thế nào", "vi", ["portions_sold", "dish_sales"], [("Lẩu Thái",)], [], None),  # it did: what
    ("phở bò tuần này bán ra sao", "vi", ["portions_sold"], [("Phở bò tái nạm",)], [], None),  # ranks it
    ("worst performing category last week", "en", ["dish_sales"], [], ["menu_item__category__name_en"], 1),
    ("top 3 performing dishes", "en", ["portions_sold"], [], ["menu_item__name_en"], 3),
    ("tuần này bán bao nhiêu đơn mang về", "vi", ["completed_orders"], [("TA",)], [], None),  # "bán" beside the
    ("nhân viên nào bán nhiều nhất tháng này", "vi", ["revenue"], [], ["server__full_name"], 5),  # orders: theirs
    ("Bún chả tuần trước bán hơn hay kém tuần này?", "vi", ["portions_sold"], [("Bún chả Hà Nội",)], [], None),
    ("quán có bao nhiêu nhân viên mỗi vị trí", "vi", ["employees"], [], ["staff__role_code"], None),  # the staff
    ("How many servers do we currently have on the team?", "en", ["employees"], [("SRV",)], [], None),  # employed
    ("hôm qua có mấy đầu bếp đi làm", "vi", ["staff_worked"], [("CHF",)], [], None),  # over a period: who worked
    ("tuần trước từng người làm bao nhiêu giờ", "vi", ["hours_worked"], [], ["staff__full_name"], None),  # each one
    ("ca trưa hôm qua ai làm", "vi", ["clock_in_time", "clock_out_time"], [("L",)], ["staff__full_name"], None),
    ("hôm nay ai đi làm ca tối", "vi", ["clock_in_time", "clock_out_time"], [("D",)], ["staff__full_name"], None),
    ("Break down sales on 12 Nov 2026 by lunch and dinner shift.", "en", ["revenue"], [("L", "D")],  # "lunch",
     ["shift__shift_code"], None),  # a shift's own word, never the office lunch combo
    ("How many Saigon beers did we sell last weekend?", "en", ["portions_sold"], [("Saigon Special beer",)], [],
     None),  # "beers": the noun of the one beer named, not every beer
    ("bia Saigon tuần trước bán được bao nhiêu", "vi", ["portions_sold"], [("Bia Saigon Special",)], [], None),
    ("Bia Sài Gòn hôm qua bán được bao nhiêu chai?", "vi", ["portions_sold"], [("Bia Saigon Special",)], [], None),
    ("Delivery revenue this week, not counting cancelled orders", "en", ["revenue"], [("DL",)], [], None),  # never
    ("revenue this week excluding voided bills", "en", ["revenue"], [], [], None),  # counted: nothing more said
    ("Which dessert is the least popular?", "en", ["portions_sold"], [("DES",)], ["menu_item__name_en"], 1),
    ("Which table generated the most revenue this month?", "en", ["revenue"], [], ["dining_table__table_no"], 1),
    ("Noodle dishes vs rice dishes this month, which sells more?", "en", ["portions_sold"], [("NOODLE", "RICE")],
     ["menu_item__category__cat_code"], None),
    ("How did the terrace do last night", "en", ["revenue"], [("OU",), ("D",)], [], None),  # how a value did
    ("How did dine-in, takeaway and delivery each do last week compared with the week before?", "en", ["revenue"],
     [("DI", "TA", "DL")], ["metric_time__week", "order__order_type"], None),  # the order types, never the
    # suppliers' deliveries
    ("tinh hinh ban hang hnay sao roi", "vi", ["revenue"], [], [], None),
    ("So sánh ca trưa với ca tối tuần này về số bill và doanh thu", "vi", ["completed_orders", "revenue"],
     [("L", "D")], ["shift__shift_code"], None),  # "về": regarding
    ("Tổng giá trị hàng nhập về trong tháng trước là bao nhiêu?", "vi", ["supplier_spend"], [], [], None),
    ("Trung bình mỗi bàn có mấy khách trong tháng này?", "vi", ["avg_party_size_dine_in"], [], [], None),
    ("Ca tối khách ngồi một bàn trung bình bao lâu?", "vi", ["avg_minutes_seated"], [("D",)], [], None),
    ("Trung bình mỗi đơn ở khu ngoài trời có mấy khách?", "vi", ["guests_per_order"], [("OU",)], [], None),  # the
    ("guests per order last week", "en", ["guests_per_order"], [], [], None),  # guests per order, not the check
    ("com tam thang nay ban dc bao nhieu suat", "vi", ["portions_sold"], [("Cơm tấm sườn bì chả",)], [], None),
    ("hey Aria, how many covers year to date?", "en", ["guests"], [], [], None),
    ("doanh thu đêm qua", "vi", ["revenue"], [("D",)], [], None),  # last night: its dinner
    ("how many bowls of beef pho did we sell yesterday?", "en", ["portions_sold"],  # what an English name starts
     [("Beef pho with rare steak and flank",)], [], None),  # with, before what it comes with
    ("how many iced coffees sold today so far", "en", ["portions_sold"], [("Iced coffee with condensed milk",)], [],
     None),
    ("Which dessert customer like most this month?", "en", ["portions_sold"], [("DES",)], ["menu_item__name_en"], 1),
    ("Cho tôi biết mười món ăn bán chạy nhất trong ba mươi ngày vừa qua, tính theo số phần bán ra.", "vi",
     ["portions_sold"], [], ["menu_item__name_vi"], 10),  # "ba mươi ngày": 30 days
    ("Tôi muốn so sánh doanh thu đơn mang về của tuần này với tuần trước.", "vi", ["revenue"], [("TA",)], [], None),
    ("Kitchen station which one is slowest yesterday?", "en", ["avg_prep_time"], [], ["station__name_en"], None),
    ("Xin cho biết trong tháng trước có bao nhiêu khách hàng mới đăng ký làm thành viên.", "vi", ["new_customers"],
     [], [], None),  # signing up as members: the new customers alone
    ("Which table area make most money last month? indoor, terrace, VIP or bar?", "en", ["revenue"],
     [("IN", "OU", "VP", "BR")], ["dining_table__area_code"], None),  # the area of the tables, not each table
    ("How many orders were opened after 10pm this month?", "en", ["completed_orders"],
     [tuple(str(h) for h in range(22, 24))], [], None),
    ("How many coffees did we sell before noon today?", "en", ["portions_sold"],
     [("Salted cream coffee", "Iced coffee with condensed milk"), tuple(str(h) for h in range(12))], [], None),
    ("How many hours did cashiers log in total this week?", "en", ["hours_worked"], [("CSH",)], [], None),
    ("How many pho and iced coffee combos went out yesterday?", "en", ["portions_sold"],
     [("Beef pho and iced coffee combo",)], [], None),
    ("how many seasonal dishes are on the menu", "en", ["active_menu_items"], [("true",)], [], None),  # the
    # seasonal dishes are those dishes, never a split by seasonal or not
    ("Một nồi lẩu Thái tốn bao nhiêu tiền nguyên liệu?", "vi", ["menu_cost"], [("Lẩu Thái",)], [], None),
    ("how much gross profit did we make last month", "en", ["gross_profit"], [], [], None),  # "did we make": the
    ("How much net revenue before tax did we make last month?", "en", ["taxable_sales"], [], [], None),  # verb
    ("beer and coffee sales this month together", "en", ["dish_sales"],  # the groups summed, when said
     [("Heineken beer", "Saigon Special beer", "Salted cream coffee", "Iced coffee with condensed milk")], [], None),
    ("tuan nay chi Bui Thanh Hoa lam duoc bao nhieu gio", "vi", ["hours_worked"], [("Bùi Thanh Hoa",)], [], None),
    ("Which ingredients will run out first at the current rate", "en", ["days_of_stock_left"], [],  # "chị", never
     ["ingredient__name_en"], None),  # "chi" (to spend), before a name; the rate said of the stock's own window
    ("Which ingredients will run out first if we keep using them like the last 7 days?", "en",
     ["days_of_stock_left"], [], ["ingredient__name_en"], None),
    ("Trung bình mỗi ngày bán được bao nhiêu ly cà phê sữa đá?", "vi", ["avg_daily_portions", "days_sold"],
     [("Cà phê sữa đá",)], [], None),  # a dish's portions per day it sold on
    ("tb 1 ngay ban dc bn to pho bo", "vi", ["avg_daily_portions"], [("Phở bò tái nạm",)], [], None),
    ("sl goi cuon ban dc thang nay", "vi", ["portions_sold"], [("Gỏi cuốn tôm thịt",)], [], None),  # "sl" typed
    # bare: số lượng, never wages
    ("Xếp hạng các món lẩu theo số lượng bán", "vi", ["portions_sold"], [("HOTPOT",)], ["menu_item__name_vi"],
     None),  # a ranking: every row, never the top one
    ("Which hour of the day brings in the most orders?", "en", ["completed_orders"], [],
     ["order__hour_of_day"], 1),  # the orders it brings, never its money
    ("now how many table have customer?", "en", ["occupied_tables"], [], [], None),
    ("How many guests are currently seated in the restaurant?", "en", ["seated_guests"], [], [], None),
    ("Which grill cook worked the most hours last week?", "en", ["hours_worked"], [("GRL",), ("CHF",)],
     ["staff__full_name"], 5),  # the cook asked, never the station
    ("Average number of visits per member in the last 90 days", "en", ["visits_per_customer"], [], [], None),
    ("How many salted coffees did we sell last week?", "en", ["portions_sold"], [("Salted cream coffee",)], [], None),
    ("Break yesterday's dinner shift down by hour - orders and revenue", "en", ["completed_orders", "revenue"],
     [("D",)], ["order__hour_of_day"], None),
    ("Tháng trước doanh thu từ thành viên chia theo hạng thường, bạc, vàng là bao nhiêu?", "vi", ["revenue"],
     [("member",), ("REG", "SIL", "GLD")], ["customer__tier"], None),  # the member bills by tier, never by customer
    ("Tháng này khách đặt bàn trước với khách không đặt bàn, bill trung bình bên nào cao hơn?", "vi", ["avg_check"],
     [("booked", "walk-in")], ["order__booked"], None),
    ("Which drink makes us the most money per glass?", "en", ["menu_margin"], [("DRINK",)], ["menu_item__name_en"], 1),
    ("How many tickets are waiting at the bar right now, and how long has the oldest been sitting there?", "en",
     ["pending_tickets", "oldest_pending_wait"], [("BAR",)], [], None),
    ("tuan nay nl nao hao hut nhieu nhat", "vi", ["qty_wasted"], [], ["ingredient__name_vi"], 1),  # "nl": nguyên liệu
    ("top 5 kh chi nhieu nhat thang nay", "vi", ["revenue"], [], ["customer__full_name"], 5),  # "kh": khách
    ("Were any avocado smoothies voided today?", "en", ["voided_lines"], [("Avocado smoothie",)], [], None),
    ("Khung giờ nào trong ngày quầy bar nhận nhiều phiếu nhất?", "vi", ["tickets"], [("BAR",)],
     ["kitchen_ticket__hour_of_day"], 1),
    ("today we have how many bill cancel", "en", ["cancelled_orders"], [], [], None),
    ("booking cancel today how many", "en", ["cancelled_bookings"], [], [], None),
    ("Khách hạng bạc chi tiêu trung bình mỗi lần đến là bao nhiêu?", "vi", ["avg_check"], [("SIL",)], [], None),
    ("Tổng giá trị hàng hao hụt tháng 10 là bao nhiêu tiền?", "vi", ["waste_cost"], [], [], None),
    ("Which bartender worked the most dinner shifts this month?", "en", ["shifts_worked"], [("BAR",), ("D",)],
     ["staff__full_name"], 5),  # the dinner shifts counted, never a list of them
    ("tuan nay bn mon bi huy vi het hang, mon nao nhieu nhat", "vi", ["voided_lines"], [("Hết nguyên liệu",)],
     ["menu_item__name_vi"], 1),  # "hết hàng": out of stock, never a loyalty tier ("hạng")
    ("doanh thu hôm nay chỉ tính mang về và giao hàng", "vi", ["revenue"], [("TA", "DL")], [], None),  # one row
    ("revenue today, takeaway and delivery only", "en", ["revenue"], [("TA", "DL")], [], None),
    ("doanh thu tối qua sau 9h", "vi", ["revenue"], [("D",), ("21", "22", "23")], [], None),  # the evening's 9
    ("hom nay bep void bao nhieu phieu roi", "vi", ["voided_tickets"], [], [], None),  # tickets, never items
    ("How many plates are sitting at the pass waiting to go out?", "en", ["dishes_at_pass"], [], [], None),
    ("Hôm qua bếp nào ra món chậm hơn thời gian mục tiêu?", "vi", ["late_tickets"], [], ["station__name_vi"],
     None),
    ("What did spoilage cost us yesterday?", "en", ["waste_cost"], [], [], None),
    ("Sáng nay nhập bao nhiêu ký rau muống, giá nhập bao nhiêu?", "vi", ["qty_received", "avg_purchase_price"],
     [("kg",), ("Rau muống",)], ["ingredient__name_vi"], None),
    ("So sánh thời gian ra món trung bình của từng bếp giữa ca trưa và ca tối tuần trước", "vi", ["avg_prep_time"],
     [("L", "D")], ["station__name_vi"], None),
    ("khu trong nha hay ngoai troi dong hon", "vi", ["guests"], [("IN", "OU")], ["dining_table__area_code"], None),
    ("Khu ngoài trời tối nay có đông không?", "vi", ["guests"], [("OU",), ("D",)], [], None),  # "đông": crowded,
    # never "đồng" (the currency)
    ("What is the revenue per guest tonight?", "en", ["avg_spend_per_guest"], [("D",)], [], None),
    ("What are our busiest hours?", "en", ["completed_orders"], [], ["order__hour_of_day"], None),  # by orders, as
    ("what was the busiest day last week", "en", ["completed_orders"], [], ["metric_time__day"], 1),  # examples.yaml
    ("Which promo code is most popular?", "en", ["promo_orders"], [], ["promotion__promo_code"], None),  # its uses
    ("Tình hình quán tuần này", "vi", ["revenue"], [], [], None),
    ("Compare this week with last week", "en", ["revenue"], [], [], None),  # two periods, nothing named: revenue
    ("How's the Lẩu Thái doing this week compared with last week?", "en", ["portions_sold"], [("Lẩu Thái",)], [],
     None),
    ("Ai là khách chi tiêu nhiều nhất?", "vi", ["revenue"], [], ["customer__full_name"], 1),  # "ai là": the customer
    ("Từ 21h trở đi tối qua có bao nhiêu đơn mang về?", "vi", ["completed_orders"],
     [("D",), ("TA",), ("21", "22", "23")], [], None),  # from 9 pm onwards
    ("Which hotpot has the best margin per pot?", "en", ["menu_margin"], [("HOTPOT",)], ["menu_item__name_en"], 1),
    ("phuc vu nao ban dc nhieu tien nhat hnay", "vi", ["revenue"], [], ["server__full_name"], 5),  # which server, never
    ("phục vụ nào có doanh thu cao nhất hôm nay", "vi", ["revenue"], [], ["server__full_name"], 5),  # the role's
    ("Món nào đang bán chạy?", "vi", ["portions_sold"], [], ["menu_item__name_vi"], None),  # selling well, not "on sale"
    ("Doanh thu buổi sáng tháng này", "vi", ["revenue"], [tuple(str(h) for h in range(12))], [], None),  # before noon
    ("revenue in the mornings last week", "en", ["revenue"], [tuple(str(h) for h in range(12))], [], None),
    ("Doanh thu buổi sáng (trước 11h) tuần này", "vi", ["revenue"], [tuple(str(h) for h in range(11))], [], None),
    ("how many orders came in before 11 this morning", "en", ["completed_orders"], [tuple(str(h) for h in range(11))],
     [], None),
    ("What was our total wage bill last month?", "en", ["labour_cost"], [], [], None),
    ("Báo cáo nhanh hôm qua", "vi", ["revenue"], [], [], None),
    ("What were net sales before tax last month?", "en", ["taxable_sales"], [], [], None),
    ("doanh thu chưa tính thuế tháng trước", "vi", ["taxable_sales"], [], [], None),
    ("How many people are booked in for tonight?", "en", ["guests_expected"], [("D",)], [], None),
    ("Có bao nhiêu đơn được mở sau 22h trong tuần này?", "vi", ["completed_orders"], [("22", "23")], [], None),
    ("Quầy bar hôm nay pha được bao nhiêu ly?", "vi", ["portions_sold"], [("BAR",)], [], None),
    ("hôm nay có ai gọi lẩu thái không", "vi", ["portions_sold"], [("Lẩu Thái",)], [], None),  # anyone, never who
    ("ngay mai co ai dat ban khong", "vi", ["reservations"], [], [], None),
    ("What's the cancellation rate for Saturday dinner bookings this month?", "en", ["booking_cancel_rate"],
     [("6",), ("D",)], [], None),  # a booking's, never an order's
    ("tỷ lệ hủy đặt bàn theo khu tháng trước", "vi", ["booking_cancel_rate"], [], ["dining_table__area_code"], None),
    ("waste cost oct top 10 ingredients", "en", ["waste_cost"], [], ["ingredient__name_en"], 10),  # October
    ("last wk vs wk before revenue", "en", ["revenue"], [], [], None),
    ("ti le gia von tren dt thang truoc bn %", "vi", ["food_cost_pct"], [], [], None),
    ("dt truoc thue tung tuan thang 10", "vi", ["taxable_sales"], [], ["metric_time__week"], None),
    ("tỷ lệ đơn mang về tháng này", "vi", ["completed_orders"], [("TA",)], [], None),  # of the orders, not the money
    ("Hôm nay có bao nhiêu đơn dùng mã khuyến mãi?", "vi", ["promo_orders"], [], [], None),
    ("Only counting dine-in, what was the average check yesterday?", "en", ["avg_check"], [("DI",)], [], None),
    ("Hiện nhà hàng còn bao nhiêu nhân viên chưa nghỉ việc?", "vi", ["employees"], [], [], None),  # still employed
    ("how many orders used a promotion last week", "en", ["promo_orders"], [], [], None),
    ("What was the total value of waste last month, broken down by ingredient?", "en", ["waste_cost"], [],
     ["ingredient__name_en"], None),  # its value, never the quantity first
    ("tháng này nhập thịt bò mấy lần", "vi", ["receipt_lines"], [("Thịt bò thăn",)], [], None),  # the times
    ("món nào ra món lâu nhất tuần này", "vi", ["avg_prep_time"], [], ["menu_item__name_vi"], 1),  # as "chậm nhất"
    ("ca trưa hay ca tối nhiều khách hơn", "vi", ["guests"], [("L", "D")], ["shift__shift_code"], None),  # more crowded
    ("What's our margin on a roasted milk tea?", "en", ["menu_margin"], [("Roasted milk tea",)], [], None),  # one's
    ("Big group booking (more than 8 people) this week, show me", "en", ["reservations"], [("8",)], [], None),
    ("Món nào có tỷ lệ giá vốn trên giá bán cao nhất?", "vi", ["menu_food_cost_pct"], [], ["menu_item__name_vi"], 1),
    ("So tiền mặt hôm nay với hôm qua", "vi", ["payment_amount"], [("CASH",)], [], None),  # "so": compare
    ("doanh thu các bàn 6 người trở lên tháng này", "vi", ["revenue"], [("6",)], [], None),  # never table 6
    ("what's the average price of our desserts", "en", ["avg_menu_price"], [("DES",)], [], None),  # the menu's
    ("How much morning glory did we use last week?", "en", ["qty_used"], [("Morning glory",)], [], None),  # rau muống
    ("may ngay toi co bao nhieu booking nhom tu 8 nguoi tro len", "vi", ["upcoming_bookings"], [("8",)], [], None),
    ("Tuần trước mỗi bàn quay vòng được mấy lượt?", "vi", ["table_turnover"], [], [], None),
    ("What did gold members order most last month?", "en", ["portions_sold"], [("GLD",)], ["menu_item__name_en"], 1),
    ("tuan truoc bnhiu khach dat ban ma ko den", "vi", ["no_shows"], [], [], None),  # "bnhiu": bao nhiêu
    ("Giờ này còn bao nhiêu nhân viên chưa chấm công ra về?", "vi", ["staff_on_shift"], [], [], None),
    ("Which servers still have unpaid bills open, and how much is outstanding per server?", "en",
     ["open_orders", "open_subtotal"], [], ["server__full_name"], None),
    ("Súp cua với súp bắp gà tuần này bán được bao nhiêu chén?", "vi", ["portions_sold"], [("Súp cua", "Súp bắp gà")],
     ["menu_item__name_vi"], None),  # "chén": a bowl
    ("How many dishes were voided this week because we ran out of ingredients?", "en", ["voided_lines"],
     [("Hết nguyên liệu",)], [], None),
    ("No-show rate on bookings by member tier", "en", ["no_show_rate"], [], ["customer__tier"], None),
    ("What share of portions sold are combos?", "en", ["portions_sold"], [("true",)], [], None),  # of the portions
    ("what share of payments were cash", "en", ["payment_amount"], [("CASH",)], [], None),  # of the amount (ex-026)
    ("What share of October's payments came in as cash, card and e-wallet?", "en", ["payment_amount"],
     [("CASH", "CARD", "E_WALLET")], ["payment__method_group"], None),  # "came in": what was paid (payments named)
    ("what's the avg discount per bill on each promo code this month?", "en", ["avg_discount"], [],
     ["promotion__promo_code"], None),
    ("Mỗi đơn dùng khuyến mãi trung bình được giảm bao nhiêu tiền?", "vi", ["avg_discount"], [], [], None),
    ("tu thang 9 toi gio moi ma giam gia duoc dung bao nhieu don, trung binh moi don giam bao nhieu", "vi",
     ["promo_orders", "avg_discount"], [], ["promotion__promo_code"], None),  # the average discount per bill: never
    # the average check beside the discounts
    ("toi qua khach cho mon lau hon hay nhanh hon toi thu 7 tuan truoc", "vi", ["avg_wait_time"], [("D",)], [],
     None),  # "lâu hơn" typed bare: longer, never "lẩu" (the hotpots)
    ("Tỷ lệ món bị void trên tổng số món được gọi tháng này là bao nhiêu?", "vi", ["void_rate"], [], [], None),
    ("ty le tip tren dt ca toi tuan nay", "vi", ["tip_rate"], [("D",)], [], None),
    ("Labour % of sales, lunch vs dinner, lst week.", "en", ["labour_cost_pct"], [("L", "D")], ["shift__shift_code"],
     None),
    ("Which has been our best week since September?", "en", ["revenue"], [], ["metric_time__week"], 1),
    ("Has the grill missed target on any tickets in the last hour?", "en", ["late_tickets"], [("GRL",)],
     ["station__name_en"], None),  # the condition said first, then the bare noun of its rows: never all tickets
    ("Any gold-tier guests in the house right now?", "en", ["seated_guests"], [("GLD",)], [], None),
    ("Có nhóm khách nào từ 6 người trở lên đang ngồi không?", "vi", ["seated_guests"], [("6",)], [], None),  # the
    # parties of 6 or more seated now, never the customers split
    ("How many of tonight's bookings have been seated so far?", "en", ["seated_bookings"], [("D",)], [], None),
    ("Bàn nào đang trống?", "vi", ["free_tables"], [], ["dining_table__table_no"], None),  # "trống" with its marks
    ("Hiện có bao nhiêu bàn đang mở bill?", "vi", ["occupied_tables"], [], [], None),
    ("thang 10 khach hang vang, bac, thuong trung binh moi nguoi den an may lan", "vi", ["visits_per_customer"],
     [("GLD", "SIL", "REG")], ["customer__tier"], None),  # "thường" last of the tiers listed: a tier, never a verb
    ("Cancelled vs no-show bookings in the last 30 days", "en", ["cancelled_bookings", "no_shows"], [], [], None),
    # the cancelled ones are a figure of their own beside the no-shows, never the no-shows read as cancelled
    ("Bếp nào ra món nhanh nhất tuần trước?", "vi", ["avg_prep_time"], [], ["station__name_vi"], None),  # cooking time
    ("Busiest hour of the day on Saturdays last month", "en", ["completed_orders"], [("6",)], ["order__hour_of_day"], 1),
    ("Tỷ lệ thanh toán tiền mặt, thẻ, ví điện tử tuần trước là bao nhiêu?", "vi", ["payment_amount"],
     [("CASH", "CARD", "E_WALLET")], ["payment__method_group"], None),  # "điện tử tuần trước": never "từ" (since)
    ("Đơn giao hàng hôm nay so với cùng ngày tuần trước", "vi", ["completed_orders"], [("DL",)], [], None),
    ("Revenue over the last seven Saturdays", "en", ["revenue"], [("6",)], [], None),
    ("Mỗi hđ tb có mấy món, tháng này?", "vi", ["items_per_order"], [], [], None),
    ("How many bookings never showed yesterday?", "en", ["no_shows"], [], [], None),
    ("Khu trong nhà còn mấy bàn trống, là bàn số mấy?", "vi", ["free_tables"], [("IN",)], ["dining_table__table_no"],
     None),  # "bàn số mấy": which tables, never their count alone
    ("Tháng 9 bạn nào làm nhiều ca nhất?", "vi", ["shifts_worked"], [], ["staff__full_name"], 5),  # "bạn": who
    ("Which day of the week do people use promo codes the most?", "en", ["promo_orders"], [],
     ["order__weekday"], 1),  # the people do what is counted; the day asked is one day, whatever "codes" says
    ("How long do dine-in parties sit at lunch compared with dinner this week?", "en", ["avg_minutes_seated"],
     [("L", "D")], ["shift__shift_code"], None),
    ("How many times did each area turn its tables yesterday?", "en", ["area_table_turnover"], [],
     ["dining_table__area_code"], None),
    ("How many dine-in parties walked out before eating this month, by area?", "en", ["cancelled_orders"], [],
     ["dining_table__area_code"], None),
    ("Khách hạng bạc với hạng vàng tháng này, nhóm nào chi nhiều hơn?", "vi", ["revenue"], [("SIL", "GLD")],
     ["customer__tier"], None),  # "nhóm nào": which of the two named
    ("phong vip vs ngoai troi thang nay ben nao dt cao hon", "vi", ["revenue"], [("VP", "OU")],
     ["dining_table__area_code"], None),
    ("tối nay đang có bao nhiêu khách ngồi trong quán", "vi", ["seated_guests"], [("D",)], [], None),  # seated now
    ("Open tables per server right now?", "en", ["occupied_tables"], [], ["server__full_name"], None),
    ("quick q how many hours did Do Huu Binh work last week", "en", ["hours_worked"], [("Đỗ Hữu Bình",)], [], None),
    ("tổng tip tối wa bao nhiêu vậy", "vi", ["tips"], [("D",)], [], None),  # "wa": qua, typed on a phone
    ("hôm qua bếp nướng có bao nhiêu ticket trễ", "vi", ["late_tickets"], [("GRL",)], [], None),
    ("most ordered noodle dish in October", "en", ["portions_sold"], [("NOODLE",)], ["menu_item__name_en"], 1),
    ("Những bàn nào đợi món quá 20 phút rồi?", "vi", ["dishes_waiting"], [("20",)], ["order__dining_table__table_no"],
     None),  # waiting so far ("rồi"), never the average wait of dishes served
    ("Bàn nào đang phải đợi món lâu nhất?", "vi", ["dishes_waiting"], [], ["order__dining_table__table_no"], 1),
    ("khách nào đến hơn 5 lần trong tháng 10", "vi", ["completed_orders"], [], ["customer__full_name"], None),
    # their visits over 5, never the guests of their bills summed
    ("sl bò lúc lắc tuần này bn", "vi", ["portions_sold"], [("Bò lúc lắc",)], [], None),  # a dish's quantity: portions
    # "came more than N times": each customer's visits (bills), never the guests or the staff "who" would be
    ("which customers visited more than 5 times last month", "en", ["completed_orders"], [], ["customer__full_name"],
     None),
    ("guests who came in more than 2 times", "en", ["completed_orders"], [], ["customer__full_name"], None),
    ("khach den hon 3 lan trong 30 ngay qua la ai", "vi", ["completed_orders"], [], ["customer__full_name"], None),
    # a bill's own total as the condition: those bills counted ("1,5 triệu", "₫1,500,000", "100k" read as money)
    ("Tháng 10 có bao nhiêu hóa đơn trên 1,5 triệu?", "vi", ["completed_orders"], [("1500000",)], [], None),
    ("How many takeaway orders under 100k last week?", "en", ["completed_orders"], [("TA",), ("100000",)], [], None),
    ("Bills over ₫1,500,000 yesterday.", "en", ["completed_orders"], [("1500000",)], [], None),
    ("orders with only 1 guest today", "en", ["completed_orders"], [("1",)], [], None),  # that many, never a top 1
    ("Khách ca trưa tháng 10 so với tháng 9 tăng hay giảm bao nhiêu?", "vi", ["guests"], [("L",)], [], None),
    ("How much have we been spending on supplies each month since September?", "en", ["supplier_spend"], [],
     ["metric_time__month"], None),
    ("tien tip tu 1/11 toi nay theo tung nhan vien", "vi", ["tips"], [], ["order__server__full_name"], None),  # "từ
    # 1/11 tới nay": from a day until now, never the hours 1 to 11 pm
    ("ban so 7 toi qua tu 7h den 9h goi nhung mon gi", "vi", ["portions_sold"], [("D",), ("7",), ("19", "20")],
     ["menu_item__name_vi"], None),  # "tối qua từ 7h đến 9h": the evening's hours
    ("Thời gian chờ món trung bình khung 19h-20h tối nay là bao nhiêu phút?", "vi", ["avg_wait_time"],
     [("D",), ("19",)], [], None),  # the "tối" of "tối nay" is the day, never the hours' half
    ("Bookings per week and how many of them were no-shows.", "en", ["reservations", "no_shows"], [],
     ["metric_time__week"], None),  # asked after "and how many": a figure of its own beside the bookings
    ("Số lượt đặt bàn mỗi tuần trong tháng 10 và bao nhiêu lượt không đến", "vi", ["reservations", "no_shows"], [],
     ["metric_time__week"], None),
    ("tỷ lệ thanh toán bằng thẻ tháng 10", "vi", ["payment_amount"], [("CARD",)], [], None),  # the card's share
    ("doanh thu vi dien tu thang truoc", "vi", ["payment_amount"], [("E_WALLET",)], [], None),  # "tu" after "dien",
    # typed bare: "điện tử", never "từ tháng trước"
    ("trung binh moi ngay ban dc bao nhieu don trong thang 10", "vi", ["avg_daily_orders"], [], [], None),
    ("Chi phí nguyên vật liệu của món đã bán chiếm bao nhiêu % doanh thu tháng 10?", "vi", ["food_cost_pct"], [], [],
     None),
    ("Tháng trước food cost từng nhóm món là bao nhiêu %?", "vi", ["food_cost_pct"], [],
     ["menu_item__category__name_vi"], None),  # a figure asked in % far after it: its rate
    ("bia saigon voi heineken thang nay loai nao ban nhieu hon", "vi", ["portions_sold"],
     [("Bia Saigon Special", "Bia Heineken")], ["menu_item__name_vi"], None),  # "bán" typed bare after "nào": sold
    ("Hàng tồn kho hiện giờ trị giá bao nhiêu tiền?", "vi", ["stock_value"], [], [], None),
    ("How long are lunch tables staying seated each day this week?", "en", ["avg_minutes_seated"], [("L",)],
     ["metric_time__day"], None),
    ("Average party size on bookings this month and the no-show count", "en",
     ["avg_party_size", "reservations", "no_shows"], [], [], None),  # "and the no-show count": a figure of its own
    ("nhan vien nao ban nhieu nhat tuan nay, phuc vu may don", "vi", ["completed_orders"], [], ["server__full_name"],
     5),  # "nào bán nhiều nhất" typed bare: selling, never a split by table
    ("Tips yesterday plus the number of bills that had a tip", "en", ["tips", "tipped_bills"], [], [], None),
    ("Revenue from the VIP rooms this month along with the covers there", "en", ["revenue", "guests"], [("VP",)], [],
     None),  # "along with" lists a figure; only "ordered along with" pairs dishes
    ("tom rang me bi huy may lan thang nay", "vi", ["voided_lines"], [("Tôm rang me",)], [], None),  # a dish voided
    ("Chạo tôm tháng này bị hủy mấy phần?", "vi", ["voided_lines"], [("Chạo tôm",)], [], None),  # (a period between)
    ("Sườn heo hiện còn tồn bao nhiêu ký?", "vi", ["stock_on_hand"], [("Sườn heo",), ("kg",)], ["ingredient__name_vi"],
     None),
    ("How many kg of Avocados are left?", "en", ["stock_on_hand"], [("kg",), ("Avocados",)], ["ingredient__name_en"],
     None),
    ("top 5 mon khach dat giao hang nhieu nhat tuan nay", "vi", ["portions_sold"], [("DL",)], ["menu_item__name_vi"],
     5),  # "khách đặt giao hàng": ordered for delivery, never a booking
    # a set is a combo, never a unit of portions; a combo's own name says "set" of itself
    ("How many set lunches did we sell each day last week?", "en", ["portions_sold"], [("COMBO",), ("L",)], ["metric_time__day"], None),
    ("bán được bao nhiêu set trưa tuần này", "vi", ["portions_sold"], [("COMBO",), ("L",)], [], None),
    ("Set gia đình 2-3 người tháng này bán được bao nhiêu set rồi?", "vi", ["portions_sold"], [("Set gia đình 2-3 người",)], [], None),
    # a staff member called by a given name that one person alone has
    ("How many bills did Yến handle yesterday?", "en", ["completed_orders"], [("Huỳnh Đức Yến",)], [], None),
    ("Yen toi qua phuc vu may ban", "vi", ["dine_in_orders"], [("Huỳnh Đức Yến",), ("D",)], [], None),
    # bookings "coming up" are those still to come; those that "have arrived" ("đã tới") were seated
    ("How many gold members have a booking coming up?", "en", ["upcoming_bookings"], [("GLD",)], [], None),
    ("Tối nay có bao nhiêu bàn đặt trước đã tới rồi?", "vi", ["seated_bookings"], [("D",)], [], None),
    ("bookings tonight that have arrived", "en", ["seated_bookings"], [("D",)], [], None),
    # "bàn 5 chờ món": table 5 waiting (never a top 5; "bàn 8 chỗ" is a size); rooms "in use", tables "occupied"; "có
    # giảm so với": the fall, never a discount
    ("Bàn 5 chờ món bao lâu rồi?", "vi", ["dishes_waiting"], [("5",)], [], None),
    ("How many VIP rooms are in use tonight?", "en", ["occupied_tables"], [("VP",), ("D",)], [], None),
    ("How many tables on the terrace are occupied?", "en", ["occupied_tables"], [("OU",)], [], None),
    ("Đơn giao hàng hôm nay có giảm so với hôm qua không?", "vi", ["completed_orders"], [("DL",)], [], None),
    ("số đơn hôm nay giảm bao nhiêu so với hôm qua", "vi", ["completed_orders"], [], [], None),
    # a share of the orders of a value is of the orders, never of the revenue
    ("Share of delivery orders this month", "en", ["completed_orders"], [("DL",)], [], None),
    ("Percentage of lunch orders that are takeaway", "en", ["completed_orders"], [("L",), ("TA",)], [], None),
    # tips and discounts on average per day: over the days with sales
    ("Tiền boa trung bình mỗi ngày trong tháng 10", "vi", ["avg_daily_tips"], [], [], None),
    ("trung bình mỗi ngày giảm giá bao nhiêu tháng này", "vi", ["avg_daily_discounts"], [], [], None),
    # "the loyalty program" names no figure; "từng ngày thứ 2 đến thứ 6": each day of that span
    ("How many people joined the loyalty program this week?", "en", ["new_customers"], [], [], None),
    ("Cho mình xem doanh thu ca trưa từng ngày thứ 2 đến thứ 6 tuần trước", "vi", ["revenue"], [("L",)], ["metric_time__day"], None),
    ("Từ chủ nhật tuần trước tới hôm qua có mấy khoản hoàn tiền, tổng bao nhiêu?", "vi", ["refunds"], [], [], None),
    # "ca này", "this shift": today's shift in progress (dinner, on the clock of the tests)
    ("Ca này có bao nhiêu đơn mang về rồi?", "vi", ["completed_orders"], [("D",), ("TA",)], [], None),
    ("How much cash have we taken so far this shift?", "en", ["payment_amount"], [("CASH",), ("D",)], [], None),
    ("What's pending at the grill right now?", "en", ["pending_tickets"], [("GRL",)], [], None),
    # "tới giờ có": so far today, never the "giờ có" of a state right now (the guests seated)
    ("Ca tối nay tới giờ có bao nhiêu khách", "vi", ["guests"], [("D",)], [], None),
    ("Hôm nay đến giờ có bao nhiêu khách", "vi", ["guests"], [], [], None),
    ("Ca tối nay đến giờ có bao nhiêu khách, doanh thu bao nhiêu rồi?", "vi", ["guests", "revenue"], [("D",)], [], None),
    # "doanh thu mỗi khách": the spend per guest; "mỗi khách hàng": each customer
    ("Lượt khách và doanh thu mỗi khách theo ngày trong tuần trước", "vi", ["guests", "avg_spend_per_guest"], [],
     ["metric_time__day"], None),
    ("doanh thu mỗi khách hàng tháng này", "vi", ["revenue"], [], ["customer__full_name"], None),
    # "with the server": each row shown with its server
    ("List this week's voided bills with the server who had them", "en", ["void_orders"], [], ["server__full_name"], None),
    ("How much have we spent with suppliers this month?", "en", ["supplier_spend"], [], [], None),
    ("Supplier payments 1-15 Nov by supplier", "en", ["supplier_spend"], [], ["supplier__name"], None),
    ("November so far vs the same dates in October", "en", ["revenue"], [], [], None),
    # an English metric's own noun ranks ("voided items": the dishes); one wait is never a ranking
    ("top 5 voided items this month", "en", ["voided_lines"], [], ["menu_item__name_en"], 5),
    ("What's the longest anyone's been waiting on a dish right now?", "en", ["oldest_pending_wait"], [], [], None),
    # an average asked of a rate is the rate
    ("Average tip as a percentage of the bill this month", "en", ["tip_rate"], [], [], None),
    ("average no-show rate this month", "en", ["no_show_rate"], [], [], None),
    ("tỷ lệ hủy món trung bình tháng này", "vi", ["void_rate"], [], [], None),
    # shorthand: "wk trc" (tuần trước), "theo sl" (by the number sold)
    ("dt ship wk này vs wk trc", "vi", ["revenue"], [("DL",)], [], None),
    ("top 10 món bán chạy wk này theo sl", "vi", ["portions_sold"], [], ["menu_item__name_vi"], 10),
    ("Total hours worked by each server last month", "en", ["hours_worked"], [("SRV",)], ["staff__full_name"], None),
    ("bn member mới tháng này", "vi", ["new_customers"], [], [], None),
    ("giá trị tồn kho hiện tại bao nhiêu triệu", "vi", ["stock_value"], [], [], None),
    ("lý do hủy món nào hay gặp nhất tuần này", "vi", ["voided_lines"], [], ["order_item__void_reason"], 1),
    # spending "with us" is the guests' (with suppliers, the purchases); "supplier purchases"
    ("How much did gold-tier members spend with us this month?", "en", ["revenue"], [("GLD",)], [], None),
    ("Total supplier purchases this month", "en", ["supplier_spend"], [], [], None),
    # "kênh" (channel) is the order type; two kinds of a concept set side by side with "vs", "so với", "versus"
    ("dt theo kênh tuần này", "vi", ["revenue"], [], ["order__order_type"], None),
    ("Revenue from walk-in guests vs registered members last month", "en", ["revenue"], [], ["order__member"], None),
    ("doanh thu khách thành viên vs khách vãng lai tháng trước", "vi", ["revenue"], [], ["order__member"], None),
    ("doanh thu khách vãng lai so với khách thành viên tháng trước", "vi", ["revenue"], [], ["order__member"], None),
    ("check giùm cash ca tối nay bn", "vi", ["payment_amount"], [("CASH",), ("D",)], [], None),  # asked to look: how much
    ("what was food cost % for the whole menu last week?", "en", ["food_cost_pct"], [], [], None),
    ("which dishes have the thinnest margin per portion on the current menu", "en", ["menu_margin"], [],
     ["menu_item__name_en"], None),
    # selling less, said of the dishes: the biggest fall between the two periods
    ("món nào tuần này bán giảm nhiều nhất so với tuần trước", "vi", ["portions_sold"], [], ["menu_item__name_vi"], 1),
    # the menu said with no period: a dish's margin or cost as priced (with a period: what was sold)
    ("Which dishes on the menu have the lowest margin %?", "en", ["menu_margin_pct"], [], ["menu_item__name_en"], None),
    ("món nào có tỷ lệ giá vốn cao nhất trên thực đơn", "vi", ["menu_food_cost_pct"], [], ["menu_item__name_vi"], 1),
    ("Which dishes on the menu had the lowest gross margin % last month?", "en", ["gross_margin_pct"], [],
     ["menu_item__name_en"], None),
    # "without" leaves out what follows, as "excluding" does; "without VAT" is the net sales
    ("revenue without delivery last week", "en", ["revenue"], [("DL",)], [], None),
    ("revenue without VAT last month", "en", ["taxable_sales"], [], [], None),
    # "booked with us" counts the bookings; "chi tiêu mỗi khách" is the metric's own label (the spend per guest)
    ("Which customer has booked with us the most this year?", "en", ["reservations"], [], ["customer__full_name"], 1),
    ("chi tiêu mỗi khách tuần trước", "vi", ["avg_spend_per_guest"], [], [], None),
    ("chi tiêu mỗi khách của thành viên với vãng lai tuần trước", "vi", ["avg_spend_per_guest"], [], ["order__member"],
     None),
    # a two-word ingredient is said by its first word when no other ingredient starts with it ("tôm": Tôm sú)
    ("tồn kho tôm còn bao nhiêu", "vi", ["stock_on_hand"], [("Tôm sú",)], ["ingredient__name_vi"], None),
    ("hao hụt tôm vs mực tháng này", "vi", ["qty_wasted"], [("Tôm sú", "Mực ống")], ["ingredient__name_vi"], None),
    ("kho còn bao nhiêu trứng", "vi", ["stock_on_hand"], [("Trứng gà",)], ["ingredient__name_vi"], None),
    # a figure, then its average per bill: that figure per bill, never the average check beside it
    ("Tiền boa tháng này trung bình mỗi bill được bao nhiêu?", "vi", ["avg_tip_per_bill"], [], [], None),
    ("what share of our orders were takeaway last month", "en", ["completed_orders"], [("TA",)], [], None),
    ("late kitchen tickets per day last week", "en", ["late_tickets"], [], ["metric_time__day"], None),
    # the formal register: "please provide", "kindly report", "xin gửi", "đề nghị cung cấp", "cho tôi xin"
    ("Please provide tips by server for yesterday's dinner shift.", "en", ["tips"], [("D",)],
     ["order__server__full_name"], None),
    ("Kindly report the average party size of reservations by day of the week for November to date.", "en",
     ["avg_party_size"], [], ["reservation__weekday"], None),
    ("Xin gửi tôi doanh thu hôm qua.", "vi", ["revenue"], [], [], None),
    ("Đề nghị cung cấp số lượng thành viên hiện có theo từng hạng thẻ (thường, bạc, vàng).", "vi", ["members"],
     [("REG", "SIL", "GLD")], ["customer__tier"], None),
    ("Cho toi xin gia tri hoa don trung binh cua khach co dat ban truoc so voi khach khong dat ban trong 4 tuan tron "
     "ven gan nhat", "vi", ["avg_check"], [("booked", "walk-in")], ["order__booked"], None),  # "cho tôi", never "tối"
    ("tuan nay bao nhieu ban dat truoc ma k toi", "vi", ["no_shows"], [], [], None),  # "k": không
    ("TRUA50K hay GIAM10 giảm trung bình mỗi đơn nhiều hơn?", "vi", ["avg_discount"], [("TRUA50K", "GIAM10")],
     ["promotion__promo_code"], None),  # the discount per promo bill, never the average check
    ("số món trung bình trên mỗi hóa đơn tháng này", "vi", ["items_per_order"], [], [], None),
    ("doanh thu theo từng khung giờ trong ngày tuần này", "vi", ["revenue"], [], ["order__hour_of_day"], None),
    ("Revenue for each of the last 3 Saturdays?", "en", ["revenue"], [("6",)], ["metric_time__day"], None),
    ("Xin doanh thu tuần này tính đến hiện tại.", "vi", ["revenue"], [], [], None),
    # whole hours on the clock: "18:00-20:00" is the window 18:00 to 19:59
    ("revenue 18:00-20:00 yesterday", "en", ["revenue"], [("18", "19")], [], None),
    ("doanh thu từ 18:00 đến 20:00 hôm qua", "vi", ["revenue"], [("18", "19")], [], None),
    # from an hour up to now: to closing, today's when no period is said (test_since_an_hour_is_today)
    ("how many orders since 6pm", "en", ["completed_orders"], [("18", "19", "20", "21", "22", "23")], [], None),
    ("Hôm nay từ 17h tới giờ đã có bao nhiêu khách vào?", "vi", ["guests_in"],
     [("17", "18", "19", "20", "21", "22", "23")], [], None),
    # a time slot is the hour of the day, of what the figure counts
    ("which time slot gets the most bookings", "en", ["reservations"], [], ["reservation__hour_of_day"], 1),
    ("which time slot brings in the most revenue this week", "en", ["revenue"], [], ["order__hour_of_day"], 1),
    # spoken Southern and Northern Vietnamese: "nhiêu" (bao nhiêu), "hông" (không), "đứa nào" (ai), "mấy đứa"
    # (the staff of a role, or people), "bữa" (hôm), "đấy" (a particle); English fillers
    ("ờ hôm nay quán mình bán được nhiêu tiền rồi dzậy em", "vi", ["revenue"], [], [], None),
    ("mấy đứa phục vụ tuần này đứa nào bán được nhiều tiền nhất", "vi", ["revenue"], [], ["server__full_name"], 5),
    ("hôm nay có ai đặt bàn mà hông tới hông", "vi", ["no_shows"], [], [], None),
    ("ca trưa nay có mấy đứa đi làm dzậy", "vi", ["staff_worked"], [("L",)], [], None),
    ("bữa thứ bảy ca tối có nhiêu lượt khách", "vi", ["guests"], [("D",)], [], None),
    ("tiền boa tuần này chia theo từng nhân viên phục vụ được bao nhiêu đấy", "vi", ["tips"], [],
     ["order__server__full_name"], None),
    ("um how many guests came in for lunch today", "en", ["guests"], [("L",)], [], None),
    # a role read as a verb, right before a figure of the staff's work: that role's staff at work
    ("tuần này bếp làm tổng cộng bao nhiêu giờ", "vi", ["hours_worked"], [("CHF",)], [], None),
    ("hôm qua phục vụ làm bao nhiêu giờ", "vi", ["hours_worked"], [("SRV",)], [], None),
    ("tuần này phục vụ nhận bao nhiêu tiền lương", "vi", ["labour_cost"], [("SRV",)], [], None),
    ("hôm qua ca tối bọn phục vụ về lúc mấy giờ thế", "vi", ["clock_out_time"], [("D",), ("SRV",)], [], None),
    ("hôm qua phục vụ bao nhiêu khách", "vi", ["guests"], [], [], None),  # served: a verb still
    ("tháng này khách bỏ về không ăn bao nhiêu đơn rồi", "vi", ["cancelled_orders"], [], [], None),  # the condition,
    # then how many of the rows: never the completed orders
    ("thực đơn hiện tại đang bán bao nhiêu món", "vi", ["active_menu_items"], [], [], None),
    ("doanh thu mỗi chỗ ngồi tháng này", "vi", ["revenue_per_seat"], [], [], None),
    ("Which station misses its target prep time most often?", "en", ["late_tickets"], [], ["station__name_en"], None),
    ("ai là quản lý ca trưa hôm nay", "vi", ["shift_start"], [("L",)], ["manager__full_name"], None),  # the manager on
    ("ca tối qua ai là quản lý trực thế", "vi", ["shift_start"], [("D",)], ["manager__full_name"], None),  # duty
    ("thứ mấy trong tuần quán đông khách nhất, tính theo tháng trước", "vi", ["guests"], [],
     ["order__weekday"], 1),
    ("combo bán qua mang về được bao nhiêu phần tháng này", "vi", ["portions_sold"], [("true",), ("TA",)], [], None),
    ("hqua ca tối mang về bn đơn", "vi", ["completed_orders"], [("D",), ("TA",)], [], None),  # takeaway's orders
    ("revenue for each Monday in the last 2 months", "en", ["revenue"], [("1",)], ["metric_time__day"], None),
    ("drinks sold on delivery orders yesterday", "en", ["portions_sold"], [("DRINK",), ("DL",)], [], None),  # the
    # orders are delivery's noun, the verb's figure is asked
    ("khách vãng lai đặt mang về bao nhiêu đơn tháng này", "vi", ["completed_orders"], [("walk-in",), ("TA",)], [],
     None),  # ordered as takeaway
    ("danh mục món nào bán chạy nhất trên đơn ship", "vi", ["portions_sold"], [("DL",)],
     ["menu_item__category__name_vi"], 1),  # on the delivery orders
    ("How many turns did the terrace get last Saturday?", "en", ["area_table_turnover"], [("OU",)], [], None),
    ("hôm qua xoay bàn được mấy vòng", "vi", ["table_turnover"], [], [], None),
    ("GP by dish last month, top 10", "en", ["gross_profit"], [], ["menu_item__name_en"], 10),
    ("AOV for delivery vs takeaway vs dine-in last 7 days", "en", ["avg_check"], [("DL", "TA", "DI")],
     ["order__order_type"], None),  # "dine-in last 7 days": never "in the last 7 days"
    ("khách bỏ về ko ăn hôm qua mấy đơn", "vi", ["cancelled_orders"], [], [], None),
    # texting and Central Vietnamese: "z" (vậy), "j" (gì), "nhiu" (bao nhiêu, or nhiều before "nhất"), "ni" (này),
    # "mô" (nào), "rứa" (vậy), "thx"
    ("tối qua hủy bnhiu món, lý do j z", "vi", ["voided_lines"], [("D",)], ["order_item__void_reason"], None),
    ("bạn nào bị hủy món nhiu nhất tuần này z", "vi", ["voided_lines"], [], ["order__server__full_name"], 5),
    ("Tháng ni danh mục mô bán được nhiều phần nhất hỉ", "vi", ["portions_sold"], [],
     ["menu_item__category__name_vi"], 1),
    ("Tuần ni khu ngoài trời doanh thu được bao nhiêu rứa", "vi", ["revenue"], [("OU",)], [], None),
    ("top 5 dishes last 7 days thx", "en", ["portions_sold"], [], ["menu_item__name_en"], 5),
    ("repeat customers who came in the first half of November", "en", ["returning_customers"], [], [], None),  # who:
    # which of them, never a split by server
    ("khách không đến thì tuần này có bao nhiêu bàn đặt", "vi", ["no_shows"], [], [], None),  # the condition, then
    # the rows (bàn đặt): never all the bookings
    ("revenue at table twelve yesterday", "en", ["revenue"], [("12",)], [], None),  # never the top 12
    ("check giùm no-show rate tuần này", "vi", ["no_show_rate"], [], [], None),  # asked to look: never the check
    ("cook hours last week", "en", ["hours_worked"], [("CHF",)], [], None),  # the cooks' hours, never everyone's
    ("total kitchen hours last week", "en", ["hours_worked"], [("CHF",)], [], None),
    ("kitchen labour cost last week", "en", ["labour_cost"], [("CHF",)], [], None),
    ("khach quen thang truoc ma thang nay chua quay lai la nhung ai", "vi", ["returning_customers"], [], [], None),
    # "ma" between two periods: "mà", never a split by promo code
    ("Mã nào khách giao hàng dùng nhiều nhất tháng này", "vi", ["promo_orders"], [("DL",)],
     ["promotion__promo_code"], None),  # the delivery customers used them: never a split by customer
    ("khung giờ nào khách hay áp mã nhất", "vi", ["promo_orders"], [], ["order__hour_of_day"], 1),
    ("table turnover at lunch today", "en", ["table_turnover"], [("L",)], [], None),  # lunch's parties, every table
    ("how many bookings left for tonight", "en", ["upcoming_bookings"], [("D",)], [], None),
    ("any bills still not paid right now?", "en", ["open_orders"], [], [], None),
    ("tháng này khách chi trung bình bao nhiêu 1 người", "vi", ["avg_spend_per_guest"], [], [], None),  # per person
    ("How many covers did we do last week if you leave out the VIP rooms?", "en", ["guests"], [("VP",)], [], None),
    ("sales so far this dinner shift?", "en", ["revenue"], [("D",)], [], None),
    ("bếp đang còn bao nhiêu phiếu chưa làm", "vi", ["pending_tickets"], [], [], None),
    ("hqua co bn don xai voucher", "vi", ["promo_orders"], [], [], None),
    ("promo usage by order type this month", "en", ["promo_orders"], [], ["order__order_type"], None),
    ("how far in advance do people book the VIP room on average", "en", ["avg_days_ahead"], [("VP",)], [], None),
    ("Which day of the week gets the most booking cancellations?", "en", ["cancelled_bookings"], [],
     ["reservation__weekday"], 1),
    ("cuối tuần rồi mỗi bàn trung bình ngồi mấy phút", "vi", ["avg_minutes_seated"], [], [], None),
    ("how many bills used a promo this weekend", "en", ["promo_orders"], [], [], None),
    ("How many staff do we have employed right now, by role", "en", ["employees"], [("true",)], ["staff__role_code"],
     None),  # employed: never the staff on shift right now
    ("Quán hiện có bao nhiêu nhân viên, chia theo chức vụ", "vi", ["employees"], [], ["staff__role_code"], None),
    ("dt ytd theo kênh: tại chỗ, mang về, giao hàng", "vi", ["revenue"], [("DI", "TA", "DL")], ["order__order_type"],
     None),
    ("hqua có mấy khách đk thành viên mới", "vi", ["new_customers"], [], [], None),  # "đk": đăng ký
    ("how many money we get from lunch shift today", "en", ["revenue"], [("L",)], [], None),
    ("quý nào năm nay doanh thu cao nhất?", "vi", ["revenue"], [], ["metric_time__quarter"], 1),
    ("revenue by quarter this year", "en", ["revenue"], [], ["metric_time__quarter"], None),
    ("hôm nay bn khách đặt bàn chưa tới", "vi", ["upcoming_guests"], [], [], None),
    ("tối qua có mấy đơn khách bỏ về trước khi ăn", "vi", ["cancelled_orders"], [("D",)], [], None),
    ("Thứ 2 vừa rồi ca tối dùng nguyên liệu hết bao nhiêu tiền?", "vi", ["usage_cost"], [("D",)], [], None),  # never
    # the revenue
    ("Hoàn tiền tháng này so với tháng trước bao nhiêu lần, bao nhiêu tiền", "vi", ["refunds", "refunded_amount"], [],
     [], None),  # how many and how much: both, for both months
    ("Refunds this week vs last week, how many and how much?", "en", ["refunds", "refunded_amount"], [], [], None),
    ("tong gio cong va chi phi luong ca trua vs ca toi thang nay", "vi", ["hours_worked", "labour_cost"], [("L", "D")],
     ["shift__shift_code"], None),  # by shift, never each day for the staff who worked beside them
    ("doanh thu và khách hôm nay", "vi", ["revenue", "guests"], [], [], None),  # "khách" listed: the guests
    ("dt, số đơn, khách hôm qua", "vi", ["revenue", "completed_orders", "guests"], [], [], None),
    ("Hôm nay trung bình mỗi đơn khuyến mãi được giảm bao nhiêu tiền?", "vi", ["avg_discount"], [], [], None),
    ("hôm qua bếp ra được bao nhiêu phiếu", "vi", ["tickets_ready"], [], [], None),  # never the portions sold
    ("phở bò tuần này so vs tuần trước ra nhanh hơn hay chậm hơn", "vi", ["avg_prep_time"], [("Phở bò tái nạm",)], [],
     None),  # faster or slower: its cooking time, never the portions
    ("tháng này mấy khách gold đặt bàn", "vi", ["guests_expected", "reservations"], [("GLD",)], [], None),  # the
    # gold guests who booked: never "gold bookings" and the members who bought
    ("tuần này có bao nhiêu khách mới đăng ký, bao nhiêu lượt khách thành viên ghé", "vi", ["new_customers"], [], [],
     None),
    ("What's the average booking lead time for Saturday dinners?", "en", ["avg_days_ahead"], [("6",), ("D",)], [],
     None),  # every Saturday's dinner, never the next one
    ("Doanh thu giao hàng ngày 2/9 so với 2/9 ăn tại chỗ", "vi", ["revenue"], [("DL", "DI")], ["order__order_type"],
     None),  # one day said twice: its two channels side by side, never a week before
    ("Phiếu bếp trễ theo khung giờ tuần này", "vi", ["late_tickets"], [], ["kitchen_ticket__hour_of_day"], None),
    ("ca trưa nào đông khách nhất từ trước tới giờ, bao nhiêu khách", "vi", ["guests"], [("L",)], ["metric_time__day"],
     None),  # which lunch, ever: each day's, never all lunches summed
    ("Chào em, cho chị hỏi doanh thu hôm qua được bao nhiêu vậy em?", "vi", ["revenue"], [], [], None),  # asked
    ("Nhờ em xem giúp chị tuần này có bao nhiêu đơn mang về nhé, cảm ơn em", "vi", ["completed_orders"], [("TA",)],
     [], None),  # nicely: the greeting and the thanks mean nothing of their own
    ("I was wondering what our average check was at Friday dinner", "en", ["avg_check"], [("D",)], [], None),
    ("Nhờ em tra giúp anh lợi nhuận gộp của món chính tháng trước nhé", "vi", ["gross_profit"], [("MAIN",)], [], None),
    ("Morning! How many reservations do we have coming up for tonight?", "en", ["upcoming_bookings"], [("D",)], [],
     None),  # a greeting, never the hours before noon
    ("thang nao lai gop cao nhat tu khi mo quan", "vi", ["gross_profit"], [], ["metric_time__month"], 1),  # since
    # we opened: all the data
    ("how many customers do we have in each loyalty tier", "en", ["members"], [], ["customer__tier"], None),  # on
    # the books, never the customers served
    ("covers by day and shift last week", "en", ["guests"], [], ["metric_time__day", "shift__shift_code"], None),  # a
    # second split after "and", never the shifts worked
    ("doanh thu theo khu vực và ca hôm qua", "vi", ["revenue"], [], ["dining_table__area_code", "shift__shift_code"],
     None),
    ("món mang về bán chạy nhất tháng này", "vi", ["portions_sold"], [("TA",)], ["menu_item__name_vi"], 1),  # the
    # takeaway dishes: never "brought in"
    ("toi qua co bn ban co khach ngoi", "vi", ["dine_in_orders"], [("D",)], [], None),  # last night: the parties
    # seated then, never the tables occupied now
    ("toi nay con bao nhieu ban dang co khach ngoi", "vi", ["occupied_tables"], [("D",)], [], None),  # now
    ("giờ cao điểm hôm qua là mấy giờ", "vi", ["completed_orders"], [], ["order__hour_of_day"], 1),  # the
    ("what was our peak hour yesterday", "en", ["completed_orders"], [], ["order__hour_of_day"], 1),  # busiest
    ("Giờ cao điểm tối (18h đến 20h) tuần trước, mỗi bếp có bao nhiêu phiếu làm trễ so với thời gian mục tiêu?", "vi",
     ["late_tickets"], [("D",), ("18", "19")], ["station__name_vi"], None),  # the
    # peak named with its hours: those hours, never a ranking
    ("món nào lời ít nhất mỗi phần", "vi", ["menu_margin"], [], ["menu_item__name_vi"], 1),  # one portion: as the menu
    ("bia sài gòn một chai lãi bao nhiêu", "vi", ["menu_margin"], [("Bia Saigon Special",)], ["menu_item__name_vi"],
     None),  # prices it, never the profit of every bottle ever sold
    ("trên menu món nào margin thấp nhất", "vi", ["menu_margin"], [], ["menu_item__name_vi"], 1),
    ("các món lẩu giá bao nhiêu", "vi", ["menu_price"], [("HOTPOT",)], ["menu_item__name_vi"], None),  # each
    # hotpot's price, never the highest of them
    ("phở bò tái nạm giá bao nhiêu vậy", "vi", ["menu_price"], [("Phở bò tái nạm",)], ["menu_item__name_vi"], None),
    ("spend per supplier last month", "en", ["supplier_spend"], [], ["supplier__name"], None),  # split, never
    # the total
    ("cuối tuần rồi bán được bao nhiêu suất combo", "vi", ["portions_sold"], [("true",)], [], None),  # the combos,
    # never every dish
    ("Summary of the top void reasons last week, by dish.", "en", ["voided_lines"], [],
     ["order_item__void_reason", "menu_item__name_en"], 5),  # asked to sum up: never the revenue
    ("riêng đồ uống tháng này doanh thu bao nhiêu", "vi", ["dish_sales"], [("DRINK",)], [], None),  # only: the
    # filter said after it
    ("Tổng hợp tiền boa tháng này theo từng phương thức thanh toán", "vi", ["tips"], [], ["payment__method"], None),
    ("Requesting the figures for VAT collected month to date.", "en", ["vat"], [], [], None),  # a report's register
])
def test_who_and_what_the_words_name(layer, now, question, language, metrics, filters, group_by, limit) -> None:
    parsed = layer.parse(question, language=language, now=now)
    assert parsed.query is not None, (parsed.problem, parsed.unknown)
    assert parsed.query.metrics[:len(metrics)] == metrics
    assert [tuple(f.values) for f in parsed.query.filters] == filters
    assert parsed.query.group_by[:len(group_by)] == group_by and parsed.query.limit == limit


@pytest.mark.parametrize(("question", "group_by"), [
    ("khach quen thang truoc ma thang nay chua quay lai la nhung ai", []),  # "ma" between two periods: "mà"
    ("Mã nào khách giao hàng dùng nhiều nhất tháng này", ["promotion__promo_code", "promotion__name_vi"]),  # the
    ("khung giờ nào khách hay áp mã nhất", ["order__hour_of_day"]),  # customers did it: never a split by them
    ("excluding drinks, which category brought in the least last week?", ["menu_item__category__name_en"]),  # a
    # value left out is never what is split ("drinks, which": the category is asked, never each drink)
    ("thứ nào tuần trước đông khách nhất", ["metric_time__day"]),  # the weekdays of one week: its days
    ("top 5 dishes ordered by gold members last month", ["menu_item__name_en"]),  # "by" after a verb: who did it
    ("tối qua mấy giờ bếp nhận nhiều phiếu nhất", ["kitchen_ticket__hour_of_day"]),  # the hour is asked: the
    # kitchen as a whole, never each station
    ("guests per day for the last 7 days with the weekday name", ["metric_time__day", "order__weekday_name"]),
    ("what drinks do silver members order the most", ["menu_item__name_en"]),  # the drinks asked: never each member
    ("Which terrace table made the most money last week?", ["dining_table__table_no"]),  # the value the tables are
    # of, asked with "which": still the tables ranked
    ("Tối qua khung giờ nào bếp ra món chậm nhất", ["kitchen_ticket__hour_of_day"]),  # the "nào" of the hour: the
    ("Tuần này món nào bếp hay làm trễ nhất? cho top 5", ["menu_item__name_vi"]),  # kitchen as a whole, never each
    # station
    ("noodles vs rice dishes, which sells more", ["menu_item__category__cat_code"]),  # one of the two listed,
    # never each dish in them
])
def test_exactly_the_splits_the_words_ask_for(layer, now, question, group_by) -> None:
    parsed = layer.parse(question, language="en" if question.startswith(("excluding", "top", "guests", "what", "Which",
                                                                         "noodles")) else "vi",
                         now=now)
    assert parsed.query is not None, parsed.problem
    assert parsed.query.group_by == group_by


@pytest.mark.parametrize(("question", "ranked_by_change"), [
    ("Please share gross margin % by menu category for the last 30 days.", False),  # asked to send: never a share
    ("Anh chị share giúp food cost % theo category last month nhé.", False),  # of the total
    ("Which server's cancelled orders went up the most last week vs the week before?", True),  # the rise ranked,
    ("Tuần này so với cùng mấy ngày của tuần trước, 5 món nào tăng số phần bán nhiều nhất?", True),  # never the
    # week's own figure
])
def test_asked_to_share_and_a_direction_said_alone(layer, now, question, ranked_by_change) -> None:
    parsed = layer.parse(question, language="en" if question.startswith(("Please", "Which")) else "vi", now=now)
    assert parsed.query is not None, parsed.problem
    assert parsed.query.share is False
    assert any(o.by in (CHANGE_COLUMN, CHANGE_AMOUNT_COLUMN) for o in parsed.query.order_by) is ranked_by_change


@pytest.mark.parametrize(("question", "language", "metric", "share"), [
    ("Which payment method had the biggest share of tips in October?", "en", "tips", True),  # of the tips
    ("Which 3 dishes on the menu have the highest food cost as a % of their price?", "en", "menu_food_cost_pct", False),
    ("What share of grill tickets missed their target", "en", "late_ticket_rate", False),  # of a count: its rate
])
def test_a_share_of_an_amount_is_of_the_amount_and_an_amount_as_a_share_is_its_rate(layer, now, question, language,
                                                                                     metric, share) -> None:
    parsed = layer.parse(question, language=language, now=now)
    assert parsed.query is not None and parsed.query.metrics[0] == metric and parsed.query.share is share


@pytest.mark.parametrize(("question", "language"), [
    ("Nhóm món nào lời ít nhất tháng trước?", "vi"),
    ("Loại món nào bán chạy nhất tháng này?", "vi"),
])
def test_which_kind_of_dish_is_the_category_alone(layer, now, question, language) -> None:
    """"Nhóm món nào": which category, never a split by category and then by dish."""
    parsed = layer.parse(question, language=language, now=now)
    assert parsed.query is not None and parsed.query.group_by == ["menu_item__category__name_vi"]
    assert parsed.query.limit == 1


@pytest.mark.parametrize(("question", "language", "with_empty"), [
    ("least sold dish last week among those that sold", "en", False),
    ("món nào bán ít nhất tuần trước trong số món có bán", "vi", False),
    ("món nào bán ít nhất tuần trước", "vi", True),  # the bottom of the dishes: those that sold none too
])
def test_the_bottom_among_those_that_sold_leaves_out_the_empty(layer, now, question, language, with_empty) -> None:
    parsed = layer.parse(question, language=language, now=now)
    assert parsed.query is not None and parsed.query.limit == 1 and parsed.query.with_empty is with_empty


@pytest.mark.parametrize(("question", "language"), [
    ("xếp hạng các món theo doanh thu từ thấp đến cao", "vi"),
    ("rank dishes by sales lowest first", "en"),
])
def test_a_ranking_takes_the_order_said_beside_it(layer, now, question, language) -> None:
    parsed = layer.parse(question, language=language, now=now)
    assert parsed.query is not None and parsed.query.limit is None
    assert [o.descending for o in parsed.query.order_by] == [False]


@pytest.mark.parametrize("question", [
    "Nhân viên nào có ít giờ công nhất tuần rồi?",
    "nv pha che thang nay ai lam it gio nhat",  # typed bare: "ít", never the English "it"
])
def test_the_least_wrapped_around_its_noun_ranks_from_the_bottom(layer, now, question) -> None:
    parsed = layer.parse(question, language="vi", now=now)
    assert parsed.query is not None and parsed.query.metrics[0] == "hours_worked"
    assert [o.descending for o in parsed.query.order_by] == [False]


@pytest.mark.parametrize(("question", "language", "left_out"), [
    ("Doanh thu tuần này không tính đơn giao hàng là bao nhiêu?", "vi", ("DL",)),  # after its rows' noun
    ("today revenue until now how much, not count takeaway", "en", ("TA",)),  # in simple English
])
def test_a_value_left_out_is_left_out(layer, now, question, language, left_out) -> None:
    parsed = layer.parse(question, language=language, now=now)
    assert parsed.query is not None and [(f.values, f.exclude) for f in parsed.query.filters] == [(left_out, True)]


@pytest.mark.parametrize(("question", "language", "metric", "starts"), [
    ("So với cùng kỳ năm ngoái thì doanh thu tháng này sao?", "vi", "revenue",  # the same period said first is
     (dt.date(2026, 11, 1), dt.date(2025, 11, 1))),  # set beside the one asked
    ("Bill trung bình tuần này bao nhiêu, cao hơn tuần trước không?", "vi", "avg_check",  # "higher than ... không":
     (dt.date(2026, 11, 9), dt.date(2026, 11, 2))),  # a yes/no comparison
    ("Q3 revenue vs Q2", "en", "revenue", (dt.date(2026, 7, 1), dt.date(2026, 4, 1))),  # "vs" between two periods
])
def test_two_periods_said_are_compared(layer, now, question, language, metric, starts) -> None:
    parsed = layer.parse(question, language=language, now=now)
    assert parsed.query is not None and parsed.query.metrics[0] == metric
    assert parsed.query.time is not None and parsed.query.compare is not None
    assert (parsed.query.time.start, parsed.query.compare.start) == starts


@pytest.mark.parametrize(("question", "language"), [("dt 4 chu nhat gan nhat", "vi"), ("revenue of the last 4 sundays", "en")])
def test_the_last_n_weekdays_are_that_weekday_over_as_many_weeks_before_today(layer, now, question, language) -> None:
    parsed = layer.parse(question, language=language, now=now)  # today is a Sunday, not over: the 4 before it
    assert parsed.query is not None and parsed.query.limit is None and parsed.query.filters[0].values == ("7",)
    assert parsed.query.time is not None and parsed.query.time.start == now.date() - dt.timedelta(days=28)
    assert parsed.query.time.end == now.date() - dt.timedelta(days=1)


@pytest.mark.parametrize("question", ["Doanh thu 8 tuần gần nhất, mỗi tuần tăng giảm bao nhiêu % so với tuần liền trước?",
                                      "doanh thu từng tuần tháng 10, % thay đổi so với tuần trước đó"])
def test_each_week_against_the_one_right_before_it(layer, now, question) -> None:
    parsed = layer.parse(question, language="vi", now=now)
    assert parsed.query is not None and parsed.query.change and parsed.query.compare is None
    assert parsed.query.group_by == ["metric_time__week"]


@pytest.mark.parametrize(("question", "language", "metric", "size"), [
    ("Hôm qua bếp nướng có bao nhiêu phiếu quá 20 phút?", "vi", "tickets", "kitchen_ticket__ticket_prep_minutes"),
    ("How many tickets took longer than 20 minutes yesterday?", "en", "tickets", "kitchen_ticket__ticket_prep_minutes"),
    ("Bàn nào ngoài trời đang có món chờ quá 20 phút?", "vi", "dishes_waiting", "kitchen_ticket__ticket_age_minutes"),
])
def test_tickets_over_so_many_minutes_are_those_tickets(layer, executor, now, question, language, metric, size) -> None:
    query, result = _answer(layer, executor, question, language, now)  # each ticket's own minutes, never the count's
    assert query.metrics[0] == metric and query.threshold is None
    assert [(f.values, f.op) for f in query.filters if f.dimension == size] == [(("20",), ">")]


def test_hours_over_a_bound_keep_the_people_who_worked_them(layer, now) -> None:
    parsed = layer.parse("nv nao lam qua 8 tieng hnay", language="vi", now=now)  # a bound, never the top 8
    assert parsed.query is not None and parsed.query.metrics[0] == "hours_worked" and parsed.query.limit is None
    assert parsed.query.threshold is not None and (parsed.query.threshold.op, parsed.query.threshold.value) == (">", 8)


def test_from_the_start_of_a_month_with_no_end_runs_to_now(layer, now) -> None:
    parsed = layer.parse("tuan nao dt cao nhat tu dau thang 9", language="vi", now=now)
    assert parsed.query is not None and parsed.query.time is not None
    assert (parsed.query.time.start, parsed.query.time.end) == (dt.date(now.year, 9, 1), now.date())


def test_a_period_against_last_year_is_the_same_period_last_year(layer, now) -> None:
    parsed = layer.parse("Compared to last year, how is March revenue tracking?", language="en", now=now)
    assert parsed.query is not None and parsed.query.compare is not None
    assert (parsed.query.compare.start, parsed.query.compare.end) == (dt.date(2025, 3, 1), dt.date(2025, 3, 31))


def test_tyle_of_a_value_is_its_share(layer, now) -> None:
    parsed = layer.parse("tỷ lệ đơn giao hàng tháng này", language="vi", now=now)
    assert parsed.query is not None and parsed.query.share and [f.values for f in parsed.query.filters] == [("DL",)]
    late = layer.parse("tỷ lệ phiếu bar vượt thời gian chuẩn tuần trước", language="vi", now=now)
    assert late.query is None or not late.query.share  # the late rate of the bar's tickets, never the bar's share


def test_came_from_said_of_nothing_is_no_share(layer, now) -> None:
    parsed = layer.parse("Top 5 most-voided dishes last week, and which station each one comes from?",
                         language="en", now=now)
    assert parsed.query is not None and not parsed.query.share  # where each dish comes from, never shares
    shares = layer.parse("Last week, how much revenue came from members versus walk-in guests?", language="en", now=now)
    assert shares.query is not None and shares.query.share


def test_the_worst_of_a_figure_where_less_is_better_is_its_highest(layer, now) -> None:
    parsed = layer.parse("Over the last four weeks, which days of the week have the worst no-show rate?",
                         language="en", now=now)
    assert parsed.query is not None and parsed.query.order_by[0].by == "no_show_rate"
    assert parsed.query.order_by[0].descending
    best = layer.parse("which day had the best revenue last week", language="en", now=now)
    assert best.query is not None and best.query.order_by[0].descending and best.query.limit == 1


def test_tu_a_past_period_with_no_end_runs_to_now(layer, now) -> None:
    parsed = layer.parse("doanh thu từng tháng từ tháng 9", language="vi", now=now)  # since September, by month
    assert parsed.query is not None and parsed.query.time is not None
    assert (parsed.query.time.start, parsed.query.time.end) == (dt.date(2026, 9, 1), now.date())
    closed = layer.parse("doanh thu từ 1/11 đến 5/11", language="vi", now=now)
    assert closed.query is not None and closed.query.time is not None
    assert (closed.query.time.start, closed.query.time.end) == (dt.date(2026, 11, 1), dt.date(2026, 11, 5))


def test_a_weekday_said_alone_is_the_latest_one(layer, now) -> None:
    parsed = layer.parse("Saturday's revenue", language="en", now=now)  # on a Sunday: yesterday
    assert parsed.query is not None and parsed.query.time is not None
    assert parsed.query.time.start == parsed.query.time.end == dt.date(2026, 11, 14)
    weekend = layer.parse("How did Saturday and Sunday of last weekend go in revenue?", language="en", now=now)
    assert weekend.query is not None and weekend.query.time is not None  # dated by the weekend, never a third period
    assert (weekend.query.time.start, weekend.query.time.end) == (dt.date(2026, 11, 7), dt.date(2026, 11, 8))


def test_today_against_a_past_day_stops_at_this_time_and_today_named_twice_is_one_day(layer, now) -> None:
    parsed = layer.parse("doanh thu hôm nay so với chủ nhật tuần trước", language="vi", now=now)
    assert parsed.query is not None and parsed.query.compare is not None  # a day so far beside one so far
    assert parsed.query.compare.start == dt.date(2026, 11, 8)
    assert parsed.query.compare.end_before == now - dt.timedelta(days=7)
    today = layer.parse("hom nay chu nhat phuc vu duoc bao nhieu khach roi em", language="vi", now=now)
    assert today.query is not None and today.query.compare is None  # "today, Sunday": one day, nothing compared
    assert today.query.time is not None and today.query.time.start == now.date()


def test_a_question_word_closing_a_clause_before_a_form_of_address_asks_a_question(layer, now) -> None:
    parsed = layer.parse("dt thang nay toi gio so voi cung ky thang truoc sao", language="vi", now=now)
    assert parsed.query is not None and parsed.query.compare is not None  # "sao": how does it compare
    why = layer.parse("doanh thu tháng này so với tháng trước tại sao", language="vi", now=now)
    assert why.query is None  # "tại sao": why, never answered by figures
    part = layer.parse("Tháng 10 khách tip tổng cộng bao nhiêu, trong đó qua thẻ bao nhiêu?", language="vi", now=now)
    assert part.query is None and "of which" in (part.problem or "")  # the whole and a part: never the part alone
    each = layer.parse("phong vip co may ban, moi ban ngoi duoc bao nhieu nguoi", language="vi", now=now)
    assert each.query is None  # the seats of each table, never its guests
    free = layer.parse("Khu ngoài trời giờ còn bàn trống nào không em?", language="vi", now=now)
    assert free.query is not None and free.query.rows_only  # which ones: the list of them, never their count


def test_any_of_what_a_figure_of_the_moment_counts_is_which_ones(layer, now) -> None:
    listed = layer.parse("any free tables out on the terrace rn?", language="en", now=now)
    assert listed.query is not None and listed.query.rows_only  # which ones: listed
    counted = layer.parse("how many free tables on the terrace right now?", language="en", now=now)
    assert counted.query is not None and counted.query.metrics[0] == "free_tables"
    by_area = layer.parse("khu nào còn nhiều bàn trống nhất", language="vi", now=now)
    assert by_area.query is not None and by_area.query.group_by == ["dining_table__area_code"]


def test_all_the_data_beside_a_period_is_unclear(layer, now) -> None:
    parsed = layer.parse("What's our total revenue since we started tracking in September?", language="en", now=now)
    assert parsed.query is None and "unclear" in (parsed.problem or "")


def test_each_week_beside_its_change_on_the_week_before(layer, executor, now) -> None:
    parsed = layer.parse("Weekly revenue for the last 6 weeks, with the % change from the week before?",
                         language="en", now=now)
    assert parsed.query is not None and parsed.query.change and parsed.query.compare is None
    assert parsed.query.group_by == ["metric_time__week"]
    ours = executor.run(layer.compile(parsed.query).sql)
    gold = executor.run("""
        WITH weekly AS (SELECT date_trunc('week', opened_at)::date AS week_start, count(*) AS orders,
                               sum(total_vnd) AS revenue FROM orders WHERE status = 'COMPLETED'
                          AND opened_at >= date_trunc('week', business_now()) - interval '6 weeks' GROUP BY 1)
        SELECT week_start, revenue,
               round(100.0 * (revenue - lag(revenue) OVER w) / nullif(lag(revenue) OVER w, 0), 1) AS change_pct
        FROM weekly WINDOW w AS (ORDER BY week_start) ORDER BY week_start OFFSET 1""")
    assert [(str(r[0]), r[1], r[-1]) for r in ours.rows] == [(str(r[0]), r[1], r[2]) for r in gold.rows]
    assert len(ours.rows) == 6 and ours.rows[0][-1] is not None  # the first week has one too
    vietnamese = layer.parse("Doanh thu từng tuần từ đầu tháng 10 tới giờ, mỗi tuần tăng giảm bao nhiêu % so với tuần "
                             "trước đó?", language="vi", now=now)  # "tuần trước đó": the week before each, no period
    assert vietnamese.query is not None and vietnamese.query.change and vietnamese.query.time is not None
    assert vietnamese.query.time.start == dt.date(2026, 10, 1)
    monthly = layer.parse("Delivery revenue month by month, with growth over the previous month.", language="en",
                          now=now)  # every month, the first with nothing before it
    assert monthly.query is not None and monthly.query.change and monthly.query.time is None
    rows = executor.run(layer.compile(monthly.query).sql).rows
    assert rows[0][-1] is None and all(r[-1] is not None for r in rows[1:])
    series = layer.parse("hóa đơn trung bình từng tuần tháng này thay đổi thế nào", language="vi", now=now)
    assert series.query is not None and not series.query.change  # the series shows how it changed


def test_a_ranking_tie_goes_to_the_first_id_never_to_a_name_shown_alike(layer, executor, now) -> None:
    parsed = layer.parse("Which server is looking after the most tables right now?", language="en", now=now)
    assert parsed.query is not None
    ours = executor.run(layer.compile(parsed.query).sql)
    gold = executor.run("""
        SELECT st.full_name, count(DISTINCT o.table_id) AS tables FROM orders o JOIN staff st ON st.staff_id = o.server_id
        WHERE o.order_type = 'DI' AND o.status IN ('OPEN', 'IN_PROGRESS')
        GROUP BY st.staff_id, st.full_name ORDER BY tables DESC, st.staff_id LIMIT 5""")
    assert [tuple(r) for r in ours.rows] == [tuple(r) for r in gold.rows]


def test_a_weekday_bookings_are_for_is_the_coming_one(layer, now) -> None:
    parsed = layer.parse("How many people are booked in for Tuesday?", language="en", now=now)
    assert parsed.query is not None and parsed.query.time is not None  # the Tuesday to come, never the last one
    assert parsed.query.time.start == dt.date(2026, 11, 17)
    assert all(layer.catalog.metrics[m].booked_ahead for m in parsed.query.metrics)  # the guests booked
    sold = layer.parse("revenue for Tuesday", language="en", now=now)
    assert sold.query is not None and sold.query.time is not None and sold.query.time.start == dt.date(2026, 11, 10)


def test_tang_before_a_figure_ranked_most_is_its_rise(layer, now) -> None:
    parsed = layer.parse("thang 10 so voi thang 9 mon nao tang so phan ban duoc nhieu nhat, cho top 5", language="vi",
                         now=now)  # typed bare, "tang" is also "tầng" (a floor): never a split by area
    assert parsed.query is not None and parsed.query.group_by == ["menu_item__name_vi"]
    assert parsed.query.compare is not None and parsed.query.order_by[0].by in ("change", "change_pct")
    assert parsed.query.limit == 5


def test_the_bottom_n_is_how_many_least_first(layer, now) -> None:
    parsed = layer.parse("Which drinks are barely selling this month? Give me the bottom 5.", language="en", now=now)
    assert parsed.query is not None and parsed.query.limit == 5 and not parsed.query.order_by[0].descending


def test_a_count_of_the_moment_split_leaves_out_the_rows_with_none(layer, executor, now) -> None:
    parsed = layer.parse("Mỗi bạn phục vụ đang giữ mấy bàn?", language="vi", now=now)
    assert parsed.query is not None
    ours = executor.run(layer.compile(parsed.query).sql)
    gold = executor.run("""
        SELECT st.full_name, count(DISTINCT o.table_id) FROM orders o JOIN staff st ON st.staff_id = o.server_id
        WHERE o.order_type = 'DI' AND o.status IN ('OPEN', 'IN_PROGRESS') GROUP BY st.staff_id, st.full_name""")
    assert gold.rows and sorted(map(tuple, ours.rows)) == sorted(map(tuple, gold.rows))  # no server with none


@pytest.mark.parametrize(("question", "language", "size"), [
    ("How many bookings for 8 or more people do we have this month?", "en", 8),
    ("Tháng này có bao nhiêu booking từ 8 khách trở lên?", "vi", 8),
    ("thang nay co bao nhieu booking tu 8 nguoi tro len", "vi", 8),
])
def test_bookings_for_n_or_more_people_are_those_whose_party_is_that_big(layer, executor, now, question, language,
                                                                         size) -> None:
    parsed = layer.parse(question, language=language, now=now)
    assert parsed.query is not None and parsed.query.threshold is None, (parsed.problem, parsed.unknown)
    assert [(f.dimension, f.op, f.values) for f in parsed.query.filters] == [
        ("reservation__booked_party_size", ">=", (str(size),))]  # a condition on each booking, not on the count
    ours = executor.run(layer.compile(parsed.query).sql)
    gold = executor.run(f"""
        SELECT count(*), sum(party_size) FROM reservations WHERE status <> 'CANCELLED' AND party_size >= {size}
          AND reserved_for >= date_trunc('month', business_now())
          AND reserved_for < date_trunc('month', business_now()) + interval '1 month'""")
    assert gold.rows[0][0] > 0 and [tuple(r) for r in ours.rows] == [tuple(r) for r in gold.rows]


@pytest.mark.parametrize(("question", "language", "metric", "size", "op"), [
    ("How many orders had more than 4 guests this month?", "en", "completed_orders", 4, ">"),
    ("Tháng này có bao nhiêu đơn từ 6 khách trở lên?", "vi", "completed_orders", 6, ">="),
    ("How many parties of 6 or more came in this month?", "en", "seated_parties", 6, ">="),
    ("How many orders had exactly 2 guests this month?", "en", "completed_orders", 2, "="),  # never the top 2 guests
    ("Tháng này có bao nhiêu đơn đúng 3 khách?", "vi", "completed_orders", 3, "="),
    ("How many orders with 4 guests this month?", "en", "completed_orders", 4, "="),
    ("Tháng này có bao nhiêu đơn từ 6 khách?", "vi", "completed_orders", 6, ">="),  # "từ 6 khách": six or more
])
def test_bills_of_n_or_more_guests_are_those_whose_party_is_that_big(layer, executor, now, question, language,
                                                                     metric, size, op) -> None:
    parsed = layer.parse(question, language=language, now=now)
    assert parsed.query is not None and parsed.query.threshold is None, (parsed.problem, parsed.unknown)
    assert parsed.query.metrics[0] == metric  # "came in": parties coming in, not money
    assert [(f.dimension, f.op, f.values) for f in parsed.query.filters] == [("order__bill_party_size", op, (str(size),))]
    ours = executor.run(layer.compile(parsed.query).sql)
    dine_in = " AND order_type = 'DI' AND closed_at IS NOT NULL" if metric == "seated_parties" else ""
    gold = executor.run(f"""
        SELECT count(*) FROM orders WHERE status = 'COMPLETED' AND guest_cnt {op} {size}{dine_in}
          AND opened_at >= date_trunc('month', business_now()) AND opened_at < business_now()""")
    assert gold.rows[0][0] > 0 and ours.rows[0][0] == gold.rows[0][0]


def test_an_hour_said_with_after_or_before_is_a_window_to_closing_or_from_opening(layer, executor, now) -> None:
    parsed = layer.parse("revenue after 9pm last night", language="en", now=now)
    assert parsed.query is not None and parsed.query.time is not None, parsed.problem
    ours = executor.run(layer.compile(parsed.query).sql)
    gold = executor.run("""
        SELECT coalesce(sum(o.total_vnd), 0), count(*) FROM orders o JOIN shifts s ON s.shift_id = o.shift_id
        WHERE o.status = 'COMPLETED' AND s.shift_code = 'D' AND extract(hour FROM o.opened_at) >= 21
          AND o.opened_at::date = business_now()::date - 1""")
    assert gold.rows[0][1] > 0 and same_answer(ours.rows, gold.rows)
    last_night = layer.parse("doanh thu sau 21h tối qua", language="vi", now=now)  # "tối qua" stays the period
    assert last_night.query is not None and last_night.query.time is not None and \
        last_night.query.time.start == dt.date(2026, 11, 14)


def test_the_average_bill_of_big_parties_is_over_their_bills(layer, executor, now) -> None:
    parsed = layer.parse("Average bill for parties over 4 people this month", language="en", now=now)
    assert parsed.query is not None and parsed.query.metrics == ["avg_check", "completed_orders"], parsed.problem
    ours = executor.run(layer.compile(parsed.query).sql)
    gold = executor.run("""
        SELECT round(avg(total_vnd)), count(*) FROM orders WHERE status = 'COMPLETED' AND guest_cnt > 4
          AND opened_at >= date_trunc('month', business_now())""")
    assert gold.rows[0][1] > 0 and same_answer(ours.rows, gold.rows)
    days = layer.parse("Which days had revenue over 100 million last week?", language="en", now=now)
    assert days.query is not None and days.query.threshold is not None and not days.query.filters  # of each day


def test_what_bills_bring_in_is_money_and_how_many_came_in_is_them(layer, now) -> None:
    money = layer.parse("How much did takeaway orders bring in yesterday?", language="en", now=now)
    assert money.query is not None and money.query.metrics[0] == "revenue"
    days = layer.parse("Which days had more than 150 guests last week?", language="en", now=now)
    assert days.query is not None and days.query.threshold is not None and not days.query.filters  # days, not bills
    assert layer.parse("Từ đầu tháng tới giờ số hóa đơn và lượt khách so với cùng kỳ tháng trước thế nào?",
                       language="vi", now=now).query is not None  # "thế nào" asks how, never which bills


def test_dishes_over_their_standard_prep_time(layer, executor, now) -> None:
    parsed = layer.parse("Which 5 dishes ran furthest over their standard prep time this month?", language="en", now=now)
    assert parsed.query is not None and parsed.query.metrics[0] == "avg_minutes_over_standard", parsed.problem
    assert parsed.query.limit == 5
    ours = executor.run(layer.compile(parsed.query).sql)
    gold = executor.run("""
        SELECT m.name_en, count(*), m.prep_time_m, round(avg(extract(epoch FROM k.ready_at - k.fired_at)) / 60, 1),
               round(avg(extract(epoch FROM k.ready_at - k.fired_at)) / 60 - m.prep_time_m, 1) AS over_min
        FROM kitchen_tickets k JOIN order_items oi ON oi.order_item_id = k.order_item_id
        JOIN menu_items m ON m.item_id = oi.item_id
        WHERE k.ready_at IS NOT NULL AND k.fired_at >= date_trunc('month', business_now())
        GROUP BY m.item_id, m.name_en, m.prep_time_m ORDER BY over_min DESC, m.item_id LIMIT 5""")
    assert len(gold.rows) == 5 and same_answer(ours.rows, gold.rows)
    often = layer.parse("Which 5 dishes went over their standard prep time most often this week?", language="en", now=now)
    assert often.query is None and "most often" in often.problem  # how many times: no average counts them


def test_a_no_show_rate_is_over_the_bookings_whose_time_has_come(layer, executor, now) -> None:
    parsed = layer.parse("What's our no-show rate for each day of the week?", language="en", now=now)
    assert parsed.query is not None and parsed.query.time is None, parsed.problem  # all time: tomorrow's too
    ours = executor.run(layer.compile(parsed.query).sql)
    gold = executor.run("""
        SELECT extract(isodow FROM reserved_for)::int, to_char(reserved_for, 'Dy'), count(*),
               count(*) FILTER (WHERE status = 'NO_SHOW'),
               round(100.0 * count(*) FILTER (WHERE status = 'NO_SHOW') / count(*), 1)
        FROM reservations WHERE status <> 'CANCELLED' AND reserved_for < business_now() GROUP BY 1, 2""")
    ahead = executor.run("SELECT count(*) FROM reservations WHERE status <> 'CANCELLED' AND reserved_for >= business_now()")
    assert ahead.rows[0][0] > 0 and len(gold.rows) == 7 and same_answer(ours.rows, gold.rows)  # none still ahead


def test_selling_said_of_days_is_the_money_taken(layer, now) -> None:
    for question in ("ngày nào trong tuần bán ế nhất", "ngay nao trong tuan ban e nhat"):  # never "bàn" (a table)
        parsed = layer.parse(question, language="vi", now=now)
        assert parsed.query is not None and parsed.query.metrics[0] == "revenue", (parsed.problem, parsed.unknown)
        assert parsed.query.limit == 1 and not parsed.query.order_by[0].descending and not parsed.query.filters


def test_no_shows_of_areas_side_by_side_are_shown_with_their_bookings_and_rate(layer, executor, now) -> None:
    parsed = layer.parse("Tuần trước khu nào bị khách no-show nhiều nhất?", language="vi", now=now)
    assert parsed.query is not None and parsed.query.metrics == ["no_shows", "reservations_due", "no_show_rate"]
    ours = executor.run(layer.compile(parsed.query).sql)
    gold = executor.run("""
        SELECT t.area_code, count(*), count(*) FILTER (WHERE r.status = 'NO_SHOW'),
               round(100.0 * count(*) FILTER (WHERE r.status = 'NO_SHOW') / count(*), 1)
        FROM reservations r JOIN tables t ON t.table_id = r.table_id
        WHERE r.status <> 'CANCELLED' AND r.reserved_for >= date_trunc('week', business_now()) - interval '7 days'
          AND r.reserved_for < date_trunc('week', business_now()) GROUP BY 1""")
    assert len(gold.rows) == 4 and same_answer(ours.rows, gold.rows)  # an area with none too
    one = layer.parse("How many no-shows did we have last week?", language="en", now=now)
    assert one.query is not None and one.query.metrics == ["no_shows", "no_show_guests"]  # with the guests they bring


def test_guests_who_came_in_tonight_are_those_still_seated_too(layer, executor, now) -> None:
    parsed = layer.parse("toi nay khach vo bao nhieu nguoi roi, duoc may don", language="vi", now=now)
    assert parsed.query is not None and parsed.query.metrics == ["guests_in", "orders_in"], parsed.problem
    ours = executor.run(layer.compile(parsed.query).sql)
    gold = executor.run("""
        SELECT coalesce(sum(o.guest_cnt), 0), count(*) FROM orders o JOIN shifts s ON s.shift_id = o.shift_id
        WHERE s.shift_date = business_now()::date AND s.shift_code = 'D' AND o.status NOT IN ('CANCELLED', 'VOID')""")
    paid = executor.run("""
        SELECT coalesce(sum(o.guest_cnt), 0) FROM orders o JOIN shifts s ON s.shift_id = o.shift_id
        WHERE s.shift_date = business_now()::date AND s.shift_code = 'D' AND o.status = 'COMPLETED'""")
    assert gold.rows[0][0] > paid.rows[0][0] and same_answer(ours.rows, gold.rows)  # the open bills' guests too


def test_revenue_by_order_type_and_lines_cancelled_or_voided_follow_the_examples(layer, executor, now) -> None:
    by_type = layer.parse("Doanh thu theo loại đơn (ăn tại chỗ, mang đi, giao hàng) tháng này?", language="vi", now=now)
    assert by_type.query is not None and by_type.query.metrics == ["revenue", "completed_orders", "avg_check"]  # ex-035
    share = layer.parse("Tháng này ăn tại chỗ, mang về, giao hàng mỗi loại chiếm bao nhiêu % doanh thu?", language="vi",
                        now=now)
    assert share.query is not None and "avg_check" not in share.query.metrics  # a share's parts: never an average
    two = layer.parse("Tuần trước bao nhiêu đơn mang về với giao hàng, thu được bao nhiêu?", language="vi", now=now)
    assert two.query is not None and "avg_check" not in two.query.metrics  # the two figures it names
    removed = layer.parse("Tuần này có bao nhiêu món bị hủy hoặc void, trị giá bao nhiêu?", language="vi", now=now)
    assert removed.query is not None
    ours = executor.run(layer.compile(removed.query).sql)
    gold = executor.run("""
        SELECT line_status, count(*), sum(qty), sum(line_total_vnd) FROM order_items
        WHERE line_status IN ('VD', 'CXL') AND added_at >= date_trunc('week', business_now()) GROUP BY line_status""")
    assert len(gold.rows) == 2 and same_answer(ours.rows, gold.rows)  # the cancelled and the voided, a row each


def test_a_portions_margin_and_food_cost_on_the_menu(layer, executor, now) -> None:
    margin = layer.parse("Which 10 menu items have the highest gross margin per portion?", language="en", now=now)
    assert margin.query is not None and margin.query.metrics[0] == "menu_margin" and margin.query.limit == 10
    ours = executor.run(layer.compile(margin.query).sql)
    gold = executor.run("""
        SELECT name_en, price_vnd, cost_vnd, price_vnd - cost_vnd AS margin_vnd,
               round(100.0 * (price_vnd - cost_vnd) / nullif(price_vnd, 0), 1)
        FROM menu_items WHERE is_active ORDER BY margin_vnd DESC, item_id LIMIT 10""")  # ex-036
    assert same_answer(ours.rows, gold.rows)
    cost = layer.parse("Bò lúc lắc giá vốn bao nhiêu, food cost mấy % giá bán?", language="vi", now=now)
    assert cost.query is not None and "menu_food_cost_pct" in cost.query.metrics  # cost over price, not the margin
    ours = executor.run(layer.compile(cost.query).sql)
    gold = executor.run("""SELECT name_vi, price_vnd, cost_vnd, round(100.0 * cost_vnd / nullif(price_vnd, 0), 1)
                           FROM menu_items WHERE name_vi = 'Bò lúc lắc'""")
    assert same_answer(ours.rows, gold.rows)  # the one dish asked, named


def test_people_in_a_condition_with_no_figure_named_are_the_guests(layer, now) -> None:
    parsed = layer.parse("Which tables had more than 10 guests today?", language="en", now=now)
    assert parsed.query is not None and parsed.query.metrics[0] == "guests"
    assert parsed.query.threshold is not None and parsed.query.threshold.value == 10 and not parsed.query.filters


def test_the_average_tip_and_the_tip_rate(layer, executor, now) -> None:
    average = layer.parse("What's the average tip on card versus cash this month?", language="en", now=now)
    assert average.query is not None and average.query.metrics[0] == "avg_tip"
    rate = layer.parse("Top 3 servers by tips as a % of what they took this month", language="en", now=now)
    assert rate.query is not None and rate.query.metrics[0] == "tip_rate" and rate.query.limit == 3
    ours = executor.run(layer.compile(average.query).sql)
    gold = executor.run("""
        SELECT method, round(avg(tip_vnd)) FROM payments
        WHERE pay_status = 'OK' AND method IN ('CARD', 'CASH') AND paid_at >= date_trunc('month', business_now())
        GROUP BY method""")
    assert sorted((r[0], r[1]) for r in ours.rows) == sorted(map(tuple, gold.rows))  # every settled payment's tip


def test_any_bookings_asks_which_ones(layer, now) -> None:
    for question in ("Any bookings in the VIP rooms tonight?", "Any bookings for 6 or more people tomorrow?"):
        parsed = layer.parse(question, language="en", now=now)
        assert parsed.query is None and "list" in parsed.problem  # the bookings themselves, a list of rows
    counted = layer.parse("Any bookings still to arrive tonight? How many guests?", language="en", now=now)
    assert counted.query is not None


def test_a_comparison_filter_compares_with_one_number_only() -> None:
    assert where_filter(ValueFilter(dimension="reservation__booked_party_size", values=("6",), op=">=")) == \
        "{{ Dimension('reservation__booked_party_size') }} >= 6"
    for values in (("6 OR 1=1",), ("6", "7"), ("six",)):
        with pytest.raises(ValueError):
            ValueFilter(dimension="reservation__booked_party_size", values=values, op=">=")


def test_dishes_at_the_pass_are_the_ones_cooked_and_not_served(layer, executor, now) -> None:
    parsed = layer.parse("How many dishes are sitting at the pass right now waiting to go out?", language="en", now=now)
    assert parsed.query is not None and parsed.query.metrics[0] == "dishes_at_pass"  # never the dishes not yet cooked
    ours = executor.run(layer.compile(parsed.query).sql)
    gold = executor.run("SELECT count(*) FROM kitchen_tickets WHERE tkt_status = 'RDY'")
    assert ours.rows[0][0] == gold.rows[0][0]
    waiting = layer.parse("How many dishes are still waiting to go out right now?", language="en", now=now)
    assert waiting.query is not None and waiting.query.metrics[0] == "dishes_waiting"


def test_a_deliveries_count_named_is_the_count_shown_beside_the_spend(layer, now) -> None:
    parsed = layer.parse("mỗi nhà cung cấp giao mấy chuyến, tổng tiền bao nhiêu tháng này", language="vi", now=now)
    assert parsed.query is not None and parsed.query.metrics == ["deliveries", "supplier_spend"]  # no goods lines too
    alone = layer.parse("tháng này mỗi nhà cung cấp nhập hết bao nhiêu tiền", language="vi", now=now)
    assert alone.query is not None and alone.query.metrics == ["supplier_spend", "receipt_lines"]


@pytest.mark.parametrize(("question", "language", "days"), [
    ("How many lunch covers did we do each day Monday to Friday last week?", "en", (2, 6)),
    ("doanh thu từ thứ 2 đến thứ 6 tuần trước", "vi", (2, 6)),  # its own end: never "từ ..." up to now
    ("revenue from Monday to Wednesday this week", "en", (9, 11)),
    ("doanh thu thu 2 toi thu 6 tuan nay", "vi", (9, 13)),
    ("doanh thu từ thứ 2 đến thứ 6 tuần trước nữa", "vi", (-5, -1)),  # the week before last: 26 to 30 October
])
def test_days_of_one_week_said_as_a_span(layer, now, question, language, days) -> None:
    parsed = layer.parse(question, language=language, now=now)
    assert parsed.query is not None and parsed.query.time is not None, (parsed.problem, parsed.unknown)
    first, last = (dt.date(2026, 11, 1) + dt.timedelta(days=d - 1) for d in days)
    assert (parsed.query.time.start, parsed.query.time.end) == (first, last)


def test_a_weekday_of_the_week_before_last(layer, now) -> None:
    parsed = layer.parse("doanh thu thứ 7 tuần trước so với thứ 7 tuần trước nữa", language="vi", now=now)
    assert parsed.query is not None and parsed.query.time is not None and parsed.query.compare is not None
    assert (parsed.query.time.start, parsed.query.compare.start) == (dt.date(2026, 11, 7), dt.date(2026, 10, 31))


def test_a_condition_on_a_count_named_after_a_value_is_on_that_count(layer, now) -> None:
    parsed = layer.parse("Top 3 servers by tip rate this month (only servers with at least 50 paid bills)?",
                         language="en", now=now)  # never "a tip rate of at least 50"
    assert parsed.query is None and "paid_bills" in parsed.problem
    kept = layer.parse("which dishes sold at least 50 portions this week", language="en", now=now)
    assert kept.query is not None and kept.query.threshold is not None


@pytest.mark.parametrize(("question", "language"), [
    ("Vòng quay bàn tuần trước của từng khu vực?", "vi"),
    ("What was table turnover in each seating area last week?", "en"),
])
def test_table_turns_by_area_are_over_each_areas_own_tables(layer, executor, now, question, language) -> None:
    parsed = layer.parse(question, language=language, now=now)
    assert parsed.query is not None, (parsed.problem, parsed.unknown)
    ours = executor.run(layer.compile(parsed.query).sql)
    gold = executor.run("""
        WITH active AS (SELECT area_code, count(*) AS n FROM tables WHERE is_active GROUP BY area_code)
        SELECT t.area_code, round(count(*)::numeric / a.n, 2), count(*), a.n
        FROM orders o JOIN tables t ON t.table_id = o.table_id JOIN active a ON a.area_code = t.area_code
        WHERE o.order_type = 'DI' AND o.status = 'COMPLETED'
          AND o.opened_at >= date_trunc('week', business_now()) - interval '7 days'
          AND o.opened_at < date_trunc('week', business_now())
        GROUP BY t.area_code, a.n""")
    assert len(gold.rows) > 1 and sorted(map(tuple, ours.rows)) == sorted(map(tuple, gold.rows))
    by_table = layer.parse("Tuần này bàn VIP quay vòng được mấy lượt mỗi bàn?", language="vi", now=now)
    assert by_table.query is None  # each table would count its whole area's tables
    one_table = layer.parse("Tuần này bàn 23 ở phòng VIP quay vòng được mấy lượt?", language="vi", now=now)
    assert one_table.query is None  # filtered to one table: its parties over the area's tables, never answered
    one_area = layer.parse("Tuần này khu ngoài sân quay vòng bàn được mấy lần?", language="vi", now=now)
    assert one_area.query is not None and one_area.query.metrics[0] == "area_table_turnover"


@pytest.mark.parametrize(("question", "language"), [
    ("Which tables are occupied right now?", "en"),
    ("ban nao dang co khach vay", "vi"),
])
def test_which_tables_are_occupied_lists_each_with_its_guests_and_time_seated(layer, executor, now, question,
                                                                               language) -> None:
    parsed = layer.parse(question, language=language, now=now)
    assert parsed.query is not None, (parsed.problem, parsed.unknown)
    assert parsed.query.metrics == ["seated_guests", "minutes_seated_now"]
    ours = executor.run(layer.compile(parsed.query).sql)
    gold = executor.run("""
        SELECT t.table_no, o.guest_cnt, round(extract(epoch FROM business_now() - o.opened_at) / 60)
        FROM orders o JOIN tables t ON t.table_id = o.table_id
        WHERE o.order_type = 'DI' AND o.status IN ('OPEN', 'IN_PROGRESS')""")
    assert gold.rows and sorted(map(tuple, ours.rows)) == sorted(map(tuple, gold.rows))


def test_how_long_a_table_has_been_sat_is_a_state_right_now(layer, now) -> None:
    longest = layer.parse("Which table has been sat the longest right now?", language="en", now=now)
    assert longest.query is not None and longest.query.metrics[0] == "minutes_seated_now" and longest.query.limit == 1
    past = layer.parse("Tháng này bàn nào khách ngồi lâu nhất?", language="vi", now=now)  # a period: the average
    assert past.query is not None and past.query.metrics[0] == "avg_minutes_seated"
    when = layer.parse("Bàn 5 vô lúc mấy giờ, ngồi được bao lâu rồi?", language="vi", now=now)
    assert when.query is None  # when one row began: never the time seated split by hour


@pytest.mark.parametrize(("question", "language", "area"), [
    ("Which tables are free right now?", "en", None),
    ("còn bàn trống nào ở khu ngoài trời không", "vi", "OU"),  # the area said: not shown again
])
def test_which_tables_are_free_lists_the_tables_alone(layer, executor, now, question, language, area) -> None:
    parsed = layer.parse(question, language=language, now=now)
    assert parsed.query is not None and parsed.query.rows_only, (parsed.problem, parsed.unknown)
    compiled = layer.compile(parsed.query)
    assert compiled.columns == (("table_no", "area", "seats") if area is None else ("table_no", "seats"))
    ours = executor.run(compiled.sql)
    gold = executor.run(f"""
        SELECT t.table_no, {'t.area_code, ' if area is None else ''}t.seats FROM tables t
        WHERE t.is_active {f"AND t.area_code = '{area}'" if area else ''} AND NOT EXISTS (
            SELECT 1 FROM orders o WHERE o.table_id = t.table_id AND o.order_type = 'DI'
              AND o.status IN ('OPEN', 'IN_PROGRESS'))""")
    assert gold.rows and sorted(map(tuple, ours.rows)) == sorted(map(tuple, gold.rows))
    counted = layer.parse("how many free tables right now", language="en", now=now)
    assert counted.query is not None and not counted.query.rows_only  # a count, not the list


def test_a_list_of_rows_needs_a_split_and_one_period(layer) -> None:
    from aria.semantic.compile import SemanticQueryError
    from aria.semantic.query import SemanticQuery
    with pytest.raises(SemanticQueryError, match="A list of rows needs a split"):
        layer.compile(SemanticQuery(metrics=["free_tables"], rows_only=True))


def test_who_is_on_now_lists_each_one_and_since_when_but_who_was_on_is_not_listed(layer, now) -> None:
    bartenders = layer.parse("Which bartenders are clocked in right now?", language="en", now=now)
    assert bartenders.query is not None and bartenders.query.metrics == ["clocked_in_at"]
    assert bartenders.query.group_by == ["staff__full_name"]  # the role said: not shown again
    tonight = layer.parse("Ca tối nay những ai đang có mặt vậy?", language="vi", now=now)
    assert tonight.query is not None and tonight.query.metrics == ["clocked_in_at"]
    yesterday = layer.parse("hôm qua ca trưa ai đứng ca quản lý vậy", language="vi", now=now)
    assert yesterday.query is None  # who worked then, never who is clocked in now


def test_a_value_labelled_by_its_concept_is_no_split_when_something_else_is_ranked(layer, now) -> None:
    parsed = layer.parse("Which station was slowest during dinner service last night?", language="en", now=now)
    assert parsed.query is not None and parsed.query.group_by == ["station__name_en", "station__target_prep_m"]


def test_a_tickets_dish_is_looked_up_from_its_order_line(layer, executor, now) -> None:
    parsed = layer.parse("Average prep time for each hotpot this month?", language="en", now=now)
    assert parsed.query is not None
    ours = executor.run(layer.compile(parsed.query).sql)
    gold = executor.run("""
        SELECT m.name_en, round(avg(extract(epoch FROM k.ready_at - k.fired_at)) / 60, 1), count(*)
        FROM kitchen_tickets k JOIN order_items oi ON oi.order_item_id = k.order_item_id
        JOIN menu_items m ON m.item_id = oi.item_id JOIN categories c ON c.category_id = m.category_id
        WHERE c.cat_code = 'HOTPOT' AND k.ready_at IS NOT NULL AND k.fired_at >= date_trunc('month', business_now())
        GROUP BY m.item_id, m.name_en""")
    assert gold.rows and sorted(map(tuple, ours.rows)) == sorted(map(tuple, gold.rows))


@pytest.mark.parametrize(("question", "language", "first"), [
    ("What was table turnover in each seating area last week?", "en", "area_table_turnover"),  # each area's own tables
    ("Who are the top 3 gold-tier customers this week?", "en", "revenue"),  # "who": the customers, ranked by spend
    ("Food cost tuần trước là bao nhiêu % doanh số, so với tuần trước nữa thì sao?", "vi", "food_cost_pct"),  # the ratio
    ("bàn 12 ngồi bao lâu rồi", "vi", "minutes_seated_now"),  # sat so far: never the table's past average
    ("Which terrace tables are free right now?", "en", "free_tables"),  # the list of them: never their count
])
def test_questions_handed_over_before_this_stop_and_read_now(layer, now, question, language, first) -> None:
    parsed = layer.parse(question, language=language, now=now)
    assert parsed.query is not None and parsed.query.metrics[0] == first, (parsed.problem, parsed.unknown)


@pytest.mark.parametrize(("question", "language", "by_supplier"), [
    ("How many ingredients are under their reorder point right now?", "en", False),
    ("co may nguyen lieu dang duoi muc dat hang lai", "vi", False),
    ("which supplier has the most ingredients below reorder level", "en", True),
    ("nhà cung cấp nào có nhiều nguyên liệu dưới mức đặt hàng lại nhất", "vi", True),
])
def test_how_many_ingredients_are_low_counts_them(layer, executor, now, question, language, by_supplier) -> None:
    parsed = layer.parse(question, language=language, now=now)
    assert parsed.query is not None and parsed.query.metrics == ["low_stock_ingredients"], parsed.problem
    ours = executor.run(layer.compile(parsed.query).sql)
    gold = executor.run(f"""
        WITH stock AS (
            SELECT i.ingredient_id, i.supplier_id, i.reorder_lvl, coalesce(sum(l.qty_delta), 0) AS on_hand
            FROM ingredients i LEFT JOIN inventory_logs l ON l.ingredient_id = i.ingredient_id
            GROUP BY i.ingredient_id, i.supplier_id, i.reorder_lvl)
        SELECT {'sp.name, sp.lead_time_d, ' if by_supplier else ''}count(*) FROM stock s
        JOIN suppliers sp ON sp.supplier_id = s.supplier_id WHERE s.on_hand < s.reorder_lvl
        {'GROUP BY sp.supplier_id, sp.name, sp.lead_time_d ORDER BY count(*) DESC, sp.supplier_id' if by_supplier else ''}""")
    assert gold.rows and [tuple(r) for r in ours.rows] == [tuple(r) for r in gold.rows]
    listed = layer.parse("Which ingredients are below their reorder level right now?", language="en", now=now)
    assert listed.query is not None and listed.query.metrics[0] == "stock_on_hand"  # which ones: each, listed


def test_tips_are_shown_with_what_each_split_settled(layer, now) -> None:
    by_server = layer.parse("Tips per server last month?", language="en", now=now)
    assert by_server.query is not None and by_server.query.metrics == ["tips", "paid_bills"]  # each one's bills
    by_method = layer.parse("Tips by payment method last month?", language="en", now=now)
    assert by_method.query is not None and by_method.query.metrics == ["tips", "payments"]  # the payments they came with
    by_shift = layer.parse("Tips by shift last week?", language="en", now=now)
    assert by_shift.query is not None and by_shift.query.metrics == ["tips"]


def test_nao_after_a_concept_asks_which_of_it_not_of_the_value_after(layer, now) -> None:
    parsed = layer.parse("Tuần này khung giờ nào quầy bar ra nước chậm nhất?", language="vi", now=now)
    assert parsed.query is not None and parsed.query.group_by == ["kitchen_ticket__hour_of_day"]  # never by station
    dessert = layer.parse("món tráng miệng nào bán chạy nhất tuần này", language="vi", now=now)
    assert dessert.query is not None and dessert.query.group_by == ["menu_item__name_vi"]  # which dessert


def test_values_said_to_be_added_together_are_one_row(layer, now) -> None:
    together = layer.parse("How much beer went out yesterday, Saigon and Heineken together?", language="en", now=now)
    assert together.query is not None and together.query.group_by == []
    assert [len(f.values) for f in together.query.filters] == [2]
    each = layer.parse("How much beer went out yesterday, Saigon and Heineken?", language="en", now=now)
    assert each.query is not None and each.query.group_by == ["menu_item__name_en"]  # listed: one row each


def _one_row_of(layer, executor, now, question: str, language: str, metric: str) -> dict[str, Any]:
    """The one row a question unranked and unsplit answers, by column, after checking its first metric."""
    parsed = layer.parse(question, language=language, now=now)
    assert parsed.query is not None and parsed.query.metrics[0] == metric, parsed.problem
    assert parsed.query.group_by == [] and parsed.query.order_by == [] and parsed.query.limit is None
    compiled = layer.compile(parsed.query)
    return dict(zip(compiled.columns, executor.run(compiled.sql).rows[0], strict=True))


@pytest.mark.parametrize(("question", "language"), [
    ("What share of dine-in bills this week had at least one drink on them?", "en"),
    ("Tuần này bao nhiêu phần trăm bàn ăn tại chỗ có gọi đồ uống?", "vi"),
])
def test_the_share_of_dine_in_bills_with_a_drink(layer, executor, now, question, language) -> None:
    ours = _one_row_of(layer, executor, now, question, language, "drink_attach_rate")  # "at least one": no ranking
    gold = executor.run("""
        SELECT count(*), count(*) FILTER (WHERE EXISTS (
            SELECT 1 FROM order_items oi JOIN menu_items m ON m.item_id = oi.item_id
            JOIN categories c ON c.category_id = m.category_id
            WHERE oi.order_id = o.order_id AND c.cat_code = 'DRINK' AND oi.line_status NOT IN ('VD', 'CXL')))
        FROM orders o WHERE o.order_type = 'DI' AND o.status = 'COMPLETED'
          AND o.opened_at >= date_trunc('week', business_now())""").rows[0]
    assert gold[1] > 0 and (ours["dine_in_orders"], ours["orders_with_drink"]) == (gold[0], gold[1])
    assert float(ours["drink_pct"]) == round(100.0 * gold[1] / gold[0], 1)


def test_each_dishs_profit_is_shown_beside_its_portions_and_sales_not_its_food_cost(layer, now) -> None:
    dishes = layer.parse("Top 5 dishes by total gross profit this month", language="en", now=now)
    assert dishes.query is not None and dishes.query.metrics == ["gross_profit", "dish_sales", "portions_sold"]
    categories = layer.parse("Gross profit by category this month", language="en", now=now)
    assert categories.query is not None and "dish_cost" in categories.query.metrics  # a category's: with its cost


def test_two_figures_named_are_shown_without_the_companions_of_one(layer, now) -> None:
    parsed = layer.parse("gio con bao nhieu ban chua tinh tien, tong tam tinh bao nhieu", language="vi", now=now)
    assert parsed.query is not None and parsed.query.metrics == ["occupied_tables", "open_subtotal"]


@pytest.mark.parametrize(("question", "language"), [
    ("How many drinks per guest did we sell last week?", "en"),
    ("Tuần trước trung bình mỗi khách uống mấy ly nước?", "vi"),
])
def test_drinks_per_guest_counts_the_drinks_on_completed_bills(layer, executor, now, question, language) -> None:
    ours = _one_row_of(layer, executor, now, question, language, "drinks_per_guest")
    gold = executor.run("""
        WITH bills AS (SELECT order_id, guest_cnt FROM orders WHERE status = 'COMPLETED'
                         AND opened_at >= date_trunc('week', business_now()) - interval '7 days'
                         AND opened_at < date_trunc('week', business_now()))
        SELECT (SELECT sum(oi.qty) FROM order_items oi JOIN bills b ON b.order_id = oi.order_id
                JOIN menu_items m ON m.item_id = oi.item_id JOIN categories c ON c.category_id = m.category_id
                WHERE c.cat_code = 'DRINK' AND oi.line_status NOT IN ('VD', 'CXL')),
               (SELECT sum(guest_cnt) FROM bills)""").rows[0]
    assert gold[0] > 0 and (ours["drinks_sold"], ours["guests"]) == (gold[0], gold[1])
    assert float(ours["drinks_per_guest"]) == round(gold[0] / gold[1], 2)


@pytest.mark.parametrize(("question", "language", "seats"), [
    ("Khu ngoài trời giờ còn bàn nào trống không em?", "vi", None),  # "bàn nào trống": the free tables, listed
    ("any free tables out on the terrace that seat 4 or more?", "en", "4"),
    ("Bây giờ còn bàn nào trống ngồi được 6 người trở lên không?", "vi", "6"),
])
def test_which_tables_are_free_with_their_seats_said(layer, now, question, language, seats) -> None:
    parsed = layer.parse(question, language=language, now=now)
    assert parsed.query is not None and parsed.query.rows_only and parsed.query.metrics == ["free_tables"], parsed.problem
    sized = [f for f in parsed.query.filters if f.op is not None]
    assert [(f.dimension, f.op, f.values) for f in sized] == \
        ([("dining_table__seats", ">=", (seats,))] if seats else [])  # the seats, never how many tables are free
    assert parsed.query.threshold is None


def test_revenue_per_seat_by_area_is_over_each_areas_own_seats(layer, executor, now) -> None:
    parsed = layer.parse("Dine-in revenue per seat by area for October?", language="en", now=now)
    assert parsed.query is not None and parsed.query.metrics[0] == "area_revenue_per_seat", parsed.problem
    compiled = layer.compile(parsed.query)
    ours = {r[0]: dict(zip(compiled.columns, r, strict=True)) for r in executor.run(compiled.sql).rows}
    gold = executor.run("""
        WITH s AS (SELECT area_code, sum(seats) AS seats FROM tables WHERE is_active GROUP BY area_code)
        SELECT t.area_code, s.seats, sum(o.total_vnd), round(sum(o.total_vnd)::numeric / s.seats)
        FROM orders o JOIN tables t ON t.table_id = o.table_id JOIN s ON s.area_code = t.area_code
        WHERE o.order_type = 'DI' AND o.status = 'COMPLETED'
          AND o.opened_at >= DATE '2026-10-01' AND o.opened_at < DATE '2026-11-01'
        GROUP BY t.area_code, s.seats""").rows
    assert len(gold) == len(ours) > 1
    for area, seats, revenue, per_seat in gold:
        row = ours[area]
        assert (row["area_seats"], row["revenue_vnd"], row["area_revenue_per_seat_vnd"]) == (seats, revenue, per_seat)
    whole = layer.parse("revenue per seat last month", language="en", now=now)
    assert whole.query is not None and whole.query.metrics[0] == "revenue_per_seat"  # over every seat in service


def test_tickets_waiting_past_the_standard_time_are_never_all_the_tickets_waiting(layer, now) -> None:
    waiting = layer.parse("hien gio bep nao dang co phieu cho qua thoi gian chuan", language="vi", now=now)
    assert waiting.query is None  # no metric counts the tickets waiting past their target: handed over, never all
    late = layer.parse("hom qua co bao nhieu phieu ra qua thoi gian chuan", language="vi", now=now)
    assert late.query is not None and late.query.metrics[0] == "late_tickets"


def test_a_month_named_of_birthdays_is_the_one_to_come(layer, now) -> None:
    parsed = layer.parse("How many of our members have a birthday in December?", language="en", now=now)
    assert parsed.query is not None and parsed.query.metrics == ["birthdays"]
    assert parsed.query.time is not None and parsed.query.time.start == dt.date(now.year, 12, 1)


@pytest.mark.parametrize(("question", "language", "metric", "days"), [
    ("food cost % lwk", "en", "food_cost_pct", (dt.date(2026, 11, 2), dt.date(2026, 11, 8))),  # last week
    ("table turnover last w/e", "en", "table_turnover", (dt.date(2026, 11, 7), dt.date(2026, 11, 8))),  # weekend
    ("% of orders w/ a promo this month", "en", "promo_rate", (dt.date(2026, 11, 1), dt.date(2026, 11, 15))),
    ("guests seated atm", "en", "seated_guests", None),  # at the moment
    ("biên ln gộp theo danh mục tháng trước", "vi", "gross_margin_pct", (dt.date(2026, 10, 1), dt.date(2026, 10, 31))),
    ("dt cuoi tuan truoc nua", "vi", "revenue", (dt.date(2026, 10, 31), dt.date(2026, 11, 1))),  # the weekend
    ("revenue the weekend before last", "en", "revenue", (dt.date(2026, 10, 31), dt.date(2026, 11, 1))),  # before last
    ("tuần này có bao nhiêu khách bỏ bàn", "vi", "no_shows", (dt.date(2026, 11, 9), dt.date(2026, 11, 15))),
    ("tổng khách hôm qua", "vi", "guests", (dt.date(2026, 11, 14), dt.date(2026, 11, 14))),  # the total of guests
    ("chủ nhật rồi mình bán được bao nhiêu ly đồ uống", "vi", "portions_sold",  # "rồi": the Sunday before today
     (dt.date(2026, 11, 8), dt.date(2026, 11, 8))),
])
def test_shorthand_typed_on_a_phone_and_the_days_it_names(layer, now, question, language, metric, days) -> None:
    parsed = layer.parse(question, language=language, now=now)
    assert parsed.query is not None, (parsed.problem, parsed.unknown)
    assert parsed.query.metrics[0] == metric
    time = parsed.query.time
    assert (None if time is None else (time.start, time.end)) == days


@pytest.mark.parametrize(("question", "language", "metric", "filters", "group_by"), [
    ("pho bo ban duoc hom qua", "vi", "portions_sold", [("Phở bò tái nạm",)], []),  # never "bỏ bàn", a no-show
    ("quan ly co may nguoi", "vi", "employees", [("MGR",)], []),  # how many managers, never the guests by manager
    ("phục vụ có mấy người", "vi", "employees", [("SRV",)], []),
    ("doanh thu các ca tối thứ 6 tháng trước", "vi", "revenue", [("D",), ("5",)], []),  # every Friday's dinner
    ("Tip rate by shift this month, highest first", "en", "tip_rate", [], ["order__shift__shift_code"]),  # in order,
    # never the one best shift of a day
    ("Gross margin % by category this week, in a table", "en", "gross_margin_pct", [],
     ["menu_item__category__name_en"]),  # a table is shown anyway
    ("dt hqua bn? chỉ cần con số thôi", "vi", "revenue", [], []),
    ("Total tips this lunch shift - one number only", "en", "tips", [("L",)], []),
    ("hóa đơn tb ca trưa vs ca tối 7 ngày qua, kẻ bảng giúp mình", "vi", "avg_check", [("L", "D")],
     ["shift__shift_code"]),
])
def test_the_words_that_say_how_to_show_it_and_who_is_counted(layer, now, question, language, metric, filters,
                                                              group_by) -> None:
    parsed = layer.parse(question, language=language, now=now)
    assert parsed.query is not None, (parsed.problem, parsed.unknown)
    assert parsed.query.metrics[0] == metric
    assert [tuple(f.values) for f in parsed.query.filters] == filters
    assert parsed.query.group_by == group_by and parsed.query.limit is None


@pytest.mark.parametrize(("question", "metric"), [
    ("Lượt khách theo thứ trong tuần tháng trước, xếp từ đông nhất", "guests"),  # from the busiest: every day
    ("Doanh thu theo khu vực tuần trước, cao xuống thấp", "revenue"),
    ("Giờ công từng nhân viên tháng này, xếp từ nhiều đến ít", "hours_worked"),  # every one, never the top of each role
    ("Doanh thu từng bàn hôm qua, bàn nhiều nhất lên trên", "revenue"),
    ("Tip rate by shift this month, highest first", "tip_rate"),
])
def test_an_order_said_lists_every_row_in_that_order(layer, now, question, metric) -> None:
    parsed = layer.parse(question, language="en" if question.startswith("Tip") else "vi", now=now)
    assert parsed.query is not None, (parsed.problem, parsed.unknown)
    assert parsed.query.limit is None and parsed.query.limit_per is None
    assert [(o.by, o.descending) for o in parsed.query.order_by] == [(metric, True)]


@pytest.mark.parametrize(("question", "language"), [
    ("nguyên liệu nào nhập từ hơn 1 ncc", "vi"),  # how many suppliers: never the spend over 1 dong
    ("doanh thu ca tối thứ 6 tuần trước so với các ca tối thứ 6", "vi"),  # every Friday: never this week's one
    ("late-night delivery orders on weekends this month", "en"),  # hours not said: never the late tickets
    ("cooks lunch vs dinner last week", "en"),  # what of the cooks: never the revenue, the cooks dropped
    ("void rate at Sunday lunch vs weekday lunch last 30 days", "en"),  # two kinds of day: never both at once
])
def test_what_the_figure_counts_and_days_that_cannot_meet_are_handed_over(layer, now, question, language) -> None:
    parsed = layer.parse(question, language=language, now=now)
    assert not parsed.ok and parsed.problem


def test_two_weekdays_said_before_their_week_are_both_of_it(layer, now) -> None:
    parsed = layer.parse("revenue on friday and saturday last week", language="en", now=now)
    assert parsed.query is not None and parsed.query.time is not None and parsed.query.compare is not None
    assert (parsed.query.time.start, parsed.query.compare.start) == (dt.date(2026, 11, 6), dt.date(2026, 11, 7))


@pytest.mark.parametrize(("question", "language", "metrics", "group_by"), [
    ("Quán mình có tổng cộng bao nhiêu bàn, bao nhiêu ghế?", "vi", ["table_count", "seat_count"], []),
    ("How many dishes are in each menu category?", "en", ["active_menu_items"], ["category__name_en"]),
    ("thang nay co bao nhieu thanh vien moi", "vi", ["new_customers"], []),  # never the members on the books
    ("khách vãng lai chiếm bao nhiêu % đơn hôm qua vậy", "vi", ["completed_orders"], []),  # a share of the orders,
    # never of the revenue
    ("Ngày 3/11: dt, khách, số bill", "vi", ["revenue", "guests", "completed_orders"], []),  # the guests listed: never
    # dropped as the customers
    ("Rank the servers by guests served yesterday.", "en", ["guests", "completed_orders"], ["server__full_name"]),
])
def test_what_the_restaurant_has_and_what_a_share_is_of(layer, now, question, language, metrics, group_by) -> None:
    parsed = layer.parse(question, language=language, now=now)
    assert parsed.query is not None, (parsed.problem, parsed.unknown)
    assert parsed.query.metrics == metrics and parsed.query.group_by == group_by


@pytest.mark.parametrize("question", [
    "how many bills got a tip through Friday",  # from when: never Friday alone, nor every Friday
    "VIP room revenue this month through Friday",
    "most expensive drink anyone ordered this weekend",  # the menu's price has no period: never the period dropped
    "who got the single biggest tip last month",  # one payment's tip: never the servers' totals ranked
])
def test_a_day_to_end_on_and_one_record_at_an_extreme_are_handed_over(layer, now, question) -> None:
    parsed = layer.parse(question, language="en", now=now)
    assert not parsed.ok and parsed.problem


@pytest.mark.parametrize(("question", "first", "second"), [
    ("lượt khách thứ 7 tuần rồi nhiều hơn chủ nhật bao nhiêu", dt.date(2026, 11, 7), dt.date(2026, 11, 8)),  # that
    ("doanh thu thứ 6 tuần trước hơn thứ 5 bao nhiêu", dt.date(2026, 11, 6), dt.date(2026, 11, 5)),  # week's, never
    # this week's
])
def test_a_weekday_said_bare_after_one_with_its_week_is_of_that_week(layer, now, question, first, second) -> None:
    parsed = layer.parse(question, language="vi", now=now)
    assert parsed.query is not None and parsed.query.time is not None and parsed.query.compare is not None
    assert (parsed.query.time.start, parsed.query.compare.start) == (first, second)


@pytest.mark.parametrize(("question", "metric", "group_by", "limit"), [
    ("top 3 phục vụ nhận tip nhiều nhất ca trưa tuần này", "tips", ["order__server__full_name"], 3),  # the servers
    ("Thu ngân ca trưa thường làm mấy tiếng?", "avg_shift_hours", [], None),  # usually: a shift's length
])
def test_the_servers_ranked_and_the_usual_shift(layer, now, question, metric, group_by, limit) -> None:
    parsed = layer.parse(question, language="vi", now=now)
    assert parsed.query is not None, (parsed.problem, parsed.unknown)
    assert parsed.query.metrics[0] == metric and parsed.query.group_by == group_by and parsed.query.limit == limit


@pytest.mark.parametrize("question", [
    "How many Combo 2 did we sell this week?",  # a name's number: never the top 2 combos
    "ca 1 hôm nay dt bn",
    "phòng VIP 2 tháng này lật bàn mấy lần",  # never the last 2 months
    "phong VIP 1 thu 7 vua roi bao nhieu khach",  # never the Saturdays of the last week
    "Revenue per table for tables 1 through 10 yesterday",  # a range of tables: never table 1 and the top 10
])
def test_a_number_that_names_something_is_never_how_many(layer, now, question) -> None:
    parsed = layer.parse(question, language="en" if question.startswith(("How", "Revenue")) else "vi", now=now)
    assert not parsed.ok and parsed.problem


def test_takeaway_said_before_an_average_stays_takeaway(layer, now) -> None:
    parsed = layer.parse("mang về bill tb tháng này", language="vi", now=now)  # never "brought in", the value dropped
    assert parsed.query is not None and parsed.query.metrics[0] == "avg_check"
    assert [tuple(f.values) for f in parsed.query.filters] == [("TA",)]


def test_who_asked_after_and_is_a_second_question(layer, now) -> None:
    parsed = layer.parse("which ingredients are below reorder level and who supplies them", language="en", now=now)
    assert not parsed.ok and parsed.problem  # never the ingredients with "who" dropped
