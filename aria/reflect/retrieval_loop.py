"""Loop 1 — retrieval (§3, eq. 2): retrieve a schema context, have the judge score it, and below
θ_r rewrite the question naming what was missing and retrieve again with larger k and m."""

from __future__ import annotations

from dataclasses import dataclass

from aria.kb.context import SchemaContext
from aria.llm.schemas import RetrievalVerdict, RewrittenQuestion
from aria.reflect.deps import RunState
from aria.reflect.scoring import score_r
from aria.reflect.trace import Score


@dataclass(frozen=True)
class RetrievalOutcome:
    context: SchemaContext
    question: str  # the question the context was retrieved for (Q′ after a rewrite)
    score: float | None  # Score_r of the accepted context; None when the loop is switched off
    passed: bool


def retrieve(state: RunState, question: str, *, evidence: str, k: int, m: int, iteration: int,
             budget: int | None = None) -> SchemaContext:
    """One retrieval step, traced with what it found."""
    budget = state.settings.column_token_budget if budget is None else budget
    with state.recorder.step("retrieval", "retrieve", iteration) as event:
        context = state.deps.kb.retrieve(
            question, evidence=evidence, k=k, m=m, budget=budget,
            full_schema_budget=state.settings.full_schema_token_budget,
        )
        whole = "whole schema (fits the token budget); " if context.full_schema else ""
        event.detail = f"{whole}k={k}, m={m}, column budget={budget}; tables: {', '.join(context.table_names)}; {context.token_count} tokens"
    return context


def judge_retrieval(state: RunState, question: str, evidence: str, context: SchemaContext, iteration: int) -> tuple[
    float, RetrievalVerdict
]:
    """The retrieval judge's R and C, combined into Score_r = αR + (1−α)C."""
    with state.recorder.step("retrieval", "judge_retrieval", iteration) as event:
        verdict = state.models.call_structured(
            "retrieval_judge",
            {"question": question, "evidence": evidence, "schema_context": context.render()},
            RetrievalVerdict,
        )
        value = score_r(relevance=verdict.relevance, completeness=verdict.completeness, alpha=state.settings.alpha)
        event.scores = {
            "score_r": Score(value=value, reason=f"θ_r = {state.settings.theta_r}"),
            "relevance": Score(value=verdict.relevance, reason=verdict.missing),
            "completeness": Score(value=verdict.completeness, reason=verdict.missing),
        }
    return value, verdict


def rewrite_question(state: RunState, question: str, missing: str, context: SchemaContext, iteration: int) -> str:
    """Q′: the question restated so that retrieval finds what the judge said was missing."""
    with state.recorder.step("retrieval", "rewrite", iteration) as event:
        rewritten = state.models.call_structured(
            "query_rewriter",
            {"question": question, "missing": missing, "schema_context": context.render()},
            RewrittenQuestion,
        ).question
        event.rewritten_question = rewritten
    return rewritten


def retrieval_loop(state: RunState, question: str, *, evidence: str = "", enabled: bool = True) -> RetrievalOutcome:
    """Retrieve until Score_r ≥ θ_r or the iteration limit; the best-scored context is kept."""
    settings = state.settings
    k, m, budget = settings.top_k_tables, settings.top_m_columns, settings.column_token_budget
    current = question
    best: RetrievalOutcome | None = None
    for iteration in range(1, settings.max_retrieval_iterations + 1):
        context = retrieve(state, current, evidence=evidence, k=k, m=m, iteration=iteration, budget=budget)
        if not enabled:
            return RetrievalOutcome(context, current, None, passed=True)
        value, verdict = judge_retrieval(state, current, evidence, context, iteration)
        outcome = RetrievalOutcome(context, current, value, passed=value >= settings.theta_r)
        if best is None or value > (best.score or 0):
            best = outcome
        if outcome.passed:
            return outcome
        if iteration < settings.max_retrieval_iterations:
            current = rewrite_question(state, current, verdict.missing, context, iteration)
            k, m = k + settings.k_step, m + settings.m_step
            budget += settings.budget_step if budget else 0
    assert best is not None
    return best
