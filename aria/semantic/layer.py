"""The semantic layer as one object: the catalogue, MetricFlow's compiler and the question parser,
loaded once per process and database.

>>> describe(SemanticQuery(metrics=["revenue"]), None, "en")  # doctest: +SKIP
'Revenue'
"""

from __future__ import annotations

import datetime as dt
import logging
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from aria.errors import AriaError
from aria.semantic.catalog import SemanticCatalog, build_catalog, load_manifest, semantic_dir
from aria.semantic.compile import CompiledQuery, SemanticCompiler, load_compiler, period_label
from aria.semantic.lexicon import Entry, Learned, ValuesOf, learned_entries
from aria.semantic.lexicon_cache import LexiconCache, built_in_lexicon
from aria.semantic.manifest_cache import manifest_key, read_cached, write_cached
from aria.semantic.parse import Parsed, QuestionParser
from aria.semantic.query import SemanticQuery

log = logging.getLogger(__name__)

_GRAIN_WORDS = {
    "metric_time__day": ("theo ngày", "by day"), "metric_time__week": ("theo tuần", "by week"),
    "metric_time__month": ("theo tháng", "by month"), "metric_time__quarter": ("theo quý", "by quarter"),
    "metric_time__year": ("theo năm", "by year"),
}


class LearnedSource(Protocol):
    """Where the phrases managers taught live (the KB): a cheap version that changes with them, and them."""

    def version(self) -> object: ...

    def phrases(self) -> Sequence[Learned]: ...


@dataclass
class SemanticLayer:
    catalog: SemanticCatalog
    compiler: SemanticCompiler
    values_of: ValuesOf | None = None
    learned: LearnedSource | None = None
    lexicon_cache: LexiconCache | None = None  # where the built-in lexicon is cached (None: built each time)

    def __post_init__(self) -> None:
        self._parser: QuestionParser | None = None
        self._built_in: tuple[Entry, ...] | None = None
        self._learned: tuple[Learned, ...] = ()
        self._version: object = None
        self._tables: frozenset[str] | None = None  # the table numbers, read on first use
        self._lock = threading.Lock()

    @property
    def parser(self) -> QuestionParser:
        """Built on first use: it reads the names of dishes, categories, staff ... from the data."""
        with self._lock:
            if self._parser is None:
                if self._built_in is None:
                    self._built_in = built_in_lexicon(self.catalog, self.values_of, self.lexicon_cache)
                lexicon = (*learned_entries(self.catalog, self._learned), *self._built_in)
                self._parser = QuestionParser(self.catalog, lexicon, lambda m: self.compiler.group_bys(list(m)))
            return self._parser

    def with_phrase(self, phrase: str, kind: str, target: str) -> QuestionParser:
        """A parser that also knows one more phrase (to try a synonym before proposing it)."""
        base = self.parser
        extra = learned_entries(self.catalog, [(phrase, kind, target)])
        return QuestionParser(self.catalog, (*extra, *base.lexicon), base.group_bys_of)

    def attach_learned(self, source: LearnedSource) -> None:
        """Read learned phrases from ``source`` from now on, unless the layer already has a source."""
        with self._lock:
            if self.learned is None:
                self.learned = source

    def refresh_synonyms(self) -> bool:
        """Re-read the learned phrases when their version changed (one cheap query); True if it did.
        A KB that cannot be read keeps the phrases already loaded."""
        if self.learned is None:
            return False
        try:
            version = self.learned.version()
            if version == self._version:
                return False
            phrases = tuple(self.learned.phrases())
        except AriaError as err:
            log.warning("learned phrases not refreshed: %s", err)
            return False
        self.reload_synonyms(phrases, version)
        return True

    def reload_synonyms(self, phrases: Sequence[Learned], version: object = None) -> None:
        """Use ``phrases`` as the learned ones from now on (the built-in lexicon is kept)."""
        with self._lock:
            self._learned, self._version, self._parser = tuple(phrases), version, None

    @property
    def learned_phrases(self) -> tuple[Learned, ...]:
        return self._learned

    def parse(self, question: str, *, language: str, now: dt.datetime) -> Parsed:
        """The parser's reading, unless it names a table the restaurant does not have ("table 42" of 30): then
        which one it could not find (a filter on it would only show that nothing matches)."""
        parsed = self.parser.parse(question, language=language, now=now)
        missing = self._tables_not_found(parsed.query) if parsed.query is not None else []
        if not missing:
            return parsed
        word = "bàn" if language == "vi" else "table"
        return Parsed(None, parsed.recognised, [f"{word} {n}" for n in missing],
                      f"there is no table {', '.join(missing)} (the tables are numbered {self._table_range()})")

    def _tables_not_found(self, query: SemanticQuery) -> list[str]:
        said = [v for f in query.filters if f.dimension.endswith("__table_no") and f.op is None for v in f.values]
        known = self._table_numbers() if said else frozenset()  # read only when a table is said
        return [n for n in said if known and n not in known]

    def _table_numbers(self) -> frozenset[str]:
        """The restaurant's table numbers, read once (none when there is no database to read them from)."""
        if self._tables is None:
            dims = [d for d in self.catalog.dimensions if d.name == "table_no"]
            try:
                self._tables = frozenset(self.values_of(dims[0].table, dims[0].expr)) \
                    if self.values_of is not None and dims else frozenset()
            except AriaError as err:
                log.warning("table numbers not read: %s", err)
                return frozenset()
        return self._tables

    def _table_range(self) -> str:
        numbers = sorted(int(n) for n in self._table_numbers() if n.isdigit())
        return f"{numbers[0]}–{numbers[-1]}" if numbers else "otherwise"

    def compile(self, query: SemanticQuery) -> CompiledQuery:
        return self.compiler.compile(query)

    def describe(self, query: SemanticQuery, language: str) -> str:
        return describe(query, self.catalog, language)


def load_semantic_layer(*, business_schema: str, semantic_schema: str, values_of: ValuesOf | None = None,
                        directory: Path | None = None, learned: LearnedSource | None = None,
                        executor: Any | None = None, cache_dir: Path | None = None) -> SemanticLayer:
    """Load and validate the semantic model; raises :class:`SemanticModelError` naming what is wrong.
    With ``executor`` (the read-only executor), MetricFlow's own ``query`` runs through it too. With
    ``cache_dir``, a manifest that passed every check before (same files) is read from there and
    MetricFlow's engine is built at the first compilation (:mod:`aria.semantic.manifest_cache`); so is
    the built-in lexicon (:mod:`aria.semantic.lexicon_cache`)."""
    directory = directory or semantic_dir()
    key = manifest_key(directory, business_schema=business_schema, semantic_schema=semantic_schema) \
        if cache_dir is not None else ""
    manifest = read_cached(cache_dir, key) if cache_dir is not None else None
    cached = manifest is not None
    if manifest is None:
        manifest = load_manifest(directory, business_schema=business_schema, semantic_schema=semantic_schema)
    catalog = build_catalog(manifest)
    compiler = load_compiler(manifest, catalog, executor, deferred=cached)
    if cache_dir is not None and not cached:
        write_cached(cache_dir, key, manifest)
    lexicon_cache = LexiconCache(cache_dir, key) if cache_dir is not None else None
    layer = SemanticLayer(catalog=catalog, compiler=compiler, values_of=values_of, learned=learned,
                          lexicon_cache=lexicon_cache)
    layer.refresh_synonyms()
    return layer


def _group_words(name: str, catalog: SemanticCatalog | None, language: str) -> str:
    index = 0 if language == "vi" else 1
    if name in _GRAIN_WORDS:
        return _GRAIN_WORDS[name][index]
    dim = catalog.dimension_of(name) if catalog else None
    label = dim.labels.label(language).lower() if dim else name.rsplit("__", 1)[-1]
    return f"theo {label}" if language == "vi" else f"by {label}"


def _split_name(name: str, catalog: SemanticCatalog | None, language: str) -> str:
    """What a split is by, without "theo"/"by": "danh mục", "reorder level"."""
    return _group_words(name, catalog, language).split(" ", 1)[-1]


def _value_words(values: Sequence[str], name: str, catalog: SemanticCatalog | None, language: str) -> str:
    dim = catalog.dimension_of(name) if catalog else None
    hours = [int(v) for v in values if v.isdigit()]
    if dim is not None and dim.concept == "hour" and len(hours) == len(values) > 1 and \
            hours == list(range(hours[0], hours[-1] + 1)):  # a window of hours: "17:00-19:00"
        return f"{hours[0]:02d}:00–{hours[-1] + 1:02d}:00"
    if catalog is not None and dim is not None:  # a booking's shift: the shifts' words
        dim = catalog.valued(dim)
    codes = {v.code: v.labels.label(language) for v in dim.values} if dim else {}
    return " / ".join(codes.get(v, v) for v in values)


def _figure(value: float, language: str) -> str:
    """A figure as the manager reads it: "2,000,000", in Vietnamese "2.000.000"."""
    figure = f"{value:,.10g}"
    return figure.replace(",", ".") if language == "vi" else figure


def describe(query: SemanticQuery, catalog: SemanticCatalog | None, language: str) -> str:
    """The query in words, e.g. "Doanh thu · theo danh mục · 2026-11-01..2026-11-15 · thấp nhất 1"."""
    parts = [" + ".join(catalog.metrics[m].labels.label(language) if catalog and m in catalog.metrics else m
                        for m in query.metrics)]
    parts += [_group_words(g, catalog, language) for g in query.group_by]
    for flt in query.filters:
        if flt.op is not None:  # "số khách của lượt đặt >= 6", as a condition on a figure is shown below
            parts.append(f"{_split_name(flt.dimension, catalog, language)} {flt.op} "
                         f"{_figure(float(flt.values[0]), language)}")
            continue
        words = _value_words(flt.values, flt.dimension, catalog, language)
        parts.append(("không phải " if language == "vi" else "not ") + words if flt.exclude else words)
    if query.time is not None:
        parts.append(period_label(query.time))
    if query.compare is not None and query.returning is not None:  # "Khách đã mua · 2026-10 · quay lại 2026-11"
        back = ("quay lại " if language == "vi" else "came back ") if query.returning == "back" else \
            ("không quay lại " if language == "vi" else "not back ")
        parts.append(back + period_label(query.compare))
    elif query.compare is not None:
        parts.append(("so với " if language == "vi" else "compared with ") + period_label(query.compare))
    before = "" if query.compare is not None else " so với kỳ trước" if language == "vi" else " on the one before"
    if query.change_amount:
        parts.append(("chênh lệch" if language == "vi" else "change") + before)
    if query.change:
        parts.append(("thay đổi" if language == "vi" else "change") + before + " (%)")
    if query.share:
        parts.append("tỷ trọng trên tổng (%)" if language == "vi" else "share of the total (%)")
    if query.with_empty:
        parts.append("kể cả dòng bằng 0" if language == "vi" else "including those with none")
    if query.rows_only:
        parts.append("liệt kê" if language == "vi" else "listed")
    if query.below is not None:
        level = _split_name(query.below, catalog, language)
        parts.append(f"dưới {level}" if language == "vi" else f"below {level}")
    if query.threshold is not None:  # "Số phần bán được < 100"
        parts.append(f"{parts[0].split(' + ')[0]} {query.threshold.op} {_figure(query.threshold.value, language)}")
    for order in query.order_by:
        if query.limit is not None:
            word = ("cao nhất" if order.descending else "thấp nhất") if language == "vi" \
                else ("top" if order.descending else "bottom")
            within = ""
            if query.limit_per is not None:
                split = _split_name(query.limit_per, catalog, language)
                within = f" mỗi {split}" if language == "vi" else f" in each {split}"
            parts.append(f"{word} {query.limit}{within}")
    return " · ".join(parts)
