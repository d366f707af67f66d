"""Run an evaluation: predict each question, execute prediction and gold, score, append the result.

The :class:`Predictor` protocol is the plug-in point: a predictions file, the gold itself, or the
Reflect-SQL engine under one ablation (:mod:`aria.eval.ablations`). Runs are resumable: rows already
scored in ``<out>/results.jsonl`` are skipped, and every new row is flushed as soon as it is scored.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from aria.errors import AriaError, ConfigError, QueryFailed
from aria.eval.datasets import Dataset, EvalItem
from aria.eval.executors import Executor
from aria.eval.metric import Guard, Score, row_set, score_prediction
from aria.eval.results import ResultRow, ResultWriter, read_results, scored_keys

log = logging.getLogger(__name__)

RUN_FILE = "run.json"


@dataclass(frozen=True)
class Prediction:
    """What a predictor produced for one question. ``sql`` is whatever it gave (normally text)."""

    sql: object
    llm_calls: int = 0
    tokens: int = 0
    latency_ms: float = 0.0
    trace_summary: str = ""


class Predictor(Protocol):
    def __call__(self, item: EvalItem) -> Prediction: ...


class Progress(Protocol):
    def start(self, total: int, already: list[ResultRow]) -> None: ...

    def advance(self, row: ResultRow) -> None: ...


@dataclass(frozen=True)
class RunOptions:
    timeout_s: float = 30.0
    workers: int = 1
    limit: int | None = None


@dataclass
class _GoldCache:
    """Gold rows per (db, SQL), shared by ablations; a failing gold is remembered as its error."""

    rows: dict[tuple[str, str], frozenset[tuple] | QueryFailed] = field(default_factory=dict)

    def get(self, item: EvalItem, executor: Executor, timeout_s: float) -> frozenset[tuple] | QueryFailed:
        key = (item.db_id, item.gold_sql)
        if key not in self.rows:
            try:
                self.rows[key] = row_set(executor.run(item.db_id, item.gold_sql, timeout_s=timeout_s))
            except QueryFailed as err:
                self.rows[key] = err
        return self.rows[key]


def _predict(predictor: Predictor, item: EvalItem) -> Prediction:
    started = time.perf_counter()
    try:
        prediction = predictor(item)
    except AriaError as err:  # a model or engine failure counts as no prediction, with its cause
        log.warning("Predictor failed on %s: %s", item.id, err)
        return Prediction(sql=None, trace_summary=f"predictor failed: {err}")
    if not prediction.latency_ms:
        elapsed = (time.perf_counter() - started) * 1000
        prediction = Prediction(**{**prediction.__dict__, "latency_ms": elapsed})
    return prediction


def _row(
    item: EvalItem, ablation: str, prediction: Prediction, score: Score, skipped: str | None
) -> ResultRow:
    return ResultRow(
        id=item.id,
        db_id=item.db_id,
        difficulty=item.difficulty,
        ablation=ablation,
        prediction=prediction.sql,
        gold=item.gold_sql,
        correct=score.correct,
        error_class=score.error_class,
        error=score.error,
        trace_summary=prediction.trace_summary,
        llm_calls=prediction.llm_calls,
        tokens=prediction.tokens,
        latency_ms=round(prediction.latency_ms, 3),
        skipped=skipped,
    )


def evaluate_item(
    item: EvalItem, ablation: str, predictor: Predictor, *, executor: Executor, guard: Guard,
    gold_cache: _GoldCache, timeout_s: float,
) -> ResultRow:  # fmt: skip
    """Predict, execute and score one question under one ablation."""
    gold = gold_cache.get(item, executor, timeout_s)
    if isinstance(gold, QueryFailed):
        return _row(
            item,
            ablation,
            Prediction(sql=None),
            Score(False, None, f"gold SQL failed: {gold}"),
            "gold_failed",
        )
    prediction = _predict(predictor, item)

    def run(sql: str) -> list[tuple]:
        return executor.run(item.db_id, sql, timeout_s=timeout_s)

    return _row(
        item, ablation, prediction, score_prediction(prediction.sql, gold, run=run, guard=guard), None
    )


def unavailable_databases(db_ids: Iterable[str], executor: Executor) -> dict[str, str]:
    """Databases that cannot be queried, with the reason (their questions are skipped)."""
    missing: dict[str, str] = {}
    for db_id in sorted(set(db_ids)):
        try:
            executor.check(db_id)
        except AriaError as err:
            missing[db_id] = str(err)
    return missing


def _skipped_rows(items: list[EvalItem], ablations: list[str], missing: dict[str, str]) -> list[ResultRow]:
    return [
        _row(
            item, ablation, Prediction(sql=None), Score(False, None, missing[item.db_id]), "missing_database"
        )
        for ablation in ablations
        for item in items
        if item.db_id in missing
    ]


def run_eval(
    dataset: Dataset,
    predictors: dict[str, Predictor],
    out_dir: Path,
    *,
    executor: Executor,
    guard: Guard,
    options: RunOptions = RunOptions(),  # noqa: B008 - frozen, never mutated
    progress: Progress | None = None,
) -> list[ResultRow]:
    """Score ``dataset`` under each ablation (name -> predictor); return every row in ``out_dir``.

    Questions on a missing or unreadable database are written as skipped rows (re-tried on the
    next run). ``KeyboardInterrupt`` stops the run; every row scored before it is already on disk.
    """
    items = list(dataset.items[: options.limit] if options.limit else dataset.items)
    claim_out_dir(out_dir, dataset.name)
    already = read_results(out_dir)
    done = scored_keys(already)
    missing = unavailable_databases((item.db_id for item in items), executor)
    for db_id, reason in missing.items():
        log.warning("Skipping the questions on %s: %s", db_id, reason)
    tasks = [
        (item, name)
        for name in predictors
        for item in items
        if (item.id, name) not in done and item.db_id not in missing
    ]
    if progress is not None:
        progress.start(len(tasks), [row for row in already if row.skipped is None])
    gold_cache = _GoldCache()

    def one(task: tuple[EvalItem, str]) -> ResultRow:
        item, name = task
        return evaluate_item(
            item, name, predictors[name], executor=executor, guard=guard,
            gold_cache=gold_cache, timeout_s=options.timeout_s,
        )  # fmt: skip

    with ResultWriter(out_dir) as writer:
        recorded = {(row.key, row.skipped) for row in already}
        for row in _skipped_rows(items, list(predictors), missing):
            if (row.key, row.skipped) not in recorded:
                writer.write(row)
        _run_tasks(tasks, one, writer.write if progress is None else _both(writer.write, progress.advance),
                   workers=options.workers)  # fmt: skip
    return read_results(out_dir)


def claim_out_dir(out_dir: Path, dataset: str) -> None:
    """Mark ``out_dir`` as holding ``dataset``'s results; refuse to mix two datasets in one folder."""
    out_dir.mkdir(parents=True, exist_ok=True)
    marker = out_dir / RUN_FILE
    if marker.exists():
        recorded = json.loads(marker.read_text(encoding="utf-8")).get("dataset")
        if recorded != dataset:
            raise ConfigError(
                f"{out_dir} holds results for {recorded!r}, not {dataset!r}.",
                hint="Pass another --out folder.",
            )
        return
    marker.write_text(json.dumps({"dataset": dataset}), encoding="utf-8")


def _both(
    first: Callable[[ResultRow], None], second: Callable[[ResultRow], None]
) -> Callable[[ResultRow], None]:
    def call(row: ResultRow) -> None:
        first(row)
        second(row)

    return call


def _run_tasks(
    tasks: list[tuple[EvalItem, str]],
    one: Callable[[tuple[EvalItem, str]], ResultRow],
    sink: Callable[[ResultRow], None],
    *,
    workers: int,
) -> None:
    """Run tasks inline (one worker) or on a thread pool; results go to ``sink`` as they finish.

    On an exception (``KeyboardInterrupt`` included) tasks not started are cancelled, the ones
    running are finished and kept, and the first exception is raised again.
    """
    if workers <= 1:
        for task in tasks:
            sink(one(task))
        return
    pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="aria-eval")
    pending: set[Future[ResultRow]] = set()
    try:
        for task in tasks:  # a bounded window in flight, so an interrupt wastes little work
            pending.add(pool.submit(one, task))
            if len(pending) >= workers * 4:
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                _keep(finished, pending, sink)
        _keep(list(pending), pending, sink)
    except BaseException:
        for future in pending:
            future.cancel()
        _keep(list(pending), pending, sink, reraise=False)
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _keep(
    futures: Iterable[Future[ResultRow]],
    pending: set[Future[ResultRow]],
    sink: Callable[[ResultRow], None],
    *,
    reraise: bool = True,
) -> None:
    """Sink every successful result and drop it from ``pending``; then raise the first failure."""
    error: BaseException | None = None
    for future in futures:
        if future.cancelled():
            pending.discard(future)
            continue
        failure = future.exception()
        pending.discard(future)
        if failure is None:
            sink(future.result())
        elif error is None:
            error = failure
    if error is not None and reraise:
        raise error
