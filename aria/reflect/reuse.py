"""Verified-query reuse: answer a question like one a manager already confirmed, with its values
re-bound, in zero model calls. The re-bound SQL still goes through the guard, the cost guard, the
read-only executor and the deterministic result checks."""

from __future__ import annotations

import threading
from collections.abc import Sequence

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
REUSED = {
    "vi": "{summary} (Dùng lại truy vấn đã xác minh #{id}{values}.)",
    "en": "{summary} (Reused verified query #{id}{values}.)",
}


class ColumnValues:
    """Distinct values of a column, read through the guarded executor and cached per process."""

    def __init__(self) -> None:
        self._cache: dict[str, tuple[str, ...]] = {}
        self._lock = threading.Lock()

    def __call__(self, state: RunState, column: str) -> Sequence[str]:
        with self._lock:
            if column in self._cache:
                return self._cache[column]
        table, _, name = column.rpartition(".")
        if not table or state.deps.schema.table(table) is None or state.deps.schema.table(table).column(name) is None:
            return ()
        try:
            column_sql = exp.column(name, quoted=True).sql("postgres")
            table_sql = exp.to_identifier(table, quoted=True).sql("postgres")
            result = state.deps.executor.run(
                f"SELECT DISTINCT {column_sql}::text FROM {table_sql} LIMIT {MAX_DISTINCT_VALUES}"
            )
        except AriaError:
            return ()
        values = tuple(str(r[0]) for r in result.rows if r[0] is not None)
        with self._lock:
            self._cache[column] = values
        return values


_VALUES = ColumnValues()


def find_plan(state: RunState, question: str) -> tuple[int, ReusePlan] | None:
    """The closest verified query that the question re-binds, with its plan."""
    min_similarity = state.settings.reuse_min_similarity
    for candidate in state.deps.kb.nearest_examples(question, CANDIDATES):
        if candidate.similarity < min_similarity * 0.85:
            break
        plan = plan_reuse(question, candidate.question, candidate.sql,
                          values_of=lambda column: _VALUES(state, column))
        if plan is not None and (candidate.similarity >= min_similarity or plan.similarity >= 0.99):
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
