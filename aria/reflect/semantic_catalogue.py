"""The metric catalogue as the ``semantic_query`` model reads it, and the strict check of its answer.

The catalogue is compact (the whole semantic model in about 2,500 cl100k tokens): metrics are listed
under the set of splits they share (MetricFlow's ``group_bys``), split names sharing an entity path
are folded (``order__{status, weekday}``), and coded values are listed once.

>>> fold_names(["order__status", "order__weekday", "station__name_vi"])
'order__{status, weekday}; station__name_vi'
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import ValidationError

from aria.errors import AriaError
from aria.llm.schemas import SemanticQueryProposal
from aria.semantic.catalog import MetricInfo, SemanticCatalog
from aria.semantic.compile import TIME_COLUMNS
from aria.semantic.layer import SemanticLayer
from aria.semantic.query import SemanticQuery

_BOOLEAN_CODES = frozenset({"true", "false"})


class ProposalProblem(AriaError):
    """The model's semantic query names something the catalogue does not have (it is asked once more)."""


def fold_names(names: Sequence[str]) -> str:
    """Split names grouped by their entity path, in first-seen order."""
    groups: dict[str, list[str]] = {}
    for name in names:
        head, _, tail = name.rpartition("__")
        groups.setdefault(head, []).append(tail)
    parts = []
    for head, tails in groups.items():
        if not head:
            parts += tails
        elif len(tails) == 1:
            parts.append(f"{head}__{tails[0]}")
        else:
            parts.append(f"{head}__{{{', '.join(tails)}}}")
    return "; ".join(parts)


def _same_words(label: str, name: str) -> bool:
    return label.lower().replace("-", " ").replace("_", " ") == name.replace("_", " ")


def _metric_line(metric: MetricInfo) -> str:
    """``- avg_check: Hóa đơn trung bình / Average check [vnd]`` (the English label only when it adds words)."""
    labels = metric.labels.vi if _same_words(metric.labels.en, metric.name) \
        else f"{metric.labels.vi} / {metric.labels.en}"
    line = f"- {metric.name}: {labels} [{metric.unit}]"
    return f"{line} — {metric.description}" if metric.description else line


def _code_lines(catalog: SemanticCatalog) -> list[str]:
    """``shift__shift_code: L=Lunch, D=Dinner`` for every coded dimension (booleans are plain true/false)."""
    entity_of = {model: entity for entity, model in catalog.entity_models.items()}
    lines = []
    for dim in catalog.dimensions:
        codes = [v for v in dim.values if v.code not in _BOOLEAN_CODES]
        if not codes or dim.semantic_model not in entity_of:
            continue
        shown = ", ".join(v.code if _same_words(v.labels.en, v.code.lower()) else f"{v.code}={v.labels.en}"
                          for v in codes)
        lines.append(f"{entity_of[dim.semantic_model]}__{dim.name}: {shown}")
    return lines


def render_catalogue(layer: SemanticLayer) -> str:
    """Every metric with its labels and unit, under the splits it can be grouped or filtered by."""
    sets: dict[tuple[str, ...], list[MetricInfo]] = {}
    for metric in layer.catalog.metrics.values():
        sets.setdefault(tuple(layer.compiler.group_bys([metric.name])), []).append(metric)
    lines = [f"Time splits, for every metric: {', '.join(TIME_COLUMNS)}"]
    for number, (group_bys, metrics) in enumerate(sets.items(), start=1):
        splits = [g for g in group_bys if not g.startswith("metric_time")]
        lines += [f"### Set {number}", f"Split/filter by: {fold_names(splits)}", "Metrics:"]
        lines += [_metric_line(m) for m in metrics]
    codes = _code_lines(layer.catalog)
    if codes:
        lines += ["### Codes (filter values)", *codes]
    return "\n".join(lines)


def _as_query(proposal: SemanticQueryProposal, language: str) -> SemanticQuery:
    data = proposal.model_dump(exclude={"expressible", "reason"})
    try:
        return SemanticQuery.model_validate({**data, "language": language})
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise ProposalProblem(f"the query is malformed ({where}: {first['msg']})") from err


def check_proposal(layer: SemanticLayer, proposal: SemanticQueryProposal, language: str) -> SemanticQuery:
    """The model's query, once every name is the catalogue's; :class:`ProposalProblem` says what is not."""
    query = _as_query(proposal, language)
    catalog = layer.catalog
    unknown = [m for m in query.metrics if m not in catalog.metrics]
    if unknown:
        raise ProposalProblem(f"unknown metric {unknown[0]!r}: use a metric name of the catalogue")
    splits = set(layer.compiler.group_bys(list(query.metrics)))
    bad = [g for g in query.group_by if g not in splits and g not in TIME_COLUMNS]
    if bad:
        raise ProposalProblem(f"{bad[0]!r} is not a split of {', '.join(query.metrics)}: use a name of their set")
    narrowed = [*query.group_by, *(f.dimension for f in query.filters)]
    for metric in (m for asked in query.metrics for m in (asked, *catalog.metrics[asked].inputs)
                   if m in catalog.metrics):  # a ratio of a whole-restaurant count is one too
        if catalog.kept_from(metric, narrowed) is not None:
            raise ProposalProblem(f"{metric} cannot be split or filtered that way: drop the split or use "
                                  "another metric")
    for flt in query.filters:
        if flt.dimension not in splits:
            raise ProposalProblem(f"cannot filter {', '.join(query.metrics)} by {flt.dimension!r}")
        dim = catalog.dimension_of(flt.dimension)
        codes = {v.code for v in dim.values} if dim is not None else set()
        wrong = [v for v in flt.values if codes and v not in codes]
        if wrong:
            raise ProposalProblem(f"{wrong[0]!r} is not a code of {flt.dimension} (codes: {', '.join(sorted(codes))})")
    named = set(query.metrics) | set(query.group_by)
    for order in query.order_by:
        if order.by not in named:
            raise ProposalProblem(f"order_by {order.by!r} must be one of the query's metrics or splits")
    if query.time is not None and query.time.start > query.time.end:
        raise ProposalProblem("time.start is after time.end")
    return query
