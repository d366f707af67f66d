"""The semantic-layer stage, after verified-query reuse: the question parsed deterministically into
a semantic query, compiled by MetricFlow, then through the same guard, cost guard, read-only
execution and result checks as any SQL. Zero model calls; with a model configured, the
entailment judge still checks the result (in the engine). With a model, a question the parser hands
over is first put to the ``semantic_query`` role over the metric catalogue
(:func:`ask_model_for_semantic_query`); what it cannot express goes to the Reflect-SQL loops.

>>> SEMANTIC_NOTE["en"].format(words="Revenue · by category")
'(Semantic layer: Revenue · by category.)'
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from sqlglot import exp

from aria.config import Settings
from aria.errors import AriaError, ModelError
from aria.kb.base import KnowledgeBase
from aria.kb.synonyms import KbLearnedSource
from aria.llm.schemas import SemanticQueryProposal
from aria.reflect.answer import Answer
from aria.reflect.answer_text import summarize_result
from aria.reflect.deps import QueryExecutor, RunState
from aria.reflect.entailment_loop import execute
from aria.reflect.language import Language
from aria.reflect.semantic_catalogue import ProposalProblem, check_proposal, render_catalogue
from aria.semantic.catalog import SemanticModelError
from aria.semantic.compile import CompiledQuery, SemanticQueryError
from aria.semantic.layer import SemanticLayer, load_semantic_layer
from aria.semantic.lexicon import ValuesOf
from aria.semantic.parse import Parsed
from aria.semantic.suggest import nearby_questions
from aria.sql.result_checks import check_result

log = logging.getLogger(__name__)

SEMANTIC_NOTE = {"vi": "(Lớp ngữ nghĩa: {words}.)", "en": "(Semantic layer: {words}.)"}
MAX_VALUES = 2000
MODEL_ATTEMPTS = 2  # the semantic_query model's first answer and one re-ask with the problem


@dataclass(frozen=True)
class SemanticAttempt:
    """What the stage made of a question: an answer, or what it recognised (for an honest 'no')."""

    answer: Answer | None
    parsed: Parsed | None = None
    compiled: CompiledQuery | None = None


def _ident(name: str) -> str:
    return exp.to_identifier(name, quoted=True).sql("postgres")


def values_reader(executor: QueryExecutor) -> ValuesOf:
    """Distinct values of a column through the read-only executor (the parser's value index)."""

    def values_of(table: str, column: str) -> list[str]:
        sql = f"SELECT DISTINCT {_ident(column)}::text FROM {_ident(table)} LIMIT {MAX_VALUES}"
        try:
            return [str(r[0]) for r in executor.run(sql).rows if r[0] is not None]
        except AriaError as err:
            log.info("no values for %s.%s: %s", table, column, err)
            return []

    return values_of


def open_semantic_layer(settings: Settings, executor: QueryExecutor,
                        kb: KnowledgeBase | None = None) -> SemanticLayer | None:
    """The semantic layer, or None with a logged reason: Aria starts without the semantic path. With
    ``kb``, it knows the phrases managers taught (else it reads them from the engine's KB at first use)."""
    try:
        return load_semantic_layer(business_schema=settings.business_schema,
                                   semantic_schema=settings.semantic_schema, values_of=values_reader(executor),
                                   learned=KbLearnedSource(kb.store, kb.db_name) if kb is not None else None,
                                   executor=executor, cache_dir=settings.home / "cache")
    except SemanticModelError as err:
        log.warning("semantic layer off: %s", err)
        return None


def try_semantic(state: RunState, question: str, language: Language) -> SemanticAttempt:
    """An answer from the semantic layer, or what it recognised."""
    layer = state.deps.semantic
    if layer is None:
        return SemanticAttempt(None)
    layer.attach_learned(KbLearnedSource(state.deps.kb.store, state.deps.kb.db_name))
    layer.refresh_synonyms()  # a phrase taught since the last question (one cheap query)
    with state.recorder.step("semantic", "semantic_parse") as event:
        parsed = layer.parse(question, language=language, now=state.now)
        if parsed.query is None:
            unknown = f" (not recognised: {', '.join(parsed.unknown[:6])})" if parsed.unknown else ""
            event.detail = f"{parsed.problem}{unknown}"
            return SemanticAttempt(None, parsed)
        try:
            compiled = layer.compile(parsed.query)
        except SemanticQueryError as err:
            event.error = str(err)
            return SemanticAttempt(None, parsed)
        event.sql = compiled.sql
        event.detail = layer.describe(parsed.query, language)
    return _run_compiled(state, layer, question, language, compiled, parsed)


def _run_compiled(state: RunState, layer: SemanticLayer, question: str, language: Language,
                  compiled: CompiledQuery, parsed: Parsed | None) -> SemanticAttempt:
    """Guarded, cost-checked, read-only execution and the result checks; an answer when they pass."""
    result = execute(state, compiled.sql, 0)
    if isinstance(result, str):
        return SemanticAttempt(None, parsed, compiled)
    findings = check_result(result.columns, result.rows, sql=compiled.sql)
    if any(f.severity == "hard" for f in findings):
        state.recorder.trace.events[-1].findings = findings
        return SemanticAttempt(None, parsed, compiled)
    words = layer.describe(compiled.query, language)
    text = f"{summarize_result(language, result.columns, result.rows)} {SEMANTIC_NOTE[language].format(words=words)}"
    answer = Answer(question=question, language=language, status="answered", answer_text=text, sql=compiled.sql,
                    columns=result.columns, rows=result.rows, truncated=result.truncated,
                    trace=state.recorder.trace, semantic_query=words)
    return SemanticAttempt(answer, parsed, compiled)


@dataclass(frozen=True)
class _Proposal:
    """One answer of the semantic_query model: compiled, or the problem to re-ask with, or final."""

    compiled: CompiledQuery | None = None
    problem: str = ""
    final: bool = False  # "cannot express", or the model failed: no re-ask


def ask_model_for_semantic_query(state: RunState, question: str, language: Language,
                                 parsed: Parsed | None = None) -> SemanticAttempt:
    """With a model, when the parser handed over: the generator's semantic query over the metric
    catalogue, checked strictly (re-asked once with the problem), compiled by MetricFlow and run like
    the parser's. No answer (cannot express, invalid twice, compile or execution error): the engine
    goes on to the Reflect-SQL loops."""
    layer = state.deps.semantic
    if layer is None or state.deps.models is None:
        return SemanticAttempt(None, parsed)
    feedback = ""
    for attempt in range(1, MODEL_ATTEMPTS + 1):
        proposal = _propose(state, layer, question, language, parsed, feedback, attempt)
        if proposal.compiled is not None:
            return _run_compiled(state, layer, question, language, proposal.compiled, parsed)
        if proposal.final:
            break
        feedback = f"It was rejected: {proposal.problem}. Fix it, or answer expressible: false."
    return SemanticAttempt(None, parsed)


def _propose(state: RunState, layer: SemanticLayer, question: str, language: Language, parsed: Parsed | None,
             feedback: str, attempt: int) -> _Proposal:
    with state.recorder.step("semantic", "semantic_generate", attempt) as event:
        variables = {"question": question, "today": state.now.date().isoformat(),
                     "catalogue": render_catalogue(layer), "feedback": feedback,
                     "recognised": "\n".join(str(item) for item in parsed.recognised) if parsed is not None else ""}
        try:
            proposal = state.models.call_structured("semantic_query", variables, SemanticQueryProposal)
        except ModelError as err:
            event.error = str(err)
            return _Proposal(final=True)
        if not proposal.expressible:
            event.detail = f"not expressible with the metrics: {proposal.reason}".strip()
            return _Proposal(final=True)
        try:
            query = check_proposal(layer, proposal, language)
            compiled = layer.compile(query)
        except (ProposalProblem, SemanticQueryError) as err:
            event.error = str(err)
            return _Proposal(problem=str(err))
        event.sql, event.detail = compiled.sql, layer.describe(query, language)
    return _Proposal(compiled)


def suggestions(layer: SemanticLayer | None, language: Language, parsed: Parsed | None, limit: int = 3) -> list[str]:
    """Nearby questions the semantic layer can answer, built from what was recognised."""
    if layer is None:
        return []
    return nearby_questions(layer, language, parsed, limit=limit)


