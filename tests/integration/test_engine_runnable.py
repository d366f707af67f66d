"""The engine as a LangChain Runnable: one scripted question that rewrites, repairs and regenerates is one
run tree for any callback handler (loops, steps, judges' scores, model calls under their step), and
``stream``, ``batch`` and ``astream_events`` work on it."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

import pytest
from engine_support import GOOD_SQL, RETRIEVAL_OK, SQL_OK, build_kb_settings, engine_with, happy_script
from langchain_core.callbacks import BaseCallbackHandler

from aria.config import Settings
from aria.db.connect import Targets
from aria.reflect.answer import Answer, AskOptions, Question
from aria.reflect.trace import TraceEvent

QUESTION = "Món bán chạy nhất?"
NO_REUSE = AskOptions(reuse=False)
REWRITTEN = "top 5 menu items by quantity in completed orders over the last 7 days"
LOW_S = {"column": 4, "granularity": 3, "join": 4, "logic": 3, "diagnosis": "counts orders, not portions"}


def rewrite_repair_regenerate() -> dict[str, list[Any]]:
    """Loop 1 rewrites once; Loop 2 repairs a guard rejection, then the judge's low S regenerates."""
    return happy_script(
        retrieval_judge=[{"relevance": 3, "completeness": 2, "missing": "the period and the measure"}, RETRIEVAL_OK],
        query_rewriter=[{"question": REWRITTEN}],
        sql_generator=["SELECT name_vi FROM menu_items FOR UPDATE", GOOD_SQL],
        sql_repairer=[GOOD_SQL],
        sql_judge=[LOW_S, SQL_OK],
    )


@dataclass
class Run:
    id: UUID
    parent: UUID | None
    kind: str  # "chain" or "model"
    name: str
    metadata: dict[str, Any]
    outputs: Any = None
    children: list[Run] = field(default_factory=list)


class Recorder(BaseCallbackHandler):
    """Every run it is told about, by id, in the order they started."""

    def __init__(self) -> None:
        self.runs: dict[UUID, Run] = {}

    def on_chain_start(self, serialized: Any, inputs: Any, *, run_id: UUID, parent_run_id: UUID | None = None,
                       metadata: dict[str, Any] | None = None, name: str | None = None, **kwargs: Any) -> None:
        self._start(Run(run_id, parent_run_id, "chain", name or "?", metadata or {}))

    def on_chain_end(self, outputs: Any, *, run_id: UUID, **kwargs: Any) -> None:
        self.runs[run_id].outputs = outputs

    def on_chat_model_start(self, serialized: Any, messages: Any, *, run_id: UUID, parent_run_id: UUID | None = None,
                            metadata: dict[str, Any] | None = None, **kwargs: Any) -> None:
        self._start(Run(run_id, parent_run_id, "model", (metadata or {}).get("aria_role", "?"), metadata or {}))

    def on_llm_start(self, serialized: Any, prompts: Any, *, run_id: UUID, parent_run_id: UUID | None = None,
                     metadata: dict[str, Any] | None = None, **kwargs: Any) -> None:
        self._start(Run(run_id, parent_run_id, "model", (metadata or {}).get("aria_role", "?"), metadata or {}))

    def _start(self, run: Run) -> None:
        self.runs[run.id] = run
        if run.parent is not None:
            self.runs[run.parent].children.append(run)

    def roots(self) -> list[Run]:
        return [r for r in self.runs.values() if r.parent is None]

    def step_of(self, run: Run) -> Run:
        """The nearest enclosing step run (a chain run with ``aria_step`` metadata)."""
        parent = self.runs[run.parent] if run.parent is not None else None
        while parent is not None and "aria_step" not in parent.metadata:
            parent = self.runs[parent.parent] if parent.parent is not None else None
        assert parent is not None, f"{run.name} is not under a step"
        return parent


@pytest.fixture(scope="module")
def engine_settings(settings: Settings, seeded: Targets) -> Settings:
    return build_kb_settings(settings, seeded)


def test_one_question_is_one_run_tree_with_loops_steps_scores_and_model_calls(
    engine_settings: Settings, seeded: Targets
) -> None:
    engine = engine_with(engine_settings, seeded, rewrite_repair_regenerate())
    recorder = Recorder()
    try:
        answer = engine.invoke(Question(text=QUESTION, options=NO_REUSE), config={"callbacks": [recorder]})
    finally:
        engine.close()
    assert answer.status == "answered", answer.answer_text
    [root] = recorder.roots()
    assert root.name == "aria" and isinstance(root.outputs, Answer)
    loops = [r.name for r in root.children if "aria_step" not in r.metadata]
    assert loops == ["retrieval", "synthesis", "entailment"]  # the three loops, in order (execute sits between)
    assert [r.name for r in root.children] == ["retrieval", "synthesis", "execute", "entailment"]
    retrieval, synthesis, _, entailment = root.children
    assert [s.name for s in retrieval.children] == ["retrieve", "judge_retrieval", "rewrite", "retrieve",
                                                    "judge_retrieval"]
    assert [s.name for s in synthesis.children] == ["generate", "guard", "repair", "guard", "explain", "judge_sql",
                                                    "generate", "guard", "explain", "judge_sql"]
    assert [s.name for s in entailment.children] == ["judge_entailment"]
    # each judge's scores on its run, as the trace has them; the rewritten question and the SQL on theirs
    judged = [s for loop in (retrieval, synthesis, entailment) for s in loop.children if s.name.startswith("judge_")]
    trace_judged = [e for e in answer.trace.events if e.step.startswith("judge_")]
    assert [j.outputs["scores"] for j in judged] == [
        {k: v.model_dump() for k, v in e.scores.items()} for e in trace_judged
    ]
    assert judged[0].outputs["scores"]["score_r"]["value"] == pytest.approx(0.6 * 3 + 0.4 * 2)
    assert synthesis.children[5].outputs["scores"]["s"]["value"] < 5 <= synthesis.children[9].outputs["scores"]["s"]["value"]
    assert retrieval.children[2].outputs["rewritten_question"] == REWRITTEN
    assert synthesis.children[1].outputs["error"].startswith("guard:")
    assert synthesis.children[2].outputs["sql"] == GOOD_SQL
    assert retrieval.outputs["score_r"] >= 4 and retrieval.outputs["question"] == REWRITTEN
    assert synthesis.outputs["sql"] == GOOD_SQL and entailment.outputs["passed"] is True
    # each model call under the step that made it
    calls = [r for r in recorder.runs.values() if r.kind == "model"]
    assert [(recorder.step_of(c).name, c.name) for c in calls] == [
        ("judge_retrieval", "retrieval_judge"), ("rewrite", "query_rewriter"), ("judge_retrieval", "retrieval_judge"),
        ("generate", "sql_generator"), ("repair", "sql_repairer"), ("judge_sql", "sql_judge"),
        ("generate", "sql_generator"), ("judge_sql", "sql_judge"), ("judge_entailment", "entailment_judge"),
    ]
    assert len(calls) == answer.llm_calls


def test_stream_yields_the_trace_events_in_order_then_the_answer(engine_settings: Settings, seeded: Targets) -> None:
    engine = engine_with(engine_settings, seeded, rewrite_repair_regenerate())
    try:
        chunks = list(engine.stream(Question(text=QUESTION, options=NO_REUSE)))
    finally:
        engine.close()
    *events, answer = chunks
    assert isinstance(answer, Answer) and answer.status == "answered"
    assert all(isinstance(e, TraceEvent) for e in events)
    assert events == answer.trace.events and len(events) > 10


def test_batch_answers_each_question(engine_settings: Settings, seeded: Targets) -> None:
    script = happy_script(retrieval_judge=[RETRIEVAL_OK] * 2, sql_generator=[GOOD_SQL] * 2, sql_judge=[SQL_OK] * 2,
                          entailment_judge=[{"schema": 5, "data": 5, "diagnosis": "ok"}] * 2)
    engine = engine_with(engine_settings, seeded, script)
    try:
        answers = engine.batch([Question(text=QUESTION, options=NO_REUSE), Question(text="   ")],
                               config={"max_concurrency": 1})
    finally:
        engine.close()
    assert [a.status for a in answers] == ["answered", "error"]  # the engine validates the question (once)


def test_astream_events_v2_reports_the_tree_and_the_steps(engine_settings: Settings, seeded: Targets) -> None:
    engine = engine_with(engine_settings, seeded, happy_script())

    async def collect() -> list[dict[str, Any]]:
        return [e async for e in engine.astream_events(Question(text=QUESTION, options=NO_REUSE), version="v2")]

    try:
        events = asyncio.run(collect())
    finally:
        engine.close()
    assert events[0]["event"] == "on_chain_start" and events[0]["name"] == "aria"
    assert events[-1]["event"] == "on_chain_end" and events[-1]["name"] == "aria"
    assert isinstance(events[-1]["data"]["output"], Answer) and events[-1]["data"]["output"].status == "answered"
    started = [e["name"] for e in events if e["event"] == "on_chain_start"]
    assert {"retrieval", "judge_retrieval", "synthesis", "judge_sql", "entailment", "judge_entailment"} <= set(started)
    assert sum(e["event"] == "on_chat_model_start" for e in events) == 4
    streamed = [e["data"]["chunk"] for e in events if e["event"] == "on_chain_stream" and e["name"] == "aria"]
    assert [type(c).__name__ for c in streamed[-1:]] == ["Answer"] and len(streamed) > 5
