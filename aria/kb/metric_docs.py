"""The semantic model's metrics as plain KB entries, so retrieval finds a metric's agreed definition for
raw-SQL generation too (one ``metric`` document each: labels, synonyms, description, how it is computed).

A broken or missing semantic model never stops a KB build: it is logged and the metrics are skipped.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

_JINJA = re.compile(r"\{\{\s*(?:Dimension|Metric|TimeDimension|Entity)\(([^)]*)\)\s*\}\}")


def _where(filters: Any) -> str:
    """MetricFlow where filters in words: ``{{ Dimension('order__status') }} = 'X'`` -> ``order__status = 'X'``."""
    templates = [f.where_sql_template for f in getattr(filters, "where_filters", None) or []]
    return " and ".join(_JINJA.sub(lambda m: m.group(1).split(",")[0].strip(" '\""), t) for t in templates)


def _measures(manifest: Any) -> dict[str, tuple[str, Any]]:
    """measure name -> (its table, the measure)."""
    return {measure.name: (model.node_relation.alias, measure)
            for model in manifest.semantic_models for measure in model.measures}


def computed_as(metric: Any, measures: dict[str, tuple[str, Any]]) -> tuple[str, str | None]:
    """(how the metric is computed, in SQL-like words; the table it reads, for a simple metric)."""
    kind = str(getattr(metric.type, "value", metric.type)).lower()
    params = metric.type_params
    table: str | None = None
    if kind == "simple" and params.measure is not None and params.measure.name in measures:
        table, measure = measures[params.measure.name]
        agg = str(getattr(measure.agg, "value", measure.agg)).lower()
        text = f"{agg}({measure.expr or measure.name}) over {table}"
    elif kind == "ratio" and params.numerator is not None and params.denominator is not None:
        text = f"{params.numerator.name} / {params.denominator.name}"
    elif kind == "derived" and params.expr:
        text = str(params.expr)
    else:
        text = f"a {kind} metric"
    where = _where(metric.filter)
    return (f"{text} where {where}" if where else text), table


def metric_entries(*, business_schema: str, semantic_schema: str, directory: Path | None = None) -> list[dict[str, Any]]:
    """One plain entry per metric of the semantic model; [] (logged) when the model cannot be loaded."""
    from aria.semantic.catalog import SemanticModelError, build_catalog, load_manifest, semantic_dir

    try:
        manifest = load_manifest(directory or semantic_dir(), business_schema=business_schema,
                                 semantic_schema=semantic_schema)
        catalog = build_catalog(manifest)
    except SemanticModelError as err:
        log.warning("KB built without metric documents: %s", err)
        return []
    measures = _measures(manifest)
    entries = []
    for metric in manifest.metrics:
        info = catalog.metrics[metric.name]
        computed, table = computed_as(metric, measures)
        entries.append({
            "name": info.name, "label_vi": info.labels.vi, "label_en": info.labels.en,
            "synonyms": list(dict.fromkeys((*info.labels.synonyms_vi, *info.labels.synonyms_en))),
            "unit": info.unit, "description": info.description, "computed": computed, "table": table,
            "column": info.column,
        })
    return entries
