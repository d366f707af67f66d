"""The runner on real SQLite files: bad predictions, missing/corrupt databases, interrupts, resume,
reports."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from aria.errors import ConfigError
from aria.eval.ablations import EnginePredictor, ask_options, engine_predictors, parse_ablations
from aria.eval.datasets import Dataset, EvalItem
from aria.eval.executors import SqliteExecutor
from aria.eval.metric import resolve_guard
from aria.eval.predictions import FilePredictor, GoldPredictor, check_predictions, load_predictions
from aria.eval.report import load_report, write_report
from aria.eval.results import RESULTS_FILE, read_results
from aria.eval.runner import Prediction, RunOptions, run_eval
from aria.reflect.answer import Answer, AskOptions
from aria.reflect.trace import Trace, TraceEvent


def _make_db(db_dir: Path) -> None:
    (db_dir / "menu").mkdir(parents=True)
    conn = sqlite3.connect(db_dir / "menu" / "menu.sqlite")
    conn.executescript(
        "CREATE TABLE dish(id INTEGER, name TEXT, price REAL);"
        "INSERT INTO dish VALUES (1, 'pho', 45), (2, 'bun cha', 50), (3, 'tra da', 5), (4, 'com tam', 40);"
    )
    conn.close()
    (db_dir / "broken").mkdir()
    (db_dir / "broken" / "broken.sqlite").write_bytes(b"\x00garbage, not sqlite" * 64)


@pytest.fixture()
def dataset(tmp_path: Path) -> Dataset:
    db_dir = tmp_path / "dbs"
    _make_db(db_dir)
    items = [
        EvalItem(str(i), "menu", f"dishes over {p}", "", f"SELECT name FROM dish WHERE price > {p}", d)
        for i, (p, d) in enumerate([(0, "easy"), (10, "easy"), (41, "medium"), (45, "medium"), (100, "hard")])
    ]
    items += [
        EvalItem("5", "broken", "q", "", "SELECT 1", "easy"),
        EvalItem("6", "gone", "q", "", "SELECT 1", "easy"),
    ]
    return Dataset("toy", tuple(items), "sqlite", db_dir)


def _run(dataset: Dataset, predictor, out: Path, **options) -> list:
    return run_eval(
        dataset,
        {"full": predictor},
        out,
        executor=SqliteExecutor(dataset.db_dir),
        guard=resolve_guard("sqlite"),
        options=RunOptions(timeout_s=5, **options),
    )


def test_gold_as_predictions_is_perfect_and_bad_databases_are_skipped(dataset: Dataset, tmp_path: Path) -> None:
    rows = _run(dataset, GoldPredictor(), tmp_path / "out")
    summary = write_report(tmp_path / "out", rows, "toy")
    assert (summary.overall.n, summary.overall.correct, summary.overall.ex) == (5, 5, 100.0)
    assert summary.skipped == {"missing_database": 2}
    reasons = {row.db_id: row.error for row in rows if row.skipped}
    assert "not a readable SQLite database" in reasons["broken"]
    assert "does not exist" in reasons["gone"]
    assert "broken" in (tmp_path / "out" / "report.md").read_text()


def test_bad_predictions_are_reported_by_id_and_counted_wrong(dataset: Dataset, tmp_path: Path) -> None:
    path = tmp_path / "pred.json"
    path.write_text(
        json.dumps(
            {
                "0": "SELECT name FROM dish WHERE price < 10",
                "1": 17,
                "2": "I think it is pho",
                "3": "SELECT name FROM dish WHERE price > 45\t----- bird -----\tmenu",
                "99": "SELECT 1",
            }
        )
    )
    predictions = load_predictions(path)
    problems = check_predictions(predictions, dataset.items)
    assert problems.missing == ("4", "5", "6")
    assert problems.not_text == ("1",)
    assert problems.unknown == ("99",)
    assert any("4, 5, 6" in line for line in problems.lines())
    rows = {row.id: row for row in _run(dataset, FilePredictor(predictions), tmp_path / "out")}
    assert rows["0"].error_class == "wrong_result"
    assert rows["1"].error_class == "missing_prediction"
    assert rows["2"].error_class in {"guard_rejection", "syntax_error"}
    assert rows["3"].correct
    assert rows["4"].error_class == "missing_prediction"
    assert [rows[i].skipped for i in ("5", "6")] == ["missing_database", "missing_database"]


def test_a_predictions_file_must_be_an_object(tmp_path: Path) -> None:
    path = tmp_path / "pred.json"
    path.write_text('["SELECT 1"]')
    with pytest.raises(ConfigError, match="not an object"):
        load_predictions(path)


class _InterruptAfter:
    def __init__(self, k: int) -> None:
        self.k = k
        self.calls = 0

    def __call__(self, item: EvalItem) -> Prediction:
        self.calls += 1
        if self.calls > self.k:
            raise KeyboardInterrupt
        return Prediction(sql=item.gold_sql)


@pytest.mark.parametrize("workers", [1, 2])
def test_an_interrupted_run_loses_nothing_and_resumes(dataset: Dataset, tmp_path: Path, workers: int) -> None:
    out = tmp_path / "out"
    with pytest.raises(KeyboardInterrupt):
        _run(dataset, _InterruptAfter(2), out, workers=workers)
    kept = [row for row in read_results(out) if row.skipped is None]
    assert len(kept) == 2 and all(row.correct for row in kept)
    resumed = GoldPredictorCounting()
    rows = _run(dataset, resumed, out, workers=workers)
    assert sorted(resumed.seen) == sorted({"0", "1", "2", "3", "4"} - {row.id for row in kept})
    scored = [row for row in rows if row.skipped is None]
    assert sorted(row.id for row in scored) == ["0", "1", "2", "3", "4"] and all(row.correct for row in scored)
    lines = (out / RESULTS_FILE).read_text().splitlines()
    assert len(lines) == 5 + 2  # five scored once each, two skipped rows written once


class GoldPredictorCounting:
    def __init__(self) -> None:
        self.seen: list[str] = []

    def __call__(self, item: EvalItem) -> Prediction:
        self.seen.append(item.id)
        return Prediction(sql=item.gold_sql)


def test_limit_and_a_torn_last_line(dataset: Dataset, tmp_path: Path) -> None:
    out = tmp_path / "out"
    _run(dataset, GoldPredictor(), out, limit=2)
    with (out / RESULTS_FILE).open("a") as handle:
        handle.write('{"id": "2", "db_')  # a crash mid-write
    rows = _run(dataset, GoldPredictor(), out, limit=3)
    assert sorted(row.id for row in rows) == ["0", "1", "2"]


def test_one_folder_holds_one_dataset(dataset: Dataset, tmp_path: Path) -> None:
    _run(dataset, GoldPredictor(), tmp_path / "out", limit=1)
    other = Dataset("other", dataset.items, "sqlite", dataset.db_dir)
    with pytest.raises(ConfigError, match="holds results for 'toy'"):
        _run(other, GoldPredictor(), tmp_path / "out")


def test_report_files_and_load_report(dataset: Dataset, tmp_path: Path) -> None:
    out = tmp_path / "out"
    rows = _run(dataset, FilePredictor({"0": "SELECT name FROM dish WHERE price > 0", "1": "SELECT 1"}), out)
    write_report(out, rows, "toy")
    report = load_report(out)
    assert report.summary.overall.n == 5 and report.summary.overall.correct == 1
    assert report.summary.by_difficulty["easy"].ex == 50.0
    assert report.summary.errors == {"wrong_result": 1, "missing_prediction": 3}
    assert "| full | 50.0 | 0.0 | 0.0 | 20.0 |" in report.markdown
    page = (out / "report.html").read_text()
    assert "Plotly.newPlot" in page and "<script src=" not in page  # self-contained
    summary = json.loads((out / "summary.json").read_text())
    assert set(summary["latency_ms"]) == {"p50", "p95"}


def test_load_report_of_an_empty_folder(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="No evaluation results"):
        load_report(tmp_path)


def test_ablations_map_to_engine_switches(settings_no_llm) -> None:
    assert parse_ablations("full, no-entailment,full") == ["full", "no-entailment"]
    assert ask_options("no-sql-reflection") == AskOptions(reuse=False, sql_reflection=False)
    assert ask_options("no-iterative-retrieval").retrieval_loop is False
    with pytest.raises(ConfigError, match="Unknown ablation"):
        parse_ablations("no-judges")
    with pytest.raises(ConfigError, match="needs a model"):
        engine_predictors(settings_no_llm, Dataset("toy", (), "sqlite", None), ["full"])


def test_engine_predictor_reports_calls_tokens_and_trace(dataset: Dataset) -> None:
    def answer(item: EvalItem, options: AskOptions) -> Answer:
        trace = Trace(events=[TraceEvent(loop="synthesis", step="generate", llm_calls=2, tokens=300)])
        return Answer(question=item.question, status="answered", answer_text="ok", sql=item.gold_sql, trace=trace)

    prediction = EnginePredictor(answer, ask_options("full"))(dataset.items[0])
    assert prediction.sql == dataset.items[0].gold_sql
    assert (prediction.llm_calls, prediction.tokens) == (2, 300)
    assert prediction.trace_summary.startswith("answered (synthesis 1)")


@pytest.fixture()
def settings_no_llm(tmp_path: Path):
    from aria.config import Settings

    return Settings(home=tmp_path, llm=None)
