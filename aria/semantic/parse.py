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

import datetime as dt
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from aria.kb.text import normalize
from aria.semantic.catalog import SemanticCatalog
from aria.semantic.lexicon import GROUP_MARKERS, WHICH_WORDS, Entry, ValueMeaning
from aria.semantic.periods import find_periods
from aria.semantic.query import OrderBy, SemanticQuery, TimeRange, ValueFilter

GroupBysOf = Callable[[list[str]], Sequence[str]]  # metrics -> the group-by names MetricFlow can join

_TOP_N = re.compile(r"^(?:top|nhung|cac)$")
_TABLE_NO = re.compile(r"\b(?:ban so|ban|table number|table no|table|tables) (\d{1,3})\b")
_MAX_TOP = 100
DATE_PART_CONCEPTS = {"metric_time__extract_hour": "hour", "metric_time__extract_dow": "weekday"}


@dataclass
class Parsed:
    """What the parser made of a question: a query, or what it recognised and what it could not."""

    query: SemanticQuery | None
    recognised: list[str] = field(default_factory=list)  # e.g. ["metric revenue", "time tháng này"]
    unknown: list[str] = field(default_factory=list)  # words nothing accounted for
    problem: str = ""  # why there is no query

    @property
    def ok(self) -> bool:
        return self.query is not None


@dataclass
class _Mark:
    kind: str
    payload: object = None
    group: int = -1  # index of the mention this token belongs to


def tokens_of(question: str) -> list[str]:
    return normalize(question).split()


class _Marks:
    """Which token means what; every token ends up marked or is a leftover."""

    def __init__(self, words: list[str]) -> None:
        self.words = words
        self.marks: list[_Mark | None] = [None] * len(words)
        self.mentions: list[tuple[int, int, str, object]] = []  # (start, end, kind, payload)

    def free(self, start: int, end: int) -> bool:
        return all(m is None for m in self.marks[start:end])

    def mark(self, start: int, end: int, kind: str, payload: object = None) -> None:
        index = len(self.mentions)
        self.mentions.append((start, end, kind, payload))
        for i in range(start, end):
            self.marks[i] = _Mark(kind, payload, index)

    def find(self, phrase: tuple[str, ...]) -> list[int]:
        n = len(phrase)
        return [i for i in range(len(self.words) - n + 1)
                if tuple(self.words[i:i + n]) == phrase and self.free(i, i + n)]

    def before(self, index: int) -> str:
        return self.words[index - 1] if index > 0 else ""

    def leftovers(self) -> list[str]:
        return [w for w, m in zip(self.words, self.marks, strict=True) if m is None]


def _mark_periods(marks: _Marks, text: str, now: dt.datetime) -> list[TimeRange]:
    ranges = []
    offsets = [m.start() for m in re.finditer(r"\S+", text)]
    for found in find_periods(text, now):
        covered = [i for i, off in enumerate(offsets) if found.start <= off < found.end]
        if covered and marks.free(covered[0], covered[-1] + 1):
            marks.mark(covered[0], covered[-1] + 1, "time", found.range)
            ranges.append(found.range)
    return ranges


def _mark_table_numbers(marks: _Marks, text: str) -> list[ValueFilter]:
    filters = []
    offsets = [m.start() for m in re.finditer(r"\S+", text)]
    for match in _TABLE_NO.finditer(text):
        covered = [i for i, off in enumerate(offsets) if match.start() <= off < match.end()]
        if covered and marks.free(covered[0], covered[-1] + 1):
            marks.mark(covered[0], covered[-1] + 1, "table_no", match.group(1))
            filters.append(match.group(1))
    return [ValueFilter(dimension="table_no", values=(v,)) for v in filters]


def _mark_top_n(marks: _Marks) -> int | None:
    limit = None
    for i, word in enumerate(marks.words):
        if not word.isdigit() or marks.marks[i] is not None or not 1 <= int(word) <= _MAX_TOP:
            continue
        if i > 0 and _TOP_N.match(marks.words[i - 1]) and marks.marks[i - 1] is None:
            marks.mark(i - 1, i + 1, "top", int(word))
            limit = int(word)
        elif i + 1 < len(marks.words):  # "5 món", "which 5 dishes": a number before a noun
            limit = int(word)
            marks.mark(i, i + 1, "top", limit)
    return limit


def _mark_lexicon(marks: _Marks, lexicon: Sequence[Entry]) -> None:
    for entry in lexicon:
        for start in marks.find(entry.tokens):
            marks.mark(start, start + len(entry.tokens), entry.kind, entry.payload)


class QuestionParser:
    """Parses questions against one semantic model; the lexicon is built once (values included)."""

    def __init__(self, catalog: SemanticCatalog, lexicon: Sequence[Entry], group_bys_of: GroupBysOf) -> None:
        self.catalog = catalog
        self.lexicon = lexicon
        self.group_bys_of = group_bys_of

    def parse(self, question: str, *, language: str, now: dt.datetime) -> Parsed:
        text = normalize(question)
        marks = _Marks(text.split())
        if not marks.words:
            return Parsed(None, problem="empty question")
        ranges = _mark_periods(marks, text, now)
        tables = _mark_table_numbers(marks, text)
        limit = _mark_top_n(marks)
        _mark_lexicon(marks, self.lexicon)
        _absorb_which_and_markers(marks)
        recognised = _recognised(marks)
        unknown = marks.leftovers()
        if unknown:
            return Parsed(None, recognised, unknown, "some words were not recognised")
        if len(ranges) > 1:
            return Parsed(None, recognised, [], "two time periods (a comparison) are not supported yet")
        return self._build(marks, language, ranges[0] if ranges else None, tables, limit, recognised)

    def _build(self, marks: _Marks, language: str, period: TimeRange | None, tables: list[ValueFilter],
               limit: int | None, recognised: list[str]) -> Parsed:
        named = list(dict.fromkeys(str(p) for _, _, k, p in marks.mentions if k == "metric"))
        named = named or [str(p) for _, _, k, p in marks.mentions if k == "verb" and p in self.catalog.metrics][:1]
        if not named:
            return Parsed(None, recognised, [], "no metric recognised")
        try:
            metrics, filters, group_by = self._split(marks, named, language, tables, limit)
        except _Unanswerable as err:
            finer = [self.catalog.metrics[m].finer or m for m in named]
            if finer == named or any(m not in self.catalog.metrics for m in finer):
                return Parsed(None, recognised, [], str(err))
            try:  # revenue by category is dish sales by category
                metrics, filters, group_by = self._split(marks, finer, language, tables, limit)
            except _Unanswerable as err2:
                return Parsed(None, recognised, [], str(err2))
        superlative = next((p for _, _, k, p in marks.mentions if k == "superlative"), None)
        order_by: list[OrderBy] = []
        if (superlative is not None or limit is not None) and not group_by:
            return Parsed(None, recognised, [], "a ranking needs something to rank (e.g. dishes, categories)")
        if superlative is not None or limit is not None:
            order_by = [OrderBy(by=metrics[0], descending=True if superlative is None else bool(superlative))]
            if limit is None and not _plural_subject(marks):
                limit = 1
        query = SemanticQuery(metrics=metrics, group_by=list(dict.fromkeys(group_by)), filters=filters, time=period,
                              order_by=order_by, limit=limit, language=language)
        return Parsed(query, recognised)

    def _split(self, marks: _Marks, named: list[str], language: str, tables: list[ValueFilter],
               limit: int | None) -> tuple[list[str], list[ValueFilter], list[str]]:
        metrics = list(dict.fromkeys([*named, *(c for m in named for c in self.catalog.metrics[m].companions
                                                if c in self.catalog.metrics)]))
        available = list(self.group_bys_of(metrics))
        filters, filter_groups = self._filters(marks, available, language, tables)
        return metrics, filters, self._group_by(marks, available, language, limit) + filter_groups

    def _grain(self, grain: str, available: list[str], language: str) -> str:
        """A time grain; an hour of day or a weekday is the model's own dimension when it has one (the
        hour the order was opened), else MetricFlow's date part of metric_time."""
        concept = DATE_PART_CONCEPTS.get(grain)
        if concept is not None:
            try:
                return self._pick(concept, available, language)
            except _Unanswerable:
                pass
        return grain

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
            raise _Unanswerable(f"the metric cannot be split or filtered by {concept}")
        return min(candidates)[2]

    def _filters(self, marks: _Marks, available: list[str], language: str,
                 tables: list[ValueFilter]) -> tuple[list[ValueFilter], list[str]]:
        by_dimension: dict[str, list[str]] = {}
        for _, _, kind, payload in marks.mentions:
            if kind != "value":
                continue
            assert isinstance(payload, ValueMeaning)
            name = self._pick(payload.concept, available, language, element=payload.dimension)
            by_dimension.setdefault(name, []).append(payload.value)
        for table in tables:
            name = self._pick("table_no", available, language, element="table_no")
            by_dimension.setdefault(name, []).extend(table.values)
        filters = [ValueFilter(dimension=d, values=tuple(dict.fromkeys(v))) for d, v in by_dimension.items()]
        split = [f.dimension for f in filters if len(f.values) > 1]  # "ca trưa và ca tối": one row each
        return filters, split

    def _group_by(self, marks: _Marks, available: list[str], language: str, limit: int | None) -> list[str]:
        group_by = []
        ranking = limit is not None or any(k == "superlative" for _, _, k, _ in marks.mentions)
        for start, _, kind, payload in marks.mentions:
            if kind == "grain":
                group_by.append(self._grain(str(payload), available, language))
            elif kind == "concept":
                marker = _marked_before(marks, start, ("group", "which", "top")) or \
                    marks.words[start] in {m.split()[0] for m in GROUP_MARKERS}
                if not (marker or ranking):
                    raise _Unanswerable(f"'{' '.join(marks.words[start:start + 1])}' is named without a "
                                        "value or a 'by'")
                group_by.append(self._pick(str(payload), available, language))
        return group_by


class _Unanswerable(Exception):
    pass


def _absorb_which_and_markers(marks: _Marks) -> None:
    """Group markers ("theo", "by") and which-words ("nào", "which") count when next to what they mark:
    a concept or a grain ("theo danh mục", "món nào"), a value ("món combo nào"), or — for "by" — the
    metric a ranking is by ("busiest by number of orders")."""
    markers = {m.split()[-1] for m in GROUP_MARKERS}
    for i, word in enumerate(marks.words):
        mark = marks.marks[i]
        if mark is not None and mark.kind != "filler":
            continue
        nxt = marks.marks[i + 1] if i + 1 < len(marks.words) else None
        prev = marks.marks[i - 1] if i > 0 else None
        if word in WHICH_WORDS and ((nxt and nxt.kind in ("concept", "grain", "top")) or
                                    (prev and prev.kind in ("concept", "value"))):
            marks.marks[i] = _Mark("which")
        elif word in markers and nxt and nxt.kind in ("concept", "grain"):
            marks.marks[i] = _Mark("group")
        elif word in ("by", "theo") and nxt and nxt.kind == "metric":
            marks.marks[i] = _Mark("basis")


def _marked_before(marks: _Marks, start: int, kinds: tuple[str, ...]) -> bool:
    for i in (start - 1, start + 1):
        if 0 <= i < len(marks.words) and marks.marks[i] is not None and marks.marks[i].kind in kinds:  # type: ignore
            return True
    return False


def _plural_subject(marks: _Marks) -> bool:
    """English plural subject ("which dishes ...") asks for a ranked list, not one row."""
    for _start, end, kind, _ in marks.mentions:
        if kind in ("concept", "grain") and marks.words[end - 1].endswith("s") and len(marks.words[end - 1]) > 3:
            return True
    return False


def _recognised(marks: _Marks) -> list[str]:
    out = []
    for start, end, kind, payload in marks.mentions:
        if kind in ("filler", "conjunction", "verb"):
            continue
        shown = payload.value if isinstance(payload, ValueMeaning) else payload
        if isinstance(shown, TimeRange):
            shown = f"{shown.start}..{shown.end}"
        out.append(f"{kind}: {' '.join(marks.words[start:end])} -> {shown}")
    return out
