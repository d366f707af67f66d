"""A deterministic question parser (Vietnamese and English): question -> semantic query.

It answers only when every word of the question is accounted for — by a metric, a dimension, a
value from the data, a time phrase, a ranking word or a function word — the principle that keeps
verified-query reuse at 0% wrong. Anything left over, and the question is handed on (to the model,
or to an honest "no" that says what was recognised).

>>> import datetime as dt
>>> from aria.semantic.lexicon import Entry
>>> tokens_of("Top 5 món bán chạy nhất tuần trước?")
['top', '5', 'mon', 'ban', 'chay', 'nhat', 'tuan', 'truoc']
"""

from __future__ import annotations

import copy
import dataclasses
import datetime as dt
import functools
import re
import string
import unicodedata
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import cast

from aria.semantic.catalog import MetricInfo, SemanticCatalog
from aria.semantic.compile import (
    CHANGE_AMOUNT_COLUMN,
    CHANGE_COLUMN,
    CHANGE_GRAINS,
    entity_of,
    narrowed_through_another_table,
)
from aria.semantic.lexicon import (
    ALL_TIME_PHRASES,
    COLLECTIVE_WORDS,
    FALL_WORDS,
    FAST_WORDS,
    GROUP_MARKERS,
    GROWTH_WORDS,
    HOW_IT_DID,
    HOW_OFTEN_WORDS,
    NUMBER_WORDS,
    PEAK_WORDS,
    RANK_WORDS,
    RISE_WORDS,
    SINGLE_MARKERS,
    SLOW_WORDS,
    SO_FAR_PHRASES,
    SORT_WORDS,
    SUPERLATIVE_METRICS,
    SUPERLATIVES,
    TWO_WAY_WORDS,
    UNIT_METRICS,
    UNIT_WORD_METRICS,
    UNITS,
    VERB_ALTERNATIVES,
    VI_COUNTED,
    VI_NUMBER_WORDS,
    WEAK_VERBS,
    WHICH_WORDS,
    Entry,
    ValueMeaning,
    accents_of,
    money_spelled,
    percent_spelled,
    shorthand_spelled,
    words_of,
)
from aria.semantic.periods import (
    PART_OF_A_MONTH,
    SHIFT_OF_DAY,
    THIS_SHIFT,
    WEEKDAYS_EN,
    day_to_come,
    find_periods,
    month_to_come,
    period_range,
    shift_in_progress,
    shift_months,
    whole_current_period,
)
from aria.semantic.query import Comparison, OrderBy, SemanticQuery, Threshold, TimeRange, ValueFilter
from aria.text import normalize

GroupBysOf = Callable[[list[str]], Sequence[str]]  # metrics -> the group-by names MetricFlow can join

_TOP_N = re.compile(r"^(?:top|nhung|cac)$")
_TABLE_NO = re.compile(r"\b(?:ban so|ban|table number|table no|table|tables) (\d{1,3})\b"
                       r"(?! (?:khach|nguoi|ghe)\b)(?! cho\b(?! (?:mon|lau|bao|qua)\b))")  # never "bàn 8 khách trở lên",
# "bàn 8 chỗ": a party's size (but "bàn 5 chờ món bao lâu": table 5)
_TABLE_NUMBER_WORDS = {w: i for i, w in enumerate((  # "table twelve": table 12, never the top 12
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen",
    "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"), start=1)}
_TABLE_NO_IN_WORDS = re.compile(r"\b(?:table number|table no|table) (" + "|".join(_TABLE_NUMBER_WORDS) + r")\b"
                                r"(?! (?:people|guests|seats|seater|person)\b)")
_MAX_TOP = 100
_PLACE_IN_A_RANKING = re.compile(r"\b(?:xep hang|xep|dung|dung hang) (?:thu may|thu bao nhieu|hang may)\b")
_POSSESSIVE = re.compile(r"(?<=\w)['’]s\b|(?<=\ws)['’](?=\s)")  # "today's", "What's", "the last 7 days' usage"
_SOFT_CONTRACTION = re.compile(r"(?<=[a-z])['’](?:ve|re|ll|d|m)\b", re.IGNORECASE)  # "we've given": "we given"
_CONTRACTION = re.compile(r"(?<=[a-z])['’](?=[a-z])", re.IGNORECASE)  # "haven't": its "t" is left over, so refused
_CANNOT_SPLIT = "the metric cannot be split or filtered by "
# said bare, a value only in a list of its kind ("hạng thẻ (thường, bạc, vàng)"; else "thường" is "usually")
_VALUES_ONLY_IN_LISTS = {"thuong": ("hang", "thuong")}
_WHO_CAME = ("customer", "member")  # "of the members who ate with us in October": the customers, not a split
_NOT_PROSE = re.compile(r"[^\w\s?!.,:;()/%&+\-–—]|;|--")  # quotes, =, <, >, *, ... and SQL comment/statement marks
PER_ITEM_CONCEPTS = ("ingredient",)  # quantities in the item's own unit only add up per item
# A handful of members: "which station is busiest" lists them all, ranked (ex-033, ex-021); "which dish sells
# most" is one row (ex-001).
RANKED_IN_FULL = ("station", "promotion", "supplier", "payment_method", "payment_method_group", "area", "shift", "order_type")
# People are ranked as a leaderboard: "which server brought in the most" shows the top 5 (ex-047).
RANKED_TOP_FIVE = ("staff", "server", "manager")
DATE_PART_CONCEPTS = {"metric_time__extract_hour": "hour", "metric_time__extract_dow": "weekday"}


@dataclass(frozen=True)
class Recognised:
    """One thing the parser understood: its kind, the question's words, and what they mean."""

    kind: str  # metric | concept | value | time | grain | superlative | top | table_no
    words: str  # as normalized, e.g. "doanh thu"
    meaning: str  # e.g. "revenue", "category", "L", "2026-11-01..2026-11-15"

    def __str__(self) -> str:
        return f"{self.kind}: {self.words} -> {self.meaning}"


@dataclass
class Parsed:
    """What the parser made of a question: a query, or what it recognised and what it could not."""

    query: SemanticQuery | None
    recognised: list[Recognised] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)  # words nothing accounted for
    problem: str = ""  # why there is no query

    @property
    def ok(self) -> bool:
        return self.query is not None


@dataclass
class _Mark:
    kind: str
    payload: object = None


def tokens_of(question: str) -> list[str]:
    return normalize(question).split()


# Soft words that are English only: typed with Vietnamese marks they are the Vietnamese word ("thẻ": a card)
_ENGLISH_ONLY_SOFT = {("the",)}


class _Marks:
    """Which token means what; every token ends up marked or is a leftover."""

    def __init__(self, words: list[str], raw: list[str], accents: Sequence[str] = ()) -> None:
        self.words = words  # stemmed
        self.raw = raw  # as typed (normalized): plurals kept
        self.accents = list(accents) if len(accents) == len(words) else [""] * len(words)  # each word's marks
        self.marked = any(self.accents)  # typed with marks: a bare word is bare ("qua" is not "quả")
        self.marks: list[_Mark | None] = [None] * len(words)
        self.mentions: list[tuple[int, int, str, object]] = []  # (start, end, kind, payload)
        self.excluded: set[int] = set()  # where the values to leave out start ("không tính đồ uống")
        self.commas: frozenset[int] = frozenset()  # the words a comma comes before ("bao nhiêu khách, bill ...")
        self.rates_asked: list[str] = []  # rates asked by "tỷ lệ bao nhiêu" after their count: they must be answered

    def free(self, start: int, end: int) -> bool:
        return all(m is None for m in self.marks[start:end])

    def forget(self, start: int, end: int) -> None:
        """Unmark the words from ``start`` to ``end`` and drop the mentions inside them."""
        self.mentions = [m for m in self.mentions if not (start <= m[0] and m[1] <= end)]
        for i in range(start, end):
            self.marks[i] = None

    def mark(self, start: int, end: int, kind: str, payload: object = None) -> None:
        self.mentions.append((start, end, kind, payload))
        for i in range(start, end):
            self.marks[i] = _Mark(kind, payload)

    def find(self, phrase: tuple[str, ...]) -> list[int]:
        n = len(phrase)
        return [i for i in range(len(self.words) - n + 1)
                if tuple(self.words[i:i + n]) == phrase and self.free(i, i + n)]

    def says(self, *phrases: tuple[str, ...]) -> bool:
        """One of the phrases is among the words, whatever they were read as."""
        return any(tuple(self.words[i:i + len(p)]) == p for p in phrases for i in range(len(self.words) - len(p) + 1))

    def before(self, index: int) -> str:
        return self.words[index - 1] if index > 0 else ""

    def leftovers(self) -> list[str]:
        return [w for w, m in zip(self.words, self.marks, strict=True) if m is None]


def _word_offsets(text: str) -> list[int]:
    """Where each word of the normalized text starts, to map a match on the text to the words it covers."""
    return [m.start() for m in re.finditer(r"\S+", text)]


def _free_words(marks: _Marks, offsets: list[int], start: int, end: int) -> tuple[int, int] | None:
    """The words a match from ``start`` to ``end`` of the text covers, when none of them is marked yet."""
    covered = [i for i, off in enumerate(offsets) if start <= off < end]
    return (covered[0], covered[-1] + 1) if covered and marks.free(covered[0], covered[-1] + 1) else None


_FROM_MARKS = (accents_of("từ")[0], accents_of("tư")[0])  # since, from; four ("thứ tư": Wednesday)


def _mark_periods(marks: _Marks, text: str, now: dt.datetime) -> list[TimeRange]:
    ranges = []
    offsets = _word_offsets(text)
    for found in find_periods(_without_look_alikes_of_from(marks, text, offsets), now):
        if (words := _free_words(marks, offsets, found.start, found.end)) is not None:
            marks.mark(*words, "time", found.range)
            ranges.append(found.range)
    return ranges


def _without_look_alikes_of_from(marks: _Marks, text: str, offsets: list[int]) -> str:
    """The text with each "tu" typed with marks other than those of "từ" (since, from) or "tư", or typed bare after
    "dien", made unreadable as a period's start, the same length: "ví điện tử tuần trước" is last week, never since
    then."""
    for i, start in enumerate(offsets):
        if marks.raw[i] == "tu" and (marks.accents[i] not in ("", *_FROM_MARKS) or marks.raw[i - 1:i] == ["dien"]):
            text = text[:start] + "t_" + text[start + 2:]  # ("vi dien tu" typed bare: electronic, as "điện tử")
    return text


def _period_spans(marks: _Marks) -> set[tuple[int, int]]:
    """Where the question names a period."""
    return {(a, b) for a, b, k, _ in marks.mentions if k == "time"}


def _metric_spans(marks: _Marks) -> list[tuple[int, int, str]]:
    """Where the question names a metric, and which, in its order."""
    return sorted((a, b, str(p)) for a, b, k, p in marks.mentions if k == "metric")


def _value_spans(marks: _Marks, concept: str | None) -> list[tuple[int, int]]:
    """Where the question names a value of ``concept`` (a weekday, a shift), in its order."""
    return sorted((a, b) for a, b, k, p in marks.mentions if k == "value"
                  and any(m.concept == concept for m in cast(tuple[ValueMeaning, ...], p)))


def _weekday_span(marks: _Marks) -> bool:
    """Two weekdays with "to" between them ("pho from Monday to Thursday"): a span, never the two days."""
    days = _value_spans(marks, "weekday")
    return any(marks.words[b:c] in (["to"], ["through"], ["till"], ["until"], ["den"], ["toi"])
               for (_, b), (c, _) in zip(days, days[1:], strict=False))


def _named_first(marks: _Marks, concept: str, other: str | None) -> bool:
    """A value of ``concept`` is named before any value of ``other``."""
    def first(wanted: str | None) -> int:
        return min((a for a, _ in _value_spans(marks, wanted)), default=len(marks.words))
    return first(concept) < first(other)


def _said_to_be(marks: _Marks, concept: str) -> bool:
    """A value of ``concept`` comes right after "is", "are", "was", "were" or "là": what the share is of ("what share of
    our drink sales is beer": the beers within the drinks)."""
    return any(a and marks.words[a - 1] in ("is", "are", "was", "were", "la") for a, _ in _value_spans(marks, concept))


def _from_before_a_period(marks: _Marks) -> None:
    """"Voided items from yesterday", "unpaid bills from last night": "from" right before a period is of it; so is
    "tính theo" ("thứ mấy đông khách nhất, tính theo tháng trước": counted over last month, never a split)."""
    for start, _, kind, _ in list(marks.mentions):
        if kind == "time" and start and marks.words[start - 1] == "from" and marks.free(start - 1, start):
            marks.mark(start - 1, start, "filler")
        elif kind == "time" and marks.words[max(0, start - 2):start] == ["tinh", "theo"] and marks.free(start - 2, start):
            marks.mark(start - 2, start, "filler")


def _mark_table_numbers(marks: _Marks, text: str) -> list[ValueFilter]:
    filters = []
    offsets = _word_offsets(text)
    for match in (*_TABLE_NO.finditer(text), *_TABLE_NO_IN_WORDS.finditer(text)):
        number = str(_TABLE_NUMBER_WORDS.get(match.group(1), match.group(1)))
        if (words := _free_words(marks, offsets, match.start(), match.end())) is not None:
            marks.mark(*words, "table_no", number)
            filters.append(number)
    return [ValueFilter(dimension="table_no", values=(v,)) for v in filters]


_HOUR_WINDOWS = (  # on normalized text: "between 5 and 7pm", "5pm-7pm", "từ 5 tới 7 giờ tối", "khung 17h-19h"
    re.compile(r"\b(?:between|from) (\d{1,2}) ?(am|pm)? (?:and|to) (\d{1,2}) ?(am|pm)\b"),
    re.compile(r"\b(\d{1,2}) ?(am|pm)? (?:to )?(\d{1,2}) ?(am|pm)\b"),
    re.compile(r"\b(?:tu|khung|khung gio) (\d{1,2})h?()(?: gio)? (?:den |toi )?(\d{1,2})h? ?(?:gio)? ?"
               r"((?:sang|trua|chieu|toi)(?! (?:qua|nay|mai)\b))?\b"),
    re.compile(r"\b(\d{1,2})h()(?: den| toi)? (\d{1,2})h ?((?:sang|trua|chieu|toi)(?! (?:qua|nay|mai)\b))?\b"),  # "3h-5h
    # chiều" (but the "tối" of "tối nay" is a day: tonight); whole hours on the clock: "from 17:00 to 22:00", "18:00-20:00"
    re.compile(r"\b(?:(?:between|from|tu|khung|khung gio) )?(\d{1,2}) 00()(?: (?:and|to|den|toi))? (\d{1,2}) 00()(?! \d)"),
)
_HOURS_JOINED = re.compile(r"\d(?:h| gio)\b|\b(?:den|toi) \d")  # "từ 7h", "từ 7 đến 9": hours (never "từ 1/11 tới nay")
_UP_TO_A_WEEKDAY = re.compile(r"(?<!day )(?<!day,)\b(?:through|thru|until|till|up to) (?:monday|tuesday|wednesday|"
                              r"thursday|friday|saturday|sunday)\b")  # (but "Monday through Friday": a span)
_LATE_NIGHT = re.compile(r"\blate[ -](?:night|evening)s?\b")  # a window of hours with no hours said
# the names of a window of hours: said with its hours, they are those hours ("giờ cao điểm tối (18h-20h)")
_WINDOW_NAMES = (("happy", "hour"), ("khung", "gio", "cao", "diem"), ("cao", "diem"), ("peak",))
_AFTERNOON = ("pm", "chieu", "toi")


def _mark_hour_window(marks: _Marks, text: str) -> list[ValueFilter]:
    """A window of hours of the day, as a filter on the hour (its end excluded: "5-7pm" is 17:00-18:59); the
    start takes the end's half of the day when that keeps it before the end ("5 to 7pm": 17 to 19).

    >>> m = _Marks("how many drinks between 5 and 7pm".split(), [], ())
    >>> [f.values for f in _mark_hour_window(m, "how many drinks between 5 and 7pm")]
    [('17', '18')]
    >>> [f.values for f in _mark_hour_window(_Marks("khung 11 1 gio trua".split(), []), "khung 11 1 gio trua")]
    [('11', '12')]
    >>> _mark_hour_window(_Marks("tu 1 den 5 thang 11".split(), []), "tu 1 den 5 thang 11")  # days, not hours
    []
    >>> [f.values for f in _mark_hour_window(_Marks("sau 9 gio toi qua".split(), []), "sau 9 gio toi qua")]
    [('21', '22', '23')]
    >>> [f.values for f in _mark_hour_window(_Marks("covers from 17 00 to 20 00".split(), []), "covers from 17 00 to 20 00")]
    [('17', '18', '19')]
    """
    offsets = _word_offsets(text)
    for pattern in _HOUR_WINDOWS:
        for match in pattern.finditer(text):
            start, start_half, end, end_half = int(match.group(1)), match.group(2), int(match.group(3)), match.group(4)
            if end_half in _AFTERNOON and end < 12 or end_half == "trua" and end <= 3:
                end += 12
            if start_half in _AFTERNOON and start < 12 or not start_half and start < 12 and 12 <= start + 12 < end:
                start += 12
            if not start_half and not end_half and 5 <= start < end < 12 and _EVENING.search(text):
                start, end = start + 12, end + 12  # "tối qua từ 7h đến 9h": the evening's hours
            if match.group(0).startswith("tu ") and not _HOURS_JOINED.search(match.group(0)):
                continue  # "từ 1/11 tới nay": a day of a month, until now
            said = set(match.group(0).split())
            hours_said = end_half or said & {"gio", "00"} or any(w[-1] == "h" and w[:-1].isdigit() for w in said)
            words = _free_words(marks, offsets, match.start(), match.end())
            if not hours_said or not 0 <= start < end <= 24 or words is None:
                continue
            marks.mark(*words, "filler", None)
            for name in _WINDOW_NAMES:  # "the 3 to 5pm happy hour": those hours
                for i in marks.find(name):
                    marks.mark(i, i + len(name), "filler", None)
            return [ValueFilter(dimension="hour", values=tuple(str(h) for h in range(start, end)))]
    for pattern in _OPEN_HOUR_WINDOWS:  # "after 9pm", "sau 21h", "trước 6 giờ chiều": to closing, or from opening
        for match in pattern.finditer(text):
            side, hour, half = match.group(1), int(match.group(2)), match.group(3)
            evening = not half and (re.match(r" ?toi\b", text[match.end():]) is not None  # "sau 9 giờ tối qua": 21h
                                    or (5 <= hour <= 11 and _EVENING.search(text) is not None))  # "tối qua sau 8h"
            hour += 12 if (half in _AFTERNOON or half == "trua" and hour <= 3 or evening) and hour < 12 else 0
            words = _free_words(marks, offsets, match.start(), match.end())
            if words is None or not 0 < hour < 24:
                continue
            marks.mark(*words, "filler", None)
            hours = range(hour, 24) if side in ("after", "sau", "tu", "from", "since") else range(0, hour)
            return [ValueFilter(dimension="hour", values=tuple(str(h) for h in hours))]
    return []


# Mornings over several days ("buổi sáng tháng này", "mornings last week"): before noon, as "sáng nay" is (the morning
# of one day is a period of its own)
_MORNING_WORDS = (("cac", "buoi", "sang"), ("buoi", "sang"), ("in", "the", "morning"), ("morning",))
_OTHER_PARTS_OF_THE_DAY = frozenset(["trua", "chieu", "toi", "lunch", "afternoon", "evening", "dinner", "night"])


def _mornings(marks: _Marks, hours: list[ValueFilter]) -> list[ValueFilter]:
    """The hours before noon, when a morning is said and no period took it; the hours said with it, when they are
    in the morning ("buổi sáng (trước 11h)")."""
    if _OTHER_PARTS_OF_THE_DAY & set(marks.words):  # "buổi sáng hay buổi trưa nhiều hơn": two parts compared
        return hours
    for words in _MORNING_WORDS:
        for i in marks.find(words):
            if (hours and any(int(h) >= 12 for h in hours[0].values)) or marks.words[i + len(words):][:1] == ["glory"]:
                return hours  # "rau muống" is "morning glory"
            marks.mark(i, i + len(words), "filler", None)
            return hours or [ValueFilter(dimension="hour", values=tuple(str(h) for h in range(12)))]
    return hours


_EVENING = re.compile(r"\b(?:toi (?:qua|nay|mai)|ca toi|tonight|last night|dinner|buoi toi)\b")  # an evening said
# elsewhere: its hours are the evening's ("tối qua sau 8h": after 20:00)
# From an hour up to now ("since 5pm", "từ 17h tới giờ"): to closing (what is still to come has nothing), of today when
# no period is said
_SINCE_AN_HOUR = (
    re.compile(r"\b(since) (\d{1,2}) ?(am|pm)\b"),
    re.compile(r"\b(tu) (\d{1,2})(?:h| gio) ?((?:sang|trua|chieu|toi)(?! (?:qua|nay|mai)\b))?(?= (?:toi|den) "
               r"(?:gio|bay gio|nay)\b)"),
)
# An hour said with its half of the day, or as "21h" / "9 giờ tối" (never the "tối" of "tối qua": last night).
_OPEN_HOUR_WINDOWS = (
    re.compile(r"\b(after|before) (\d{1,2}) ?(am|pm)\b"),
    re.compile(r"\b(after|before) (\d{1,2})()(?= (?:this |in the )?morning\b)"),  # "before 11 this morning"
    re.compile(r"\b(sau|truoc) (\d{1,2})(?:h| gio) ?((?:sang|trua|chieu|toi)(?! (?:qua|nay|mai)\b))?\b"),
    re.compile(r"\b(tu) (\d{1,2})(?:h| gio) ?((?:sang|trua|chieu|toi)(?! (?:qua|nay|mai)\b))? tro di\b"),  # onwards
    re.compile(r"\b(from) (\d{1,2}) ?(am|pm) (?:on|onwards|onward)\b"),
    *_SINCE_AN_HOUR,
)


def _number(marks: _Marks, i: int) -> int | None:
    """The number a word says: digits, an English number word, or a Vietnamese one before what it counts."""
    word = marks.words[i]
    if word.isdigit():
        return int(word)
    if word in VI_NUMBER_WORDS and i + 1 < len(marks.words) and marks.words[i + 1] in VI_COUNTED:
        spelling, number = VI_NUMBER_WORDS[word]
        return number if marks.accents[i] in ("", accents_of(spelling)[0]) else None
    return NUMBER_WORDS.get(word)


def _number_of_money(marks: _Marks, i: int) -> int | None:
    """A Vietnamese number word before a sum's multiplier ("trên một triệu", "dưới năm trăm nghìn" is not one):
    the number ("một", one, only there)."""
    if marks.words[i + 1:i + 2] not in (["trieu"], ["nghin"], ["ngan"]):
        return None
    spelling, number = ("một", 1) if marks.words[i] == "mot" else VI_NUMBER_WORDS.get(marks.words[i], ("", 0))
    return number if number and marks.accents[i] in ("", accents_of(spelling)[0]) else None


_MEASURE_WORDS = frozenset(["kg", "ky", "ki", "kilo", "g", "gram", "lit", "l", "litre", "liter", "ml", "chai", "bottle",
                            "lon", "can"])


_MINUTES = frozenset(["min", "mins", "minute", "phut"])  # "vs the 5 min target": a duration, never the top 5
_MAKING = frozenset(["lam", "nau", "pha", "make", "makes", "cook", "cooks"])  # "làm 1 món": one of them, how long
_RANGE_WORDS = frozenset(["to", "through", "thru", "den", "toi"])
_NAMED_WITH_A_NUMBER = frozenset(["combo", "ca", "vip", "set", "room", "shift", "zone", "khu", "tram", "station"])
_BOUND_WORDS = frozenset(["qua", "hon", "over", "than", "above", "below", "under", "tren", "duoi", "vuot", "exceeding"])


def _mark_top_n(marks: _Marks, in_names: frozenset[tuple[str, str]] = frozenset()) -> int | None:
    """The number of rows asked ("top 5", "5 món", "ba món"); a number word that ends a name with the word before it
    ("cà phê muối" typed bare: "muoi") is the name's."""
    limit = None
    for i in range(len(marks.words)):
        number = _number(marks, i)
        if number is None or marks.marks[i] is not None or not 1 <= number <= _MAX_TOP or \
                (i > 0 and (marks.words[i - 1], marks.words[i]) in in_names):
            continue
        if i > 0 and marks.words[i - 1] in _NAMED_WITH_A_NUMBER:
            continue  # "combo 2", "ca 1", "phòng VIP 2": a name's number (left unread), never how many rows
        if i > 0 and (_number(marks, i - 1) is not None or (i > 1 and marks.words[i - 1] in _RANGE_WORDS
                                                             and _number(marks, i - 2) is not None)):
            continue  # "tables 1 to 10", "tables 11-15": the end of a range of numbers (left unread)
        if i > 0 and ((marks.words[i - 1] in _BOUND_WORDS and marks.marks[i - 1] is None) or (
                marks.words[i - 1] == "for" and marks.words[i + 1:i + 2] in (["people"], ["guest"]))):
            continue  # "làm quá 8 tiếng", "over 5 million", "a table for 10 people": a bound or a size, never how many
        if number == 1 and marks.words[i + 1:i + 2] in (["nguoi"], ["khach"]) and marks.words[i - 1:i] in (
                ["nhieu"], ["may"]):  # "chi trung bình bao nhiêu 1 người": per person
            marks.mark(i, i + 1, "filler")
            continue
        if marks.words[i + 1:i + 2] and marks.words[i + 1] in _PEOPLE_AFTER_A_FIGURE and not _ranks(marks.words):
            continue  # "orders that had 2 guests": a party's size (but "5 khách chi nhiều nhất": five of them)
        if marks.words[i + 1:i + 2] and marks.words[i + 1] in _TIME_UNIT_WORDS and marks.words[i + 2:i + 3] in (
                ["truoc"], ["ago"]):
            continue  # "2 tuần trước ngày nào doanh thu cao nhất": a time back, never the top 2
        if marks.words[i + 1:i + 2] in (["seat"], ["seats"], ["seater"], ["seaters"]) or (
                marks.words[i - 1:i] == ["ban"] and marks.words[i + 1:i + 2] in (["ghe"], ["cho"])):
            continue  # "4-seat tables", "bàn 4 ghế": a table's size, never the top 4
        if number == 1 and i + 1 < len(marks.words) and (marks.words[i + 1] in _MEASURE_WORDS or (  # "giá bao
                i > 0 and marks.words[i - 1] in _MAKING)):  # nhiêu 1 kg", "làm 1 món mất bao lâu": per one of it
            marks.mark(i, i + 1, "filler")
            continue
        if i > 0 and _TOP_N.match(marks.words[i - 1]) and marks.marks[i - 1] is None:
            marks.mark(i - 1, i + 1, "top", number)
            limit = number
        elif i > 0 and marks.words[i - 1] == "bottom":  # "the bottom 5": how many; "bottom" ranks them, least first
            marks.mark(i, i + 1, "top", number)
            limit = number
        elif i + 1 < len(marks.words) and limit is None and marks.words[i + 1] not in _MEASURE_WORDS | _MINUTES and not (
                marks.words[i + 1] in _TIME_UNIT_WORDS and not _ranks(marks.words)):  # "5 món", "which 5 dishes": a
            limit = number  # number before a noun; not "giá bao nhiêu 1 kg" (a measure), nor "doanh thu 7 ngày"
            marks.mark(i, i + 1, "top", limit)  # (seven days, unless ranked: "5 ngày doanh thu cao nhất")
        if limit == number and i + 1 < len(marks.words) and marks.words[i + 1] == "cai":  # "cho 5 cái": five of them
            marks.mark(i + 1, i + 2, "filler")
    return limit


_TIME_UNIT_WORDS = frozenset(["ngay", "tuan", "thang", "day", "week", "month"])


def _ranks(words: list[str]) -> bool:
    """Words that rank rows: "nhất", "top", "most", "least", or an English superlative ("busiest")."""
    return any(w in ("nhat", "top", "most", "least", "which", "nao") or (
        w.endswith("est") and len(w) > 4 and w not in _NOT_SUPERLATIVES) for w in words)


_NOT_SUPERLATIVES = frozenset(["guest", "request", "interest", "suggest", "harvest"])  # they end in "est" too


# "more than 100 portions", "dưới 64%", "từ 2 lần trở lên": a condition on a split's first metric (the words before
# the figure, with the Vietnamese ones' marks when typed with them)
_THRESHOLD_WORDS: dict[tuple[str, ...], Comparison] = {
                    ("at", "least"): ">=", ("no", "less", "than"): ">=", ("not", "less", "than"): ">=",
                    ("more", "than"): ">", ("greater", "than"): ">", ("over",): ">", ("above",): ">",
                    ("fewer", "than"): "<", ("less", "than"): "<", ("under",): "<", ("below",): "<",
                    ("at", "most"): "<=", ("no", "more", "than"): "<=", ("not", "more", "than"): "<=",
                    ("trên",): ">", ("hơn",): ">", ("nhiều", "hơn"): ">", ("ít", "hơn"): "<", ("dưới",): "<",
                    ("tối", "thiểu"): ">=", ("ít", "nhất"): ">=", ("tối", "đa"): "<=", ("không", "quá"): "<=",
                    ("từ",): ">=", ("exactly",): "=", ("đúng",): "=",  # "parties of exactly 2", "đúng 2 khách"
                    ("quá",): ">", ("longer", "than"): ">"}  # "phiếu chờ quá 15 phút", "took longer than 15 minutes"
# "từ 20 phần trở lên", "50 đơn trở xuống"
_UP_OR_DOWN: dict[tuple[str, ...], Comparison] = {("tro", "len"): ">=", ("tro", "xuong"): "<=", ("or", "more"): ">=",
                                                  ("or", "over"): ">=", ("or", "above"): ">=", ("and", "up"): ">=",
                                                  ("and", "over"): ">=", ("or", "fewer"): "<=", ("or", "less"): "<=",
                                                  ("or", "under"): "<="}  # "6 or more people"
# people said right after a figure ("từ 6 khách trở lên", "6 or more guests"): the condition's unit, never a figure
# or a split of their own
_PEOPLE_AFTER_A_FIGURE = frozenset(["people", "person", "guest", "pax", "cover", "nguoi", "khach"])
# the words that name a party ("parties of 6 or more", "groups of 8"), and those said right before a figure that is
# a party's size ("bàn ngồi được 6", "parties of 6")
_PARTY_NOUNS = ("party", "parties", "group", "groups")
_PARTY_WORDS = frozenset(["group", "large", "big", "nhom", "doan", "dong"])  # said of a party with a size
_SIZED_BEFORE = (["ngoi", "duoc"], *([noun, "of"] for noun in _PARTY_NOUNS))
_MULTIPLIERS = {"k": 1e3, "nghin": 1e3, "ngan": 1e3, "thousand": 1e3, "trieu": 1e6, "tr": 1e6, "m": 1e6, "million": 1e6,
                "ty": 1e9, "billion": 1e9}
_SAME_KIND_OF_COUNT = {("count", "portions"), ("count", "people"), ("portions", "count"), ("people", "count"),
                       ("portions", "qty")}  # "từ 2 lần trở lên" of orders, "100 phần" of a count of portions
_THOUSANDS = re.compile(r"^(\d+)(k|tr|m)$")  # "500k", "2tr", "150m"


# each phrase's words as read and the marks each may be typed with (bare, or its own)
_THRESHOLD_SPELLINGS = tuple((normalize(" ".join(words)).split(), [accents_of(w)[0] for w in words], op)
                             for words, op in _THRESHOLD_WORDS.items())


def _threshold_before(marks: _Marks, i: int) -> tuple[int, Comparison] | None:
    """The comparison said right before word ``i`` ("fewer than", "dưới"): how many words, and its operator."""
    for words, accents, op in _THRESHOLD_SPELLINGS:
        n = len(words)
        if n <= i and marks.free(i - n, i) and marks.words[i - n:i] == words and \
                all(a in ("", own) for a, own in zip(marks.accents[i - n:i], accents, strict=True)):
            return n, op
    return None


def _unit_at(marks: _Marks, i: int) -> tuple[str | None, int]:
    """The unit the word (or two) at ``i`` says ("portions", "phần trăm"), and how many words say it."""
    for n in (2, 1):
        phrase = marks.words[i:i + n]
        if len(phrase) == n and " ".join(phrase) in UNITS:
            return UNITS[" ".join(phrase)], n
    return None, 0


@dataclass(frozen=True)
class _Condition:
    """A condition on a figure as the question says it: "fewer than 100 portions" is ("<", 100, "portions", and
    where the word after the figure is)."""

    op: Comparison
    figure: float
    unit: str | None  # the unit said after the figure (portions, vnd, percent ...), if any
    after: int  # the word after the figure: a metric named there is the one it is said of


def _mark_thresholds(marks: _Marks) -> list[_Condition]:
    """Mark each "fewer than 100 (portions)", "dưới 50k", "từ 2 lần trở lên" and say it as (operator, figure, the
    unit said after it): a number, times a thousand or a million ("500k", "2 triệu"). "Từ 5 ..." is one only with
    "trở lên" after it (else it is "from")."""
    found = []
    for i, word in enumerate(marks.words):
        short = _THOUSANDS.match(word)
        number = float(short.group(1)) * _MULTIPLIERS[short.group(2)] if short else \
            _number(marks, i) or _number_of_money(marks, i)
        if number is None or not marks.free(i, i + 1):
            continue
        end, money = i + 1, bool(short)
        if end < len(marks.words) and marks.words[end] in _MULTIPLIERS and marks.free(end, end + 1):
            number, end, money = number * _MULTIPLIERS[marks.words[end]], end + 1, True
        unit, n = _unit_at(marks, end)
        people = end < len(marks.words) and marks.words[end] in _PEOPLE_AFTER_A_FIGURE
        unit, n = ("people", 1) if people else (unit, n)
        days = unit is None and marks.words[end:end + 1] == ["ngay"] and marks.free(end, end + 1)
        unit = "days" if days else unit  # "còn đủ dùng dưới 3 ngày": days of stock, never a period
        times = unit is None and marks.words[end:end + 1] == ["time"] and marks.free(end, end + 1)
        unit = "count" if times else unit  # "visited more than 5 times": how many times, as "hơn 5 lần"
        up = _UP_OR_DOWN.get(tuple(marks.words[end + n:end + n + 2]))
        people_after = up is not None and not n and end + 2 < len(marks.words) and \
            marks.words[end + 2] in _PEOPLE_AFTER_A_FIGURE  # "6 or more people"
        unit = "people" if people_after else unit
        seat = marks.words[max(0, i - 1):i] in (["seat"], ["seats"]) or marks.words[max(0, i - 2):i] in _SIZED_BEFORE
        unit = "people" if unit is None and seat else unit  # "tables that seat 4 or more", "parties of 6": people
        unit = "people" if unit is None and {"group", "large", "big", "party"} & set(marks.words) else unit  # "group
        # bookings of 6 or more", "big groups (6+)"
        before = _threshold_before(marks, i)
        if before is not None and marks.words[i - before[0]:i] == ["tu"] and up is None and not (
                people and marks.words[end + 1:end + 2] not in (["den"], ["toi"])):
            before = None  # "từ 5 giờ": from (but "nhóm từ 6 người": six or more)
        op = up or (before[1] if before is not None else None)
        only = op is None and unit == "people" and marks.words[i - 1:i] in (["chi"], ["only"]) and marks.free(i - 1, i)
        if op is None and unit == "people" and (marks.words[i - 1:i] in (["with"], ["had"]) or only or any(
                marks.words[max(0, i - 2):i] == [noun, "of"] for noun in _PARTY_NOUNS)):
            op = "="  # "orders with 4 guests", "parties of 6", "chỉ 1 khách": that many, never a top 6
        if op is None:
            continue
        condition = _Condition(op, number, "vnd" if money else unit, end)
        start = i - (before[0] if before else 0) - only
        marks.mark(start, end + (1 if people or days or times else n if unit == "minutes" else 0), "threshold",
                   condition)  #
        # ("phiếu chờ quá 15 phút": the minutes are the condition's, never what is asked)
        if up is not None:
            marks.mark(end + n, end + n + 2 + (1 if people_after else 0), "threshold")
        if condition.unit == "people":
            if marks.words[start - 1:start] == ["di"] and marks.free(start - 1, start):  # "khách đặt bàn đi từ 6
                marks.mark(start - 1, start, "filler")  # người": who come as a party of that size
            _party_named_before(marks, start)
            for j, said in enumerate(marks.words):  # "group bookings of 6 or more", "booking nhóm đông từ 6 người":
                if said in _PARTY_WORDS and marks.free(j, j + 1):  # the party its size is of ("nhóm khách nào từ 6
                    guests = marks.words[j + 1:j + 2] == ["khach"] and marks.free(j + 1, j + 2)  # người": the party,
                    marks.mark(j, j + 1 + guests, "filler")  # never the customers)
        found.append(condition)
    return found


def _guests_compared(marks: _Marks) -> list[str]:
    """"Khách ca trưa tháng 10 so với tháng 9 tăng hay giảm": the guests, said bare as what is compared (never
    split: no "nào", no "từng"), are how many came."""
    bare = [a for a, b, k, p in marks.mentions if k == "concept" and p == "customer" and marks.words[a:b] in (
        ["khach"], ["guest"]) and marks.before(a) not in ("tung", "moi", "cac", "each", "which", "per")
            and marks.words[b:b + 1] != ["nao"]]
    return ["guests"] if bare and len(bare) == sum(k == "concept" for _, _, k, _ in marks.mentions) else []


def _rows_listed(marks: _Marks) -> bool:
    """"List bills over 5 million", "which bills", "đơn nào trên 2tr5": the rows themselves are asked, one by one
    (but "có hóa đơn nào trên 5 triệu không": whether there are any, a count answers)."""
    if marks.says(("list",), ("liet", "ke"), ("which",), ("show",), ("what", "bill"), ("what", "order")):
        return True
    return any(word == "nao" and not ("co" in marks.words[:i] and {"khong", "chua"} & set(marks.words[i:]))
               for i, word in enumerate(marks.words))


def _size_of_a_party(marks: _Marks) -> bool:
    """"Tables of 6 or more", "parties of 8+": a figure of people said as the size of each party."""
    return any(k == "threshold" and marks.before(a - 1 if a else 0) in ("table", *_PARTY_NOUNS) and marks.before(a) == "of"
               for a, _, k, _ in marks.mentions)


def _party_named_before(marks: _Marks, start: int) -> None:
    """"Booking đoàn từ 8 người trở lên", "groups of 8 or more": the group said right before its size is the
    party itself (each row the size is of), not a word of its own."""
    at = start - 1 if marks.words[start - 1:start] == ["of"] else start
    counted = ("party", "parties") if at < start else ()  # "how many parties of 6": the parties, counted
    table = marks.words[at - 1:at] in (["ban"], ["table"]) and marks.words[max(0, at - 2):at - 1] != ["dat"]  # "các bàn 6 người
    # trở lên": the parties at them (never "đặt bàn", a booking)
    if at > 0 and (marks.words[at - 1] in ("doan", *_PARTY_NOUNS) or table) and marks.words[at - 1] not in counted and \
            marks.free(at - 1, at):  # "average bill for parties over 4 people": those bills
        marks.mark(at - 1, at, "filler")


def _mark_lexicon(marks: _Marks, by_first_word: dict[str, list[tuple[int, Entry]]],
                  not_concepts: frozenset[str] = frozenset()) -> None:
    """Mark the lexicon's phrases in its order (longest and most specific first), looking only at the
    phrases that start with a word of the question (the lexicon holds every dish and staff name); the
    phrases of the ``not_concepts`` are read as something else (a value)."""
    candidates = sorted({item for word in set(marks.words) for item in by_first_word.get(word, ())},
                        key=lambda item: item[0])
    _mark_second_splits(marks, candidates, not_concepts)
    for _, entry in candidates:
        if entry.kind == "concept" and entry.payload in not_concepts:
            continue
        for start in marks.find(entry.tokens):
            if entry.spelled_as(marks.accents[start:start + len(entry.tokens)], bare_is_bare=marks.marked) and \
                    not (_asks_which_dish_after(marks, entry.tokens, start) and not _names_a_kind_of_dish(entry)) \
                    and not _splits_a_compound(marks, entry.tokens, start):
                marks.mark(start, start + len(entry.tokens), entry.kind, entry.payload)
    if _values_across_soft_words(marks, candidates):
        _mark_lexicon(marks, by_first_word, not_concepts)  # the words a value freed ("bao nhiêu" of "bao nhiêu tiền")


def _mark_second_splits(marks: _Marks, candidates: Sequence[tuple[int, Entry]], not_concepts: frozenset[str]) -> None:
    """"Covers by day and shift", "doanh thu theo ngày và ca": a thing to split by after "and" that follows a split
    ("by day") is a second split, never a metric of the same words ("shifts worked"); the "and" marks it."""
    for _, entry in candidates:
        if entry.kind not in ("concept", "grain") or entry.payload in not_concepts:
            continue
        for start in marks.find(entry.tokens):
            end = start + len(entry.tokens)
            if start >= 3 and marks.words[start - 1] in ("and", "va") and marks.free(start - 1, start) and \
                    any(w in ("by", "theo") for w in marks.words[max(0, start - 4):start - 2]) and \
                    not any(w in ("and", "va") for w in marks.words[max(0, start - 4):start - 1]) and \
                    entry.spelled_as(marks.accents[start:end], bare_is_bare=marks.marked):
                marks.mark(start - 1, start, "group")
                marks.mark(start, end, entry.kind, entry.payload)


def _priced_ranking(marks: _Marks) -> str | None:
    """The superlative that ranks by the price ("the cheapest", "đắt nhất"), if one is said."""
    return next((" ".join(marks.words[a:b]) for a, b, k, _ in marks.mentions if k == "superlative"
                 and SUPERLATIVE_METRICS.get(" ".join(marks.words[a:b])) == "menu_price"), None)


def _days_that_cannot_meet(filters: Sequence[ValueFilter]) -> bool:
    """A weekday kept ("Sundays") beside weekdays or weekends kept that it is not one of ("weekday lunches")."""
    days = next((set(f.values) for f in filters if f.dimension.endswith("__weekday")), None)
    weekend = next((set(f.values) for f in filters if f.dimension.endswith("__weekend")), None)
    if days is None or weekend is None or len(weekend) != 1:
        return False
    return any((day in ("6", "7")) != (weekend == {"true"}) for day in days)


def _sorted_only(marks: _Marks) -> bool:
    """"Best first", "giảm dần", "sorted by": every row, in order (never the top one)."""
    return any(k == "superlative" and " ".join(marks.words[a:b]) in SORT_WORDS for a, b, k, _ in marks.mentions)


def _peak_said(marks: _Marks) -> bool:
    """"Peak", "giờ cao điểm": the busiest hour ranked (but said with its hours, the name of the window)."""
    return any(k == "superlative" and " ".join(marks.words[a:b]) in PEAK_WORDS for a, b, k, _ in marks.mentions)


def _ranks_the_tickets(marks: _Marks) -> bool:
    """"The slowest tickets": a superlative said right before the tickets ranks the tickets themselves (but "the
    slowest day for tickets" ranks the days)."""
    return any(k == "superlative" and any(a2 == b and k2 == "metric" and p2 == "tickets"
                                          for a2, _, k2, p2 in marks.mentions) for _, b, k, _ in marks.mentions)


def _asks_which_dish_after(marks: _Marks, tokens: tuple[str, ...], start: int) -> bool:
    """"tối nay hủy món nào": a phrase ending in "món" right before "nào" leaves it to ask which dish ("hủy" is
    still the voiding)."""
    end = start + len(tokens)
    return len(tokens) > 1 and tokens[-1] == "mon" and marks.words[end:end + 1] == ["nao"]


# One word in two syllables, the second as spelled with its marks: "khách hàng" (customers), never "khách" then
# "hàng" (but "khách hạng vàng": the gold-tier guests; typed bare, either).
_COMPOUNDS = (("khach", "hang", accents_of("hàng")[0]),)


def _splits_a_compound(marks: _Marks, tokens: tuple[str, ...], start: int) -> bool:
    """"Doanh thu mỗi khách hàng": a phrase ending inside a compound ("doanh thu mỗi khách": the spend per guest)
    leaves it to the compound (each customer)."""
    end = start + len(tokens)
    return len(tokens) > 1 and any(tokens[-1] == first and marks.words[end:end + 1] == [second]
                                   and marks.accents[end] == spelled for first, second, spelled in _COMPOUNDS)


def _names_a_kind_of_dish(entry: Entry) -> bool:
    """"Nhóm món", "loại món": a concept of its own (the category) that ends in "món", so "nhóm món nào" asks which
    category, never which dish."""
    return entry.kind == "concept" and entry.payload != "dish"


def _values_across_soft_words(marks: _Marks, candidates: Sequence[tuple[int, Entry]]) -> bool:
    """A value whose words a longer filler or unit phrase took in part, the rest left to words that mean nothing here:
    "thu được bao nhiêu tiền mặt" names cash, not "bao nhiêu tiền" then "mất". The value takes its words back (True
    when one did)."""
    moved = False
    for _, entry in candidates:
        if entry.kind != "value" or len(entry.tokens) < 2:
            continue
        n = len(entry.tokens)
        for start in range(len(marks.words) - n + 1):
            if tuple(marks.words[start:start + n]) != entry.tokens or \
                    not entry.spelled_as(marks.accents[start:start + n], bare_is_bare=marks.marked):
                continue
            soft = [m for m in marks.mentions if m[0] < start + n and start < m[1]]
            across = [m for m in soft if m[0] < start or start + n < m[1]]  # the phrases across the value's edge
            if not across or any(m[2] not in ("filler", "unit") for m in across) or \
                    any(m[2] not in ("filler", "unit") and (m[2], m[3]) != ("verb", None) for m in soft):
                continue
            for m in soft:
                marks.forget(m[0], m[1])
            marks.mark(start, start + n, entry.kind, entry.payload)
            moved = True
    return moved


def _index_by_first_word(lexicon: Sequence[Entry]) -> dict[str, list[tuple[int, Entry]]]:
    index: dict[str, list[tuple[int, Entry]]] = {}
    for order, entry in enumerate(lexicon):
        if entry.tokens:
            index.setdefault(entry.tokens[0], []).append((order, entry))
    return index


class QuestionParser:
    """Parses questions against one semantic model; the lexicon is built once (values included)."""

    def __init__(self, catalog: SemanticCatalog, lexicon: Sequence[Entry], group_bys_of: GroupBysOf) -> None:
        self.catalog = catalog
        self.lexicon = lexicon
        self.group_bys_of = group_bys_of
        verbs = {e.tokens for e in lexicon if e.kind == "verb"}
        names = {d.concept for d in catalog.dimensions if d.names_rows}  # "Đỗ Thu Hà" is a customer, never a verb
        self._soft: dict[tuple[str, ...], list[Entry]] = {}  # what words may be as typed, each with its spellings
        for e in lexicon:
            if e.kind in ("verb", "filler", "conjunction") or (
                    e.kind == "value"  # "đã phục vụ": done, and a verb ("đang phục vụ" is a live state)
                    and tuple(w for w in e.tokens if w not in _DONE) in verbs
                    and not any(m.concept in names for m in e.payload)):
                self._soft.setdefault(e.tokens, []).append(e)
        self._units = {e.tokens for e in lexicon if e.kind == "unit"}  # "chai": bottles counted, or a stock unit
        self._concept_entries = {e.tokens: e for e in lexicon if e.kind == "concept"}
        self._numbers_in_names = frozenset(  # "cà phê muối": salt, never ten; "Set gia đình 2-3 người": a name
            (e.tokens[i - 1], e.tokens[i]) for e in lexicon for i in range(1, len(e.tokens))
            if (i == len(e.tokens) - 1 and e.tokens[i] in VI_NUMBER_WORDS) or (e.kind == "value" and e.tokens[i].isdigit()))
        self._concepts = {tokens: str(e.payload) for tokens, e in self._concept_entries.items()}
        self._metric_words = {e.tokens: str(e.payload) for e in lexicon if e.kind == "metric"}
        self._verbs = {e.tokens: e.payload for e in lexicon if e.kind == "verb"}
        self._by_first_word = _index_by_first_word(lexicon)
        # concepts whose phrases also name a value of a broader one: "each server", where servers cannot split, is
        # each staff member whose role is server
        self._standing_in = {d.concept for d in catalog.dimensions if d.stands_for}
        people = {d.concept for d in catalog.dimensions if d.given_names}
        given_names = {e.tokens[0] for e in lexicon if e.kind == "value" and len(e.tokens) == 1
                       and all(v.concept in people for v in e.payload)}
        # a typo is never a person's given name ("chua" is not "Châu")
        self._vocabulary = {w for e in lexicon for w in e.tokens} - given_names | set(_TIME_WORDS)
        values = {e.tokens: e.payload for e in lexicon if e.kind == "value"}
        self._values_only_in_lists = {word: values[tokens] for word, tokens in _VALUES_ONLY_IN_LISTS.items()
                                      if tokens in values}
        # each figure's own average per bill ("tiền boa trung bình mỗi bill": the average tip per bill)
        self._per_bill = {info.inputs[0]: name for name, info in catalog.metrics.items()
                          if len(info.inputs) == 2 and info.inputs[1] in _BILLS and info.inputs[0] != "revenue"}
        # a role that is also a verb ("bếp làm": the kitchen made; "phục vụ": served), said before a figure of the
        # staff's work: the staff of that role
        self._roles = {tokens: roles for tokens, meanings in values.items()
                       if (roles := tuple(m for m in meanings if m.concept == "role"))}
        self._of_work = frozenset(name for name, info in catalog.metrics.items() if "staff_shifts" in info.models)
        self._shift_of_period = {words_of(period): values[words_of(shift)] for period, (_, shift) in SHIFT_OF_DAY.items()
                                 if words_of(shift) in values}  # "tối nay": today, and its dinner shift

    def parse(self, question: str, *, language: str, now: dt.datetime) -> Parsed:
        parsed = self._parse(question, language=language, now=now)
        cannot = parsed.problem.removeprefix(_CANNOT_SPLIT) if parsed.problem.startswith(_CANNOT_SPLIT) else None
        if cannot in self._standing_in:  # "how many hours did each server work": the staff whose role is server
            second = self._parse(question, language=language, now=now, not_concepts=frozenset({cannot}))
            return second if second.ok else parsed
        if parsed.problem != "some words were not recognised":
            return parsed
        fixed = _mended_typos(question, parsed.unknown, self._vocabulary, language)
        second = self._parse(fixed, language=language, now=now) if fixed != question else parsed  # "waht's the
        if second.ok:  # best seller": what's
            return second
        return self._after_its_context(question, language=language, now=now) or parsed

    def _after_its_context(self, question: str, *, language: str, now: dt.datetime) -> Parsed | None:
        """"Cảm ơn em nhiều nha. Ca trưa hôm nay có mấy đơn bị hủy?", "Hi Aria, hope you're well! How many covers
        did we do last night?": the sentences before the question, when none names anything the data holds (no
        figure, value, period or split), are only its setting; the rest is the question, and the setting is shown
        as set aside. Never when a setting names data: "Khách bàn 12 tối qua than đợi lâu. Từng món của bàn 12 ..."
        may narrow what follows."""
        sentences = [s for s in _SENTENCE_END.split(question.strip()) if s.strip()]
        for count in range(1, len(sentences)):
            setting = sentences[count - 1]
            if any(r.kind not in _NOT_DATA for r in self._parse(setting, language=language, now=now).recognised):
                return None
            asked = self._parse(" ".join(sentences[count:]), language=language, now=now)
            if asked.ok:
                aside = [Recognised("setting", " ".join(words_of(s)), "set aside") for s in sentences[:count]]
                return Parsed(asked.query, [*aside, *asked.recognised])
        return None

    def _parse(self, question: str, *, language: str, now: dt.datetime,
               not_concepts: frozenset[str] = frozenset()) -> Parsed:
        possessive_free = percent_spelled(_CONTRACTION.sub(" ", _SOFT_CONTRACTION.sub("", _POSSESSIVE.sub(
            " ", money_spelled(shorthand_spelled(question))))))
        odd = sorted(set(_NOT_PROSE.findall(possessive_free)))
        if odd:  # normalizing would silently drop them: "Cà phê muối' OR '1'='1" is not a question about coffee
            return Parsed(None, unknown=odd, problem="the question has characters that are not words")
        text = normalize(possessive_free)
        if _PLACE_IN_A_RANKING.search(text):  # "bàn số 5 xếp hạng thứ mấy": a place, never a weekday
            return Parsed(None, problem="the place of one row in a ranking is asked: ask for the ranking itself")
        if PART_OF_A_MONTH.search(text):  # "late October": never the late kitchen tickets of October
            return Parsed(None, problem="a part of a month is said (early, mid, late): say its dates")
        if _UP_TO_A_WEEKDAY.search(text):  # "this month through Friday": never the Fridays, nor Friday alone
            return Parsed(None, problem="a period up to a weekday is said: say its first day too (from Monday "
                                        "to Friday)")
        if _LATE_NIGHT.search(text):  # "late-night delivery orders": never the late kitchen tickets at night
            return Parsed(None, problem="'late night' is said: say its hours (after 9pm)")
        marks = _Marks(list(words_of(text)), text.split(), accents_of(possessive_free))
        marks.commas = _after_commas(possessive_free, len(marks.words))
        _bare_words_of_waiting(marks)
        if not marks.words:
            return Parsed(None, problem="empty question")
        hours = _mark_hour_window(marks, text)
        ranges = _mark_periods(marks, text, now)
        if hours and not ranges and any(p.search(text) for p in _SINCE_AN_HOUR):  # "how many orders since 6pm": today's
            ranges = [TimeRange(start=now.date(), end=now.date(), unit="day", phrase="today")]
        _from_before_a_period(marks)
        hours = _mornings(marks, hours)
        tables = _mark_table_numbers(marks, text) + hours
        thresholds = _mark_thresholds(marks)
        limit = _mark_top_n(marks, self._numbers_in_names)
        if {"top", "bottom"} <= set(marks.words):  # "top 3 and bottom 3 drinks": two rankings, one answer each
            return Parsed(None, problem="the top and the bottom are both asked: two rankings, asked one at a time")
        _mark_lexicon(marks, self._by_first_word, not_concepts)
        if _each_one_of_a_role(marks):
            _mark_lexicon(marks, self._by_first_word, not_concepts)  # the words "người làm" left free
        _each_person_before_their_work(marks)
        self._a_role_at_work(marks)
        _who_manages(marks)
        self._relative_who(marks)
        self._an_average_per_bill_of_a_figure(marks)
        _anyone_asked(marks)
        if hours and _a_window_beside_a_shift(marks):  # "drinks per guest after 9pm vs at lunch"
            return Parsed(None, problem="a window of hours and a shift are set side by side: each would be a figure "
                                        "of its own (one is asked at a time)")
        if ranges and any(k == "filler" and " ".join(marks.words[a:b]) in ALL_TIME_PHRASES for a, b, k, _ in marks.mentions):
            return Parsed(None, problem="all the data ('since we started') and a period are both said: which is meant "
                                        "is unclear")  # "since we started tracking in September"
        for start, end, kind, _ in list(marks.mentions):  # "tối nay": today, and its dinner shift
            said = " ".join(marks.words[start:end])  # ("ca này", "this shift": the one in progress, by the clock)
            period = words_of(shift_in_progress(now) if said in THIS_SHIFT else said)
            shift = self._shift_of_period.get(period) if kind == "time" else None
            if shift is not None:
                marks.mentions.append((start, end, "value", shift))
        self._mark_values_said_in_lists(marks)
        self._bottles_of_a_dish(marks)
        _mark_grain_words(marks)
        _concept_by_itself(marks)
        _rise_of_a_metric(marks)
        _fall_in_a_comparison(marks)
        before_each = _change_on_the_one_before(marks)
        _group_of_the_listed(marks)
        _over_a_period(marks)
        _break_down_around(marks)
        _came_how_many_times(marks)
        _closing_question_word(marks)
        _what_right_after_a_metric(marks, self._metric_words)
        if language == "en" and "thẻ" not in unicodedata.normalize("NFC", question).lower():
            _articles_are_not_cards(marks)
        _mark_split_superlative(marks)
        _rank_beside_an_order(marks)
        self._mark_live_count_ranked(marks)
        self._mark_how_many_below(marks)
        _leading_now(marks)
        _leading_number(marks)
        _each_cup_is_one_cup(marks)
        _quantity_of_a_dish(marks)
        _only_beside_a_value(marks)
        _between_two_values(marks)
        self._concept_before_which(marks)
        _absorb_which_and_markers(marks)
        self._leaving_out_what_is_left_out(marks)
        _shifts_counted_of_a_kind(marks)
        _mark_exclusions(marks)
        _mark_comparatives(marks)
        self._mark_rates(marks)
        self._mark_ratio_of_two(marks)
        self._mark_which_rows(marks)
        self._mark_metric_around_which(marks)
        _split_subject_and_verb(marks, self._concept_entries, self._verbs)
        _verb_after_a_person(marks, self._verbs)
        _relative_ma(marks, self._metric_words)
        _who_voided(marks)
        not_held = _not_held(marks)
        if not_held:
            return Parsed(None, _recognised(marks), [not_held], f"no metric here counts '{not_held}'")
        _honorific_before_a_name(marks)
        _people_of_a_role_at_work(marks)
        _sell_after_dish(marks)
        marks.mentions.sort(key=lambda m: m[0])  # in the question's order: metrics, splits, superlatives
        recognised = _recognised(marks)
        unknown = marks.leftovers()
        if unknown:
            return Parsed(None, recognised, unknown, "some words were not recognised")
        noun = _verb_after_and(marks)
        if noun:
            return Parsed(None, recognised, [], f"the question also asks for '{noun}', which is not a metric here")
        measure_split = _split_by_a_measure(marks)
        if measure_split:
            return Parsed(None, recognised, [], f"'{measure_split}' is a measure, not something to split by")
        priced = _priced_ranking(marks)
        if priced and any(k == "metric" and p != "menu_price" for _, _, k, p in marks.mentions):  # "the most
            # expensive dish and how many did we sell": ranked by its price, then another figure of it
            return Parsed(None, recognised, [], f"'{priced}' ranks by the price, and the question asks another figure "
                                                "of the one found")
        if priced and ranges:  # "the most expensive drink anyone ordered this weekend": of those sold then
            return Parsed(None, recognised, [], f"'{priced}' ranks the menu's prices, which have no period: the "
                                                "dishes sold in a period are a figure of their own")
        part = self._a_total_then_a_part(marks)
        if part:  # "orders today, how many were delivery": the total and that part, never only the part
            return Parsed(None, recognised, [], f"a total and a part of it ('{part}') are asked: two figures")
        divided = self._per_of_another_figure(marks)
        if divided:  # "covers per labour hour": the guests divided, never the revenue per labour hour beside them
            return Parsed(None, recognised, [], f"'{divided}' divides a figure that is not the one named before it")
        states = _from_one_value_to_another(marks)
        if states:  # "minutes from ready to served": the time between two states, never those tickets
            return Parsed(None, recognised, [], f"'{states}' goes from one value to another of the same kind, which "
                                                "no metric here measures")
        bare_verb = _asked_of_a_bare_verb(marks)
        if bare_verb:  # "bao nhiêu lượt đặt bàn bị hủy và bao nhiêu lượt đến ăn": the second asks of no figure
            return Parsed(None, recognised, [], f"a second question asks how many '{bare_verb}', which is no metric here")
        if _a_figure_of_those_counted(marks):  # "members who joined last month: how much have they spent": the
            return Parsed(None, recognised, [], "a figure of the customers who joined is asked (what they did "
                                                "after), which no metric here measures")  # cohort, never everyone's
        unlike = _compared_values_of_two_kinds(marks)
        if unlike:  # "members vs walk-ins" where "walk-ins" names only the guests who came without a booking
            return Parsed(None, recognised, [], f"'{unlike}' sets two values side by side that are not of one kind")
        if len(ranges) == 2 and ranges[0] == ranges[1].model_copy(update={"phrase": ranges[0].phrase}) and \
                ranges[0].phrase != ranges[1].phrase and _set_side_by_side(marks) and not all(
                    re.search(r"\d", r.phrase) for r in ranges):  # "yesterday vs last Saturday" (but "giao hàng ngày
            # 2/9 so với 2/9 ăn tại chỗ": one day said twice, its two values side by side)
            if ranges[1].start != ranges[1].end:  # on a Sunday: the Saturday before yesterday
                return Parsed(None, recognised, [], "the two periods compared are the same")
            week = dt.timedelta(days=7)
            ranges[1] = ranges[1].model_copy(update={"start": ranges[1].start - week, "end": ranges[1].end - week})
        ranges = list({(r.start, r.end, r.start_at, r.end_before): r for r in ranges}.values())  # "Saturday 14 Nov"
        ranges = [r for r in ranges if r not in before_each]
        if len(ranges) > 2:
            return Parsed(None, recognised, [], "more than two time periods")
        if self._asks_who_came_back(marks, ranges, language):
            return self._came_back(marks, language, ranges, tables, recognised, now)
        if not ranges and _said(marks, "came_back") and not self._said_again(marks):  # "hạng bạc có bao nhiêu người
            return Parsed(None, recognised, [], "who came back needs the period they came in")  # quay lại": never all
        if len(ranges) == 2 and _compared_with_first(marks):  # "so với Chủ nhật tuần trước thì hôm nay ...":
            ranges.reverse()  # today, compared with last Sunday
        ranges = _current_beside_the_same_point_before(marks, ranges, now)
        try:
            compare = _second_period(marks, ranges, now)
        except _Unanswerable as err:
            return Parsed(None, recognised, [], str(err))
        if compare is not None and ranges and _says_so_far(marks) and ranges[0].end == now.date() and \
                compare.end_before is None and compare.end < now.date() and not _said_whole(marks, compare):
            # "hôm nay tới giờ này": both cut alike ("so với cả tuần trước": all of it)
            elapsed = now - dt.datetime.combine(ranges[0].start, dt.time(), tzinfo=now.tzinfo)
            cut = dt.datetime.combine(compare.start, dt.time(), tzinfo=now.tzinfo) + elapsed
            compare = compare.model_copy(update={"end_before": cut}) if cut.date() <= compare.end else compare
        return self._build(marks, language, ranges[0] if ranges else None, tables, limit, recognised, compare, now,
                           thresholds)

    def _mark_values_said_in_lists(self, marks: _Marks) -> None:
        """A word that names a value only among other values of its kind: "hạng thẻ (thường, bạc, vàng)" lists the
        regular tier, and "khách thường đặt bàn" is "usually"."""
        for i, word in enumerate(marks.words):
            payload = self._values_only_in_lists.get(word)
            if payload is None or _kind(marks.marks[i]) != "filler":
                continue
            kinds = {m.dimension for m in cast(tuple[ValueMeaning, ...], payload)}
            beside = [marks.marks[j] for j in (i - 1, i + 1) if 0 <= j < len(marks.words)]
            if any(m is not None and m.kind == "value" and {v.dimension for v in cast(tuple[ValueMeaning, ...], m.payload)}
                   & kinds for m in beside):
                marks.forget(i, i + 1)
                marks.mark(i, i + 1, "value", payload)

    def _ranked_by_the_metrics_noun(self, marks: _Marks, available: list[str], language: str) -> list[str]:
        """"top 5 món bị hủy nhiều nhất", "top 5 voided items": a ranking with nothing else to rank ranks the noun
        the metric's own words open with in Vietnamese, or end with in English (the dishes voided), when the metric
        can be split by it."""
        for start, end, kind, _ in marks.mentions:
            if kind != "metric":
                continue
            for size in range(end - start - 1, 0, -1):
                at = start if language == "vi" else end - size
                if language != "vi" and not marks.raw[end - 1].endswith("s"):
                    continue  # "the longest anyone's been waiting on a dish": one wait, never a ranking of the dishes
                concept = self._concept_said(marks, at, size)
                if concept is not None and marks.words[at:at + size] not in (["khach"], ["guest"], ["guests"]):  # "khách
                    # phải chờ món lâu nhất": the guests as a whole, never a ranking of the members
                    try:
                        return [self._pick(concept, available, language)]
                    except _Unanswerable:
                        return []
        return []

    def _concept_said(self, marks: _Marks, at: int, size: int) -> str | None:
        """The concept the ``size`` words at ``at`` name, as the question spells them ("món" of "món bị hủy")."""
        entry = self._concept_entries.get(tuple(marks.words[at:at + size]))
        if entry is None or not entry.spelled_as(marks.accents[at:at + size], bare_is_bare=marks.marked):
            return None
        return str(entry.payload)

    def _times_counted(self, metric: str) -> str | None:
        """The count of the events a quantity or an amount adds up (waste: its write-offs), found among its
        companions and theirs; None when it is a count already or has none."""
        if self.catalog.metrics[metric].unit == "count":
            return None
        def beside(name: str) -> tuple[str, ...]:
            info = self.catalog.metrics[name]
            return (*info.companions, *info.companions_without_item)

        near = list(beside(metric))
        near += [c for m in near for c in beside(m)]
        return next((m for m in near if m != metric and self.catalog.metrics[m].unit == "count"), None)

    def _bottles_of_a_dish(self, marks: _Marks) -> None:
        """"Heineken tuần này bao nhiêu chai", with no metric named: bottles of a dish are the portions sold; a unit
        of stock ("chai", "quả") when an ingredient is named, or a metric (the stock on hand)."""
        named = [{m.concept for m in cast(tuple[ValueMeaning, ...], p)} for _, _, k, p in marks.mentions if k == "value"]
        if not any("dish" in c for c in named) or any("ingredient" in c and "dish" not in c for c in named) or \
                _said(marks, "metric"):
            return  # ("heineken" is a dish and an ingredient: the bottles sold, unless a metric says otherwise)
        for start, end, kind, payload in list(marks.mentions):
            tokens = tuple(marks.words[start:end])
            if kind == "value" and tokens in self._units and UNITS.get(" ".join(tokens)) == "portions" and \
                    {m.concept for m in cast(tuple[ValueMeaning, ...], payload)} == {"uom"}:
                marks.forget(start, end)
                marks.mark(start, end, "unit", "portions")

    def _asks_who_came_back(self, marks: _Marks, ranges: list[TimeRange], language: str) -> bool:
        """"Of the customers who came in October, how many came back in November", "khách đăng ký tháng trước có
        bao nhiêu người quay lại ăn trong tháng này": a return said of customers, with the period they came in.
        With one period, only "haven't been back since" or an English "came back" is one: "tuần trước có bao nhiêu
        khách quen quay lại" asks for last week's returning customers."""
        if not ranges or _set_side_by_side(marks):  # not "khách quay lại tháng 10 và tháng 11"
            return False
        if len(ranges) == 2:
            return _said(marks, "came_back") or _said(marks, "not_back") or bool(self._said_again(marks))
        return _said(marks, "not_back") or (_said(marks, "came_back") and language == "en")

    def _said_again(self, marks: _Marks) -> list[str]:
        """The customer metrics said with "lại" ("khách quay lại"): those who came again, not who they were."""
        return [str(p) for a, b, k, p in marks.mentions if k == "metric" and self.catalog.metrics[str(p)].counts ==
                "customer" and "lai" in marks.words[a:b]]

    def _came_back(self, marks: _Marks, language: str, ranges: list[TimeRange], tables: list[ValueFilter],
                   recognised: list[Recognised], now: dt.datetime) -> Parsed:
        """The customers of the first period (who ordered, or who signed up), and how many of them ordered again in
        the second, or after the first till now when only one is said ("haven't been back since")."""
        said = [str(p) for _, _, k, p in marks.mentions if k == "metric"]
        customers = {m for m, info in self.catalog.metrics.items() if info.counts == "customer"}
        other = [m for m in said if m not in customers and self.catalog.metrics[m].unit != "people"]
        if other:
            return Parsed(None, recognised, [], f"who came back is counted in customers, and {other[0]} is asked too")
        again = self._said_again(marks)
        cohort = next((m for m in said if m in customers and m not in again and not self.catalog.metrics[m].visits),
                      None)  # "who signed up last month"; else who ordered
        visits = next(m for m, info in self.catalog.metrics.items() if info.visits)
        first, *rest = sorted(ranges, key=lambda r: r.start)
        if rest:
            second = rest[0]
        elif first.end < now.date():  # "who came in September haven't been back since": since then, till now
            second = TimeRange(start=first.end + dt.timedelta(days=1), end=now.date(), phrase="since")
        else:
            return Parsed(None, recognised, [], "who came back needs the period they came in, before this one")
        if second.start <= first.end:
            return Parsed(None, recognised, [], "who came back needs a second period after the first")
        if any(k in ("threshold", "superlative", "top") for _, _, k, _ in marks.mentions):
            return Parsed(None, recognised, [], "who came back is a count of customers: a ranking or a condition on "
                                                "it (more than two weeks ago, the longest) is not kept")
        not_back = _said(marks, "not_back")
        for start, end, kind, payload in list(marks.mentions):  # "the members who ...": who they are, not a split
            if kind in ("metric", "came_back", "not_back") or (kind == "concept" and (
                    marks.words[start:end] in (["who"], ["ai"]) or payload in _WHO_CAME)):
                marks.forget(start, end)
                marks.mark(start, end, "filler")
        try:
            _, filters, group_by = self._split(marks, [cohort or visits], language, tables, None)
        except _Unanswerable as err:
            return Parsed(None, recognised, [], str(err))
        query = SemanticQuery(metrics=[cohort or visits], group_by=group_by, filters=filters, time=first,
                              compare=second, language=language,
                              returning="not_back" if not_back else "back")
        return Parsed(query, recognised)

    def _mark_which_rows(self, marks: _Marks) -> None:
        """"Những lượt đặt bàn nào", "which bookings": which of the rows a count counts, a list of rows."""
        counts = {a: b for a, b, k, p in marks.mentions if k == "metric" and self.catalog.metrics[str(p)].unit == "count"}
        for i, word in enumerate(marks.words):
            if marks.marks[i] is None or _kind(marks.marks[i]) == "which":
                after_count = word == "nao" and i in counts.values()
                before_count = word == "which" and i + 1 in counts
                if after_count or before_count:
                    marks.forget(i, i + 1)
                    marks.mark(i, i + 1, "listing")

    def _listed_as(self, marks: _Marks) -> tuple[str, ...]:
        """What a metric named first shows of each of its rows when the question asks which ones (``listed_as``):
        "bàn nào đang có khách" lists the tables, each with its guests and time seated."""
        first = next((str(p) for _, _, k, p in marks.mentions if k == "metric"), None)
        return self.catalog.metrics[first].listed_as if first is not None else ()

    def _which_of_what_it_counts(self, marks: _Marks) -> bool:
        """"Bàn 3 đang đợi món gì": a metric phrase ending in what it counts ("đợi món"), then "gì"/"nào"
        asks which ones, a list of rows."""
        return any(k == "metric" and self.catalog.metrics[str(p)].counts is not None and (
            (b < len(marks.words) and marks.words[b] in ("gi", "nao")
             and self._concepts.get((marks.words[b - 1],)) == self.catalog.metrics[str(p)].counts) or
            (_which_before(marks, a) and any(self._concepts.get((w,)) == self.catalog.metrics[str(p)].counts
                                             for w in marks.words[a:b])))  # "which terrace tables are free"
            for a, b, k, p in marks.mentions)

    def _any_of_what_it_counts(self, marks: _Marks) -> bool:
        """"Any free tables on the terrace?", "còn bàn trống nào không": asked of what a metric of the moment counts,
        "any" (or "nào") asks which ones, a list of rows; so it does of bookings, rows each with its own size and time
        ("any bookings in the VIP rooms tonight?"). Only when nothing splits the metric: "khu nào còn nhiều bàn trống
        nhất" ranks the areas, and "any free tables, how many?" counts them."""
        return bool({"any", "nao"} & set(marks.words)) and not {"many", "nhieu", "may"} & set(marks.words) and any(
            k == "metric" and (self.catalog.metrics[str(p)].counts_now or self._bookings(str(p)))
            for _, _, k, p in marks.mentions)

    def _the_bookings_shown(self, marks: _Marks) -> bool:
        """"Show me the bookings of 6 or more people", "list the bookings for tonight": the bookings themselves,
        each a party at a time (a list), not how many there are."""
        return not {"many", "number", "count", "nhieu", "may"} & set(marks.words) and any(
            k == "metric" and self._bookings(str(p)) and any(tuple(marks.words[max(a - n, 0):a]) in _SHOW_THE
                                                                for n in (2, 3))
            for a, _, k, p in marks.mentions)

    def _bookings(self, metric: str) -> bool:
        """A metric of bookings, each of its rows a party at a time ("any bookings tonight?" lists them)."""
        return bool(self.catalog.metrics[metric].sized_by) and "reservations" in self.catalog.metrics[metric].models

    def _listed_in_the_unit_asked(self, metrics: list[str], units: set[str]) -> list[str]:
        """"Bao nhiêu bàn có khách, tổng cộng mấy người": a unit no metric named is in, asked beside a count of the
        moment, is what that count lists of its rows in it (the guests seated at the tables occupied)."""
        missing = units - {self.catalog.metrics[m].unit for m in metrics} - {"count"}
        return list(dict.fromkeys(c for m in metrics if self.catalog.metrics[m].counts_now
                                  for c in self.catalog.metrics[m].listed_as
                                  if c in self.catalog.metrics and c not in metrics
                                  and self.catalog.metrics[c].unit in missing)) if missing else []

    def _mark_how_many_below(self, marks: _Marks) -> None:
        """"How many ingredients are under their reorder level", "có mấy nguyên liệu đang dưới mức đặt hàng lại",
        "which supplier has the most ingredients below reorder level": how many (or the most) of a concept's rows
        are below their level to keep is the metric that counts those rows."""
        if _said(marks, "below") and not _said(marks, "metric"):
            self._mark_counted_concept(marks, lambda info: info.counts_below, _after_how_many)

    def _mark_live_count_ranked(self, marks: _Marks) -> None:
        """"Which server is looking after the most tables right now", "bạn phục vụ nào đang ôm nhiều bàn nhất", "mỗi
        bạn phục vụ đang giữ mấy bàn": the most (or how many) of what a metric of the moment counts (the tables
        occupied), asked right now, is that metric."""
        if _said(marks, "live") and not _said(marks, "metric"):
            self._mark_counted_concept(marks, lambda info: info.live, lambda m, a: m.words[a - 1:a] == ["may"])

    def _mark_counted_concept(self, marks: _Marks, counted_by: Callable[[MetricInfo], bool],
                              how_many: Callable[[_Marks, int], bool]) -> None:
        """A concept said after "the most" ("the most tables"; never "the most expensive dish", a price) or asked
        ``how_many`` of is the metric ``counted_by`` picks among those that count its rows."""
        for a, b, kind, payload in list(marks.mentions):
            i = _first_before(marks, a, ("filler",))
            most = i >= 0 and _kind(marks.marks[i]) == "superlative" and marks.words[i] in ("most", "nhieu")
            if kind != "concept" or not (most or how_many(marks, a)):
                continue
            metric = next((m for m, info in self.catalog.metrics.items() if counted_by(info) and info.counts == payload),
                          None)
            if metric is not None:
                marks.forget(a, b)
                marks.mark(a, b, "metric", metric)

    def _is_shift_filter(self, value_filter: ValueFilter) -> bool:
        return self.catalog.concept_of(value_filter.dimension) == "shift"

    def _shift_said_as_period(self, marks: _Marks) -> bool:
        """"Tối nay", "last night": a shift said by the period phrase itself (marked over the same words)."""
        times = _period_spans(marks)
        return any(k == "value" and (a, b) in times for a, b, k, _ in marks.mentions)

    def _concept_before_which(self, marks: _Marks) -> None:
        """"Khách hàng nào chi tiêu nhiều nhất", "which customer spent the most", "who's our best customer": words
        that name a metric and a concept alike ("khách hàng", "customer": the customers served), right before
        "nào" or after "which", "top 5" or "best", ask which rows of the concept (never "the most customers": a count).
        So do a value's words right before "nào" ("phục vụ nào": which server, never the role)."""
        for a, b, kind, payload in list(marks.mentions):
            concept = self._concepts.get(tuple(marks.words[a:b]))
            if kind not in ("metric", "value") or concept is None:
                continue
            i = _first_before(marks, a, ("filler",))
            before = marks.words[i] if i >= 0 else ""
            which_after = marks.words[b:b + 1] == ["nao"] and _kind(marks.marks[b]) in (None, "which", "filler")
            if kind == "value" and (not which_after or self._members_concept(payload) is not None  # type: ignore[arg-type]
                                    or any(m.concept == concept for m in payload)):  # type: ignore[attr-defined]
                continue  # "phục vụ nào bán được nhiều nhất": which server, not the role (but "đồ uống nào": which
                # drink; "món combo nào": which combo dish)
            if which_after or before in ("which", "best") or \
                    (i >= 0 and _kind(marks.marks[i]) == "top") or \
                    (i >= 0 and _kind(marks.marks[i]) == "superlative" and before in _WHICH_OF_ROWS):
                marks.forget(a, b)  # "our most frequent customers": which customers
                marks.mark(a, b, "concept", concept)
        for a, b, kind, _ in list(marks.mentions):  # "who visits us most often": the customers, never staff
            if kind != "concept" or marks.words[a:b] not in (["who"], ["ai"]):
                continue
            if (marks.words[b:b + 1] in _VISITS or (marks.words[b:b + 1] in (["are"], ["is"], ["la"]) and any(
                    k == "value" and any(m.semantic_model == "customers" for m in p)  # type: ignore[attr-defined]
                    for _, _, k, p in marks.mentions))) and "customer" in self._concepts.values():
                marks.forget(a, b)  # "who are our gold customers": the members of the tier
                marks.mark(a, b, "concept", "customer")
            elif marks.words[b:b + 1] in _WAITED:  # "who waited the longest for food": a table? a guest? never staff
                marks.forget(a, b)

    def _mark_metric_around_which(self, marks: _Marks) -> None:
        """"Món nào bị hủy nhiều nhất": a concept, "nào", then the rest of a metric phrase ("món bị hủy", the
        voided dishes) is that concept split and that metric; a count of rows said before "nào" is those rows
        ("khách thành viên nào sinh nhật tuần này": which members)."""
        for a, b, kind, payload in list(marks.mentions):
            counted = self.catalog.metrics[str(payload)].counts if kind == "metric" else None
            if (kind != "concept" and counted is None) or b + 1 >= len(marks.words) or marks.words[b] != "nao" or \
                    _kind(marks.marks[b]) not in (None, "which", "filler"):
                continue
            rest = next((m for m in marks.mentions if m[0] == b + 1 and m[2] in ("value", "verb", "filler")), None)
            if rest is None:  # "bàn nào trống": words of no meaning of their own that end the phrase ("bàn trống")
                rest = next(((b + 1, b + 1 + n, "free", None) for n in (1, 2) if marks.free(b + 1, b + 1 + n) and
                             (*marks.words[a:b], *marks.words[b + 1:b + 1 + n]) in self._metric_words), None)
            metric = self._metric_words.get((*marks.words[a:b], *marks.words[b + 1:rest[1]])) if rest else None
            if rest is not None and metric is not None:
                marks.forget(rest[0], rest[1])
                marks.mark(rest[0], rest[1], "metric", metric)
                if counted is not None:
                    marks.forget(a, b)
                    marks.mark(a, b, "concept", counted)

    def _mark_rates(self, marks: _Marks) -> None:
        """"Tỷ lệ khách đặt bàn không tới", "the void rate", "rate of no-shows": a count said as a rate is its
        metric in percent (the no-show rate), when it has one."""
        for i in range(len(marks.words)):
            size = next((len(r) for r in _RATE_WORDS if tuple(marks.words[i:i + len(r)]) == r and marks.free(i, i + len(r))), 0)
            percent_unit = next((m[1] - i for m in marks.mentions if m[:4] == (i, m[1], "unit", "percent")), 0)
            percent = (marks.words[i] == "percent" and marks.free(i, i + 1)) or bool(percent_unit)  # "late ticket %"
            if not size and not percent:
                continue
            size = size or percent_unit or 1
            after = sorted((m for m in marks.mentions if m[0] >= i + size and m[2] != "filler"), key=lambda m: m[0])[:1]
            if percent:  # "bao nhiêu % bill có dùng mã giảm giá": only the count said right after it
                after = [m for m in after if m[0] == i + size and m[2] in ("metric", "value")]
            before = [m for m in marks.mentions if m[1] == i and m[2] == "metric"]
            for mention in (*after, *before):
                metric = str(mention[3]) if mention[2] == "metric" else \
                    self._metric_words.get(tuple(marks.words[mention[0]:mention[1]]))  # "no-show": a status, a metric
                rate = self.catalog.rate_of(metric) if metric else None
                if rate is not None:
                    start, end = min(i, mention[0]), max(i + size, mention[1])
                    marks.forget(start, end)
                    marks.mark(start, end, "metric", rate)
                    break
            else:  # "khách đặt bàn không tới theo từng khu vực, tỷ lệ bao nhiêu": the rate of the count named before
                value = min(((a, b) for a, b, k, _ in marks.mentions if k == "value" and a >= i + size), default=None)
                kinds = {m.concept for a, _, k, p in marks.mentions if value is not None and (a, k) == (value[0], "value")
                         for m in p}  # type: ignore[attr-defined]  # ("thanh toán bằng thẻ": the card's kind)
                if size and not percent and value is not None and marks.words[i:i + size] == ["ti", "le"] and all(
                        _kind(marks.marks[j]) in ("unit", "metric", "verb", "filler") or (
                            marks.marks[j] is None and marks.words[j] in ("bang", "qua"))
                        or marks.marks[j] in [_Mark("concept", c) for c in kinds] for j in range(i + size, value[0])) \
                        and not _marked_after(marks, value[1], ("metric",)):  # "tỷ lệ đơn giao hàng", "tỷ lệ thanh
                    # toán tiền mặt": the value's share (but "tỷ lệ phiếu bar vượt thời gian chuẩn": the late rate)
                    marks.forget(i, i + size)
                    marks.mark(i, i + size, "share", "share of the total")
                    continue
                if after or percent:
                    continue
                counts = [(a, b, str(p) if k == "metric" else self._metric_words[tuple(marks.words[a:b])])
                          for a, b, k, p in marks.mentions if b <= i and (k == "metric" or (
                              k == "value" and tuple(marks.words[a:b]) in self._metric_words))]
                rate = self.catalog.rate_of(counts[-1][2]) if len(counts) == 1 else None
                if rate is not None:
                    start, end = counts[-1][:2]
                    marks.forget(start, end)
                    marks.mark(start, end, "metric", rate)
                    marks.mark(i, i + size, "filler")
                    marks.rates_asked.append(rate)

    def _mark_ratio_of_two(self, marks: _Marks) -> None:
        """"Labour as a % of revenue", "labour cost as a share of revenue" (or "what % of gross sales went on
        discounts", the other way round): the metric in percent of the first over the second (labour cost %), when
        there is one."""
        mentions = sorted((m for m in marks.mentions if m[2] not in ("filler", "unit", "time", "compare", "concept",
                                                                      "value", "grain", "verb")
                           or (m[2] == "unit" and m[3] == "percent")),  # "bằng bao nhiêu % doanh thu"
                          key=lambda m: (m[0], m[1]))  # "giá vốn tuần trước chiếm bao nhiêu % doanh số"
        mentions = [m for i, m in enumerate(mentions) if not (m[2] == "unit" and i and mentions[i - 1][2] == "share")]
        compared = [(a, b) for a, b, k, _ in marks.mentions if k == "compare"]
        for one, two, three in zip(mentions, mentions[1:], mentions[2:], strict=False):
            said = tuple(m[3] if m[2] == "unit" else m[2] for m in (one, two, three))
            between = [(a, b) for a, b in compared if one[1] <= a < max(two[0], three[0])]  # "so với"
            if said == ("metric", "metric", "percent") and between:
                one, two, three = one, three, two  # "chi phí nhân công, so với doanh thu là mấy %"
            elif said in (("share", "metric", "metric"), ("percent", "metric", "metric")):
                one, two, three = three, one, two  # "what % of our gross sales went on discounts"
            elif said not in (("metric", "share", "metric"), ("metric", "percent", "metric")):
                continue
            (a, b, _, first), share, (c, d, _, second) = one, two, three
            over = {str(second), str(self.catalog.metrics[str(second)].finer or second)}  # "doanh số": dish sales
            undated = self.catalog.metrics[str(first)].instead_undated  # "food cost mấy % giá bán": a portion's
            ratio = next((name for said in (str(first), undated) for name, info in self.catalog.metrics.items()
                          if said is not None and info.unit == "percent" and info.inputs[:1] == (said,)
                          and info.inputs[1:2] and info.inputs[1] in over), None)  # cost, over its menu price
            if ratio is not None:
                for start, end, kind in ((a, b, "metric"), (share[0], share[1], "filler"), (c, d, "filler"),
                                         *((x, y, "filler") for x, y in between)):
                    marks.forget(start, end)
                    marks.mark(start, end, kind, ratio if kind == "metric" else None)
                return

    def _build(self, marks: _Marks, language: str, period: TimeRange | None, tables: list[ValueFilter],
               limit: int | None, recognised: list[Recognised], compare: TimeRange | None,
               now: dt.datetime, thresholds: list[_Condition]) -> Parsed:
        listed_said = self._listed_as(marks)  # "which tables are occupied": each, shown by what its metric lists
        if _said(marks, "listing") and not listed_said:
            return Parsed(None, recognised, [], "a list of single rows is not a metric (totals and splits are)")
        if _said(marks, "condition"):
            return Parsed(None, recognised, [], "a condition on a count (at least, more than) is not a metric")
        if self._narrowed_by_another_figure(marks):
            return Parsed(None, recognised, [], "a figure said after 'mà' narrows the rows (those that ...), and no "
                                                "metric keeps only those")
        if any(k == "grain" and marks.before(a) in ("tu", "since") for a, _, k, _ in marks.mentions):
            return Parsed(None, recognised, [], "'since what time' asks when one row started, not a figure by hour")
        if any(k == "time" and marks.words[a] == "thu" and marks.before(a) in ("chay", "nhieu", "cao")
               for a, _, k, _ in marks.mentions):  # "món bán chạy thứ hai tuần trước": the second, or a Monday?
            return Parsed(None, recognised, [], "'thứ hai' after a ranking may be the second in it or a Monday")
        if _one_bill_by_its_size(marks):
            return Parsed(None, recognised, [], "the biggest (or smallest) single one (a bill, a tip) is one row, not "
                                                "a metric")
        if _said(marks, "not_back"):  # "top 10 khách hạng vàng lâu nhất chưa quay lại": not back since when?
            return Parsed(None, recognised, [], "who has not been back needs the period they came in")
        question = f" {' '.join(marks.words)} "
        if two_way := [s for p, s in TWO_WAY_WORDS.items() if f" {p} " in question]:  # however its words were read
            return Parsed(None, recognised, [], f"'{two_way[0]}' is said of soups and of drinks: which is meant is "
                                                "unclear")
        if either := [p for p in _EITHER_WAY_MOVES if f" {p} " in question]:  # "which categories moved the most"
            return Parsed(None, recognised, [], f"'{either[0]}' may be up or down: the rise ('grew the most') or the "
                                                "fall ('dropped the most') ranks")
        if _said(marks, "part_of"):  # "tổng cộng bao nhiêu, trong đó qua thẻ bao nhiêu": the whole and a part
            return Parsed(None, recognised, [], "'of which' asks for a part beside the whole, which one figure "
                                                "does not show")
        if _said(marks, "together"):
            return Parsed(None, recognised, [], "what is ordered together with a dish pairs the lines of one bill, "
                                                "which no metric counts")
        _drop_what_is_left_beside_a_metric(marks)
        self._people_said_before_their_average(marks)
        _taking_how_long(marks)
        _came_from_alone_is_no_share(marks)
        self._selling_is_revenue_without_dishes(marks)
        self._count_then_its_condition(marks)
        self._how_many_then_what_is_counted(marks)
        self._made_after_a_sum_of_money(marks)
        self._average_per_order_of_a_count(marks)
        self._average_per_day(marks)
        self._average_of_a_row(marks)
        self._share_of_a_count_is_its_rate(marks)
        self._share_said_of_a_figure_is_its_rate(marks)
        to_come = period is not None and period.start > now.date()  # "tomorrow night's covers": the guests booked
        _people_before_what_they_do(marks)
        _guests_listed_with_figures(marks)
        named = self._instead(self._named_metrics(marks), marks, period, to_come,
                              today=period is not None and period.start == period.end == now.date())
        if self._metrics_run_together(marks):  # "bao nhiêu khách" + "thành viên mới"
            return Parsed(None, recognised, [], "two metrics named back to back: which one is meant is unclear")
        if self._figure_of_counted_rows(marks):
            return Parsed(None, recognised, [], "a figure is asked of the rows another figure counts (the average "
                                                "check on orders with a promotion): those rows are no filter here")
        if self._what_the_members_counted_did(marks):
            return Parsed(None, recognised, [], "what the members a figure counts did is asked (those with a birthday "
                                                "who booked): no metric keeps only them")
        people_said = any(k == "unit" and p == "people" for _, _, k, p in marks.mentions)  # "how many people came
        verbs = [str(p) for a, b, k, p in marks.mentions if k == "verb" and p in self.catalog.metrics  # in": guests
                 and not (people_said and " ".join(marks.words[a:b]) in _BRINGS_PEOPLE)
                 and not self._count_brought_in(marks, a, b)] + [
            str(self._verbs[w]) for w in (tuple(marks.words[a:b]) for a, b, k, _ in marks.mentions if k == "value")
            if self._verbs.get(w) in self.catalog.metrics]  # "which dish gets voided the most": a value, and a verb
        strong = [str(p) for a, b, k, p in marks.mentions if k == "verb" and p in self.catalog.metrics
                  and " ".join(marks.words[a:b]) not in WEAK_VERBS
                  and not self._brings_people(" ".join(marks.words[a:b]), named)
                  and not self._count_brought_in(marks, a, b)]
        named_units = {self.catalog.metrics[m].unit for m in named}
        strong = [m for m in strong if not (self.catalog.metrics[m].unit == "vnd" and "vnd" in named_units)]
        by_a_verb = _asked_by_a_verb_alone(marks, strong, named)
        if by_a_verb and self._spent_by_the_customers_counted(marks, named):
            return Parsed(None, recognised, [], "what the customers a figure counts spent is asked (those who signed "
                                                "up): no metric keeps only them")
        named = [*by_a_verb, *named]
        if named and strong and strong[0] not in named and set(named) <= set(self.catalog.metrics[strong[0]].companions):
            named = [strong[0], *named]  # "how much did takeaway orders bring in": their revenue (and their number)
        named_units = {self.catalog.metrics[m].unit for m in named}
        people = [c for c in self.catalog.metrics[strong[0]].companions if c in self.catalog.metrics
                  and self.catalog.metrics[c].unit == "people"] if strong and named_units == {"people"} else []
        if named and strong and not set(strong) & set(named) and people:  # "how many covers have we got booked":
            named = [strong[0], people[0]]  # the bookings' guests, not the guests who ate
        instead = next((a for a in VERB_ALTERNATIVES.get(strong[0], ()) if set(named) <= {
            a, *self.catalog.metrics[a].companions}), None) if named and strong else None
        if instead is not None and not set(strong) & set(named):  # "what share of payments came in as cash": what
            strong, named = [instead], list(dict.fromkeys([instead, *named]))  # was paid, the verb's other reading
        if named and strong and not set(strong) & set(named):  # "drinks sold on delivery orders": the orders are
            named = [m for m in named if m not in self._nouns_of_values(marks)]  # the value's noun, the verb's figure
        if named and strong and not set(strong) & set(named):  # "thuế thu được" is the tax itself (money, above)
            return Parsed(None, recognised, [], f"the verb asks for {strong[0]} but the question names {named[0]}")
        unit_words = [(" ".join(marks.words[a:b]), str(p)) for a, b, k, p in marks.mentions if k == "unit"
                      and marks.before(a) not in _PER_ONE]  # "một ly mất mấy phút": per cup, asked in minutes
        one = {" ".join(marks.words[a:b]) for a, b, k, _ in marks.mentions if k == "unit" and marks.before(a) == "a"}
        unit_metrics = [metric for word, unit in unit_words  # "nhiều phần nhất": portions; "nhiều đơn nhất": orders
                        if word not in one  # ("what does a portion of phở bò cost us": one portion, not the sold)
                        and (metric := UNIT_WORD_METRICS.get(word) or UNIT_METRICS.get(unit))]
        unit_metrics += [UNIT_METRICS[c.unit] for c in thresholds if c.unit == "people"]  # "which tables had more
        # than 10 guests": the people said in the condition are the guests, when nothing else names a figure
        slow = any(k == "superlative" and " ".join(marks.words[a:b]) in SLOW_WORDS for a, b, k, _ in marks.mentions)
        fast = any(k == "superlative" and " ".join(marks.words[a:b]) in FAST_WORDS for a, b, k, _ in marks.mentions)
        units_said = {unit for _, unit in unit_words}
        named = self._said_of_its_own_metrics(named, marks)
        if named:
            candidates = [named]
        elif verbs and any(k == "verb" and p == verbs[0] and a > 1 and marks.words[a - 1] in ("va", "and") and
                           _kind(marks.marks[a - 2]) == "value" for a, _, k, p in marks.mentions):
            return Parsed(None, recognised, [], f"a value and {verbs[0]} are listed side by side: two figures "
                                                "are asked")  # "số hóa đơn bị hủy và bị void": two counts
        elif verbs and not _priced_ranking(marks):  # "how much came in by card": revenue, or else what was paid
            # (but "the cheapest drink we sell": its price)
            candidates = [[*(self._instead([m], marks, period, to_come) if m == verbs[0] else [m]),  # "pay staff": their
                           *self._asked_in_a_clause_of_its_own(marks, m)]  # wages; money that came in, never them
                          for m in (verbs[0], *VERB_ALTERNATIVES.get(verbs[0], ()))]
        elif unit_metrics:  # "bếp nào ra nhiều phần nhất": portions; "nguyên liệu ... theo giá trị": what ranks them
            candidates = [self._instead(unit_metrics[:1], marks, period, to_come),  # "khách hạng vàng bao nhiêu người": the
                          *([m] for m in self._default_metrics(marks)[:1])]  # tier's customers, as when named
        elif _said(marks, "below"):  # "nguyên liệu nào sắp hết": the stock, below its reorder level
            candidates = [[m] for m, info in self.catalog.metrics.items() if info.low_below]
        elif said := [SUPERLATIVE_METRICS[w] for w in (" ".join(marks.words[a:b]) for a, b, k, _ in marks.mentions
                                                          if k == "superlative") if w in SUPERLATIVE_METRICS]:
            said = [self._per_day_if_averaged(m, marks) for m in said]  # "which weekday is weakest on average"
            candidates = [self._instead(said[:1], marks, period, to_come)]  # "món nào chạy nhất": the best seller, by
            # portions; "most frequent": visits; "khu nào đang đông khách nhất": the guests seated now
        elif slow and self._station_said(marks, by_value=True):  # "slowest dish on the wok": its cooking time
            candidates = [["avg_prep_time"]]
        elif defaults := self._default_metrics(marks):  # "the most common void reasons": voided lines
            candidates = [defaults[:1]]
        elif (slow or fast or "minutes" in units_said) and self._station_said(marks, by_value="minutes" in units_said):
            candidates = [["avg_prep_time"]]  # "bếp nào nấu chậm nhất", "bếp nướng ra món mất bao lâu": cooking time
        elif "minutes" in units_said and _said_served(marks) and any(  # "Lẩu Thái tuần này ra món mấy phút": its
                k == "value" and any(m.semantic_model in _MENU_MODELS for m in p)  # type: ignore[attr-defined]
                for _, _, k, p in marks.mentions):  # cooking time
            candidates = [["avg_prep_time"]]
        elif _time_ranked_by(marks, _MONEY_RANKS):  # "our worst day last month": the day with the least revenue (a
            candidates = [[self._per_day_if_averaged("revenue", marks)]]  # weekday's "on average": per day)
        elif _time_ranked_by(marks, _BUSY_RANKS):  # "our busiest hours": by the number of orders, as examples.yaml
            candidates = [[self._per_day_if_averaged("completed_orders", marks)]]  # says it ("busiest by number of
            # orders")
        elif how_it_did := self._figure_of_how_it_did(marks):  # "how did the hotpot do this month"
            candidates = [how_it_did]
        elif staff := self._staff_counted(marks):  # "quán có bao nhiêu nhân viên", "how many bartenders do we
            candidates = [self._instead(staff, marks, period, to_come)]  # have": the employees (over a period:
            # those who worked)
        elif _two_compared_with_no_figure(marks):  # "compare this week with last week", "so sánh ca trưa với ca
            if _values_per_concept(marks)["role"]:  # "cooks lunch vs dinner": what of the cooks (never the revenue)
                return Parsed(None, recognised, [], "staff are named with no figure: say what of them to compare")
            candidates = [_guests_compared(marks) or self._figure_of_a_value(marks) or ["revenue"]]  # tối": how the
            # business did, as "how are we doing"; "the Lẩu Thái this week compared with last week": its portions;
            # "khách ca trưa tháng 10 so với tháng 9": the guests
        else:
            return Parsed(None, recognised, [], "no metric recognised")
        found = self._first_split(marks, candidates, language, tables, limit)
        if isinstance(found, str):
            return Parsed(None, recognised, [], found)
        named, (metrics, filters, group_by) = found
        if _said_how_often(marks) and not self.catalog.metrics[metrics[0]].additive:
            return Parsed(None, recognised, [], f"'most often' ranks by how many times, and {metrics[0]} is not a "
                                                "count or a total of times")  # "went over their standard most often"
        counted = self._times_counted(metrics[0]) if _said_how_often(marks) or (
            _how_many_times(marks) and self.catalog.metrics[metrics[0]].unit in ("vnd", "qty")) else None  # an
        # amount counted in times (never a table's turns: a ratio of times already)
        if counted is not None:  # "nguyên liệu bị hao hụt nhiều lần nhất": ranked by how many times, not how much
            metrics = [counted, *(m for m in metrics if m != counted)]
        balance = [m for m in metrics if self.catalog.metrics[m].balance]
        if balance and any(d.startswith("order__") for d in [*group_by, *(
                f.dimension for f in filters if not self._is_shift_filter(f))]):  # ("tonight": the stock now)
            return Parsed(None, recognised, [], f"{balance[0]} is the balance of every movement: the movements of "
                                                "some orders (a table's area, a shift) are no stock")  # "bên quầy bar"
        if balance and any(self.catalog.concept_of(f.dimension) == "movement_type"
                           for f in filters):  # "the value of the stock we used": the use's, never the stock's
            return Parsed(None, recognised, [], f"{balance[0]} is the balance of every movement: one kind of movement "
                                                "is a figure of its own (the use, the waste, the deliveries)")
        live_today = period is not None and period.start == period.end == now.date() and \
            any(self.catalog.metrics[m].live and not self.catalog.metrics[m].fixture  # "tối nay còn mấy bàn trống":
                for m in named)  # the free ones now, beside all the tables
        fixture = [m for m in metrics if self.catalog.metrics[m].fixture]
        if fixture and ((period is not None and not live_today) or compare is not None):  # "how many tables did we
            return Parsed(None, recognised, [], f"{fixture[0]} counts what the restaurant has: the ones used in a "
                                                "period are a figure of their own")  # serve today": the tables used
        if balance and (period is not None or compare is not None):
            windows = {self.catalog.metrics[m].window_days for m in balance} - {None}
            if compare is not None or period is None or period.end < now.date() or (
                    period.start_at is not None and period.start < now.date()  # "at the use of the last 14 days":
                    and windows != {(period.end - period.start).days + 1}) or \
                    any(self._is_shift_filter(f) for f in filters if not self._shift_said_as_period(marks)):
                # (a window of its own days only, never another)
                return Parsed(None, recognised, [], f"{balance[0]} is a balance: it is known as of now, not for a "
                                                    "period or a shift")
            period = None  # "what stock do we need to reorder tonight": the stock now, all movements counted
            filters = [f for f in filters if not self._is_shift_filter(f)]
        ahead = [m for m in metrics if not self.catalog.metrics[m].booked_ahead]
        if ahead and period is not None and to_come:  # "revenue next week": nothing yet
            return Parsed(None, recognised, [], f"{ahead[0]} is counted as it happens, and {period.phrase} has not "
                                                "come yet (only bookings are known ahead)")
        one_table = [f for f in filters if not f.exclude and len(f.values) == 1
                     and self.catalog.concept_of(f.dimension) == "table_no"]
        if one_table and period is None and compare is None and not _said(marks, "live") and \
                not any(self.catalog.metrics[m].live for m in metrics):
            return Parsed(None, recognised, [], f"table {one_table[0].values[0]} with no period: its bill now, or "
                                                "every bill it ever had? Say the period")  # "bàn 12 gọi hết bao nhiêu"
        undated = [m for m in named if self.catalog.metrics[m].needs_period]
        if undated and period is None and compare is None and not any(self._is_shift_filter(f) for f in filters):
            return Parsed(None, recognised, [], f"{undated[0]} is counted over a period: say which (today, this "
                                                "week ...)")  # "lương theo giờ": the rate, not every wage paid
        directions = {p for _, _, k, p in marks.mentions if k == "superlative"}
        if directions == {True, False}:  # "ngày nào cao nhất, ngày nào thấp nhất": one ranking shows one end
            return Parsed(None, recognised, [], "both ends of a ranking are asked (the most and the least)")
        superlative = next((p for _, _, k, p in marks.mentions if k == "superlative"), None)
        if superlative is None:  # "which table has waited longest for food": the ranking inside the metric's words
            superlative = next((SUPERLATIVES[w] for a, b, k, _ in marks.mentions if k == "metric" and group_by
                                for w in _phrases_in(_without_bounds(marks.words[a:b])) if w in SUPERLATIVES), None)
        if slow and _ranks_the_tickets(marks):  # "the 20 slowest tickets today": single tickets, never their count
            return Parsed(None, recognised, [], "the slowest tickets are single tickets, each with its time: a list, "
                                                "not a count")
        if slow and self.catalog.metrics[named[0]].unit != "minutes":  # the slowest day: the least revenue
            if any(self.catalog.concept_of(g) == "supplier" for g in group_by):
                return Parsed(None, recognised, [], "'the slowest' supplier is the one that takes longest to "
                                                    "deliver, never the one with the fewest deliveries")
            superlative = False
        if _said(marks, "average") and not any(self._is_average(m) or self.catalog.metrics[m].unit == "percent"
                                               for m in named or metrics[:1]):  # "the average no-show rate": a rate
            return Parsed(None, recognised, [], "an average was asked of a metric that is not one")
        if _said(marks, "live") and period is None and not any(self.catalog.metrics[m].live for m in metrics):
            return Parsed(None, recognised, [], f"a state right now is asked, and {metrics[0]} is counted over a "
                                                "period")
        if period is None and any(self.catalog.metrics[m].live for m in metrics) and \
                any(self.catalog.concept_of(g) == "hour" for g in group_by):  # "bàn 5 vô lúc mấy giờ": when one row
            return Parsed(None, recognised, [], "a state right now is not split by hour: 'at what time' asks when "
                                                "one row began")
        for m in metrics:
            kept_from = self.catalog.kept_from(m, [*group_by, *(f.dimension for f in filters)])
            if kept_from is not None and self.catalog.metrics[m].time_only:
                return Parsed(None, recognised, [], f"{m} is counted for the whole restaurant: it can be split "
                                                    "by day, week, month or shift only")
            if kept_from is not None:
                return Parsed(None, recognised, [], f"{m} cannot be split or filtered by "
                                                    f"{self.catalog.concept_of(kept_from)}")
        if _asks_how_many(marks) and all(self.catalog.metrics[m].unit == "vnd" for m in named or metrics[:1]):
            return Parsed(None, recognised, [], "'how many' asks for a count, and the question names an amount")
        if _share_of_another(marks, named) or self._share_of_a_value_that_is_a_figure(marks, named):
            return Parsed(None, recognised, [], "one metric as a share of another is a ratio of the two, not a share "
                                                "of the total")
        share = _said(marks, "share") or self._shown_with_shares(metrics, group_by, compare, limit)
        if _peak_said(marks) and (share or sum(k == "superlative" for _, _, k, _ in marks.mentions) > 1 or any(
                self.catalog.concept_of(g) != "hour" for g in group_by)):  # "which dishes sell most during peak
            return Parsed(None, recognised, [], "the peak hours are asked as a window of their own: say their hours "
                                                "(e.g. 18h-20h)")  # hours": never each hour ranked
        if share and ((not group_by and not filters) or compare is not None):
            return Parsed(None, recognised, [], "a share of the total needs a split (by category, by payment "
                                                "method ...) or a value (delivery orders), and one period")
        if share and self._number_of_said(marks, named, metrics[0]):  # "chiếm mấy phần trăm tổng số đơn": of their
            # number
            if any(self.catalog.metrics[m].unit == "vnd" for m in named):  # "% số bill với % doanh thu": one
                return Parsed(None, recognised, [], "two shares are asked (of a number and of an amount): one "
                                                    "share of the total is shown at a time")
            metrics = [m for m in metrics if self.catalog.metrics[m].unit != "vnd"]
        if share and not group_by:  # "what share of revenue came from delivery": that value's, of the total
            after = [m for m in _said_right_after_the_share(marks) if m in metrics  # "what share of portions sold
                     and not self.catalog.metrics[m].share_in_money]  # (but "of payments": of the amount paid)
            metrics = after[:1] or [self.catalog.share_metric(metrics)]  # are combos": of the portions, as said
        if share and not self.catalog.metrics[self.catalog.share_metric(metrics)].additive:
            return Parsed(None, recognised, [], "a share of the total is of a sum or a count, not of an average "
                                                "or a rate")
        units = units_said - ({"percent"} if share or (compare is not None and not _percent_of_a_metric(marks))
                              else set())  # a share, or a change in % (but "là bao nhiêu % doanh số": a ratio)
        rate = self.catalog.rate_of(metrics[0]) if units == {"percent"} and len(named) == 1 and not any(
            self.catalog.metrics[m].unit == "percent" for m in metrics) else None
        if rate is not None:  # "food cost từng nhóm món là bao nhiêu %": the food cost in percent (of its whole)
            metrics = [rate, *self.catalog.metrics[rate].companions]
        metrics += self._listed_in_the_unit_asked(metrics, units)
        if units - {self.catalog.metrics[m].unit for m in metrics} - {"count"}:
            return Parsed(None, recognised, [], f"the question asks in {', '.join(sorted(units))}, "
                                                "which none of its metrics is measured in")
        order_by: list[OrderBy] = []
        below = None
        if _said(marks, "below") and self.catalog.metrics[metrics[0]].unit == "days":  # "nguyên liệu nào sắp cạn
            superlative = False  # nhất, còn đủ dùng mấy ngày": the fewest days left first
        elif _said(marks, "below") and not self.catalog.metrics[metrics[0]].counts_below:
            low = self.catalog.metrics[metrics[0]].low_below
            below = next((g for g in group_by if low and g.endswith(f"__{low}")), None)
            if below is None:
                return Parsed(None, recognised, [], f"'below the level to keep' is not said of {metrics[0]}")
            order_by = [OrderBy(by=metrics[0], descending=False)]  # the lowest first
        if superlative and limit is None and not group_by and all(self.catalog.metrics[m].extreme for m in named):
            superlative = None  # "the longest anyone has been waiting": the longest wait itself
        if (superlative is not None or limit is not None) and not group_by:
            return Parsed(None, recognised, [], "a ranking needs something to rank (e.g. dishes, categories)")
        if (superlative is not None or limit is not None) and below is None:
            money = [m for m in metrics if self.catalog.metrics[m].unit == "vnd"]
            minutes = [m for m in metrics if self.catalog.metrics[m].unit == "minutes"]
            by = money[0] if money and (  # kg vs litres; "món nào bị hủy nhiều tiền nhất": by the money
                self.catalog.metrics[metrics[0]].unit == "qty" or "vnd" in units_said) else \
                minutes[0] if minutes and _said_how_long(marks) else metrics[0]  # "chờ món lâu nhất": by the wait
            if not minutes and _said_how_long(marks) and self.catalog.metrics[by].unit not in ("days", "hours"):
                return Parsed(None, recognised, [], "the ranking is by how long, and none of its metrics is a "
                                                    "duration")  # "bàn nào đang mở bill lâu nhất": never by the count
            if superlative is not None and self.catalog.metrics[by].direction == "lower_is_better" and any(
                    k == "superlative" and " ".join(marks.words[a:b]) in _JUDGING for a, b, k, _ in marks.mentions):
                superlative = not superlative  # "the worst no-show rate": the highest
            order_by = [OrderBy(by=by, descending=True if superlative is None else bool(superlative))]
            concepts = {d.concept for d in map(self.catalog.dimension_of, group_by) if d is not None}
            sorted_only = _sorted_only(marks)
            if limit is None and not sorted_only and _top_of_a_list(marks, language):
                limit = 5  # "top món tháng này", "top dishes": the first few, not one
            elif limit is None and not sorted_only and not _plural_subject(marks) and \
                    not concepts & set(RANKED_IN_FULL):
                limit = 5 if concepts & set(RANKED_TOP_FIVE) else 1
        series = any(g.startswith("metric_time") for g in group_by)  # "hóa đơn trung bình từng tuần thay đổi thế
        if _said(marks, "change") and compare is None and not series:  # nào": the weekly series shows the change
            return Parsed(None, recognised, [], "a change needs two periods to compare")
        change, change_amount = _change_asked(marks) if compare is not None else (False, False)
        if _said(marks, "each_before"):  # "weekly revenue, with the % change from the week before": in percent,
            percent, amount = _change_asked(marks)  # unless only an amount is asked ("tăng bao nhiêu")
            change, change_amount = percent or not amount, amount and not percent
        if share and group_by and not order_by:  # the biggest share first
            order_by = [OrderBy(by=self.catalog.share_metric(metrics), descending=True)]
        comparing = [" ".join(marks.words[a:b]) for a, b, k, _ in marks.mentions if k == "compare"]
        if comparing and compare is None and not any(len(f.values) > 1 for f in filters):
            return Parsed(None, recognised, comparing, "a comparison needs two periods or two values")
        # several figures of two periods over ("revenue, covers and spend per guest: last week vs the week
        # before"): a row for each week, as for one figure split by week
        if compare is not None and period is not None and len(named) > 1 and not group_by and \
                period.unit in _GRAIN_OF_UNIT and max(period.end, compare.end) < now.date():
            grain = _GRAIN_OF_UNIT[period.unit]
            if _one_span_split_by_its_unit(period, compare, [grain]):
                group_by = [grain]
        if compare is not None and period is not None and _one_span_split_by_its_unit(period, compare, group_by):
            period = TimeRange(start=min(period.start, compare.start), end=max(period.end, compare.end),
                               phrase=f"{compare.phrase} .. {period.phrase}" if compare.start < period.start
                               else f"{period.phrase} .. {compare.phrase}", unit=period.unit)
            compare = None  # "thuế tháng 9 với tháng 10, mỗi tháng bao nhiêu": both months, one row each
        if compare is not None:  # the metrics asked, each for both periods (an average with its companions)
            if any(g.startswith("metric_time") for g in group_by):
                return Parsed(None, recognised, [], "a comparison of two periods cannot also be split by date")
            shown = {*named, *(c for m in named if self._is_average(m) and not group_by  # an average, with what it
                               for c in self.catalog.metrics[m].companions)}  # is over ("avg bill vs last month")
            asked_in = _count_and_amount_asked(marks)  # "refunds vs last week, how many and how much": both
            shown |= {c for m in named for c in self.catalog.metrics[m].companions
                      if c in self.catalog.metrics and self.catalog.metrics[c].unit in asked_in}
            metrics = [m for m in metrics if m in shown] or metrics[:1]
            if period is not None and not _said_whole(marks, compare) and not any(
                    self._is_average(m) or self.catalog.metrics[m].unit == "percent" for m in metrics) and \
                    not self._booked_ahead_whole(metrics, marks):  # (bookings this month: the whole month, beside
                compare = _same_point_if_running(period, compare, now)  # the whole of the month before)
        period = _whole_days_if_split(period, group_by)
        if period is not None and period.start_at is not None and period.end_before == now and \
                any(m in self._per_day_metrics for m in metrics):  # "the last 4 weeks, per day": whole days to
            period = TimeRange(start=period.start_at.date(), end=now.date() - dt.timedelta(days=1),  # yesterday
                               phrase=period.phrase, unit="day")
            if compare is not None and compare.start_at is not None:  # "vs the 7 days before": as many whole days
                span = period.end - period.start + dt.timedelta(days=1)
                compare = TimeRange(start=period.start - span, end=period.start - dt.timedelta(days=1),
                                    phrase=compare.phrase, unit="day")
        if period is not None and self._booked_ahead_whole(metrics, marks):  # bookings this month: the days to
            # come too (a no-show rate: so far); "in December": the one to come
            period = day_to_come(month_to_come(whole_current_period(period, now.date()), now.date()), now.date())
        if period is not None and period.end == now.date() and period.end_before is None and (
                any(self.catalog.metrics[m].until_now for m in metrics) or (_says_so_far(marks) and any(
                    self.catalog.metrics[m].booked_ahead for m in metrics))):  # no-shows this month, bookings so far
            period = period.model_copy(update={"end_before": now})
        group_by = list(dict.fromkeys(group_by))
        limit_per = None
        if (limit is not None or order_by) and len(group_by) > 1 and _ranks_within_each(marks) and not (
                limit is None and _sorted_only(marks)):  # "giờ công từng nhân viên, xếp từ nhiều đến ít": in order
            limit_per = self._each_split(marks, group_by)
            each_entity = entity_of(limit_per) if limit_per else None
            ranked = [g for g in group_by if g != limit_per and (entity_of(g) is None or entity_of(g) != each_entity)]
            if limit is None and ranked and superlative is not None and not _plural_subject(marks) and not {
                    self.catalog.concept_of(g) for g in ranked} & set(RANKED_IN_FULL):
                limit = 1  # "mỗi ca đồ uống nào bán chạy nhất": the best seller of each shift
            if limit_per is None or limit is None or not ranked:
                return Parsed(None, recognised, [], "a ranking within each group needs how many of each "
                                                    "(the 3 best-selling dishes of each category)")
            group_by = [limit_per, *(g for g in group_by if g != limit_per)]  # each category, then its dishes
        split_concepts = {c for d in map(self.catalog.dimension_of, group_by) if d is not None
                          for c in (d.concept, d.stands_for) if c}
        asked_which = any(self.catalog.metrics[m].counts in split_concepts for m in metrics if m in named) or \
            self._which_of_what_it_counts(marks) or (not group_by and (self._any_of_what_it_counts(marks)
                                                                       or self._the_bookings_shown(marks)))
        rows_only = False
        listing = next((m for m in (*(m for _, _, k, m in marks.mentions if k == "metric"), named[0])
                        if self.catalog.metrics[str(m)].listed_as), None)  # "ca tối nay những ai đang có mặt": on now
        if listing is not None and (period is None or period.end >= now.date() or not (
                self.catalog.metrics[str(listing)].live or self.catalog.metrics[str(listing)].counts_now)) and (
                asked_which or _said(marks, "listing")) and not compare:  # (but "hôm qua ai đứng ca": who worked)
            listed = self.catalog.metrics[str(listing)].listed_as
            counted = str(self.catalog.metrics[str(listing)].counts)
            figures = [m for m in listed if m in self.catalog.metrics]  # or, with none, its rows alone (free tables)
            also = [m for m in metrics if figures and m != listing and m not in figures]  # "các bàn chưa thanh toán,
            metrics, rows_only = [*figures, *also] or [str(listing)], not figures  # ngồi bao lâu và tạm tính bao
            # nhiêu": each table with its figures, and the running subtotal asked beside them
            available = list(self.group_bys_of(metrics))
            if counted not in split_concepts:  # each row with its attributes (a member: the tier)
                group_by = [*group_by, *self._with_attributes([self._pick(counted, available, language)], available,
                                                              metrics, language, filters)]
                split_concepts.add(counted)
            fixed = self._fixed_by(filters)  # "terrace tables": no area
            row = next((g for g in group_by if self.catalog.concept_of(g) == counted), "")  # (a server: a staff member)
            group_by += [g for g in (f"{row.rsplit('__', 1)[0]}__{a}" for a in listed if a not in self.catalog.metrics)
                         if row and g in available and g not in fixed and g not in group_by]
        elif asked_which:
            return Parsed(None, recognised, [], "a list of single rows is not a metric (totals and splits are)")
        metrics = [m for m in metrics if rows_only or self.catalog.metrics[m].counts not in split_concepts]  # "who's
        # clocked in": each one, not a count of one
        wrapped = _counted_in_a_superlative(marks) - split_concepts
        if wrapped:  # "bạn phục vụ nào chạy nhiều bàn nhất": ranked by how many tables, which no metric counts
            return Parsed(None, recognised, [], f"the ranking counts {', '.join(sorted(wrapped))}, which is no metric "
                                                "here")
        with_empty = self._with_empty(marks, order_by, group_by, filters, metrics)
        if isinstance(with_empty, str):
            return Parsed(None, recognised, [], with_empty)
        threshold = None
        sized = None if any(g.startswith("metric_time") for g in group_by) and not any(
            t.unit == "vnd" != self.catalog.metrics[metrics[0]].unit for t in thresholds) else \
            self._each_rows_own_size(thresholds, metrics)  # "days with more than 100 guests": a condition on a day
        # (but "số đơn trên 2 triệu theo ngày": the bills over it, each day)
        if sized is not None and thresholds[0].unit == "vnd" and not self._said_of_the_rows(marks, metrics[0]):
            sized = None  # "orders with discounts over 100k": the figure is the discount's, not each bill's total
        if sized is not None and thresholds[0].unit == "vnd" and not group_by and _rows_listed(marks):
            return Parsed(None, recognised, [], "a list of single bills is not a metric (totals and splits are)")
        if sized is not None:  # "bookings for 6 or more people": the bookings whose party is that big
            filters, thresholds = [*filters, sized], []
        if thresholds:
            problem = self._threshold_problem(marks, thresholds, metrics, group_by,
                                              compare is not None or share or bool(below))
            if problem:
                return Parsed(None, recognised, [], problem)
            threshold = Threshold(op=thresholds[0].op, value=thresholds[0].figure)
            if threshold.op in ("<", "<=") and self._rows_listable(group_by, filters, metrics):
                with_empty = True  # "the active dishes that sold fewer than 100 portions": those that sold none too
            order_by = order_by or [OrderBy(by=metrics[0], descending=threshold.op in (">", ">="))]
        if with_empty:  # the worst sellers are shown by what was asked, without companions (ex-008)
            metrics = [m for m in metrics if m in named] or metrics[:1]
        growth = next((GROWTH_WORDS[w] if k == "superlative" else bool(p) for a, b, k, p in marks.mentions
                       if k == "growth" or (k == "superlative" and (w := " ".join(marks.words[a:b])) in GROWTH_WORDS)),
                      None)
        rise = next((" ".join(marks.words[a:b]) for a, b, k, _ in marks.mentions
                     if k == "change" and " ".join(marks.words[a:b]) in (*RISE_WORDS, *FALL_WORDS)), None)
        most = next((p for _, _, k, p in marks.mentions if k == "superlative"), None)
        if growth is None and rise is not None and most is not None:  # "5 món nào tăng số phần bán nhiều nhất",
            growth = bool(most) == (rise in RISE_WORDS)  # "went up the most": the rise ranked, as "grew the most"
        if growth is None and rise is not None and _said(marks, "each_before") and {"nao", "which"} & set(
                marks.words) and not {"giam", "tang"} <= set(marks.words):  # "tuần nào doanh thu bị tụt (never
            # "tuần nào tăng, tuần nào giảm": each)
            return Parsed(None, recognised, [], "which of them rose (or fell) keeps only those: ask for each one's "
                                                "change")  # so với tuần liền trước"): those weeks only
        if growth is not None:  # "which dish grew the most": ranked by the rise of a sum or count as an amount, of
            if compare is None or not group_by:  # an average (a price) in percent, or in percent when % is said
                return Parsed(None, recognised, [], "what grew the most needs two periods and a split (which dishes, "
                                                    "which categories)")
            in_percent = "percent" in units_said or not self.catalog.metrics[metrics[0]].additive
            order_by = [OrderBy(by=CHANGE_COLUMN if in_percent else CHANGE_AMOUNT_COLUMN, descending=growth)]
            change, change_amount = (True, change_amount) if in_percent else (change, True)
        if order_by and limit is None and compare is None and not share and not _sorted_only(marks) and \
                _one_shift_ranked(group_by, filters, period):
            group_by, limit = ["metric_time__day", *group_by], 1  # "tuần rồi ca nào hủy nhiều nhất": that one shift
        if _days_that_cannot_meet(filters):  # "Sunday lunch vs weekday lunch": two kinds of day, never both at once
            return Parsed(None, recognised, [], "a day of the week and weekdays (or weekends) are both said, and no "
                                                "day is both: compare them one at a time")
        if {"different", "distinct"} & set(marks.words) and not self.catalog.metrics[metrics[0]].counts:
            return Parsed(None, recognised, [], "how many different ones is asked: this figure counts each time, "
                                                "not each one once")  # "how many different drinks did we sell"
        people_asked = any(self.catalog.metrics[m].counts for m in metrics if m in named)
        if not people_asked and _shifts_split_over_days(group_by, period):  # "giờ công và chi phí lương ca trưa vs
            metrics = [m for m in metrics if not self.catalog.metrics[m].counts] or metrics  # ca tối tháng này": by
            # shift, without the staff who worked beside them (counted once each, they would need each day)
        group_by = _each_of_one_shift_is_each_day(group_by, filters, period,
                                                  any(self.catalog.metrics[m].counts for m in metrics))
        if compare is None and self._weekdays_of_one_week(group_by, period):
            if {"weekday", "weekdays"} & set(marks.raw):  # (English "weekdays" are also Monday to Friday)
                return Parsed(None, recognised, [], "each weekday of one week is each of its days, or Monday to "
                                                    "Friday: say 'each day' or name the days")
            group_by = list(dict.fromkeys(  # "thứ nào tuần trước đông khách nhất": which of its days
                "metric_time__day" if self.catalog.concept_of(g) in _WEEKDAY_CONCEPTS else g for g in group_by))
        if self._weekday_outside(filters, period):  # "late tickets on Friday and Saturday": Friday, then Saturdays
            return Parsed(None, recognised, [], "a day of the week is named that the period does not hold")
        if _weekday_span(marks):  # "from Monday to Thursday": the days between, of a week unsaid
            return Parsed(None, recognised, [], "a span of weekdays needs the week it is in")
        if missing := [r for r in marks.rates_asked if r not in metrics]:  # "top 3 món bị void nhiều nhất, tỷ lệ
            return Parsed(None, recognised, [], f"the rate asked ({missing[0]}) is not what the ranking shows")  # bao
            # nhiêu": never the counts alone, the rate dropped
        if share and not group_by and compare is None and self._whole_unclear(filters, metrics):
            return Parsed(None, recognised, [], "a share of one value is asked beside another (takeaway sales, "
                                                "drinks): which is the whole, and which the part, is unclear")
        query = SemanticQuery(metrics=metrics, group_by=group_by, filters=filters, time=period, compare=compare,
                              order_by=order_by, limit=limit, limit_per=limit_per, language=language, share=share,
                              with_empty=with_empty, change=change, change_amount=change_amount, below=below,
                              threshold=threshold, rows_only=rows_only)
        return Parsed(query, recognised)

    def _counts_members_apart_from_orders(self, metric: str) -> bool:
        """``metric`` counts customers by something other than their orders (who signed up, whose birthday it is):
        what they did is no filter of another figure (those who ordered: what they spent is the revenue, as split or
        kept)."""
        info = self.catalog.metrics[metric]
        return info.counts == "customer" and "orders" not in info.models

    def _spent_by_the_customers_counted(self, marks: _Marks, named: list[str]) -> bool:
        """"Khách đăng ký thành viên hôm qua đã chi bao nhiêu": a count of customers not by their orders (who signed
        up, whose birthday it is), then what they spent ("chi", "chi tiêu": the customers' verb), asks the spend of
        those customers, never everyone's beside their count."""
        return any(self._counts_members_apart_from_orders(m) for m in named) and any(
            k == "verb" and " ".join(marks.words[a:b]) in _SPENT_BY_THEM for a, b, k, _ in marks.mentions)

    def _booked_ahead_whole(self, metrics: list[str], marks: _Marks) -> bool:
        """What is booked ahead (reservations, birthdays), unless a figure known only so far or "so far" is said:
        "this month" is the whole month, the days to come included."""
        return any(self.catalog.metrics[m].booked_ahead for m in metrics) and \
            not any(self.catalog.metrics[m].until_now for m in metrics) and not _says_so_far(marks)

    def _what_the_members_counted_did(self, marks: _Marks) -> bool:
        """"Khách sinh nhật tháng này có ai đặt bàn chưa", "birthday members this month who booked": a count of
        members not by their orders, then who ("ai", "người", "who") did what another figure counts, or came in ("đã
        có ai đến ăn chưa"), asks that of those members, never the two side by side ("new members this month and how
        many bookings") nor the members alone."""
        spans = _metric_spans(marks)
        members = [end for _, end, m in spans if self._counts_members_apart_from_orders(m)]
        return any(not self.catalog.metrics[first].models & self.catalog.metrics[then].models and
                   {"ai", "who", "nguoi"} & set(marks.words[end:stop])
                   for _, end, first in spans if end in members for _, stop, then in spans if stop > end) or any(
            k == "verb" and a >= end and " ".join(marks.words[a:b]) in _CAME_TO_EAT and not any(
                k2 == "metric" and end <= a2 < a for a2, _, k2, _ in marks.mentions)  # (never of another figure:
            for end in members for a, b, k, _ in marks.mentions)  # "bao nhiêu lượt khách thành viên ghé")

    def _weekdays_of_one_week(self, group_by: list[str], period: TimeRange | None) -> bool:
        """"Lunch table turnover on each weekday last week": a split by the day of the week over one week or less
        is its days one by one, or its weekdays Monday to Friday (days of the week are gathered over weeks only when
        the period holds more than one)."""
        return period is not None and (period.end - period.start).days <= 6 and "metric_time__day" not in group_by \
            and any(self.catalog.concept_of(g) in _WEEKDAY_CONCEPTS for g in group_by)  # (each day with its weekday
        # name: the days)

    def _whole_unclear(self, filters: list[ValueFilter], metrics: list[str]) -> bool:
        """"What % of takeaway sales are drinks", "tỷ lệ khách vãng lai trong đơn mang về": a share of one value
        with another beside it that frames nothing (not a shift, not what the first lives within) is of a whole the
        filters do not say: of the takeaway sales, or of everything sold."""
        fixed = set().union(*(self.catalog.metrics[m].fixes for m in metrics if m in self.catalog.metrics))
        said = [f.dimension for f in filters if not f.exclude and self.catalog.concept_of(f.dimension) not in fixed]
        free = [d for d in said if not self.catalog.frames_a_part(d, said)]
        return len({self.catalog.concept_of(d) for d in free}) >= 2

    def _asked_in_a_clause_of_its_own(self, marks: _Marks, metric: str) -> list[str]:
        """"Mấy đầu bếp đi làm, tổng bao nhiêu giờ?": a unit asked after a comma, in another unit than the verb's
        metric, asks for that unit's metric too (the hours beside the staff who worked). Money is not one: "and what
        were they worth" is the worth of what the verb counts."""
        verb_end = max((b for _, b, k, p in marks.mentions if k == "verb" and p == metric), default=None)
        if verb_end is None:
            return []
        return [other for a, b, k, unit in marks.mentions if k == "unit" and any(verb_end <= c <= a for c in marks.commas)
                and (other := UNIT_METRICS.get(str(unit))) and other != metric
                and unit != "vnd" and self.catalog.metrics[metric].unit != unit][:1]

    def _narrowed_by_another_figure(self, marks: _Marks) -> bool:
        """"Bàn nào ngồi lâu nhất mà chưa tính tiền": a figure after "mà" (that ...) keeps the rows of another kind of
        figure (minutes, then bills still open); "mấy bàn đặt mà khách không đến" (bookings, then which of them:
        the no-shows, a count of the same rows) is read as the second."""
        metrics = [(a, b, str(p)) for a, b, k, p in sorted(marks.mentions) if k == "metric"]
        figures = [(a, b, str(p)) for a, b, k, p in sorted(marks.mentions) if k == "metric" or (  # "món nào hôm nay
            k == "verb" and p in self.catalog.metrics)]  # gọi rồi mà bếp chưa làm xong": ordered, then not cooked
        for i, word in enumerate(marks.words):
            if word != "ma" or not (marks.accents[i] == _RELATIVE_MA or not marks.marked) or \
                    _kind(marks.marks[i]) not in (None, "filler"):  # ("dùng mã SINHNHAT": a code)
                continue
            after = next((m for a, _, m in metrics if a > i), None)
            before = [m for _, e, m in figures if e <= i]
            if after is not None and before and self.catalog.metrics[before[-1]].unit != self.catalog.metrics[after].unit:
                return True
        return False

    def _a_total_then_a_part(self, marks: _Marks) -> str:
        """"Orders today, how many were delivery?", "hôm nay bao nhiêu đơn, bao nhiêu đơn giao hàng", "tối nay có
        bao nhiêu bàn đặt, bao nhiêu bàn từ 6 người trở lên": a figure asked, then, after a comma or "and", "how
        many" again before a value or a condition that would narrow it; read as one query the value narrows both
        and the total is lost. The words of the part, or "" (values listed side by side, "card and cash", are a
        split; a value that names a figure of its own, "how many of them were no-shows", is that figure)."""
        mentions = sorted(marks.mentions, key=lambda m: m[0])
        _, first, total = next(iter(_metric_spans(marks)), (None, None, ""))
        if first is None or any(k in ("value", "threshold") and a < first and not self._is_shift_value(k, p)
                                for a, _, k, p in mentions):
            return ""
        listed = _values_per_concept(marks)
        fixed = self.catalog.metrics[total].fixes  # ("how many of them showed up": a figure of its own)
        for cut in sorted(c for c in {*marks.commas, *(i for i, w in enumerate(marks.words) if w in ("and", "va"))}
                          if c >= first):
            part = next(((a, b, k, p) for a, b, k, p in mentions if a > cut and k in ("threshold", "value")), None)
            if part is None:
                continue
            a, b, kind, payload = part
            meanings = cast(tuple[ValueMeaning, ...], payload) if kind == "value" else ()
            if self._is_shift_value(kind, payload) or tuple(marks.words[a:b]) in self._metric_words or any(
                    listed[m.concept] > 1 or m.concept in ("uom", "unit") or m.concept in fixed for m in meanings) \
                    or any(k == "metric" and cut < s < a and p != total for s, _, k, p in mentions):
                continue  # ("nhập bao nhiêu và dùng bao nhiêu bún tươi": the value is of both figures)
            if _how_many_in(marks.words[cut:a], _HOW_MANY):
                return " ".join(marks.words[a:b])
        return ""

    @staticmethod
    def _is_shift_value(kind: str, payload: object) -> bool:
        return kind == "value" and any(m.concept == "shift" for m in cast(tuple[ValueMeaning, ...], payload))

    def _per_of_another_figure(self, marks: _Marks) -> str:
        """"How many covers per labour hour": a ratio said from its "per" ("per labour hour": revenue per labour
        hour) right after another figure is that figure divided, which no metric here is; the words, or ""."""
        for a, b, kind, payload in marks.mentions:
            inputs = self.catalog.metrics[str(payload)].inputs if kind == "metric" else ()
            if not inputs or marks.words[a] != "per":
                continue
            before = [m for s, _, m in _metric_spans(marks) if s < a]
            if before and before[-1] not in (inputs[0], payload) and not self.catalog.metrics[before[-1]].inputs:
                return " ".join(marks.words[a:b])  # (a ratio before it, "average check per order": said again)
        return ""

    @staticmethod
    def _said_of_the_rows(marks: _Marks, metric: str) -> bool:
        """"Bills over 2 million": the figure is said of the rows the metric counts (the metric named last before
        it is that one), never of another figure named between ("orders with discounts over 100k")."""
        start = next(a for a, _, k, _ in marks.mentions if k == "threshold")
        before = [m for a, _, m in _metric_spans(marks) if a < start]
        return not before or before[-1] == metric

    def _each_rows_own_size(self, thresholds: list[_Condition], metrics: list[str]) -> ValueFilter | None:
        """"Bookings for 6 or more people", "booking từ 8 khách trở lên": a condition in the unit each row of
        the metrics has a size in (a booking's party) keeps those rows, a filter on that size; never a condition on
        the figure itself (how many bookings). The metric asked has the size; its companions have it too, or come
        from its rows ("orders with more than 4 guests": those bills, and their revenue)."""
        if len(thresholds) != 1 or thresholds[0].unit is None or thresholds[0].figure != int(thresholds[0].figure):
            return None
        first = self.catalog.metrics[metrics[0]]
        size = first.sized_by.get(thresholds[0].unit)
        if size is None or any(self.catalog.metrics[m].sized_by.get(thresholds[0].unit) != size
                               and not self.catalog.metrics[m].models <= first.models for m in metrics[1:]):
            return None
        return ValueFilter(dimension=size, values=(str(int(thresholds[0].figure)),), op=thresholds[0].op)

    def _threshold_problem(self, marks: _Marks, thresholds: list[_Condition], metrics: list[str],
                           group_by: list[str], combined: bool) -> str:
        """Why a condition on a figure ("fewer than 100 portions") cannot keep the rows, or "": it keeps the rows
        of a split whose first metric passes it, in that metric's unit, and a metric named right after the figure
        ("at least 50 orders", "at least 50 paid bills") must be that one."""
        if len(thresholds) > 1:
            return "two conditions on figures are asked (only one is kept)"
        if not group_by or combined:
            return "a condition on a figure (fewer than 100 portions) keeps the rows of a split (which dishes, " \
                   "which days), with no comparison or share"
        condition, unit = thresholds[0], self.catalog.metrics[metrics[0]].unit
        if condition.unit == "hours" and marks.says(("ai",), ("who",), ("anyone",), ("anybody",)) and not any(
                self.catalog.concept_of(g) in _PEOPLE_CONCEPTS for g in group_by):  # "có ai làm quá 8 tiếng 1 ca":
            return "the hours are each person's on one shift, which no split here keeps"  # never a shift's total
        noun = next(a for a, _, k, _ in marks.mentions if k == "threshold")
        while noun > 0 and _kind(marks.marks[noun - 1]) == "value":  # "đơn giao hàng trên 500k": the bills'
            noun -= 1
        if condition.unit == "vnd" and marks.words[noun - 1:noun] in _BILL_NOUNS and \
                "vnd" not in self.catalog.metrics[metrics[0]].sized_by:  # "discount on bills over 2 million"
            return f"the figure {condition.figure:,.0f} is each bill's total, and {metrics[0]} is not counted by bill"
        if condition.unit == "people" and _size_of_a_party(marks):  # "the most tables of 6+ guests": each party's
            return f"the figure {condition.figure:g} is the size of each party, not a condition on {metrics[0]}"
        if condition.unit is not None and condition.unit != unit and (condition.unit, unit) not in _SAME_KIND_OF_COUNT:
            return f"the figure {condition.figure:g} is in {condition.unit}, and {metrics[0]} is measured in {unit}"
        after = next((m for m in sorted(marks.mentions, key=lambda m: m[0]) if m[0] >= condition.after
                      and m[2] not in ("filler", "unit", "value", "threshold")),
                     None)  # "at least 50 paid bills", "two or more paid visits": the bills, the visits
        if after is not None and after[0] == condition.after and after[2] == "concept" and \
                self.catalog.metrics[metrics[0]].counts != after[3]:  # "nhập từ hơn 1 ncc": how many suppliers
            return f"the figure {condition.figure:g} counts {after[3]}, which {metrics[0]} does not count"
        named = after[3] if after is not None and after[2] == "metric" else metrics[0]
        if named != metrics[0]:
            return f"the condition is on {named}, and the rows are ranked or shown by {metrics[0]}"
        return ""

    def _selling_is_revenue_without_dishes(self, marks: _Marks) -> None:
        """"Hôm nay bán được bao nhiêu", "how much did we sell today": with no dish, category or station named
        and no portions, selling is the money taken (revenue), not a count of portions of nothing in particular."""
        selling = [i for i, (a, b, k, p) in enumerate(marks.mentions) if k in ("metric", "verb")
                   and p == "portions_sold" and " ".join(marks.words[a:b]) in _SELLING_WORDS]
        if not selling or "revenue" not in self.catalog.metrics or any(
                (k == "metric" and i not in selling) or (k == "unit" and p == "portions")
                or (k == "concept" and p in self._menu_concepts)
                or (k == "value" and any(m.semantic_model in _MENU_MODELS for m in p))  # type: ignore[attr-defined]
                for i, (_, _, k, p) in enumerate(marks.mentions)):
            return
        for i in selling:
            a, b, _, _ = marks.mentions[i]
            marks.mentions[i] = (a, b, "metric", "revenue")
            for j in range(a, b):
                marks.marks[j] = _Mark("metric", "revenue")

    @functools.cached_property
    def _per_day_metrics(self) -> frozenset[str]:
        """The averages per day of a total ("average daily revenue"): today, not over yet, is never one of
        the days of a rolling window."""
        return frozenset(str(m.per_day) for m in self.catalog.metrics.values() if m.per_day)

    @functools.cached_property
    def _menu_concepts(self) -> frozenset[str]:
        return frozenset(d.concept for d in self.catalog.dimensions if d.semantic_model in _MENU_MODELS)

    def _number_of_said(self, marks: _Marks, named: list[str], first: str) -> bool:
        """A count metric is named as a number ("tổng số đơn", "the number of orders") or right after the share
        ("what share of orders were delivery", "what share of yesterday's orders"), not just named; or the share is
        said of what the metric asked counts, with no figure named ("tỷ lệ đơn mang về": of the orders)."""
        shares_end = _right_after_the_share(marks)
        shares_end |= {b for a, b, k, _ in marks.mentions if k == "value" and a in shares_end}  # "share of delivery
        # orders": of the orders
        if self.catalog.metrics[first].unit == "count" and any(
                k == "unit" and p == "count" and a in shares_end for a, _, k, p in marks.mentions):
            return True
        return any(k == "metric" and (info := self.catalog.metrics[str(p)]).unit == "count" and (
            marks.words[a] in ("so", "number", "count") or marks.words[max(a - 1, 0):a] in (["so"], ["number"])
            or (a in shares_end and not info.share_in_money))
            for a, _, k, p in marks.mentions) and any(self.catalog.metrics[m].unit == "count" for m in named)

    def _shown_with_shares(self, metrics: list[str], group_by: list[str], compare: TimeRange | None,
                           limit: int | None) -> bool:
        """A split every row of which is shown with its share of the total by convention (payments by method)."""
        concepts = [self.catalog.concept_of(g) for g in group_by]
        return bool(metrics) and len(concepts) == 1 and compare is None and limit is None and \
            concepts[0] in self.catalog.metrics[metrics[0]].shares_in_split_by

    def _names_people(self, named: list[str]) -> bool:
        return bool(named) and all(self.catalog.metrics[m].unit == "people" for m in named)

    def _brings_people(self, verb: str, named: list[str]) -> bool:
        """"Which day brought in the most guests", "how many guests came in": people, not money; and parties of
        them (bills, bookings) come in too ("how many parties of 6 came in"), though what they bring in is money."""
        return verb in _BRINGS_PEOPLE and (self._names_people(named) or verb in _COME_IN and bool(named) and all(
            "people" in self.catalog.metrics[m].sized_by for m in named))

    def _count_brought_in(self, marks: _Marks, start: int, end: int) -> bool:
        """"Which hour brings in the most orders": a count said after the verb is what it brings, not money."""
        if " ".join(marks.words[start:end]) not in _BRINGS_PEOPLE:
            return False
        after = next(((k, p) for a, _, k, p in sorted(marks.mentions) if a >= end and k not in ("superlative", "filler")),
                     None)
        return after is not None and after[0] == "metric" and self.catalog.metrics[str(after[1])].unit == "count"

    def _each_split(self, marks: _Marks, group_by: list[str]) -> str | None:
        """The split said with "each" ("mỗi danh mục", "each day"), as its group-by name."""
        for a, _, kind, payload in marks.mentions:
            if kind not in ("concept", "grain") or not _said_with_each(marks, a):
                continue
            for name in group_by:
                if (kind == "grain" and name == payload) or (
                        kind == "concept" and self.catalog.concept_of(name) == payload):
                    return name
        return None

    def _with_empty(self, marks: _Marks, order_by: list[OrderBy], group_by: list[str], filters: list[ValueFilter],
                    metrics: list[str]) -> bool | str:
        """Whether the bottom of a ranking lists the rows with nothing too (the dishes that sold nothing, as 0),
        or why the question cannot be answered without them."""
        bottom = bool(order_by) and not order_by[0].descending
        with_empty = bottom and self._rows_listable(group_by, filters, metrics) and not _said(marks, "without_empty")
        if bottom and not with_empty and not _said(marks, "without_empty") and self._names_one_kind_of_row(group_by) and \
                "__" not in str(entity_of(group_by[0])) and all(self.catalog.metrics[m].additive for m in metrics):
            return "the bottom of this ranking would leave out the ones with nothing (they cannot be listed " \
                   "through another table)"
        if _said(marks, "with_empty") and not with_empty:
            return "counting the rows with nothing needs the bottom of a ranking of dishes, staff or tables"
        return with_empty

    def _names_one_kind_of_row(self, group_by: list[str]) -> bool:
        """A split by one kind of row that has a name (dishes, staff, tables), with its attributes."""
        entities = {entity_of(g) for g in group_by}
        return len(entities) == 1 and None not in entities and any(self.catalog.names_rows(g) for g in group_by)

    def _rows_listable(self, group_by: list[str], filters: list[ValueFilter], metrics: list[str]) -> bool:
        """The bottom of a ranking of dishes (staff, tables) counts those with nothing to count, as 0: a split
        by one kind of row, sums and counts only, and no filter on those rows through another table."""
        if not self._names_one_kind_of_row(group_by):
            return False
        entity = str(entity_of(group_by[0]))
        if "__" in entity or not all(self.catalog.metrics[m].additive for m in metrics):  # MetricFlow lists a
            # dimension's rows only from its own semantic model (a dish's, not a dish's category's)
            return False
        return not narrowed_through_another_table(entity, filters)

    def _first_split(self, marks: _Marks, candidates: list[list[str]], language: str, tables: list[ValueFilter],
                     limit: int | None) -> tuple[list[str], tuple[list[str], list[ValueFilter], list[str]]] | str:
        """The first reading of the metrics that the question's splits and filters fit, each candidate then its
        finer metrics (revenue by dish is dish sales): "khách trả qua MoMo" is paid, as revenue has no payment
        method. The named metrics and (metrics, filters, group-by), or why none fits."""
        problem = ""
        for candidate in candidates:
            readings = [candidate]
            for other in ("finer", "split_alternative"):
                reading = [getattr(self.catalog.metrics[m], other) or m for m in candidate]
                if reading not in readings and all(m in self.catalog.metrics for m in reading):
                    readings.append(reading)
            for reading in readings:
                try:
                    return candidate, self._split(marks, reading, language, tables, limit)
                except _ReadAs as read_as:
                    if _listed_after(marks, read_as.span[0]) or _asked_after_and(marks, read_as.span[0]):  # "tips
                        # and refunds", "bookings per week and how many of them were no-shows": a figure of its own,
                        # not the tips refunded (the count the value's words name, when a count is said: "and the
                        # no-show count", never the party size of the no-shows)
                        own = self._metric_words.get(tuple(marks.words[read_as.span[0]:read_as.span[1]]))
                        counted = marks.words[read_as.span[1]:read_as.span[1] + 1] in (["count"], ["number"]) or \
                            "so" in marks.words[max(0, read_as.span[0] - 3):read_as.span[0]]  # "the no-show count"
                        own = own if own is not None and own not in candidate and counted else read_as.instead
                        marks.forget(*read_as.span)
                        marks.mark(*read_as.span, "metric", own)
                        return self._first_split(marks, [[*candidate, own]], language, tables, limit)
                    if _listed_before_a_metric(marks, read_as.span[1]):  # "cancelled vs no-show bookings": the
                        marks.forget(*read_as.span)  # cancelled ones, a figure of their own beside the no-shows
                        marks.mark(*read_as.span, "metric", read_as.instead)
                        return self._first_split(marks, [[read_as.instead, *candidate]], language, tables, limit)
                    if _questions_asked(marks) > 1:  # "đặt bao nhiêu lần, bao nhiêu lần không đến": both asked
                        problem = problem or str(read_as)
                        continue
                    again = [read_as.instead if m == read_as.metric else m for m in candidate]
                    try:
                        return again, self._split(marks, again, language, tables, limit)
                    except _Unanswerable as err:
                        problem = problem or str(err)
                except _Unanswerable as err:
                    problem = problem or str(err)
        return problem

    def _default_metrics(self, marks: _Marks) -> list[str]:
        """The metrics the concepts named count by default (a void reason: the voided lines), or rank by when
        ranked ("the top 5 dishes": portions sold)."""
        found: list[str] = []
        listed = _values_per_concept(marks)
        for _, _, kind, payload in marks.mentions:  # "cash vs card vs e-wallet", "tiền mặt chiếm mấy % so với thẻ":
            for meaning in cast(tuple[ValueMeaning, ...], payload) if kind == "value" else ():  # the payments of
                dim = self.catalog.dimension(meaning.semantic_model, meaning.dimension)  # each (two or more listed)
                if dim is not None and dim.default_metric in self.catalog.metrics and \
                        (listed[dim.concept] > 1 or {"total", "tong"} & set(marks.words)  # "the card total today",
                         or marks.says(("bao", "nhieu"), ("how", "much"))  # "tiền mặt hôm qua bao nhiêu": paid by it
                         or (marks.says(("how", "many"),)  # "how many walk-ins today": the parties that walked in
                             and self.catalog.metrics[str(dim.default_metric)].unit == "count")):
                    found.append(str(dim.default_metric))
        for a, _, kind, payload in marks.mentions:
            concept = payload if kind == "concept" else \
                self._members_concept(payload) if kind == "value" else None  # type: ignore[arg-type]  # "top 3 drinks"
            for dim in (d for d in self.catalog.dimensions if concept is not None and d.concept == concept):
                metric = (dim.default_metric if kind == "concept" else None) or \
                    (dim.ranked_by if _ranked_or_best_before(marks, a) else None)
                if metric in self.catalog.metrics:
                    found.append(str(metric))
        return list(dict.fromkeys(found))

    def _relative_who(self, marks: _Marks) -> None:
        """"Repeat customers who came in the first half of November", "members who ordered delivery": "who" right
        after a count of people and right before a verb says which of them, never who is asked (the staff); but
        "guests who came in more than 2 times": who they are, each kept by the condition."""
        if any(k == "threshold" for _, _, k, _ in marks.mentions):
            return
        for a, b, kind, _ in list(marks.mentions):
            if kind != "concept" or marks.words[a:b] != ["who"]:
                continue
            before = next((p for _, e, k, p in marks.mentions if e == a and k == "metric"), None)
            verb_after = any(s0 == b and (k == "verb" or tuple(marks.words[s0:e]) in self._verbs)
                             for s0, e, k, _ in marks.mentions)  # "came": a verb, or a status that is one
            if before is not None and self.catalog.metrics[str(before)].unit == "people" and verb_after:
                marks.forget(a, b)
                marks.mark(a, b, "filler")

    def _a_role_at_work(self, marks: _Marks) -> None:
        """"Tuần này bếp làm tổng cộng bao nhiêu giờ", "hôm qua phục vụ làm bao nhiêu giờ": a role read as a verb
        ("bếp làm": the kitchen made; "phục vụ": served), said right before a figure of the staff's work (hours,
        shifts, wages; fillers between), is the staff of that role at work, never the work of everyone."""
        for a, b, kind, _ in sorted(marks.mentions, key=lambda m: m[0]):
            words = tuple(marks.words[a:b])
            if kind == "concept" and (*words, "staff") in self._roles:  # "kitchen hours", "kitchen labour cost": the
                words = (*words, "staff")  # kitchen staff's (as the role is said "kitchen staff")
            role = (words[:-1] if words[-1:] == ("lam",) else words) if kind in ("verb", "concept") else ()
            if role not in self._roles:
                continue
            after = [m for m in sorted(marks.mentions, key=lambda m: m[0]) if m[0] >= b and m[2] != "filler"]
            work = bool(after) and all(_kind(marks.marks[j]) == "filler" for j in range(b, after[0][0])) and (
                (after[0][2] == "metric" and after[0][3] in self._of_work)
                or (after[0][2] == "unit" and after[0][3] == "hours"))
            if not work or not (role != words or after[0][0] == b or (
                    after[0][2] == "metric" and marks.words[after[0][0]] == "lam")):
                continue  # "phục vụ bao nhiêu khách": served; "phục vụ làm bao nhiêu giờ", "cook hours": the staff at work
            marks.forget(a, b)
            marks.mark(a, min(a + len(role), b), "value", self._roles[role])
            if a + len(role) < b:
                marks.mark(a + len(role), b, "verb", None)

    def _an_average_per_bill_of_a_figure(self, marks: _Marks) -> None:
        """"Tiền boa tháng này trung bình mỗi bill": a figure then its average per bill (only a period or fillers
        between) is that figure per bill (the average tip per bill), never the average check beside it."""
        said = sorted((a, b, k, _COUNTED_BY_THEIR_NUMBER.get(str(p), p) if k == "concept" else p)
                      for a, b, k, p in marks.mentions if k == "metric" or (k == "verb" and p in self._per_bill) or (
                          k == "concept" and a > 0 and marks.words[a - 1] == "so"))  # "số món trung bình mỗi hóa đơn",
        # "mã nào giảm trung bình mỗi đơn nhiều hơn": the discount per promo bill
        for (a, b, _, payload), (c, d, _, payload2) in zip(said, said[1:], strict=False):
            if payload in self._per_bill and payload2 == "avg_check" and marks.words[c:c + 3] in (
                    ["trung", "binh", "moi"], ["binh", "quan", "moi"]) and not any(i in marks.commas for i in range(
                    b, c + 1)) and all(_kind(m) in ("time", "filler", None) for m in marks.marks[b:c]):
                start = a - 1 if marks.words[a - 1:a] == ["so"] else a  # ("số món": the words of the count)
                marks.forget(start, b)
                marks.forget(c, d)
                marks.mark(start, b, "metric", self._per_bill[str(payload)])
                marks.mark(c, d, "filler")
                return

    def _staff_counted(self, marks: _Marks) -> list[str]:
        """The staff (or a role's) counted by "how many" with no figure named: the metric that counts them and
        reads as the employees when no period is said. The staff said are what is counted, not a split."""
        for a, b, kind, payload in marks.mentions:
            role = kind == "value" and any(m.concept == "role" for m in cast(tuple[ValueMeaning, ...], payload))
            if _after_how_many(marks, a) and (role or (kind == "concept" and payload == "staff")):
                if not role:
                    marks.forget(a, b)
                    marks.mark(a, b, "filler")
                return [m for m, info in self.catalog.metrics.items() if info.counts == "staff" and info.instead_all_time]
        return []

    def _leaving_out_what_is_left_out(self, marks: _Marks) -> None:
        """"Delivery revenue this week, not counting cancelled orders": rows left out that the figure asked never
        counts (revenue is of completed orders) say nothing more; the words are accounted for."""
        metrics = [(a, b, str(p)) for a, b, k, p in marks.mentions if k == "metric"]
        for start, end, kind, _ in list(marks.mentions):
            left_out = next(((a, b, m) for a, b, m in metrics if a == end), None) if kind == "exclude" else None
            if left_out is None:
                continue
            out = self.catalog.metrics[left_out[2]]
            if any(m != left_out[2] and (info := self.catalog.metrics[m]).fixes & out.fixes
                   and out.fixed_values and info.fixed_values and not info.fixed_values & out.fixed_values
                   for _, _, m in metrics):
                marks.forget(start, left_out[1])
                marks.mark(start, left_out[1], "filler")

    def _figure_of_how_it_did(self, marks: _Marks) -> list[str]:
        """A value asked how it did, with no figure named: a dish or a category by what ranks it ("how did the
        hotpot do this month", "Lẩu Thái tháng này thế nào": portions sold, sales), anything else by its revenue
        ("how did the terrace do last night")."""
        return self._figure_of_a_value(marks) if marks.says(*HOW_IT_DID) else []

    def _figure_of_a_value(self, marks: _Marks) -> list[str]:
        """What a value said with no figure is measured by: a dish or a category by what ranks it (portions sold),
        anything else by its revenue; none when no value is said."""
        periods = _period_spans(marks)  # ("tonight": a shift, no value said)
        values = [m for a, b, kind, payload in marks.mentions if kind == "value" and (a, b) not in periods
                  for m in cast(tuple[ValueMeaning, ...], payload)]
        for meaning in values:
            dim = self.catalog.dimension(meaning.semantic_model, meaning.dimension)
            if dim is not None and dim.semantic_model in _MENU_MODELS and dim.ranked_by in self.catalog.metrics:
                return [str(dim.ranked_by)]
        return ["revenue"] if values else []

    def _named_metrics(self, marks: _Marks) -> list[str]:
        """The metrics the question names; a count right after a value ("delivery orders", "gold members")
        names the rows another metric is about, not a second metric. With no metric named, a value that is
        also a metric's name ("waste": the movement type, and the waste cost) is the metric, unless a verb names
        one ("how much did delivery bring in": delivery orders' revenue). The mentions it
        reads differently are rewritten in ``marks``, so the later steps see the same reading."""
        ranked_rows = self._rows_ranked_by_default(marks)  # "top 5 dishes for delivery": dishes, by portions
        if not ranked_rows and not any(k == "metric" or (k == "verb" and p in self.catalog.metrics and " ".join(
                marks.words[a:b]) not in WEAK_VERBS) for a, b, k, p in marks.mentions):
            listed = _values_per_concept(marks)
            marks.mentions = [(a, b, "metric", self._metric_words[tuple(marks.words[a:b])])
                              if k == "value" and tuple(marks.words[a:b]) in self._metric_words and not any(
                                  listed[m.concept] > 1 for m in p)  # type: ignore[attr-defined]
                              else (a, b, k, p)  # "dine-in, takeaway and delivery": three order types
                              for a, b, k, p in marks.mentions]
        marks.mentions = [(a, b, "concept", self._concepts[tuple(marks.words[a:b])])
                          if k == "metric" and self._concept_as_typed(marks, a, b) and _ranked_before(marks, a)
                          else (a, b, k, p)
                          for a, b, k, p in marks.mentions]  # "top 10 customers": the customers, ranked
        metric_spans = [(a, b, str(p)) for a, b, k, p in marks.mentions if k == "metric"]
        named = list(dict.fromkeys(m for _, _, m in metric_spans))
        bases = self._bases_said(marks, metric_spans)
        frames = {first for (a, _, first), (c, _, _) in zip(metric_spans, metric_spans[1:], strict=False)
                  if marks.words[a:a + 2] == ["how", "many"] and marks.words[c] in ("are", "is", "were", "was")}
        named = [m for m in named if m not in bases and m not in frames]  # "how many tables ... are in use": those
        if len(named) > 1 or ranked_rows:
            nouns = self._nouns_of_values(marks)
            named = [m for m in named if m not in nouns] or ([] if ranked_rows and set(named) <= nouns else named)
        return [self._as_companion(m, named) for m in named]

    def _nouns_of_values(self, marks: _Marks) -> set[str]:
        """Counts said right after a value as its noun ("delivery orders", "dine-in bills"): the rows the value is
        of, not a figure asked ("Hải sản Cần Giờ giao mấy chuyến": asked; "dinner orders with a promotion": a
        condition of its own)."""
        metric_ends = {b for _, b, k, _ in marks.mentions if k == "metric"}
        value_ends = {b for a, b, k, _ in marks.mentions if k == "value" and a not in metric_ends}  # (never of a value
        # said after its own noun: "mấy khách gold đặt bàn", the gold guests who booked)
        return {m for a, b, m in _metric_spans(marks) if a in value_ends and self.catalog.metrics[m].unit == "count"
                and not {"may", "bao", "with", "without", "co", "khong"} & set(marks.words[a:b])}

    def _figure_of_counted_rows(self, marks: _Marks) -> bool:
        """"Average check on dine-in dinner orders with a promotion": a figure, then "on"/"for" and (past values, a
        period) a count that says its own condition (more than its noun), asks the figure of those rows, which the
        count's condition cannot filter."""
        spans = _metric_spans(marks)
        for (_, end, before), (start, stop, after) in zip(spans, spans[1:], strict=False):
            between = [w for w, m in zip(marks.words[end:start], marks.marks[end:start], strict=True)
                       if _kind(m) not in ("time", "value")]
            if before != after and self.catalog.metrics[after].unit == "count" and stop - start > 2 \
                    and between in (["on"], ["for"], ["of"]) and not {"may", "bao", "how"} & set(marks.words[start:stop]):
                return True
        return False

    def _bases_said(self, marks: _Marks, spans: list[tuple[int, int, str]]) -> set[str]:
        """"VAT on this week's sales", "VAT for last month's sales": money said after "on"/"for" (a period between)
        right after a figure shown beside the money it is charged on (VAT, beside its taxable sales) is that base,
        not a figure of its own."""
        bases = set()
        for (_, end, before), (start, _, after) in zip(spans, spans[1:], strict=False):
            between = [w for w, m in zip(marks.words[end:start], marks.marks[end:start], strict=True)
                       if _kind(m) != "time"]
            if self.catalog.metrics[after].unit == "vnd" and between in (["on"], ["for"]) and any(
                    self.catalog.metrics[c].unit == "vnd" for c in self.catalog.metrics[before].companions
                    if c in self.catalog.metrics):
                bases.add(after)
        return bases

    def _rows_ranked_by_default(self, marks: _Marks) -> bool:
        """Rows ranked with no figure said of them, then the rows of a value they are in: "top 5 dishes in delivery
        orders", "top 5 dishes for delivery" rank the dishes as they rank by default (portions sold); the orders
        and the value are where they were sold, not a figure. (Two values listed, "in takeaway and delivery
        orders", may be one group or each apart: not read.)"""
        return max(_values_per_concept(marks).values(), default=0) < 2 and any(
            k == "concept" and _ranked_or_best_before(marks, a) and marks.words[b:b + 1] in _ROWS_IN
            and any(d.concept == p and d.ranked_by for d in self.catalog.dimensions)
            for a, b, k, p in marks.mentions)

    def _instead(self, named: list[str], marks: _Marks, period: TimeRange | None, ahead: bool, *,
                 today: bool = False) -> list[str]:
        """A metric read as another when the question narrows or splits by a concept (``instead_by``): the
        guests of a tier are its customers, over a period, or on the books now (the live one) without one;
        when it names another metric too (``instead_with``): the party size of bookings is a booking's; or when
        it is asked right now without a period, or of today (``instead_live``): the guests right now are those
        seated ("tối nay đang có bao nhiêu khách ngồi": tonight's, seated now); with
        no period at all (``instead_all_time``): the staff are the employees; or of a period still to come
        (``instead_ahead``, when ``ahead``): tomorrow's covers are the guests booked."""
        concepts = {str(p) for _, _, k, p in marks.mentions if k == "concept"} | {
            m.concept for a, _, k, p in marks.mentions if k == "value" and not _listed_after(marks, a)
            for m in p}  # type: ignore[attr-defined]  # ("tips and refunds": a figure of its own, not a narrowing)
        said = {str(p) for _, _, k, p in marks.mentions if k == "metric"}  # "of seated bookings": rows, named
        out = []
        for metric in named:
            if ahead and self.catalog.metrics[metric].instead_ahead in self.catalog.metrics:
                out.append(str(self.catalog.metrics[metric].instead_ahead))
                continue
            with_other = [o for m, o in self.catalog.metrics[metric].instead_with.items()
                          if m in said and o in self.catalog.metrics]
            if with_other:
                out.append(with_other[0])
                continue
            by_concept = [o for concept, by in self.catalog.metrics[metric].instead_by.items() if concept in concepts
                          for o in by if o in self.catalog.metrics]
            others = [o for o in by_concept if self.catalog.metrics[o].live == (period is None)] or [
                o for o in by_concept if period is None]  # "which supplier do we spend the most with": all time
            all_time = self.catalog.metrics[metric].instead_all_time
            if all_time in self.catalog.metrics and period is None and (
                    not _said(marks, "live") or marks.says(*_EMPLOYED)):
                out.append(str(all_time))  # "how many staff do we have": the employees, not who ever worked
                continue
            on_the_menu = self.catalog.metrics[metric].instead_on_the_menu
            if on_the_menu in self.catalog.metrics and period is None and marks.says(*_ON_THE_MENU, *_PER_PORTION):
                out.append(str(on_the_menu))  # "which dishes on the menu have the thinnest margin %": as priced
                continue
            live = self.catalog.metrics[metric].instead_live
            if live in self.catalog.metrics and (period is None or today) and _said(marks, "live") and not others \
                    and not marks.says(("average",), ("avg",), ("trung", "binh"), ("binh", "quan")):  # ("the
                # average wait right now": no figure of the moment is an average)
                out.append(str(live))  # "how many guests right now": those seated, not the day's covers (but
                continue  # "hiện có bao nhiêu khách hạng vàng": the members of the tier, as below)
            dated = self.catalog.metrics[metric].instead_dated
            if dated in self.catalog.metrics and period is not None:
                out.append(str(dated))  # "which table waited longest for food this lunch": over that lunch
                continue
            past = self.catalog.metrics[metric].instead_past
            if past in self.catalog.metrics and period is not None and not today:
                out.append(str(past))  # "tối qua có bao nhiêu bàn có khách ngồi": the parties seated then
                continue
            undated = self.catalog.metrics[metric].instead_undated
            if undated in self.catalog.metrics and period is None and any(
                    self._names_rows(m) for _, _, k, p in marks.mentions if k == "value" for m in p):  # type: ignore[attr-defined]
                out.append(str(undated))  # "giá vốn món cá kho tộ": the dish's cost per portion
                continue
            out.append(others[0] if others else metric)
        return list(dict.fromkeys(out))

    def _share_of_a_value_that_is_a_figure(self, marks: _Marks, named: list[str]) -> bool:
        """"Wasted the most, as a share of what we received": the share is of another figure, said by a value that
        names one (the deliveries' quantity), not of the total."""
        info = self.catalog.metrics[named[0]] if named else None
        for _, end, kind, _ in marks.mentions:
            after = _said_next(marks, end) if kind == "share" and marks.words[end - 1] == "of" else None
            if info is not None and after is not None and after[2] == "value" and any(
                    m.concept in info.fixes and m.value not in info.fixed_values for m in after[3]):  # type: ignore[attr-defined]
                return True
        return False

    def _concept_as_typed(self, marks: _Marks, start: int, end: int) -> bool:
        """The words are a concept's phrase as typed: "bán" (sold, a metric's word) is never "bàn" (a table)."""
        entry = self._concept_entries.get(tuple(marks.words[start:end]))
        return entry is not None and entry.spelled_as(marks.accents[start:end], bare_is_bare=marks.marked)

    def _as_companion(self, metric: str, named: list[str]) -> str:
        """"Reservations for tomorrow, and for how many guests": the guests of the reservations (their
        companion measured in people), not the guests who ate."""
        info = self.catalog.metrics[metric]
        if self._is_average(metric):  # "average party size on bookings": an average, never a companion's total
            return metric
        for other in named:
            if other == metric or metric in self.catalog.metrics[other].companions:
                continue
            same_unit = [c for c in self.catalog.metrics[other].companions
                         if c in self.catalog.metrics and self.catalog.metrics[c].unit == info.unit and c not in named]
            if same_unit and info.unit not in ("count", "vnd") and info.counts != "customer":  # (never members:
                return same_unit[0]  # "khách sinh nhật tháng này có ai đặt bàn" asks which members booked)
        return metric

    def _counted_already(self, count: str, named: list[str]) -> bool:
        """A count of rows shown beside a figure is left out when the question names a count of the same rows
        ("mỗi nhà cung cấp giao mấy chuyến, tổng tiền bao nhiêu": the deliveries, not the goods-received lines)."""
        info = self.catalog.metrics[count]
        return info.unit == "count" and any(
            self.catalog.metrics[m].unit == "count" and self.catalog.metrics[m].models & info.models for m in named)

    def _companions(self, metric: str, named: list[str]) -> tuple[str, ...]:
        """The metrics shown beside ``metric``: its own, or those it has beside another metric the question
        names ("giờ công và chi phí nhân công": the staff who worked, not the shifts)."""
        info = self.catalog.metrics[metric]
        return next((info.companions_with[m] for m in named if m in info.companions_with), info.companions)

    def _count_then_its_condition(self, marks: _Marks) -> None:
        """"Phiếu bếp bị trễ", "orders cancelled": a count of rows, then right after it a count of the same
        rows with a condition, is the second count (the rows named, then which of them)."""
        spans = _metric_spans(marks)
        for (start, end, first), (after, stop, second) in zip(spans, spans[1:], strict=False):
            one, two = self.catalog.metrics[first], self.catalog.metrics[second]
            between = all(_kind(m) in ("filler", "time") for m in marks.marks[end:after])  # "bàn đặt mà khách không
            # đến", "khách bỏ về không ăn hôm qua mấy đơn"
            apart = any(end <= comma <= after for comma in marks.commas)
            if end <= after and between and not apart and first != second \
                    and one.unit == two.unit == "count" and one.models == two.models:  # not "đơn bị hủy, bill bị void"
                noun = marks.words[after:stop]
                noun = noun[2:] if noun[:2] in (["bao", "nhieu"], ["how", "many"]) else noun[1:] if noun[:1] == ["may"] \
                    else noun  # "khách bỏ về không ăn bao nhiêu đơn": the condition, then how many of the rows
                noun_after = (len(noun) == 1 or noun in _NOUNS_OF_ROWS) and end - start > 1  # "missed
                # target on any tickets": the condition said first, then the bare noun of the rows it is said of
                marks.forget(start, stop)
                marks.mark(start, stop, "metric", first if noun_after else second)

    def _average_per_day(self, marks: _Marks) -> None:
        """"Average daily revenue", "trung bình mỗi ngày bao nhiêu khách", "which weekday makes the most money
        on average": a total averaged over days is its per-day metric (split by weekday, per day of each)."""
        if not _said(marks, "average"):
            return
        per_day = _by_day_spans(marks)
        per_shift = [(a - 1, a) for a, _, k, p in marks.mentions if k == "value" and marks.words[a - 1:a] in (
            ["moi"], ["each"], ["per"], ["every"]) and {m.concept for m in cast(tuple[ValueMeaning, ...], p)} == {"shift"}]
        metrics = [(a, b, info.per_day) for a, b, k, p in marks.mentions if k in ("metric", "verb")  # "makes money"
                   and p in self.catalog.metrics and (info := self.catalog.metrics[str(p)]).per_day in self.catalog.metrics]
        if not (per_day or per_shift) or not metrics:
            return
        for a, b in per_shift:  # "trung bình mỗi ca tối": one dinner a day, so per day of it
            marks.forget(a, b)
            marks.mark(a, b, "filler")
        for a, b, metric in metrics:
            marks.forget(a, b)
            marks.mark(a, b, "metric", metric)
        for a, b in per_day:
            if " ".join(marks.words[a:b]) in _PER_DAY:  # "mỗi ngày" says per day here, not a split by day
                marks.forget(a, b)
                marks.mark(a, b, "filler")

    def _per_day_if_averaged(self, metric: str, marks: _Marks) -> str:
        """A total a superlative names ("weakest", "đông khách nhất"), said "on average" of weekdays or per day, is
        its per-day metric ("thứ mấy đông khách nhất, tính trung bình": the average guests of each weekday's days)."""
        per_day = self.catalog.metrics[metric].per_day if metric in self.catalog.metrics else None
        return per_day if per_day in self.catalog.metrics and _by_day_spans(marks) and _said(marks, "average") else metric

    def _average_of_a_row(self, marks: _Marks) -> None:
        """"Average delivery bill", "hóa đơn giao hàng trung bình": the average of one row a count counts, said by
        the row's own word, is the metric of that average (a bill's: the average check); not an average per day
        or per anything else ("average orders per day", "trung bình mỗi ngày bao nhiêu đơn")."""
        if not _said(marks, "average") or any(w in ("per", "moi", "daily", "a") for w in marks.words):
            return
        for a, b, kind, payload in list(marks.mentions):
            info = self.catalog.metrics.get(str(payload)) if kind == "metric" else None
            said = " ".join(marks.words[a:b])
            average = next((m for m, words in (info.averaged_as.items() if info else ())
                            if said in {" ".join(words_of(w)) for w in words}), None)
            if average is not None and average in self.catalog.metrics:
                marks.forget(a, b)
                marks.mark(a, b, "metric", average)

    def _share_said_of_a_figure_is_its_rate(self, marks: _Marks) -> None:
        """"Lãi gộp bao nhiêu, food cost chiếm mấy %": a share (or a percent) said right after a figure, of nothing
        named after it and with nothing to split, is that figure's rate (food cost %), when it has one."""
        mentions = [m for m in marks.mentions if m[2] not in ("filler", "time")]
        if any(k in ("concept", "grain") for _, _, k, _ in mentions):
            return
        for (a, b, kind, metric), (c, d, share, unit) in zip(mentions, mentions[1:], strict=False):
            said = share == "share" or (share, unit) == ("unit", "percent")  # "food cost tháng này bao nhiêu %"
            rate = self.catalog.rate_of(str(metric)) if kind == "metric" and said else None
            if rate is not None and not any(k == "metric" for s0, _, k, _ in mentions if s0 >= d) and not any(
                    k == "share" for s0, _, k, _ in mentions if s0 < a):  # "what share of tips came from dinner"
                marks.forget(a, b)
                marks.forget(c, d)
                marks.mark(a, b, "metric", rate)
                marks.mark(c, d, "filler")
                return

    def _share_of_a_count_is_its_rate(self, marks: _Marks) -> None:
        """"What share of grill tickets missed their target", "what percentage of bookings were no-shows": the
        share of a count among the rows it is taken from is its rate (the late rate), not a split's shares."""
        shares = [(a, b) for a, b, k, _ in marks.mentions if k == "share"]
        named = [(a, b, str(p) if k == "metric" else self._metric_words.get(tuple(marks.words[a:b])))
                 for a, b, k, p in marks.mentions if k in ("metric", "value")]  # "no-shows": a status, a metric
        metrics = [(a, b, m) for a, b, m in named if m is not None]
        counted = next((c for c in reversed(metrics) if self.catalog.rate_of(c[2]) and (  # an amount only said before
            self.catalog.metrics[c[2]].unit == "count" or c[1] <= min(a for a, _ in shares))),  # it ("food cost as a
            None) if shares else None  # % of the price"), never after ("the biggest share of tips", "what share of
        # tips came from dinner": of the tips)
        rate = self.catalog.rate_of(counted[2]) if counted else None
        others = [c for c in metrics if c is not counted]
        if counted is None or rate is None or any(
                self.catalog.metrics[m].unit != "count" or not self.catalog.metrics[m].models <=
                self.catalog.metrics[rate].models for _, _, m in others):
            return  # "bookings ... no-shows", "bill dùng khuyến mãi chiếm mấy % tổng số bill": the rows the count is
        for a, b, _ in metrics:  # taken from may be named before it or after
            marks.forget(a, b)
        a, b, _ = counted
        marks.mark(a, b, "metric", rate)
        for start, end, _ in others:
            marks.mark(start, end, "filler")
        for start, end in shares:
            marks.forget(start, end)
            marks.mark(start, end, "filler")

    def _how_many_then_what_is_counted(self, marks: _Marks) -> None:
        """"Hôm qua bán được bao nhiêu bill": a figure's phrase that ends in "how many", right before a count's
        noun, is only its verb; the count is the one asked."""
        spans = _metric_spans(marks)
        for (a, b, first), (start, _, second) in zip(spans, spans[1:], strict=False):
            if b == start and first != second and marks.words[b - 2:b] == ["bao", "nhieu"] and \
                    self.catalog.metrics[second].unit == "count":
                marks.forget(a, b)
                marks.mark(a, b, "verb", None)
                return

    def _average_per_order_of_a_count(self, marks: _Marks) -> None:
        """"Trung bình mỗi đơn ở khu ngoài trời có mấy khách": the average per order said first, a count said
        after it, is that count per order (the ratio of the two), not the average check beside the count."""
        spans = _metric_spans(marks)
        for (start, end, first), (after, stop, second) in zip(spans, spans[1:], strict=False):
            info = self.catalog.metrics[first]
            if marks.words[start:end] not in _AVERAGE_PER_ORDER or len(info.inputs) != 2:
                continue
            ratio = next((m for m, r in self.catalog.metrics.items() if r.inputs == (second, info.inputs[1])), None)
            if ratio is not None:
                marks.forget(start, end)
                marks.mark(start, end, "filler")
                marks.forget(after, stop)
                marks.mark(after, stop, "metric", ratio)

    def _made_after_a_sum_of_money(self, marks: _Marks) -> None:
        """"How much gross profit did we make", "how much in tips did we make": a figure's phrase that is only a
        verb ("did we make", revenue's "how much did we make" without its question words), right after another
        sum of money, is that sum's verb."""
        spans = _metric_spans(marks)
        for (_, end, first), (start, stop, second) in zip(spans, spans[1:], strict=False):
            if end in (start, start - 1) and first != second and marks.words[start] in ("did", "do", "have") and \
                    self.catalog.metrics[first].unit == self.catalog.metrics[second].unit == "vnd":
                marks.forget(start, stop)
                marks.mark(start, stop, "verb", None)

    def _people_said_before_their_average(self, marks: _Marks) -> None:
        """"How long do dine-in parties stay", "how long are guests waiting for food": people (or their parties)
        said right before an average of theirs are who it is about, not a count of their own."""
        spans = _metric_spans(marks)
        for (start, end, first), (after, _, second) in zip(spans, spans[1:], strict=False):
            info = self.catalog.metrics[first]
            if end == after and (info.unit == "people" or "people" in info.sized_by) and self._is_average(second) \
                    and self.catalog.metrics[second].unit == "minutes":
                marks.forget(start, end)
                marks.mark(start, end, "filler")

    def _metrics_run_together(self, marks: _Marks) -> bool:
        """Two different metrics with nothing between them, neither shown as the other's companion, and not
        the head of a list whose last item follows an "and" ("revenue, covers and completed orders")."""
        spans = _metric_spans(marks)
        for index, ((_, end, first), (start, _, second)) in enumerate(zip(spans, spans[1:], strict=False)):
            related = first == second or second in self.catalog.metrics[first].companions \
                or first in self.catalog.metrics[second].companions
            if end == start and start not in marks.commas and not related and \
                    not _listed_with_and(marks, spans[index + 1:]):
                return True
        # "trung bình mỗi đơn giảm bao nhiêu": an average per row of what the verb after it counts, not the average
        # check beside the discounts
        return any(b == a2 and self._is_average(str(p)) and p2 in self.catalog.metrics and p2 != p
                   and p2 not in {alt for i in self.catalog.metrics[str(p)].inputs for alt in (i, *VERB_ALTERNATIVES.get(i, ()))}
                   and not self._is_average(str(p2))
                   for a, b, k, p in marks.mentions if k == "metric"
                   for a2, _, k2, p2 in marks.mentions if k2 == "verb")  # ("khách trả bao nhiêu": its own revenue)

    def _split(self, marks: _Marks, named: list[str], language: str, tables: list[ValueFilter],
               limit: int | None) -> tuple[list[str], list[ValueFilter], list[str]]:
        # a metric named as another's companion ("reservation no-show rate") is shown as that companion
        covered = {c for m in named for c in self.catalog.metrics[m].companions}
        heads = ([m for m in named if m not in covered] or named)[:1]  # the first metric asked brings its companions;
        # one named beside it is shown as asked ("discounts, and on how many bills": not the bills' revenue too)
        metrics = list(dict.fromkeys([*named, *(c for m in heads for c in self._companions(m, named)
                                                if c in self.catalog.metrics)]))
        fixed = frozenset().union(*(self.catalog.metrics[m].fixes for m in named))
        own_models = frozenset().union(*(self.catalog.metrics[m].models for m in metrics))
        via = {c: e for m in metrics for c, e in self.catalog.metrics[m].split_via.items()}
        available = [g for g in self.group_bys_of(metrics) if not (
            (dim := self.catalog.dimension_of(g)) is not None and dim.own_metrics_only
            and dim.semantic_model not in own_models)  # a booking's status: bookings only, not their orders
            and not (dim is not None and dim.concept in via and not g.startswith(f"{via[dim.concept]}__"))]
        marks = self._resolve_values(marks, available, language)
        money = any(self.catalog.metrics[m].unit == "vnd" for m in metrics)
        asked = [str(p) for a, b, k, p in marks.mentions
                 if k == "verb" and p in self.catalog.metrics and p not in metrics and p not in VERB_ALTERNATIVES
                 and " ".join(marks.words[a:b]) not in WEAK_VERBS  # "chạy nhiều bill nhất": the bills
                 and not (money and self.catalog.metrics[str(p)].unit == "vnd")]  # "khách trả" an average bill
        if asked:  # "how many orders got cancelled or voided": voided lines are another metric
            raise _Unanswerable(f"the question also asks for {asked[0]}")
        filters, filter_groups = self._filters(marks, available, language, tables, fixed, named)
        filters = _combo_said_of_a_combo(filters, self.catalog.concept_of)
        kept = {self.catalog.concept_of(f.dimension) for f in filters if not f.exclude}
        if "dish" in kept and kept & {"category", "combo", "seasonal"}:  # "bun cha combo": a dish is in its group
            raise _Unanswerable("a dish and a group of dishes are both named: which one is meant is unclear")
        group_by = self._group_by(marks, available, language, limit, bool(filter_groups)) + filter_groups
        if not group_by and (limit is not None or _said(marks, "superlative")):
            group_by = self._ranked_by_the_metrics_noun(marks, available, language)
        filters += self._listed_only(group_by, filters)
        self._check_clear(marks, filters, group_by)
        if _said(marks, "below") and not group_by:  # "what is running low": the ingredients whose stock is
            group_by = [self._pick(c, available, language) for m in metrics[:1]
                        if self.catalog.metrics[m].low_below for c in list(self.catalog.metrics[m].show_with)[:1]]
        kind = self.catalog.metrics[heads[0]].each_kind_of if heads else None
        if not group_by and kind is not None:  # "bao nhiêu món bị hủy hoặc void": the cancelled ones, and the voided
            group_by = [self._pick(kind, available, language)]
        if group_by:  # tips by payment method are shown with the payments they came with
            concepts = {d.concept for d in map(self.catalog.dimension_of, group_by) if d is not None}
            extra = [c for m in heads for c in (*self.catalog.metrics[m].split_companions, *(
                     c for concept, by in self.catalog.metrics[m].split_companions_by.items() if concept in concepts
                     for c in by)) if c in self.catalog.metrics and c not in metrics
                     and not ((_said(marks, "share") or len(named) > 1) and self._is_average(c))]  # an average
            # beside one figure asked, never among a share's parts or the figures the question names itself
            if extra and set(group_by) <= set(self.group_bys_of([*metrics, *extra])):
                metrics = [*metrics, *extra]
            hidden = {c for m in heads for concept, by in self.catalog.metrics[m].split_hides_by.items()
                      if concept in concepts for c in by}  # each dish's profit: beside its sales, not its food cost
            metrics = [m for m in metrics if m not in hidden or m in named]
        elif len(named) <= 1:  # today's voids: how many lines, how many portions (what the question asks, if it
            metrics += [c for m in heads for c in self.catalog.metrics[m].unsplit_companions  # names two figures)
                        if c in self.catalog.metrics and c not in metrics]
        if not group_by and marks.words[:3] in (["what", "did", "we"], ["what", "have", "we"]) and any(
                self.catalog.metrics[m].unit == "qty" for m in named):  # "what did we throw away": the items, each
            group_by = [self._pick(PER_ITEM_CONCEPTS[0], available, language)]
        narrowed = {self.catalog.concept_of(g) for g in [*group_by, *(f.dimension for f in filters if not f.exclude)]}
        extra = [c for m in heads for concept, by in self.catalog.metrics[m].companions_by.items() if concept in narrowed
                 for c in by if c in self.catalog.metrics and c not in metrics]  # a tier's revenue: its customers
        if extra and set(group_by) <= set(self.group_bys_of([*metrics, *extra])) and \
                not any(self.catalog.names_rows(g) for g in group_by):  # each customer's: 1 customer
            metrics = [*metrics, *extra]
        if not narrowed & set(PER_ITEM_CONCEPTS):  # kilos and litres do not add up across ingredients
            money_at = [a for a, _, k, p in marks.mentions if k == "unit" and p == "vnd"]
            money_said = bool(money_at) or (_how_much_said(marks) and not any(  # "how much did we waste last
                k == "unit" and p != "vnd" for _, _, k, p in marks.mentions))  # month": across items, its money
            shown = [*heads, *(m for m in metrics if money_said and self.catalog.metrics[m].unit == "vnd")]
            instead = list(dict.fromkeys(c for m in shown for c in self.catalog.metrics[m].companions_without_item
                                         if c in self.catalog.metrics and c not in metrics
                                         and not self._counted_already(c, named)))  # waste: write-offs
            quantity_at = [a for a, _, k, p in marks.mentions
                           if k == "metric" and self.catalog.metrics[str(p)].unit == "qty"]
            worth = any(not any(min(q, m) < c <= max(q, m) for c in marks.commas)  # in one clause
                        for q in quantity_at for m in money_at)
            if any(self.catalog.metrics[m].unit == "qty" or self.catalog.metrics[m].in_item_units for m in named) and not (
                    money_said and any(self.catalog.metrics[m].unit == "vnd" for m in metrics)) and not (
                    worth and any(self.catalog.metrics[m].unit == "vnd" for m in instead)):  # "hàng tồn trị giá
                # bao nhiêu": what the stock is worth; but "what's on hand, and what's it worth" asks two things
                raise _Unanswerable("a quantity in mixed units (kg, l, pieces) needs one ingredient or a split by "
                                    "ingredient")  # "in money" says which: the money beside the quantity (stock: its value)
            metrics = [m for m in metrics if self.catalog.metrics[m].unit != "qty"] + instead
        for flt in filters:  # "how much Tôm sú is left": a quantity is shown with its item and unit
            dim = self.catalog.dimension_of(flt.dimension)
            if dim is not None and dim.concept in PER_ITEM_CONCEPTS and flt.dimension not in group_by and \
                    any(self.catalog.metrics[m].unit == "qty" for m in metrics):
                units = [f"{flt.dimension.rsplit('__', 1)[0]}__{a}" for a in dim.attributes]
                if group_by and len(flt.values) == 1:  # "pork belly usage per week": each week, in its unit
                    group_by.extend(u for u in units if u in available and u not in group_by)
                else:
                    group_by.append(flt.dimension)
            elif dim is not None and not group_by and len(flt.values) == 1 and not flt.exclude and \
                    any(dim.concept in self.catalog.metrics[m].show_with for m in metrics):
                group_by.append(self._pick(dim.concept, available, language))  # the grill: its row, and target (ex-011)
            elif dim is not None and not group_by and not flt.exclude and dim.concept != "dish" and any(
                    self.catalog.metrics[m].balance and "dish" in self.catalog.metrics[m].show_with for m in metrics):
                group_by.append(self._pick("dish", available, language))  # "các món lẩu giá bao nhiêu": each
                # dish's price, never the highest one of them
        return metrics, filters, self._with_attributes(group_by, available, named, language, filters)

    def _station_said(self, marks: _Marks, *, by_value: bool) -> bool:
        """A kitchen station is named: the word ("bếp nào"), or, with ``by_value``, one of them ("the wok")."""
        return any((p if k == "concept" else self._concepts.get(tuple(marks.words[a:b]))) == "station" or (
                   k == "value" and by_value and any(m.concept == "station" for m in p))  # type: ignore[attr-defined]
                   for a, b, k, p in marks.mentions if k in ("concept", "value"))

    def _is_average(self, metric: str) -> bool:
        info = self.catalog.metrics[metric]
        words = f"{metric} {info.labels.en} {info.labels.vi}".lower()
        return metric.startswith("avg") or any(w in words for w in ("average", "trung bình", "per ", "mỗi", "p90"))

    def _subject_of_a_verb(self, marks: _Marks, start: int, end: int, language: str) -> bool:
        """"khách" right before a verb ("khách xài", "khách dùng mã nào nhiều nhất") is who did it; so it is
        before a state and what is in it ("món nào khách đang chờ lâu nhất")."""
        if marks.words[start:end] not in (["khach"], ["khach", "hang"]):
            return False
        nxt = next(((a, b, k) for a, b, k, _ in marks.mentions if a == end), None)
        if nxt is not None and nxt[2] == "filler":  # "khách hay gọi đồ uống gì nhất": what they often do
            nxt = next(((a, b, k) for a, b, k, _ in marks.mentions if a == nxt[1]), None)
        if nxt is not None and nxt[2] == "value" and not self._soft_at(marks, nxt[0], nxt[1], language):
            kind_of = next(((a, b, k) for a, b, k, _ in marks.mentions if a == nxt[1]), None)  # "mã nào khách giao
            nxt = kind_of if kind_of is not None and kind_of[2] == "verb" else nxt  # hàng dùng nhiều nhất": who used
        if nxt is not None and nxt[2] == "metric" and self._soft_at(marks, nxt[0], nxt[0] + 1, language):
            return True  # "khung giờ nào khách hay áp mã nhất": a figure said by its verb, which the customers did
        if nxt is not None and nxt[2] == "live":
            nxt = next(((a, b, k) for a, b, k, _ in marks.mentions if a == nxt[1] and k == "metric"), nxt)
        state = nxt is not None and nxt[2] == "metric" and _kind(marks.marks[end]) == "live"  # "khách đang chờ"
        after = marks.marks[nxt[0]] if nxt is not None else None
        waited = nxt is not None and nxt[2] == "metric" and after is not None and \
            self.catalog.metrics[str(after.payload)].unit == "minutes"  # "món nào khách chờ lâu nhất"
        return state or waited or (nxt is not None and (nxt[2] == "verb" or (
            nxt[2] == "value" and self._soft_at(marks, nxt[0], nxt[1], language))))

    def _soft_at(self, marks: _Marks, start: int, end: int, language: str) -> bool:
        """The words may be a verb or a filler as typed ("phục vụ": served, never "tối" for "tới"); "the" in a
        Vietnamese question, or typed "thẻ", is a card, never the English article."""
        words = tuple(marks.words[start:end])
        english_only = words in _ENGLISH_ONLY_SOFT and (language == "vi" or any(marks.accents[start:end]))
        spelled = any(e.spelled_as(marks.accents[start:end], bare_is_bare=marks.marked)  # "tối" (the evening) is
                      for e in self._soft.get(words, ()))  # never "tới" (came), typed with its marks
        return spelled and not english_only

    def _resolve_values(self, marks: _Marks, available: list[str], language: str) -> _Marks:
        """A value phrase the metrics cannot be filtered by may be a dimension's name or a verb instead:
        "nhân viên phục vụ nào" is "which server", "phục vụ bao nhiêu khách" is "served". A copy."""
        resolved = copy.copy(marks)
        resolved.mentions = []
        for start, end, kind, payload in marks.mentions:
            if start in marks.excluded:  # what is left out stays a value: filtered out, or not answered
                resolved.mentions.append((start, end, kind, payload))
                continue
            words = tuple(marks.words[start:end])
            next_kind = next((k for s0, _, k, _ in marks.mentions if s0 >= end and k != "filler"), None)
            # "phục vụ làm bao nhiêu giờ", "phục vụ nhận bao nhiêu tiền lương": the servers' hours and wages
            at_work = words in self._roles and (next((p in self._of_work for s0, _, k, p in marks.mentions
                                                      if s0 >= end and k not in ("filler", "verb", "unit")), False)
                                                 or (next_kind == "unit" and _kind(marks.marks[end]) == "unit"
                                                     and _unit_at(marks, end)[0] == "hours"))  # "cook hours"
            after_a_metric = start not in marks.commas and any(  # "mấy bill, mang về bao nhiêu": a new clause
                e0 == start and (k == "metric" or (k == "unit" and " ".join(marks.words[s0:e0]) in UNIT_WORD_METRICS))
                for s0, e0, k, _ in marks.mentions)
            plural = any(r.endswith("s") and not w.endswith("s")  # "cooks clocked in": the chefs, not a verb
                         for r, w in zip(marks.raw[start:end], marks.words[start:end], strict=False))
            # "khách gọi mang về", "bán qua mang về" (never the "qua" of "hôm qua")
            after_a_verb = any(e0 == start and k == "verb" for _, e0, k, _ in marks.mentions) or (
                marks.words[start - 1:start] in (["qua"], ["via"]) and _kind(marks.marks[start - 1]) != "time")
            # "mang về bao nhiêu đơn", "mang về bill tb": takeaway's orders, its average bill (but "mang về doanh
            # thu": brings in; an average is never brought in)
            counted = words == ("mang", "ve") and next(
                (self.catalog.metrics[str(p)].unit == "count" or str(p).startswith("avg_")
                 for s0, _, k, p in marks.mentions if s0 >= end and k == "metric" and p in self.catalog.metrics), False)
            split_by_it = _after_a_split_word(marks, start)  # "per cook": the role, never the verb
            if kind == "value" and not split_by_it and self._soft_at(marks, start, end, language) and not after_a_metric \
                    and not plural and not at_work and not after_a_verb and not counted \
                    and not _listed_after_its_kind(marks, start, payload) and marks.words[start - 1:start] != ["mon"] \
                    and (  # "đơn mang về", "món mang về bán chạy nhất": takeaway's
                    next_kind in ("metric", "superlative") or (next_kind == "unit" and words in self._verbs)):
                # "mang về doanh thu": brings in; "bàn nào phục vụ nhiều khách nhất": served
                kind, payload = "verb", None
            elif kind == "value" and not split_by_it and \
                    self._value_filter(payload, available, language) is None:  # type: ignore[arg-type]
                if self._concept_as_typed(marks, start, end):
                    kind, payload = "concept", self._concepts[words]
                elif self._soft_at(marks, start, end, language):  # "or voided" after cancelled orders: voided lines too
                    kind, payload = "verb", self._verbs.get(words)
            resolved.mentions.append((start, end, kind, payload))
        resolved.marks = list(marks.marks)
        for start, end, kind, payload in resolved.mentions:
            if kind == "filler":  # a word of "mỗi loại" the markers pass read as "each" stays so
                continue
            for i in range(start, end):
                resolved.marks[i] = _Mark(kind, payload)
        return resolved

    def _with_attributes(self, group_by: list[str], available: list[str], metrics: list[str],
                         language: str, filters: list[ValueFilter]) -> list[str]:
        """An ingredient is shown with its unit (the dimension's attributes); a station's prep time with
        its target (the ``show_with`` of a metric asked, not of a companion: days of stock left are shown with
        the stock, not its reorder level); ``name_lang`` is the name in the question's language. An
        attribute the question fixes to one value ("mỗi bartender": the role) is left out, a unit is not."""
        fixed = self._fixed_by(filters)
        out: list[str] = []
        for name in group_by:
            out.append(name)
            dim = self.catalog.dimension_of(name)
            if dim is None:
                continue
            extra = [a for m in metrics for a in self.catalog.metrics[m].show_with.get(dim.concept, ())]
            for attribute in dict.fromkeys([*dim.attributes, *extra]):
                attribute = f"name_{language}" if attribute == "name_lang" else attribute
                candidate = f"{name.rsplit('__', 1)[0]}__{attribute}"
                if candidate in available and candidate not in fixed:
                    out.append(candidate)
        return out

    def _fixed_by(self, filters: list[ValueFilter]) -> set[str]:
        """The dimensions the question fixes to one value, whose column would repeat it ("mỗi bartender": the role;
        "terrace tables": the area), but for those shown even so (a unit)."""
        return {f.dimension for f in filters if len(f.values) == 1 and not f.exclude
                and not getattr(self.catalog.dimension_of(f.dimension), "shown_when_fixed", False)}

    def _grain(self, grain: str, available: list[str], language: str) -> str:
        """A time grain of metric_time; an hour of day or a weekday is the model's own dimension (the hour
        the order was opened): MetricFlow has no hour date part, so without one the question is refused."""
        concept = DATE_PART_CONCEPTS.get(grain)
        return grain if concept is None else self._pick(concept, available, language)

    def _pick(self, concept: str, available: list[str], language: str, element: str | None = None) -> str:
        """The group-by name of ``concept`` joinable to the metrics: the question's language, then the
        shortest join path."""
        candidates = []
        for name in available:
            dim = self.catalog.dimension_of(name)
            if dim is None or dim.concept != concept or (element is not None and dim.name != element):
                continue
            fit = 0 if dim.lang == language else 1 if dim.lang is None else 2  # names in the question's language
            candidates.append((fit, name.count("__"), name))
        if not candidates:
            narrower = {d.concept for d in self.catalog.dimensions if d.stands_for == concept}
            for other in sorted(narrower):  # "nhân viên nào được nhiều tip nhất": tips are the servers'
                try:
                    return self._pick(other, available, language, element)
                except _Unanswerable:
                    continue
            raise _Unanswerable(f"{_CANNOT_SPLIT}{concept}")
        return min(candidates)[2]

    def _weekday_outside(self, filters: list[ValueFilter], period: TimeRange | None) -> bool:
        """A weekday kept ("Saturdays"), or weekdays or weekends, that a period of under a week does not hold
        ("khu ngoài trời thứ 7 cn có đông hơn ngày thường": a weekend, and weekdays)."""
        if period is None or (period.end - period.start).days >= 6:
            return False
        held = {str((period.start + dt.timedelta(days=i)).isoweekday()) for i in range((period.end - period.start).days + 1)}
        kinds = {"true" if int(day) >= 6 else "false" for day in held}
        return any((self.catalog.concept_of(f.dimension) == "weekday" and set(f.values) - held) or (
            self.catalog.concept_of(f.dimension) == "weekend" and not f.exclude and not set(f.values) & kinds)
            for f in filters)

    def _filters(self, marks: _Marks, available: list[str], language: str, tables: list[ValueFilter],
                 fixed: frozenset[str], named: list[str]) -> tuple[list[ValueFilter], list[str]]:
        by_dimension: dict[str, list[str]] = {}
        left_out: dict[str, list[str]] = {}  # "không tính đồ uống": NOT IN
        one_group: set[str] = set()  # values one phrase names together ("ví điện tử"): one filter, not a split
        grouped: dict[str, set[str]] = {}  # those values, and the ones named alone, by dimension
        named_alone: dict[str, set[str]] = {}
        group_phrases: dict[str, dict[frozenset[str], str]] = {}  # the phrases that name several values each
        values = [(start, end, payload) for start, end, kind, payload in marks.mentions if kind == "value"]
        options_of = {start: self._value_filters(payload, available, language)  # type: ignore[arg-type]
                      for start, _, payload in values}
        # "phục vụ, thu ngân, pha chế": roles (the dimension most of the listed values share), not a station
        listed = Counter(name for options in options_of.values() for name in {n for n, _ in options})
        repeated = frozenset().union(*(self.catalog.metrics[m].fixed_values for m in named))
        for start, end, payload in values:
            clash = {m.concept for m in payload if m.concept in fixed}  # type: ignore[attr-defined]
            if clash and start in marks.excluded and not any(  # "revenue excluding voided bills": never counted
                    m.value.lower() in repeated for m in payload if m.concept in clash):  # type: ignore[attr-defined]
                continue
            if clash and start in marks.excluded:  # "khách hủy món (không tính void)": voids are what it counts
                raise _Unanswerable(f"'{' '.join(marks.words[start:end])}' is left out of what the metric counts")
            if clash and all(m.value.lower() in repeated for m in payload  # type: ignore[attr-defined]
                             if m.concept in fixed):  # type: ignore[attr-defined]
                continue  # "khách ăn tại chỗ ngồi bao lâu": dine-in, as the metric already is
            if clash:
                said = {m.value.lower() for m in payload if m.concept in clash}  # type: ignore[attr-defined]
                problem = (f"the metric already counts only one {', '.join(sorted(clash))}; "
                           f"'{' '.join(marks.words[start:end])}' contradicts or repeats it")
                for metric in (m for m in named if self.catalog.metrics[m].fixes & clash):
                    instead = self._counting_only(metric, clash, said)
                    if instead is not None and metric in self._per_day_metrics:  # "trung bình mỗi ngày bao nhiêu
                        instead = self.catalog.metrics[instead].per_day  # đơn bị hủy": the per-day one, or none
                    if instead is not None and not _side_by_side_with(marks, metric, start):  # "bao nhiêu đơn giao
                        raise _ReadAs(metric, instead, problem, (start, end))  # hàng bị hủy": the cancelled orders
                raise _Unanswerable(problem)  # (but "bookings cancelled vs no-shows": both, side by side)
            options = options_of[start]
            found = max(options, key=lambda o: listed[o[0]]) if options else None  # first of the most listed
            if found is not None:
                group = list(dict.fromkeys(value for name, value in options if name == found[0]))  # "ví điện tử":
                # MoMo, ZaloPay, VNPay (a value of two models, a weekday of orders and of bookings, is one)
                if len(group) > 1 and any(  # "saigon beer", "bia Saigon": the kind said beside one of its own
                        0 < len(member := {v for n, v in options_of[a] if n == found[0]}) < len(group)
                        and member <= set(group) for a, b, _ in values if b == start or a == end):
                    continue  # the kind is only that member's noun
                (left_out if start in marks.excluded else by_dimension).setdefault(found[0], []).extend(group)
                if len(group) > 1:
                    one_group.add(found[0])
                    grouped.setdefault(found[0], set()).update(group)
                    if start not in marks.excluded:
                        group_phrases.setdefault(found[0], {})[frozenset(group)] = " ".join(marks.words[start:end])
                else:
                    named_alone.setdefault(found[0], set()).update(group)
            elif tuple(marks.words[start:end]) in self._shift_of_period and any(
                    self._value_filters(payload, list(self.group_bys_of([m])), language)  # type: ignore[arg-type]
                    for m in named):  # "VAT of the bills paid tonight": each has the dinner shift, not together
                raise _Unanswerable(f"'{' '.join(marks.words[start:end])}' (a shift) cannot be said of these "
                                    "figures together")
            elif (not self._soft_at(marks, start, end, language) or _after_a_split_word(marks, start)) \
                    and tuple(marks.words[start:end]) not in self._units \
                    and tuple(marks.words[start:end]) not in self._shift_of_period:  # "phục vụ" is also a verb; a
                # booking "tonight" has no shift
                concepts = ", ".join(sorted({m.concept for m in payload}))  # type: ignore[attr-defined]
                raise _Unanswerable(f"the metric cannot be filtered by {concepts}")
        together = marks.says(*_SUMMED_TOGETHER) or _only_said_of_values(marks)  # "Saigon and Heineken together",
        # "chỉ tính mang về và giao hàng": one row
        for phrases in group_phrases.values():
            if len(phrases) > 1 and not together:  # "beer vs coffee": two rows, each of several dishes
                raise _Unanswerable(f"'{', '.join(phrases.values())}' each name several values: a row for each "
                                    "group is not a split here")
        for name, alone in named_alone.items():  # "heineken vs saigon beer": each beer, "beer" only their noun;
            if (len(alone) > 1 and grouped.get(name, set()) <= alone) or grouped.get(name, set()) - alone:
                one_group.discard(name)  # "beers and glasses of red wine": listed, each of them
        for name, codes in list(by_dimension.items()):  # "ví điện tử (MoMo, ZaloPay, VNPay)": the group, spelt out
            members = getattr(self.catalog.dimension_of(name), "members", None)
            if members and len(codes) == 1:
                for other in [o for o in by_dimension if o != name and self.catalog.concept_of(o) == members
                              and len(by_dimension[o]) > 1]:
                    if _said(marks, "share") and (_named_first(marks, members, self.catalog.concept_of(name))
                                                  or _said_to_be(marks, members)):
                        raise _Unanswerable("a share within a group (some of its members over all of it) is not a "
                                            "share of the total")  # "bia chiếm bao nhiêu % doanh thu đồ uống" (but
                    # "ví điện tử (MoMo, ZaloPay, VNPay) chiếm bao nhiêu %": the group, its members spelt out after)
                    del by_dimension[other]
        for table in tables:  # a table's number, or the hours of a window ("5-7pm": 17 and 18)
            name = self._pick(table.dimension, available, language,
                              element="table_no" if table.dimension == "table_no" else None)
            by_dimension.setdefault(name, []).extend(table.values)
            if table.dimension == "hour":  # the window's hours together: one row, not a split by hour
                one_group.add(name)
        filters = [ValueFilter(dimension=d, values=tuple(dict.fromkeys(v))) for d, v in by_dimension.items()]
        split = [f.dimension for f in filters if len(f.values) > 1  # "ca trưa và ca tối": one row each
                 and f.dimension not in one_group and not together]
        filters += [ValueFilter(dimension=d, values=tuple(dict.fromkeys(v)), exclude=True) for d, v in left_out.items()]
        return filters, split

    def _listed_only(self, group_by: list[str], filters: list[ValueFilter]) -> list[ValueFilter]:
        """A split by a dimension that holds only for some rows keeps to its listed values: booked or walk-in
        is said of dine-in parties, and a takeaway (neither) is no row of its own."""
        filtered = {f.dimension for f in filters}
        return [ValueFilter(dimension=name, values=tuple(v.code for v in dim.values)) for name in group_by
                if name not in filtered and (dim := self.catalog.dimension_of(name)) is not None and dim.listed_only]

    def _said_of_its_own_metrics(self, named: list[str], marks: _Marks) -> list[str]:
        """A value said only of some metrics makes the question one of them: "bếp làm sai món nào, mỗi món bao
        nhiêu lần" counts the voided lines of that reason, never the dishes sold; and so does a split by it ("why
        were dishes voided, counts and value by reason"). A figure named is never swapped: "cancelled orders by
        reason" is not the voided dishes by reason."""
        if named:
            return named
        for _, _, kind, payload in marks.mentions:
            if kind == "value":
                dims = [self.catalog.dimension(m.semantic_model, m.dimension)
                        for m in cast(tuple[ValueMeaning, ...], payload)]
            else:
                dims = [d for d in self.catalog.dimensions if kind == "concept" and d.concept == payload]
            for dim in dims:
                if dim is not None and dim.only_for and not set(named) & set(dim.only_for):
                    return [dim.default_metric or dim.only_for[0]]
        return named

    def _check_clear(self, marks: _Marks, filters: list[ValueFilter], group_by: list[str]) -> None:
        """A value said beside a concept that gives it another meaning is handed over: "each loyalty tier, and
        from walk-ins" means the guests without a membership, which no booking says."""
        named = {str(p) for _, _, k, p in marks.mentions if k == "concept"} | {
            d.concept for d in map(self.catalog.dimension_of, group_by) if d is not None}
        for f in filters:
            dim = self.catalog.dimension_of(f.dimension)
            if dim is not None and named & set(dim.unclear_beside):
                raise _Unanswerable(f"'{dim.labels.en}' is unclear beside {', '.join(sorted(named & set(dim.unclear_beside)))}")

    def _counting_only(self, metric: str, concepts: set[str], values: set[str]) -> str | None:
        """The metric that counts what ``metric`` counts, of exactly these values ("đơn" said "bị hủy": the
        cancelled orders; "đặt bàn" said "khách không tới": the no-shows), or else the one metric of the same kind
        whose values include them ("orders still open": the unpaid ones, served or not), or None."""
        unit = self.catalog.metrics[metric].unit
        kept = self.catalog.metrics[metric].fixes - concepts  # "dine-in parties cancelled": still dine-in
        found = [name for name, info in self.catalog.metrics.items() if name != metric and info.unit == unit
                 and concepts <= info.fixes and info.fixed_values == values and kept <= info.fixes]
        wider = [name for name, info in self.catalog.metrics.items() if name != metric and info.unit == unit
                 and info.fixes == self.catalog.metrics[metric].fixes and values < info.fixed_values]
        return found[0] if len(found) == 1 else wider[0] if not found and len(wider) == 1 else None

    def _value_filter(self, meanings: tuple[ValueMeaning, ...], available: list[str],
                      language: str) -> tuple[str, str] | None:
        """The first meaning of a value phrase the metrics can be filtered by: (group-by name, value)."""
        options = self._value_filters(meanings, available, language)
        return options[0] if options else None

    def _value_filters(self, meanings: tuple[ValueMeaning, ...], available: list[str],
                       language: str) -> list[tuple[str, str]]:
        """Every meaning of a value phrase the metrics can be filtered by, in the lexicon's order."""
        options = []
        in_language = sorted(meanings, key=lambda m: getattr(  # "Heineken" in English: the English name
            self.catalog.dimension(m.semantic_model, m.dimension), "lang", None) not in (None, language))
        for meaning in in_language:
            try:
                options.append((self._pick(meaning.concept, available, language, element=meaning.dimension),
                                meaning.value))
            except _Unanswerable:
                continue
        return options

    def _names_rows(self, meaning: ValueMeaning) -> bool:
        """The value is a row's own name (a dish, a customer), not a code that describes rows."""
        dim = self.catalog.dimension(meaning.semantic_model, meaning.dimension)
        return dim is not None and dim.names_rows

    def _rows_concept(self, meanings: tuple[ValueMeaning, ...]) -> str | None:
        """The concept of the rows a phrase names several of by name: "cà phê" (two coffees) -> dish."""
        named = Counter(m.concept for m in meanings if self._names_rows(m))
        return next((concept for concept, n in named.items() if n > 1), None)

    def _entity_name_concept(self, meanings: tuple[ValueMeaning, ...]) -> str | None:
        """The concept naming the rows a code value describes: role BAR -> the staff member's name."""
        for meaning in meanings:
            for dim in self.catalog.dimensions:
                if dim.semantic_model == meaning.semantic_model and (dim.lang or dim.name in ("full_name", "name")):
                    return dim.concept
        return None

    def _members_concept(self, meanings: tuple[ValueMeaning, ...]) -> str | None:
        """The concept of a value's members: drinks (a category) -> dish; none when the phrase also names one
        of those members itself ("card": a payment method, not a group of them)."""
        for meaning in meanings:
            dim = self.catalog.dimension(meaning.semantic_model, meaning.dimension)
            if dim is not None and dim.members and not any(m.concept == dim.members for m in meanings):
                return dim.members
        return None

    def _labels_a_value(self, marks: _Marks, start: int, end: int, concept: str) -> bool:
        """A concept word right before or after one of its values is its label, not a split: "nhân viên Bùi
        Thanh Hoa", "khách hạng Vàng" (a tier is a customer's)."""
        if marks.words[start] in SINGLE_MARKERS or _each_before_its_value(marks, start):  # "theo giờ", "for each
            return False  # dinner service": a split asked
        models = {d.semantic_model for d in self.catalog.dimensions if d.concept == concept and d.names_rows}
        for a, b, kind, payload in marks.mentions:
            if kind == "value" and (a == end or b == start) and (any(
                    m.concept == concept or m.semantic_model in models for m in payload)  # type: ignore[attr-defined]
                    or self._members_concept(payload) == concept):  # type: ignore[arg-type]  # "paid by e-wallet"
                return True
        return False

    def _count_named(self, marks: _Marks) -> bool:
        """A metric named is a count ("mỗi lý do mấy món": the voided dishes), so "how many" can ask for it."""
        return any(k == "metric" and self.catalog.metrics[str(p)].unit in ("count", "portions")
                   for _, _, k, p in marks.mentions)

    def _counted_by_how_many(self, marks: _Marks, start: int) -> bool:
        """The concept right after "how many" / "bao nhiêu" / "mấy" is what a verb counts ("how many items have
        we sold") or the metric that ends with those words ("bán được bao nhiêu món"), when no other metric is
        named: the portions, not a split by dish."""
        if not _after_how_many(marks, start):
            return False
        metrics = [b for _, b, k, _ in marks.mentions if k == "metric"]
        if metrics:
            return metrics == [start]
        return any(k == "verb" and p in self.catalog.metrics for _, _, k, p in marks.mentions)

    def _is_a_quantity(self, concept: str) -> bool:
        """A dimension that is a number of something (seats, a price), not a kind of row or a code."""
        dims = [d for d in self.catalog.dimensions if d.concept == concept]
        return bool(dims) and not any(d.values or d.names_rows or d.is_time for d in dims)

    def _head_concept(self, marks: _Marks, start: int, end: int, meanings: Sequence[ValueMeaning],
                      language: str) -> str | None:
        """The concept a value phrase starts with (ends with, in English), when it names the value's own rows:
        "món combo" -> dish, "bếp nướng" -> station, "dinner shift" -> shift (never "bàn", a table, for "bạn thu
        ngân"; never the station for the void reason "Bếp làm sai món")."""
        models = {m.semantic_model for m in meanings} | {
            d.semantic_model for m in meanings for d in self.catalog.dimensions if d.concept == m.concept}
        if language != "vi" and _kind(marks.marks[end] if end < len(marks.words) else None) == "concept":
            return None  # "gold-tier members": the members are the rows, not the tier
        for size in range(end - start - 1, 0, -1):
            concept = self._concept_said(marks, start if language == "vi" else end - size, size)
            if concept is not None and any(d.concept == concept and d.semantic_model in models
                                           for d in self.catalog.dimensions):
                return concept
        return None

    def _group_by(self, marks: _Marks, available: list[str], language: str, limit: int | None,
                  split_by_values: bool) -> list[str]:
        """The splits the question asks for; ``split_by_values``: the values it lists split it already
        ("tiền mặt, thẻ, MoMo mỗi loại")."""
        group_by = []
        ranking = limit is not None or any(k == "superlative" for _, _, k, _ in marks.mentions)
        each_kind = _said(marks, "each_kind") and not split_by_values  # "combo ..., từng loại": each combo
        kind_of = next((b for _, b, k, _ in marks.mentions if k == "each_kind"), None)  # "quầy bar bán mấy ly mỗi
        # loại cà phê": each coffee (the value right after it), not each kind of bar
        each_kind_at = kind_of if any(k == "value" and a == kind_of for a, _, k, _ in marks.mentions) else None
        for start, end, kind, payload in marks.mentions:
            if kind == "grain":
                group_by.append(self._grain(str(payload), available, language))
            elif kind == "concept":
                if self._labels_a_value(marks, start, end, str(payload)) and not (
                        ranking and language != "vi" and any(k == "value" and b == start for _, b, k, _ in marks.mentions)
                        and not any(k in ("concept", "grain") and a != start and marks.words[a:b] != ["who"]
                                    for a, b, k, _ in marks.mentions)
                        and not any(k == "value" and b != start and _marked_before(marks, a, ("which",))
                                    for a, b, k, _ in marks.mentions)):  # (another value than the one it labels)
                    continue  # "nhân viên Bùi Thanh Hoa", "mã GIAM10" (but "the top 5 gold-tier members", ranked and
                    # nothing else to rank: the members; "what drinks do silver members order the most": the drinks)
                others = [(a, b, str(p)) for a, b, k, p in marks.mentions
                          if k == "concept" and a != start and not _counted_noun(marks, a)]
                if marks.words[start:end] in (["who"], ["ai"]) and others:
                    if marks.before(start) in ("and", "va"):  # "... below reorder level and who supplies them": a
                        raise _Unanswerable("a second question asks who")  # second question, never dropped
                    if not ranking and all(self._labels_a_value(marks, a, b, p) for a, b, p in others):
                        raise _Unanswerable("who is asked, and the only rows named are a value's ('the SINHNHAT "
                                            "code'): whose rows is unclear")  # the customers, or the servers?
                    continue  # "who are our top customers": the customers (but "who voided the most items": the staff)
                # asked with "which" (never the "nào" of the concept before: "khung giờ nào bếp ra món chậm nhất"
                # asks the hour, of the whole kitchen), "by", "each" or "who"
                asked = (_marked_before(marks, start, ("group", "which", "top"))
                         and not _which_of_the_one_before(marks, start - 1)) or \
                    _marked_after(marks, end, ("which",)) or _each_one_after(marks, end) or \
                    marks.words[start:end] in (["who"], ["ai"])  # "hôm nay ai làm bao nhiêu tiếng": asks who, each
                # "món nào bị hủy nhiều nhất, lý do là gì", "món bị void nhiều nhất và (thường hủy vì) lý do (là) gì":
                # a second question, the most voided dish then its reasons ("món bị hủy bao nhiêu lần, lý do là gì":
                # the one split, by reason)
                then_asked = _asked_after_a_ranking(marks, start)
                if _asked_as_what(marks, start, end) or (then_asked and marks.words[end:end + 1] == ["gi"]):
                    if _another_asked(marks, start, ("which",)) or then_asked:
                        raise _Unanswerable(f"a second question asks for its {payload}")
                    asked = True
                if _counted_noun(marks, start) or (not asked and self._counted_by_how_many(marks, start)) \
                        or (not asked and any(
                        k == "metric" and self.catalog.metrics[str(p)].counts == payload for _, _, k, p in marks.mentions)):
                    if not any(self.catalog.concept_of(name) == payload for name in available) and not any(
                            k == "metric" and self.catalog.metrics[str(p)].counts == payload
                            for _, _, k, p in marks.mentions):
                        raise _Unanswerable(f"{_CANNOT_SPLIT}{payload}")  # "the most weekend shifts": never dropped
                    continue  # "which server voided the most items", "bàn nào gọi nhiều món nhất", "how many dishes
                    # are on the menu": what is counted
                uncounted = _after_how_many(marks, start) and not self._count_named(marks)
                if not asked and uncounted and any(k == "metric" for _, _, k, _ in marks.mentions):
                    raise _Unanswerable(f"'how many' asks for a count of {payload}, which no metric here gives")
                marker = asked or marks.words[start] in {m.split()[0] for m in GROUP_MARKERS} or \
                    _each_before_its_value(marks, start) or _shown_with_its(marks, start) \
                    or _both_ways(marks.words[start:end])  # "with and without a promo": the two kinds, side by side
                if self._subject_of_a_verb(marks, start, end, language) and not _marked_after(marks, end, ("which",)) \
                        and not _marked_before(marks, start, ("group", "top")) and marks.words[max(0, start - 2):start] \
                        not in (["ai", "la"], ["who", "is"], ["who", "are"]):  # "ai là khách chi tiêu nhiều nhất": asked  # "mã GIAM10 khách xài bao nhiêu
                    continue  # lần", "đồ uống nào khách gọi nhiều nhất": the customers did it, not a split by them
                counts_itself = any(d.concept == payload and d.default_metric for d in self.catalog.dimensions) \
                    and (marks.words[start - 1:start] == ["cac"]  # "các mã giảm giá được dùng bao nhiêu lần": each
                         or not any(k == "metric" or (k == "verb" and p in self.catalog.metrics)  # "KM giảm hết
                                    for _, _, k, p in marks.mentions))  # bao nhiêu", "KM giảm cho khách ...": all
                if not (marker or counts_itself) and " ".join(marks.words[start:end]) in COLLECTIVE_WORDS and \
                        not uncounted and (
                        not ranking or _another_asked(marks, start, ("which", "group"), ("concept", "grain"))):
                    continue  # "bếp còn bao nhiêu phiếu": the kitchen as a whole, "nhân viên được bo bao nhiêu": all
                    # the staff; "khách hay đặt bàn vào khung giờ nào nhất", "giờ nào bếp chậm nhất": the hour is
                    # asked, not the customers or the station
                if not (marker or ranking or counts_itself) and any(
                        k == "concept" and p == payload and a > start and marks.words[a] in ("by", "theo")
                        for a, _, k, p in marks.mentions):  # "how much did promo codes knock off bills, split by
                    continue  # code": the split, said again (but "có mấy bàn, mỗi bàn ...": each one asked of)
                if not (marker or ranking or counts_itself):  # "lý do hủy món tuần trước": by reason
                    raise _Unanswerable(f"'{' '.join(marks.words[start:start + 1])}' is named without a "
                                        "value or a 'by'")
                per = "per" in marks.words[max(0, start - 1):end]
                metrics_before = [str(p) for _, b, k, p in marks.mentions if k == "metric" and b in (start, start - 1)]
                after_a_metric = bool(metrics_before)
                if per and payload == "customer" and any(  # "avg spend per customer": the spend per guest, said
                        "per guest" in self.catalog.metrics[m].labels.en.lower() for m in metrics_before):  # again,
                    continue  # never each customer's
                if per and (self._is_a_quantity(str(payload)) or (ranking and after_a_metric and any(  # revenue per
                        k in ("concept", "grain") and a != start and p != payload and marks.words[a:b] not in (
                            ["who"], ["ai"]) for a, b, k, p in marks.mentions))):  # seat; "which
                    raise _Unanswerable(f"'per {payload}' asks for a ratio, not a split")  # zone made the most
                    # revenue per table": a ratio
                group_by.append(self._pick(str(payload), available, language))
        values = {a: b for a, b, k, _ in marks.mentions if k == "value"}
        for start, end, kind, payload in marks.mentions:  # "mỗi món lẩu", "món combo nào ... nhất": each dish
            if kind != "value" or start in marks.excluded:  # ("excluding drinks, which category ...": left out)
                continue
            if len(values) > 1 and marks.words[end:end + 1] == ["which"] and _kind(marks.marks[end]) == "which":
                continue  # "noodles or rice dishes, which sells more": one of the values listed, never each dish
            which = _marked_after(marks, end, ("which",)) or (  # "which dessert" (but "khung giờ nào quầy bar":
                _marked_before(marks, start, ("which",)) and not _which_of_the_one_before(marks, start - 1))  # the hour)
            if language == "en":  # "which grill cook": the last of the values run together is the one asked
                if which and end in values:
                    continue
                which = which or any(b == start and _marked_before(marks, a, ("which",)) for a, b in values.items())
            label = next((str(p) for a, b, k, p in marks.mentions if k == "concept" and b == start
                          and not _said_with_each(marks, a)), None)  # not "mỗi ca đồ uống nào": each shift's drink
            # "khách hạng Vàng nào", "bàn ngoài trời nào": which customer, which table (the word before the value)
            head = label if which and label is not None else \
                self._head_concept(marks, start, end, payload, language)  # type: ignore[arg-type]
            kind_here = each_kind and each_kind_at in (None, start)
            attached = _grouped_before(marks, start) or which or kind_here or \
                _each_one_after(marks, end)  # "mấy bạn pha chế, mỗi người ...": each bartender
            if head is None and (attached or (ranking and not group_by)):  # "each hotpot", "the 3 best-selling
                head = self._members_concept(payload)  # type: ignore[arg-type]  # drinks": the dishes among them
            if head is None and kind_here:  # "mỗi loại cà phê": each of the coffees the phrase names
                head = self._rows_concept(payload)  # type: ignore[arg-type]
            concepts = {m.concept for m in cast(tuple[ValueMeaning, ...], payload)}
            listed = sum(k == "value" and bool(concepts & {m.concept for m in cast(tuple[ValueMeaning, ...], p)})
                         for _, _, k, p in marks.mentions) > 1  # "theo hạng thường, bạc, vàng": by those tiers
            if head is None and attached and not each_kind and not (listed and _grouped_before(marks, start)):
                head = self._entity_name_concept(payload)  # type: ignore[arg-type]  # "mỗi đầu bếp": each person
            if head is not None and (attached or (ranking and not group_by)):
                group_by.append(self._pick(head, available, language))
                each_kind = False
        if each_kind and not group_by:  # with a split: "theo từng hình thức thanh toán ..., tip mỗi loại" is its kinds
            raise _Unanswerable("'each kind' is said of nothing with kinds (combos, drinks, a category)")
        return group_by


class _Unanswerable(Exception):
    pass


class _ReadAs(_Unanswerable):
    """A value said of a metric that already fixes its concept names another metric: read the question again
    with that one."""

    def __init__(self, metric: str, instead: str, problem: str, span: tuple[int, int] = (0, 0)) -> None:
        super().__init__(problem)
        self.metric, self.instead, self.span = metric, instead, span


_GRAIN_OF_UNIT = {"day": "metric_time__day", "week": "metric_time__week", "month": "metric_time__month"}
# Values listed, then said to be added up: one row for them all, never one each.
_SUMMED_TOGETHER = {("together",), ("combined",), ("cong", "lai"), ("gop", "lai"), ("tinh", "chung")}


def _whole_days_if_split(period: TimeRange | None, group_by: list[str]) -> TimeRange | None:
    """"Revenue for the last 30 days" is a rolling window; "daily revenue for the last 7 days" shows seven
    whole days (and "by week over the last 8 weeks" eight whole weeks)."""
    if period is None or period.start_at is None or _GRAIN_OF_UNIT.get(period.unit or "") not in group_by:
        return period
    return period.whole_days()


def same_period_before(first: TimeRange, unit: str | None, phrase: str, now: dt.datetime,
                       count: int = 1) -> TimeRange | None:
    """``first`` moved back by ``count`` ``unit``s ("this week so far" vs "the same days of last week"):
    a period that runs to today stops at the same moment back then.

    >>> now = dt.datetime(2026, 11, 15, 19, 40)
    >>> r = same_period_before(TimeRange(start=dt.date(2026, 11, 9), end=dt.date(2026, 11, 15), unit="week"),
    ...                        "week", "last week", now)
    >>> r.start, r.end, r.end_before
    (datetime.date(2026, 11, 2), datetime.date(2026, 11, 8), datetime.datetime(2026, 11, 8, 19, 40))
    """
    if unit not in ("day", "week", "month", "quarter", "year"):
        return None
    months = {"month": 1, "quarter": 3, "year": 12}.get(unit, 0)
    days = {"day": 1, "week": 7}.get(unit, 0) * count

    def back(moment: dt.datetime) -> dt.datetime:
        return shift_months(moment, -months) if months else moment - dt.timedelta(days=days)

    def back_day(day: dt.date) -> dt.date:
        return back(dt.datetime.combine(day, dt.time())).date()

    start, end = back_day(first.start), back_day(first.end)
    if start >= first.start:
        return None
    to_now = first.end >= now.date() and first.end_before is None
    return TimeRange(start=start, end=end, phrase=phrase, unit=unit,
                     start_at=back(first.start_at) if first.start_at else None,
                     end_before=back(now) if to_now else (back(first.end_before) if first.end_before else None))


_EACH_ON_THE_ONE_BEFORE = ("week on week", "week over week", "month on month", "month over month", "day on day",
                           "day over day")
_BEFORE_EACH_OPENERS = ("from", "over", "on", "vs", "versus", "than", "against", "to", "with", "voi", "so voi")


def _change_on_the_one_before(marks: _Marks) -> list[TimeRange]:
    """"Weekly revenue for the last 6 weeks, with the % change from the week before", "doanh thu từng tuần, mỗi tuần
    tăng giảm bao nhiêu % so với tuần trước đó", "month by month, with growth over the previous month", "the
    week-on-week change for each of the last four weeks": a split by one unit of time with a change asked, and
    the unit before each row named. Its words are marked as such; the periods they name are returned (they
    are no period of the question)."""
    grains = {p for _, _, k, p in marks.mentions if k == "grain" and p in CHANGE_GRAINS}
    on_words = [(a, b) for a, b, k, _ in marks.mentions if k == "compare"
                and " ".join(marks.words[a:b]) in _EACH_ON_THE_ONE_BEFORE]
    if len(grains) != 1 or not (_said(marks, "change") or on_words):
        return []
    unit = next(iter(grains)).rsplit("__", 1)[1]
    before: list[tuple[int, int, TimeRange | None]] = [(a, b, None) for a, b in on_words]
    for a, b, kind, payload in marks.mentions:
        if kind == "same_period" and payload == unit:  # "the week before", "the previous month"
            before.append((a, b, None))
        elif kind == "time" and isinstance(payload, TimeRange) and payload.unit == unit:
            that = marks.words[b:b + 1] == ["do"]  # "tuần trước đó": the week before that one
            if that or (marks.words[a] in ("previous", "prior") and _opener_before(marks, a)):  # "over the previous
                before.append((a, b + that, payload))  # month"
    dropped = []
    for a, b, period in before:
        start = a - (a > 0 and marks.words[a - 1] == "the")
        start = start - 1 if _opener_before(marks, a) else start  # "from", "over the", "so với"
        start -= start > 0 and marks.words[start - 1: start + 1] == ["so", "voi"]
        marks.forget(start, b)
        marks.mark(start, b, "each_before", "the change on the one before")
        dropped += [period] if period is not None else []
    return dropped


def _opener_before(marks: _Marks, start: int) -> bool:
    """"From", "over", "so với" ... right before ``start``, or before the "the" there."""
    start -= start > 0 and marks.words[start - 1] == "the"
    return start > 0 and marks.words[start - 1] in _BEFORE_EACH_OPENERS


def _change_asked(marks: _Marks) -> tuple[bool, bool]:
    """How a change is asked: in percent ("percent change", "tăng hay giảm mấy %", "tăng giảm bao nhiêu phần trăm",
    or a percent said at all beside two periods), as an amount ("tăng hay giảm bao nhiêu"), or neither (the two
    periods alone: "tăng hay giảm?", "thay đổi thế nào"). "Bao nhiêu" right before the percent asks the percent,
    not an amount too."""
    said = [f" {' '.join(marks.words[a:b + 2])} " for a, b, k, _ in marks.mentions if k == "change"]  # and after
    percent = any(" percent" in w or " phan tram " in w for w in said) or any(  # "so với tuần trước bao nhiêu %"
        k == "unit" and p == "percent" for _, _, k, p in marks.mentions)
    amount = any(_AMOUNT_OF_A_CHANGE.search(w) for w in said)
    return percent, amount


_AMOUNT_OF_A_CHANGE = re.compile(r" (bao nhieu|may|how much) (?!percent|phan tram)")


def _said_whole(marks: _Marks, period: TimeRange) -> bool:
    """"cả tuần trước", "nguyên tuần trước", "the whole of last week", "all of last week": the period in full."""
    start = next((a for a, _, k, p in marks.mentions if k == "time" and p == period), None)
    if not start:  # not said as such, or its first words: nothing before it
        return False
    before = marks.words[max(0, start - 2):start]
    return (before[-1] == "ca" and marks.accents[start - 1] == _WHOLE_MARKS) or before[-1] in ("whole", "entire", "full") \
        or (before[-1] == "nguyen" and (marks.accents[start - 1] == _WHOLE_NGUYEN or not marks.marked)) \
        or before in (["all", "of"], ["whole", "of"])


def _bare_words_of_waiting(marks: _Marks) -> None:
    """"co mon nao cho lau ko", "ban nao cho mon qua lau", "ngoi lau nhat" typed bare: "lau" after waiting ("chờ",
    "đợi"), sitting ("ngồi") or "quá", "rất", or before "nhất", "hơn" is "lâu" (long), never "lẩu"."""
    if marks.marked:
        return
    for i in range(1, len(marks.words)):
        if marks.words[i] == "lau" and (marks.words[i - 1] in ("cho", "doi", "ngoi", "qua", "rat") or
                                        marks.words[i + 1:i + 2] in (["nhat"], ["hon"])):
            marks.accents[i] = _LONG_MARKS


_LONG_MARKS = accents_of("lâu")[0]
_WHOLE_MARKS = accents_of("cả")[0]
_RELATIVE_MA = accents_of("mà")[0]
_HONORIFICS = {"ban": accents_of("bạn")[0], "chi": accents_of("chị")[0]}  # before a name: "bạn Bùi Thanh Hoa" (never
# "bàn" or "bán"), "chị Hoa" (never "chi", to spend)
_WHOLE_NGUYEN = accents_of("nguyên")[0]


def _same_point_if_running(period: TimeRange, compare: TimeRange, now: dt.datetime) -> TimeRange:
    """A total so far ("covers this week vs last week") is set beside the period before up to the same
    point, not beside all of it (an average or a rate is comparable with the whole period)."""
    if period.end < now.date() or period.end_before is not None or compare.end_before is not None:
        return compare
    if period.start == period.end and compare.start == compare.end < period.start:  # "hôm nay so với chủ nhật tuần
        back = dt.datetime.combine(compare.start, now.timetz()).replace(tzinfo=now.tzinfo)  # trước": to this time
        return compare.model_copy(update={"end_before": back})
    before = same_period_before(period, compare.unit, compare.phrase, now)
    return before if before is not None and before.start == compare.start and before.end <= compare.end else compare


def _listed_with_and(marks: _Marks, spans: list[tuple[int, int, str]]) -> bool:
    """The metrics from the first of ``spans`` on run side by side and the last is joined by an "and" ("covers
    and completed orders"): the end of a list whose commas normalizing dropped."""
    for (_, end, _), (start, _, _) in zip(spans, spans[1:], strict=False):
        if end == start:
            continue
        return marks.words[end:start] in (["and"], ["va"]) and _kind(marks.marks[end]) == "conjunction"
    return False


def _mark_comparatives(marks: _Marks) -> None:
    """"ca trưa hay ca tối bán được nhiều đồ uống hơn": "nhiều ... hơn" sets the values side by side (the
    "hơn" compares them); "nhiều" says nothing more. Not with a "nào" ("nhóm nào chi nhiều hơn" may name the
    values' group by a word that is a concept too)."""
    if "nao" in marks.words:
        return
    for i, word in enumerate(marks.words):
        after = range(i + 1, min(i + 5, len(marks.words)))
        if word in ("nhieu", "it") and marks.marks[i] is None and any(
                marks.words[j] == "hon" and _kind(marks.marks[j]) == "compare" for j in after):
            marks.mark(i, i + 1, "filler")


def _leading_now(marks: _Marks) -> None:
    """"Giờ còn bao nhiêu món đang chờ", "giờ khu VIP còn mấy bàn trống", "quầy bar giờ còn mấy phiếu": "giờ"
    opening a question about what is (still, now), or right before "còn"/"đang", is now, never hours. "Bàn 12
    ngồi bao lâu rồi": how long it has been so far, a state now."""
    for i, word in enumerate(marks.words):  # "bàn nào đợi món quá 20 phút rồi": waiting so far, now
        if word == "roi" and (marks.words[max(i - 2, 0):i] == ["bao", "lau"] or marks.words[i - 1:i] == ["phut"]) \
                and _kind(marks.marks[i]) in (None, "filler") and not any(k == "time" for _, _, k, _ in marks.mentions):
            marks.forget(i, i + 1)
            marks.mark(i, i + 1, "live")
    still = bool({"con", "dang"} & set(marks.words)) or any(k == "live" for _, _, k, _ in marks.mentions)
    for i, word in enumerate(marks.words):  # or right before "còn"/"đang": "quầy tráng miệng giờ còn mấy phiếu"
        if word == "gio" and _kind(marks.marks[i]) == "unit" and (
                (i == 0 and still) or marks.words[i + 1:i + 2] in (["con"], ["dang"])):
            marks.forget(i, i + 1)
            marks.mark(i, i + 1, "live")


def _quantity_of_a_dish(marks: _Marks) -> None:
    """"Số lượng bò lúc lắc tuần này", "sl cà phê muối hôm qua": the quantity of a dish (or of a group of dishes)
    is its portions (of an ingredient, the stock's quantity, as before)."""
    values = {a: p for a, _, k, p in marks.mentions if k == "value"}
    for a, b, kind, _ in list(marks.mentions):
        dish = values.get(b)
        if kind == "filler" and marks.words[a:b] == ["so", "luong"] and dish is not None and all(
                m.semantic_model in _MENU_MODELS for m in cast(tuple[ValueMeaning, ...], dish)):
            marks.forget(a, b)
            marks.mark(a, b, "unit", "portions")


def _each_cup_is_one_cup(marks: _Marks) -> None:
    """"Quầy pha chế làm mỗi ly trung bình mấy phút": "mỗi" before a word that counts portions (ly, tô, phần) is
    one of them, as "một ly" is: per cup, never a split (cups are no kind of row)."""
    for i in range(len(marks.words) - 1):
        if marks.words[i] == "moi" and marks.marks[i] is None and marks.marks[i + 1] == _Mark("unit", "portions"):
            marks.mark(i, i + 1, "filler")


def _only_beside_a_value(marks: _Marks) -> None:
    """"Dine in only", "only takeaway orders", "only counting dine-in": "only" beside a value says again that the value is a filter (but
    "only dishes with 30+ tickets" sets a condition, which is not read)."""
    values = [(a, b) for a, b, k, _ in marks.mentions if k == "value"]
    for i, word in enumerate(marks.words):
        if word == "only" and marks.marks[i] is None and any(b == i or a == i + 1 for a, b in values):
            marks.mark(i, i + 1, "filler")
        elif marks.words[i:i + 2] in (["only", "counting"], ["counting", "only"]) and marks.free(i, i + 2) and \
                any(a == i + 2 for a, _ in values):  # "only counting dine-in"
            marks.mark(i, i + 2, "filler")


def _asked_of_a_bare_verb(marks: _Marks) -> str:
    """A question of its own after "và", "and" ("và bao nhiêu lượt đến ăn") whose only word of substance is a verb
    that names no figure (its words, or "")."""
    for i, word in enumerate(marks.words[:-2]):
        if word not in ("va", "and") or tuple(marks.words[i + 1:i + 3]) not in _HOW_MUCH:
            continue
        end = next((j for j in range(i + 3, len(marks.words)) if marks.words[j] in ("va", "and") or j in marks.commas),
                   len(marks.words))
        clause = [(a, b, k, p) for a, b, k, p in marks.mentions if i < a < end]
        if any(k in ("metric", "concept", "value") or (k == "verb" and p is not None) for _, _, k, p in clause):
            continue
        verbs = [" ".join(marks.words[a:b]) for a, b, k, _ in clause if k == "verb"]
        if verbs:
            return verbs[0]
    return ""


def _values_with_their_kinds(marks: _Marks) -> dict[int, tuple[int, set[str]]]:
    """Each value said: where it starts, where it ends and the concepts it may be a value of."""
    return {a: (b, {m.concept for m in cast(tuple[ValueMeaning, ...], p)}) for a, b, k, p in marks.mentions
            if k == "value"}


_THEY = frozenset(["they", "them", "their", "ho"])
_SIDE_BY_SIDE = (("vs",), ("versus",), ("so", "voi"))  # two things set side by side ("members vs walk-ins")


def _a_window_beside_a_shift(marks: _Marks) -> bool:
    """A window of hours and a shift set side by side ("after 9pm vs at lunch", "sau 9 giờ tối so với buổi trưa"): the
    shift right after the comparing words with the hours right before them, or the other way round."""
    shifts = _value_spans(marks, "shift")
    def hours_in(words: Sequence[str]) -> bool:
        return any(any(ch.isdigit() for ch in word) for word in words)
    for i in range(len(marks.words)):
        for said in (*_SIDE_BY_SIDE, ("compared", "with"), ("compared", "to")):
            if tuple(marks.words[i:i + len(said)]) != said:
                continue
            after = i + len(said)
            if (any(after <= a <= after + 2 for a, _ in shifts) and hours_in(marks.words[max(0, i - 4):i])) or (
                    any(i - 2 <= b <= i for _, b in shifts) and hours_in(marks.words[after:after + 4])):
                return True
    return False


_BILLS = frozenset(["paid_bills", "completed_orders", "promo_orders"])  # what a figure per bill is divided by
_COUNTED_BY_THEIR_NUMBER = {"dish": "portions_sold"}  # "số món": the portions, counted


def _a_figure_of_those_counted(marks: _Marks) -> bool:
    """The new customers, then "they" and another figure ("members who joined last month: how much have they spent",
    "khách mới tháng trước, họ chi bao nhiêu"): a figure of those customers alone, never of everyone."""
    joined = [b for _, b, k, p in marks.mentions if k == "metric" and p == "new_customers"]
    return bool(joined) and any(
        k in ("metric", "verb") and p != "new_customers" and a > joined[0] and _THEY & set(marks.words[joined[0]:a])
        for a, _, k, p in marks.mentions)


def _compared_values_of_two_kinds(marks: _Marks) -> str:
    """Two values set side by side ("members vs walk-ins", "tiền mặt so với thẻ") that no dimension holds both of
    (the words, or "")."""
    values = _values_with_their_kinds(marks)
    def alone(start: int, kinds: set[str]) -> bool:  # no other value of its kind ("Sunday dinner vs Saturday dinner")
        return not any(kinds & other for a, (_, other) in values.items() if a != start)
    for start, (end, kinds) in values.items():
        for gap in _SIDE_BY_SIDE:
            after = values.get(end + len(gap))
            if tuple(marks.words[end:end + len(gap)]) == gap and after is not None and alone(start, kinds) and \
                    alone(end + len(gap), after[1]):
                return " ".join(marks.words[start:after[0]])
    return ""


def _from_one_value_to_another(marks: _Marks) -> str:
    """"From ready to served", "từ lúc ra món tới lúc bưng ra": two values of one kind said as the two ends of
    something (the words, or "")."""
    values = _values_with_their_kinds(marks)
    for start, (end, kinds) in values.items():
        after = values.get(end + 1)
        if start > 0 and marks.words[start - 1] in ("from", "tu") and marks.words[end:end + 1] in (["to"], ["den"], ["toi"]) \
                and after is not None and kinds & after[1]:
            return " ".join(marks.words[start - 1:after[0]])
    return ""


def _between_two_values(marks: _Marks) -> None:
    """"So sánh ... giữa ca trưa và ca tối": the two values compared, "between" says nothing more (never "split a
    bill between card and cash": a bill paid both ways)."""
    if not marks.says(("so", "sanh"), ("compare",), ("comparing",)):
        return
    values = {a: b for a, b, k, _ in marks.mentions if k == "value"}
    for i, word in enumerate(marks.words[:-1]):
        end = values.get(i + 1)
        if word in ("giua", "between") and marks.marks[i] is None and end is not None and \
                marks.words[end:end + 1] in (["va"], ["and"], ["voi"]) and end + 1 in values:
            marks.mark(i, i + 1, "filler")


def _only_said_of_values(marks: _Marks) -> bool:
    """"Chỉ tính mang về và giao hàng", "takeaway and delivery only": the values listed are what is counted, one
    row for them all (but compared, "so sánh", "vs": a row each)."""
    if any(k == "compare" for _, _, k, _ in marks.mentions) or marks.says(("vs",), ("versus",), ("so", "sanh"),
                                                                          ("compare",), ("compared",)):
        return False
    values = [(a, b) for a, b, k, _ in marks.mentions if k == "value"]
    return any((b < len(marks.words) and marks.words[b] == "only") or marks.words[max(0, a - 2):a] == ["chi", "tinh"]
               or (a > 0 and marks.words[a - 1] == "chi" and marks.accents[a - 1] in ("", _ONLY_MARKS))
               for a, b in values)


_ONLY_MARKS = accents_of("chỉ")[0]


def _shifts_counted_of_a_kind(marks: _Marks) -> None:
    """"Which bartender worked the most dinner shifts", "how many lunch shifts did Tú work": the shifts of that kind
    counted, never a list of them; "dinner" is the shift filtered, "shifts" the count."""
    worked = any(k == "verb" and marks.words[a] in ("work", "worked", "working") for a, _, k, _ in marks.mentions)
    for a, b, kind, payload in list(marks.mentions):
        if kind != "value" or b - a < 2 or marks.raw[b - 1] not in ("shift", "shifts") or not worked or not any(
                m.concept == "shift" for m in cast(tuple[ValueMeaning, ...], payload)):
            continue
        if _kind(marks.marks[a - 1] if a else None) == "superlative" or marks.words[max(0, a - 2):a] == ["how", "many"]:
            marks.forget(a, b)
            marks.mark(a, b - 1, "value", payload)
            marks.mark(b - 1, b, "metric", "shifts_worked")


def _leading_number(marks: _Marks) -> None:
    """"so khach moi thang 10 ...", typed without marks: "số" (the number of), never "so" (compared with), which
    needs something before it to compare."""
    if marks.words[:1] == ["so"] and not marks.marked and any(m[:3] == (0, 1, "compare") for m in marks.mentions):
        marks.forget(0, 1)
        marks.mark(0, 1, "filler")


def _mark_split_superlative(marks: _Marks) -> None:
    """Vietnamese wraps the noun in its superlative: "nhiều phiếu chờ nhất", "ít khách nhất", "đông khách nhất"."""
    if not any(kind == "superlative" for _, _, kind, _ in marks.mentions):
        return
    for i, word in enumerate(marks.words):
        if word == "it" and _kind(marks.marks[i]) == "filler" and "nhat" in marks.words[i + 2:i + 5]:
            marks.forget(i, i + 1)  # "ai làm ít giờ nhất" typed bare: "ít", never the English "it"
        if marks.marks[i] is None and word in ("nhieu", "it", "dong"):
            marks.mark(i, i + 1, "superlative", word != "it")
    wrapped = None  # "ít giờ công nhất": "nhất" closes the "ít" before it (the least), never the most
    for a, b, kind, payload in sorted(marks.mentions):
        if kind == "superlative" and marks.words[a:b] in (["nhieu"], ["it"], ["dong"]):
            wrapped = payload
        elif kind == "superlative" and marks.words[a:b] == ["nhat"] and wrapped is not None:
            marks.forget(a, b)
            marks.mark(a, b, "superlative", wrapped)
            wrapped = None
    for index, (a, b, kind, _) in enumerate(marks.mentions):  # "nhiều khách nhất": how many people
        noun = " ".join(marks.words[a:b])
        if kind == "concept" and noun in UNITS and _kind(marks.marks[a - 1] if a else None) == "superlative" \
                and b < len(marks.words) and marks.words[b] == "nhat":
            marks.mentions[index] = (a, b, "unit", UNITS[noun])
            for i in range(a, b):
                marks.marks[i] = _Mark("unit", UNITS[noun])


def _counted_in_a_superlative(marks: _Marks) -> set[str]:
    """The concepts a Vietnamese superlative wraps ("nhiều bàn nhất": the most tables): what the ranking counts."""
    return {str(p) for a, b, k, p in marks.mentions if k == "concept" and a and marks.words[a - 1] in ("nhieu", "it")
            and b < len(marks.words) and marks.words[b] == "nhat"}


def _mark_grain_words(marks: _Marks) -> None:
    """"in each of the last 4 weeks": a split by the period's unit; "5 ngày có doanh thu cao nhất", "the 3 best
    days": a split by day."""
    for i, word in enumerate(marks.words):
        if marks.marks[i] is not None:
            continue
        nxt = next((m for m in marks.marks[i + 1:] if m is None or m.kind != "filler"), None)
        if word in ("each", "every", "moi", "tung") and nxt is not None and nxt.kind == "time" and \
                isinstance(nxt.payload, TimeRange) and nxt.payload.unit in _GRAIN_OF_UNIT and \
                (nxt.payload.start_at is not None or nxt.payload.end > nxt.payload.start):  # "each of the next 3 days"
            marks.mark(i, i + 1, "grain", _GRAIN_OF_UNIT[nxt.payload.unit])
        elif word in ("ngay", "day") and (_marked_before(marks, i, ("top",)) or _ranked_after_a_metric(marks, i)):
            marks.mark(i, i + 1, "grain", "metric_time__day")  # "ngày (có) doanh thu cao nhất"
    for index, (a, b, kind, _) in enumerate(marks.mentions):  # "our busiest hour": a split by hour, ranked
        grain = _GRAIN_AFTER_SUPERLATIVE.get(" ".join(marks.words[a:b]))
        if grain and kind in ("unit", "concept") and _ranks_a_time(marks, a):
            marks.mentions[index] = (a, b, "grain", grain)
            for i in range(a, b):
                marks.marks[i] = _Mark("grain", grain)
    for i, word in enumerate(marks.words):
        grain = _GRAIN_AFTER_SUPERLATIVE.get(word)
        if grain and marks.marks[i] is None and _ranks_a_time(marks, i):
            marks.mark(i, i + 1, "grain", grain)
    if any(k == "grain" for _, _, k, _ in marks.mentions):  # "weekly revenue trend": the series split by week is
        for i, word in enumerate(marks.words):  # the trend ("xu hướng" too); said with no split, left unread
            if (word in ("trend", "trends") and marks.marks[i] is None) or \
                    (marks.words[i:i + 2] == ["xu", "huong"] and marks.free(i, i + 2)):
                marks.mark(i, i + 1 + (word == "xu"), "filler")


def _concept_by_itself(marks: _Marks) -> None:
    """"Station by station", "supplier by supplier": one split, said twice; the first is read with the second."""
    for a, b, kind, payload in list(marks.mentions):
        if kind == "concept" and b < len(marks.words) and marks.words[b] == "by" and \
                any(m == (b, b + 1 + (b - a), "concept", payload) for m in marks.mentions):
            marks.forget(a, b)
            marks.mark(a, b, "filler")


_RISE_MARKS = {"tang": accents_of("tăng")[0], "giam": accents_of("giảm")[0]}


def _rise_of_a_metric(marks: _Marks) -> None:
    """"Món nào tăng số phần bán được nhiều nhất" (typed bare, "tang" is also "tầng", a floor): "tăng" or "giảm"
    right before a metric ranked by "nhiều nhất" / "mạnh nhất" ranks by its rise or its fall."""
    for a, b, kind, _ in list(marks.mentions):
        if kind != "metric" or a == 0 or marks.words[a - 1] not in _RISE_MARKS or \
                (marks.marked and marks.accents[a - 1] != _RISE_MARKS[marks.words[a - 1]]):
            continue
        if any(k == "superlative" and c == b and marks.words[c:d] in (["nhieu", "nhat"], ["manh", "nhat"])
               for c, d, k, _ in marks.mentions):
            marks.forget(a - 1, a)
            marks.mark(a - 1, a, "growth", marks.words[a - 1] == "tang")


def _fall_in_a_comparison(marks: _Marks) -> None:
    """"Đơn giao hàng hôm nay có giảm so với hôm qua không?", "số đơn hôm nay giảm bao nhiêu so với hôm qua": "giảm"
    said after "có" or right before "so với" (or "bao nhiêu so với") in a comparison is the fall, never a discount."""
    if not any(k == "compare" for _, _, k, _ in marks.mentions):
        return
    for a, b, kind, _ in list(marks.mentions):
        if kind not in ("verb", "metric") or marks.words[a:b] != ["giam"] or \
                (marks.marked and marks.accents[a] != _RISE_MARKS["giam"]):
            continue
        after = marks.words[b:b + 4]
        if (a > 0 and marks.words[a - 1] == "co") or after[:2] == ["so", "voi"] or after[:3] == ["bao", "nhieu", "so"]:
            marks.forget(a, b)
            marks.mark(a, b, "change")


def _each_before_its_value(marks: _Marks, start: int) -> bool:
    """"For each dinner service": "each", a value, then its concept at ``start``: a split by the concept."""
    return any(k == "value" and b == start and a > 0 and marks.words[a - 1] in ("each", "every")
               for a, b, k, _ in marks.mentions)


def _group_of_the_listed(marks: _Marks) -> None:
    """"Khách hạng bạc với hạng vàng, nhóm nào chi nhiều hơn": "nhóm nào" after values listed asks which of them,
    never for a menu category ("nào" is then left unread: the question is handed over)."""
    listed = _values_per_concept(marks)
    for a, b, kind, payload in list(marks.mentions):
        if kind == "concept" and marks.words[a:b] == ["nhom"] and b < len(marks.words) and marks.words[b] == "nao" \
                and any(n > 1 for concept, n in listed.items() if concept != payload):
            marks.forget(a, b)
            marks.mark(a, b, "filler")


def _rank_beside_an_order(marks: _Marks) -> None:
    """"Xếp hạng các món theo doanh thu từ thấp đến cao", "rank dishes by sales, lowest first": the order said is
    the ranking's ("rank" alone: every row, highest first)."""
    ranks = [(a, b) for a, b, k, _ in marks.mentions if k == "superlative" and " ".join(marks.words[a:b]) in RANK_WORDS]
    if ranks and any(k == "superlative" and " ".join(marks.words[a:b]) not in RANK_WORDS
                     for a, b, k, _ in marks.mentions):
        for a, b in ranks:
            marks.forget(a, b)
            marks.mark(a, b, "filler")


def _ranks_a_time(marks: _Marks, index: int) -> bool:
    """"the busiest hour", "our best day", "our biggest revenue day": a time ranked (but "the most hours" is
    how many)."""
    if index > 0 and _kind(marks.marks[index - 1]) == "superlative" and marks.words[index - 1] in _RANKS_A_TIME:
        return True
    metric = next((a for a, b, k, _ in marks.mentions if k == "metric" and b == index), None)
    return metric is not None and metric > 0 and _kind(marks.marks[metric - 1]) == "superlative"


def _ranked_after_a_metric(marks: _Marks, index: int) -> bool:
    """"ngày (có) doanh thu cao nhất": the day, ranked by the metric said after it."""
    start = index + 1 + (marks.words[index + 1:index + 2] == ["co"])
    end = next((b for a, b, k, _ in marks.mentions if k == "metric" and a == start), None)
    return end is not None and _kind(marks.marks[end] if end < len(marks.words) else None) == "superlative"


_RANKS_A_TIME = ("busiest", "quietest", "best", "worst", "slowest", "strongest", "weakest", "peak")
# A time ranked with nothing named: "our worst day last month", "which weekday is our weakest" by revenue; "our
# busiest hours", "which day most busy" by the number of orders, as examples.yaml says it.
_MONEY_RANKS = ("best", "worst", "strongest", "weakest", "slowest", "tot nhat", "te nhat", "kem nhat")
_BUSY_RANKS = ("busiest", "the busiest", "most busy", "the most busy", "quietest", "the quietest",
               *PEAK_WORDS)  # "peak hour", "giờ cao điểm": the busiest


def _time_ranked_by(marks: _Marks, ranks: tuple[str, ...]) -> bool:
    """A time split ("which day", "busiest hour of the day", "weakest weekday") ranked by one of ``ranks``."""
    return any((k == "grain" and str(p).startswith("metric_time")) or (k == "concept" and p in DATE_PART_CONCEPTS.values())
               for _, _, k, p in marks.mentions) and any(
        k == "superlative" and " ".join(marks.words[a:b]) in ranks for a, b, k, _ in marks.mentions)


def _two_compared_with_no_figure(marks: _Marks) -> bool:
    """Two periods, or two values of one kind, said to be compared ("compare", "so sánh", "vs", "so với") and no
    figure named at all."""
    if not marks.says(("compare",), ("so", "sanh"), ("vs",), ("versus",), ("so", "voi"), ("compared",)):
        return False
    if any(k == "unit" and p != "vnd" for _, _, k, p in marks.mentions):  # "khách hạng vàng tháng này đến bao
        return False  # nhiêu lượt so với tháng trước": a count of something, never the money
    periods = sum(k == "time" for _, _, k, _ in marks.mentions)
    concepts = Counter(m.concept for _, _, k, p in marks.mentions if k == "value"
                       for m in {v.concept: v for v in cast(tuple[ValueMeaning, ...], p)}.values())
    return periods == 2 or (periods <= 1 and any(n == 2 for n in concepts.values()))


_MENU_MODELS = ("menu_items", "categories", "kitchen_stations")  # what portions are portions of
_SELLING_WORDS = ("ban duoc bao nhieu", "ban duoc", "ban ra", "ban", "did we sell", "we sell", "sell", "sold",
                  "we sold", "have we sold", "selling")
_COME_IN = ("came in", "come in")
_BRINGS_PEOPLE = ("bring in", "brought in", "mang lai", "came in", "come in")  # "which day brought in the most
# guests", "how many guests came in": people, not money
_GRAIN_AFTER_SUPERLATIVE = {"hour": "metric_time__extract_hour", "day": "metric_time__day",
                            "weekday": "metric_time__extract_dow", "week": "metric_time__week",
                            "month": "metric_time__month"}


def _break_down_around(marks: _Marks) -> None:
    """"Break yesterday's dinner shift down by hour": "break ... down" around what is split, as "break down"."""
    for i, word in enumerate(marks.words):
        end = next((j for j in range(i + 2, min(i + 10, len(marks.words) - 1)) if marks.words[j:j + 2] == ["down", "by"]),
                   None)
        if word == "break" and end is not None and marks.marks[i] is None and marks.marks[end] is None:
            marks.mark(i, i + 1, "filler")
            marks.mark(end, end + 1, "filler")


def _came_how_many_times(marks: _Marks) -> None:
    """"khách vàng tuần này đến bao nhiêu lượt": "đến" (came) before how many visits says nothing more."""
    for i in range(len(marks.words) - 2):
        how_many = 3 if marks.words[i + 1:i + 3] == ["bao", "nhieu"] else 2 if marks.words[i + 1] == "may" else 0
        if marks.words[i] == "den" and how_many and marks.words[i + how_many:i + how_many + 1] == ["luot"] and \
                marks.marks[i] is None:
            marks.mark(i, i + 1, "filler")
    thresholds = {a: b for a, b, k, _ in marks.mentions if k == "threshold"}
    for i, word in enumerate(marks.words):  # "khách nào đến hơn 5 lần": their visits (bills), never the guests
        end = thresholds.get(i + 1)
        if word != "den" or end is None or marks.words[end:end + 1] not in (["lan"], ["luot"]):
            continue
        guests_came = (i - 1, i + 1, "metric", "guests") in marks.mentions and marks.words[i - 1] == "khach"
        if marks.marks[i] is None or (i, i + 1, "metric", "guests") in marks.mentions or guests_came:  # (never
            marks.forget(i - guests_came, i + 1)  # "không đến")
            marks.mark(i, i + 1, "metric", "completed_orders")
        who = next((j for j in range(i + 2, len(marks.words)) if marks.words[j - 1:j + 1] == ["la", "ai"]), None)
        if guests_came and who is not None:  # "khách đến hơn 3 lần ... là ai": who the customers are
            marks.forget(who - 1, who + 1)
            marks.mark(i - 1, i, "filler")
            marks.mark(who - 1, who, "filler")
            marks.mark(who, who + 1, "concept", "customer")
        elif guests_came:
            marks.mark(i - 1, i, "concept", "customer")
    for start, _, kind, condition in list(marks.mentions):  # "which customers visited more than 5 times", "guests who
        came = start - 2 if marks.words[max(0, start - 2):start] in _CAME_IN else start - 1  # came in more than 3
        if kind != "threshold" or getattr(condition, "unit", None) != "count" or \
                marks.words[max(0, came):start] not in _CAME:  # times": their visits (bills), each customer's; never
            continue  # the guests, nor the staff "who" would be
        who = came - 1 if marks.words[came - 1:came] == ["who"] else None
        first = came if who is None else who
        noun = first - 1 if first and marks.words[first - 1] in ("customer", "guest") else None
        first = first if noun is None else noun
        if first == came or any(k == "metric" for a, _, k, _ in marks.mentions if a < first) or not all(
                m is None or m.kind in ("verb", "concept", "value") or m in _PEOPLE_WHO_CAME
                for m in marks.marks[first:start]):
            continue
        marks.forget(first, start)
        if noun is not None and who is not None:  # "guests who came": who is asked, the guests say of whom
            marks.mark(noun, noun + 1, "filler")
        marks.mark(who if who is not None else first, came, "concept", "customer")
        marks.mark(came, start, "metric", "completed_orders")


_CAME_IN = (["came", "in"], ["come", "in"])
_CAME = (["came"], ["come"], ["visited"], ["visit"], ["dined"], *_CAME_IN)
_PEOPLE_WHO_CAME = (_Mark("metric", "customers_served"), _Mark("metric", "guests"))


def _over_a_period(marks: _Marks) -> None:
    """"over lunch yesterday", "over the weekend": "over" before a period or a shift says when, not more than;
    "revenue from the VIP rooms", "revenue from members vs walk-ins": "from" before a value or a split says which
    rows."""
    for i, word in enumerate(marks.words[:-1]):
        after = i + 2 if marks.words[i + 1] == "the" and i + 2 < len(marks.words) else i + 1
        nxt = marks.marks[after]  # "over the last month": the period, "the" between
        if word == "over" and marks.marks[i] is None and nxt is not None and (nxt.kind == "time" or (
                nxt.kind == "value" and any(m.concept == "shift" for m in nxt.payload))):  # type: ignore[attr-defined]
            marks.mark(i, i + 1, "filler")
        if word == "from" and marks.marks[i] is None and _kind(marks.marks[after]) in ("value", "concept"):
            marks.mark(i, i + 1, "filler")


_TIME_WORDS = ("today", "yesterday", "tonight", "tomorrow", "week", "month", "year", "last", "this", "next",
               "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "weekend", "morning",
               "lunch", "dinner", "since", "until", "days", "weeks", "months")


def _mended_typos(question: str, unknown: Sequence[str], vocabulary: set[str], language: str) -> str:
    """The question with each unknown word of four letters or more whose two swapped neighbouring letters make
    the one known word ("waht", "mcuh", "revneue") spelled so, or in English one letter left out ("revenu",
    "chek"; not in Vietnamese, where "chua" would become "chuan"); a word with no such fix, or two, is left.

    >>> _mended_typos("how mcuh cash, waht now", ["mcuh", "waht"], {"much", "what", "cash"}, "en")
    'how much cash, what now'
    >>> _mended_typos("avg chek, revenu", ["chek", "revenu"], {"check", "revenue"}, "en")
    'avg check, revenue'
    >>> _mended_typos("how many resevations", ["resevation"], {"reservation"}, "en")
    'how many reservations'
    """
    for word in unknown:
        if len(word) < 4 or not word.isascii() or not word.isalpha() or word.lower() in _REAL_WORDS:
            continue
        fixes = {word[:i] + word[i + 1] + word[i] + word[i + 2:] for i in range(len(word) - 1)}
        if language == "en":
            fixes |= {word[:i] + letter + word[i:] for i in range(len(word) + 1) for letter in string.ascii_lowercase}
            fixes.discard(word + "s")  # a plural is another word ("Saturday" is not "Saturdays"), never a typo
        fixes &= vocabulary
        if len(fixes) == 1:  # the word as typed, its plural too ("resevations": read as "resevation"; but never
            fix = fixes.pop()  # "manages" as "managers": a verb, not a word with its end left out)
            plural = f"{word}s" if fix.startswith(word) else f"{fix}s"
            question = re.sub(rf"\b{re.escape(word)}s\b", plural, question, flags=re.IGNORECASE)
            question = re.sub(rf"\b{re.escape(word)}\b", fix, question, flags=re.IGNORECASE)
    return question


# English words the parser may not know that are words, never typos of one it knows ("last" is not "least")
_REAL_WORDS = frozenset(["last", "first", "next", "past", "time", "more", "than", "from", "over", "once", "late",
                         "early", "same", "other", "still", "left", "open", "close", "closed", "many"])


def _after_commas(text: str, count: int) -> frozenset[int]:
    """The indices of the words a comma and a space come before ("5,000" is one number, not two parts);
    nothing when the parts do not add up to the question's words.

    >>> sorted(_after_commas("Ca tối nay được bao nhiêu khách, bill trung bình bao nhiêu?", 12))
    [7]
    """
    if ", " not in text:  # most questions: nothing to normalize a second time
        return frozenset()
    parts = [len(words_of(normalize(part))) for part in text.split(", ")]
    if sum(parts) != count:
        return frozenset()
    return frozenset(sum(parts[:i + 1]) for i in range(len(parts) - 1))


def _combo_said_of_a_combo(filters: list[ValueFilter], concept_of: Callable[[str], str | None]) -> list[ValueFilter]:
    """The combos (a set) named beside dishes that are combos by name are those dishes, not a second group: "Set gia
    đình 2-3 người bán được bao nhiêu set" counts that set."""
    dishes = [v for f in filters if concept_of(f.dimension) == "dish" and not f.exclude for v in f.values]
    if not dishes or not all({"set", "combo"} & set(words_of(normalize(v))) for v in dishes):
        return filters
    return [f for f in filters if not (not f.exclude and (concept_of(f.dimension), f.values) in
                                        (("category", ("COMBO",)), ("combo", ("true",))))]


# Said after the question word that closes a clause: "còn bàn nào trống không em?", "... chưa anh?".
_CHATTER_AFTER = frozenset(["em", "anh", "chi", "a", "ha", "nhi", "nha", "nhe", "vay", "ak", "ah"])


def _figures_said(marks: _Marks, metric_words: dict[tuple[str, ...], str]) -> list[tuple[int, int]]:
    """Where the question names a figure: a metric's words, or a value that is also a metric's name ("nhập hàng":
    goods received; "khách không tới": no-shows)."""
    return [(a, b) for a, b, k, _ in marks.mentions
            if k == "metric" or (k == "value" and tuple(marks.words[a:b]) in metric_words)]


def _what_right_after_a_metric(marks: _Marks, metric_words: dict[tuple[str, ...], str]) -> None:
    """"Hôm nay nhập hàng gì?": "gì" right after a figure's words asks what things (the goods received), a list of
    rows, not the figure ("món gì", "lý do gì" name the rows asked for, and so are read); so after a value that
    names a figure ("nhập hàng", goods received)."""
    ends = {b for _, b in _figures_said(marks, metric_words)}  # (a value that names none, "nước gì": a drink)
    for i, word in enumerate(marks.words):
        if word == "gi" and i in ends and _kind(marks.marks[i]) in (None, "filler"):
            marks.forget(i, i + 1)
            marks.mark(i, i + 1, "listing")


def _closing_question_word(marks: _Marks) -> None:
    """"hôm nay có bao nhiêu đơn bị hủy không?", "có hoàn tiền bill nào không, tổng bao nhiêu?", "còn bàn nào trống
    không em": "có/còn/nào ... không" (or "chưa": yet) closing a clause asks a question; that "không" negates nothing.
    So does "sao" closing a comparison ("so với cùng kỳ tháng trước sao": how does it compare), never "tại sao";
    "luôn" closing a clause is "as well"."""
    start = 0
    for end in range(len(marks.words)):
        if end + 1 in marks.commas or end == len(marks.words) - 1:  # a clause ends here
            last = end
            while last > start and marks.words[last] in _CHATTER_AFTER:  # "... không em?": the asking closes it
                last -= 1
            _mark_closing_word(marks, start, last)
            start = end + 1


def _mark_closing_word(marks: _Marks, start: int, last: int) -> None:
    """The question word at ``last`` closing the clause that begins at ``start``, marked as a filler."""
    word, clause = marks.words[last], marks.words[start:last]
    if last == start or marks.marks[last] is not None:
        return
    how = word == "sao" and clause[-1] not in ("tai", "vi") and {"so", "chenh", "khac"} & set(clause)
    if how or word in ("luon", "thoi", "too"):  # "cho anh số món với tiền luôn", "top 5 thôi", "tips too": as well,
        marks.mark(last, last + 1, "filler")  # only (but "tính luôn mấy bàn đang ngồi": including)
    elif word in ("khong", "chua") and {"co", "con", "nao", "hon"} & set(clause):  # "có món nào bị void chưa":
        # yet? "cao hơn tuần trước không": is it?
        marks.mark(last, last + 1, "filler")
        for i, said in enumerate(clause, start):  # "có bàn nào trống không": any, not which ones
            if said == "nao" and marks.marks[i] is None and {"co", "con"} & set(marks.words[start:i]):
                marks.mark(i, i + 1, "filler")


def _values_per_concept(marks: _Marks) -> Counter[str]:
    """How many values of each concept the question names ("cash vs card vs e-wallet": three payment methods)."""
    return Counter(m.concept for _, _, k, p in marks.mentions if k == "value" for m in p)  # type: ignore[attr-defined]


def _percent_of_a_metric(marks: _Marks) -> bool:
    """A percent said right before a metric ("food cost là bao nhiêu % doanh số", "what % of sales"): a ratio of
    two metrics, not a change between two periods."""
    metric_starts = {a for a, _, k, _ in marks.mentions if k == "metric"}
    return any(k == "unit" and p == "percent" and (b in metric_starts or (
        b < len(marks.words) and marks.words[b] in ("of", "cua", "tren") and b + 1 in metric_starts))
        for _, b, k, p in marks.mentions)


def _said(marks: _Marks, kind: str) -> bool:
    """The question has a phrase of this kind ("share", "listing" ...)."""
    return any(k == kind for _, _, k, _ in marks.mentions)


def _kind(mark: _Mark | None) -> str | None:
    return mark.kind if mark is not None else None


def _articles_are_not_cards(marks: _Marks) -> None:
    """In an English question "the" is the article, not "thẻ" (a card), and "to" the preposition, not "tô" (a
    bowl): "how did yesterday compare to last Sunday" asks for no portions."""
    for index, (a, b, kind, _) in enumerate(marks.mentions):
        if (kind, marks.words[a:b]) in (("value", ["the"]), ("unit", ["to"])):
            marks.mentions[index] = (a, b, "filler", None)
            marks.marks[a] = _Mark("filler")


def _split_subject_and_verb(marks: _Marks, concept_entries: dict[tuple[str, ...], Entry],
                            verbs: dict[tuple[str, ...], object]) -> None:
    """"Which dishes sold the most": after "which" or "top 5", a metric phrase made of a concept and a verb
    ("dishes sold") is the rows ranked and what they did, not the count of dishes sold; the concept as typed
    ("đồ uống nào bán chạy nhất": "bán" is selling, never "bàn", a table). After a superlative the verb may
    come first ("the top 5 most voided dishes": the dishes, ranked by their voids)."""
    def concept_at(start: int, end: int) -> Entry | None:
        entry = concept_entries.get(tuple(marks.words[start:end]))
        return entry if entry is not None and entry.spelled_as(marks.accents[start:end], bare_is_bare=marks.marked) else None

    rewritten = []
    for a, b, kind, payload in marks.mentions:
        split, verb_first = None, False
        which = a > 0 and marks.words[a - 1] in WHICH_WORDS and marks.marks[a - 1] in (None, _Mark("filler"))
        if kind == "metric" and (which or _marked_before(marks, a, ("which", "top"))):
            split = next((i for i in range(a + 1, b) if concept_at(a, i) and tuple(marks.words[i:b]) in verbs), None)
        if kind == "metric" and split is None and _marked_before(marks, a, ("superlative",)):
            split = next((i for i in range(a + 1, b) if tuple(marks.words[a:i]) in verbs and concept_at(i, b)
                          and marks.words[i] not in SINGLE_MARKERS), None)  # "highest spend per guest": a ratio
            verb_first = split is not None
        if split is None:
            rewritten.append((a, b, kind, payload))
            continue
        if which:
            marks.marks[a - 1] = _Mark("which")
        concept_span, verb_span = ((split, b), (a, split)) if verb_first else ((a, split), (split, b))
        concept = str(concept_entries[tuple(marks.words[slice(*concept_span)])].payload)
        rewritten += sorted([(*concept_span, "concept", concept),
                             (*verb_span, "verb", verbs[tuple(marks.words[slice(*verb_span)])])])
        for i in range(a, b):
            marks.marks[i] = _Mark("concept") if concept_span[0] <= i < concept_span[1] else _Mark("verb")
    marks.mentions = rewritten


def _verb_after_a_person(marks: _Marks, verbs: dict[tuple[str, ...], object]) -> None:
    """"Which server served the most guests", "who served the most tables": a word that names a value and is a verb
    too ("served", a dish's status), said right after a person, is what the person did, never that value."""
    rewritten: list[tuple[int, int, str, object]] = []
    for a, b, kind, payload in sorted(marks.mentions, key=lambda m: m[0]):
        words = tuple(marks.words[a:b])
        before = rewritten[-1] if rewritten else None
        if kind == "value" and words in verbs and before is not None and before[1] == a and (
                (before[2] == "concept" and before[3] in _PEOPLE_CONCEPTS) or (before[2] == "value" and any(
                    m.semantic_model == "staff" for m in cast(tuple[ValueMeaning, ...], before[3])))):
            kind, payload = "verb", verbs[words]
            for j in range(a, b):
                marks.marks[j] = _Mark("verb", payload)
        rewritten.append((a, b, kind, payload))
    marks.mentions = rewritten


def _relative_ma(marks: _Marks, metric_words: dict[tuple[str, ...], str]) -> None:
    """"mấy bàn đặt trước mà khách không đến" typed bare: "ma" right before a figure (or a value that names one,
    "khách không tới") is "mà" (that ...), never "mã" (a code: "mã GIAM10", "mã khuyến mãi")."""
    starts = {a for a, _ in _figures_said(marks, metric_words)}
    times = [(a, b) for a, b, k, _ in marks.mentions if k == "time"]
    for a, b, kind, _ in list(marks.mentions):  # "khách quen tháng trước ma tháng này chưa quay lại": between periods
        between_periods = any(e == a for _, e in times) and any(s == b for s, _ in times)
        if kind == "concept" and marks.words[a:b] == ["ma"] and (b in starts or between_periods) and \
                marks.accents[a] in ("", _RELATIVE_MA):
            marks.forget(a, b)
            marks.mark(a, b, "filler")


def _not_held(marks: _Marks) -> str:
    """Something no metric counts, said in words that each mean something here: "split bills" (a bill paid in
    parts), "clocked in late" (a shift's start is not recorded, only the clock-in). The question is handed over,
    never answered as the bills or the late kitchen tickets."""
    return next((" ".join(phrase) for phrase in _NOT_HELD if marks.says(phrase)), "")


_NOT_HELD = (("split", "bill"), ("clock", "in", "late"), ("clocked", "in", "late"), ("came", "in", "late"),
             ("come", "in", "late"), ("late", "for", "work"), ("late", "for", "their", "shift"), ("vao", "ca", "tre"),
             ("vao", "ca", "muon"), ("di", "lam", "tre"), ("di", "lam", "muon"), ("cham", "cong", "tre"))


_WEEKDAY_CONCEPTS = ("weekday", "weekday_name")
_SPENT_BY_THEM = frozenset(["chi", "chi tieu", "tieu", "tieu het", "xai het"])  # the customers' verbs of spending
_MANAGER_ROLE, _CANCELLED, _VOIDED = "MGR", "CANCELLED", "VOID"  # staff.role_code, orders.status (VOID: "voided by a
# manager", descriptions.yaml)


def _who_voided(marks: _Marks) -> None:
    """"How many bills did managers void", "hóa đơn bị quản lý hủy": a role right before a bill's status is who put
    the bills in it, never the role of the bills' servers; a bill a manager cancels is voided (VOID: "voided by a
    manager")."""
    statuses = {a: (a, b, p) for a, b, k, p in marks.mentions if k == "value" and any(
        getattr(m, "concept", None) == "order_status" for m in cast(tuple[ValueMeaning, ...], p))}
    for a, b, kind, payload in list(marks.mentions):
        if kind == "value" and b in statuses and all(
                getattr(m, "concept", None) == "role" for m in cast(tuple[ValueMeaning, ...], payload)):
            marks.forget(a, b)
            marks.mark(a, b, "filler")
            if any(m.value == _MANAGER_ROLE for m in cast(tuple[ValueMeaning, ...], payload)):
                start, end, meanings = statuses[b]
                voided = tuple(dataclasses.replace(m, value=_VOIDED) if m.value == _CANCELLED else m
                               for m in cast(tuple[ValueMeaning, ...], meanings))
                marks.forget(start, end)
                marks.mark(start, end, "value", voided)


def _honorific_before_a_name(marks: _Marks) -> None:
    """"Bạn Bùi Thanh Hoa", "ban Vo Van Son", "chi Bui Thanh Hoa": "bạn" or "chị", said before a person's name as
    "anh" is, is how the person is called, never "bàn" (a table), "bán" (to sell) or "chi" (to spend)."""
    for a, _, kind, payload in list(marks.mentions):
        if a == 0 or kind != "value" or marks.words[a - 1] not in _HONORIFICS or \
                marks.accents[a - 1] not in ("", _HONORIFICS[marks.words[a - 1]]) or \
                not any(m.semantic_model in ("staff", "customers") for m in cast(tuple[ValueMeaning, ...], payload)):
            continue
        marks.forget(a - 1, a)
        marks.mark(a - 1, a, "filler")


_PEOPLE_CONCEPTS = ("staff", "server", "manager")
_EITHER_WAY_MOVES = ("moved the most", "moved most", "changed the most", "changed most", "bien dong nhieu nhat",
                     "thay doi nhieu nhat")
_SOLD_CONCEPTS = ("dish", "category")


def _named_just_before(marks: _Marks, a: int, concepts: tuple[str, ...], skip: tuple[str, ...], *,
                       through_values: bool = False, head_words: tuple[str, ...] = ()) -> bool:
    """The words before ``a`` (past the kinds in ``skip``, and, ``through_values``, past the values that narrow
    them) name one of ``concepts``, as a concept or a value, or start with one of ``head_words`` ("món")."""
    def names_one(i: int) -> bool:
        return any(s0 <= i < e0 and (p in concepts or marks.words[s0] in head_words or (
            isinstance(p, tuple) and any(getattr(m, "concept", None) in concepts for m in p)))
            for s0, e0, k, p in marks.mentions if k in ("concept", "value"))

    before = a - 1
    while before >= 0 and (_kind(marks.marks[before]) in skip or (
            through_values and _kind(marks.marks[before]) == "value" and marks.words[before] not in head_words
            and not names_one(before))):  # (but a dish named itself: "tôm rang me bị hủy")
        before -= 1
    return names_one(before)


def _after_a_dish(marks: _Marks, a: int, through_values: bool = False) -> bool:
    """The words before ``a`` name dishes or a category ("món nào", "combo", "món tráng miệng"), or, through the
    values that narrow them, dishes ("món bếp nguội")."""
    return _named_just_before(marks, a, _SOLD_CONCEPTS, ("which", "top"), through_values=through_values,
                              head_words=("mon",))


# A value said right after the rows it happens to is that figure of theirs: "món tráng miệng bị hủy" (the dishes
# voided, never orders cancelled), "nhà cung cấp nào giao hàng nhiều lần nhất" (a supplier's deliveries).
_VOIDED_WORDS = frozenset([("bi", "huy"), ("huy",)])
_DELIVERED_WORDS = frozenset([("giao", "hang"), ("giao",), ("delivered",), ("deliver",)])


def _figure_said_of_rows(marks: _Marks, a: int, b: int) -> str | None:
    """The metric a value phrase says of the rows named just before it, or None."""
    words = tuple(marks.words[a:b])
    if words in _VOIDED_WORDS and (_after_a_dish(marks, a, through_values=True) or _after_a_dish(
            marks, _before_a_period(marks, a), through_values=True) or (
            marks.words[b:b + 2] == ["mon", "nao"])):  # "tối nay hủy món nào": the dishes voided
        return "voided_lines"
    if words in _DELIVERED_WORDS and _named_just_before(marks, a, ("supplier",), ("which", "filler")):
        return "deliveries"
    return None


def _before_a_period(marks: _Marks, a: int) -> int:
    """Where the words before ``a`` start when a period said right before it is left out ("chạo tôm tháng này bị
    hủy": the dish)."""
    return next((s0 for s0, e0, k, _ in marks.mentions if k == "time" and e0 == a), a)


def _sell_after_dish(marks: _Marks) -> None:
    """"Món nào bán nhiều nhất", "combo nào bán ít nhất", "danh mục nào bán tốt nhất": "bán" after a dish or
    a category (or "món nào") is selling, not "bàn" (a table); typed with its accent, "bán" is never the
    table, so it is left unmarked for this rule to read. A value said of the rows before it is their figure
    (``_figure_said_of_rows``)."""
    rewritten = []
    for a, b, kind, payload in marks.mentions:
        if kind == "concept" and payload == "table_no" and marks.words[a:b] == ["ban"] and \
                marks.accents[a] in ("", _ACUTE) and (  # never "bàn" typed with its mark: "mấy bàn, bao nhiêu khách"
                _after_a_dish(marks, a) or _how_many_after(marks, b)
                or " ".join(marks.words[b:b + 2]) in _SELLING_SUPERLATIVES or marks.words[b:b + 1] == ["chay"]
                or (_kind(marks.marks[a - 1] if a else None) == "which"
                    and marks.words[b:b + 2] in (["nhieu", "hon"], ["it", "hon"], ["nhieu", "nhat"], ["it", "nhat"]))):
            # "loại nào bán chạy hơn", "nhân viên nào bán nhiều nhất"
            kind, payload = "verb", "portions_sold"
            marks.marks[a] = _Mark("verb", payload)
        elif kind == "value" and (figure := _figure_said_of_rows(marks, a, b)) is not None:
            kind, payload = "metric", figure
            for i in range(a, b):
                marks.marks[i] = _Mark(kind, payload)
        rewritten.append((a, b, kind, payload))
    for a, word in enumerate(marks.words):
        if word == "ban" and marks.marks[a] is None and marks.accents[a] == _ACUTE:  # "ngày nào bán ế nhất"
            marks.marks[a] = _Mark("verb", "portions_sold")
            rewritten.append((a, a + 1, "verb", "portions_sold"))
    marks.mentions = sorted(rewritten, key=lambda m: m[0])


_ACUTE = "\u0301"
_SELLING_SUPERLATIVES = ("e nhat", "chay nhat")  # said of selling only, never of a table


def _how_many_after(marks: _Marks, b: int) -> bool:
    """"hôm nay bán bao nhiêu ly nước", "ban may phan": "bán" right before "how many" is selling ("ở bàn mấy",
    said last, is which table)."""
    return marks.words[b:b + 2] == ["bao", "nhieu"] or (marks.words[b:b + 1] == ["may"] and b + 1 < len(marks.words))


def _two_of_one_kind_before(marks: _Marks, index: int) -> bool:
    """Two values of one kind are named before ``index`` ("khách hạng bạc với hạng vàng, nhóm nào ..."), or a
    phrase that names both ("khách vãng lai với khách thành viên, bên nào ...")."""
    kinds = Counter(c for a, _, k, p in marks.mentions if k == "value" and a < index
                    for c in {m.concept for m in cast(tuple[ValueMeaning, ...], p)})
    return any(n >= 2 for n in kinds.values()) or any(
        k == "concept" and b < index and {"voi", "va", "vs"} & set(marks.words[a:b]) for a, b, k, _ in marks.mentions)


def _absorb_which_and_markers(marks: _Marks) -> None:
    """Group markers ("theo", "by") and which-words ("nào", "which") count when next to what they mark:
    a concept or a grain ("theo danh mục", "món nào"), a value ("món combo nào"), or — for "by" — the
    metric a ranking is by ("busiest by number of orders")."""
    markers = {m.split()[-1] for m in GROUP_MARKERS}
    listed = sum(k == "value" for _, _, k, _ in marks.mentions)
    for i, word in enumerate(marks.words):  # "coffee and tea, which one sells more": "one" is the which
        if word == "one" and i and marks.words[i - 1] == "which" and marks.marks[i] is None:
            marks.mark(i, i + 1, "filler")
        if word in ("ben", "nhom", "loai") and marks.words[i + 1:i + 2] == ["nao"] and \
                _kind(marks.marks[i]) in (None, "filler") and marks.marks[i + 1] is None and \
                _two_of_one_kind_before(marks, i):  # "Heineken với bia Sài Gòn, loại nào bán chạy hơn": which
            if marks.marks[i] is None:  # of the two named
                marks.mark(i, i + 1, "filler")
            marks.mark(i + 1, i + 2, "which")
    for _, b, kind, _ in list(marks.mentions):  # "bàn số mấy": which table (a number asked of each)
        if kind == "concept" and marks.words[b - 1] == "so" and marks.words[b:b + 1] == ["may"] and \
                _kind(marks.marks[b]) in (None, "filler"):
            marks.forget(b, b + 1)
            marks.mark(b, b + 1, "which")
    for i, word in enumerate(marks.words):
        mark = marks.marks[i]
        if mark is not None and mark.kind != "filler":
            continue
        nxt = next((m for m in marks.marks[i + 1:] if m is None or m.kind != "filler"), None)  # "by the area"
        prev = marks.marks[i - 1] if i > 0 else None
        if word in WHICH_WORDS and ((nxt and nxt.kind in ("concept", "grain", "top", "value")) or
                                    (prev and prev.kind in ("concept", "value")) or
                                    (word == "which" and nxt and nxt.kind == "verb" and listed > 1) or  # "noodles
                                    # vs rice this month, which sells more": one of the values listed
                                    (word == "which" and nxt and nxt.kind == "metric")):  # "which members have a
            # birthday": the rows of what it counts, when its words name them (else handed over, never a total)
            marks.marks[i] = _Mark("which")
        elif word == "by" and prev is not None and prev.kind == "verb" and nxt and nxt.kind == "value":
            marks.marks[i] = _Mark("filler")  # "dishes ordered by gold members": who did it, never a split
        elif word in markers and nxt and nxt.kind in ("concept", "grain", "value"):
            marks.marks[i] = _Mark("group")
        elif word in ("by", "theo") and nxt and (nxt.kind in ("metric", "unit") or (  # "the most by value", "top 5
                nxt.kind == "average" and _next_kind_after(marks, i + 1, "average") == "metric")):  # by average cook time"
            marks.marks[i] = _Mark("basis")
        elif word == "tren" and (marks.words[i + 1:i + 3] == ["bao", "nhieu"] or marks.words[i + 1:i + 2] == ["may"]):
            marks.marks[i] = _Mark("filler")  # "giảm hết bao nhiêu tiền, trên bao nhiêu bill": on how many
        elif word == "each" and (nxt is None or nxt.kind not in ("concept", "grain", "value", "time", "metric")) and any(
                m is not None and m.kind in ("concept", "grain", "value") for m in marks.marks[:i]):
            marks.marks[i] = _Mark("filler")  # "payments by method, with the tips on each", "how many deliveries
            # each made": each of the split or of the values listed


def _next_kind_after(marks: _Marks, i: int, kind: str) -> str | None:
    """The kind of the first mark after the run of ``kind`` (and fillers) that starts at ``i``."""
    nxt = next((m for m in marks.marks[i:] if m is None or m.kind not in (kind, "filler")), None)
    return nxt.kind if nxt is not None else None


def _mark_exclusions(marks: _Marks) -> None:
    """"Không tính đồ uống và tráng miệng", "except the hotpots": the values after an exclusion word are left
    out. An exclusion word with no value after it is not accounted for (the question is not answered)."""
    for mention in [m for m in marks.mentions if m[2] == "exclude"]:
        start, end = mention[0], mention[1]
        found = False
        for a, _, k, _ in sorted(m for m in marks.mentions if m[0] >= end):
            if k == "value":
                marks.excluded.add(a)
                found = True
            elif k not in ("filler", "conjunction") and not (k in ("concept", "unit") and not found):  # "trừ các món
                # lẩu", "không tính đơn giao hàng"
                break
        if not found:
            marks.forget(start, end)


def _current_beside_the_same_point_before(marks: _Marks, ranges: list[TimeRange], now: dt.datetime) -> list[TimeRange]:
    """"Top 5 món tăng mạnh nhất so với cùng kỳ tháng trước", "up or down versus the same point last month", "sales
    vs last week": the period before (or its same point), with no period of its own said, sets the current one so
    far beside it."""
    same = [b for _, b, k, p in marks.mentions if k == "same_period" and p is None]
    compared = [b for a, b, k, _ in marks.mentions if k == "compare" and " ".join(marks.words[a:b]) in _COMPARED_WITH] + \
        [i + 1 for i, w in enumerate(marks.words) if w in ("vs", "versus")]  # "sales vs last week"
    said = same if same else compared
    if len(ranges) != 1 or len(said) != 1 or ranges[0].unit not in ("week", "month", "quarter", "year") or \
            (ranges[0].start, ranges[0].end) != period_range(ranges[0].unit, 1, now.date()):
        return ranges
    if not any(a == said[0] and k == "time" and p == ranges[0] for a, _, k, p in marks.mentions):
        return ranges  # "cùng kỳ" (or "so với") said of that very period, right before it
    if not same and marks.words[said[0] - 1] in ("vs", "versus"):  # "vs" joins the two, compared
        marks.forget(said[0] - 1, said[0])
        marks.mark(said[0] - 1, said[0], "compare")
    start, end = period_range(ranges[0].unit, 0, now.date())
    return [TimeRange(start=start, end=end, unit=ranges[0].unit), ranges[0]]


def _second_period(marks: _Marks, ranges: list[TimeRange], now: dt.datetime) -> TimeRange | None:
    """The period a comparison sets beside the first: a second period named ("tháng 10 so với tháng 9"),
    the same days of it ("so với cùng kỳ tuần trước"), or the one before ("last week vs the week before")."""
    same = [p for _, _, k, p in marks.mentions if k == "same_period"]
    if len(ranges) == 2:
        if not same and _periods_joined_only(marks) and any(k in ("top", "superlative") for _, _, k, _ in marks.mentions):
            raise _Unanswerable("two periods are named beside a ranking: ranked over both together, or in each, is "
                                "unclear")  # "đồ uống nào bán chạy nhất thứ 7 và chủ nhật vừa rồi"
        if not same and not _set_side_by_side(marks):
            raise _Unanswerable("two periods are named, not compared: each may be said of something else "
                                "(the customers who joined last month, their visits this month)")
        first, second = ranges
        if not same and second.unit == "year" and first.unit in ("day", "week", "month", "quarter") and \
                second.start.year < first.start.year and (second.start.month, second.end.month) == (1, 12):
            same_before = same_period_before(first, "year", second.phrase, now)  # "March vs last year": last March
            if same_before is not None:
                return same_before
        if not same and _days_of_this_unit(first, second):  # "thứ 7 tuần này vs tuần trước": last week's Saturday
            return same_period_before(first, second.unit, second.phrase, now) or ranges[1]
        if not same:
            return ranges[1]
        one_day_each = first.start == first.end and second.start == second.end  # "hôm nay so với CN tuần trước cùng giờ"
        moved = same_period_before(first, "day", second.phrase, now, count=(first.start - second.start).days) \
            if one_day_each else same_period_before(first, second.unit, second.phrase, now)
    elif same and ranges and (day := _weekday_before(marks, ranges[0])) is not None:
        moved = TimeRange(start=day, end=day, phrase=f"the {WEEKDAYS_EN[day.weekday()]} before",
                          unit="day")  # "20/10 vs the Monday before": the 19th
    elif same and ranges and isinstance(same[0], str):
        moved = same_period_before(ranges[0], same[0], same[0], now)
    elif same:
        raise _Unanswerable("'the same period' needs a period to compare with")
    else:
        return None
    if moved is None:
        raise _Unanswerable("the same period before this one is unclear")
    return moved


def _weekday_before(marks: _Marks, first: TimeRange) -> dt.date | None:
    """"Women's Day 20/10 vs the Monday before": the latest Monday before the one day compared (a week back when
    it is a Monday too: "last Friday vs the Friday before it")."""
    said = next((marks.words[a + 1] for a, b, k, _ in marks.mentions if k == "same_period" and b - a == 3
                 and marks.words[a + 1] in WEEKDAYS_EN), None)
    if said is None or first.start != first.end:
        return None
    back = (first.start.weekday() - WEEKDAYS_EN.index(said)) % 7 or 7
    return first.start - dt.timedelta(days=back)


_THIS_UNIT = {"week": ("tuan nay", "this week"), "month": ("thang nay", "this month")}
_CAME_TO_EAT = frozenset(["den an", "toi an", "ghe", "ghe an", "den", "toi", "came in", "came", "visited", "come in"])


def _days_of_this_unit(first: TimeRange, second: TimeRange) -> bool:
    """"Thứ 7 chủ nhật tuần này vs tuần trước", "the 5th this month vs last month": days said of this week (month),
    set beside a whole week (month), are set beside the same days of it."""
    said = _THIS_UNIT.get(second.unit or "", ())
    whole = (second.start, second.end) == period_range(str(second.unit), 0, second.end) if said else False
    return whole and any(first.phrase.endswith(f" {p}") for p in said) and \
        (first.end - first.start) < (second.end - second.start)


_PER_DAY = ("daily", "per day", "a day", "moi ngay", "mot ngay", "hang ngay", "each day")
_COMPARED_WITH = ("so voi", "compared to", "compared with", "against")  # not "so sánh", "compare": they take both


def _one_span_split_by_its_unit(period: TimeRange, compare: TimeRange, group_by: list[str]) -> bool:
    """Two whole periods of one unit, next to each other, split by that unit ("tháng 9 với tháng 10, mỗi
    tháng"): one span, a row for each."""
    grains = [g for g in group_by if g.startswith("metric_time")]
    first, second = sorted((period, compare), key=lambda r: r.start)
    return period.unit is not None and period.unit == compare.unit and grains == [f"metric_time__{period.unit}"] \
        and first.end_before is None and second.end_before is None and first.start_at is None \
        and (second.start - first.end).days == 1


def _said_how_long(marks: _Marks) -> bool:
    """"Lâu nhất", "longest", "mấy phút": the question ranks or asks by a duration."""
    return any((k == "superlative" and " ".join(marks.words[a:b]) in _LONGEST) or (k == "unit" and p == "minutes")
               for a, b, k, p in marks.mentions)


_LONGEST = ("lau nhat", "longest", "the longest")


def _phrases_in(words: list[str]) -> list[str]:
    """Every run of one to three words, the longest first: "waited longest for food" holds "longest",
    "còn dùng được ít ngày nhất" holds "ít ngày nhất" (the fewest) before "nhất"; "sinh nhật" (a birthday) is one
    word, never "nhất"."""
    words = " ".join(words).replace("sinh nhat", "sinh_nhat").split()
    return [" ".join(words[i:i + size]) for size in (3, 2, 1) for i in range(len(words) - size + 1)]


def _compared_with_first(marks: _Marks) -> bool:
    """"So với Chủ nhật tuần trước thì hôm nay ...", "compared with last week, how is this week": the period
    after the comparison word comes first, the one asked about after it."""
    compares = [b for a, b, k, _ in marks.mentions if k == "compare" and " ".join(marks.words[a:b]) in _COMPARED_WITH]
    times = [a for a, _, k, _ in marks.mentions if k == "time"]
    if not compares or not times or compares[0] > times[0]:
        return False
    return all(_kind(marks.marks[i]) in ("filler", "same_period")  # "so với [hôm] Chủ nhật", "so với cùng kỳ năm
               for i in range(compares[0], times[0]))  # ngoái thì tháng này"


def _set_side_by_side(marks: _Marks) -> bool:
    """Two periods compared: a comparison is said ("so với", "vs", "than"), or the periods stand together
    ("tháng 10 và tháng 9", "this week and last week"); never "vs" set between two values ("tối thứ 6 khu VIP vs
    trong nhà tháng này": the areas side by side, on Fridays of this month)."""
    if any(k == "change" or (k == "compare" and not _said_between_two_values(marks, a, b))
           for a, b, k, _ in marks.mentions):
        return True
    times = [(a, b) for a, b, k, _ in marks.mentions if k == "time"]
    if len(times) == 2 and any(marks.words[i] in ("vs", "versus") and not _said_between_two_values(marks, i, i + 1)
                               for i in range(times[0][1], times[1][0])):
        return True  # "Q3 revenue vs Q2"
    return _periods_joined_only(marks)


def _said_between_two_values(marks: _Marks, start: int, end: int) -> bool:
    """The words right between two different values ("khu VIP vs trong nhà"; never "ca trưa nay so với ca trưa chủ
    nhật tuần trước": one value, two periods)."""
    before = {str(p) for _, b, k, p in marks.mentions if k == "value" and b == start}
    after = {str(p) for a, _, k, p in marks.mentions if k == "value" and a == end}
    return bool(before) and bool(after) and not before & after


def _periods_joined_only(marks: _Marks) -> bool:
    """Two periods that stand together with no comparison said ("tháng 10 và tháng 9", "this week and last
    week"); never side by side ("hôm nay chủ nhật": today, which is a Sunday, said twice, is one day)."""
    if any(k in ("compare", "change") for _, _, k, _ in marks.mentions):
        return False
    times = [(a, b) for a, b, k, _ in marks.mentions if k == "time"]
    between = [k for a, _, k, _ in marks.mentions if times and times[0][1] <= a < times[-1][0]]
    return len(times) == 2 and times[0][1] < times[1][0] and all(k in ("conjunction", "filler") for k in between) \
        and not {"vs", "versus", "ma"} & set(marks.words[times[0][1]:times[1][0]])  # ("tháng trước mà tháng này
    # chưa quay lại": a clause, never the two months together)


def _first_before(marks: _Marks, start: int, skip: tuple[str, ...]) -> int:
    """The first word before ``start`` whose kind is not in ``skip`` (-1: none)."""
    i = start - 1
    while i >= 0 and _kind(marks.marks[i]) in skip:
        i -= 1
    return i


def _said_served(marks: _Marks) -> bool:
    """"Ra món", "lên món": a dish coming out of the kitchen is said."""
    return marks.says(("ra", "mon"), ("len", "mon"))


def _by_day_spans(marks: _Marks) -> list[tuple[int, int]]:
    """Where a day is said as what a figure is per ("mỗi ngày", "daily") or a weekday split ("day of the week")."""
    return [(a, b) for a, b, k, p in marks.mentions if (k == "grain" and (
        " ".join(marks.words[a:b]) in _PER_DAY or p == "metric_time__extract_dow")) or (k, p) == ("concept", "weekday")]


def _which_of_the_one_before(marks: _Marks, i: int) -> bool:
    """The "nào" at ``i`` asks which of the concept right before it ("khung giờ nào"), not of what follows."""
    return marks.words[i] == "nao" and any(k in ("concept", "grain") and b == i for _, b, k, _ in marks.mentions)


def _marked_before(marks: _Marks, start: int, kinds: tuple[str, ...], skip: tuple[str, ...] = ()) -> bool:
    """The first word before ``start`` whose kind is not in ``skip`` is one of ``kinds``."""
    i = _first_before(marks, start, skip)
    return i >= 0 and _kind(marks.marks[i]) in kinds


_RATE_WORDS = (("ti", "le"), ("rate", "of"), ("rate",), ("percentage", "of"), ("percentage",))
_EACH = frozenset(["moi", "tung", "each", "every"])
_DONE = frozenset(["da", "duoc", "bi"])  # Vietnamese markers of what is done (đã), received (được), suffered (bị)


def _ranks_within_each(marks: _Marks) -> bool:
    """"3 món bán chạy nhất của mỗi danh mục", "the best-selling dish in each category": a split said with
    "each" beside a ranking of another split, which a single ranking over both would answer wrongly."""
    ranked = any(k in ("superlative", "top") for _, _, k, _ in marks.mentions)
    return ranked and any(k in ("concept", "grain") and _said_with_each(marks, a) for a, _, k, _ in marks.mentions)


def _said_with_each(marks: _Marks, start: int) -> bool:
    """"mỗi danh mục" (the phrase starts with "each"), "in each category" (the word before it is "each")."""
    return marks.words[start] in _EACH or (start > 0 and marks.words[start - 1] in _EACH)


def _verb_after_and(marks: _Marks) -> str | None:
    """"Labour hours and cost by role": a word read as a verb ("what did waste cost us") right after "and", with
    no metric after it, is a second figure asked for; answering the first alone would drop it."""
    kinds = [(a, b, k, p) for a, b, k, p in marks.mentions if k != "filler"]
    for i in range(1, len(kinds)):
        (a, b, kind, payload), after = kinds[i], kinds[i + 1][2] if i + 1 < len(kinds) else None
        if kinds[i - 1][2] == "conjunction" and kind == "verb" and payload is None and after not in ("metric", "value", "unit"):
            return " ".join(marks.words[a:b])
    return None


def _split_by_a_measure(marks: _Marks) -> str | None:
    """"No-show rate by party size": "by" before a metric splits by a measure, which no dimension is; with a
    ranking asked ("top 10 customers by spending") it is the order, and fine."""
    if any(k in ("superlative", "top") for _, _, k, _ in marks.mentions):
        return None
    for a, b, kind, _ in marks.mentions:
        if kind == "metric" and a > 0 and marks.words[a - 1] in ("by", "theo"):
            return " ".join(marks.words[a:b])
    return None


# "Từ đầu quý", "since the start of the month": a period up to now, said by its start (the words are the period's)
_SINCE_ITS_START = re.compile(r" (?:tu dau (?:tuan|thang|quy|qui|nam)|since the (?:start|beginning) of) ")


def _says_so_far(marks: _Marks) -> bool:
    text = f" {' '.join(marks.raw)} "
    return any(f" {phrase} " in text for phrase in SO_FAR_PHRASES) or _SINCE_ITS_START.search(text) is not None


def _which_before(marks: _Marks, start: int) -> bool:
    """"Which" (or "what") before ``start``, with only values and fillers between: "which terrace tables"."""
    i = _first_before(marks, start, ("value", "filler"))
    return i >= 0 and marks.words[i] in ("which", "what")


def _ranked_before(marks: _Marks, start: int) -> bool:
    """"top 10 customers", "our 5 most frequent gold-tier customers": a ranking word before the phrase,
    with only ranking words, values and fillers between. A "nào" after a concept ranks that concept: in "món nào
    giá bán cao nhất" the price is the figure."""
    i = _first_before(marks, start, ("superlative", "value", "filler"))
    return i >= 0 and (_kind(marks.marks[i]) == "top" or _kind(marks.marks[i]) == "which" and not (
        marks.words[i] == "nao" and i > 0 and _kind(marks.marks[i - 1]) == "concept"))


def _ranked_or_best_before(marks: _Marks, start: int) -> bool:
    """As :func:`_ranked_before`, or a superlative of rows right before, values between: "the top seller", "our
    best dishes", "top delivery dishes" (but "the most dishes" is how many)."""
    end = next((b for a, b, _, _ in marks.mentions if a == start), start + 1)
    best = _first_before(marks, start, ("value",))
    return _ranked_before(marks, start) or (best >= 0 and _kind(marks.marks[best]) == "superlative"
                                            and marks.words[best] in _BEST_OF_ROWS) or \
        (marks.words[start] == "what" and _kind(marks.marks[end] if end < len(marks.words) else None)
         == "superlative")  # "what sold best": the dishes, ranked


_BEST_OF_ROWS = ("top", "best", "worst", "biggest", "slowest", "weakest", "strongest", "one",  # "one": number one
                 "performing")  # "the best performing dishes"
_WHICH_OF_ROWS = ("frequent", "loyal", "valuable", "biggest", "regular", "top")  # "our most frequent customers",
# "our top customers": which ones
_VISITS = (["visit"], ["visited"], ["ghe"], ["spent"], ["spend"], ["chi"])  # "who visits us most often", "who
# spent the most", "ai ghé nhiều nhất": the customers
_WAITED = (["waited"], ["wait"], ["waiting"], ["cho"])
_SHOW_THE = frozenset([("show", "me", "the"), ("list", "the"), ("show", "the"), ("see", "the")])
_ROWS_IN = (["in"], ["for"], ["on"], ["trong"])  # "top 5 dishes in delivery orders": the dishes of those orders


def _grouped_before(marks: _Marks, start: int) -> bool:
    """A group marker before the phrase, fillers between: "mỗi loại đồ uống", "each kind of drink"."""
    return _marked_before(marks, start, ("group",), skip=("filler",))


def _past_a_period(marks: _Marks, end: int) -> int:
    """Where the words go on after a period said at ``end`` ("mấy bạn pha chế tuần này, ..."), or ``end``."""
    return next((b for a, b, k, _ in marks.mentions if a == end and k == "time"), end)


def _each_one_after(marks: _Marks, end: int) -> bool:
    """"Each one" said right after a role, or after a period said after it ("mấy bạn pha chế tuần này, mỗi người")."""
    return _marked_after(marks, _past_a_period(marks, end), ("each_one",))


def _without_bounds(words: Sequence[str]) -> list[str]:
    """The words without "at least" / "at most", a bound and never a ranking ("bills had at least one drink")."""
    out: list[str] = []
    for word in words:
        if word in ("least", "most") and out[-1:] == ["at"]:
            out.pop()
        else:
            out.append(word)
    return out


def _marked_after(marks: _Marks, end: int, kinds: tuple[str, ...]) -> bool:
    mark = marks.marks[end] if end < len(marks.words) else None
    return mark is not None and mark.kind in kinds


# "còn bao nhiêu" (how many are left) names the stock only when nothing else is counted: "bếp còn bao nhiêu
# phiếu chưa làm xong" asks for the pending tickets
_WHAT_IS_LEFT = {("con", "bao", "nhieu"), ("how", "much", "is", "left"), ("have", "left"), ("do", "we", "have", "left")}


def _taking_how_long(marks: _Marks) -> None:
    """"How long are drinks taking at the bar": "taking" said with "how long" is the time it takes, never the
    takings."""
    if not marks.says(("how", "long")):
        return
    for a, b, kind, _ in list(marks.mentions):
        if kind == "metric" and marks.words[a:b] in (["taking"], ["takes"], ["take"]):
            marks.forget(a, b)
            marks.mark(a, b, "filler")


def _drop_what_is_left_beside_a_metric(marks: _Marks) -> None:
    metrics = [(a, b) for a, b, k, _ in marks.mentions if k == "metric"]
    left = {(a, b) for a, b in metrics if tuple(marks.words[a:b]) in _WHAT_IS_LEFT}
    if left and len(left) < len(metrics):
        marks.mentions = [(a, b, "filler", None) if k == "metric" and (a, b) in left else (a, b, k, p)
                          for a, b, k, p in marks.mentions]


def _each_of_one_shift_is_each_day(group_by: list[str], filters: list[ValueFilter],
                                   period: TimeRange | None, counts_people: bool) -> list[str]:
    """"mỗi ca tối tuần này", "each dinner shift last week": a split by the shift, filtered to one shift, over
    days is a split by day (one row per dinner), not one row for the week's dinners together. People counted
    once each ("how many cooks clocked in for each shift this week") are counted on each shift of each day:
    the week's lunches together would count everyone who worked any of them. With no period, all the data: "ca
    trưa nào đông khách nhất từ trước tới giờ" is each day's lunch."""
    ever = period is None and not any(g.startswith("metric_time") for g in group_by)
    shifts = _shifts_split_over_days(group_by, period) or \
        ([g for g in group_by if g.endswith("shift__shift_code")] if ever else [])
    if not shifts:
        return group_by
    one = {f.dimension for f in filters if f.dimension in shifts and len(f.values) == 1 and not f.exclude}
    if one:
        return list(dict.fromkeys("metric_time__day" if g in one else g for g in group_by))
    return ["metric_time__day", *group_by] if counts_people and not ever else group_by


def _one_shift_ranked(group_by: list[str], filters: list[ValueFilter], period: TimeRange | None) -> bool:
    """"Ca nào tuần trước có hóa đơn trung bình cao nhất": ranking the shifts over several days ranks each shift
    of each day (last Saturday's lunch), not lunch against dinner summed over the days (the two listed, or one
    day, are the shifts themselves)."""
    shifts = _shifts_split_over_days(group_by, period)
    return len(shifts) == 1 and not any(f.dimension in shifts and not f.exclude for f in filters)


def _shifts_split_over_days(group_by: list[str], period: TimeRange | None) -> list[str]:
    """The shift splits of a question over several days split by no date, or none."""
    if period is None or period.start == period.end or any(g.startswith("metric_time") for g in group_by):
        return []
    return [g for g in group_by if g.endswith("shift__shift_code")]


_PER_ONE = frozenset(["mot", "moi", "per", "each"])
# Superlatives that judge rather than measure: the worst of a figure where less is better is its highest.
_JUDGING = frozenset(["best", "worst", "tot nhat", "te nhat", "kem nhat", "weakest"])


_ONE_BILL = frozenset([("bill",), ("order",), ("check",), ("hoa", "don"), ("don",), ("bill", "nao"), ("don", "nao"),
                       ("hoa", "don", "nao")])
_SIZE_WORDS = frozenset(["biggest", "largest", "highest", "smallest", "lowest", "lon nhat", "to nhat", "cao nhat",
                         "nho nhat", "thap nhat"])


_PEOPLE_WHO_DO = (("guest",), ("customer",), ("people",))
_WHAT_PEOPLE_DO = frozenset(["use", "order", "spend", "book", "pay"])


def _people_before_what_they_do(marks: _Marks) -> None:
    """"Which day do customers use promo codes the most": the people asked about with "do" are who does what the
    metric after them counts (the promo orders), never a figure of their own beside it (but "how many customers
    ordered ...": those customers counted)."""
    people = [(a, b) for a, b, k, p in marks.mentions if k == "metric" or (k == "unit" and p == "people")]
    for a, end in people:
        if tuple(marks.words[a:end]) in _PEOPLE_WHO_DO and marks.before(a) in ("do", "did", "does") and any(
                k == "metric" and start == end and marks.words[start] in _WHAT_PEOPLE_DO
                for start, _, k, _ in marks.mentions):
            marks.forget(a, end)
            marks.mark(a, end, "filler")


def _guests_listed_with_figures(marks: _Marks) -> None:
    """"Doanh thu và khách hôm nay", "dt, số đơn, khách": "khách" listed after a figure, with "và"/"với" or a
    comma between, is one more figure, the guests (never the customers as a whole, dropped)."""
    for a, b, kind, _ in list(marks.mentions):
        if kind != "concept" or marks.words[a:b] != ["khach"] or b < len(marks.words) and \
                _kind(marks.marks[b]) in ("concept", "value", "metric", "verb"):
            continue  # ("doanh thu và khách hàng bạc": the silver members' revenue)
        joined = a - 1 if marks.words[a - 1:a] in (["va"], ["voi"]) else a if a in marks.commas else -1
        if joined > 0 and _kind(marks.marks[joined - 1]) == "metric":
            marks.forget(a, b)
            marks.mark(a, b, "metric", "guests")


def _one_bill_by_its_size(marks: _Marks) -> bool:
    """"What's the biggest bill so far today", "bill lớn nhất hôm nay": the largest single bill, one row, never the
    table or the day with the most revenue."""
    sizes = [(a, b) for a, b, k, _ in marks.mentions if k == "superlative" and " ".join(marks.words[a:b]) in _SIZE_WORDS]
    bills = [(a, b) for a, b, k, _ in marks.mentions if k in ("metric", "unit") and tuple(marks.words[a:b]) in _ONE_BILL]
    figures = [a for a, _, k, _ in marks.mentions if k == "metric"]  # "the biggest single tip": one payment's
    return any((sb <= ba and set(marks.words[sb:ba]) <= {"single"}) or (bb <= sa and set(marks.words[bb:sa]) <= _ITS_SIZE)
               for sa, sb in sizes for ba, bb in bills) or any(  # "the largest single bill"
        marks.words[sb:a] == ["single"] for _, sb in sizes for a in figures) or any(  # "the single biggest tip"
        marks.words[max(0, sa - 1):sa] == ["single"] for sa, _ in sizes) or bool(sizes and marks.says(
            ("on", "a", "single", "bill"), ("on", "one", "bill"), ("on", "a", "single", "order")))  # "the biggest
    # discount on a single bill": one bill's


_ITS_SIZE = frozenset(["co", "gia", "tri", "with", "the"])  # "đơn có giá trị lớn nhất": the bill of the largest value


def _how_many_times(marks: _Marks) -> bool:
    """"Tháng này nhập rau mấy lần", "how many times did we throw out milk": a count of the times, never the amount."""
    return marks.says(("may", "lan"), ("bao", "nhieu", "lan"), ("how", "many", "time"))


def _said_how_often(marks: _Marks) -> bool:
    """"nhiều lần nhất", "most often", "thường xuyên nhất": a ranking by the number of times."""
    return any(k == "superlative" and " ".join(marks.words[a:b]) in HOW_OFTEN_WORDS for a, b, k, _ in marks.mentions)


def _listed_after(marks: _Marks, start: int) -> bool:
    """The words at ``start`` close a list of figures: "tips and refunds", "tiền tip, hoàn tiền", "and the no-show
    count"."""
    if marks.words[start - 1:start] == ["the"] and _kind(marks.marks[start - 1]) in ("filler", None):
        start -= 1
    return start in marks.commas or (start > 0 and marks.words[start - 1] in ("and", "va", "voi", "&") and
                                     _kind(marks.marks[start - 1]) in ("conjunction", "filler", None))


def _asked_after_and(marks: _Marks, start: int) -> bool:
    """"Bookings per week and how many of them were no-shows", "số lượt đặt bàn và bao nhiêu lượt không đến": the
    words at ``start`` are asked of their own after "and" and "how many" (only words of no substance between)."""
    i = start
    while i > 0 and start - i < 7 and _kind(marks.marks[i - 1]) in ("filler", "unit", "conjunction", None):
        i -= 1
        if marks.words[i] in ("and", "va"):
            return _how_many_in(marks.words[i + 1:start], (*_HOW_MANY, ("so", "luot"), ("so", "lan"), ("number", "of")))
    return False


_HOW_MANY = (("how", "many"), ("bao", "nhieu"))


def _how_many_in(words: list[str], asking: tuple[tuple[str, str], ...]) -> bool:
    """The words ask how many: one of the ``asking`` pairs, or "mấy"."""
    return any(tuple(words[j:j + 2]) in asking for j in range(len(words))) or "may" in words


def _listed_before_a_metric(marks: _Marks, end: int) -> bool:
    """The words ending at ``end`` open a list of figures: "cancelled vs no-show bookings", "hủy và không đến"."""
    return marks.words[end:end + 1] in (["and"], ["va"], ["vs"], ["versus"], ["or"], ["hay"], ["&"]) and \
        _kind(marks.marks[end]) in ("conjunction", "filler", None) and \
        any(k == "metric" and a == end + 1 for a, _, k, _ in marks.mentions)


def _right_after_the_share(marks: _Marks) -> set[int]:
    """Where the words right after "what share of", "bao nhiêu phần trăm" start (a period, or "our", "all" or
    "the", may come between)."""
    ends = {b for _, b, k, _ in marks.mentions if k == "share"}
    periods = {a: b for a, b, k, _ in marks.mentions if k == "time"}
    for end in list(ends):  # "what share of yesterday's orders": the period said between the share and the count
        while end in periods or (end < len(marks.words) and (  # "what share of our orders", "chiếm bao nhiêu %
                (marks.words[end] in ("our", "all", "the", "tong") and _kind(marks.marks[end]) in ("filler", None))
                or (marks.words[end] == "percent" and _kind(marks.marks[end]) == "unit"))):  # tổng đơn"
            end = periods.get(end, end + 1)
            ends.add(end)
    return ends


def _said_right_after_the_share(marks: _Marks) -> list[str]:
    """The metrics named right after "what share of" ("what share of portions sold are combos")."""
    ends = _right_after_the_share(marks)
    return [str(p) for a, _, k, p in marks.mentions if k == "metric" and a in ends]


def _listed_after_its_kind(marks: _Marks, start: int, payload: object) -> bool:
    """"Khách hạng vàng, bạc, thường trung bình ...": the last of values of one kind listed, never a verb."""
    dims = {m.dimension for m in cast(tuple[ValueMeaning, ...], payload)}
    return any(k == "value" and (b == start or (b == start - 1 and _kind(marks.marks[b]) == "conjunction"))
               and dims & {m.dimension for m in cast(tuple[ValueMeaning, ...], p)} for _, b, k, p in marks.mentions)


def _questions_asked(marks: _Marks) -> int:
    """How many "how many"/"bao nhiêu"/"mấy" the question asks ("mấy ngày tới", a value's words, asks none)."""
    pairs = [tuple(marks.words[i:i + 2]) for i in range(len(marks.words) - 1)]
    return sum(p in (("how", "many"), ("how", "much"), ("bao", "nhieu")) for p in pairs) + sum(
        word == "may" and _kind(mark) != "value" for word, mark in zip(marks.words, marks.marks, strict=True))


_HOW_MUCH = (("bao", "nhieu"), ("how", "much"), ("how", "many"))


def _asked_by_a_verb_alone(marks: _Marks, strong: list[str], named: list[str]) -> list[str]:
    """"Ca tối hôm qua thu được bao nhiêu, bao nhiêu khách?", "bao nhiêu đơn mang về, thu được bao nhiêu?",
    "how many takeaway orders and how much did they bring in": a verb with its own "bao nhiêu" right after it
    (or "how much", with only "did they" between) is a question of its own, for its metric beside the one named."""
    def own_how_much(a: int, b: int) -> bool:
        if _kind(marks.marks[b] if b < len(marks.words) else None) == "group":  # "thu theo từng hình thức thanh
            b += 1  # toán được bao nhiêu": a split said between the verb and its question
            while b < len(marks.words) and _kind(marks.marks[b]) in ("concept", "filler") and \
                    tuple(marks.words[b:b + 2]) not in _HOW_MUCH:
                b += 1
        after = any(tuple(marks.words[b:b + 2]) == w and _kind(marks.marks[b]) in ("filler", "unit")
                    for w in _HOW_MUCH)  # "thu về bao nhiêu tiền, tip bao nhiêu": its own "how much money"
        start = a
        while start > 0 and a - start < 3 and _kind(marks.marks[start - 1]) == "filler" and \
                tuple(marks.words[start - 2:start]) not in _HOW_MUCH:
            start -= 1
        return after or (start >= 2 and tuple(marks.words[start - 2:start]) in _HOW_MUCH)

    if not named:
        return []
    asked = [str(p) for a, b, k, p in marks.mentions if k == "verb" and p not in named and own_how_much(a, b)
             and (p in strong or (p is not None and _questions_asked(marks) > 1))]  # a weak verb: its own question
    return list(dict.fromkeys(asked))


# The menu as it stands ("dishes on the menu", "trên thực đơn"): a dish's margin or cost as priced, with no period
_ON_THE_MENU = (("on", "the", "menu"), ("on", "our", "menu"), ("in", "the", "menu"), ("on", "the", "current", "menu"),
                ("tren", "thuc", "don"), ("trong", "thuc", "don"), ("thuc", "don", "hien", "tai"), ("tren", "menu"),
                ("trong", "menu"))
# One portion said ("lời ít nhất mỗi phần", "một chai lãi bao nhiêu", "margin per plate"): as the menu prices it
_PER_PORTION = tuple((each, unit) for each in ("moi", "mot", "1", "per", "a", "each") for unit in (
    "phan", "ly", "li", "chai", "suat", "dia", "to", "noi", "portion", "plate", "serving", "cup", "glass", "bottle", "pot",
    "bowl"))
_AT_WORK = frozenset([("work",), ("worked",), ("di", "lam")])
_WHO_AT_WORK = frozenset(["work", "worked", "working", "dung"])  # "ai đứng ca trưa hôm qua"


def _after_a_split_word(marks: _Marks, start: int) -> bool:
    """A phrase right after "per", "by", "each", "every", "mỗi", "từng" or "theo" is what splits ("tickets per cook"),
    never a verb."""
    return start > 0 and marks.words[start - 1] in (*SINGLE_MARKERS, "every")


def _names_a_role(kind: str, payload: object) -> bool:
    """A value mention that names a staff role ("cooks", "bartenders", "quản lý")."""
    return kind == "value" and any(getattr(m, "concept", None) == "role" for m in cast(tuple[object, ...], payload))


def _people_of_a_role_at_work(marks: _Marks) -> None:
    """"How many cooks worked yesterday", "bao nhiêu đầu bếp đi làm": a count asked of a role, then its work,
    is the staff who worked (the role a filter); "how many hours did each server work" names its figure. So is the
    work said right after who or a role when nothing else names a figure ("who worked the lunch shift yesterday",
    "which servers worked last night", "who's working the dinner shift tonight", "ai làm ca tối"): the staff who
    worked, each one listed (but "which days did Hoàng Đức Nam work" asks for days)."""
    if not any(k in ("metric", "unit") for _, _, k, _ in marks.mentions):
        shifts_at = {a for a, _ in _value_spans(marks, "shift")}
        for _, b, kind, payload in sorted(marks.mentions):
            if b >= len(marks.words):
                continue
            size = 2 if marks.words[b:b + 2] == ["di", "lam"] else 1  # "ai đi làm ca tối nay"
            at_work = marks.words[b] in _WHO_AT_WORK or (marks.words[b + size - 1] == "lam" and (
                b + size in shifts_at or b + size == len(marks.words) or (shifts_at and shifts_at.isdisjoint(
                    range(b, b + size)))))  # "ai làm ca tối", "ca trưa hôm qua ai làm": a shift worked (never "làm
            # cả 2 ca")
            if at_work and all(m in (None, _Mark("verb")) for m in marks.marks[b:b + size]) \
                    and ((kind == "concept" and payload in _PEOPLE_CONCEPTS) or _names_a_role(kind, payload)):
                marks.forget(b, b + size)
                marks.mark(b, b + size, "verb", "staff_worked")
    for a, b, kind, payload in list(marks.mentions):
        if not _names_a_role(kind, payload):
            continue
        if tuple(marks.words[max(a - 2, 0):a]) not in _HOW_MUCH and (not a or marks.words[a - 1] != "may"):
            continue
        verb = next(((s, e) for s, e, k, _ in sorted(marks.mentions) if s >= b and k != "filler"), None)
        if verb is not None and tuple(marks.words[verb[0]:verb[1]]) in _AT_WORK and _kind(marks.marks[verb[0]]) == "verb":
            marks.forget(*verb)
            marks.mark(verb[0], verb[1], "verb", "staff_worked")


def _anyone_asked(marks: _Marks) -> None:
    """"Hôm nay có ai gọi lẩu thái không": anyone, asked yes or no (the figure answers it), never who."""
    for i, word in enumerate(marks.words):
        if word == "ai" and marks.words[i - 1:i] == ["co"] and _kind(marks.marks[i]) == "concept" and \
                {"khong", "chua"} & set(marks.words[i + 1:]):
            marks.forget(i, i + 1)
            marks.mark(i, i + 1, "filler")


def _each_person_before_their_work(marks: _Marks) -> None:
    """"Tuần trước mỗi người làm bao nhiêu giờ", "từng người làm mấy ca": each person, said right before a figure
    of their work ("làm ..."), is each one of the staff (never "doanh thu mỗi người": per guest)."""
    for a, b, kind, payload in list(marks.mentions):
        if kind == "unit" and payload == "people" and marks.words[a:b] == ["nguoi"] and a > 0 and \
                marks.words[a - 1] in ("moi", "tung") and marks.marks[a - 1] is None and any(
                s == b and k == "metric" and marks.words[s] == "lam" for s, _, k, _ in marks.mentions):
            marks.forget(a, b)
            marks.mark(a - 1, b, "concept", "staff")


_BILL_NOUNS = (["bill"], ["bills"], ["don"], ["order"], ["orders"], ["check"], ["checks"])  # "đơn trên 500k": a bill's


def _side_by_side_with(marks: _Marks, metric: str, start: int) -> bool:
    """The metric and the value at ``start`` are set side by side ("bookings cancelled vs no-shows", "đơn hủy so
    với đơn void"): both are asked, never one read as the other."""
    between = [marks.words[b:start] for _, b, m in _metric_spans(marks) if m == metric and b <= start]
    return any(tuple(words[i:i + len(said)]) == said for words in between for i in range(len(words))
               for said in _SIDE_BY_SIDE)


# the rows a count is of, said in two words ("khách không đến ... bao nhiêu bàn đặt": the bookings)
_NOUNS_OF_ROWS = (["don", "hang"], ["hoa", "don"], ["ban", "dat"], ["luot", "dat"])
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_NOT_DATA = frozenset(["superlative", "listing"])  # what a setting may say ("cảm ơn em nhiều"): nothing the data holds


def _who_manages(marks: _Marks) -> None:
    """"Ai là quản lý ca trưa hôm nay", "quản lý (trực) hôm nay là ai": who the manager is, asked with no figure, is
    the manager on duty of the shift (as "who is the manager on duty tonight"), never the role's staff counted."""
    who = any(k == "concept" and marks.words[a:b] == ["ai"] for a, b, k, _ in marks.mentions)
    figure = any(k in ("metric", "verb") for _, _, k, _ in marks.mentions)
    if not who:
        return
    for a, b, kind, payload in list(marks.mentions):
        if figure and marks.words[a - 1:a] != ["ai"]:  # beside a figure, only "ai quản lý ca" ("tối qua ai quản lý
            continue  # ca, có bao nhiêu nhân viên đi làm": who managed, never the managers counted)
        if kind == "value" and marks.words[a:b] in (["quan", "li"], ["quan", "li", "ca"]) and any(
                m.concept == "role" and m.value == "MGR" for m in cast(tuple[ValueMeaning, ...], payload)):
            marks.forget(a, b)
            marks.mark(a, b, "concept", "manager")
            if marks.words[b:b + 1] == ["truc"] and marks.free(b, b + 1):  # on duty
                marks.mark(b, b + 1, "filler")


_AVERAGE_PER_ORDER = (["trung", "binh", "moi", "don"], ["trung", "binh", "moi", "bill"],
                      ["trung", "binh", "moi", "hoa", "don"], ["binh", "quan", "moi", "don"])  # said before what
_EMPLOYED = (("currently", "have"), ("on", "the", "team"), ("on", "staff"), ("currently", "employ"), ("employed",),
             ("on", "payroll"), ("on", "the", "payroll"), ("quan", "hien", "co"), ("quan", "co"))  # "how many
# servers do we currently have on the team": employed now, not on shift now


_EACH_ONE = frozenset([("moi", "nguoi"), ("tung", "nguoi"), ("moi", "ban"), ("tung", "ban"), ("moi", "em"),
                       ("tung", "em"), ("moi", "dua"), ("tung", "dua"), ("each", "of", "them")])


def _shown_with_its(marks: _Marks, start: int) -> bool:
    """"Voided bills this week with the server who had them": the rows asked for, each shown with its server (a
    split), never the servers as a whole."""
    return marks.words[max(0, start - 2):start] in (["with", "the"], ["with", "their"], ["with", "its"])


def _each_one_of_a_role(marks: _Marks) -> bool:
    """"Mấy bạn pha chế, mỗi người làm bao nhiêu giờ", "mấy bạn phục vụ, mỗi bạn được bao nhiêu tip": "each one"
    right after a role or the staff is each of them (a split), never "người làm" (the people at work). True when
    one was found."""
    found = False
    for _, end, kind, payload in list(marks.mentions):
        if not (kind == "concept" and payload in ("server", "staff")) and not _names_a_role(kind, payload):
            continue
        end = _past_a_period(marks, end)  # "mấy bạn pha chế tuần này, mỗi người ..."
        size = next((n for n in (2, 3) if tuple(marks.words[end:end + n]) in _EACH_ONE), 0)
        if size:
            for a, b, _, _ in [m for m in marks.mentions if m[0] < end + size and end < m[1]]:
                marks.forget(a, b)
            marks.mark(end, end + size, "each_one")
            found = True
    return found


def _asks_how_many(marks: _Marks) -> bool:
    """English "how many" (not "how much"): a count is asked."""
    return marks.says(("how", "many"))


def _both_ways(words: Sequence[str]) -> bool:
    """A concept said as two of its kinds together names both: a split ("with vs without a promo", "members
    and walk-ins").

    >>> _both_ways("with vs without a promo".split()), _both_ways("thanh vien va vang lai".split())
    (True, True)
    >>> _both_ways("with a promotion".split())
    False
    """
    return bool({"vs", "versus", "and", "or", "va", "hay", "voi"} & set(words))


def _counted_noun(marks: _Marks, start: int) -> bool:
    """A concept after a superlative, when another concept is the one asked with "which" or "by": "which
    server voided the most items", "bàn nào gọi nhiều món nhất" count items, they do not split by them (but
    "slowest by hour" splits)."""
    before = _first_before(marks, start, ("filler",))
    who_asked = before >= 0 and marks.words[before] not in (*_BEST_OF_ROWS, *_WHICH_OF_ROWS) and any(  # "who voided the most items":
        k == "concept" and a < start and marks.words[a:b] in (["who"], ["ai"]) for a, b, k, _ in marks.mentions)  # the
    # staff (but "who are our top customers": the customers)
    return marks.words[start] not in ("by", "theo") and \
        _marked_before(marks, start, ("superlative",), skip=("filler",)) and \
        (_another_asked(marks, start, ("which", "group")) or who_asked) and not _said_with_each(marks, start)
    # "nhiều nhất của từng bếp": each station's


def _share_of_another(marks: _Marks, named: list[str]) -> bool:
    """"Waste as a share of usage": the share is said of a second metric named, not of the total."""
    for _, end, kind, _ in marks.mentions:
        after = _said_next(marks, end) if kind == "share" else None
        if after is not None and after[2] == "metric" and len(named) > 1 and after[3] != named[0]:
            return True
    return False


def _said_next(marks: _Marks, end: int) -> tuple[int, int, str, object] | None:
    """The first mention from ``end`` on that is not a filler or a unit (the mentions are in the question's order)."""
    return next(((a, b, k, p) for a, b, k, p in marks.mentions if a >= end and k not in ("filler", "unit")), None)


_FROM_WORDS = frozenset([("came", "from"), ("come", "from"), ("comes", "from")])


def _came_from_alone_is_no_share(marks: _Marks) -> None:
    """"Which station each one comes from": with no share or percent said elsewhere, "came from" with nothing
    after it in its clause asks where each row comes from, never a share of the total (but "how much revenue came
    from members versus walk-ins" shows the shares)."""
    shares = [(a, b) for a, b, k, _ in marks.mentions if k == "share"]
    percent = any(k == "unit" and p == "percent" for _, _, k, p in marks.mentions)
    def said_of_nothing(b: int) -> bool:
        after = next((a for a, _, k, _ in marks.mentions if a >= b and k != "filler"), len(marks.words))
        return after == len(marks.words) or any(b <= c < after for c in marks.commas) or \
            _kind(marks.marks[after]) not in ("value", "concept")
    if shares and not percent and all(tuple(marks.words[a:b]) in _FROM_WORDS and said_of_nothing(b)
                                      for a, b in shares):
        for a, b in shares:
            marks.forget(a, b)
            marks.mark(a, b, "filler")


def _count_and_amount_asked(marks: _Marks) -> set[str]:
    """Both "how many" and "how much" are asked ("bao nhiêu lần, bao nhiêu tiền"): the count and the amount, or
    neither (one of them asks only its own)."""
    units = {str(p) for _, _, k, p in marks.mentions if k == "unit"} | \
        ({"count"} if marks.says(("how", "many")) else set()) | ({"vnd"} if _how_much_said(marks) else set())
    return {"count", "vnd"} if {"count", "vnd"} <= units else set()


def _how_much_said(marks: _Marks) -> bool:
    """"How much" (an amount, never a count) is said."""
    return marks.says(("how", "much"))


def _after_how_many(marks: _Marks, start: int) -> bool:
    """The concept is what "how many" / "bao nhiêu" / "mấy" counts: "how many dishes have we sold" counts the
    portions sold, "bao nhiêu phiếu" the tickets; it names what is counted, not a split."""
    return marks.words[max(0, start - 2):start] in (["how", "many"], ["bao", "nhieu"]) or \
        marks.words[start - 1:start] == ["may"]


def _another_asked(marks: _Marks, start: int, before: tuple[str, ...],
                   kinds: tuple[str, ...] = ("concept", "value")) -> bool:
    """A concept or value (of ``kinds``) other than the one at ``start`` is asked: marked before by one of
    ``before`` ("which", "by"), followed by "nào", or said with its question word ("giờ nào", "what hour"); a
    grain is always asked ("mấy giờ bếp nhận nhiều phiếu nhất": the hour)."""
    return any(k in kinds and a != start and
               (k == "grain" or _marked_before(marks, a, before) or _marked_after(marks, b, ("which",))
                or {"nao", "gi"} & set(marks.words[a:b]) or ("which" in before and marks.words[a] in ("which", "what")))
               for a, b, k, _ in marks.mentions)


def _asked_after_a_ranking(marks: _Marks, start: int) -> bool:
    """What starts at ``start`` is asked after "và" / "and" that follows a ranking ("món nào bị hủy nhiều nhất và ...
    lý do")."""
    return any(k == "conjunction" and marks.words[a] in ("va", "and") and a < start and any(
        k2 == "superlative" and a2 < a for a2, _, k2, _ in marks.mentions) for a, _, k, _ in marks.mentions)


def _asked_as_what(marks: _Marks, start: int, end: int) -> bool:
    """The concept is what a question asks ("lý do chủ yếu là gì", "and what was the main reason")."""
    after = end
    while after < len(marks.words) and marks.words[after:after + 2] != ["la", "gi"] and \
            _kind(marks.marks[after]) == "filler":
        after += 1
    return marks.words[after:after + 2] == ["la", "gi"] or any(
        marks.words[i:i + 2] in (["what", "was"], ["what", "is"], ["what", "were"], ["what", "s"])
        for i in range(max(0, start - 4), start - 1))


def _top_of_a_list(marks: _Marks, language: str) -> bool:
    """"Top" before what it ranks, values between and no number: "top món" (Vietnamese has no plural), "top
    dishes", "top delivery dishes", "top drinks" (the dishes of a category); not "top dish", "top-selling drink"
    or "top seller"."""
    tops = [b for a, b, k, _ in marks.mentions if k == "superlative" and marks.words[a:b] == ["top"]]
    return any(_first_before(marks, a, ("value",)) == end - 1 and (language == "vi" or marks.raw[b - 1].endswith("s"))
               and (k in ("concept", "grain") or k == "value" and not _marked_after(marks, b, ("concept", "grain"))
                    and any(m.semantic_model in _MENU_MODELS for m in cast(tuple[ValueMeaning, ...], p)))
               for end in tops for a, b, k, p in marks.mentions if a >= end)


def _said_in_plural(marks: _Marks, start: int, end: int) -> bool:
    """The words from ``start`` to ``end`` were typed in the plural ("dishes", "drinks")."""
    return any(w.endswith("s") and len(w) > 3 for w in marks.raw[start:end])


def _plural_subject(marks: _Marks) -> bool:
    """English plural subject ("which dishes ...", "which drinks ...") asks for a ranked list, not one row ("which
    dish did gold members order most": one dish, whatever the plural said after it)."""
    asked = next((m for m in sorted(marks.mentions, key=lambda m: m[0]) if m[2] in ("concept", "grain")
                  and (marks.words[m[0] - 1:m[0]] in (["which"], ["what"])  # "which day of the week": its own words
                       or marks.words[m[0]] in ("which", "what"))), None)
    if asked is not None and not _said_in_plural(marks, asked[0], asked[1]):
        return False
    for start, end, kind, payload in marks.mentions:
        if _counted_noun(marks, start):
            continue  # "which server voided the most items": what is counted, not the subject
        if kind in ("concept", "grain") and _said_in_plural(marks, start, end):
            return True
        if kind == "value" and marks.words[start - 1:start] == ["which"] and marks.raw[end - 1].endswith("s") and \
                any(m.semantic_model in _MENU_MODELS for m in cast(tuple[ValueMeaning, ...], payload)):
            return True  # "which drinks ...": the drinks (but "which servers": a leaderboard, of people)
    return False


def _recognised(marks: _Marks) -> list[Recognised]:
    out = []
    for start, end, kind, payload in marks.mentions:
        if kind in ("filler", "conjunction", "verb", "unit", "average", "compare", "same_period"):
            continue
        shown = payload
        if isinstance(payload, tuple) and payload and isinstance(payload[0], ValueMeaning):
            shown = payload[0].value  # a value phrase's first meaning
        elif isinstance(payload, TimeRange):
            shown = f"{payload.start}..{payload.end}"
        out.append(Recognised(kind, " ".join(marks.words[start:end]), str(shown)))
    return out
