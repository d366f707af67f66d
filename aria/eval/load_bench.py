"""Many questions at once through one engine: the end-to-end overhead under concurrency.

Each question gets its own scripted test model (its gold SQL and passing scores, so there is no
model latency) and its own trace, while the executor's pool, the knowledge base and the embedder
are shared, as in the UI with several managers asking at the same time::

    report = run_load_bench(settings, targets, embedder, questions=20, workers=20)
    print(load_markdown(report))
"""

from __future__ import annotations

import statistics
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from aria.config import Settings
from aria.db.connect import Targets
from aria.db.golden import GoldenQuestion, load_golden
from aria.kb.embed import Embedder
from aria.llm.client import BoundModel, ModelClient
from aria.llm.retry import RetryPolicy
from aria.llm.scripted import ScriptedChatModel
from aria.reflect.answer import Answer, AskOptions
from aria.reflect.engine import Engine
from aria.reflect.factory import open_engine

PASSING: dict[str, Any] = {
    "retrieval_judge": {"relevance": 9, "completeness": 9, "missing": ""},
    "sql_judge": {"column": 9, "granularity": 9, "join": 9, "logic": 9, "diagnosis": "ok"},
    "entailment_judge": {"schema": 5, "data": 5, "diagnosis": "ok"},
}
LABEL = "scripted:load-bench (test model)"


@dataclass(frozen=True)
class Timed:
    """One question's outcome and its end-to-end time."""

    item: GoldenQuestion
    answer: Answer
    ms: float


@dataclass(frozen=True)
class LoadReport:
    questions: int
    workers: int
    answered: int
    wall_s: float
    p50_ms: float
    p95_ms: float
    max_ms: float
    questions_per_s: float
    errors: list[str] = field(default_factory=list)  # "id: status: text" of each question not answered

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def scripted_engine(base: Engine, sql: str) -> Engine:
    """``base``'s pool, KB and schema with a fresh scripted model answering ``sql`` and passing scores."""
    script = {role: [answer] for role, answer in PASSING.items()} | {"sql_generator": [f"```sql\n{sql}\n```"]}
    chat = ScriptedChatModel(path=Path("load-bench (scripted test model)"), script=script)
    client = ModelClient(BoundModel(chat, LABEL), policy=RetryPolicy(max_retries=0))
    return Engine(replace(base.deps, models=client))


def ask_timed(base: Engine, item: GoldenQuestion) -> Timed:
    engine = scripted_engine(base, item.sql)
    started = time.perf_counter()
    answer = engine.ask(item.question, options=AskOptions(reuse=False))
    return Timed(item, answer, round((time.perf_counter() - started) * 1000, 1))


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile: ``percentile([1, 2, 3, 4], 0.5) == 3``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def pick_questions(n: int) -> list[GoldenQuestion]:
    """``n`` golden examples, cycling through the file when ``n`` is larger."""
    golden = load_golden("examples")
    return [golden[i % len(golden)] for i in range(n)]


def ask_concurrently(base: Engine, items: list[GoldenQuestion], workers: int) -> tuple[list[Timed], float]:
    """Every item asked on ``workers`` threads; returns the outcomes (in order) and the wall time."""
    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="aria-load") as pool:
        timed = list(pool.map(lambda item: ask_timed(base, item), items))
    return timed, time.perf_counter() - started


def summarize(timed: list[Timed], wall_s: float, workers: int) -> LoadReport:
    times = [t.ms for t in timed]
    errors = [f"{t.item.id}: {t.answer.status}: {t.answer.error or t.answer.answer_text}"
              for t in timed if t.answer.status != "answered"]
    return LoadReport(
        questions=len(timed), workers=workers, answered=len(timed) - len(errors), wall_s=round(wall_s, 2),
        p50_ms=round(statistics.median(times), 1), p95_ms=percentile(times, 0.95), max_ms=max(times),
        questions_per_s=round(len(timed) / wall_s, 2) if wall_s > 0 else 0.0, errors=errors,
    )


def run_load_bench(settings: Settings, targets: Targets, embedder: Embedder, *, questions: int = 20,
                   workers: int = 20) -> LoadReport:
    """One warm-up question (first embedding, catalog, plans), then ``questions`` at once."""
    items = pick_questions(questions)
    base = open_engine(settings, targets=targets, embedder=embedder, models=None)
    try:
        ask_timed(base, items[0])
        timed, wall_s = ask_concurrently(base, items, workers)
    finally:
        base.close()
    return summarize(timed, wall_s, workers)


def load_markdown(report: LoadReport) -> str:
    lines = ["| questions | workers | answered | p50 ms | p95 ms | max ms | wall s | questions/s |",
             "|---|---|---|---|---|---|---|---|",
             f"| {report.questions} | {report.workers} | {report.answered} | {report.p50_ms} | {report.p95_ms} "
             f"| {report.max_ms} | {report.wall_s} | {report.questions_per_s} |"]
    lines += [f"- not answered: {e}" for e in report.errors]
    return "\n".join(lines)
