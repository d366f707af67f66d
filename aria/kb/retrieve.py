"""Two-step schema retrieval: dense (pgvector) and lexical (PostgreSQL full-text on normalized text)
scores fused by reciprocal rank, columns also by the question's words found in their names,
descriptions and glossary entries; top-k tables, columns against a token budget (or top-m per
table; a low-ranked table nothing but its rank brings gets only its best few and its name column;
the columns only the budget brings are rendered as name and type); then tables on foreign-key
paths, key columns, columns named in the question/evidence, matched values, glossary hits, a date column for a question about a period (the year column for one
naming a year), name parts for one asking for a name, the name column of a table the question names,
and the columns that join two chosen tables by their names when no foreign key does.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np

from aria.kb.catalog import Catalog, CatalogColumn
from aria.kb.context import GlossaryHit, MetricHit, SchemaContext, ValueMatch
from aria.text import STOPWORDS, contains_phrase, identifier_words, normalize, stem_text

RRF_K = 60
MAX_METRIC_HITS = 3
METRIC_MIN_SIMILARITY = 0.6  # a metric no phrase names is shown only when this similar to the question


@dataclass(frozen=True)
class RetrievalOptions:
    """Knobs of the fusion; the defaults are the benchmarked ones."""

    rrf_k: int = RRF_K
    column_weight: float = 1.0  # how much a table's best column counts towards the table's score
    table_weight: float = 1.0  # how much the table's score counts towards its columns' scores
    min_value_chars: int = 3
    max_value_tables: int = 3  # tables a value match may add beyond the top-k
    max_hops: int = 3
    extra_tables: int = 1  # tables ranked just below the top k, added with few columns
    extra_m: int = 0  # columns of each of those (besides its keys)
    described_weight: float = 4.0  # weight of the description/glossary word matches in a column's fused score
    dated: bool = True  # a question naming a year, a date or a period brings a date column of the chosen tables
    # (and one naming a year the column named year, when a chosen table has one)
    labels: bool = True  # a chosen table the question names brings its name column (players -> player_name)
    inferred_keys: bool = True  # columns that join two chosen tables by their names (setCode -> sets.code)
    asked_names: bool = True  # a question asking for a name brings the name parts of a chosen table
    column_floor: int = 3  # with a column token budget: the best columns of every chosen table kept first
    person_names: bool = True  # a person's name in the question adds the table of first/last names
    names_add_tables: bool = True  # a column name the question names adds its table when at most two tables have
    # it (False, a runner-up database's lean share: only when no other table has it)
    name_groups: bool = True  # a chosen first/last name column brings the other parts of the name
    weak_from: int = 2  # a first-step table ranked this low or lower (0-based: the 3rd of k=3) that only its rank
    # brings (none of its columns, values or glossary entries named, nor its name) is weak: it keeps its best
    # weak_floor columns, its name column and its keys, and takes no share of the column budget (0: off)
    weak_floor: int = 2
    brief_fill: bool = True  # with a column token budget, the columns only a score brings are rendered as name
    # and type (reason "fill"; no description or examples) and count their brief line against the budget
    full_floor: int = 1  # ... except each chosen table's best this many, rendered in full
    max_bridges: int = 1  # link tables added between two selected tables that nothing selected joins
    max_databases: int = 3  # warehouse of several databases: retrieve inside at most this many (0: off)
    runner_up_k: int = 2  # tables of the first step inside the databases after the best one
    database_close: float = 0.9  # a runner-up scoring this share of the best is too close to call: 2 tables
    database_ratio: float = 0.7  # a runner-up database is kept (its best table) when it scores this share of the best
    database_value_ratio: float = 0.5  # ... or this share, when a sampled value of it occurs in the question
    database_lexical: float = 0.1  # weight of a database's lexical matches against its dense similarity


@dataclass(frozen=True)
class ScoredDoc:
    kind: str
    key: str
    table: str | None
    column: str | None
    dense: float
    lex: float
    values: str | None


@dataclass
class _Selection:
    tables: list[str] = field(default_factory=list)
    columns: dict[str, dict[str, str]] = field(default_factory=lambda: defaultdict(dict))  # table -> col -> reason

    def add_table(self, table: str) -> None:
        if table not in self.tables:
            self.tables.append(table)

    def add_column(self, table: str, column: str, reason: str) -> None:
        """The first reason sticks, except that a column only filling the budget ("fill", rendered
        brief) takes any stronger reason found later (a key, a date, a name part)."""
        self.add_table(table)
        if self.columns[table].get(column, "fill") == "fill":
            self.columns[table][column] = reason


def rrf(ranked: list[str], k: int) -> dict[str, float]:
    return {key: 1.0 / (k + rank) for rank, key in enumerate(ranked, start=1)}


def _rank(scores: dict[str, float], *, positive: bool = False) -> list[str]:
    items = [(k, v) for k, v in scores.items() if not positive or v > 0]
    return [k for k, _ in sorted(items, key=lambda kv: -kv[1])]


def described_matches(catalog: Catalog, stemmed: str) -> dict[str, float]:
    """Columns whose name, description or glossary entries share words with the question (stemmed):
    the summed weight of the shared words, keyed ``table\\x00column``. Lexical, so a question in the
    words of a description ("tips") finds a cryptic column (``TIP_AMT``) that embeddings may miss."""
    words = set(stemmed.split())
    weights = catalog.word_weights
    out: dict[str, float] = {}
    for (table, column), column_words in catalog.column_words.items():
        shared = words & column_words
        if shared:
            out[f"{table}\x00{column}"] = sum(weights[w] for w in shared)
    return out


def fuse_scores(docs: list[ScoredDoc], opts: RetrievalOptions, described: dict[str, float] | None = None
                ) -> tuple[dict[str, float], dict[str, float]]:
    """(table scores, column scores keyed ``table\\x00column``) from dense and lexical rankings; the
    ranking of ``described`` matches (:func:`described_matches`), when given, adds to the columns'
    scores (which columns of a chosen table), not to the tables' (which tables)."""
    t_dense: dict[str, float] = {}
    t_lex: dict[str, float] = {}
    c_dense: dict[str, float] = {}
    c_lex: dict[str, float] = {}
    for d in docs:
        if d.kind == "table" and d.table:
            t_dense[d.table] = max(t_dense.get(d.table, -1.0), d.dense)
            t_lex[d.table] = max(t_lex.get(d.table, 0.0), d.lex)
        elif d.kind == "column" and d.table and d.column:
            key = f"{d.table}\x00{d.column}"
            c_dense[key], c_lex[key] = d.dense, d.lex
    col: defaultdict[str, float] = defaultdict(float)
    for part in (rrf(_rank(c_dense), opts.rrf_k), rrf(_rank(c_lex, positive=True), opts.rrf_k)):
        for key, value in part.items():
            col[key] += value
    best_col: dict[str, float] = {}
    for key, value in col.items():
        owner = key.split("\x00", 1)[0]
        best_col[owner] = max(best_col.get(owner, 0.0), value)
    table: defaultdict[str, float] = defaultdict(float)
    for part in (rrf(_rank(t_dense), opts.rrf_k), rrf(_rank(t_lex, positive=True), opts.rrf_k)):
        for key, value in part.items():
            table[key] += value
    for key, value in best_col.items():
        table[key] += opts.column_weight * value
    for key in col:
        col[key] += opts.table_weight * table.get(key.split("\x00", 1)[0], 0.0)
    for key, value in rrf(_rank(described or {}, positive=True), opts.rrf_k).items():
        if key in col:
            col[key] += opts.described_weight * value
    return dict(table), dict(col)


def named_columns(catalog: Catalog, stemmed: str) -> tuple[list[CatalogColumn], list[CatalogColumn]]:
    """(columns whose name occurs in the stemmed text, columns all of whose name words occur in it)."""
    words = set(stemmed.split())
    strong: list[CatalogColumn] = []
    weak: list[CatalogColumn] = []
    for spelling, cols in catalog.column_names_normalized.items():
        if len(spelling) >= 3 and contains_phrase(stemmed, spelling):
            strong += cols
        elif " " in spelling and all(w in words for w in spelling.split()):
            weak += cols
    return strong, weak


def named_tables(catalog: Catalog, stemmed: str) -> list[str]:
    return [t for spelling, tables in catalog.table_names_normalized.items()
            if len(spelling) >= 4 and contains_phrase(stemmed, spelling) and len(tables) <= 2 for t in tables]


def value_matches(catalog: Catalog, docs: list[ScoredDoc], text: str, opts: RetrievalOptions) -> list[ValueMatch]:
    """Sampled values of a column that occur in the question/evidence (lexical candidates, phrase-checked);
    also a two-word pattern shared with a sampled value ("Singapore Grand Prix" ~ "Australian Grand Prix")."""
    matches: list[ValueMatch] = []
    for d in docs:
        if d.kind != "column" or not d.values or not d.table or not d.column:
            continue
        for value in d.values.split(" | "):
            if len(value) >= opts.min_value_chars and not value.isdigit() and contains_phrase(text, value):
                matches.append(ValueMatch(table=d.table, column=d.column, value=value))
                break
        else:
            pattern = _shared_bigram(d.values, text)
            if pattern:
                matches.append(ValueMatch(table=d.table, column=d.column, value=f"*{pattern}*"))
    matches.sort(key=lambda v: -len(v.value))
    return matches


@lru_cache(maxsize=4096)
def _repeated_bigrams(values: str) -> tuple[str, ...]:
    """Two-word phrases (alphabetic words of 3+ letters, no stopwords) that sampled values repeat.
    Cached: a column's sampled values do not change between questions."""
    counts: dict[str, int] = defaultdict(int)
    for value in values.split(" | "):
        words = value.split()
        for a, b in zip(words, words[1:], strict=False):
            if len(a) >= 3 and len(b) >= 3 and a.isalpha() and b.isalpha() and a not in STOPWORDS \
                    and b not in STOPWORDS:
                counts[f"{a} {b}"] += 1
    return tuple(p for p, n in counts.items() if n >= 2)


def _shared_bigram(values: str, text: str) -> str | None:
    """A phrase of :func:`_repeated_bigrams` that occurs in ``text``."""
    shared = [p for p in _repeated_bigrams(values) if contains_phrase(text, p)]
    return max(shared, key=len) if shared else None


_CAPITALIZED = re.compile(r"\b[A-Z][a-z]+(?: (?:[A-Z][A-Za-z'-]+|de|di|da|van|von|der|del|le|du|dos|bin)\b)+")
_PARTICLES = frozenset(["de", "di", "da", "van", "von", "der", "del", "le", "du", "dos", "bin"])
NAME_PARTS = frozenset(["forename", "surname", "first name", "last name", "firstname", "lastname", "given name",
                        "family name", "fname", "lname"])


def mentions_person(raw: str) -> bool:
    """A run of exactly two capitalized words (a particle may sit between): "Lewis Hamilton",
    "Lucas di Grassi"; not "Australian Grand Prix" (three) nor "SLE" (one)."""
    for match in _CAPITALIZED.finditer(raw):
        words = [w for w in match.group(0).split() if w not in _PARTICLES]
        if len(words) == 2 and all(w[0].isupper() and not w.isupper() for w in words):
            return True
    return False


def person_table(catalog: Catalog, raw: str, scores: dict[str, float]) -> tuple[str, list[str]] | None:
    """When ``raw`` mentions a person ("Lewis Hamilton"), the best-scored table holding name parts
    (forename/surname, first_name/last_name) and those columns."""
    if not mentions_person(raw):
        return None
    holders = [(table, [c.name for c in cols if identifier_words(c.name) in NAME_PARTS])
               for table, cols in catalog.columns.items()]
    holders = [(t, cols) for t, cols in holders if cols]
    if not holders:  # no first/last names: a name column of its own (Player.player_name, full_name)
        holders = [(table, [c.name for c in cols if catalog.column_stems[(table, c.name)] in
                            ("full name", f"{catalog.table_stems[table]} name")])
                   for table, cols in catalog.columns.items()]
        holders = [(t, cols) for t, cols in holders if cols]
    return max(holders, key=lambda h: scores.get(h[0], 0.0)) if holders else None


def glossary_hits(catalog: Catalog, text: str) -> list[GlossaryHit]:
    hits = []
    for entry in catalog.glossary:
        term = normalize(str(entry.get("term") or ""))
        if term and contains_phrase(text, term):
            hits.append(GlossaryHit(term=str(entry["term"]), meaning=str(entry.get("meaning") or ""),
                                    table=entry.get("table"), column=entry.get("column"),
                                    value=None if entry.get("value") is None else str(entry["value"]),
                                    sql_hint=entry.get("sql_hint")))
    return hits


def metric_hits(catalog: Catalog, text: str, similarity: dict[str, float], *,
                limit: int = MAX_METRIC_HITS) -> list[MetricHit]:
    """Metrics whose label or synonym occurs in ``text`` (normalized), the longest phrase first, ties by
    similarity; when none does, the most similar metric if it is similar enough."""
    named: list[tuple[int, float, dict[str, Any]]] = []
    for entry in catalog.metrics:
        phrases = [normalize(str(p)) for p in (entry.get("label_vi"), entry.get("label_en"),
                                                *(entry.get("synonyms") or [])) if p]
        longest = max((len(p) for p in phrases if p and contains_phrase(text, p)), default=0)
        if longest:
            named.append((longest, similarity.get(str(entry.get("name")), 0.0), entry))
    named.sort(key=lambda item: (-item[0], -item[1]))
    chosen = [entry for _, _, entry in named[:limit]]
    if not chosen and similarity:
        best = max(similarity, key=lambda name: similarity[name])
        if similarity[best] >= METRIC_MIN_SIMILARITY:
            chosen = [e for e in catalog.metrics if e.get("name") == best]
    return [MetricHit(name=str(e.get("name")), label=f"{e.get('label_vi', '')} / {e.get('label_en', '')}",
                      unit=str(e.get("unit") or ""), computed=str(e.get("computed") or ""),
                      description=str(e.get("description") or "")) for e in chosen]


def select(catalog: Catalog, docs: list[ScoredDoc], text: str, *, k: int, m: int,
           opts: RetrievalOptions, raw: str = "", budget: int = 0
           ) -> tuple[_Selection, list[ValueMatch], list[GlossaryHit]]:
    """Which tables and columns go into the context, and why (``text`` normalized, ``raw`` as typed).
    ``budget`` > 0: retrieved columns in score order until they fill that many tokens (at most ``m`` of
    a table); 0: the best ``m`` columns of each table."""
    stemmed = stem_text(text)
    described = described_matches(catalog, stemmed) if opts.described_weight else None
    table_scores, column_scores = fuse_scores(docs, opts, described)
    sel = _Selection()
    ranked_tables = [t for t in _rank(table_scores) if t in catalog.columns]
    for table in ranked_tables[:k]:
        sel.add_table(table)
    light = [t for t in ranked_tables[k : k + opts.extra_tables] if t not in sel.tables]
    for table in named_tables(catalog, stemmed):
        sel.add_table(table)
    strong, weak = named_columns(catalog, stemmed)
    counts: dict[str, int] = defaultdict(int)
    for col in strong:
        counts[col.name.lower()] += 1
    for col in strong:
        if col.table in sel.tables or counts[col.name.lower()] <= (2 if opts.names_add_tables else 1):
            sel.add_column(col.table, col.name, "named")
    for col in weak:
        if col.table in sel.tables:
            sel.add_column(col.table, col.name, "named")
    values = value_matches(catalog, docs, text, opts)
    extra = 0
    for match in values:
        if match.table not in sel.tables:
            if extra >= opts.max_value_tables:
                continue
            extra += 1
        sel.add_column(match.table, match.column, "value")
    person = person_table(catalog, raw, table_scores) if opts.person_names else None
    if person is not None:
        for name in person[1]:
            sel.add_column(person[0], name, "person")
    hits = glossary_hits(catalog, text)
    for hit in hits:
        if hit.table and hit.table in catalog.columns:
            if hit.column:
                sel.add_column(hit.table, hit.column, "glossary")
            else:
                sel.add_table(hit.table)
    unbacked = _weak_tables(catalog, sel, ranked_tables[opts.weak_from:k], stemmed, hits) if opts.weak_from else set()
    for table in light:
        sel.add_table(table)
    for table in unbacked:
        for name in label_columns(catalog, table):
            sel.add_column(table, name, "label")
    if budget > 0:
        _budget_columns(catalog, sel, column_scores, budget, m, light=set(light), light_m=opts.extra_m,
                        floor_n=opts.column_floor, weak=unbacked, weak_floor=opts.weak_floor, brief=opts.brief_fill,
                        full_floor=opts.full_floor)
    else:
        _top_columns(catalog, sel, column_scores, m, light=set(light), light_m=opts.extra_m)
    # the tables the question is about: not a light one, unless the question names a column or value of it
    focus = [t for t in sel.tables if t not in light or sel.columns.get(t)]
    if opts.dated and asks_for_time(text):
        _date_column(catalog, sel, column_scores, tables=focus)
        if _YEAR.search(text):
            _year_column(catalog, sel, column_scores, tables=focus)
    if opts.labels:
        _label_columns(catalog, sel, stemmed, tables=focus)
    if opts.name_groups:
        if opts.asked_names and asks_for_name(text):
            _asked_names(catalog, sel, tables=sel.tables[:k], scores=table_scores if asks_who(raw) else None)
        _name_groups(catalog, sel)
    for table in catalog.connect(sel.tables, max_hops=opts.max_hops, scores=table_scores):
        sel.add_table(table)
    for table in catalog.bridges(sel.tables, scores=table_scores, limit=opts.max_bridges):
        sel.add_table(table)
    _key_columns(catalog, sel)
    if opts.inferred_keys:
        _inferred_keys(catalog, sel)
    return sel, values, hits


def _weak_tables(catalog: Catalog, sel: _Selection, tables: list[str], stemmed: str,
                 hits: list[GlossaryHit]) -> set[str]:
    """The ``tables`` (chosen by rank alone, low in the first step) that nothing else points at: no
    column of theirs is named, matched by a value or a glossary entry, and neither they nor a glossary
    entry name them. Such a table is more often a wrong guess than a needed one."""
    named = set(named_tables(catalog, stemmed)) | {h.table for h in hits if h.table}
    return {t for t in tables if t not in named and not sel.columns.get(t)}


def merge_selections(parts: list[tuple[_Selection, list[ValueMatch], list[GlossaryHit]]]
                     ) -> tuple[_Selection, list[ValueMatch], list[GlossaryHit]]:
    """One selection from the selections of disjoint databases, in their order."""
    sel = _Selection()
    values: list[ValueMatch] = []
    hits: list[GlossaryHit] = []
    for part, part_values, part_hits in parts:
        for table in part.tables:
            sel.add_table(table)
            for column, reason in part.columns.get(table, {}).items():
                sel.add_column(table, column, reason)
        values += part_values
        hits += part_hits
    return sel, values, hits


def _top_columns(catalog: Catalog, sel: _Selection, column_scores: dict[str, float], m: int, *,
                 light: set[str], light_m: int) -> None:
    for table in sel.tables:
        cols = catalog.columns.get(table, [])
        ranked = sorted(cols, key=lambda c: -column_scores.get(f"{table}\x00{c.name}", 0.0))
        for col in ranked[: light_m if table in light else m]:
            sel.add_column(table, col.name, "retrieved")


def _budget_columns(catalog: Catalog, sel: _Selection, column_scores: dict[str, float], budget: int, m: int, *,
                    light: set[str], light_m: int, floor_n: int = 0, weak: set[str] | None = None,
                    weak_floor: int = 0, brief: bool = False, full_floor: int = 0) -> None:
    """Columns of the chosen tables ranked together by fused score (the table's score is part of it),
    kept in that order until their rendered lines fill ``budget`` tokens: a wide table gets what the
    question needs, a narrow one is not padded. The best ``floor_n`` of every table come first (they
    count against the budget too; a ``weak`` table's best ``weak_floor`` only, and nothing beyond them);
    at most ``m`` retrieved columns per table. ``brief``: all but the best ``full_floor`` of a table only
    fill the budget; they are rendered as name and type ("fill") and count that brief line."""
    candidates = [(column_scores.get(f"{table}\x00{col.name}", 0.0), table, col)
                  for table in sel.tables if table not in light
                  for col in catalog.columns.get(table, []) if col.name not in sel.columns.get(table, {})]
    candidates.sort(key=lambda c: -c[0])
    depth: dict[str, int] = defaultdict(int)
    floor: list[tuple[float, str, CatalogColumn]] = []
    rest: list[tuple[float, str, CatalogColumn]] = []
    weak = weak or set()
    for candidate in candidates:
        table = candidate[1]
        depth[table] += 1
        if depth[table] <= min(weak_floor if table in weak else floor_n, m):
            floor.append(candidate)
        elif table not in weak:
            rest.append(candidate)
    spent = 0
    taken: dict[str, int] = defaultdict(int)
    for _, table, col in floor:
        full = not brief or taken[table] < full_floor
        sel.add_column(table, col.name, "retrieved" if full else "fill")
        taken[table] += 1
        spent += col.token_count if full else col.brief_token_count
    for _, table, col in rest:
        if spent >= budget:
            break
        if taken[table] < m:
            sel.add_column(table, col.name, "fill" if brief else "retrieved")
            taken[table] += 1
            spent += col.brief_token_count if brief else col.token_count
    for table in light:
        ranked = sorted(catalog.columns.get(table, []), key=lambda c: -column_scores.get(f"{table}\x00{c.name}", 0.0))
        for col in ranked[:light_m]:
            sel.add_column(table, col.name, "retrieved")


_YEAR = re.compile(r"\b(1[89]\d\d|20\d\d)\b")
TIME_WORDS = frozenset(["year", "years", "month", "months", "date", "dates", "day", "days", "week", "weeks", "when",
                        "yearly", "monthly", "daily", "today", "yesterday", "nam", "thang", "ngay", "tuan",
                        "hom"])  # năm, tháng, ngày, tuần, hôm (qua/nay): normalized
NAME_WORDS = frozenset(["name", "names", "who", "whose", "ten"])
_WHO = re.compile(r"(?:^|[.?!;]\s+)(?:who|whose|whom)\b", re.IGNORECASE)
_DATE_NAME = re.compile(r"date|year|month|dob|birth|(^|_)dt($|_)|(^|_)(ngay|nam|thang)($|_)", re.IGNORECASE)


def asks_for_time(text: str) -> bool:
    """The (normalized) question names a year, a date or a period: "in 2008", "2015/11/29",
    "this month", "hôm qua"."""
    return bool(_YEAR.search(text)) or any(w in TIME_WORDS for w in text.split())


def asks_for_name(text: str) -> bool:
    """The (normalized) question asks for someone's name ("his name", "who", "tên")."""
    return any(w in NAME_WORDS for w in text.split())


def asks_who(raw: str) -> bool:
    """A sentence of the question (as typed) opens with who: "Who finished second?", not "the
    students who have a dog"."""
    return bool(_WHO.search(raw))


def is_date_column(col: CatalogColumn) -> bool:
    """A column that places a row in the calendar (a date, a timestamp, a year), by type or name; a time
    of day alone is not one."""
    kind = str(col.data.get("type") or "").lower()
    return "date" in kind or "timestamp" in kind or bool(_DATE_NAME.search(col.name))


def _date_column(catalog: Catalog, sel: _Selection, column_scores: dict[str, float], *, tables: list[str]) -> None:
    """A question about a year, a date or a period needs a date column: the best-scored one of the
    chosen tables, unless one is chosen already."""
    candidates = [(column_scores.get(f"{t}\x00{c.name}", 0.0), t, c.name)
                  for t in tables for c in catalog.columns.get(t, []) if is_date_column(c)]
    if candidates and not any(name in sel.columns.get(table, {}) for _, table, name in candidates):
        _, table, name = max(candidates)
        sel.add_column(table, name, "date")


def _year_column(catalog: Catalog, sel: _Selection, column_scores: dict[str, float], *, tables: list[str]) -> None:
    """A question naming a year ("in 2009", "the 2008 Australian Grand Prix") filters on the column
    named year when a chosen table has one (a date column may be chosen already): the best-scored one."""
    candidates = [(column_scores.get(f"{t}\x00{c.name}", 0.0), t, c.name)
                  for t in tables for c in catalog.columns.get(t, []) if identifier_words(c.name) == "year"]
    if candidates and not any(name in sel.columns.get(table, {}) for _, table, name in candidates):
        _, table, name = max(candidates)
        sel.add_column(table, name, "date")


def label_columns(catalog: Catalog, table: str) -> list[str]:
    """The columns that name a row of ``table``: ``name``, or the table's own name + name
    (``player_name`` of ``Player``, ``superhero_name`` of ``superhero``)."""
    own = catalog.table_stems.get(table, "")
    return [c.name for c in catalog.columns.get(table, [])
            if catalog.column_stems[(table, c.name)] in ("name", f"{own} name")]


def _label_columns(catalog: Catalog, sel: _Selection, stemmed: str, *, tables: list[str]) -> None:
    """A question that names a chosen table ("list the superheroes", "which constructors", "in the
    set Coldsnap") usually shows or filters its rows by their name: the table's name column comes along."""
    for table in tables:
        own = catalog.table_stems.get(table, "")
        if own and (contains_phrase(stemmed, own) or contains_phrase(stemmed, f"{own}e")):  # superheroes -> superheroe
            for name in label_columns(catalog, table):
                sel.add_column(table, name, "label")


def _inferred_keys(catalog: Catalog, sel: _Selection) -> None:
    """Two chosen tables that no foreign key joins may still join by name: a column named after the
    other table and one of its columns (``cards.setCode`` = ``sets.code``, ``orders.customer_id`` =
    ``customers.id``) is a key the query needs to join them."""
    chosen = set(sel.tables)
    joined = {frozenset((e.table, e.ref_table)) for e in catalog.edges_between(chosen)}
    for other in sel.tables:
        own = catalog.table_stems.get(other, "")
        if not own:
            continue
        targets = {_prefixed(own, catalog.column_stems[(other, c.name)]): c.name for c in catalog.columns.get(other, [])
                   if c.data.get("pk") or catalog.column_stems[(other, c.name)] in ("id", "code")}
        for table in sel.tables:
            if table == other or frozenset((table, other)) in joined:
                continue
            for col in catalog.columns.get(table, []):
                target = targets.get(catalog.column_stems[(table, col.name)])
                if target:
                    sel.add_column(table, col.name, "key")
                    sel.add_column(other, target, "key")


def _prefixed(own: str, words: str) -> str:
    return words if words.startswith(f"{own} ") else f"{own} {words}"


def _name_parts(catalog: Catalog, table: str) -> list[str]:
    return [c.name for c in catalog.columns.get(table, []) if identifier_words(c.name) in NAME_PARTS]


def _asked_names(catalog: Catalog, sel: _Selection, *, tables: list[str],
                 scores: dict[str, float] | None = None) -> None:
    """A question asking for a name brings the name parts (first/last, forename/surname) of the best
    table holding them among ``tables``. Given ``scores`` (a question asking who), when none of them
    holds a person's name, the best-scored table that does and that a chosen table joins directly
    ("who finished second": results -> drivers)."""
    for table in tables:
        parts = _name_parts(catalog, table)
        if parts:
            for name in parts:
                sel.add_column(table, name, "name")
            return
    if scores is None:
        return
    chosen = set(sel.tables)
    neighbours = {e.ref_table if e.table in chosen else e.table for e in catalog.edges
                  if (e.table in chosen) != (e.ref_table in chosen)}
    holders = [t for t in neighbours if _name_parts(catalog, t)]
    if holders:
        table = max(holders, key=lambda t: scores.get(t, 0.0))
        for name in _name_parts(catalog, table):
            sel.add_column(table, name, "name")


def _name_groups(catalog: Catalog, sel: _Selection) -> None:
    """A person's name is one thing to a manager: a chosen first name brings the last name with it
    (forename/surname, given/family name) and the other way round."""
    for table in list(sel.tables):
        parts = [c.name for c in catalog.columns.get(table, []) if identifier_words(c.name) in NAME_PARTS]
        if len(parts) > 1 and any(p in sel.columns.get(table, {}) for p in parts):
            for name in parts:
                sel.add_column(table, name, "name")


def _key_columns(catalog: Catalog, sel: _Selection) -> None:
    chosen = set(sel.tables)
    for table in sel.tables:
        for col in catalog.columns.get(table, []):
            if col.data.get("pk"):
                sel.add_column(table, col.name, "key")
    for edge in catalog.edges_between(chosen):
        for name in edge.columns:
            sel.add_column(edge.table, name, "key")
        for name in edge.ref_columns:
            sel.add_column(edge.ref_table, name, "key")


def to_context(catalog: Catalog, sel: _Selection, values: list[ValueMatch], hits: list[GlossaryHit], *,
               k: int, m: int, budget: int = 0) -> SchemaContext:
    tables = []
    for name in sel.tables:
        wanted = sel.columns.get(name, {})
        cols = [(c, wanted[c.name]) for c in catalog.columns.get(name, []) if c.name in wanted]
        tables.append(catalog.context_table(name, cols))
    return SchemaContext(db_name=catalog.db_name, tables=tuple(tables),
                         join_paths=tuple(catalog.edges_between(set(sel.tables))),
                         matched_values=tuple(values), glossary_hits=tuple(hits), full_schema=False, k=k, m=m,
                         budget=budget)


def as_vector(values: np.ndarray) -> np.ndarray:
    return np.asarray(values, dtype=np.float32).reshape(-1)
