"""The engine's own overhead per question: everything except model latency (embedding, retrieval,
guard, EXPLAIN, execution, deterministic checks, query log), measured with the scripted test
model answering each golden example with its gold SQL and passing scores."""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from aria.config import Settings
from aria.db.connect import Targets
from aria.eval.golden import load_golden
from aria.kb.embed import Embedder
from aria.llm.client import BoundModel, ModelClient
from aria.llm.retry import RetryPolicy
from aria.llm.scripted import ScriptedChatModel
from aria.reflect.answer import AskOptions
from aria.reflect.engine import Engine
from aria.reflect.factory import open_engine

PASSING = {
    "retrieval_judge": {"relevance": 9, "completeness": 9, "missing": ""},
    "sql_judge": {"column": 9, "granularity": 9, "join": 9, "logic": 9, "diagnosis": "ok"},
    "entailment_judge": {"schema": 5, "data": 5, "diagnosis": "ok"},
}


@dataclass(frozen=True)
class OverheadReport:
    n: int
    answered: int
    median_ms: float
    p95_ms: float
    median_by_step_ms: dict[str, float]

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def _script(sql: str) -> ScriptedChatModel:
    script = {role: [answer] for role, answer in PASSING.items()} | {"sql_generator": [sql]}
    return ScriptedChatModel(path=Path("engine-bench (scripted test model)"), script=script)


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def run_engine_bench(settings: Settings, targets: Targets, embedder: Embedder, *, limit: int | None = None) -> OverheadReport:
    """Answer each golden example once (after one warm-up) and time it end to end."""
    questions = load_golden("examples")[:limit] if limit else load_golden("examples")
    engine = open_engine(settings, targets=targets, embedder=embedder, models=None)
    policy = RetryPolicy(max_retries=0)
    options = AskOptions(reuse=False)
    totals: list[float] = []
    by_step: dict[str, list[float]] = {}
    answered = 0
    try:
        for i, item in enumerate([questions[0], *questions]):
            client = ModelClient(BoundModel(_script(item.sql), "scripted:engine-bench (test model)"), policy=policy)
            scripted_engine = Engine(replace(engine.deps, models=client))
            started = time.perf_counter()
            answer = scripted_engine.ask(item.question, options=options)
            elapsed = (time.perf_counter() - started) * 1000
            if i == 0:
                continue  # warm-up: first embedding, first plans
            totals.append(elapsed)
            answered += answer.status == "answered"
            for event in answer.trace.events:
                by_step.setdefault(event.step, []).append(event.duration_ms)
    finally:
        engine.close()
    return OverheadReport(
        n=len(totals), answered=answered, median_ms=round(statistics.median(totals), 1),
        p95_ms=round(_percentile(totals, 0.95), 1),
        median_by_step_ms={k: round(statistics.median(v), 1) for k, v in sorted(by_step.items())},
    )


def overhead_markdown(report: OverheadReport) -> str:
    lines = ["| questions | answered | median ms | p95 ms |", "|---|---|---|---|",
             f"| {report.n} | {report.answered} | {report.median_ms} | {report.p95_ms} |", "",
             "| step | median ms |", "|---|---|"]
    lines += [f"| {step} | {ms} |" for step, ms in report.median_by_step_ms.items()]
    return "\n".join(lines)
