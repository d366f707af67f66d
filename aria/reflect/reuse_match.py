"""Matching a new question to a verified one and re-binding the verified SQL's values — pure
functions, no database, no model.

A verified question is turned into a template: its time phrase ("hôm qua", "this month"), dates
("1/11/2026"), months ("tháng 10"), the values its SQL compares to (a dish, a category and its
labels) and its numbers become slots; the remaining words are canonicalized (diacritics, stopwords,
synonyms, plurals). The new question must have exactly the same template, and each slot's new
value must map onto a parameter of the SQL that only that slot explains. Anything left unexplained
means no reuse: a wrong reuse is worse than none.

>>> time_phrase("Doanh thu hôm qua?")
TimePhrase(text='hom qua', unit='day', offset=1)
>>> template("Bàn số 7 đã chờ bao lâu rồi?", [])
['ban', 'slotnum', 'cho', 'howlong']
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

import sqlglot
from sqlglot import exp

from aria.reflect.reuse_clock import clock_columns, shift_business_clock
from aria.sql.literals import SqlParameter, extract_parameters, rebind
from aria.text import normalize, strip_diacritics

__all__ = ["ReusePlan", "TimePhrase", "plan_reuse", "shift_business_clock", "template", "time_phrase"]

ValuesOf = Callable[[str], Sequence[str]]
AliasesOf = Callable[[str], Mapping[str, str]]  # column -> {label: value}, e.g. {"Lẩu": "HOTPOT"}

# (phrase without diacritics, unit, how many units back from now; -1 = the next one)
_TIME_PHRASES: tuple[tuple[str, str, int], ...] = (
    ("hom kia", "day", 2), ("hom qua", "day", 1), ("hom nay", "day", 0), ("ngay mai", "day", -1),
    ("tuan truoc", "week", 1), ("tuan nay", "week", 0), ("thang truoc", "month", 1), ("thang nay", "month", 0),
    ("nam ngoai", "year", 1), ("nam truoc", "year", 1), ("nam nay", "year", 0),
    ("day before yesterday", "day", 2), ("yesterday", "day", 1), ("today", "day", 0), ("tonight", "day", 0),
    ("tomorrow", "day", -1), ("last week", "week", 1), ("this week", "week", 0), ("last month", "month", 1),
    ("this month", "month", 0), ("last year", "year", 1), ("this year", "year", 0),
)
_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december")
# Function words that carry no meaning for matching (Vietnamese without diacritics, and English).
# Negations ("not", "khong" inside a sentence) are deliberately absent.
_STOPWORDS = frozenset([
    "a", "an", "the", "of", "in", "on", "for", "to", "at", "is", "are", "was", "were", "be", "been", "what",
    "which", "who", "do", "does", "did", "have", "has", "had", "please", "show", "me", "list", "give",
    "tell", "can", "could", "would", "you", "i", "we", "our", "us", "my", "their", "its", "there", "that",
    "this", "these", "those", "and", "s", "so", "far", "now", "right", "currently", "moment", "toi", "minh",
    "xem", "hay", "biet", "giup", "la", "gi", "nao", "bao", "nhieu", "co", "duoc", "da", "dang", "cua",
    "va", "voi", "o", "tai", "thi", "ma", "nhung", "cac", "mot", "nhu", "the", "vay", "nhe", "oi", "hien",
    "trong", "roi",
])
# Multi-word spellings first (applied to the normalized text), then single words.
_PHRASES = (
    ("cho toi", ""), ("cho minh", ""), ("cho biet", ""), ("bao lau", "howlong"), ("theo tung", "each"), ("theo moi", "each"), ("tinh theo", "theo"), ("don hang", "don"), ("mon an", "mon"),
    ("so ban", "ban"), ("ban so", "ban"), ("hang dau", "top"), ("per day", "daily"), ("moi ngay", "daily"),
    ("hang ngay", "daily"), ("at the moment", ""), ("right now", ""), ("so far", ""), ("bay gio", ""),
    ("hien tai", ""), ("luc nay", ""),
)
_SYNONYMS = {
    "sold": "sell", "selling": "sell", "sells": "sell", "sale": "sell", "seller": "sell", "sellers": "sell",
    "bought": "buy", "most": "top", "best": "top", "highest": "top", "biggest": "top", "largest": "top",
    "nhat": "top", "longest": "long", "longer": "long", "turnover": "revenue", "under": "below",
    "each": "each", "every": "each", "per": "each", "tung": "each", "moi": "each",
}
_NUMBER = re.compile(r"\b\d+\b")
_DATE_DMY = re.compile(r"\b(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})\b")
_DATE_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_MONTH_NUMBER = re.compile(r"\b(?:thang|month) (\d{1,2})\b")
_NAME_KINDS = ("name", "text", "code")


@dataclass(frozen=True)
class TimePhrase:
    text: str
    unit: str
    offset: int


@dataclass(frozen=True)
class ReusePlan:
    sql: str
    bindings: dict[str, object]  # parameter id -> new value
    shift: TimePhrase | None  # how far the business clock was moved (unit, units)
    similarity: float
    # (table, column) pairs bounded by the moved clock, when a finished period became one in
    # progress: the caller must check none of them holds rows after now (future bookings).
    into_current: tuple[tuple[str, str], ...] = ()


def time_phrase(question: str) -> TimePhrase | None:
    """The question's relative period, longest phrase first."""
    text = normalize(question)
    for phrase, unit, offset in _TIME_PHRASES:
        if re.search(rf"\b{phrase}\b", text):
            return TimePhrase(phrase, unit, offset)
    return None


def dates_in(question: str) -> list[dt.date]:
    """Calendar dates written d/m/yyyy or yyyy-mm-dd, in order."""
    found: list[tuple[int, dt.date]] = []
    for pattern, order in ((_DATE_DMY, (3, 2, 1)), (_DATE_ISO, (1, 2, 3))):
        for m in pattern.finditer(question):
            try:
                found.append((m.start(), dt.date(*(int(m.group(i)) for i in order))))
            except ValueError:
                continue
    return [d for _, d in sorted(found)]


def month_in(question: str) -> int | None:
    """The calendar month a question names ("tháng 10", "October"), or None."""
    text = normalize(_DATE_DMY.sub(" ", _DATE_ISO.sub(" ", question)))
    numbered = [int(m.group(1)) for m in _MONTH_NUMBER.finditer(text) if 1 <= int(m.group(1)) <= 12]
    named = [i + 1 for i, name in enumerate(_MONTHS) if re.search(rf"\b{name}\b", text)]
    months = numbered + named
    return months[0] if len(months) == 1 else None


def _stem(word: str) -> str:
    """A light English stemmer: both questions go through it, so consistency is what matters."""
    if len(word) <= 4 or not word.isalpha():
        return word
    for suffix, repl in (("ies", "y"), ("sses", "ss"), ("shes", "sh"), ("ches", "ch"), ("ing", ""), ("ed", "")):
        if word.endswith(suffix):
            return word[: -len(suffix)] + repl
    return word[:-1] if word.endswith("s") and not word.endswith(("ss", "us", "is")) else word


def _content_words(text: str) -> list[str]:
    for phrase, canonical in _PHRASES:
        text = re.sub(rf"\b{phrase}\b", f" {canonical} ", text)
    text = re.sub(r"\bkhong\s*$", "", text.strip())  # "có ... không?" is a question mark, not a negation
    out = []
    for word in text.split():
        word = _SYNONYMS.get(word, word)
        if word.startswith("slot"):
            out.append(word)
        elif word not in _STOPWORDS:
            out.append(_stem(_SYNONYMS.get(_stem(word), _stem(word))))
    return out


def _slotted(question: str) -> str:
    """Lower case, no diacritics, dates and months replaced by slot words."""
    text = strip_diacritics(question).lower()
    text = _DATE_DMY.sub(" slotdate ", _DATE_ISO.sub(" slotdate ", text))
    text = normalize(text)
    return _MONTH_NUMBER.sub(" slotmonth ", text) if month_in(question) is not None else text


def template(question: str, values: Sequence[str]) -> list[str]:
    """The question's content words with its time phrase, dates, months, values and numbers as slots."""
    text = _slotted(question)
    phrase = time_phrase(question)
    if phrase:
        text = re.sub(rf"\b{phrase.text}\b", " slottime ", text, count=1)
    for value in sorted({normalize(v) for v in values}, key=len, reverse=True):
        if value:
            text = re.sub(rf"\b{re.escape(value)}\b", " slotval ", text)
    for name in _MONTHS:
        text = re.sub(rf"\b{name}\b", " slotmonth ", text)
    return _content_words(_NUMBER.sub(" slotnum ", text))


def template_similarity(a: list[str], b: list[str]) -> float:
    """Jaccard similarity of the two templates' word sets (slots included)."""
    sa, sb = set(a), set(b)
    return len(sa & sb) / len(sa | sb) if sa | sb else 1.0


def _contains(question: str, value: str) -> bool:
    norm = normalize(value)
    return bool(norm) and re.search(rf"\b{re.escape(norm)}\b", normalize(question)) is not None


def _numbers(question: str, values: Sequence[str]) -> list[int]:
    text = _slotted(question)
    for value in sorted({normalize(v) for v in values}, key=len, reverse=True):
        if value:
            text = re.sub(rf"\b{re.escape(value)}\b", " ", text)
    phrase = time_phrase(question)
    if phrase:
        text = re.sub(rf"\b{phrase.text}\b", " ", text)
    return [int(n) for n in _NUMBER.findall(text)]


def _interval_number(param: SqlParameter) -> int | None:
    match = re.match(r"^(\d+)\s", str(param.value)) if param.kind == "interval" else None
    return int(match.group(1)) if match else None


def _number_params(params: list[SqlParameter], number: int) -> list[tuple[SqlParameter, object]]:
    """Parameters a number in the question stands for, with how to write a new number into each."""
    linked: list[tuple[SqlParameter, object]] = []
    for p in params:
        if p.kind in ("number", "top_n") and p.value == number:
            linked.append((p, None))
        elif _interval_number(p) == number:
            linked.append((p, str(p.value).split(None, 1)[1]))  # the unit
    return linked


def _number_literals(sql: str) -> list[float]:
    tree = sqlglot.parse_one(sql, read="postgres")
    out: list[float] = []
    for node in tree.find_all(exp.Literal):
        text = node.this.split()[0] if node.is_string else node.this
        if re.fullmatch(r"-?\d+(\.\d+)?", text):
            out.append(float(text))
    return out


def _bind_numbers(params: list[SqlParameter], sql: str, old: list[int], new: list[int]) -> dict[str, object] | None:
    """New numbers for the parameters the old numbers stand for; None when a changed number has no
    parameter of its own (or also appears elsewhere in the SQL, where it could not be changed)."""
    if len(old) == 0 and len(new) == 1:  # "món bán chạy nhất" -> "top 3 món bán chạy nhất"
        tops = [p for p in params if p.kind == "top_n"]
        return {tops[0].id: new[0]} if len(tops) == 1 and tops[0].value == 1 and new[0] > 0 else None
    if len(old) != len(new):
        return None
    bindings: dict[str, object] = {}
    literals = _number_literals(sql)
    for before, after in zip(old, new, strict=True):
        if before == after:
            continue
        linked = _number_params(params, before)
        if not linked or literals.count(float(before)) != len(linked) or after <= 0:
            return None
        for param, unit in linked:
            bindings[param.id] = after if unit is None else f"{after} {unit}"
    return bindings


def _node_at(tree: exp.Expr, param: SqlParameter) -> exp.Expr:
    node = tree
    for key, index in param.path:
        child = node.args[key]
        node = child[index] if index is not None else child
    return node


def _rebindable(tree: exp.Expr, param: SqlParameter) -> bool:
    """Only a value compared with ``=`` stands alone: one value of an IN list or a LIKE pattern
    does not (replacing it would keep the others)."""
    node = _node_at(tree, param)
    parent = node.parent.parent if isinstance(node.parent, exp.Cast) else node.parent
    return isinstance(parent, exp.EQ)


def _spellings(param: SqlParameter, values_of: ValuesOf, aliases_of: AliasesOf | None) -> dict[str, str]:
    """Every way a question can name a value of the parameter's column: spelling -> value."""
    if param.column is None:
        return {}
    spellings = {v: v for v in values_of(param.column)}
    if aliases_of is not None:
        spellings.update(aliases_of(param.column))
    return spellings


def _named(question: str, spellings: Mapping[str, str]) -> set[str]:
    """The values a question names, by the longest spellings that occur in it (not inside a longer one)."""
    found = sorted((s for s in spellings if _contains(question, s)), key=lambda s: len(normalize(s)), reverse=True)
    kept: list[str] = []
    for spelling in found:
        if not any(re.search(rf"\b{re.escape(normalize(spelling))}\b", normalize(k)) for k in kept):
            kept.append(spelling)
    return {spellings[s] for s in kept}


def mentioned_values(params: list[SqlParameter], question: str, values_of: ValuesOf,
                     aliases_of: AliasesOf | None = None) -> list[str]:
    """Spellings of the SQL's compared values that the question contains (to template them away)."""
    out: list[str] = []
    for param in params:
        if param.kind in _NAME_KINDS:
            spellings = _spellings(param, values_of, aliases_of) | {str(param.value): str(param.value)}
            out += [s for s in spellings if _contains(question, s)]
    return out


def _bind_names(params: list[SqlParameter], tree: exp.Expr, old_q: str, new_q: str, values_of: ValuesOf,
                aliases_of: AliasesOf | None) -> dict[str, object] | None:
    bindings: dict[str, object] = {}
    for param in (p for p in params if p.kind in _NAME_KINDS):
        spellings = _spellings(param, values_of, aliases_of) | {str(param.value): str(param.value)}
        old_named, new_named = _named(old_q, spellings), _named(new_q, spellings)
        if str(param.value) not in old_named:
            continue  # not something the question chose (e.g. status = 'COMPLETED')
        if new_named == old_named:
            continue
        if len(new_named) != 1 or len(old_named) != 1 or not _rebindable(tree, param):
            return None
        bindings[param.id] = next(iter(new_named))
    return bindings


def _bind_dates(params: list[SqlParameter], old_q: str, new_q: str) -> dict[str, object] | None:
    """Dates written in the question onto the SQL's date literals; months onto month boundaries."""
    bindings: dict[str, object] = {}
    old_dates, new_dates = dates_in(old_q), dates_in(new_q)
    if len(old_dates) != len(new_dates):
        return None
    for before, after in zip(old_dates, new_dates, strict=True):
        linked = [p for p in params if p.kind == "date" and p.value == before]
        if before != after and not linked:
            return None
        bindings |= {p.id: after for p in linked}
    old_month, new_month = month_in(old_q), month_in(new_q)
    if (old_month is None) != (new_month is None):
        return None
    if old_month and new_month and old_month != new_month:
        return _bind_month(params, old_month, new_month, bindings)
    return bindings


def _month_start(year: int, month: int) -> dt.date:
    return dt.date(year + (month - 1) // 12, (month - 1) % 12 + 1, 1)


def _bind_month(params: list[SqlParameter], old: int, new: int, bindings: dict[str, object]) -> dict[str, object] | None:
    """Move every first-of-month date bounding the old month (its start and the next month's) to the new one."""
    moved = False
    for p in params:
        value = p.value
        if p.kind != "date" or not isinstance(value, dt.date):
            continue
        year = value.year if value.month >= old else value.year - 1
        if value == _month_start(year, old):
            bindings[p.id], moved = _month_start(year, new), True
        elif value == _month_start(year, old + 1):
            bindings[p.id] = _month_start(year, new + 1)
    return bindings if moved else None


def _time_shift(old_q: str, new_q: str) -> TimePhrase | None | Literal[False]:
    """The clock move from the old question's period to the new one's; None: no move; False: impossible."""
    old_time, new_time = time_phrase(old_q), time_phrase(new_q)
    if (old_time is None) != (new_time is None) or (old_time and new_time and old_time.unit != new_time.unit):
        return False
    if old_time is None or new_time is None or old_time.offset == new_time.offset:
        return None
    return TimePhrase(new_time.text, new_time.unit, new_time.offset - old_time.offset)


def plan_reuse(
    new_question: str, old_question: str, old_sql: str, *, values_of: ValuesOf,
    aliases_of: AliasesOf | None = None, min_template_similarity: float = 1.0,
) -> ReusePlan | None:
    """The re-bound SQL when ``new_question`` is ``old_question`` with other values, else None."""
    try:
        params = extract_parameters(old_sql)
        tree = sqlglot.parse_one(old_sql, read="postgres")
    except sqlglot.errors.SqlglotError:
        return None
    old_values = mentioned_values(params, old_question, values_of, aliases_of)
    new_values = mentioned_values(params, new_question, values_of, aliases_of)
    old_t, new_t = template(old_question, old_values), template(new_question, new_values)
    old_nums, new_nums = _numbers(old_question, old_values), _numbers(new_question, new_values)
    if not old_nums and len(new_nums) == 1:  # the superlative case: compare without the new number
        new_t = [w for w in new_t if w != "slotnum"]
    similarity = template_similarity(old_t, new_t)
    if similarity < min_template_similarity or _slots(old_t) != _slots(new_t):
        return None
    shift = _time_shift(old_question, new_question)
    numbers = _bind_numbers(params, old_sql, old_nums, new_nums)
    names = _bind_names(params, tree, old_question, new_question, values_of, aliases_of)
    dates = _bind_dates(params, old_question, new_question)
    if numbers is None or names is None or dates is None or shift is False:
        return None
    bindings = {**numbers, **names, **dates}
    sql = rebind(old_sql, bindings) if bindings else old_sql
    into_current: tuple[tuple[str, str], ...] = ()
    if isinstance(shift, TimePhrase):
        shifted = shift_business_clock(sql, shift.unit, shift.offset)
        if shifted is None:
            return None
        if _finished_to_current(old_question, new_question):
            into_current = clock_columns(sql)
        sql = shifted
    return ReusePlan(sql=sql, bindings=bindings, shift=shift, similarity=similarity, into_current=into_current)


def _slots(words: list[str]) -> list[str]:
    return sorted(w for w in words if w.startswith("slot"))


def _finished_to_current(old_q: str, new_q: str) -> bool:
    """True when the old question asked about a finished period and the new one about one in progress
    (or to come): rows dated after now (future bookings) would then fall into the answer."""
    old_time, new_time = time_phrase(old_q), time_phrase(new_q)
    return old_time is not None and new_time is not None and old_time.offset >= 1 and new_time.offset <= 0
