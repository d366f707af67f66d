"""``aria bench ...``: the benchmarks whose figures the README quotes. Each command prints a table
and can write JSON."""

from __future__ import annotations

import typer

app = typer.Typer(help="Benchmarks: seed, retrieval, judges, engine overhead, reuse.", no_args_is_help=True)


@app.command("judges")
def judges(
    dataset: str = typer.Option("spider-dev", help="spider-dev or smartrestaurant."),
    limit: int | None = typer.Option(None, help="Only the first N gold queries."),
    out: str | None = typer.Option(None, help="Also write the figures as JSON to this file."),
) -> None:
    """Judge fidelity: mutate gold SQL, keep mutants that change the answer, count how many the judges flag."""
    import json
    from pathlib import Path

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
        Path(out).write_text(json.dumps(report.as_dict(), indent=2), encoding="utf-8")
        typer.echo(f"Wrote {out}")


@app.command("reuse")
def reuse(
    out: str | None = typer.Option(None, help="Also write the figures as JSON to this file."),
    kb_schema: str = typer.Option("aria_reuse_bench", help="The KB schema the bench builds (its own, rebuilt each run)."),
    reseed: bool = typer.Option(False, help="Re-seed the business schema with the tests' data first (replaces it)."),
) -> None:
    """Verified-query reuse with no model: held-out paraphrases answered correctly, wrongly, or not at all."""
    import json
    from pathlib import Path

    from aria.cli.common import settings as get_settings
    from aria.db.connect import resolve_targets
    from aria.eval.reuse_bench import ensure_seeded, reuse_markdown, run_reuse_bench
    from aria.kb.embed import get_embedder

    cfg = get_settings().model_copy(update={"kb_schema": kb_schema, "llm": None})
    targets = resolve_targets(cfg)
    as_of = ensure_seeded(cfg, targets, reseed=reseed)
    typer.echo(f"Business clock: {as_of}; KB schema: {kb_schema}")
    report = run_reuse_bench(cfg, targets, get_embedder(cfg.embedding_model))
    typer.echo(reuse_markdown(report))
    if out:
        Path(out).write_text(json.dumps(report.as_dict(), indent=2, ensure_ascii=False, default=str), encoding="utf-8")
        typer.echo(f"Wrote {out}")
