"""``aria bench semantic``: golden questions answered by the semantic layer alone, with no model.

Each question is parsed, compiled by MetricFlow and run read-only; its rows are compared with the
gold SQL's rows: the same set of rows, up to the order of columns (Spider's test-suite evaluation
also allows column permutations; the golden SQL orders the same columns differently from one
question to the next). A
question the parser hands over is *refused* (never wrong); one it answers is *correct* or *wrong*.
A wrong answer that holds the gold rows plus other columns (a companion figure the golden SQL left
out) is counted wrong and also reported as ``wrong_extra_columns``; one whose every column is among the
gold's, the gold showing more beside them (a companion figure or label the parser left out), as
``wrong_missing_columns``. The rest of the wrong answers give other rows or other figures.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import yaml

from aria.db.golden import load_golden
from aria.errors import AriaError, ConfigError
from aria.eval.metric import row_set
from aria.reflect.deps import QueryExecutor, business_now
from aria.reflect.language import detect_language
from aria.semantic.layer import SemanticLayer


@dataclass(frozen=True)
class SemanticItem:
    id: str
    question: str
    outcome: str  # correct | wrong | refused | failed
    latency_ms: float
    words: str = ""
    sql: str = ""
    detail: str = ""
    extra_columns: bool = False  # wrong, but the gold rows are there beside other columns
    missing_columns: bool = False  # wrong, but its columns are among the gold's, which shows more beside them


@dataclass
class SemanticReport:
    split: str
    items: list[SemanticItem] = field(default_factory=list)

    def count(self, outcome: str) -> int:
        return sum(i.outcome == outcome for i in self.items)

    def as_dict(self) -> dict[str, Any]:
        n = len(self.items) or 1
        answered = [i for i in self.items if i.outcome in ("correct", "wrong")]
        return {
            "split": self.split, "questions": len(self.items), "answered": len(answered),
            "correct": self.count("correct"), "wrong": self.count("wrong"), "refused": self.count("refused"),
            "failed": self.count("failed"), "correct_pct": round(100 * self.count("correct") / n, 1),
            "wrong_extra_columns": sum(i.extra_columns for i in self.items),
            "wrong_missing_columns": sum(i.missing_columns for i in self.items),
            "wrong_pct": round(100 * self.count("wrong") / n, 1),
            "median_latency_ms": round(statistics.median(i.latency_ms for i in answered), 1) if answered else None,
            "model_calls": 0, "items": [asdict(i) for i in self.items],
        }


def _column_signature(rows: Sequence[Sequence[Any]], index: int) -> tuple[str, ...]:
    return tuple(sorted(repr(row[index]) for row in rows))


def _matched_columns(pred: Sequence[Sequence[Any]], gold: Sequence[Sequence[Any]]) -> list[int] | None:
    """For each gold column, a distinct predicted column with the same values (None if one has none)."""
    free = list(range(len(pred[0])))
    order = []
    for g in range(len(gold[0])):
        wanted = _column_signature(gold, g)
        match = next((p for p in free if _column_signature(pred, p) == wanted), None)
        if match is None:
            return None
        free.remove(match)
        order.append(match)
    return order


def covers_answer(pred: Sequence[Sequence[Any]], gold: Sequence[Sequence[Any]]) -> bool:
    """The gold rows are in ``pred`` once its extra columns are dropped.

    >>> covers_answer([[5, "a", 9]], [["a", 5]]), covers_answer([[5, "a"]], [["a", 6]])
    (True, False)
    """
    if not pred or not gold or len(pred) != len(gold) or len(pred[0]) < len(gold[0]):
        return False
    order = _matched_columns(pred, gold)
    return order is not None and row_set([[row[i] for i in order] for row in pred]) == row_set(gold)


def same_answer(pred: Sequence[Sequence[Any]], gold: Sequence[Sequence[Any]]) -> bool:
    """Same rows up to the order of columns (as Spider's test-suite evaluation allows): every gold column
    is matched to a predicted column with the same values, then the row sets must be equal.

    >>> same_answer([[5, "a"]], [["a", 5]]), same_answer([[5, "a"]], [["b", 5]])
    (True, False)
    """
    if row_set(pred) == row_set(gold):
        return True
    if not pred or not gold or len(pred[0]) != len(gold[0]):
        return False
    order = _matched_columns(pred, gold)
    return order is not None and row_set([[row[i] for i in order] for row in pred]) == row_set(gold)


def judged(rows: Sequence[Sequence[Any]], gold: Sequence[Sequence[Any]]) -> tuple[str, bool, bool]:
    """(correct | wrong, the gold rows beside other columns, some of the gold's columns and not the others)."""
    if same_answer(rows, gold):
        return "correct", False, False
    return "wrong", covers_answer(rows, gold), covers_answer(gold, rows)


@dataclass(frozen=True)
class BenchQuestion:
    id: str
    question: str
    sql: str
    lang: str = "vi"


def load_questions(split: str) -> list[BenchQuestion]:
    """``examples``/``eval``, or a YAML file with a ``questions:`` (or ``paraphrases:``) list of entries
    with id, question, sql and optionally lang."""
    if split in ("examples", "eval"):
        return [BenchQuestion(q.id, q.question, q.sql, q.lang) for q in load_golden(split)]  # type: ignore[arg-type]
    try:
        raw = yaml.safe_load(Path(split).read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as err:
        raise ConfigError(f"Cannot read questions from {split}: {str(err).splitlines()[0]}",
                          hint="Use --split examples, eval, or a YAML file of questions with gold SQL.") from err
    entries = (raw.get("questions") or raw.get("paraphrases") or []) if isinstance(raw, dict) else []
    out = [BenchQuestion(str(e["id"]), str(e["question"]), str(e["sql"]), str(e.get("lang", "vi")))
           for e in entries if isinstance(e, dict) and e.get("sql") and e.get("question") and e.get("id")]
    if not out:
        raise ConfigError(f"{split} has no questions with gold SQL.", hint="See seed_db/questions/examples.yaml.")
    return out


def _one(layer: SemanticLayer, executor: QueryExecutor, item: BenchQuestion, now: datetime) -> SemanticItem:
    language = detect_language(item.question) or item.lang
    started = time.perf_counter()
    parsed = layer.parse(item.question, language=language, now=now)
    if parsed.query is None:
        ms = (time.perf_counter() - started) * 1000
        detail = parsed.problem + (f": {', '.join(parsed.unknown)}" if parsed.unknown else "")
        return SemanticItem(item.id, item.question, "refused", ms, detail=detail)
    words = layer.describe(parsed.query, language)
    try:
        compiled = layer.compile(parsed.query)
        rows = executor.run(compiled.sql).rows
    except AriaError as err:
        ms = (time.perf_counter() - started) * 1000
        return SemanticItem(item.id, item.question, "failed", ms, words=words, detail=str(err)[:300])
    ms = (time.perf_counter() - started) * 1000
    gold = executor.run(item.sql).rows
    outcome, extra, missing = judged(rows, gold)
    return SemanticItem(item.id, item.question, outcome, ms, words=words, sql=compiled.sql,
                        extra_columns=extra, missing_columns=missing)


def _asked(engine: Any, item: BenchQuestion) -> SemanticItem:
    """One question through the whole engine with no model: reuse, then the semantic layer."""
    started = time.perf_counter()
    answer = engine.ask(item.question)
    ms = (time.perf_counter() - started) * 1000
    if answer.llm_calls:
        raise RuntimeError("the no-model bench made a model call")
    if answer.status not in ("answered", "reused"):
        return SemanticItem(item.id, item.question, "failed" if answer.status == "error" else "refused", ms,
                            detail=answer.error or answer.status)
    words = answer.semantic_query or (f"reused verified query #{answer.reused_query_id}" if answer.reused_query_id
                                      else "")
    gold = engine.deps.executor.run(item.sql).rows
    outcome, extra, missing = judged(answer.rows, gold)
    return SemanticItem(item.id, item.question, outcome, ms, words=words, sql=answer.sql or "",
                        extra_columns=extra, missing_columns=missing)


def run_engine_bench(engine: Any, questions: Sequence[BenchQuestion], *, split: str) -> SemanticReport:
    """The no-model engine (verified-query reuse, then the semantic layer) on golden questions."""
    return SemanticReport(split=f"{split} (engine, no model)", items=[_asked(engine, q) for q in questions])


def run_semantic_bench(layer: SemanticLayer, executor: QueryExecutor, questions: Sequence[BenchQuestion], *,
                       split: str, timezone: str) -> SemanticReport:
    now = business_now(executor, timezone)
    return SemanticReport(split=split, items=[_one(layer, executor, q, now) for q in questions])


def semantic_markdown(report: SemanticReport) -> str:
    figures = report.as_dict()
    lines = [f"Semantic layer on {figures['split']}: {figures['questions']} questions, 0 model calls",
             f"  answered {figures['answered']} · correct {figures['correct']} ({figures['correct_pct']}%) · "
             f"wrong {figures['wrong']} ({figures['wrong_pct']}%) · refused {figures['refused']} · "
             f"failed {figures['failed']}",
             f"  of the wrong: {figures['wrong_extra_columns']} give the gold rows beside other columns, "
             f"{figures['wrong_missing_columns']} give some of the gold's columns and not the others",
             f"  median question → rows: {figures['median_latency_ms']} ms"]
    held_out = figures["split"].split(" (")[0] == "eval"  # the test set's questions (alone, or through the engine)
    # are not shown to whoever tunes the parser
    for item in report.items:
        if item.outcome in ("wrong", "failed"):
            lines.append(f"  {item.outcome.upper()} {item.id}" if held_out else
                         f"  {item.outcome.upper()} {item.id}: {item.question} — {item.words} {item.detail}")
    return "\n".join(lines)
