"""SmartRestaurant's golden ``eval`` split, its gold scored as predictions on the seeded PostgreSQL
(as the read-only role) must be 100%; a wrong prediction must not be."""

from __future__ import annotations

from pathlib import Path

import pytest

from aria.config import Settings
from aria.db.connect import Targets
from aria.eval.datasets import load_dataset
from aria.eval.executors import PostgresExecutor
from aria.eval.metric import resolve_guard
from aria.eval.predictions import FilePredictor, GoldPredictor
from aria.eval.report import summarize
from aria.eval.runner import RunOptions, run_eval


def _golden_eval_exists() -> bool:
    try:
        from aria.db.golden import golden_path
    except ImportError:
        return False
    return golden_path("eval").exists()


pytestmark = pytest.mark.skipif(not _golden_eval_exists(), reason="seed_db/questions/eval.yaml is not written yet")


@pytest.mark.slow
def test_gold_of_the_eval_split_scores_100_percent(seeded: Targets, settings: Settings, tmp_path: Path) -> None:
    dataset = load_dataset("smartrestaurant", bench_dir=settings.bench_dir)
    executor = PostgresExecutor(seeded.reader)
    guard = resolve_guard("postgres", schemas=frozenset({settings.business_schema}))
    gold_rows = run_eval(
        dataset, {"gold": GoldPredictor()}, tmp_path / "gold", executor=executor, guard=guard,
        options=RunOptions(timeout_s=30, workers=2),
    )  # fmt: skip
    summary = summarize(gold_rows, "smartrestaurant")
    assert summary.skipped == {}
    assert (summary.overall.n, summary.overall.ex) == (len(dataset.items), 100.0)
    first = dataset.items[0]
    wrong = {item.id: item.gold_sql for item in dataset.items} | {first.id: "SELECT 'not the answer' AS x"}
    rows = run_eval(
        dataset, {"one-wrong": FilePredictor(wrong)}, tmp_path / "wrong", executor=executor, guard=guard,
        options=RunOptions(timeout_s=30, limit=3),
    )  # fmt: skip
    assert [(row.id, row.correct, row.error_class) for row in rows][:1] == [(first.id, False, "wrong_result")]
    assert [row.correct for row in rows] == [False, True, True]
