"""Time phrases -> whole local days, on the business clock.

>>> import datetime as dt
>>> now = dt.datetime(2026, 11, 15, 19, 40)
>>> find_periods("doanh thu tuan truoc", now)[0].range
TimeRange(start=datetime.date(2026, 11, 2), end=datetime.date(2026, 11, 8), phrase='tuan truoc')
>>> find_periods("last 7 days", now)[0].range.start
datetime.date(2026, 11, 9)
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from aria.semantic.query import TimeRange

_FIXED: tuple[tuple[str, str, int], ...] = (
    # (normalized phrase, unit, periods back)
    ("hom kia", "day", 2), ("hom qua", "day", 1), ("hom nay", "day", 0), ("toi nay", "day", 0),
    ("trua nay", "day", 0), ("sang nay", "day", 0), ("ngay mai", "day", -1), ("tomorrow", "day", -1), ("ngay hom qua", "day", 1), ("ngay hom nay", "day", 0),
    ("tuan truoc", "week", 1), ("tuan qua", "week", 1), ("tuan roi", "week", 1), ("tuan nay", "week", 0),
    ("tu dau tuan", "week", 0), ("thang truoc", "month", 1), ("thang roi", "month", 1), ("thang nay", "month", 0),
    ("tu dau thang", "month", 0), ("quy nay", "quarter", 0), ("quy truoc", "quarter", 1),
    ("nam nay", "year", 0), ("nam ngoai", "year", 1), ("nam truoc", "year", 1), ("tu dau nam", "year", 0),
    ("the day before yesterday", "day", 2), ("day before yesterday", "day", 2), ("yesterday", "day", 1),
    ("today", "day", 0), ("tonight", "day", 0), ("this lunch", "day", 0), ("this evening", "day", 0),
    ("last week", "week", 1), ("previous week", "week", 1), ("this week", "week", 0), ("week to date", "week", 0),
    ("last month", "month", 1), ("previous month", "month", 1), ("this month", "month", 0),
    ("month to date", "month", 0), ("this quarter", "quarter", 0), ("last quarter", "quarter", 1),
    ("this year", "year", 0), ("last year", "year", 1), ("year to date", "year", 0),
)
_WEEKENDS: tuple[tuple[str, int], ...] = (
    ("cuoi tuan nay", 0), ("cuoi tuan truoc", 1), ("cuoi tuan roi", 1), ("this weekend", 0), ("last weekend", 1),
)
_MONTH_NAMES = ("january", "february", "march", "april", "may", "june", "july", "august", "september",
                "october", "november", "december")
_LAST_N_DAYS = re.compile(
    r"\b(?:(?:in |over |during )?(?:the )?(?:last|past|previous) (\d{1,3}) days?"
    r"|(\d{1,3}) ngay (?:qua|gan day|gan nhat|vua qua|truoc)"
    r"|trong (\d{1,3}) ngay (?:qua|gan day|gan nhat|vua qua))\b")
_LAST_N_WEEKS = re.compile(r"\b(?:(?:the )?(?:last|past) (\d{1,2}) weeks?|(\d{1,2}) tuan (?:qua|gan day|gan nhat))\b")
_DATE_DMY = re.compile(r"\b(?:ngay )?(\d{1,2}) (\d{1,2}) (\d{4})\b")
_DATE_ISO = re.compile(r"\b(\d{4}) (\d{2}) (\d{2})\b")
_MONTH_VI = re.compile(r"\bthang (\d{1,2})(?: (?:nam )?(\d{4}))?\b")
# "may" alone is a verb ("may I see") and "mấy" (how many) once diacritics go: only "in/of May" or "May 2026"
_MONTH_EN = re.compile(r"\b(?:in |of |during )?(" + "|".join(m for m in _MONTH_NAMES if m != "may")
                       + r")(?: (\d{4}))?\b|\b(?:in |of |during )(may)(?: (\d{4}))?\b|\b(may) (\d{4})\b")


@dataclass(frozen=True)
class FoundPeriod:
    start: int  # character offsets in the normalized text
    end: int
    range: TimeRange


def _week_start(day: dt.date) -> dt.date:
    return day - dt.timedelta(days=day.weekday())


def _month_start(day: dt.date, back: int = 0) -> dt.date:
    index = day.year * 12 + day.month - 1 - back
    return dt.date(index // 12, index % 12 + 1, 1)


def _quarter_start(day: dt.date, back: int) -> dt.date:
    first = _month_start(day, (day.month - 1) % 3)
    return _month_start(first, 3 * back)


def period_range(unit: str, back: int, today: dt.date) -> tuple[dt.date, dt.date]:
    """Whole days of the period ``back`` units before the current one; the current one ends today."""
    if unit == "day":
        day = today - dt.timedelta(days=back)
        return day, day
    if unit == "week":
        start = _week_start(today) - dt.timedelta(weeks=back)
        return start, min(today, start + dt.timedelta(days=6))
    if unit == "month":
        start = _month_start(today, back)
        return start, min(today, _month_start(start, -1) - dt.timedelta(days=1))
    if unit == "quarter":
        start = _quarter_start(today, back)
        return start, min(today, _month_start(start, -3) - dt.timedelta(days=1))
    start = dt.date(today.year - back, 1, 1)
    return start, min(today, dt.date(start.year, 12, 31))


def weekend_range(back: int, today: dt.date) -> tuple[dt.date, dt.date] | None:
    """Saturday and Sunday of this week (``back`` 0, up to today) or of ``back`` weeks before."""
    saturday = _week_start(today) + dt.timedelta(days=5) - dt.timedelta(weeks=back)
    if saturday > today:
        return None
    return saturday, min(today, saturday + dt.timedelta(days=1))


def _named_month(month: int, year: int | None, today: dt.date) -> tuple[dt.date, dt.date] | None:
    if not 1 <= month <= 12:
        return None
    if year is None:  # "tháng 10": the latest October that has begun
        year = today.year if month <= today.month else today.year - 1
    start = dt.date(year, month, 1)
    return start, min(today, _month_start(start, -1) - dt.timedelta(days=1))


def _date(year: int, month: int, day: int) -> dt.date | None:
    try:
        return dt.date(year, month, day)
    except ValueError:
        return None


def _month_groups(match: re.Match[str]) -> tuple[str, str | None]:
    groups = match.groups()
    for i in range(0, len(groups), 2):
        if groups[i]:
            return groups[i], groups[i + 1]
    raise ValueError("no month in match")


def find_periods(text: str, now: dt.datetime) -> list[FoundPeriod]:
    """Every time phrase in normalized ``text`` (no overlaps, first found wins)."""
    today = now.date()
    found: list[FoundPeriod] = []

    def add(start: int, end: int, days: tuple[dt.date, dt.date] | None) -> None:
        if days is None or any(f.start < end and start < f.end for f in found):
            return
        found.append(FoundPeriod(start, end, TimeRange(start=days[0], end=days[1], phrase=text[start:end])))

    for match in _LAST_N_DAYS.finditer(text):
        n = int(next(g for g in match.groups() if g))
        if 1 <= n <= 366:
            add(match.start(), match.end(), (today - dt.timedelta(days=n - 1), today))
    for match in _LAST_N_WEEKS.finditer(text):
        n = int(next(g for g in match.groups() if g))
        if 1 <= n <= 52:
            add(match.start(), match.end(), (today - dt.timedelta(days=7 * n - 1), today))
    for match in _DATE_ISO.finditer(text):
        day = _date(int(match.group(1)), int(match.group(2)), int(match.group(3)))
        add(match.start(), match.end(), (day, day) if day else None)
    for match in _DATE_DMY.finditer(text):
        day = _date(int(match.group(3)), int(match.group(2)), int(match.group(1)))
        add(match.start(), match.end(), (day, day) if day else None)
    for match in _MONTH_VI.finditer(text):
        year = int(match.group(2)) if match.group(2) else None
        add(match.start(), match.end(), _named_month(int(match.group(1)), year, today))
    for match in _MONTH_EN.finditer(text):
        name, year_text = _month_groups(match)
        year = int(year_text) if year_text else None
        add(match.start(), match.end(), _named_month(_MONTH_NAMES.index(name) + 1, year, today))
    for phrase, back in _WEEKENDS:
        for match in re.finditer(rf"\b{re.escape(phrase)}\b", text):
            add(match.start(), match.end(), weekend_range(back, today))
    for phrase, unit, back in sorted(_FIXED, key=lambda f: -len(f[0])):
        for match in re.finditer(rf"\b{re.escape(phrase)}\b", text):
            add(match.start(), match.end(), period_range(unit, back, today))
    return sorted(found, key=lambda f: f.start)
