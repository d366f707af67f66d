"""Load: many questions at once through one engine (scripted test models, the real database).
Asserts that nothing fails and that questions never see each other's trace, meter or rows; never timing."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
from engine_support import GOOD_SQL, build_kb_settings, engine_with, happy_script

from aria.config import Settings
from aria.db.connect import Targets
from aria.db.golden import load_golden
from aria.eval.load_bench import load_markdown, percentile, pick_questions, run_load_bench
from aria.kb.embed import get_embedder
from aria.reflect.answer import Answer, AskOptions

N = 20
QUESTIONS = ["Món bán chạy nhất?", "Top 5 món bán chạy tuần này?", "Which dishes sold best in the last 7 days?",
             "Năm món bán nhiều nhất 7 ngày qua?"]


@pytest.fixture(scope="module")
def load_settings(settings: Settings, seeded: Targets) -> Settings:
    return build_kb_settings(settings, seeded)


def test_twenty_concurrent_questions_through_one_engine(load_settings: Settings, seeded: Targets) -> None:
    script = {role: responses * N for role, responses in happy_script().items() if role != "kb_enricher"}
    engine = engine_with(load_settings, seeded, script)  # one engine, one shared (scripted) client
    questions = [QUESTIONS[i % len(QUESTIONS)] for i in range(N)]
    try:
        expected = engine.deps.executor.run(GOOD_SQL).rows
        with ThreadPoolExecutor(max_workers=N) as pool:
            answers: list[Answer] = list(pool.map(lambda q: engine.ask(q, options=AskOptions(reuse=False)), questions))
    finally:
        engine.close()
    assert [a.status for a in answers] == ["answered"] * N, [a.error for a in answers if a.status != "answered"]
    assert [a.question for a in answers] == questions
    assert all(a.rows == expected for a in answers)
    assert all(a.llm_calls == 4 for a in answers)  # each question's own meter, not the others'
    assert all(sorted(e.step for e in a.trace.events if e.llm_calls) ==
               ["generate", "judge_entailment", "judge_retrieval", "judge_sql"] for a in answers)
    assert len({a.log_id for a in answers}) == N and None not in {a.log_id for a in answers}


def test_load_bench_answers_everything(load_settings: Settings, seeded: Targets) -> None:
    report = run_load_bench(load_settings, seeded, get_embedder(), questions=N, workers=N)
    assert report.errors == []
    assert report.questions == report.answered == N and report.workers == N
    assert 0 < report.p50_ms <= report.p95_ms <= report.max_ms
    assert f"| {N} | {N} | {N} |" in load_markdown(report)


def test_pick_questions_cycles_and_percentile_is_nearest_rank() -> None:
    golden = load_golden("examples")
    picked = pick_questions(len(golden) + 2)
    assert picked[: len(golden)] == golden and picked[-2:] == golden[:2]
    assert percentile([1.0, 2.0, 3.0, 4.0], 0.5) == 3.0
    assert percentile([5.0], 0.95) == 5.0
    assert percentile([float(i) for i in range(1, 21)], 0.95) == 19.0
