"""The harness on real Spider dev: official hardness counts, and gold-as-predictions scoring 100% on
every executable question through the ``aria eval`` command (wta_1's database is missing: skipped)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from aria.cli import app
from aria.errors import ConfigError
from aria.eval.datasets import load_dataset
from tests.conftest import BENCH_DIR

pytestmark = pytest.mark.skipif(
    not (BENCH_DIR / "spider_dev" / "dev.json").exists(), reason=f"Spider dev not found under {BENCH_DIR}"
)


def test_spider_hardness_matches_the_official_counts() -> None:
    dataset = load_dataset("spider-dev", bench_dir=BENCH_DIR)
    assert len(dataset.items) == 1034
    assert Counter(item.difficulty for item in dataset.items) == {"easy": 248, "medium": 446, "hard": 174, "extra": 166}


def test_gold_as_predictions_scores_100_percent(tmp_path: Path) -> None:
    out = tmp_path / "spider"
    args = ["eval", "--dataset", "spider-dev", "--gold-as-predictions", "--out", str(out), "--workers", "2"]
    result = CliRunner().invoke(app, [*args, "--bench-dir", str(BENCH_DIR)])
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text())
    assert summary["overall"] == {"n": 972, "correct": 972, "ex": 100.0}
    assert summary["skipped"] == {"missing_database": 62}
    assert "wta_1" in (out / "report.md").read_text()
    again = CliRunner().invoke(app, [*args, "--bench-dir", str(BENCH_DIR)])  # resumes: nothing left to do
    assert again.exit_code == 0 and "EX 100.00% (972/972)" in again.output
    assert len((out / "results.jsonl").read_text().splitlines()) == 1034


def test_a_predictions_file_through_the_command(tmp_path: Path) -> None:
    predictions = tmp_path / "pred.json"
    predictions.write_text(json.dumps({"0": "SELECT count(*) FROM singer", "1": "SELECT 42", "2": 7}))
    out = tmp_path / "out"
    args = ["eval", "--dataset", "spider-dev", "--predictions", str(predictions), "--limit", "4", "--out", str(out)]
    result = CliRunner().invoke(app, [*args, "--bench-dir", str(BENCH_DIR)])
    assert result.exit_code == 0, result.output
    assert "ids have no prediction (counted wrong): 3" in result.output
    rows = {row["id"]: row for row in map(json.loads, (out / "results.jsonl").read_text().splitlines())}
    assert [rows[i]["error_class"] for i in "0123"] == [None, "wrong_result", "missing_prediction", "missing_prediction"]


@pytest.mark.skipif(not (BENCH_DIR / "bird_dev" / "dev.json").exists(), reason="BIRD dev not found")
def test_bird_needs_its_databases(tmp_path: Path) -> None:
    dataset = load_dataset("bird", bench_dir=BENCH_DIR, db_dir=tmp_path)
    assert len(dataset.items) == 1534
    assert {item.difficulty for item in dataset.items} == {"simple", "moderate", "challenging"}
    assert dataset.items[0].evidence.startswith("Eligible free rate")
    out = tmp_path / "out"
    args = ["eval", "--dataset", "bird", "--gold-as-predictions", "--limit", "5", "--out", str(out)]
    result = CliRunner().invoke(app, [*args, "--bench-dir", str(BENCH_DIR), "--db-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "skipped 5 questions: missing_database" in result.output
    without = CliRunner().invoke(app, ["eval", "--dataset", "bird", "--out", str(out), "--bench-dir", str(BENCH_DIR)])
    assert isinstance(without.exception, ConfigError) and "--db-dir" in str(without.exception)
