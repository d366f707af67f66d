"""Verified-query reuse: answer a question like one a manager already confirmed, with its values
re-bound, in zero model calls. The re-bound SQL still goes through the guard, the cost guard, the
read-only executor and the deterministic result checks.

The nearest verified questions (embedding similarity at least ``reuse_min_similarity``) are only
candidates: one is reused when the new question has exactly its template (see
:mod:`aria.reflect.reuse_match`) and every changed value maps onto a literal of its SQL.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

from sqlglot import exp

from aria.errors import AriaError
from aria.reflect.answer import Answer
from aria.reflect.answer_text import summarize_result
from aria.reflect.deps import RunState
from aria.reflect.entailment_loop import execute
from aria.reflect.language import Language
from aria.reflect.reuse_match import ReusePlan, plan_reuse
from aria.sql.result_checks import check_result

CANDIDATES = 5
MAX_DISTINCT_VALUES = 2000
_LABEL_TYPES = ("text", "character varying", "varchar")
REUSED = {
    "vi": "{summary} (Dùng lại truy vấn đã xác minh #{id}{values}.)",
    "en": "{summary} (Reused verified query #{id}{values}.)",
}
T = TypeVar("T")


def _ident(name: str) -> str:
    return exp.to_identifier(name, quoted=True).sql("postgres")


class ColumnFacts:
    """What reuse reads about the data (distinct values, labels of codes, rows dated after now),
    through the guarded executor, cached per process and database."""

    def __init__(self) -> None:
        self._cache: dict[tuple[str, str, str], object] = {}
        self._lock = threading.Lock()

    def _cached(self, state: RunState, kind: str, key: str, compute: Callable[[], T]) -> T:
        full = (state.deps.kb.db_name, kind, key)
        with self._lock:
            if full in self._cache:
                return self._cache[full]  # type: ignore[return-value]
        value = compute()
        with self._lock:
            self._cache[full] = value
        return value

    def _column(self, state: RunState, column: str) -> tuple[str, str] | None:
        table, _, name = column.rpartition(".")
        found = state.deps.schema.table(table) if table else None
        return (found.name, name) if found is not None and found.column(name) is not None else None

    def _rows(self, state: RunState, sql: str) -> list[list[object]]:
        try:
            return state.deps.executor.run(sql).rows
        except AriaError:
            return []

    def values(self, state: RunState, column: str) -> Sequence[str]:
        """Distinct values of ``table.column`` as text."""
        where = self._column(state, column)
        if where is None:
            return ()
        sql = f"SELECT DISTINCT {_ident(where[1])}::text FROM {_ident(where[0])} LIMIT {MAX_DISTINCT_VALUES}"
        return self._cached(state, "values", column,
                            lambda: tuple(str(r[0]) for r in self._rows(state, sql) if r[0] is not None))

    def aliases(self, state: RunState, column: str) -> Mapping[str, str]:
        """Labels of a code column's values from the same row ("Lẩu" -> "HOTPOT"), when unique."""
        where = self._column(state, column)
        if where is None:
            return {}
        table = state.deps.schema.table(where[0])
        assert table is not None
        labels = [c.name for c in table.columns if "name" in c.name.lower() and c.name != where[1]
                  and c.data_type.lower() in _LABEL_TYPES]
        if not labels or len(self.values(state, column)) > 100:
            return {}
        sql = (f"SELECT DISTINCT {_ident(where[1])}::text, {', '.join(_ident(c) for c in labels)} "
               f"FROM {_ident(where[0])} LIMIT {MAX_DISTINCT_VALUES}")
        return self._cached(state, "aliases", column, lambda: _unique_labels(self._rows(state, sql)))

    def has_future_rows(self, state: RunState, table: str, column: str) -> bool:
        """True when ``table.column`` holds values after the business clock (e.g. future bookings)."""
        if self._column(state, f"{table}.{column}") is None:
            return True
        sql = f"SELECT EXISTS (SELECT 1 FROM {_ident(table)} WHERE {_ident(column)} > business_now())"

        def compute() -> bool:
            rows = self._rows(state, sql)
            return not rows or bool(rows[0][0])

        return self._cached(state, "future", f"{table}.{column}", compute)


def _unique_labels(rows: list[list[object]]) -> dict[str, str]:
    """label -> value for labels that name exactly one value."""
    seen: dict[str, set[str]] = {}
    for row in rows:
        for label in row[1:]:
            if label is not None and row[0] is not None:
                seen.setdefault(str(label), set()).add(str(row[0]))
    return {label: next(iter(values)) for label, values in seen.items() if len(values) == 1}


FACTS = ColumnFacts()


def _plan(state: RunState, question: str, old_question: str, old_sql: str) -> ReusePlan | None:
    plan = plan_reuse(question, old_question, old_sql, values_of=lambda c: FACTS.values(state, c),
                      aliases_of=lambda c: FACTS.aliases(state, c))
    if plan is None or any(FACTS.has_future_rows(state, t, c) for t, c in plan.into_current):
        return None
    return plan


def find_plan(state: RunState, question: str) -> tuple[int, ReusePlan] | None:
    """The closest verified query whose template the question fills, with its plan."""
    for candidate in state.deps.kb.nearest_examples(question, CANDIDATES):
        if candidate.similarity < state.settings.reuse_min_similarity:
            break
        plan = _plan(state, question, candidate.question, candidate.sql)
        if plan is not None:
            return candidate.id, plan
    return None


def _values_note(plan: ReusePlan, language: Language) -> str:
    changes = [str(v) for v in plan.bindings.values()]
    if plan.shift is not None:
        changes.append(plan.shift.text)
    if not changes:
        return ""
    return (" với giá trị mới: " if language == "vi" else " with new values: ") + ", ".join(changes)


def try_reuse(state: RunState, question: str, language: Language) -> Answer | None:
    """The answer from a re-bound verified query, or None (then the loops, or an honest 'no')."""
    with state.recorder.step("reuse", "reuse_match") as event:
        found = find_plan(state, question)
        if found is None:
            event.detail = "no verified question matches closely enough"
            return None
        query_id, plan = found
        event.sql = plan.sql
        event.detail = f"reused verified query #{query_id}{_values_note(plan, 'en')}"
    result = execute(state, plan.sql, 0)
    if isinstance(result, str):
        return None
    findings = check_result(result.columns, result.rows, sql=plan.sql)
    if any(f.severity == "hard" for f in findings):
        state.recorder.trace.events[-1].findings = findings
        return None
    summary = summarize_result(language, result.columns, result.rows)
    text = REUSED[language].format(summary=summary, id=query_id, values=_values_note(plan, language))
    return Answer(question=question, language=language, status="reused", answer_text=text, sql=plan.sql,
                  columns=result.columns, rows=result.rows, truncated=result.truncated,
                  trace=state.recorder.trace, reused_query_id=query_id)
