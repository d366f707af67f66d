"""Matching a new question to a verified one and re-binding the verified SQL's values — pure
functions, no database, no model.

A verified question is turned into a template: its numbers, the values its SQL compares to
(a dish, a category), and its time phrase ("hôm qua", "this month") become slots. The new question
must fill the same template — the same words around the slots — and each slot's new value must
map onto a parameter of the SQL. Anything left unexplained means no reuse: a wrong reuse is worse
than none.

>>> time_phrase("Doanh thu hôm qua?")
TimePhrase(text='hom qua', unit='day', offset=1)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import sqlglot
from sqlglot import exp

from aria.kb.text import normalize
from aria.sql.literals import SqlParameter, extract_parameters, rebind

# (phrase without diacritics, unit, how many units back from now)
_TIME_PHRASES: tuple[tuple[str, str, int], ...] = (
    ("hom kia", "day", 2), ("hom qua", "day", 1), ("hom nay", "day", 0),
    ("tuan truoc", "week", 1), ("tuan nay", "week", 0), ("thang truoc", "month", 1), ("thang nay", "month", 0),
    ("nam ngoai", "year", 1), ("nam truoc", "year", 1), ("nam nay", "year", 0),
    ("day before yesterday", "day", 2), ("yesterday", "day", 1), ("today", "day", 0),
    ("last week", "week", 1), ("this week", "week", 0), ("last month", "month", 1), ("this month", "month", 0),
    ("last year", "year", 1), ("this year", "year", 0),
)
# Words that carry no meaning for matching (Vietnamese without diacritics, and English).
_STOPWORDS = frozenset(
    ["a", "an", "the", "of", "in", "on", "for", "to", "at", "is", "are", "was", "were", "what", "which", "who", "how", "do", "does", "did", "please", "show", "me", "list", "give", "tell", "can", "you", "i", "we", "our", "my", "there", "cho", "toi", "minh", "xem", "hay", "biet", "giup", "la", "gi", "nao", "bao", "nhieu", "co", "khong", "duoc", "da", "dang", "cua", "va", "voi", "o", "tai", "thi", "ma", "nhung", "cac", "mot", "nhu", "the", "vay", "nhe", "oi", "hien"]
)
# Spellings that mean the same thing to a manager -> one canonical word.
_SYNONYMS = {
    "sold": "sell", "selling": "sell", "sells": "sell", "sale": "sell", "sales": "sell", "seller": "sell",
    "sellers": "sell", "dishes": "dish", "items": "item", "tables": "table", "waited": "wait", "waiting": "wait",
    "waits": "wait", "longest": "long", "longer": "long", "turnover": "revenue",
    "mon an": "mon", "so ban": "ban", "ban so": "ban", "most": "top", "best": "top", "highest": "top",
    "nhat": "top", "hang dau": "top",
}
_NUMBER = re.compile(r"\b\d+\b")


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


def time_phrase(question: str) -> TimePhrase | None:
    """The question's relative period, longest phrase first."""
    text = normalize(question)
    for phrase, unit, offset in _TIME_PHRASES:
        if re.search(rf"\b{phrase}\b", text):
            return TimePhrase(phrase, unit, offset)
    return None


def _content_words(text: str) -> list[str]:
    for phrase, canonical in _SYNONYMS.items():
        if " " in phrase:
            text = re.sub(rf"\b{phrase}\b", canonical, text)
    words = (_SYNONYMS.get(w, w) for w in re.findall(r"[a-z0-9<>]+", text))
    return [w for w in words if w not in _STOPWORDS]


def template(question: str, values: Sequence[str]) -> list[str]:
    """The question's content words with its time phrase, values and numbers as slots."""
    text = normalize(question)
    phrase = time_phrase(question)
    if phrase:
        text = re.sub(rf"\b{phrase.text}\b", " <time> ", text)
    for value in sorted(values, key=len, reverse=True):
        norm = normalize(value)
        if norm:
            text = re.sub(rf"\b{re.escape(norm)}\b", " <val> ", text)
    text = _NUMBER.sub(" <num> ", text)
    return _content_words(text)


def template_similarity(a: list[str], b: list[str]) -> float:
    """Jaccard similarity of the two templates' word sets (slots included)."""
    sa, sb = set(a), set(b)
    return len(sa & sb) / len(sa | sb) if sa | sb else 1.0


def _contains(question: str, value: str) -> bool:
    norm = normalize(value)
    return bool(norm) and re.search(rf"\b{re.escape(norm)}\b", normalize(question)) is not None


def _bind_numbers(params: list[SqlParameter], old_q: str, new_q: str) -> dict[str, object] | None:
    old_numbers, new_numbers = _NUMBER.findall(normalize(old_q)), _NUMBER.findall(normalize(new_q))
    if len(old_numbers) != len(new_numbers):
        return None
    bindings: dict[str, object] = {}
    for old, new in zip(old_numbers, new_numbers, strict=True):
        linked = [p for p in params if p.kind in ("number", "top_n") and str(p.value) == old]
        if not linked and old != new:
            return None  # the number changed but the SQL has no parameter for it
        for param in linked:
            bindings[param.id] = int(new)
    return bindings


def _bind_names(params: list[SqlParameter], old_q: str, new_q: str,
                values_of: Callable[[str], Sequence[str]]) -> dict[str, object] | None:
    bindings: dict[str, object] = {}
    for param in params:
        if param.kind not in ("name", "text", "code") or not _contains(old_q, str(param.value)):
            continue
        if _contains(new_q, str(param.value)):
            continue
        if param.column is None:
            return None
        found = sorted((v for v in values_of(param.column) if _contains(new_q, v)), key=len, reverse=True)
        if not found:
            return None
        bindings[param.id] = found[0]
    return bindings


def mentioned_values(params: list[SqlParameter], question: str, values_of: Callable[[str], Sequence[str]]) -> list[str]:
    """Values of the SQL's compared columns that the question names (to template them away)."""
    out: list[str] = []
    for param in params:
        if param.kind in ("name", "text", "code") and param.column is not None:
            out += [v for v in values_of(param.column) if _contains(question, v)]
            if _contains(question, str(param.value)):
                out.append(str(param.value))
    return out


def plan_reuse(
    new_question: str, old_question: str, old_sql: str, *, values_of: Callable[[str], Sequence[str]],
    min_template_similarity: float = 1.0,
) -> ReusePlan | None:
    """The re-bound SQL when ``new_question`` is ``old_question`` with other values, else None."""
    try:
        params = extract_parameters(old_sql)
    except sqlglot.errors.SqlglotError:
        return None
    old_t = template(old_question, mentioned_values(params, old_question, values_of))
    new_t = template(new_question, mentioned_values(params, new_question, values_of))
    similarity = template_similarity(old_t, new_t)
    if similarity < min_template_similarity or sorted(w for w in old_t if w.startswith("<")) != sorted(
        w for w in new_t if w.startswith("<")
    ):
        return None
    numbers = _bind_numbers(params, old_question, new_question)
    names = _bind_names(params, old_question, new_question, values_of)
    if numbers is None or names is None:
        return None
    bindings = {**numbers, **names}
    sql = rebind(old_sql, bindings) if bindings else old_sql
    old_time, new_time = time_phrase(old_question), time_phrase(new_question)
    if (old_time is None) != (new_time is None) or (old_time and new_time and old_time.unit != new_time.unit):
        return None
    shift = None
    if old_time and new_time and old_time.offset != new_time.offset:
        shift = TimePhrase(new_time.text, new_time.unit, new_time.offset - old_time.offset)
        shifted = shift_business_clock(sql, shift.unit, shift.offset)
        if shifted is None:
            return None
        sql = shifted
    return ReusePlan(sql=sql, bindings=bindings, shift=shift, similarity=similarity)


def _is_clock(node: exp.Expression) -> bool:
    return isinstance(node, exp.Anonymous) and node.name.lower() == "business_now"


def _periods_closed(tree: exp.Expression) -> bool:
    """True when every comparison against the business clock bounds its column on both sides
    (an equality, a BETWEEN, or both a lower and an upper bound); an open bound would widen the
    period when the clock moves back."""
    directions: dict[str, set[str]] = {}
    for cmp in tree.find_all(exp.EQ, exp.GT, exp.GTE, exp.LT, exp.LTE, exp.Between):
        sides = [cmp.this, cmp.expression] if not isinstance(cmp, exp.Between) else [cmp.this]
        clock_side = [s for s in sides if any(_is_clock(n) for n in s.walk())]
        if isinstance(cmp, exp.Between):
            if any(_is_clock(n) for n in cmp.walk()):
                directions.setdefault(cmp.this.sql(), set()).add("both")
            continue
        if not clock_side or len(clock_side) == 2:
            continue
        other = cmp.expression if clock_side[0] is cmp.this else cmp.this
        kind = "both" if isinstance(cmp, exp.EQ) else (
            "lower" if isinstance(cmp, exp.GT | exp.GTE) == (other is cmp.this) else "upper")
        directions.setdefault(other.sql(), set()).add(kind)
    return all("both" in d or {"lower", "upper"} <= d for d in directions.values())


def shift_business_clock(sql: str, unit: str, units_back: int) -> str | None:
    """``sql`` with every ``business_now()`` moved ``units_back`` units into the past, or None
    when a period in it is open-ended (moving the clock would then widen the answer)."""
    tree = sqlglot.parse_one(sql, read="postgres")
    if not _periods_closed(tree):
        return None
    if units_back == 0:
        return sql
    sign = "-" if units_back > 0 else "+"
    shifted = sqlglot.parse_one(f"(business_now() {sign} INTERVAL '{abs(units_back)} {unit}')", read="postgres")
    for node in list(tree.find_all(exp.Anonymous)):
        if _is_clock(node):
            node.replace(shifted.copy())
    return tree.sql(dialect="postgres")
