"""Time phrases -> whole local days, on the business clock.

>>> import datetime as dt
>>> now = dt.datetime(2026, 11, 15, 19, 40)
>>> r = find_periods("doanh thu tuan truoc", now)[0].range
>>> r.start, r.end, r.phrase, r.unit
(datetime.date(2026, 11, 2), datetime.date(2026, 11, 8), 'tuan truoc', 'week')
>>> find_periods("last 7 days", now)[0].range.start_at
datetime.datetime(2026, 11, 8, 19, 40)
>>> r = find_periods("tu 1 11 den 5 11", now)[0].range
>>> r.start, r.end
(datetime.date(2026, 11, 1), datetime.date(2026, 11, 5))
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from aria.semantic.query import TimeRange

# A shift of a day: the day (days back) and the shift it names, which the parser adds as a filter
# ("tối nay", "tonight": today's dinner shift; "trưa nay", "this lunch": its lunch shift).
SHIFT_OF_DAY: dict[str, tuple[int, str]] = {
    "toi nay": (0, "ca toi"), "tonight": (0, "ca toi"), "this evening": (0, "ca toi"), "ca toi nay": (0, "ca toi"),
    "trua nay": (0, "ca trua"), "this lunch": (0, "ca trua"), "ca trua nay": (0, "ca trua"),
    "this lunch shift": (0, "ca trua"), "this dinner shift": (0, "ca toi"), "this dinner": (0, "ca toi"),
    "toi qua": (1, "ca toi"), "last night": (1, "ca toi"), "ca toi qua": (1, "ca toi"),
    "trua qua": (1, "ca trua"), "ca trua qua": (1, "ca trua"),
    "toi mai": (-1, "ca toi"), "ca toi mai": (-1, "ca toi"), "tomorrow night": (-1, "ca toi"),
    "tomorrow evening": (-1, "ca toi"), "trua mai": (-1, "ca trua"), "ca trua mai": (-1, "ca trua"),
}
# "ca này", "this shift": today, and the shift in progress by the business clock (see shift_in_progress)
THIS_SHIFT = ("ca nay", "this shift")
_DINNER_FROM_HOUR = 16  # lunch is 10:30-14:30, dinner 17:00-22:30: from mid-afternoon, the shift is dinner


def shift_in_progress(now: dt.datetime) -> str:
    """The period of SHIFT_OF_DAY that "this shift" is at ``now``: this lunch, or tonight."""
    return "trua nay" if now.hour < _DINNER_FROM_HOUR else "toi nay"


_FIXED: tuple[tuple[str, str, int], ...] = (
    # (normalized phrase, unit, periods back)
    *((phrase, "day", back) for phrase, (back, _) in SHIFT_OF_DAY.items()),
    *((phrase, "day", 0) for phrase in THIS_SHIFT),
    ("hom kia", "day", 2), ("hom qua", "day", 1), ("hom nay", "day", 0), ("ngay mai", "day", -1), ("tomorrow", "day", -1), ("ngay hom qua", "day", 1), ("ngay hom nay", "day", 0),
    ("ngay kia", "day", -2), ("the day after tomorrow", "day", -2), ("day after tomorrow", "day", -2),
    ("tuan sau", "week", -1), ("tuan toi", "week", -1), ("next week", "week", -1), ("thang sau", "month", -1),
    ("thang toi", "month", -1), ("next month", "month", -1),
    ("tuan truoc nua", "week", 2), ("thang truoc nua", "month", 2), ("the week before last", "week", 2),
    ("week before last", "week", 2), ("the month before last", "month", 2), ("month before last", "month", 2),
    ("tuan truoc", "week", 1), ("tuan qua", "week", 1), ("tuan roi", "week", 1), ("tuan nay", "week", 0),
    ("tuan vua roi", "week", 1), ("tuan vua qua", "week", 1), ("thang vua roi", "month", 1),
    ("thang vua qua", "month", 1), ("quarter to date", "quarter", 0), ("qtd", "quarter", 0),
    ("tu dau tuan", "week", 0), ("thang truoc", "month", 1), ("thang roi", "month", 1), ("thang nay", "month", 0),
    ("tu dau thang", "month", 0), ("quy nay", "quarter", 0), ("quy truoc", "quarter", 1), ("tu dau quy", "quarter", 0),
    ("nam nay", "year", 0), ("nam ngoai", "year", 1), ("nam truoc", "year", 1), ("tu dau nam", "year", 0),
    ("the day before yesterday", "day", 2), ("day before yesterday", "day", 2), ("yesterday", "day", 1),
    ("today", "day", 0),
    ("last week", "week", 1), ("previous week", "week", 1), ("this week", "week", 0), ("week to date", "week", 0),
    ("last month", "month", 1), ("previous month", "month", 1), ("this month", "month", 0),
    ("month to date", "month", 0), ("the month so far", "month", 0), ("the week so far", "week", 0),
    ("the day so far", "day", 0),
    ("for the day", "day", 0), ("for the month", "month", 0), ("for the week", "week", 0),
    ("this quarter", "quarter", 0), ("last quarter", "quarter", 1),
    ("this year", "year", 0), ("last year", "year", 1), ("year to date", "year", 0),
    ("wtd", "week", 0), ("mtd", "month", 0), ("ytd", "year", 0),
    *((f"since the {start} of the {unit}", unit, 0) for start in ("start", "beginning") for unit in ("week", "month", "year")),
)
_SO_FAR_TODAY = re.compile(r"\b(?<!tinh )(?<!cho )(?:toi|den) gio(?: nay)?\b(?! (?:sang|trua|chieu|toi|dem)\b)")
_THIS_MORNING = re.compile(r"\b(?:sang nay|this morning)\b")
_OPENING_MAI = re.compile(r"(mai) (?:co|con|quan|minh|ben|phong|khu|ca|trua|toi|booking|bao|may|so)\b")  # "mai" opening a question: tomorrow (never "Mai")
_WEEKENDS: tuple[tuple[str, int], ...] = (
    ("cuoi tuan truoc nua", 2), ("the weekend before last", 2),  # (before "cuối tuần trước")
    ("cuoi tuan nay", 0), ("cuoi tuan truoc", 1), ("cuoi tuan roi", 1), ("this weekend", 0), ("last weekend", 1),
    ("cuoi tuan vua roi", 1), ("cuoi tuan vua qua", 1), ("cuoi tuan qua", 1), ("the past weekend", 1),
    ("this past weekend", 1),
)
_MONTH_NAMES = ("january", "february", "march", "april", "may", "june", "july", "august", "september",
                "october", "november", "december")
# "late October", "mid-November", "early this month": a part of a month, which no period here is (said, it is asked)
PART_OF_A_MONTH = re.compile(r"\b(?:early|mid|late) (?:in )?(?:" + "|".join(_MONTH_NAMES)
                             + r"|sept|oct|nov|dec|this month|last month)\b")
_RECENT_VI = r"(?:qua|gan day|gan nhat|vua qua|vua roi|tro lai day|sau cung)"  # "3 ngày trước": 3 days ago
# "the last four weeks", "hai tuần qua": a count in words
_COUNT_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
                "twelve": 12, "hai": 2, "ba": 3, "bon": 4, "sau": 6, "bay": 7, "tam": 8, "chin": 9, "muoi": 10}
_COUNT = r"(\d{1,3}|" + "|".join(_COUNT_WORDS) + ")"


def _count_of(said: str) -> int:
    """The number a count said in digits or words stands for: "3" -> 3, "hai" -> 2, "four" -> 4."""
    return _COUNT_WORDS.get(said) or int(said)

# a count before "tuần nay" or "tháng nay" that is a day's or a week's number: "ngày 5 tháng này", "thứ 2 tuần này",
# "tuần 3 tháng này", "top 3 tháng này" (and a count in words only "hai" or "ba": "cà phê muối tháng này" is salt)
_NOT_A_DATE = "".join(f"(?<!{w} )" for w in ("ngay", "mung", "hom", "tuan", "thang", "top", "sang", "trua", "chieu",
                                              "toi", "dem", "ban", "so", "quan", "phong", "khu", "tang", "lan",
                                              "vip", "combo", "ca", "set")) \
    + "(?<!(?<!doanh )thu )"  # (but "doanh thu 2 tháng nay"); nor a table's, a room's: "bàn số 5 tháng này",
# "phòng VIP 2 tháng này", "combo 2 tuần này"
_LAST_N = {
    unit: re.compile(rf"\b(?:(?:(?<!dine )in |over |during |for )?(?:the )?(?:last|past|previous) {_COUNT} {en}s?"
                     rf"|(?:going |looking )?back {_COUNT} {en}s?"  # "going back 8 weeks"
                     rf"|(?:trong )?{_COUNT} {vi} {recent}|{_NOT_A_DATE}(\d{{1,3}}|hai|ba) {vi} nay)\b")
    for unit, en, vi, recent in (("hour", "hour", "(?:gio|tieng)", _RECENT_VI),
                                 ("day", "day", "ngay", _RECENT_VI[:-1] + "|nay)"),  # "30 ngày nay", "mười
                                 # ngày nay": any count (the guarded "N ... nay" above is for the other units)
                                 ("week", "week", "tuan", _RECENT_VI), ("month", "month", "thang", _RECENT_VI))
}
# "4 tuần vừa rồi (không tính hôm nay)", "the last 4 weeks excluding this week": the period before what is left out
_LEFT_OUT = r"(?:khong tinh|khong ke|tru|excluding|not counting|not including|except) (hom nay|tuan nay|thang nay|today|" \
            r"this week|this month)"
_LAST_N_EXCLUDING = re.compile(
    rf"\b(?:(?:(?<!dine )in |over |during |for )?(?:the )?(?:last|past|previous) {_COUNT} (day|week|month)s?"
    rf"|(?:trong )?{_COUNT} (ngay|tuan|thang) {_RECENT_VI}|{_COUNT} (ngay|tuan|thang) truoc) {_LEFT_OUT}\b")
# "the 7 days before today", "7 ngày trước hôm nay": the whole days before today
_N_DAYS_BEFORE_TODAY = re.compile(rf"\b(?:(?:in |over |during |for )?(?:the )?{_COUNT} days? before today"
                                  rf"|(?:trong )?{_COUNT} ngay truoc hom nay)\b")
# "the last 8 full weeks", "4 tuần trọn vẹn vừa qua", "4 tuần vừa rồi": whole weeks or months before the current one
# ("4 tuần qua", "4 tuần gần đây": up to now)
_LAST_N_FULL = re.compile(rf"\b(?:(?:(?<!dine )in |over |during |for )?(?:the )?(?:last|past|previous) {_COUNT} "
                          rf"(?:full|complete|whole) (week|month)s?|(?:trong )?{_COUNT} (tuan|thang) (?:tron ven|tron|day du) "
                          rf"{_RECENT_VI}|(?:trong )?{_COUNT} (tuan|thang) (?:vua roi|vua qua))\b")
_NEXT_N_DAYS = re.compile(rf"\b(?:(?:in |over |during |for )?(?:the )?(?:next|coming) {_COUNT} days?"
                          rf"|(?:trong )?{_COUNT} ngay (?:toi|sap toi))\b")
_LAST_HOUR = re.compile(r"\b(?:(?:in |over |during )?the (?:last|past) hour)\b")  # one hour back from now
_PAST_WEEK = re.compile(r"\b(?:(?:in |over |during |for )?the )?past week\b")  # seven days back ("last week": the
# calendar week before this one)
_DATE_DMY = re.compile(r"\b(?:ngay )?(\d{1,2}) (\d{1,2}) (\d{4})\b")
# a day and month without the year: "ngày 5/11", "từ 1/11 đến 5/11", "hôm 1/11", "thứ Bảy 14/11" (the latest one
# that has begun)
_DATE_DM = re.compile(r"(?:\b(?:ngay|hom) |(?<=\btu )|(?<=\bden )|(?<=\btoi )|(?<=\bon )|(?<=\bfrom )|(?<=\bto )"
                      r"|(?<=\bbetween )|(?<=\band )|(?<=\bva )|(?<=\bthu \d )|(?<=\bbay )|(?<=\bnhat )|(?<=day )"
                      r"|(?<=\bvs )|(?<=\bversus )|(?<=\bvoi )|(?<=\bvao )|(?<=\bsince )|^"  # "28/10 vs 4/11", "since 3/11"
                      r"|(?<=\bfor )(?!\d{1,2} \d{1,2} (?:people|persons|guests|pax|set|sets)\b))"  # (not "for 2-3 people")
                      r"(\d{1,2}) (\d{1,2})\b(?! \d)")
# a bare day and month that opens a span to a second one: "doanh thu 1/11 đến 14/11", "revenue 1/11 to 14/11"
_DATE_DM_BEFORE_A_SECOND = re.compile(r"\b(\d{1,2}) (\d{1,2})(?= (?:den|toi|to|through|until|till) (?:ngay )?"
                                      r"\d{1,2} \d{1,2}\b(?! \d))")
# A day and month after any other word: "doanh thu 5/11", "món bán chạy 5/11", "revenue 5/11". Never a count or a
# range of something ("bàn 2/4", "top 5/10", "groups of 5-8", "2-3 người", "15-20 phút") nor a time ("9-11h").
_DATE_DM_BARE = re.compile(r"(?<=[a-z] )(\d{1,2}) (\d{1,2})\b(?! \d)"
                           r"(?! (?:nguoi|khach|people|persons|guests|pax|phut|minutes|mins|min|gio|h|hours|hrs|ngay|days|"
                           r"lan|times|mon|dishes|items|don|orders|ban|tables|k|nghin|trieu|percent|sao|stars|suat|"
                           r"portions|ly|coc|cups|pm|am|tuoi|seats|cho)\b)")
_COUNTED_AFTER = {"top", "ban", "cua", "tren", "duoi", "hon", "lan", "x", "table", "tables", "of", "size", "above",
                  "below", "than", "over", "under", "party", "group", "groups", "number", "so", "bottom", "first",
                  "last", "nhom", "before", "after", "truoc", "sau"}  # the words before a count or a range of one
# (or before a day said as a bound: "the week before 20/10", "trước 2/9")
# "tuần trước đó", "(the) previous 7 days" said right after a comparison word: the days before the first period,
# left to the comparison (never the same days twice)
_BEFORE_ANOTHER = re.compile(r" do\b")  # "... trước đó"
_PREVIOUS_N = re.compile(r"\b(?:previous|prior) \d")  # "previous 7 days"
_COMPARED_TO = re.compile(r"\b(?:so voi|voi|vs|versus|va)\s*$")  # the words the second period follows
# "3 days ago", "2 weeks ago": the one day, week or month that many back ("4 tuần trước" is unread: it may be the
# 4 weeks before now as well as the week 4 back)
_AGO = re.compile(rf"\b{_COUNT} (day|week|month)s? ago\b")
# "3 ngày trước", "3 hôm trước": the one day that many back (never "7 ngày trước đó", the days before another
# period, nor "4 tuần trước", which may be the weeks up to now as well as the week 4 back)
_DAYS_AGO_VI = re.compile(rf"\b{_COUNT} (?:ngay|hom) truoc\b(?! (?:do|nua|hom|ngay)\b)")
# "ngày 1 tháng 11", "mùng 2 tháng 9 năm 2026": a day of a month said in words
_DATE_VI_WORDS = re.compile(r"\b(?:ngay|mung|mong) (\d{1,2}) thang (\d{1,2})(?: (?:nam )?(\d{4}))?\b")
# "ngày 10 tháng này", "the 10th of last month": a day of this month or of the one before
_DAY_OF_A_MONTH_SAID = re.compile(r"\b(?:(?:ngay|mung|mong) (\d{1,2}) thang (nay|truoc|roi)|(?:the )?(\d{1,2})(?:st|nd|rd|"
                                  r"th) of (this|last) month)\b")
# "ngày 14", "mùng 1", "on the 14th": a day of the month alone, the latest one that has begun
_DAY_OF_MONTH = re.compile(r"\b(?:(?:ngay|mung|mong) (\d{1,2})|(?:on )?the (\d{1,2})(?:st|nd|rd|th))\b(?! \d)")
_WEEKDAYS_VI = {"thu 2": 0, "thu hai": 0, "thu 3": 1, "thu ba": 1, "thu 4": 2, "thu tu": 2, "thu 5": 3, "thu nam": 3,
                "thu 6": 4, "thu sau": 4, "thu 7": 5, "thu bay": 5, "chu nhat": 6, "cn": 6}
WEEKDAYS_EN = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
# a weekday ("thứ hai", Monday), never "doanh thu" nor "lần thứ hai" (the second time)
_WEEK_SAID = "tuan truoc nua|tuan truoc|tuan vua roi|tuan vua qua|tuan roi|tuan qua|tuan nay"
_WEEKDAY_VI = re.compile(r"\b(?<!doanh )(?<!lan )(?<!cac )(?<!nhung )(?<!cac ngay )(?<!nhung ngay )(?<!moi )(?<!moi toi )(?<!moi ngay )"
                         r"(?<!moi trua )(?<!cac ca toi )(?<!cac ca trua )(?<!cac toi )(?<!cac trua )(?<!nhung ca toi )"
                         r"(?<!nhung ca trua )(?:(?:ngay|hom|vao) )?("
                         + "|".join(_WEEKDAYS_VI) + r")(?: (" + _WEEK_SAID + r"|vua roi|vua qua|gan nhat|roi))?\b"
                         r"(?! hang tuan)")  # "các ngày thứ 6", "các ca tối thứ 6", "thứ 6 hàng tuần": every Friday,
# not one
_PAIRED_WEEKDAY_VI = re.compile(r" (?:va|voi|so voi|vs|hoac|,) (?:(?:ngay|hom|vao) )?(" + "|".join(_WEEKDAYS_VI) +
                                r") (" + _WEEK_SAID + r")\b")
# a weekday of a said week: "Tuesday of last week", "on Friday this week", "Tuesday of the week before"
_WEEKDAY_OF_A_WEEK_EN = re.compile(r"\b(?:on )?(" + "|".join(WEEKDAYS_EN) + r") (?:of )?(last|this|the previous|previous) "
                                   r"week\b|\b(?:on )?(" + "|".join(WEEKDAYS_EN) + r") of the week before\b")
_WEEKDAY_EN = re.compile(r"\b(?:(last|this past|past|this|on|previous|since) )(" + "|".join(WEEKDAYS_EN) + r")\b")
# a weekday said bare after one said with its week and a comparison ("thứ 6 tuần trước hơn thứ 5 bao nhiêu",
# "thứ 7 tuần rồi so với chủ nhật"): of the same week
_A_WEEK_SAID = re.compile(_WEEK_SAID)
_COMPARING_WORD = re.compile(r"\b(?:hon|so voi|vs|voi)\b")  # ("hơn": than)
# the week said after the second weekday of a pair: "on Friday and Saturday last week" (both last week's)
_PAIRED_WEEKDAY_EN = re.compile(r" (?:and|or|vs|versus|,) (?:on )?(" + "|".join(WEEKDAYS_EN) + r") (?:of )?(last|this|"
                                r"previous) week\b")
# days of one week said as a span: "thứ 2 đến thứ 6 tuần trước", "Monday to Friday last week"
_WEEKDAY_SPAN_VI = re.compile(r"\b(?:tu )?(?:(?<!tung )(?:ngay|hom) )?(" + "|".join(_WEEKDAYS_VI) + r") (?:den|toi|-) (?:(?:ngay|hom) )?("
                              + "|".join(_WEEKDAYS_VI) + r") (" + _WEEK_SAID + r")\b")
_WEEKDAY_SPAN_EN = re.compile(r"\b(?:from )?(" + "|".join(WEEKDAYS_EN) + r") (?:to|through|thru|till|until|-) ("
                              + "|".join(WEEKDAYS_EN) + r") (?:of )?(last|this|previous) week\b")
_BOOKING = re.compile(r"\b(?:book|reserv)")  # bookings said: a weekday "for" them is one to come
_BARE_WEEKDAY_EN = re.compile(r"\b(" + "|".join(WEEKDAYS_EN) + r")\b")  # "Saturday's revenue": the latest one
# two time phrases joined into one range: "từ 1/11 đến 5/11", "from Monday to Wednesday"
_RANGE_OPEN = ("ke tu dau", "tinh tu dau", "tu dau", "since the start of", "since the beginning of",  # the longer
               "since the start", "since the beginning", "from the start of", "from the beginning of",  # first
               "from the start", "from the beginning", "tinh tu", "ke tu", "tu", "from", "between", "since")
_SINCE = ("since", "ke tu", "ke tu dau", "since the start", "since the beginning", "since the start of",
          "since the beginning of")  # "since Monday", "since the start of last month": up to now
_FROM = ("tu", "tinh tu", "tu dau", "tinh tu dau", "from the start of", "from the beginning of")  # "từ (đầu) tháng 9",
# "from the start of last month" with no end said: from then up to now ("from last week" alone: of it)
_RANGE_JOIN = ("den", "toi", "den het", "to", "through", "until", "till", "and")
_TO_NOW = re.compile(r" (?:den|toi|to|until|till|up to|cho den|cho toi) (?:nay|gio|bay gio|gio nay|now|date|today|hien tai)\b")
_DATE_ISO = re.compile(r"\b(\d{4}) (\d{2}) (\d{2})\b")
# "tháng 10 năm 2025", "tháng 12 năm ngoái", "December last year": a month of a year, said or counted back
_MONTH_VI = re.compile(r"\bthang (\d{1,2})(?: (?:nam )?(\d{4})| (nam nay|nam ngoai|nam truoc|nam roi))?\b")
_YEAR_EN = r"(?: (\d{4}|(?:of )?(?:this|last) year))?"
# "quý 3", "Q4", "the third quarter", "quarter 4 2026": a numbered quarter of a year, said or the latest begun
_QUARTER = re.compile(r"\b(?:(?:in |of |during )?(?:quy ([1-4])|q([1-4])|quarter ([1-4])|(?:the )?(first|second|third|"
                      r"fourth|1st|2nd|3rd|4th) quarter))(?: (?:nam )?(\d{4})| (nam nay|nam ngoai|nam truoc|nam roi|"
                      r"(?:of )?(?:this|last) year))?\b")
_QUARTER_WORDS = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4}
# "may" alone is a verb ("may I see") and "mấy" (how many) once diacritics go: only "in/of May" or "May 2026"
_YEAR = re.compile(r"\b(?:(?:in|for|during|of) )?(?:the year )?(20\d\d)\b(?! \d)|\b(?:trong )?nam (20\d\d)\b")
_NAMED_MONTH_ALONE = re.compile(r"(?:(?:in|of|during|trong) )?(?:thang \d{1,2}|" + "|".join(_MONTH_NAMES) + ")")
_MONTH_EN = re.compile(r"\b(?:in |of |during )?(" + "|".join(m for m in _MONTH_NAMES if m != "may")
                       + r")" + _YEAR_EN + r"\b|\b(?:in |of |during )(may)" + _YEAR_EN + r"\b|\b(may) (\d{4})\b")


def _year_of(said: str | None, today: dt.date) -> int | None:
    """A year as said beside a month: "2025", "năm nay", "last year" (None: not said)."""
    if not said:
        return None
    if said.isdigit():
        return int(said)
    return today.year if said.endswith(("nay", "this year")) else today.year - 1


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
    """Whole days of the period ``back`` units before the current one; the current one ends today, one
    to come (``back`` below 0: "next week", what is booked ahead) is whole."""
    if unit == "day":
        day = today - dt.timedelta(days=back)
        return day, day
    if unit == "week":
        start = _week_start(today) - dt.timedelta(weeks=back)
        end = start + dt.timedelta(days=6)
    elif unit == "month":
        start = _month_start(today, back)
        end = _month_start(start, -1) - dt.timedelta(days=1)
    elif unit == "quarter":
        start = _quarter_start(today, back)
        end = _month_start(start, -3) - dt.timedelta(days=1)
    else:
        start = dt.date(today.year - back, 1, 1)
        end = dt.date(start.year, 12, 31)
    return start, end if back < 0 else min(today, end)


def _next_n_days(n: int, today: dt.date) -> TimeRange | None:
    """"The next three days", "ba ngày tới": from tomorrow, ``n`` whole days."""
    if not 1 <= n <= 92:
        return None
    return TimeRange(start=today + dt.timedelta(days=1), end=today + dt.timedelta(days=n), unit="day")


def whole_current_period(period: TimeRange, today: dt.date) -> TimeRange:
    """"This month" for what is booked ahead (reservations): the whole month, the days still to come
    included; any other period (a past one, a rolling window, "từ 1/11 đến nay") unchanged."""
    unit = period.unit
    if unit not in ("week", "month", "quarter", "year") or period.start_at or period.end_before or \
            period.end != today or (period.start, period.end) != period_range(unit, 0, today):
        return period
    last = {"week": period.start + dt.timedelta(days=6), "month": _month_start(period.start, -1) - dt.timedelta(days=1),
            "quarter": _month_start(period.start, -3) - dt.timedelta(days=1), "year": dt.date(period.start.year, 12, 31)}
    return period.model_copy(update={"end": last[unit]})


def month_to_come(period: TimeRange, today: dt.date) -> TimeRange:
    """"Bookings in December", "sinh nhật tháng 12" said in November: a month named without its year, for what
    is booked ahead, is this year's (still to come), whole; any other period unchanged."""
    if period.unit != "month" or period.start.year != today.year - 1 or \
            _NAMED_MONTH_ALONE.fullmatch(period.phrase) is None:
        return period
    start = period.start.replace(year=today.year)
    return period.model_copy(update={"start": start, "end": _month_start(start, -1) - dt.timedelta(days=1)})


def day_to_come(period: TimeRange, today: dt.date) -> TimeRange:
    """"Bookings for 18/11", "on the 18th" said on the 15th: a day named without its year (or its month), for what
    is booked ahead, is the one still to come when there is one this year (this month), never last year's (last
    month's); any other period unchanged."""
    day = period.start
    if period.unit != "day" or period.end != day or day >= today or period.start_at is not None or \
            re.search(r"\d{4}|\b(?:year|nam)\b", period.phrase):
        return period
    if day.year < today.year:  # "18/11", "Nov 18": this year's
        ahead = _date(today.year, day.month, day.day)
    elif _DAY_OF_MONTH.search(period.phrase) and (day.year, day.month) != (today.year, today.month):
        ahead = _date(today.year, today.month, day.day)  # "the 18th": this month's
    else:
        return period
    if ahead is None or not today < ahead <= today + dt.timedelta(days=92):
        return period
    return period.model_copy(update={"start": ahead, "end": ahead})


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


def _named_quarter(quarter: int, year: int | None, today: dt.date) -> tuple[dt.date, dt.date] | None:
    """"Quý 3": the latest third quarter that has begun, up to today at most; one still to come is none."""
    if year is None:
        year = today.year if 3 * quarter - 2 <= today.month else today.year - 1
    start = dt.date(year, 3 * quarter - 2, 1)
    if start > today:
        return None
    return start, min(today, _month_start(start, -3) - dt.timedelta(days=1))


def _numbered_week(number: int, today: dt.date) -> tuple[dt.date, dt.date] | None:
    """"Week 45": the ISO week of that number this year when it has begun, else last year's; up to today."""
    for year in (today.year, today.year - 1):
        try:
            start = dt.date.fromisocalendar(year, number, 1)
        except ValueError:
            return None
        if start <= today:
            return start, min(today, start + dt.timedelta(days=6))
    return None


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


_MONTH_ABBR = {name[:3]: i + 1 for i, name in enumerate(_MONTH_NAMES)} | {"sept": 9}
_MONTH_WORD = r"(" + "|".join(sorted({*(n for n in _MONTH_NAMES if n != "may"), *(a for a in _MONTH_ABBR if a != "may")},
                                     key=len, reverse=True)) + r")"
_ANY_MONTH = _MONTH_WORD.replace("(", "(?:", 1)
_SPAN_JOIN = r" (?:to |through |thru |till |until |and )?(?:the )?"
# days of one month said as a span: "Oct 15-31", "from Nov 1 to 14", "the 5th and the 12th of November", "1-15 Oct"
_DAY_SPAN_EN = re.compile(rf"\b(?:between )?(?:the )?(?:{_MONTH_WORD} (\d{{1,2}})(?:st|nd|rd|th)?{_SPAN_JOIN}(\d{{1,2}})(?:st|nd|rd|th)?"
                          rf"(?! \d| (?:of )?{_ANY_MONTH}\b)|(\d{{1,2}})(?:st|nd|rd|th)?{_SPAN_JOIN}(\d{{1,2}})"
                          rf"(?:st|nd|rd|th)? (?:of )?{_MONTH_WORD})\b")
# "week 45", "tuần 45": a week of the year by its number (ISO), the latest one that has begun
_WEEK_NUMBER = re.compile(r"\b(?:week|tuan) (?:so |number |no )?(\d{1,2})\b(?! (?:cua |of |trong |in )?(?:thang|month)\b)"
                          r"(?! (?:ngay|day|tuan|week|thang|month)s?\b)")
_DATE_EN = re.compile(rf"\b(?:{_MONTH_WORD} (\d{{1,2}})(?:st|nd|rd|th)?|(\d{{1,2}})(?:st|nd|rd|th)? (?:of )?{_MONTH_WORD})"
                      r"(?: (\d{4}))?\b")


def _month_number(word: str) -> int:
    return _MONTH_ABBR[word[:4] if word == "sept" else word[:3]]


def _day_of_month(day: int, today: dt.date) -> dt.date | None:
    """"Ngày 14": this month's 14th when it has begun, else last month's."""
    if day <= today.day:
        return _date(today.year, today.month, day)
    before = _month_start(today, 1)
    return _date(before.year, before.month, day)


def _recent_date(month: int, day: int, year: int | None, today: dt.date) -> dt.date | None:
    """A day and month; without a year, the latest such date up to today."""
    found = _date(year or today.year, month, day)
    if found is not None and year is None and found > today:
        found = _date(today.year - 1, month, day)
    return found


# The week a weekday is said of, as weeks back from this one ("thứ 7 tuần trước nữa": the week before last).
_WEEKS_BACK = {"tuan truoc nua": 2, "tuan truoc": 1, "tuan roi": 1, "tuan qua": 1, "tuan vua roi": 1, "tuan vua qua": 1, "previous": 1, "tuan nay": 0, "this": 0}


def _weekday(index: int, qualifier: str, today: dt.date, *, before_today: bool) -> tuple[dt.date, dt.date] | None:
    if qualifier in _WEEKS_BACK:
        day = _week_start(today) - dt.timedelta(weeks=_WEEKS_BACK[qualifier]) + dt.timedelta(days=index)
        if day > today:  # this week's, still to come
            return None
    else:  # the latest one: "thứ 7 vừa rồi", "chủ nhật rồi", "last Saturday" (before today); "on Saturday"
        # may be today
        back = (today.weekday() - index) % 7
        if back == 0 and before_today:
            back = 7
        day = today - dt.timedelta(days=back)
    return day, day


def _weekday_index(names: dict[str, int] | tuple[str, ...], name: str) -> int:
    return names[name] if isinstance(names, dict) else names.index(name)


def _days_of_a_week(first: int, last: int, week: str, today: dt.date) -> tuple[dt.date, dt.date] | None:
    """"Thứ 2 đến thứ 6 tuần trước", "Monday to Friday this week": those days of the week said (this week's up
    to today); None when the span runs backwards or has not begun."""
    monday = _week_start(today) - dt.timedelta(weeks=_WEEKS_BACK.get(week, 1))  # "last week": 1
    start, end = monday + dt.timedelta(days=first), min(monday + dt.timedelta(days=last), today)
    return (start, end) if first < last and start <= end else None


def _shared_week(text: str, end: int, name: str) -> str:
    """The week said after the next weekday of a pair ("thứ 7 và chủ nhật tuần trước", "thứ 7 vs chủ nhật tuần
    trước": both last week's); never after the same weekday ("thứ 7 so với thứ 7 tuần trước": yesterday's, then a
    week before)."""
    pair = _PAIRED_WEEKDAY_VI.match(text, end)
    return pair.group(2) if pair and _WEEKDAYS_VI[pair.group(1)] != _WEEKDAYS_VI[name] else ""


def _last_n(unit: str, n: int, now: dt.datetime) -> TimeRange | None:
    """The last ``n`` units up to now: rolling from ``now - n units``; ``start`` is the first whole day (or
    week/month start) a split by that unit shows."""
    today = now.date()
    if unit == "hour":
        if not 1 <= n <= 72:
            return None
        start_at = now - dt.timedelta(hours=n)
        return TimeRange(start=start_at.date(), end=today, start_at=start_at, unit="day")
    limits = {"day": 366, "week": 52, "month": 24}
    if not 1 <= n <= limits[unit]:
        return None
    if unit == "day":  # to the minute, as business_now() - interval 'N days' (ex-028, ex-045)
        start, start_at = today - dt.timedelta(days=n - 1), now - dt.timedelta(days=n)
    elif unit == "week":  # whole days back from today, as business_now()::date - 7N (ex-046)
        start = _week_start(today) - dt.timedelta(weeks=n - 1)
        start_at = dt.datetime.combine(today - dt.timedelta(weeks=n), dt.time(), tzinfo=now.tzinfo)
    else:
        start, start_at = _month_start(today, n - 1), shift_months(now, -n)
    return TimeRange(start=start, end=today, start_at=start_at, end_before=now, unit=unit)


def _last_full(unit: str, n: int, today: dt.date) -> TimeRange | None:
    """The ``n`` whole weeks (Monday to Sunday) or months before the current one.

    >>> r = _last_full("tuan", 4, dt.date(2026, 11, 15)); (r.start, r.end)
    (datetime.date(2026, 10, 12), datetime.date(2026, 11, 8))
    """
    week = unit in ("week", "tuan")
    if not 1 <= n <= (52 if week else 24):
        return None
    if week:
        first = _week_start(today)
        return TimeRange(start=first - dt.timedelta(weeks=n), end=first - dt.timedelta(days=1), unit="week")
    first = _month_start(today, 0)
    return TimeRange(start=_month_start(today, n), end=first - dt.timedelta(days=1), unit="month")


def _last_n_before(unit: str, n: int, left_out: str, today: dt.date) -> TimeRange | None:
    """"4 tuần vừa rồi (không tính hôm nay)": the 28 days before today; "(không tính tuần này)", "excluding
    this week": the 4 whole weeks before the current one.

    >>> r = _last_n_before("tuan", 4, "hom nay", dt.date(2026, 11, 15)); (r.start, r.end)
    (datetime.date(2026, 10, 18), datetime.date(2026, 11, 14))
    """
    if left_out in ("hom nay", "today"):
        days = n * {"day": 1, "ngay": 1, "week": 7, "tuan": 7}.get(unit, 0)
        return TimeRange(start=today - dt.timedelta(days=days), end=today - dt.timedelta(days=1)) if days else None
    same_unit = {"tuan nay": ("week", "tuan"), "this week": ("week", "tuan"),
                 "thang nay": ("month", "thang"), "this month": ("month", "thang")}[left_out]
    return _last_full(unit, n, today) if unit in same_unit else None


def shift_months(moment: dt.datetime, months: int) -> dt.datetime:
    index = moment.year * 12 + moment.month - 1 + months
    year, month = index // 12, index % 12 + 1
    last_day = (_month_start(dt.date(year, month, 1), -1) - dt.timedelta(days=1)).day
    return moment.replace(year=year, month=month, day=min(moment.day, last_day))


def find_periods(text: str, now: dt.datetime) -> list[FoundPeriod]:
    """Every time phrase in normalized ``text`` (no overlaps, first found wins); "from A to B" is one."""
    today = now.date()
    found: list[FoundPeriod] = []
    weekdays: set[int] = set()  # where a weekday name was found

    def add(start: int, end: int, days: tuple[dt.date, dt.date] | None, unit: str | None = None) -> None:
        if days is not None:
            add_range(start, end, TimeRange(start=days[0], end=days[1], unit=unit))

    def add_range(start: int, end: int, found_range: TimeRange | None) -> None:
        if found_range is None or any(f.start < end and start < f.end for f in found):
            return
        if _PREVIOUS_N.search(text[start:end]) and _COMPARED_TO.search(text[:start]):
            return  # "last 7 days vs (the) previous 7 days": the days before the first, left to the comparison
        found.append(FoundPeriod(start, end, found_range.model_copy(update={"phrase": text[start:end]})))

    for span, names in ((_WEEKDAY_SPAN_VI, _WEEKDAYS_VI), (_WEEKDAY_SPAN_EN, WEEKDAYS_EN)):
        for match in span.finditer(text):
            add(match.start(), match.end(), _days_of_a_week(_weekday_index(names, match.group(1)),
                                                            _weekday_index(names, match.group(2)), match.group(3), today))
    said_week: tuple[int, str] | None = None  # the weekday said with its week, and the week
    for match in _WEEKDAY_VI.finditer(text):
        name, qualifier = match.group(1), match.group(2) or _shared_week(text, match.end(), match.group(1))
        if name == "thu tu" and not qualifier:  # "thứ tự" (order) once diacritics go
            continue
        if not qualifier and said_week and said_week[0] != _WEEKDAYS_VI[name] and _A_WEEK_SAID.fullmatch(
                said_week[1]) and _COMPARING_WORD.search(text, 0, match.start()):  # "thứ 6 tuần trước hơn thứ 5 bao
            qualifier = said_week[1]  # nhiêu": the Thursday of that week (never this week's)
        if match.group(2):
            said_week = (_WEEKDAYS_VI[name], match.group(2))
        add(match.start(), match.end(), _weekday(_WEEKDAYS_VI[name], qualifier, today,
                                                 before_today=qualifier in ("vua roi", "vua qua", "roi")), "day")
        weekdays.add(match.start())
    for match in _WEEKDAY_OF_A_WEEK_EN.finditer(text):
        said = match.group(2) or "the week before"  # ("the week before" last week's: two back)
        weeks = "tuan truoc nua" if said == "the week before" and "last week" in text else "this" if said == "this" \
            else "previous"
        add(match.start(), match.end(), _weekday(WEEKDAYS_EN.index(match.group(1) or match.group(3)), weeks, today,
                                                 before_today=False), "day")
        weekdays.add(match.start())
    for match in _WEEKDAY_EN.finditer(text):
        qualifier = match.group(1)
        pair = _PAIRED_WEEKDAY_EN.match(text, match.end()) if qualifier == "on" else None
        if pair and pair.group(1) != match.group(2):  # "on Friday and Saturday last week": last week's Friday
            qualifier = "this" if pair.group(2) == "this" else "previous"
        add(match.start(), match.end(), _weekday(WEEKDAYS_EN.index(match.group(2)), qualifier, today,
                                                 before_today=qualifier in ("last", "this past", "past")), "day")
        weekdays.add(match.start())
    for match in _LAST_N_EXCLUDING.finditer(text):
        count, unit, left_out = next(g for g in match.groups()[0:6:2] if g), next(
            g for g in match.groups()[1:6:2] if g), match.group(7)
        add_range(match.start(), match.end(), _last_n_before(unit, _count_of(count), left_out, today))
    for match in _N_DAYS_BEFORE_TODAY.finditer(text):
        count = next(g for g in match.groups() if g)
        add_range(match.start(), match.end(), _last_n_before("day", _count_of(count), "today", today))
    for match in _LAST_N_FULL.finditer(text):
        count, unit = next(g for g in match.groups()[0::2] if g), next(g for g in match.groups()[1::2] if g)
        add_range(match.start(), match.end(), _last_full(unit, _count_of(count), today))
    for unit, pattern in _LAST_N.items():
        for match in pattern.finditer(text):
            count = next(g for g in match.groups() if g)
            add_range(match.start(), match.end(), _last_n(unit, _count_of(count), now))
    for match in _NEXT_N_DAYS.finditer(text):
        count = next(g for g in match.groups() if g)
        add_range(match.start(), match.end(), _next_n_days(_count_of(count), today))
    for match in _LAST_HOUR.finditer(text):
        add_range(match.start(), match.end(), _last_n("hour", 1, now))
    for match in _PAST_WEEK.finditer(text):
        add_range(match.start(), match.end(), _last_n("day", 7, now))
    for match in _DATE_ISO.finditer(text):
        day = _date(int(match.group(1)), int(match.group(2)), int(match.group(3)))
        add(match.start(), match.end(), (day, day) if day else None, "day")
    for match in _DATE_DMY.finditer(text):
        day = _date(int(match.group(3)), int(match.group(2)), int(match.group(1)))
        add(match.start(), match.end(), (day, day) if day else None, "day")
    for match in _DAY_SPAN_EN.finditer(text):
        month_word, first, last = (match.group(1), match.group(2), match.group(3)) if match.group(1) else \
            (match.group(6), match.group(4), match.group(5))
        start = _recent_date(_month_number(month_word), int(first), None, today)
        end = _date(start.year, start.month, int(last)) if start is not None else None
        add(match.start(), match.end(), (start, end) if start and end and start < end else None)
    for match in _WEEK_NUMBER.finditer(text):
        add(match.start(), match.end(), _numbered_week(int(match.group(1)), today), "week")
    for match in _DATE_EN.finditer(text):
        month_word, day_text = (match.group(1), match.group(2)) if match.group(1) else (match.group(4), match.group(3))
        year = int(match.group(5)) if match.group(5) else None
        day = _recent_date(_month_number(month_word), int(day_text), year, today)
        add(match.start(), match.end(), (day, day) if day else None, "day")
    for match in (*_DATE_DM.finditer(text), *_DATE_DM_BEFORE_A_SECOND.finditer(text)):
        day = _recent_date(int(match.group(2)), int(match.group(1)), None, today)
        add(match.start(), match.end(), (day, day) if day else None, "day")
    for match in _AGO.finditer(text):
        count = _count_of(match.group(1))
        add(match.start(), match.end(), period_range(match.group(2), count, today), match.group(2))
    for match in _DAYS_AGO_VI.finditer(text):
        if _COMPARED_TO.search(text[:match.start()]):
            continue  # "7 ngày qua so với 7 ngày trước": the days before the first period, left to the comparison
        count = _count_of(match.group(1))
        add(match.start(), match.end(), period_range("day", count, today), "day")
    for match in _DAY_OF_A_MONTH_SAID.finditer(text):
        first = _month_start(today, 0 if (match.group(2) or match.group(4)) in ("nay", "this") else 1)
        day = _date(first.year, first.month, int(match.group(1) or match.group(3)))
        add(match.start(), match.end(), (day, day) if day and day <= today else None, "day")
    for match in _DATE_VI_WORDS.finditer(text):
        day = _recent_date(int(match.group(2)), int(match.group(1)), int(match.group(3)) if match.group(3) else None,
                           today)
        add(match.start(), match.end(), (day, day) if day else None, "day")
    for match in _MONTH_VI.finditer(text):
        year = _year_of(match.group(2) or match.group(3), today)
        add(match.start(), match.end(), _named_month(int(match.group(1)), year, today), "month")
    for match in _MONTH_EN.finditer(text):
        name, year_text = _month_groups(match)
        year = _year_of(year_text, today)
        add(match.start(), match.end(), _named_month(_MONTH_NAMES.index(name) + 1, year, today), "month")
    for match in _QUARTER.finditer(text):
        number = next(g for g in match.groups()[:4] if g)
        year = _year_of(match.group(5) or match.group(6), today)
        add(match.start(), match.end(), _named_quarter(_QUARTER_WORDS.get(number) or int(number), year, today),
            "quarter")
    for match in _YEAR.finditer(text):  # "revenue by month for 2026", "doanh thu năm 2025": the year, up to today
        year = int(match.group(1) or match.group(2))
        if year <= today.year:
            add(match.start(), match.end(), (dt.date(year, 1, 1), min(today, dt.date(year, 12, 31))), "year")
    for match in _DAY_OF_MONTH.finditer(text):
        day = _day_of_month(int(match.group(1) or match.group(2)), today)
        add(match.start(), match.end(), (day, day) if day else None, "day")
    for match in _DATE_DM_BARE.finditer(text):
        if text[:match.start()].split()[-1] in _COUNTED_AFTER:
            continue
        day = _recent_date(int(match.group(2)), int(match.group(1)), None, today)
        add(match.start(), match.end(), (day, day) if day else None, "day")
    for phrase, back in _WEEKENDS:
        for match in re.finditer(rf"\b{re.escape(phrase)}\b", text):
            add(match.start(), match.end(), weekend_range(back, today))
    for phrase, unit, back in sorted(_FIXED, key=lambda f: -len(f[0])):
        named_after = r"(?! of\b)" if phrase.startswith(("the ", "for the ")) else ""  # "for the month of October"
        for match in re.finditer(rf"(?<!\bmay )(?<!\bnhung )\b{re.escape(phrase)}\b{named_after}", text):  # never
            # "mấy hôm nay", "những ngày qua": some days lately, not today
            if _BEFORE_ANOTHER.match(text, match.end()) and _COMPARED_TO.search(text[:match.start()]):
                continue  # "tuần trước so với tuần trước đó": the one before the other (never "tuần trước đồ uống")
            add(match.start(), match.end(), period_range(unit, back, today), unit)
    if (tomorrow := _OPENING_MAI.match(text)) is not None:  # "mai có bao nhiêu booking": tomorrow
        add(tomorrow.start(1), tomorrow.end(1), period_range("day", -1, today), "day")
    for match in _THIS_MORNING.finditer(text):  # "sáng nay", "this morning": today before noon, never the whole day
        add_range(match.start(), match.end(), TimeRange(start=today, end=today, end_before=_noon(today, now), unit="day"))
    for match in _VS_LAST.finditer(text):  # "avg ticket this week vs last": the week before
        before = [f for f in found if f.end <= match.start() and f.range.unit in _UNITS_BACK]
        if before:
            unit = str(before[-1].range.unit)
            named_back = next((b for b in range(_MAX_BACK) if period_range(unit, b, today)[0] == before[-1].range.start),
                              None)
            if named_back is not None:
                add(match.start(1), match.end(), period_range(unit, named_back + 1, today), unit)
    bare = list(_BARE_WEEKDAY_EN.finditer(text))
    if not found and len(bare) == 1:  # "Saturday's revenue": the latest Saturday, when nothing else dates it
        match = bare[0]
        index = WEEKDAYS_EN.index(match.group(1))
        if text[:match.start()].endswith("for ") and _BOOKING.search(text):  # "booked in for Tuesday": the coming one
            day = today + dt.timedelta(days=(index - today.weekday()) % 7)
            add(match.start(), match.end(), (day, day), "day")
        else:
            add(match.start(), match.end(), _weekday(index, "", today, before_today=False), "day")
        weekdays.add(match.start())
    so_far = _SO_FAR_TODAY.search(text)  # "mấy đơn ship tới giờ rồi": today so far (never "từ trước tới giờ": ever)
    if not found and so_far is not None and not re.search(r"\btu\b", text[:so_far.start()]):
        add(so_far.start(), so_far.end(), (today, today), "day")
    parts = _part_of_a_month(text, sorted(found, key=lambda f: f.start), today)
    dated = _weekday_with_date(text, parts, weekdays)
    return _join_ranges(text, _morning_of_a_day(text, dated, now), today)


# "this week vs last", "this month compared with the previous one": the period before the one just named.
_VS_LAST = re.compile(r"\b(?:vs|versus|compared (?:with|to)|against) (?:the )?((?:last|previous)(?: one)?)\b"
                      r"(?! (?:week|month|year|quarter|night|weekend|\d))")
_UNITS_BACK = ("week", "month", "quarter", "year")
_MAX_BACK = 24


# "the first week of November", "tuần đầu tháng 11", "nửa cuối tháng trước", "the first 10 days of this month": days of
# the month named after them ("tuần thứ 2" is left: "thứ 2" is a Monday).
_ORDINALS = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4, "last": -1,
             "final": -1, "dau": 1, "dau tien": 1, "cuoi": -1, "cuoi cung": -1}
_PART_OF_MONTH_EN = re.compile(rf"\b(?:(?:in|during|for|over) )?(?:the )?(first|1st|second|2nd|third|3rd|fourth|4th|last|"
                               rf"final) (?:(week|half)|{_COUNT} days) (?:of )?(?:the month of )?$")
_PART_OF_MONTH_VI = re.compile(rf"\b(?:trong )?(?:(tuan|nua)|{_COUNT} ngay) (dau tien|dau|cuoi cung|cuoi)"
                               r"(?: (?:cua|trong))? $")


def _part_of_a_month(text: str, found: list[FoundPeriod], today: dt.date) -> list[FoundPeriod]:
    """A week, a half or the first / last N days said before a month: those days of it (up to today, or whole when
    all still to come)."""
    out = list(found)
    for period in found:
        if period.range.unit != "month" or period not in out:
            continue
        before = text[:period.start]
        en, vi = _PART_OF_MONTH_EN.search(before), _PART_OF_MONTH_VI.search(before)
        if en is not None:
            match, (which, part, count) = en, en.group(1, 2, 3)
        elif vi is not None:
            match, (part, count, which) = vi, vi.group(1, 2, 3)
        else:
            continue
        days = _days_of_a_month(period.range.start, _ORDINALS[which], part, count)
        if days is None:
            continue
        out = [f for f in out if f is period or f.end <= match.start() or f.start >= period.start]
        out[out.index(period)] = FoundPeriod(match.start(), period.end, TimeRange(
            start=days[0], end=days[1] if days[0] > today else min(days[1], today), unit=None, phrase=text[match.start():period.end]))
    return out


def _days_of_a_month(first_day: dt.date, which: int, part: str | None, count: str | None) -> tuple[dt.date, dt.date] | None:
    """The days of the month starting ``first_day``: its ``which``-th week (7 days; -1 the last 7), half (the
    first 15 days, or the rest) or ``count`` first or last days."""
    last_day = _month_start(first_day, -1) - dt.timedelta(days=1)
    if part in ("half", "nua"):
        return (first_day, first_day + dt.timedelta(days=14)) if which == 1 else \
            (first_day + dt.timedelta(days=15), last_day) if which in (2, -1) else None
    length = 7 if part in ("week", "tuan") else _count_of(str(count))
    if not 1 <= length <= last_day.day or (part is None and which not in (1, -1)):
        return None
    if which == -1:
        return last_day - dt.timedelta(days=length - 1), last_day
    start = first_day + dt.timedelta(days=7 * (which - 1))
    end = start + dt.timedelta(days=length - 1)
    return (start, end) if end <= last_day else None

def _weekday_with_date(text: str, found: list[FoundPeriod], weekdays: set[int]) -> list[FoundPeriod]:
    """"on Saturday, November 7", "thứ 7 ngày 7/11", "Saturday the 24th of October": the weekday names the date
    beside it, one day."""
    out: list[FoundPeriod] = []
    for period in found:
        previous = out[-1] if out else None
        if previous is not None and previous.start in weekdays and \
                text[previous.end:period.start].strip() in ("", "ngay", "the") \
                and period.range.start == period.range.end:
            out[-1] = FoundPeriod(previous.start, period.end,
                                  period.range.model_copy(update={"phrase": text[previous.start:period.end]}))
            continue
        out.append(period)
    return out


# "sáng hôm qua", "yesterday morning", "thứ 7 buổi sáng": that day before noon ("before noon" is spelled "before
# 12pm" first: the hours before it).
_MORNING_BEFORE = re.compile(r"(?:buoi sang|sang) $")
_MORNING_AFTER = re.compile(r" (?:buoi sang|morning)\b")


def _morning_of_a_day(text: str, found: list[FoundPeriod], now: dt.datetime) -> list[FoundPeriod]:
    """A morning word beside a period of one whole day: that day until noon (and never past now)."""
    out: list[FoundPeriod] = []
    for period in found:
        one_day = period.range.start == period.range.end and period.range.start_at is None and \
            period.range.end_before is None
        before = _MORNING_BEFORE.search(text[:period.start]) if one_day else None
        after = _MORNING_AFTER.match(text, period.end) if one_day else None
        if before is None and after is None:
            out.append(period)
            continue
        start, end = (before.start() if before else period.start), (after.end() if after else period.end)
        out.append(FoundPeriod(start, end, period.range.model_copy(update={
            "end_before": _noon(period.range.start, now), "phrase": text[start:end]})))
    return out


def _noon(day: dt.date, now: dt.datetime) -> dt.datetime:
    """Where a morning of ``day`` ends: its noon, never past now."""
    return min(dt.datetime.combine(day, dt.time(12), tzinfo=now.tzinfo), now)


def _opener(text: str, found: FoundPeriod) -> str | None:
    """The word that opens a range before ``found`` ("từ", "from", "between"); "tu" when the phrase opens it
    itself ("từ đầu tháng"), "since" when it does ("since Monday")."""
    if found.range.phrase.startswith("tu "):
        return "tu"
    if found.range.phrase.startswith("since "):
        return "since"
    before = text[:found.start].split()
    return next((w for w in _RANGE_OPEN if before and " ".join(before[-len(w.split()):]) == w), None)


def _two_days_as_a_span(text: str, first: FoundPeriod, second: FoundPeriod) -> bool:
    """"Nov 1 to Nov 14", "1/11 đến 10/11", "1 Nov to yesterday": two days joined by "to" with no "from" before them
    are one span, when the first comes first and nothing compares them ("compare Nov 1 to Nov 14")."""
    return text[first.end:second.start].strip() in _BARE_SPAN_JOIN and first.range.unit == second.range.unit == "day" \
        and first.range.end < second.range.start and first.range.start_at is None and \
        _CALENDAR_DAY.search(first.range.phrase) is not None and _COMPARED_BEFORE.search(text[:first.start]) is None


_CALENDAR_DAY = re.compile(r"\d")  # a day said by its date ("Nov 1", "1/11"), never a weekday ("thứ 2 đến thứ 6")
_BARE_SPAN_JOIN = ("to", "through", "thru", "till", "until", "den", "toi")
_COMPARED_BEFORE = re.compile(r"\b(?:compare|compared|comparing|so sanh|so voi|vs|versus|against)\b")


def _join_ranges(text: str, found: list[FoundPeriod], today: dt.date) -> list[FoundPeriod]:
    """"từ 1/11 đến 5/11", "from Monday to Wednesday", "between Nov 1 and Nov 5", "từ tháng 9 đến giờ": one range."""
    out: list[FoundPeriod] = []
    i = 0
    while i < len(found):
        first = found[i]
        opener = _opener(text, first)
        second = found[i + 1] if i + 1 < len(found) else None
        if opener is None and second is not None and _two_days_as_a_span(text, first, second):
            joined = TimeRange(start=first.range.start, end=second.range.end, phrase=text[first.start:second.end])
            out.append(FoundPeriod(first.start, second.end, joined))  # "Nov 1 to Nov 14": one range
            i += 2
            continue
        if opener is None or any(span.fullmatch(first.range.phrase) for span in (_WEEKDAY_SPAN_VI, _WEEKDAY_SPAN_EN)):
            # "từ thứ 2 đến thứ 6 tuần trước": a span with its own end
            out.append(first)
            i += 1
            continue
        start = first.start if first.range.phrase.startswith(opener + " ") else first.start - len(opener) - 1
        to_now = _TO_NOW.match(text, first.end)
        between = text[first.end:second.start].strip() if second else ""
        closed = second is not None and between in _RANGE_JOIN
        if (opener in _SINCE or (opener in _FROM and not closed and first.range.end < today)) and not to_now:  # "since
            # Monday", "từ tháng 9": from then to now
            since = first.range.model_copy(update={"end": today, "end_before": None, "unit": None,
                                                   "phrase": text[start:first.end]})
            out.append(FoundPeriod(start, first.end, since))
            i += 1
            continue
        if to_now:
            joined = first.range.model_copy(update={"end": today, "end_before": None, "unit": None,
                                                    "phrase": text[start:to_now.end()]})
            out.append(FoundPeriod(start, to_now.end(), joined))
            i += 1
        elif second and between in _RANGE_JOIN and (between != "and" or opener == "between") \
                and first.range.start <= second.range.end:
            joined = TimeRange(start=first.range.start, end=second.range.end, phrase=text[start:second.end],
                               start_at=first.range.start_at, end_before=second.range.end_before)
            out.append(FoundPeriod(start, second.end, joined))
            i += 2
        else:
            out.append(first)
            i += 1
    return out
