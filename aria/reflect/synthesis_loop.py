"""Loop 2 — synthesis (§4, eq. 3). The generator writes SQL; the syntactic tier (safety guard, then
EXPLAIN and the cost guard on the real engine) sends errors to the repairer; the semantic tier
scores C, G, J and Q with the SQL judge, grounded and capped by the deterministic checks, and
below θ_s the generator tries again with the judge's diagnosis."""

from __future__ import annotations

from dataclasses import dataclass, field

from aria.errors import AriaError, DatabaseUnavailable
from aria.kb.context import SchemaContext
from aria.llm.schemas import SqlVerdict
from aria.reflect.deps import RunState, render_glossary
from aria.reflect.scoring import SQL_DIMENSIONS, capped, score_s
from aria.reflect.trace import Finding, Score
from aria.sql.checks import cap_scores, check_sql, hard_findings


@dataclass(frozen=True)
class SynthesisOutcome:
    sql: str | None  # the best SQL that passed the syntactic tier; None when none did
    score: float | None  # its S; None when the semantic tier is switched off
    passed: bool
    diagnosis: str = ""  # why it failed, for the next attempt
    findings: list[Finding] = field(default_factory=list)


DIALECT_LABELS = {"postgres": "PostgreSQL", "sqlite": "SQLite"}


def dialect_label(dialect: str) -> str:
    """The dialect's name as the SQL-writing prompts say it.

    >>> dialect_label("sqlite")
    'SQLite'
    """
    return DIALECT_LABELS.get(dialect, dialect)


def _examples_text(state: RunState, question: str) -> str:
    examples = state.deps.kb.nearest_examples(question, 3)
    return "\n\n".join(f"Question: {e.question}\nSQL: {e.sql}" for e in examples)


def generate_sql(
    state: RunState, question: str, *, evidence: str, context: SchemaContext, feedback: str, conversation: str,
    iteration: int,
) -> str:
    with state.recorder.step("synthesis", "generate", iteration) as event:
        sql = state.models.call_sql(
            "sql_generator",
            {
                "question": question,
                "evidence": evidence,
                "schema_context": context.render(),
                "examples": _examples_text(state, question),
                "glossary": render_glossary(context),
                "now": state.now.isoformat(timespec="minutes"),
                "timezone": state.settings.timezone,
                "dialect": dialect_label(state.deps.dialect),
                "feedback": feedback,
                "conversation": conversation,
            },
        )
        event.sql = sql
    return sql


def syntax_error(state: RunState, sql: str, iteration: int) -> str | None:
    """Guard, then EXPLAIN with the cost guard: None when the SQL may run, else the error text."""
    with state.recorder.step("synthesis", "guard", iteration) as event:
        event.sql = sql
        try:
            state.deps.executor.guard(sql)
        except AriaError as err:
            event.error = f"guard: {err}"
            return event.error
    with state.recorder.step("synthesis", "explain", iteration) as event:
        event.sql = sql
        try:
            state.deps.executor.check_cost(sql)
        except DatabaseUnavailable:
            raise  # an outage, not a SQL mistake: nothing for the repairer to fix
        except AriaError as err:
            event.error = f"EXPLAIN: {err}"
            return event.error
    return None


def repair_until_valid(state: RunState, question: str, context: SchemaContext, sql: str, iteration: int) -> tuple[
    str | None, str
]:
    """The syntactic tier: repair the SQL until it passes, at most ``max_syntax_repairs`` times."""
    error = syntax_error(state, sql, iteration)
    for _ in range(state.settings.max_syntax_repairs):
        if error is None:
            return sql, ""
        with state.recorder.step("synthesis", "repair", iteration) as event:
            sql = state.models.call_sql(
                "sql_repairer",
                {"question": question, "schema_context": context.render(), "sql": sql, "error": error,
                 "dialect": dialect_label(state.deps.dialect)},
            )
            event.sql = sql
        error = syntax_error(state, sql, iteration)
    return (sql, "") if error is None else (None, error)


def judge_sql(state: RunState, question: str, context: SchemaContext, sql: str, iteration: int) -> tuple[
    float, SqlVerdict, list[Finding]
]:
    """S from the SQL judge's four scores, each capped where a deterministic check failed hard."""
    findings = check_sql(sql, state.deps.schema, dialect=state.deps.dialect)
    with state.recorder.step("synthesis", "judge_sql", iteration) as event:
        event.sql, event.findings = sql, findings
        evidence = "\n".join(f"[{f.severity}] {f.dimension}/{f.check}: {f.message}" for f in findings) or "none"
        verdict = state.models.call_structured(
            "sql_judge",
            {"question": question, "schema_context": context.render(), "sql": sql, "findings": evidence},
            SqlVerdict,
        )
        raw = {dim: float(getattr(verdict, dim)) for dim in SQL_DIMENSIONS}
        scores = capped(raw, cap_scores(findings))
        settings = state.settings
        weights = {"column": settings.w_c, "granularity": settings.w_g, "join": settings.w_j, "logic": settings.w_q}
        value = score_s(scores, weights)
        event.scores = {"s": Score(value=value, reason=f"θ_s = {settings.theta_s}")}
        for dim in SQL_DIMENSIONS:
            capped_note = f" (capped from {raw[dim]:g} by a failed check)" if scores[dim] < raw[dim] else ""
            event.scores[dim] = Score(value=scores[dim], reason=verdict.diagnosis + capped_note)
    return value, verdict, findings


def _diagnosis(verdict: SqlVerdict, findings: list[Finding]) -> str:
    lines = [verdict.diagnosis] if verdict.diagnosis else []
    lines += [f"Check failed ({f.dimension}): {f.message}" for f in hard_findings(findings)]
    return "\n".join(lines)


def synthesis_loop(
    state: RunState, question: str, *, evidence: str, context: SchemaContext, feedback: str = "",
    conversation: str = "", reflect: bool = True,
) -> SynthesisOutcome:
    """Generate, repair and judge until S ≥ θ_s or the iteration limit; keep the best attempt."""
    best = SynthesisOutcome(sql=None, score=None, passed=False, diagnosis=feedback)
    for iteration in range(1, state.settings.max_synthesis_iterations + 1):
        sql = generate_sql(state, question, evidence=evidence, context=context, feedback=feedback,
                           conversation=conversation, iteration=iteration)
        if not reflect:
            return SynthesisOutcome(sql=sql, score=None, passed=True)
        valid, error = repair_until_valid(state, question, context, sql, iteration)
        if valid is None:
            feedback = f"The previous SQL could not be repaired: {error}"
            best = best if best.sql else SynthesisOutcome(sql=None, score=None, passed=False, diagnosis=feedback)
            continue
        value, verdict, findings = judge_sql(state, question, context, valid, iteration)
        # Beyond the paper: a hard deterministic finding (unknown column, Cartesian product, integer
        # division, ...) blocks the SQL even when the weighted S would still clear θ_s.
        passed = value >= state.settings.theta_s and not hard_findings(findings)
        attempt = SynthesisOutcome(valid, value, passed, _diagnosis(verdict, findings), findings)
        if attempt.passed:
            return attempt
        if best.score is None or value > best.score:
            best = attempt
        feedback = attempt.diagnosis
    return best
