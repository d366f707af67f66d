"""``aria semantic ...``: the governed metrics — list them, query them, parse a question."""

from __future__ import annotations

import datetime as dt

import typer

from aria.cli.common import print_json, write_figures

app = typer.Typer(help="The semantic layer: governed metrics compiled by MetricFlow.", no_args_is_help=True)


def _open() -> tuple:  # (settings, executor, layer)
    from aria.cli.common import settings as get_settings
    from aria.cli.common import targets as get_targets
    from aria.db.executor import ReadOnlyExecutor
    from aria.reflect.semantic_stage import values_reader
    from aria.semantic.layer import load_semantic_layer

    cfg = get_settings()
    executor = ReadOnlyExecutor(get_targets().reader, cfg)
    layer = load_semantic_layer(business_schema=cfg.business_schema, semantic_schema=cfg.semantic_schema,
                                values_of=values_reader(executor), executor=executor)
    return cfg, executor, layer


@app.command("list")
def list_metrics(as_json: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """Every metric with its labels, unit and definition."""
    from aria.cli.common import settings as get_settings
    from aria.semantic.layer import load_semantic_layer

    cfg = get_settings()
    layer = load_semantic_layer(business_schema=cfg.business_schema, semantic_schema=cfg.semantic_schema)
    metrics = [{"name": m.name, "label_vi": m.labels.vi, "label_en": m.labels.en, "unit": m.unit,
                "column": m.column, "description": m.description} for m in layer.catalog.metrics.values()]
    if as_json:
        print_json(metrics)
        return
    for m in metrics:
        typer.echo(f"{m['name']:<28} {m['label_vi']} / {m['label_en']} [{m['unit']}] — {m['description']}")


def _filters(where: list[str]) -> list:
    from aria.semantic.query import ValueFilter

    out = []
    for item in where:
        name, sep, values = item.partition("=")
        if not sep:
            raise typer.BadParameter(f"{item!r}: write DIMENSION=VALUE[,VALUE...]", param_hint="--where")
        out.append(ValueFilter(dimension=name.strip(), values=tuple(v.strip() for v in values.split(","))))
    return out


@app.command("query")
def query(
    metrics: list[str] = typer.Option(..., "--metrics", help="Metric names (repeat the option for several)."),  # noqa: B008 - typer reads list options from the default
    group_by: list[str] | None = typer.Option(None, "--group-by", help="Group-by names, e.g. category__name_vi, metric_time__day."),  # noqa: B008 - typer reads list options from the default
    where: list[str] | None = typer.Option(None, "--where", help="DIMENSION=VALUE[,VALUE...] (repeatable)."),  # noqa: B008 - typer reads list options from the default
    start: str | None = typer.Option(None, help="First day (YYYY-MM-DD)."),
    end: str | None = typer.Option(None, help="Last day (YYYY-MM-DD), included."),
    order: list[str] | None = typer.Option(None, "--order", help="A metric or group-by; prefix '-' for descending."),  # noqa: B008 - typer reads list options from the default
    limit: int | None = typer.Option(None, help="Most rows."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Compile a semantic query with MetricFlow and run it read-only."""
    from pydantic import ValidationError

    from aria.semantic.query import OrderBy, SemanticQuery, TimeRange

    _, executor, layer = _open()
    try:
        time_range = None
        if start or end:
            first = dt.date.fromisoformat(start or end or "")
            time_range = TimeRange(start=first, end=dt.date.fromisoformat(end or start or ""))
        semantic = SemanticQuery(metrics=list(metrics), group_by=list(group_by or []), filters=_filters(where or []),
                                 time=time_range, limit=limit,
                                 order_by=[OrderBy(by=o.lstrip("-"), descending=o.startswith("-")) for o in order or []])
    except (ValidationError, ValueError) as err:
        raise typer.BadParameter(str(err).splitlines()[0]) from err
    compiled = layer.compile(semantic)
    result = executor.run(compiled.sql)
    payload = {"query": semantic.model_dump(mode="json"), "words": layer.describe(semantic, "en"),
               "sql": compiled.sql, "columns": result.columns, "rows": result.rows}
    if as_json:
        print_json(payload)
        return
    typer.echo(payload["words"])
    typer.echo(compiled.sql)
    typer.echo(" | ".join(result.columns))
    for row in result.rows:
        typer.echo(" | ".join(str(v) for v in row))


@app.command("parse")
def parse(question: str = typer.Argument(..., help="The question."),
          as_json: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """How the deterministic parser reads a question (and the SQL MetricFlow compiles for it)."""
    from aria.reflect.deps import business_now
    from aria.reflect.language import validate_question

    cfg, executor, layer = _open()
    cleaned, language = validate_question(question, ui_language=cfg.ui_language)
    parsed = layer.parse(cleaned, language=language, now=business_now(executor, cfg.timezone))
    payload = {"question": cleaned, "language": language, "answerable": parsed.ok,
               "recognised": [str(item) for item in parsed.recognised], "not_recognised": parsed.unknown, "problem": parsed.problem,
               "query": parsed.query.model_dump(mode="json") if parsed.query else None,
               "words": layer.describe(parsed.query, language) if parsed.query else None,
               "sql": layer.compile(parsed.query).sql if parsed.query else None}
    if as_json:
        print_json(payload)
        return
    for item in parsed.recognised:
        typer.echo(f"  {item}")
    if parsed.query is None:
        typer.echo(f"Not answerable by the semantic layer: {parsed.problem}"
                   + (f" (not recognised: {', '.join(parsed.unknown)})" if parsed.unknown else ""))
        return
    typer.echo(payload["words"])
    typer.echo(payload["sql"])


def bench_semantic(
    split: str = typer.Option("examples", "--split", help="examples, eval, or a YAML file of questions with gold SQL."),
    out: str | None = typer.Option(None, help="Also write the figures as JSON to this file."),
    engine: bool = typer.Option(False, "--engine", help="The whole no-model engine (verified-query reuse, then the "
                                "semantic layer) on the built KB, instead of the semantic layer alone."),
) -> None:
    """Golden questions answered with 0 model calls: correct / wrong / refused."""
    from aria.eval.semantic_bench import (
        load_questions,
        run_engine_bench,
        run_semantic_bench,
        semantic_markdown,
    )

    if engine:
        from aria.cli.common import settings as get_settings
        from aria.reflect.factory import open_engine

        opened = open_engine(get_settings().model_copy(update={"llm": None}), models=None)
        try:
            report = run_engine_bench(opened, load_questions(split), split=split)
        finally:
            opened.close()
    else:
        cfg, executor, layer = _open()
        report = run_semantic_bench(layer, executor, load_questions(split), split=split, timezone=cfg.timezone)
    typer.echo(semantic_markdown(report))
    if out:
        write_figures(out, report.as_dict())
