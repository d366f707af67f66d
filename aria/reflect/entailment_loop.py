"""Execution and Loop 3 — entailment (§5, eq. 4): run the SQL read-only, then judge whether the
result answers the question. The deterministic result checks are the judge's evidence for E_data
and cap it when they fail hard (an empty result, a ratio of NULLs, ...)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from aria.db.executor import QueryResult
from aria.db.result_limits import clip_value
from aria.errors import AriaError, DatabaseUnavailable
from aria.llm.schemas import EntailmentVerdict
from aria.reflect.deps import RunState
from aria.reflect.scoring import score_e
from aria.reflect.trace import Finding, Score
from aria.sql.result_checks import check_result

PREVIEW_ROWS = 20
PREVIEW_VALUE_CHARS = 300  # a value longer than this reaches the judge cut, with the clip marker
DATA_HARD_CAP = 2.0  # on the 1-5 scale


@dataclass(frozen=True)
class EntailmentOutcome:
    score: float | None  # None when the loop is switched off
    passed: bool
    diagnosis: str = ""
    findings: list[Finding] = field(default_factory=list)


def execute(state: RunState, sql: str, iteration: int) -> QueryResult | str:
    """The result, or the error text (guard, cost, database, timeout) when it could not run."""
    with state.recorder.step("execution", "execute", iteration) as event:
        event.sql = sql
        try:
            result = state.deps.executor.run(sql)
        except DatabaseUnavailable:
            raise  # an outage, not a SQL mistake: not worth another round of the loops
        except AriaError as err:
            event.error = str(err)
            return event.error
        event.row_count = result.row_count
        event.detail = result.note or ("truncated at the row cap" if result.truncated else "")
    return result


def result_preview(result: QueryResult) -> str:
    """The first rows as JSON lines, long values clipped, for the judge (quoted as data by the prompt)."""
    head = []
    for row in result.rows[:PREVIEW_ROWS]:
        pairs = zip(result.columns, row, strict=False)
        shown = {column: clip_value(value, PREVIEW_VALUE_CHARS) for column, value in pairs}
        head.append(json.dumps(shown, ensure_ascii=False, default=str))
    more = f"\n... {result.row_count - PREVIEW_ROWS} more rows" if result.row_count > PREVIEW_ROWS else ""
    return f"columns: {', '.join(result.columns)}\nrows: {result.row_count}\n" + "\n".join(head) + more


def judge_entailment(state: RunState, question: str, sql: str, result: QueryResult, iteration: int,
                     *, enabled: bool = True) -> EntailmentOutcome:
    """E = β·E_schema + (1−β)·E_data, with E_data capped by hard result findings."""
    findings = check_result(result.columns, result.rows, sql=sql)
    if not enabled:
        return EntailmentOutcome(score=None, passed=True, findings=findings)
    with state.recorder.step("entailment", "judge_entailment", iteration) as event:
        event.sql, event.findings, event.row_count = sql, findings, result.row_count
        evidence = "\n".join(f"[{f.severity}] {f.check}: {f.message}" for f in findings) or "none"
        verdict = state.models.call_structured(
            "entailment_judge",
            {"question": question, "sql": sql, "result_preview": result_preview(result), "findings": evidence},
            EntailmentVerdict,
        )
        data = float(verdict.data)
        if any(f.severity == "hard" and f.dimension == "data" for f in findings):
            data = min(data, DATA_HARD_CAP)
        value = score_e(schema=verdict.schema_, data=data, beta=state.settings.beta)
        event.scores = {
            "e": Score(value=value, reason=f"θ_e = {state.settings.theta_e}"),
            "schema": Score(value=verdict.schema_, reason=verdict.diagnosis),
            "data": Score(value=data, reason=verdict.diagnosis),
        }
    diagnosis = "\n".join([verdict.diagnosis] + [f.message for f in findings if f.severity == "hard"]).strip()
    return EntailmentOutcome(value, value >= state.settings.theta_e, diagnosis, findings)
