"""``aria eval``: execution accuracy on Spider dev, BIRD dev or SmartRestaurant's golden questions.

Predictions mode scores a JSON file (id -> SQL); ``--gold-as-predictions`` checks the harness
itself; engine mode (``--llm``) runs the Reflect-SQL engine under the chosen ablations.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from aria.cli.common import settings as current_settings
from aria.cli.common import write_figures
from aria.config import Settings
from aria.errors import ConfigError
from aria.eval.ablations import engine_predictors, parse_ablations
from aria.eval.datasets import DATASETS, Dataset, load_dataset
from aria.eval.executors import Executor, PostgresExecutor, SqliteExecutor
from aria.eval.metric import resolve_guard
from aria.eval.predictions import FilePredictor, GoldPredictor, check_predictions, load_predictions
from aria.eval.report import summarize, write_report
from aria.eval.results import ResultRow, read_results
from aria.eval.runner import Predictor, RunOptions, run_eval


class RichProgress:
    """A progress bar showing the running EX (already-scored rows of a resumed run included)."""

    def __init__(self) -> None:
        self.bar = Progress(
            TextColumn("[bold]eval"), BarColumn(), MofNCompleteColumn(),
            TextColumn("EX {task.fields[ex]}"), TimeElapsedColumn(),
        )  # fmt: skip
        self.correct = 0
        self.scored = 0
        self.task = self.bar.add_task("eval", total=0, ex="-")

    def _ex(self) -> str:
        return f"{100 * self.correct / self.scored:.1f}% ({self.scored})" if self.scored else "-"

    def start(self, total: int, already: list[ResultRow]) -> None:
        self.correct = sum(row.correct for row in already)
        self.scored = len(already)
        self.bar.update(self.task, total=total, ex=self._ex())

    def advance(self, row: ResultRow) -> None:
        if row.skipped is None:
            self.scored += 1
            self.correct += row.correct
        self.bar.update(self.task, advance=1, ex=self._ex())


def _executor(dataset: Dataset, settings: Settings) -> Executor:
    if dataset.db_dir is not None:
        return SqliteExecutor(dataset.db_dir)
    from aria.db.connect import resolve_targets

    return PostgresExecutor(resolve_targets(settings).reader, connect_timeout_s=settings.connect_timeout_s)


def _predictors(
    dataset: Dataset, settings: Settings, predictions: Path | None, gold: bool, ablation: str
) -> dict[str, Predictor]:
    if predictions is not None and gold:
        raise ConfigError("Pass either --predictions or --gold-as-predictions, not both.")
    if gold:
        return {"gold": GoldPredictor()}
    if predictions is not None:
        loaded = load_predictions(predictions)
        for line in check_predictions(loaded, dataset.items).lines():
            typer.secho(f"predictions: {line}", fg=typer.colors.YELLOW, err=True)
        return {"predictions": FilePredictor(loaded)}
    return engine_predictors(settings, dataset, parse_ablations(ablation))


def eval_command(
    dataset: Annotated[str, typer.Option(help=f"One of: {', '.join(DATASETS)}.")],
    out: Annotated[Path, typer.Option(help="Folder for results.jsonl and the reports; re-runs resume.")],
    predictions: Annotated[Path | None, typer.Option(help="JSON object: question id -> SQL.")] = None,
    gold_as_predictions: Annotated[
        bool, typer.Option(help="Score the gold SQL itself (harness check).")
    ] = False,
    llm: Annotated[str | None, typer.Option(help="Engine mode: generator model spec.")] = None,
    judge_llm: Annotated[str | None, typer.Option(help="Engine mode: judge model spec.")] = None,
    ablation: Annotated[
        str,
        typer.Option(
            help="Engine mode, comma-separated: full,no-sql-reflection,no-entailment,no-iterative-retrieval."
        ),
    ] = "full",
    limit: Annotated[int | None, typer.Option(min=1, help="Only the first N questions.")] = None,
    workers: Annotated[int, typer.Option(min=1, help="Questions scored in parallel.")] = 1,
    timeout: Annotated[
        float | None, typer.Option(help="Per-query deadline, s (default ARIA_EVAL_TIMEOUT_S).")
    ] = None,
    bench_dir: Annotated[
        Path | None, typer.Option(help="Benchmark data folder (default ARIA_BENCH_DIR).")
    ] = None,
    db_dir: Annotated[
        Path | None, typer.Option(help="SQLite databases: <db_id>/<db_id>.sqlite (BIRD).")
    ] = None,
) -> None:
    """Score text-to-SQL predictions by execution accuracy (EX)."""
    base = current_settings()
    updates = {k: v for k, v in {"llm": llm, "judge_llm": judge_llm, "bench_dir": bench_dir}.items() if v}
    settings = base.model_copy(update=updates)
    data = load_dataset(dataset, bench_dir=settings.bench_dir, db_dir=db_dir)
    predictors = _predictors(data, settings, predictions, gold_as_predictions, ablation)
    options = RunOptions(timeout_s=timeout or settings.eval_timeout_s, workers=workers, limit=limit)
    executor = _executor(data, settings)
    guard = resolve_guard(data.dialect, schemas=frozenset({settings.business_schema}))
    progress = RichProgress()
    started = time.perf_counter()
    try:
        with progress.bar:
            rows = run_eval(
                data, predictors, out, executor=executor, guard=guard, options=options, progress=progress
            )
    except KeyboardInterrupt:
        write_report(out, read_results(out), dataset)
        typer.secho(
            f"Interrupted: every scored question is kept in {out}; re-run the same command to resume.",
            fg=typer.colors.YELLOW,
            err=True,
        )
        raise typer.Exit(130) from None
    summary = write_report(out, rows, dataset)
    for reason, count in summary.skipped.items():
        typer.secho(f"skipped {count} questions: {reason} (see {out / 'report.md'})", fg=typer.colors.YELLOW)
    typer.echo(
        f"EX {summary.overall.ex:.2f}% ({summary.overall.correct}/{summary.overall.n}) "
        f"in {time.perf_counter() - started:.1f} s; report: {out / 'report.md'}, {out / 'report.html'}"
    )


def bench_eval_speed(
    workers: Annotated[int, typer.Option(min=1, help="Questions scored in parallel.")] = 2,
    bench_dir: Annotated[
        Path | None, typer.Option(help="Benchmark data folder (default ARIA_BENCH_DIR).")
    ] = None,
    json_out: Annotated[Path | None, typer.Option("--json", help="Also write the figures here.")] = None,
) -> None:
    """Time scoring Spider dev's gold as predictions (every question executed twice) from scratch."""
    settings = current_settings()
    data = load_dataset("spider-dev", bench_dir=bench_dir or settings.bench_dir)
    options = RunOptions(timeout_s=settings.eval_timeout_s, workers=workers)
    with tempfile.TemporaryDirectory(prefix="aria-eval-speed") as tmp:
        started = time.perf_counter()
        rows = run_eval(
            data,
            {"gold": GoldPredictor()},
            Path(tmp),
            executor=SqliteExecutor(data.db_dir or Path(tmp)),
            guard=resolve_guard("sqlite"),
            options=options,
        )
        seconds = time.perf_counter() - started
    summary = summarize(rows, data.name)
    figures = {
        "dataset": "spider-dev",
        "scored": summary.overall.n,
        "skipped": summary.skipped,
        "ex": summary.overall.ex,
        "workers": workers,
        "seconds": round(seconds, 2),
        "questions_per_s": round(summary.overall.n / seconds, 1) if seconds else 0.0,
    }
    typer.echo("| " + " | ".join(figures) + " |\n|" + "---|" * len(figures))
    typer.echo("| " + " | ".join(str(v) for v in figures.values()) + " |")
    if json_out is not None:
        write_figures(json_out, figures)
