"""The words the semantic parser knows: metric and dimension labels and synonyms from the semantic
model, values from the data (dish names, categories, staff ...), and a small fixed vocabulary of
time phrases, grains, ranking words and function words in Vietnamese and English.

Everything is matched on normalized text (lower case, no diacritics: ``aria.kb.text.normalize``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from aria.kb.text import normalize
from aria.semantic.catalog import SemanticCatalog

ValuesOf = Callable[[str, str], Sequence[str]]  # (table, column) -> distinct values

# Group-by words that set a grain of metric_time.
GRAINS: dict[str, str] = {
    "theo ngay": "metric_time__day", "moi ngay": "metric_time__day", "tung ngay": "metric_time__day",
    "hang ngay": "metric_time__day", "ngay nao": "metric_time__day", "daily": "metric_time__day",
    "by day": "metric_time__day", "per day": "metric_time__day", "each day": "metric_time__day",
    "which day": "metric_time__day", "what day": "metric_time__day", "by date": "metric_time__day",
    "theo tuan": "metric_time__week", "moi tuan": "metric_time__week", "tung tuan": "metric_time__week",
    "hang tuan": "metric_time__week", "tuan nao": "metric_time__week", "weekly": "metric_time__week",
    "by week": "metric_time__week", "per week": "metric_time__week", "each week": "metric_time__week",
    "which week": "metric_time__week",
    "theo thang": "metric_time__month", "moi thang": "metric_time__month", "tung thang": "metric_time__month",
    "hang thang": "metric_time__month", "thang nao": "metric_time__month", "monthly": "metric_time__month",
    "by month": "metric_time__month", "per month": "metric_time__month", "each month": "metric_time__month",
    "which month": "metric_time__month",
    "theo gio": "metric_time__extract_hour", "tung gio": "metric_time__extract_hour",
    "moi gio": "metric_time__extract_hour", "khung gio": "metric_time__extract_hour",
    "gio nao": "metric_time__extract_hour", "gio nao trong ngay": "metric_time__extract_hour",
    "theo gio trong ngay": "metric_time__extract_hour", "by hour": "metric_time__extract_hour",
    "per hour": "metric_time__extract_hour", "hourly": "metric_time__extract_hour",
    "by hour of the day": "metric_time__extract_hour", "hour of the day": "metric_time__extract_hour",
    "hours of the day": "metric_time__extract_hour", "which hour": "metric_time__extract_hour",
    "what hour": "metric_time__extract_hour", "which hours": "metric_time__extract_hour",
    "what time of day": "metric_time__extract_hour",
    "theo thu": "metric_time__extract_dow", "thu nao": "metric_time__extract_dow",
    "thu trong tuan": "metric_time__extract_dow", "theo thu trong tuan": "metric_time__extract_dow",
    "ngay trong tuan": "metric_time__extract_dow", "by day of the week": "metric_time__extract_dow",
    "day of the week": "metric_time__extract_dow", "by weekday": "metric_time__extract_dow",
    "which weekday": "metric_time__extract_dow", "which day of the week": "metric_time__extract_dow",
}
# Words that ask for a split by the dimension named next to them.
GROUP_MARKERS = ("theo tung", "theo moi", "theo", "tung", "moi", "cho tung", "cho moi", "chia theo", "phan theo",
                 "by", "per", "each", "for each", "every", "broken down by", "split by", "for every")
WHICH_WORDS = ("nao", "which", "what")
# Superlatives: True = largest first.
SUPERLATIVES: dict[str, bool] = {
    "cao nhat": True, "nhieu nhat": True, "lon nhat": True, "lau nhat": True, "cham nhat": True,
    "chay nhat": True, "dong nhat": True, "dat nhat": True, "tot nhat": True, "nhat": True,
    "thap nhat": False, "it nhat": False, "nho nhat": False, "nhanh nhat": False, "e nhat": False,
    "re nhat": False, "kem nhat": False, "vang nhat": False,
    "most": True, "highest": True, "largest": True, "biggest": True, "longest": True, "slowest": True,
    "busiest": True, "best": True, "top": True, "greatest": True, "most popular": True, "the most": True,
    "least": False, "lowest": False, "smallest": False, "fewest": False, "shortest": False, "fastest": False,
    "quietest": False, "worst": False, "the least": False, "slowest selling": False, "least popular": False,
}
# Verbs that go with a metric ("how much tax did we collect"): accounted for only beside a metric.
# A verb that names a metric by itself ("how many X did we sell") gives that metric when none is named.
VERBS: dict[str, str | None] = {
    "sell": "portions_sold", "sold": "portions_sold", "selling": "portions_sold", "ban duoc": "portions_sold",
    "ban ra": "portions_sold", "collect": None, "collected": None, "make": None, "made": None, "earn": None,
    "earned": None, "take": None, "took": None, "bring in": None, "brought in": None, "thu": None,
    "thu duoc": None, "thu ve": None, "mang ve": None, "serve": None, "served": None, "phuc vu": None,
    "spend": None, "spent": None, "pay": None, "paid": None, "give": None, "gave": None, "had": None,
}
# List words: "ca trưa và ca tối", "cash or card".
CONJUNCTIONS = ("va", "and", "hoac", "or", "cung", "voi", "vs", "versus")
# Function words: accounted for, meaning nothing by themselves. Negations, "except", "average",
# "per guest" etc. are deliberately absent: a question with them is not answered by a guess.
FILLERS = frozenset(["la", "co", "duoc", "cua", "cho", "xem", "biet", "giup", "gi", "nhung", "cac", "mot", "da", "dang", "ay", "vay", "nhe", "oi", "hoi", "toi", "minh", "hay", "trong", "vao", "o", "tai", "tong", "the", "a", "an", "of", "in", "on", "for", "at", "to", "was", "were", "is", "are", "be", "been", "what", "how", "did", "do", "does", "we", "our", "us", "show", "me", "give", "list", "tell", "please", "total", "overall", "currently", "now", "there", "have", "has", "had", "it", "its", "all", "get", "see", "find", "report", "view", "during"])
FILLER_PHRASES = ("so far", "right now", "up to now", "until now", "to date", "tinh den nay", "den thoi diem nay",
                  "tu dau thang", "tu dau tuan", "den gio", "hien tai", "bao nhieu", "la bao nhieu", "how much",
                  "how many", "nhu the nao", "the nao", "chung toi", "what is", "what was", "what were", "tong cong", "nha hang", "chung ta",
                  "the restaurant", "our restaurant", "in total", "all together", "altogether")


_SPLIT_WORDS = frozenset({"theo", "tung", "moi", "by", "per", "each"})


@dataclass(frozen=True)
class Entry:
    """One known phrase (normalized tokens) and what it means."""

    tokens: tuple[str, ...]
    kind: str  # metric | concept | value | grain | superlative | filler
    payload: Any


@dataclass(frozen=True)
class ValueMeaning:
    semantic_model: str
    dimension: str  # element name in its semantic model
    value: str  # the value as stored (a code or a name)
    concept: str


def _words(text: str) -> tuple[str, ...]:
    return tuple(normalize(text).split())


def _add(entries: dict[tuple[tuple[str, ...], str], Entry], phrase: str, kind: str, payload: Any) -> None:
    words = _words(phrase)
    if words:
        entries.setdefault((words, kind), Entry(words, kind, payload))


def build_lexicon(catalog: SemanticCatalog, values_of: ValuesOf | None) -> tuple[Entry, ...]:
    """Every phrase the parser knows, longest first (so "doanh thu thuần" beats "doanh thu")."""
    entries: dict[tuple[tuple[str, ...], str], Entry] = {}
    for metric in catalog.metrics.values():
        for phrase in metric.labels.phrases:
            if not _SPLIT_WORDS.intersection(_words(phrase)):  # "sales by category" is a metric and a split
                _add(entries, phrase, "metric", metric.name)
    for dim in catalog.dimensions:
        if dim.is_time:
            continue
        for phrase in dim.labels.phrases:
            _add(entries, phrase, "concept", dim.concept)
        for value in dim.values:
            meaning = ValueMeaning(dim.semantic_model, dim.name, value.code, dim.concept)
            for phrase in value.labels.phrases:
                _add(entries, phrase, "value", meaning)
            if len(value.code) >= 4:
                _add(entries, value.code, "value", meaning)
        if values_of is not None and _is_name(dim):
            for name in values_of(dim.table, dim.expr):
                if len(normalize(name)) >= 3:
                    _add(entries, name, "value", ValueMeaning(dim.semantic_model, dim.name, name, dim.concept))
    for phrase, grain in GRAINS.items():
        _add(entries, phrase, "grain", grain)
    for phrase, verb_metric in VERBS.items():
        _add(entries, phrase, "verb", verb_metric)
    for phrase in CONJUNCTIONS:
        _add(entries, phrase, "conjunction", None)
    for phrase, descending in SUPERLATIVES.items():
        _add(entries, phrase, "superlative", descending)
    for phrase in (*FILLER_PHRASES, *FILLERS):
        _add(entries, phrase, "filler", None)
    return tuple(sorted(entries.values(), key=lambda e: (-len(e.tokens), e.kind != "value")))


def _is_name(dim: Any) -> bool:
    from aria.semantic.compile import NAME_DIMENSIONS

    return dim.lang is not None or dim.name in NAME_DIMENSIONS and dim.name != "table_no"
