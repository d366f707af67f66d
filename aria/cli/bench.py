"""``aria bench ...``: the benchmarks whose figures the README quotes. Each command prints a table
and can write JSON."""

from __future__ import annotations

import typer

from aria.cli.common import write_figures

app = typer.Typer(help="Benchmarks: seed, retrieval, judges, engine overhead, reuse.", no_args_is_help=True)


@app.command("judges")
def judges(
    dataset: str = typer.Option("spider-dev", help="spider-dev or smartrestaurant."),
    limit: int | None = typer.Option(None, help="Only the first N gold queries."),
    out: str | None = typer.Option(None, help="Also write the figures as JSON to this file."),
) -> None:
    """Judge fidelity: mutate gold SQL, keep mutants that change the answer, count how many the judges flag."""

    from aria.cli.common import settings as get_settings
    from aria.cli.common import targets as get_targets
    from aria.eval.mutants import fidelity_markdown, measure_fidelity, smartrestaurant_inputs, spider_inputs

    cfg = get_settings()
    if dataset == "spider-dev":
        items, run, schema_for = spider_inputs(cfg.bench_dir)
    elif dataset == "smartrestaurant":
        items, run, schema_for = smartrestaurant_inputs(get_targets().admin, cfg.business_schema, cfg.statement_timeout_ms)
    else:
        raise typer.BadParameter("use spider-dev or smartrestaurant", param_hint="--dataset")
    # LLM judges plug in here through measure_fidelity(judge=...); no model is configured by default.
    report = measure_fidelity(items[:limit] if limit else items, run, schema_for)
    typer.echo(fidelity_markdown(report))
    if out:
        write_figures(out, report.as_dict())


@app.command("reuse")
def reuse(
    out: str | None = typer.Option(None, help="Also write the figures as JSON to this file."),
    kb_schema: str = typer.Option("aria_reuse_bench", help="The KB schema the bench builds (its own, rebuilt each run)."),
    reseed: bool = typer.Option(False, help="Re-seed the business schema with the tests' data first (replaces it)."),
) -> None:
    """Verified-query reuse with no model: held-out paraphrases answered correctly, wrongly, or not at all."""

    from aria.cli.common import settings as get_settings
    from aria.db.connect import resolve_targets
    from aria.eval.reuse_bench import ensure_seeded, reuse_markdown, run_reuse_bench
    from aria.kb.embed import embedder_for

    cfg = get_settings().model_copy(update={"kb_schema": kb_schema, "llm": None})
    targets = resolve_targets(cfg)
    as_of = ensure_seeded(cfg, targets, reseed=reseed)
    typer.echo(f"Business clock: {as_of}; KB schema: {kb_schema}")
    report = run_reuse_bench(cfg, targets, embedder_for(cfg))
    typer.echo(reuse_markdown(report))
    if out:
        write_figures(out, report.as_dict())


@app.command("retrieval")
def retrieval(
    dataset: str = typer.Option("bird-dev", help="bird-dev, bird-merged, spider-dev or spider-merged."),
    evidence: bool = typer.Option(False, help="Give BIRD's evidence to retrieval."),
    enriched: bool = typer.Option(False, help="BIRD: index the LLM-written ai_description too (not official)."),
    bench_dir: str | None = typer.Option(None, help="Folder holding bird_dev/ and spider_dev/ (default: bench_dir)."),
    k: int | None = typer.Option(None, help="Tables of the first step (default: top_k_tables)."),
    m: int | None = typer.Option(None, help="Most columns per table (default: top_m_columns)."),
    budget: int | None = typer.Option(None, help="Tokens of retrieved columns; 0: m per table (default: column_token_budget)."),
    limit: int | None = typer.Option(None, help="Only the first N questions."),
    kb_schema: str = typer.Option("aria_bench_kb", help="The KB schema the benchmark indexes into (kept; incremental)."),
    out: str = typer.Option(..., help="Write the JSON report here."),
) -> None:
    """Schema retrieval: strict table/column recall, context size vs the full schema, latency."""
    import time
    from pathlib import Path

    from aria.cli.common import settings as get_settings
    from aria.db.connect import resolve_targets
    from aria.eval.retrieval_bench import markdown, report, run_retrieval_bench
    from aria.kb.embed import embedder_for
    from aria.kb.store import KnowledgeStore

    cfg = get_settings().model_copy(update={"kb_schema": kb_schema})
    store = KnowledgeStore(resolve_targets(cfg).kb, cfg)
    started = time.perf_counter()
    rows = run_retrieval_bench(store, embedder_for(cfg), dataset, Path(bench_dir) if bench_dir else cfg.bench_dir,
                               evidence=evidence, enriched=enriched, k=k or cfg.top_k_tables,
                               m=m or cfg.top_m_columns,
                               budget=cfg.column_token_budget if budget is None else budget, limit=limit)
    result = report(rows)
    title = f"{dataset}{' + evidence' if evidence else ''}{' (enriched)' if enriched else ''}"
    typer.echo(markdown(result, title))
    typer.echo(f"\n{len(rows)} questions in {time.perf_counter() - started:.1f} s")
    write_figures(out, result)


@app.command("engine")
def engine_overhead(
    limit: int | None = typer.Option(None, help="Only the first N golden examples."),
    out: str | None = typer.Option(None, help="Also write the figures as JSON to this file."),
) -> None:
    """The engine's own overhead per question (scripted test model; the KB must be built: `aria kb build`)."""

    from aria.cli.common import settings as get_settings
    from aria.cli.common import targets as get_targets
    from aria.eval.engine_bench import overhead_markdown, run_engine_bench
    from aria.kb.embed import embedder_for

    cfg = get_settings()
    report = run_engine_bench(cfg, get_targets(), embedder_for(cfg), limit=limit)
    typer.echo(overhead_markdown(report))
    if out:
        write_figures(out, report.as_dict())


@app.command("load")
def load(
    questions: int = typer.Option(20, "--questions", min=1, help="How many questions to ask at once."),
    workers: int = typer.Option(20, "--workers", min=1, help="Threads asking them (one engine shared)."),
    out: str | None = typer.Option(None, help="Also write the figures as JSON to this file."),
) -> None:
    """Concurrent questions through one engine: p50/p95 end-to-end overhead (scripted test model; KB built)."""

    from aria.cli.common import settings as get_settings
    from aria.cli.common import targets as get_targets
    from aria.eval.load_bench import load_markdown, run_load_bench
    from aria.kb.embed import embedder_for

    cfg = get_settings()
    report = run_load_bench(cfg, get_targets(), embedder_for(cfg), questions=questions,
                            workers=workers)
    typer.echo(load_markdown(report))
    if out:
        write_figures(out, report.as_dict())
    if report.errors:
        raise typer.Exit(1)


@app.command("seed")
def seed_bench(
    days: int = typer.Option(182, "--days", min=1, help="Days of history to generate."),
    runs: int = typer.Option(3, "--runs", min=1, help="How many seedings to time (the median is reported)."),
    seed: int = typer.Option(42, "--seed", help="Random seed."),
) -> None:
    """Seed the SmartRestaurant data into a throwaway embedded server and report the median seconds."""
    import shutil
    import statistics
    import tempfile
    from datetime import datetime
    from pathlib import Path

    from aria.cli.common import settings as get_settings
    from aria.db.connect import resolve_targets
    from aria.db.embedded import stop_embedded
    from aria.db.seed import seed_database

    home = Path(tempfile.mkdtemp(prefix="arb", dir="/tmp"))
    cfg = get_settings().model_copy(update={"home": home, "database_url": None, "kb_url": None, "reader_url": None})
    as_of = datetime(2026, 11, 15, 19, 40)
    try:
        admin = resolve_targets(cfg).admin
        times = []
        for run in range(runs):
            report = seed_database(admin, cfg, as_of=as_of, days=days, seed=seed, replace=True)
            times.append(report.seconds)
            typer.echo(f"run {run + 1}: {report.seconds:.1f} s ({report.total_rows:,} rows, {report.counts['orders']:,} orders)")
        typer.echo(f"| days | runs | rows | median seconds |\n|---|---|---|---|\n"
                   f"| {days} | {runs} | {report.total_rows:,} | {statistics.median(times):.1f} |")
    finally:
        stop_embedded(home)
        shutil.rmtree(home, ignore_errors=True)


@app.command("ui")
def ui_bench(
    port: int = typer.Option(8599, "--port", help="Port for the demo the bench starts."),
    runs: int = typer.Option(5, "--runs", min=1, help="Fresh browser pages to time (medians are reported)."),
    questions: int = typer.Option(2, "--questions", min=2, help="Questions per page; the last is the 'later' answer."),
    json_out: str | None = typer.Option(None, "--json", help="Also write the figures as JSON to this file."),
) -> None:
    """UI speed in a real browser (/usr/bin/chromium): page load and overhead over the engine (scripted test model)."""

    from aria.cli.common import settings as get_settings
    from aria.cli.common import targets as get_targets
    from aria.eval.ui_bench import run_ui_bench, ui_markdown

    report = run_ui_bench(get_settings(), get_targets(), port=port, runs=runs, questions=questions)
    typer.echo(ui_markdown(report))
    if json_out:
        write_figures(json_out, report.as_dict())
