"""Learning synonyms (issue 12, "Learning"): a manager teaches the semantic parser a phrase.

Two ways in. :func:`propose_synonym`: a confirmed answer to a question the parser could not read
completely proposes its unknown words as a synonym of the metric, concept or value the answer used,
only when that is unambiguous: one run of unknown words, and exactly one candidate target such that
the question, read with the phrase learned, is answered by the semantic layer with the confirmed
answer's rows. :func:`teach_synonym`: the explicit edit (``aria kb synonym add``, the Knowledge Base
page). Either way the phrase is checked (:mod:`aria.semantic.learn`) and stored as a KB revision
that ``aria kb undo`` reverts.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
from collections.abc import Sequence
from decimal import Decimal
from typing import Any, Literal

import sqlglot
from pydantic import BaseModel
from sqlglot import exp

from aria.errors import AriaError
from aria.kb.enrich import Change, Revision, apply_change
from aria.reflect.answer import Answer
from aria.reflect.deps import EngineDeps, QueryExecutor, business_now
from aria.semantic.layer import SemanticLayer
from aria.semantic.learn import MAX_WORDS, SynonymError, check_learnable, resolve_value, value_meanings
from aria.semantic.lexicon import value_target
from aria.semantic.parse import Parsed
from aria.semantic.query import SemanticQuery
from aria.text import normalize

log = logging.getLogger(__name__)

MAX_TRIALS = 6  # candidate targets put to the test (each a compile and a read-only run)


class SynonymProposal(BaseModel):
    """A phrase to learn: ``phrase`` means ``kind`` ``target`` (shown as ``label``)."""

    phrase: str
    kind: Literal["metric", "concept", "value"]
    target: str
    language: Literal["vi", "en"] = "vi"
    label: str = ""


def propose_synonym(answer: Answer, deps: EngineDeps) -> SynonymProposal | None:
    """The synonym a confirmed answer teaches, or None (nothing unknown, ambiguous, or not provable)."""
    layer = deps.semantic
    if layer is None or not answer.rows:
        return None
    layer.refresh_synonyms()
    now = business_now(deps.executor, deps.settings.timezone)
    parsed = layer.parse(answer.question, language=answer.language, now=now)
    if parsed.ok or not parsed.unknown:
        return None
    phrases = candidate_phrases(answer.question, parsed.unknown)
    targets = candidate_targets(answer, layer, parsed)
    if not phrases or not targets or len(targets) > MAX_TRIALS:
        return None
    proven: dict[tuple[str, str], str] = {}
    runs: dict[str, Any] = {}
    for kind, target in targets:
        phrase = _first_proven(layer, deps.executor, answer, phrases, kind, target, now, runs)
        if phrase is not None:
            proven[(kind, target)] = phrase
    if len(proven) != 1:
        return None
    (kind, target), phrase = next(iter(proven.items()))
    return SynonymProposal(phrase=phrase, kind=kind, target=target, language=answer.language,  # type: ignore[arg-type]
                           label=target_label(layer, kind, target, answer.language))


def _first_proven(layer: SemanticLayer, executor: QueryExecutor, answer: Answer, phrases: Sequence[str], kind: str,
                  target: str, now: dt.datetime, runs: dict[str, Any]) -> str | None:
    """The shortest phrase that, learned as ``target``, makes the semantic layer give the answer's rows."""
    for phrase in phrases:
        try:
            check_learnable(phrase, kind, target, catalog=layer.catalog, lexicon=layer.parser.lexicon, now=now)
        except SynonymError:
            continue
        parsed = layer.with_phrase(phrase, kind, target).parse(answer.question, language=answer.language, now=now)
        if parsed.query is None or not _uses(parsed.query, layer, kind, target):
            continue
        key = parsed.query.model_dump_json()
        if key not in runs:
            runs[key] = _rows(layer, executor, parsed.query)
        if runs[key] is not None and same_rows(runs[key], answer.rows):
            return phrase
    return None


def _rows(layer: SemanticLayer, executor: QueryExecutor, query: SemanticQuery) -> list[list[Any]] | None:
    try:
        return [list(r) for r in executor.run(layer.compile(query).sql).rows]
    except AriaError as err:
        log.info("synonym trial not run: %s", err)
        return None


def _uses(query: SemanticQuery, layer: SemanticLayer, kind: str, target: str) -> bool:
    if kind == "metric":
        return target in query.metrics
    if kind == "concept":
        return any((d := layer.catalog.dimension_of(g)) is not None and d.concept == target for g in query.group_by)
    return any(target.endswith(f"={v}") for f in query.filters for v in f.values)


def candidate_phrases(question: str, unknown: Sequence[str]) -> list[str]:
    """Phrases of the question (as typed) that hold the one run of unknown words, shortest first: the run
    alone, then with the words around it ("ruột" -> "khách ruột"), up to five words.

    >>> candidate_phrases("Tháng này có bao nhiêu khách ruột?", ["ruot"])[:3]
    ['ruột', 'khách ruột', 'nhiêu khách ruột']
    """
    words = _typed_words(question)
    tokens = [w[0] for w in words]
    run = [normalize(u) for u in unknown]
    n = len(run)
    starts = [i for i in range(len(tokens) - n + 1) if tokens[i:i + n] == run]
    if n == 0 or n > MAX_WORDS or len(starts) != 1:
        return []
    start = starts[0]
    spans = {(start - left, start + n + right) for left in range(MAX_WORDS - n + 1)
             for right in range(MAX_WORDS - n - left + 1) if start - left >= 0 and start + n + right <= len(tokens)}
    return [" ".join(w[1] for w in words[a:b]) for a, b in sorted(spans, key=lambda s: (s[1] - s[0], -s[0]))]


def _typed_words(question: str) -> list[tuple[str, str]]:
    """(normalized token, the word as typed) for each token of the question."""
    pairs = [(token, word) for word in re.findall(r"\w+", question) for token in normalize(word).split()]
    if [p[0] for p in pairs] != normalize(question).split():
        return [(t, t) for t in normalize(question).split()]
    return [(t, w.lower()) for t, w in pairs]


def candidate_targets(answer: Answer, layer: SemanticLayer, parsed: Parsed) -> list[tuple[str, str]]:
    """Metrics, concepts and values the answer used and the question did not name: metrics by the answer's
    columns or its semantic query in words, concepts by its "theo X"/"by X" words, values by the SQL's
    string literals."""
    named = {item.meaning for item in parsed.recognised}
    columns = {c.lower() for c in answer.columns}
    words = answer.semantic_query or ""
    metric_words = words.split(" · ")[0].split(" + ") if words else []
    found = [("metric", m.name) for m in layer.catalog.metrics.values()
             if m.name not in named and (m.column.lower() in columns or m.labels.label(answer.language) in metric_words)]
    parts = set(words.split(" · ")[1:])
    found += [("concept", c) for c, labels in layer.catalog.concepts.items() if c not in named
              and {f"theo {labels.vi.lower()}", f"by {labels.en.lower()}"} & parts]
    literals = _string_literals(answer.sql or "")
    found += sorted({("value", value_target(m)) for e in layer.parser.lexicon if e.kind == "value"
                     for m in value_meanings(e) if m.value in literals and m.value not in named})
    return list(dict.fromkeys(found))


def _string_literals(sql_text: str) -> set[str]:
    try:
        tree = sqlglot.parse_one(sql_text, read="postgres")
    except sqlglot.errors.ParseError:
        return set()
    return {lit.this for lit in tree.find_all(exp.Literal) if lit.is_string}


def same_rows(got: Sequence[Sequence[Any]], expected: Sequence[Sequence[Any]]) -> bool:
    """The same rows up to the order of columns and of rows, numbers compared after rounding.

    >>> same_rows([[5, "a"]], [["a", Decimal("5.0")]]), same_rows([[5]], [[6]])
    (True, False)
    """
    if len(got) != len(expected) or not got or len(got[0]) != len(expected[0]):
        return False
    width = len(got[0])
    free, order = list(range(width)), []
    for column in range(width):
        wanted = sorted(map(_key, (row[column] for row in expected)), key=repr)
        match = next((c for c in free if sorted(map(_key, (row[c] for row in got)), key=repr) == wanted), None)
        if match is None:
            return False
        free.remove(match)
        order.append(match)
    return sorted((tuple(_key(r[c]) for c in order) for r in got), key=repr) == \
        sorted((tuple(map(_key, r)) for r in expected), key=repr)


def _key(value: Any) -> Any:
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int | float | Decimal):
        return round(float(value), 2)
    return str(value)


def target_label(layer: SemanticLayer, kind: str, target: str, language: str) -> str:
    """A target in words: the metric's or concept's label, or the value's label or name."""
    if kind == "metric" and target in layer.catalog.metrics:
        return layer.catalog.metrics[target].labels.label(language)
    if kind == "concept" and target in layer.catalog.concepts:
        return layer.catalog.concepts[target].label(language)
    dimension, _, value = target.partition("=")
    dim = layer.catalog.dimension(*dimension.partition(".")[::2])
    codes = {v.code: v.labels.label(language) for v in dim.values} if dim else {}
    return codes.get(value, value)


def teach_synonym(layer: SemanticLayer, kb: Any, phrase: str, kind: str, target: str, *, language: str,
                  author: str, now: dt.datetime) -> Revision:
    """Learn ``phrase`` as ``kind`` ``target`` (checked first): one KB revision; the layer reads it at once."""
    layer.refresh_synonyms()
    if kind == "value":
        target = resolve_value(target, layer.parser.lexicon)
    check_learnable(phrase, kind, target, catalog=layer.catalog, lexicon=layer.parser.lexicon, now=now)
    change = Change(kind="synonym", db_name=kb.db_name, term=phrase.strip(), synonym_kind=kind, target=target,
                    lang=language if language in ("vi", "en") else "vi", confirmed_by=author)
    revision = apply_change(kb.store, kb.embedder, change)
    layer.refresh_synonyms()
    return revision


def teach_from_settings(settings: Any, targets: Any, phrase: str, kind: str, target: str, *, language: str,
                        author: str) -> Revision:
    """:func:`teach_synonym` on the configured databases (the CLI's and the Knowledge Base page's way in)."""
    from aria.db.executor import ReadOnlyExecutor
    from aria.kb.service import open_kb
    from aria.reflect.semantic_stage import open_semantic_layer

    kb = open_kb(settings, targets.kb)
    try:
        with ReadOnlyExecutor(targets.reader, settings) as executor:
            layer = open_semantic_layer(settings, executor, kb)
            if layer is None:
                raise SynonymError("The semantic layer is off (its files did not load), so it cannot learn phrases.",
                                   hint="Run `aria semantic list` to see what is wrong.")
            now = business_now(executor, settings.timezone)
            return teach_synonym(layer, kb, phrase, kind, target, language=language, author=author, now=now)
    finally:
        kb.store.close()
