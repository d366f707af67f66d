"""The Reflect-SQL flow, top to bottom (the paper's diagram; README "Architecture").

    question ─► checks ─► verified-query reuse? ─► semantic layer (parser, then the model's
            semantic query) ─► Loop 1 retrieval ─► Loop 2 synthesis
            ─► execution ─► Loop 3 entailment ─┬─ E ≥ θ_e ─► answer (manager may confirm ─► enrichment)
                                               └─ E < θ_e ─► back to Loop 1 with the diagnosis

Each stage is a plain function in its own module; this one only wires them. Every stage appends
to one :class:`~aria.reflect.trace.Trace`, and every answer is written to the query log.

Plain Python rather than a LangGraph graph: the flow has three nested loops with limits, which
read more plainly as ``for`` loops than as conditional edges, and the two things LangGraph would
add are covered here — live progress is :meth:`Engine.stream` (each finished step, then the
answer), and the manager's confirmation is a separate call (:func:`propose_enrichment`, then
:func:`apply_enrichment`), so nothing waits inside the engine for a click.

:class:`Engine` is a thin LangChain :class:`~langchain_core.runnables.Runnable` around
:func:`answer_question`: ``invoke``, ``batch``, ``stream`` and ``astream_events`` work on it, and
any callback handler (``config={"callbacks": [...]}``, or LangSmith through its environment
variables) sees one question as one run: each pass of a loop a child run, each step a child of
its loop (:class:`~aria.reflect.steps.StepRecorder` opens and closes them), each model call a
child of its step.

    engine.invoke("Món nào bán chạy nhất tuần này?")                    # -> Answer
    for chunk in engine.stream(Question(text="...", options=AskOptions(reuse=False))):
        ...                                                                # TraceEvent, ..., Answer
"""

from __future__ import annotations

import logging
import threading
from collections.abc import AsyncIterator, Iterator
from contextvars import copy_context
from dataclasses import replace
from queue import SimpleQueue
from typing import Any

from langchain_core.callbacks import CallbackManagerForChainRun
from langchain_core.runnables import Runnable, RunnableConfig
from langchain_core.runnables.config import ensure_config, get_callback_manager_for_config, run_in_executor

from aria.db.executor import QueryResult
from aria.errors import AriaError
from aria.reflect.answer import Answer, AskOptions, Question
from aria.reflect.answer_text import summarize_result
from aria.reflect.deps import EngineDeps, RunState, business_now
from aria.reflect.enrichment import EnrichmentPreview, apply_enrichment, propose_enrichment, record_rejection
from aria.reflect.entailment_loop import execute, judge_entailment
from aria.reflect.language import Language, QuestionRejected, validate_question
from aria.reflect.query_log import log_answer
from aria.reflect.retrieval_loop import retrieval_loop, retrieve
from aria.reflect.reuse import try_reuse
from aria.reflect.semantic_stage import (
    SemanticAttempt,
    ask_model_for_semantic_query,
    suggestions,
    try_semantic,
)
from aria.reflect.steps import EventSink, StepRecorder
from aria.reflect.synthesis_loop import synthesis_loop
from aria.reflect.trace import Trace, TraceEvent

log = logging.getLogger(__name__)

NOT_CONFIDENT = {
    "vi": "Aria chưa thể trả lời chắc chắn câu hỏi này ({why}). Lần thử tốt nhất nằm trong phần diễn giải.",
    "en": "Aria could not answer confidently ({why}). The best attempt is in the trace.",
}
NO_MODEL = {
    "vi": "Chưa có mô hình ngôn ngữ nào được cấu hình, và Aria chưa trả lời được câu này từ các chỉ số đã định nghĩa "
    "hay câu hỏi đã xác minh.{recognised}{suggest} Hãy đặt ARIA_LLM để Aria viết SQL mới.",
    "en": "No language model is configured, and Aria cannot answer this from its defined metrics or verified "
    "questions.{recognised}{suggest} Set ARIA_LLM to let Aria write new SQL.",
}
RECOGNISED = {"vi": " Đã nhận ra: {known}.", "en": " Recognised: {known}."}
NOT_UNDERSTOOD = {"vi": " Chưa hiểu: {words}.", "en": " Not understood: {words}."}
SUGGEST = {"vi": " Bạn có thể hỏi: {questions}", "en": " You could ask: {questions}"}


def answer_question(
    question: str, deps: EngineDeps, *, options: AskOptions | None = None, evidence: str = "",
    run: CallbackManagerForChainRun | None = None, on_event: EventSink | None = None,
) -> Answer:
    """Answer one question; never raises for bad input or a failing model or database. The loops and
    steps become child runs of ``run`` (the question's LangChain run); ``on_event`` hears each step."""
    options = options or AskOptions()
    models = deps.models.for_session() if deps.models else None
    trace = Trace(model_label=models.label if models else "none")
    try:
        cleaned, language = validate_question(question, ui_language=deps.settings.ui_language)
    except QuestionRejected as err:
        return Answer(question=question, status="error", answer_text=str(err), error=str(err), trace=trace)
    state = RunState(replace(deps, models=models), StepRecorder(trace, models.meter if models else None, on_event, run),
                     now=business_now(deps.executor, deps.settings.timezone))
    try:
        answer = _answer(state, cleaned, language, options, evidence)
    except AriaError as err:  # the stores and the executor map driver errors (a lost connection too) to Aria's
        log.info("question failed: %s", err)
        answer = Answer(question=cleaned, language=language, status="error", answer_text=str(err),
                        error=str(err), trace=trace)
    return answer.model_copy(update={"log_id": log_answer(deps, answer, asked_by=options.asked_by)})


def _answer(state: RunState, question: str, language: Language, options: AskOptions, evidence: str) -> Answer:
    reused = try_reuse(state, question, language) if options.reuse else None
    if reused is not None and (state.deps.models is None or not options.entailment):
        return reused
    semantic = try_semantic(state, question, language) if reused is None and options.semantic else SemanticAttempt(None)
    if semantic.answer is not None and (state.deps.models is None or not options.entailment):
        return semantic.answer
    if state.deps.models is None:
        return _no_model(state, question, language, semantic)
    if semantic.parsed is not None and semantic.parsed.query is None:  # the parser handed over: ask the model
        semantic = ask_model_for_semantic_query(state, question, language, semantic.parsed)
        if semantic.answer is not None and not options.entailment:
            return semantic.answer
    # with a model, a reused or semantic answer must still pass the entailment judge
    for ready in (reused, semantic.answer):
        if ready is not None and ready.sql is not None:
            result = QueryResult(ready.columns, ready.rows, len(ready.rows), ready.truncated, 0.0)
            with state.recorder.loop("entailment") as run:
                entailment = judge_entailment(state, question, ready.sql, result, 0)
                run.update(e=entailment.score, passed=entailment.passed, diagnosis=entailment.diagnosis)
            if entailment.passed:
                return ready
    return reflect_sql(state, question, language, options, evidence)


def reflect_sql(state: RunState, question: str, language: Language, options: AskOptions, evidence: str) -> Answer:
    """The three loops, each pass one child run of the question's. Loop 3 sends a failed result back to
    Loop 1 with its diagnosis."""
    conversation = _conversation(options)
    feedback = ""
    best_sql: str | None = None
    for round_ in range(1, state.settings.max_entailment_iterations + 1):
        retrieval_evidence = "\n".join(p for p in (evidence, feedback) if p)
        with state.recorder.loop("retrieval", round_) as run:
            retrieval = retrieval_loop(state, question, evidence=retrieval_evidence, enabled=options.retrieval_loop)
            run.update(score_r=retrieval.score, passed=retrieval.passed, question=retrieval.question)
        if not retrieval.passed:
            return _not_confident(state, question, language, "retrieval", best_sql)
        restated = f"{evidence}\nRestated question: {retrieval.question}".strip() \
            if retrieval.question != question else evidence
        with state.recorder.loop("synthesis", round_) as run:
            synthesis = synthesis_loop(state, question, evidence=restated, context=retrieval.context,
                                       feedback=feedback, conversation=conversation, reflect=options.sql_reflection)
            run.update(s=synthesis.score, passed=synthesis.passed, sql=synthesis.sql, diagnosis=synthesis.diagnosis,
                       findings=[f.model_dump() for f in synthesis.findings])
        best_sql = synthesis.sql or best_sql
        if not synthesis.passed or synthesis.sql is None:
            return _not_confident(state, question, language, "synthesis", best_sql)
        result = execute(state, synthesis.sql, round_)
        if isinstance(result, str):
            feedback = f"The SQL failed when it ran: {result}"
            continue
        with state.recorder.loop("entailment", round_) as run:
            entailment = judge_entailment(state, question, synthesis.sql, result, round_, enabled=options.entailment)
            run.update(e=entailment.score, passed=entailment.passed, diagnosis=entailment.diagnosis)
        if entailment.passed:
            return _answered(state, question, language, synthesis.sql, result)
        feedback = f"The previous result did not answer the question: {entailment.diagnosis}"
    return _not_confident(state, question, language, "entailment", best_sql)


def _conversation(options: AskOptions) -> str:
    if not options.previous_question:
        return ""
    return f"Previous question: {options.previous_question}\nPrevious SQL: {options.previous_sql or '(none)'}"


def _answered(state: RunState, question: str, language: Language, sql: str, result: QueryResult) -> Answer:
    return Answer(
        question=question, language=language, status="answered", sql=sql, columns=result.columns, rows=result.rows,
        truncated=result.truncated, answer_text=summarize_result(language, result.columns, result.rows),
        trace=state.recorder.trace,
    )


def _not_confident(state: RunState, question: str, language: Language, loop: str, sql: str | None) -> Answer:
    why = {"vi": {"retrieval": "không tìm đủ lược đồ", "synthesis": "SQL chưa đạt kiểm tra",
                  "entailment": "kết quả chưa trả lời đúng câu hỏi"},
           "en": {"retrieval": "the schema found was not enough", "synthesis": "no SQL passed the checks",
                  "entailment": "no result answered the question"}}[language][loop]
    return Answer(question=question, language=language, status="not_confident", sql=sql,
                  answer_text=NOT_CONFIDENT[language].format(why=why), trace=state.recorder.trace)


def _no_model(state: RunState, question: str, language: Language, semantic: SemanticAttempt) -> Answer:
    """Say honestly that nothing could be answered: what was recognised, and nearby questions Aria can
    answer now (the tables the KB found relevant stay on the answer for the UI)."""
    context = retrieve(state, question, evidence="", k=state.settings.top_k_tables, m=state.settings.top_m_columns,
                       iteration=1)
    parsed = semantic.parsed
    known = [item.words for item in (parsed.recognised if parsed else [])]
    recognised = RECOGNISED[language].format(known=", ".join(known)) if known else ""
    if parsed is not None and parsed.unknown:
        recognised += NOT_UNDERSTOOD[language].format(words=", ".join(f"'{w}'" for w in parsed.unknown[:6]))
    nearby = suggestions(state.deps.semantic, language, parsed)
    suggest = SUGGEST[language].format(questions=" · ".join(f"“{q}”" for q in nearby)) if nearby else ""
    return Answer(question=question, language=language, status="no_model",
                  answer_text=NO_MODEL[language].format(recognised=recognised, suggest=suggest),
                  relevant_tables=context.table_names, suggestions=nearby, trace=state.recorder.trace)


class Engine(Runnable[Question | str, Answer]):
    """Aria's engine for one database: what the UI, the CLI and the evaluation call.

    A LangChain ``Runnable`` from a question (a string, or a :class:`Question` with options and
    evidence) to an :class:`Answer`: ``invoke``, ``batch``, ``stream`` (each finished step, then the
    answer) and ``astream_events`` work, and ``config={"callbacks": [...]}`` sees the run tree. The
    manager's confirmation is separate: :meth:`propose`, then :meth:`confirm`.

    Thread-safe: every question gets its own trace and model-call meter; the pool, the embedder
    and the chat models are shared.
    """

    name = "aria"

    def __init__(self, deps: EngineDeps) -> None:
        self.deps = deps

    @property
    def has_model(self) -> bool:
        return self.deps.models is not None

    def invoke(self, input: Question | str, config: RunnableConfig | None = None, **kwargs: Any) -> Answer:
        """The answer to one question, as one LangChain run (the loops, steps and model calls nested in it)."""
        return self._call_with_config(self._answer, input, config, **kwargs)

    def _answer(self, input: Question | str, run_manager: CallbackManagerForChainRun,
                on_event: EventSink | None = None) -> Answer:
        question = Question(text=input) if isinstance(input, str) else input
        return answer_question(question.text, self.deps, options=question.options, evidence=question.evidence,
                               run=run_manager, on_event=on_event)

    def ask(self, question: str, *, options: AskOptions | None = None, evidence: str = "") -> Answer:
        """``invoke`` with keywords: ``engine.ask("...", options=AskOptions(reuse=False))``."""
        return self.invoke(Question(text=question, options=options or AskOptions(), evidence=evidence))

    def stream(  # type: ignore[override]  # the steps first, then the Answer (not chunks of an Answer)
        self, input: Question | str, config: RunnableConfig | None = None, **kwargs: Any
    ) -> Iterator[TraceEvent | Answer]:
        """Each step as it finishes (the :class:`TraceEvent` the trace holds), then the :class:`Answer`.

        The question's run is opened and closed here, around the chunks (so a stream of events sees
        the answer before the run's end); the engine works on a worker thread, and an exception
        there is raised here.
        """
        config = ensure_config(config)
        run = get_callback_manager_for_config(config).on_chain_start(
            None, input, name=config.get("run_name") or self.get_name(), run_id=config.pop("run_id", None))
        chunks: SimpleQueue[TraceEvent | Answer | BaseException] = SimpleQueue()

        def work() -> None:
            try:
                chunks.put(self._answer(input, run, on_event=chunks.put))
            except BaseException as err:  # noqa: BLE001 - handed to the caller, who raises it
                chunks.put(err)

        threading.Thread(target=copy_context().run, args=(work,), name="aria-question", daemon=True).start()
        answer: Answer | None = None
        try:
            while not isinstance(chunk := chunks.get(), Answer):
                if isinstance(chunk, BaseException):
                    raise chunk
                yield chunk
            answer = chunk
            yield answer
        except BaseException as err:
            if answer is None or not isinstance(err, GeneratorExit):
                run.on_chain_error(err)
                raise
            # the caller stopped reading after the answer: the run is complete
        run.on_chain_end(answer)

    async def astream(  # type: ignore[override]
        self, input: Question | str, config: RunnableConfig | None = None, **kwargs: Any
    ) -> AsyncIterator[TraceEvent | Answer]:
        """:meth:`stream` without blocking the event loop (``astream_events`` reads it)."""
        steps = self.stream(input, config, **kwargs)
        while (chunk := await run_in_executor(config, next, steps, None)) is not None:
            yield chunk

    def propose(self, answer: Answer) -> EnrichmentPreview:
        """What the KB would gain if the manager confirms ``answer`` (nothing is written)."""
        return propose_enrichment(answer, self.deps)

    def confirm(self, preview: EnrichmentPreview, *, confirmed_by: str) -> list[int]:
        """Apply a previewed enrichment as KB revisions; returns their ids."""
        return apply_enrichment(preview, self.deps, confirmed_by=confirmed_by)

    def reject(self, answer: Answer, *, reason: str = "", rejected_by: str = "") -> int:
        """Store the rejection as negative feedback (never as knowledge)."""
        return record_rejection(answer, self.deps, reason=reason, rejected_by=rejected_by)

    def close(self) -> None:
        self.deps.executor.close()
        self.deps.kb.store.close()
