"""Time phrases of the semantic parser (aria/semantic/periods.py), on a fixed business clock: Sunday
2026-11-15 19:40 in the restaurant's time zone."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest

from aria.semantic.periods import day_to_come, find_periods, month_to_come, shift_in_progress
from aria.text import normalize

NOW = dt.datetime(2026, 11, 15, 19, 40, tzinfo=ZoneInfo("Asia/Ho_Chi_Minh"))


def _periods(question: str) -> list[tuple[dt.date, dt.date, str]]:
    return [(f.range.start, f.range.end, f.range.phrase) for f in find_periods(normalize(question), NOW)]


@pytest.mark.parametrize(("question", "start", "end", "phrase"), [
    ("Tips since Monday?", dt.date(2026, 11, 9), dt.date(2026, 11, 15), "since monday"),  # up to now
    ("Doanh thu kể từ thứ Hai?", dt.date(2026, 11, 9), dt.date(2026, 11, 15), "ke tu thu hai"),
    ("Revenue since October", dt.date(2026, 10, 1), dt.date(2026, 11, 15), "since october"),
    ("Doanh thu tính từ 1/11 đến 5/11", dt.date(2026, 11, 1), dt.date(2026, 11, 5), "tinh tu 1 11 den 5 11"),
    ("Weekly revenue over the last four weeks", dt.date(2026, 10, 19), dt.date(2026, 11, 15),
     "over the last four weeks"),  # a count in words, as "the last 4 weeks"
    ("Doanh thu tối qua", dt.date(2026, 11, 14), dt.date(2026, 11, 14), "toi qua"),  # last night: yesterday
    ("Doanh thu kể từ đầu tháng 9 đến giờ", dt.date(2026, 9, 1), dt.date(2026, 11, 15),
     "ke tu dau thang 9 den gio"),  # from the start of a month named
    ("Revenue since the start of September", dt.date(2026, 9, 1), dt.date(2026, 11, 15),
     "since the start of september"),
    ("Bookings for the next three days", dt.date(2026, 11, 16), dt.date(2026, 11, 18), "for the next three days"),
    ("Ba ngày tới có bao nhiêu lượt đặt bàn", dt.date(2026, 11, 16), dt.date(2026, 11, 18), "ba ngay toi"),
    ("Đặt bàn tuần sau", dt.date(2026, 11, 16), dt.date(2026, 11, 22), "tuan sau"),  # the whole week to come
    ("Bookings next month", dt.date(2026, 12, 1), dt.date(2026, 12, 31), "next month"),
    ("4 tuần vừa rồi thứ mấy bán chạy nhất", dt.date(2026, 10, 12), dt.date(2026, 11, 8),
     "4 tuan vua roi"),  # the weeks just gone: whole ones, this week left out
    ("Doanh thu 4 tuần qua", dt.date(2026, 10, 19), dt.date(2026, 11, 15), "4 tuan qua"),  # up to now
    ("Doanh thu quý 3", dt.date(2026, 7, 1), dt.date(2026, 9, 30), "quy 3"),  # a numbered quarter, whole
    ("What did we sell this past Monday?", dt.date(2026, 11, 9), dt.date(2026, 11, 9), "this past monday"),
    ("Revenue this past weekend", dt.date(2026, 11, 7), dt.date(2026, 11, 8), "this past weekend"),
    ("top 5 dishes over the 7 days before today", dt.date(2026, 11, 8), dt.date(2026, 11, 14),
     "over the 7 days before today"),  # whole days, today left out
    ("7 ngày trước hôm nay món bị hủy vì lý do gì", dt.date(2026, 11, 8), dt.date(2026, 11, 14), "7 ngay truoc hom nay"),
    ("mai phong VIP co bao nhieu booking", dt.date(2026, 11, 16), dt.date(2026, 11, 16), "mai"),  # tomorrow, opening
    ("Mấy đơn ship tới giờ rồi em?", dt.date(2026, 11, 15), dt.date(2026, 11, 15), "toi gio"),  # today so far
    ("Doanh thu ngày 1 tháng 11", dt.date(2026, 11, 1), dt.date(2026, 11, 1), "ngay 1 thang 11"),
    ("Doanh thu mùng 1", dt.date(2026, 11, 1), dt.date(2026, 11, 1), "mung 1"),  # this month's
    ("Revenue on the 20th", dt.date(2026, 10, 20), dt.date(2026, 10, 20), "on the 20th"),  # still to come: last month's
    ("Revenue 2 weeks ago", dt.date(2026, 10, 26), dt.date(2026, 11, 1), "2 weeks ago"),  # that calendar week
    ("No-shows by weekday, going back 8 weeks", dt.date(2026, 9, 21), dt.date(2026, 11, 15), "going back 8 weeks"),
    ("Q4 revenue by month", dt.date(2026, 10, 1), dt.date(2026, 11, 15), "q4"),  # the current one: up to today
    ("Revenue in the third quarter of last year", dt.date(2025, 7, 1), dt.date(2025, 9, 30),
     "in the third quarter of last year"),
    # a part of a month named after it: those days of it (the current month's up to today)
    ("Revenue the first week of November", dt.date(2026, 11, 1), dt.date(2026, 11, 7), "the first week of november"),
    ("Doanh thu tuần đầu tiên của tháng 10", dt.date(2026, 10, 1), dt.date(2026, 10, 7), "tuan dau tien cua thang 10"),
    ("Revenue in the last week of October", dt.date(2026, 10, 25), dt.date(2026, 10, 31),
     "in the last week of october"),  # never last week beside October
    ("Doanh thu nửa cuối tháng trước", dt.date(2026, 10, 16), dt.date(2026, 10, 31), "nua cuoi thang truoc"),
    ("Doanh thu nửa cuối tháng này", dt.date(2026, 11, 16), dt.date(2026, 11, 30), "nua cuoi thang nay"),  # to come
    ("Orders in the first 10 days of this month", dt.date(2026, 11, 1), dt.date(2026, 11, 10),
     "in the first 10 days of this month"),
    ("Doanh thu 5 ngày cuối tháng 9", dt.date(2026, 9, 26), dt.date(2026, 9, 30), "5 ngay cuoi thang 9"),
    # a year by its number: the year, the current one up to today
    ("Revenue by month for 2026", dt.date(2026, 1, 1), dt.date(2026, 11, 15), "for 2026"),
    ("Doanh thu năm 2025", dt.date(2025, 1, 1), dt.date(2025, 12, 31), "nam 2025"),
    # days of one month said as a span, the month once; two dates joined by "to" with no "from"
    ("VAT collected Oct 1–15", dt.date(2026, 10, 1), dt.date(2026, 10, 15), "oct 1 15"),
    ("Sales from Nov 1 to 14", dt.date(2026, 11, 1), dt.date(2026, 11, 14), "nov 1 to 14"),
    ("Refunds between the 5th and the 12th of November", dt.date(2026, 11, 5), dt.date(2026, 11, 12),
     "between the 5th and the 12th of november"),
    ("Average bill Nov 1 to Nov 14", dt.date(2026, 11, 1), dt.date(2026, 11, 14), "nov 1 to nov 14"),
    # a week by its number (ISO): week 45 of 2026 is Monday 2 to Sunday 8 November
    ("Revenue for week 45 by category", dt.date(2026, 11, 2), dt.date(2026, 11, 8), "week 45"),
    ("Doanh thu tuần 45", dt.date(2026, 11, 2), dt.date(2026, 11, 8), "tuan 45"),
    # a day and month after "hôm" or a weekday
    ("Hôm 1/11 có bao nhiêu hóa đơn", dt.date(2026, 11, 1), dt.date(2026, 11, 1), "hom 1 11"),
    ("Khu ngoài trời tối thứ Bảy 14/11", dt.date(2026, 11, 14), dt.date(2026, 11, 14), "thu bay 14 11"),
    ("Tuần vừa rồi món nào bị hủy nhiều nhất", dt.date(2026, 11, 2), dt.date(2026, 11, 8), "tuan vua roi"),
    ("Doanh thu thứ 7 tuần vừa rồi", dt.date(2026, 11, 7), dt.date(2026, 11, 7), "thu 7 tuan vua roi"),
    ("Quarter-to-date covers", dt.date(2026, 10, 1), dt.date(2026, 11, 15), "quarter to date"),
])
def test_a_time_phrase_is_one_range(question: str, start: dt.date, end: dt.date, phrase: str) -> None:
    assert _periods(question) == [(start, end, phrase)]


def test_this_monday_is_one_day_and_since_reaches_today() -> None:
    assert _periods("Revenue this Monday") == [(dt.date(2026, 11, 9), dt.date(2026, 11, 9), "this monday")]
    assert _periods("Revenue since Sunday") == [(dt.date(2026, 11, 15), dt.date(2026, 11, 15), "since sunday")]


def test_the_past_week_is_the_last_seven_days_and_last_week_the_calendar_week() -> None:
    past = find_periods(normalize("Revenue over the past week"), NOW)[0].range
    assert (past.start_at, past.end_before) == (NOW - dt.timedelta(days=7), NOW)
    assert past.start == dt.date(2026, 11, 9)  # a split by day shows seven whole days, today included
    assert _periods("Revenue last week") == [(dt.date(2026, 11, 2), dt.date(2026, 11, 8), "last week")]


def test_vs_last_is_the_period_before_the_one_named() -> None:
    assert _periods("avg ticket this week vs last") == [
        (dt.date(2026, 11, 9), dt.date(2026, 11, 15), "this week"),
        (dt.date(2026, 11, 2), dt.date(2026, 11, 8), "last")]
    assert _periods("covers last month compared with the previous one")[1][:2] == (
        dt.date(2026, 9, 1), dt.date(2026, 9, 30))
    assert len(_periods("revenue this week vs last year")) == 2  # a period of its own, not "the one before"
    assert _periods("revenue vs last") == []  # nothing named before it


def test_the_month_or_week_so_far_is_the_current_one() -> None:
    assert _periods("Where are we at on sales for the month so far?")[0][:2] == (
        dt.date(2026, 11, 1), dt.date(2026, 11, 15))
    assert _periods("sales for the week")[0][:2] == (dt.date(2026, 11, 9), dt.date(2026, 11, 15))
    assert _periods("covers for the day")[0][:2] == (NOW.date(), NOW.date())
    assert [p[2] for p in _periods("revenue for the month of October")] == ["of october"]  # the month named


def test_to_date_abbreviations_are_the_current_periods() -> None:
    assert _periods("MTD revenue")[0][:2] == (dt.date(2026, 11, 1), dt.date(2026, 11, 15))
    assert _periods("WTD covers")[0][:2] == (dt.date(2026, 11, 9), dt.date(2026, 11, 15))
    assert _periods("revenue since the start of the month")[0][:2] == (dt.date(2026, 11, 1), dt.date(2026, 11, 15))
    assert _periods("covers since the beginning of the week")[0][:2] == (dt.date(2026, 11, 9), dt.date(2026, 11, 15))
    assert _periods("covers for the day so far")[0][:2] == (NOW.date(), NOW.date())


def test_two_days_compared_or_a_weekday_span_are_not_joined_by_to() -> None:
    assert [p[:2] for p in _periods("compare revenue Nov 1 to Nov 14")] == [
        (dt.date(2026, 11, 1), dt.date(2026, 11, 1)), (dt.date(2026, 11, 14), dt.date(2026, 11, 14))]


def test_a_day_named_for_what_is_booked_ahead_is_the_one_to_come() -> None:
    for question, coming in (("bookings on 18/11", dt.date(2026, 11, 18)), ("bookings for Nov 18", dt.date(2026, 11, 18)),
                             ("bookings on the 18th", dt.date(2026, 11, 18))):
        day = find_periods(normalize(question), NOW)[0].range
        assert day.start < NOW.date()  # the latest begun, for what has happened
        assert (day_to_come(day, NOW.date()).start, day_to_come(day, NOW.date()).end) == (coming, coming)
    past = find_periods(normalize("bookings on 10/11"), NOW)[0].range
    assert day_to_come(past, NOW.date()) == past  # this year's has been: as said
    said_year = find_periods(normalize("bookings on 18/11/2025"), NOW)[0].range
    assert day_to_come(said_year, NOW.date()) == said_year


def test_a_month_named_for_what_is_booked_ahead_is_the_one_to_come() -> None:
    december = find_periods(normalize("birthdays in December"), NOW)[0].range
    assert (december.start, december.end) == (dt.date(2025, 12, 1), dt.date(2025, 12, 31))  # the latest begun
    coming = month_to_come(december, NOW.date())
    assert (coming.start, coming.end) == (dt.date(2026, 12, 1), dt.date(2026, 12, 31))
    last_year = find_periods(normalize("bookings in December last year"), NOW)[0].range
    assert month_to_come(last_year, NOW.date()) == last_year  # its year said: as said


def test_so_far_alone_is_today_and_since_a_start_is_no_day() -> None:
    assert _periods("tới giờ bán được bao nhiêu tiền") == [(dt.date(2026, 11, 15), dt.date(2026, 11, 15), "toi gio")]
    assert _periods("Top 5 khách ghé quán nhiều lần nhất từ trước tới giờ") == []  # ever, not today


def test_this_shift_is_the_one_in_progress_by_the_clock() -> None:
    assert shift_in_progress(NOW) == "toi nay"  # 19:40: dinner
    assert shift_in_progress(NOW.replace(hour=11)) == "trua nay"
