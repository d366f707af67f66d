"""The engine's own overhead per question: everything except model latency (embedding, retrieval,
guard, EXPLAIN, execution, deterministic checks, query log), measured one question at a time with
the scripted test model answering each golden example with its gold SQL and passing scores
(:mod:`aria.eval.load_bench` does the same under concurrency)."""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from typing import Any

from aria.config import Settings
from aria.db.connect import Targets
from aria.db.golden import load_golden
from aria.eval.load_bench import ask_timed, percentile
from aria.kb.embed import Embedder
from aria.reflect.factory import open_engine


@dataclass(frozen=True)
class OverheadReport:
    n: int
    answered: int
    median_ms: float
    p95_ms: float
    median_by_step_ms: dict[str, float]

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def run_engine_bench(settings: Settings, targets: Targets, embedder: Embedder, *, limit: int | None = None) -> OverheadReport:
    """Answer each golden example once, after one warm-up question, and time it end to end."""
    questions = load_golden("examples")[:limit] if limit else load_golden("examples")
    base = open_engine(settings, targets=targets, embedder=embedder, models=None)
    try:
        ask_timed(base, questions[0])  # warm-up: first embedding, catalog, plans
        timed = [ask_timed(base, item) for item in questions]
    finally:
        base.close()
    by_step: dict[str, list[float]] = {}
    for t in timed:
        for event in t.answer.trace.events:
            by_step.setdefault(event.step, []).append(event.duration_ms)
    totals = [t.ms for t in timed]
    return OverheadReport(
        n=len(timed), answered=sum(t.answer.status == "answered" for t in timed),
        median_ms=round(statistics.median(totals), 1), p95_ms=round(percentile(totals, 0.95), 1),
        median_by_step_ms={k: round(statistics.median(v), 1) for k, v in sorted(by_step.items())},
    )


def overhead_markdown(report: OverheadReport) -> str:
    lines = ["| questions | answered | median ms | p95 ms |", "|---|---|---|---|",
             f"| {report.n} | {report.answered} | {report.median_ms} | {report.p95_ms} |", "",
             "| step | median ms |", "|---|---|"]
    lines += [f"| {step} | {ms} |" for step, ms in report.median_by_step_ms.items()]
    return "\n".join(lines)
