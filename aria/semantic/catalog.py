"""The restaurant's semantic model: MetricFlow YAML under ``seed_db/semantic/``, loaded, validated
with MetricFlow's own validators, and read into a small typed catalogue of metrics and dimensions
with their Vietnamese and English labels and synonyms (the files' ``config: meta:``).

Loading never half-succeeds: a broken file raises :class:`SemanticModelError` naming the object and
the fix, and Aria starts without the semantic path.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from aria.errors import AriaError
from aria.paths import seed_dir

log = logging.getLogger(__name__)

Unit = str  # vnd, count, portions, minutes, hours, days, percent, ratio, qty, people


class SemanticModelError(AriaError):
    """The semantic model's files are missing, malformed or fail MetricFlow's validation."""


# the shift of a day a row was in: a whole-restaurant count is the same at each ("table turnover at lunch": lunch's
# parties over every table; a weekday is not one of them: "on Saturdays" gathers several days' parties)
_WHEN_OF_THE_DAY = frozenset({"shift", "shift_date"})


@dataclass(frozen=True)
class Labels:
    """How managers name one thing, in both languages (phrases lower case, vi with diacritics)."""

    vi: str
    en: str
    synonyms_vi: tuple[str, ...] = ()
    synonyms_en: tuple[str, ...] = ()

    def label(self, language: str) -> str:
        return self.vi if language == "vi" else self.en

    @property
    def phrases(self) -> tuple[str, ...]:
        """Every spelling: both labels and all synonyms."""
        return (self.vi, self.en, *self.synonyms_vi, *self.synonyms_en)


@dataclass(frozen=True)
class MetricInfo:
    name: str
    labels: Labels
    unit: Unit
    decimals: int
    column: str  # the presentation column name, e.g. revenue_vnd
    direction: str = "neutral"  # higher_is_better | lower_is_better | neutral
    companions: tuple[str, ...] = ()  # metrics shown beside it by convention
    # its companions when the question names one of these metrics too (hours with labour cost: the staff, not shifts)
    companions_with: dict[str, tuple[str, ...]] = field(default_factory=dict)
    split_companions: tuple[str, ...] = ()  # shown beside it in a split only (tips by method: with the payments)
    # shown beside it in a split by one of these concepts (labour cost by role: with its staff and hours)
    split_companions_by: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # left out of its companions in a split by one of these concepts (each dish's profit: not its food cost)
    split_hides_by: dict[str, tuple[str, ...]] = field(default_factory=dict)
    unsplit_companions: tuple[str, ...] = ()  # shown beside it when nothing splits it (today's voids: their portions)
    # with nothing else splitting it, shown for each value of this concept: "món bị hủy hoặc void" counts two kinds of
    # lines said together, each its own row (ex-043)
    each_kind_of: str | None = None
    # shown beside it when the question splits or narrows it by one of these concepts (a tier's revenue: its customers)
    companions_by: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # read as another metric when the question splits or narrows by one of these concepts: a tier's guests are its
    # customers (over a period; the first live one without a period), not the covers of their orders
    instead_by: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # read as another metric when the question also names a metric: the party size of bookings is a booking's
    instead_with: dict[str, str] = field(default_factory=dict)
    instead_live: str | None = None  # read as this one when asked right now, with no period (guests: those seated)
    # read as this one when no period is said and the question names one row ("giá vốn món cá kho tộ": its cost
    # per portion on the menu, not the food cost of every portion ever sold)
    instead_undated: str | None = None
    instead_dated: str | None = None  # read as this one when a period is said (a live state asked of a past lunch)
    instead_past: str | None = None  # read as this one of a period other than today (tables with guests last night)
    instead_all_time: str | None = None  # read as this one with no period said ("how many staff do we have")
    # read as this one with no period and the menu said ("which dishes on the menu have the thinnest margin %": as priced)
    instead_on_the_menu: str | None = None
    instead_ahead: str | None = None  # read as this one of a period still to come (tomorrow's covers: those booked)
    visits: bool = False  # each row it counts came in (a customer with an order): what "came back" counts
    extreme: bool = False  # itself the longest of its rows: "the longest anyone has waited" names it, ranks nothing
    # a split by the concept goes through this entity: stock by supplier is each ingredient's supplier, not the
    # supplier of the deliveries among its movements
    split_via: dict[str, str] = field(default_factory=dict)
    # each of its rows' own size in a unit ("bookings for 6 or more people": a booking's party size), a dimension
    # a condition in that unit keeps the rows by
    sized_by: dict[str, str] = field(default_factory=dict)
    description: str = ""
    type: str = "simple"
    finer: str | None = None  # the line-level metric to use when a split needs it (revenue -> dish sales)
    split_alternative: str | None = None  # the next metric to try when neither fits (revenue -> amount paid)
    companions_without_item: tuple[str, ...] = ()  # shown instead of a quantity companion that cannot add up
    fixes: frozenset[str] = frozenset()  # concepts its definition already filters (revenue: order_status)
    fixed_values: frozenset[str] = frozenset()  # the values it filters them to (revenue: COMPLETED)
    show_with: dict[str, tuple[str, ...]] = field(default_factory=dict)  # concept -> attributes shown beside it
    additive: bool = False  # a sum or a count: nothing to add up is 0, not empty
    until_now: bool = False  # known only for the past (no-shows): a period that runs to today stops at now
    booked_ahead: bool = False  # dated in the future too (reservations): "this month" is the whole month
    time_only: bool = False  # a whole-restaurant figure (tables in service): split by time only, never by area
    never_split_by: tuple[str, ...] = ()  # an area's tables in service, split by table, would count the area each time
    never_through: tuple[str, ...] = ()  # entities its rows never have (goods received: no order, so no channel)
    listed_as: tuple[str, ...] = ()  # asked which of its rows ("which tables are occupied"): these metrics of each
    shares_in_split_by: tuple[str, ...] = ()  # split by one of these concepts, each row shows its share of the total
    live: bool = False  # a state at this moment (stock, tickets waiting): what "right now" can ask
    share_in_money: bool = False  # "what share of payments": of their amount, even said right after "share of"
    per_day: str | None = None  # its average per day ("average daily revenue"): this metric
    in_item_units: bool = False  # per kg, litre or piece of an item: mixes units across items, as a quantity does
    needs_period: bool = False  # over all time it answers nothing asked ("lương theo giờ của phục vụ": their rate, not every wage)
    # its average per row, by the words that name one row: "average delivery bill" is the average check
    averaged_as: dict[str, tuple[str, ...]] = field(default_factory=dict)
    counts: str | None = None  # the concept whose rows it counts (staff on shift: staff); split by it, a list
    balance: bool = False  # a running total of every movement ever (stock): known as of now, never for a period
    fixture: bool = False  # the restaurant's own (its tables): a period said asks for those used in it, another figure
    window_days: int | None = None  # a balance over its own last days (use of the last 7): no other window is said
    time_dimension: str = "metric_time"  # what a period filters (dish sales: the order's opened_at, as the golden SQL)
    models: frozenset[str] = frozenset()  # the semantic models its measures come from
    inputs: tuple[str, ...] = ()  # a ratio's numerator and denominator, a derived metric's metrics, in order
    low_below: str | None = None  # "running low": below this attribute of its row (stock: the reorder level)
    counts_below: bool = False  # counts the rows of ``counts`` below their level to keep ("how many are running low")

    @property
    def counts_now(self) -> bool:
        """A count of the moment of the rows of a concept (the tables occupied right now)."""
        return self.live and self.counts is not None


@dataclass(frozen=True)
class ValueInfo:
    """A code value of a categorical dimension ("L" = ca trưa / lunch)."""

    code: str
    labels: Labels


@dataclass(frozen=True)
class DimensionInfo:
    name: str  # element name inside its semantic model, e.g. name_vi
    semantic_model: str
    table: str  # the semantic model's table
    expr: str  # the column (or SQL expression) it reads
    concept: str  # language-independent concept, e.g. dish, category, shift
    labels: Labels
    lang: str | None = None  # "vi"/"en" for name_vi/name_en pairs
    values: tuple[ValueInfo, ...] = ()
    is_time: bool = False
    attributes: tuple[str, ...] = ()  # shown beside it when grouping by it (an ingredient's unit)
    default_metric: str | None = None  # what "the most common reasons" counts when no metric is named
    ranked_by: str | None = None  # what "the top 5 dishes" ranks by when no metric is named
    members: str | None = None  # the concept of its members: "the 3 best-selling drinks" ranks dishes
    shown_when_fixed: bool = False  # an attribute shown even when the question names its one value (a unit)
    stands_for: str | None = None  # a broader concept it answers for where that one cannot split (server: staff)
    # it describes its own model's rows to their own metrics only: a booking's status filters bookings, never the
    # orders that came from a booking ("how many guests came": not the guests of seated bookings)
    own_metrics_only: bool = False
    # a distinctive word of one of its names is enough to name it ("Heineken": Bia Heineken (chai))
    partial_names: bool = False
    # a two-word Vietnamese name is also said by its first word alone ("tồn kho tôm": Tôm sú), when no other starts so
    one_word_heads: bool = False
    # a person is called by a given name that one person alone has ("Quân": Phan Đức Quân)
    given_names: bool = False
    # a split by it shows only its listed values: a takeaway was neither booked nor a walk-in (NULL)
    listed_only: bool = False
    # concepts beside which one of its values means something else: "walk-ins" beside members or tiers are the
    # guests without a membership, not those without a booking
    unclear_beside: tuple[str, ...] = ()
    # the metrics its values describe: a void's reason is said of voided lines, never of dishes sold
    only_for: tuple[str, ...] = ()
    # a split by it shows its values' labels in the question's language, lower case ("weekend", "ngày thường"),
    # not the values themselves (true / false)
    shows_labels: bool = False
    # the concept its values live within: a booking or a walk-in is a dine-in party's; beside that concept's value,
    # a share of it is of that value's whole ("what share of dine-in guests came with a booking")
    within: str | None = None

    @property
    def names_rows(self) -> bool:
        """It names its semantic model's rows (a dish's name, a table's number): grouping by it also groups
        by the entity, and a concept word beside one of its values labels that value."""
        return self.lang is not None or self.name in NAME_DIMENSIONS


# Dimensions that name their rows besides the name_vi/name_en pairs.
NAME_DIMENSIONS = frozenset({"name", "full_name", "name_vi", "name_en", "table_no", "promo_code"})


@dataclass(frozen=True)
class SemanticCatalog:
    """What the parser, the prompts and the KB read about the semantic model."""

    metrics: dict[str, MetricInfo]
    dimensions: tuple[DimensionInfo, ...]
    concepts: dict[str, Labels] = field(default_factory=dict)  # concept -> labels (first dimension's)
    entity_models: dict[str, str] = field(default_factory=dict)  # primary entity -> its semantic model

    def metric(self, name: str) -> MetricInfo | None:
        return self.metrics.get(name)

    def dimension(self, semantic_model: str, name: str) -> DimensionInfo | None:
        for dim in self.dimensions:
            if dim.semantic_model == semantic_model and dim.name == name:
                return dim
        return None

    def names_rows(self, group_by: str) -> bool:
        """The group-by is a dimension that names its entity's rows (a dish's name, a table's number)."""
        dim = self.dimension_of(group_by)
        return dim is not None and dim.names_rows

    def rate_of(self, metric: str) -> str | None:
        """The one metric in percent of ``metric`` over its whole: no-shows -> the no-show rate."""
        rates = [m.name for m in self.metrics.values() if m.unit == "percent" and m.inputs[:1] == (metric,)]
        return rates[0] if len(rates) == 1 else None

    def share_metric(self, metrics: list[str]) -> str:
        """The metric a share of the total is of: the first asked in money, or its companion in money ("what share
        of payments": of the amount paid, not of their number; "payments by method, tips included": of the amount
        paid, not of the tips), else the first in money, else the first."""
        money = [m for m in metrics if m in self.metrics and self.metrics[m].unit == "vnd"]
        first = self.metrics.get(metrics[0]) if metrics else None
        own = [c for c in (first.companions if first is not None and first.unit != "vnd" else ()) if c in money]
        return (own or money or metrics)[0]

    def kept_from(self, metric: str, names: Sequence[str]) -> str | None:
        """The first split or filter (a group-by name) ``metric`` cannot take, or None: a whole-restaurant count
        (``time_only``) takes time alone (and a shift: "table turnover at lunch" is lunch's parties over every
        table); an area's count none of its ``never_split_by`` concepts (each table would count its whole
        area); goods received nothing reached through an order (``never_through``: they have none, so "delivery"
        there is never the channel)."""
        info = self.metrics[metric]
        return next((name for name in names if not name.startswith("metric_time")
                     and ((info.time_only and self.concept_of(name) not in _WHEN_OF_THE_DAY)
                          or self.concept_of(name) in info.never_split_by
                          or name.split("__")[0] in info.never_through)), None)

    def concept_of(self, group_by: str) -> str | None:
        """The concept of the dimension behind a group-by name (None for metric_time and entities)."""
        dimension = self.dimension_of(group_by)
        return dimension.concept if dimension is not None else None

    def valued(self, dim: DimensionInfo) -> DimensionInfo:
        """The dimension whose values a stand-in with none of its own shows (a booking's shift: the shifts')."""
        if dim.values or not dim.stands_for:
            return dim
        return next((d for d in self.dimensions if d.concept == dim.stands_for and d.values), dim)

    def frames_a_part(self, dimension: str, dimensions: Sequence[str]) -> bool:
        """A value of ``dimension`` beside values of ``dimensions`` frames the whole a share is of: a shift beside
        a value of something else is when ("tối nay đồ uống chiếm bao nhiêu % doanh số": of tonight's sales, not
        the whole day's); so is a value another value lives within ("what share of dine-in guests came with a
        booking": of the dine-in guests)."""
        concept = self.concept_of(dimension)
        if concept == "shift":
            return any(self.concept_of(d) != "shift" for d in dimensions)
        return any((dim := self.dimension_of(d)) is not None and dim.within == concept for d in dimensions)

    def dimension_of(self, group_by: str) -> DimensionInfo | None:
        """The dimension behind a group-by name: ``menu_item__category__name_vi`` is ``name_vi`` of the
        semantic model whose primary entity is ``category``. None for metric_time and entities."""
        parts = group_by.split("__")
        if len(parts) < 2 or parts[0] == "metric_time":
            return None
        model = self.entity_models.get(parts[-2])
        return self.dimension(model, parts[-1]) if model else None


def semantic_dir() -> Path:
    return seed_dir() / "semantic"


def _string_lists(value: Any) -> dict[str, tuple[str, ...]]:
    """A meta mapping of names to lists ("split_companions_by: {category: [gross_margin_pct]}")."""
    return {str(k): _strings(v) for k, v in dict(value or {}).items()}


def _strings(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    return tuple(str(v) for v in value if v is not None)


def _labels(meta: dict[str, Any], fallback: str) -> Labels:
    en = str(meta.get("label_en") or fallback)
    return Labels(vi=str(meta.get("label_vi") or en), en=en, synonyms_vi=_strings(meta.get("synonyms_vi")),
                  synonyms_en=_strings(meta.get("synonyms_en")))


_PARSING_CONTEXT = "__parsing_context__"  # MetricFlow's YAML loader tags every mapping with its file/line


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items() if k != _PARSING_CONTEXT}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def _meta(element: Any) -> dict[str, Any]:
    config = getattr(element, "config", None)
    meta = getattr(config, "meta", None) if config is not None else None
    return _plain(dict(meta or {}))


def _strip_parsing_context(manifest: Any) -> None:
    """MetricFlow's loader leaves a ParsingContext inside nested ``meta`` mappings, which then breaks
    its own hashing of the manifest: keep meta plain data."""
    elements = [*manifest.metrics]
    for model in manifest.semantic_models:
        elements += [model, *model.dimensions, *model.measures, *model.entities]
    for element in elements:
        config = getattr(element, "config", None)
        meta = getattr(config, "meta", None) if config is not None else None
        if isinstance(meta, dict):
            plain = _plain(meta)
            meta.clear()
            meta.update(plain)


def _metric_info(metric: Any) -> MetricInfo:
    meta = _meta(metric)
    labels = _labels(meta, metric.label or metric.name.replace("_", " "))
    return MetricInfo(
        name=metric.name, labels=labels, unit=str(meta.get("unit", "count")), decimals=int(meta.get("decimals", 0)),
        column=str(meta.get("column") or metric.name), direction=str(meta.get("direction", "neutral")),
        companions=_strings(meta.get("companions")), split_companions=_strings(meta.get("split_companions")),
        companions_with=_string_lists(meta.get("companions_with")),
        companions_without_item=_strings(meta.get("companions_without_item")),
        split_companions_by=_string_lists(meta.get("split_companions_by")),
        split_hides_by=_string_lists(meta.get("split_hides_by")),
        unsplit_companions=_strings(meta.get("unsplit_companions")),
        each_kind_of=meta.get("each_kind_of"),
        companions_by=_string_lists(meta.get("companions_by")),
        instead_by=_string_lists(meta.get("instead_by")),
        instead_with={str(k): str(v) for k, v in dict(meta.get("instead_with") or {}).items()},
        description=metric.description or "",
        type=str(getattr(metric.type, "value", metric.type)).lower(), finer=meta.get("finer"),
        split_alternative=meta.get("split_alternative"),
        show_with=_string_lists(meta.get("show_with")),
        until_now=bool(meta.get("until_now", False)), booked_ahead=bool(meta.get("booked_ahead", False)),
        time_only=bool(meta.get("time_only", False)), never_split_by=_strings(meta.get("never_split_by")),
        never_through=_strings(meta.get("never_through")),
        listed_as=_strings(meta.get("listed_as")),
        shares_in_split_by=_strings(meta.get("shares_in_split_by")),
        live=bool(meta.get("live", False)), balance=bool(meta.get("balance", False)),
        fixture=bool(meta.get("fixture", False)),
        counts=meta.get("counts"), per_day=meta.get("per_day"), needs_period=bool(meta.get("needs_period", False)),
        in_item_units=bool(meta.get("in_item_units", False)),
        averaged_as=_string_lists(meta.get("averaged_as")),
        share_in_money=bool(meta.get("share_in_money", False)), time_dimension=str(meta.get("time_dimension", "metric_time")),
        inputs=_inputs(metric), low_below=meta.get("low_below"), counts_below=bool(meta.get("counts_below", False)),
        instead_live=meta.get("instead_live"),
        instead_undated=meta.get("instead_undated"), instead_dated=meta.get("instead_dated"),
        instead_past=meta.get("instead_past"),
        instead_ahead=meta.get("instead_ahead"), instead_all_time=meta.get("instead_all_time"),
        instead_on_the_menu=meta.get("instead_on_the_menu"),
        extreme=bool(meta.get("extreme", False)),
        split_via={str(k): str(v) for k, v in dict(meta.get("split_via") or {}).items()},
        sized_by={str(k): str(v) for k, v in dict(meta.get("sized_by") or {}).items()},
        visits=bool(meta.get("visits", False)),
        window_days=int(meta["window_days"]) if meta.get("window_days") is not None else None,
    )


def _inputs(metric: Any) -> tuple[str, ...]:
    params = metric.type_params
    if params.numerator is not None and params.denominator is not None:
        return (params.numerator.name, params.denominator.name)
    return tuple(m.name for m in params.metrics or ())


def _values(meta: dict[str, Any]) -> tuple[ValueInfo, ...]:
    raw = meta.get("values") or {}
    if not isinstance(raw, dict):
        return ()
    return tuple(ValueInfo(code=str(code), labels=_labels(dict(labels or {}), str(code)))
                 for code, labels in raw.items())


def _dimension_info(model: Any, dim: Any) -> DimensionInfo:
    meta = _meta(dim)
    is_time = str(getattr(dim.type, "value", dim.type)).lower() == "time"
    return DimensionInfo(
        name=dim.name, semantic_model=model.name, table=model.node_relation.alias, expr=dim.expr or dim.name,
        concept=str(meta.get("concept") or dim.name), labels=_labels(meta, dim.label or dim.name.replace("_", " ")),
        lang=meta.get("lang"), values=_values(meta), is_time=is_time, attributes=_strings(meta.get("attributes")),
        default_metric=meta.get("default_metric"), ranked_by=meta.get("ranked_by"), members=meta.get("members"),
        shown_when_fixed=bool(meta.get("shown_when_fixed", False)), stands_for=meta.get("stands_for"),
        partial_names=bool(meta.get("partial_names", False)), one_word_heads=bool(meta.get("one_word_heads", False)),
        given_names=bool(meta.get("given_names", False)),
        own_metrics_only=bool(meta.get("own_metrics_only", False)), listed_only=bool(meta.get("listed_only", False)),
        unclear_beside=_strings(meta.get("unclear_beside")), only_for=_strings(meta.get("only_for")),
        shows_labels=bool(meta.get("shows_labels", False)), within=meta.get("within"),
    )


def build_catalog(manifest: Any) -> SemanticCatalog:
    metrics = {m.name: _metric_info(m) for m in manifest.metrics}
    dims = tuple(_dimension_info(model, d) for model in manifest.semantic_models for d in model.dimensions)
    concepts: dict[str, Labels] = {}
    for dim in dims:
        concepts.setdefault(dim.concept, dim.labels)
    entity_models: dict[str, str] = {}
    for model in manifest.semantic_models:
        for entity in model.entities:
            kind = str(getattr(entity.type, "value", entity.type)).lower()
            if kind in ("primary", "unique", "natural"):
                entity_models.setdefault(entity.name, model.name)
        if getattr(model, "primary_entity", None):
            entity_models.setdefault(model.primary_entity, model.name)
    catalog = SemanticCatalog(metrics=metrics, dimensions=dims, concepts=concepts, entity_models=entity_models)
    fixes = fixed_concepts(manifest, catalog)
    literals = fixed_literals(manifest)
    aggs = {measure.name: str(getattr(measure.agg, "value", measure.agg)).lower()
            for model in manifest.semantic_models for measure in model.measures}
    models = _metric_models(manifest)
    catalog.metrics.update({name: replace(info, fixes=fixes.get(name, frozenset()),
                                          fixed_values=literals.get(name, frozenset()),
                                          additive=aggs.get(_measure_of(metric) or "") in _ADDITIVE,
                                          models=models.get(name, frozenset()))
                            for metric in manifest.metrics for name, info in [(metric.name, metrics[metric.name])]})
    return catalog


def _metric_models(manifest: Any) -> dict[str, frozenset[str]]:
    """Each metric's semantic models: those of its measures, and of the metrics it is computed from."""
    model_of = {measure.name: model.name for model in manifest.semantic_models for measure in model.measures}
    by_name = {metric.name: metric for metric in manifest.metrics}
    out: dict[str, frozenset[str]] = {}

    def models(name: str, seen: frozenset[str]) -> frozenset[str]:
        if name in out:
            return out[name]
        metric = by_name.get(name)
        if metric is None or name in seen:
            return frozenset()
        measures = [m.name for m in getattr(metric.type_params, "input_measures", None) or ()]
        if (own := _measure_of(metric)) is not None:
            measures.append(own)
        found = frozenset(model_of[m] for m in measures if m in model_of).union(
            *(models(i.name, seen | {name}) for i in metric.input_metrics))
        out[name] = found
        return found

    for metric in manifest.metrics:
        models(metric.name, frozenset())
    return out


_ADDITIVE = frozenset({"sum", "count", "count_distinct", "sum_boolean"})


def _measure_of(metric: Any) -> str | None:
    """The measure a simple metric reads (None for ratio and derived metrics)."""
    measure = getattr(metric.type_params, "measure", None)
    return getattr(measure, "name", None) if measure is not None else None


_DIMENSION_REF = re.compile(r"Dimension\(\s*'([a-z0-9_]+)'")
_WORD = re.compile(r"[a-z_][a-z0-9_]*")


def fixed_concepts(manifest: Any, catalog: SemanticCatalog) -> dict[str, frozenset[str]]:
    """The concepts each metric's definition already filters on: a CASE on a column of its table, or a
    metric filter. A question that filters the same concept again ("completed orders that were
    cancelled") contradicts the definition, so the parser refuses it instead of answering 0."""
    by_name = {m.name: m for m in manifest.metrics}
    memo: dict[str, frozenset[str]] = {}

    def own(metric: Any) -> set[str]:
        found: set[str] = set()
        params = metric.type_params
        aggregation = getattr(params, "metric_aggregation_params", None)
        model = getattr(aggregation, "semantic_model", None)
        if model and params.expr:
            words = set(_WORD.findall(str(params.expr).lower()))
            found |= {d.concept for d in catalog.dimensions
                      if d.semantic_model == model and not d.is_time and (d.expr in words or d.name in words)}
        filters = [metric.filter, *(getattr(m, "filter", None) for m in (params.input_measures or []))]
        for flt in filters:
            for where in getattr(flt, "where_filters", None) or []:
                for ref in _DIMENSION_REF.findall(where.where_sql_template):
                    dim = catalog.dimension_of(ref)
                    if dim is not None:
                        found.add(dim.concept)
        return found

    def of(name: str) -> frozenset[str]:
        if name not in memo:
            memo[name] = frozenset()  # cycles are MetricFlow's to report; never recurse forever
            metric = by_name.get(name)
            if metric is None:
                return frozenset()
            params = metric.type_params
            inputs = [m.name for m in (params.metrics or [])]
            inputs += [m.name for m in (params.numerator, params.denominator) if m is not None]
            memo[name] = frozenset(own(metric).union(*(of(i) for i in inputs)))
        return memo[name]

    return {name: of(name) for name in by_name}


_LITERAL = re.compile(r"'([^']*)'")
# "x = 'A'", "x in ('A', 'B')": values a definition keeps (not "<> 'A'" or "not in (...)", which it leaves out).
_KEPT = re.compile(r"(?:(?<![<>!])=|(?<!not )\bin)\s*\(?\s*('[^']*'(?:\s*,\s*'[^']*')*)")


def fixed_literals(manifest: Any) -> dict[str, frozenset[str]]:
    """The values each metric's definition keeps, its inputs' included (revenue: completed; dine-in parties:
    completed, di), lower case: a question that names one of them again repeats the definition."""
    by_name = {m.name: m for m in manifest.metrics}
    measures = {measure.name: measure for model in manifest.semantic_models for measure in model.measures}
    memo: dict[str, frozenset[str]] = {}

    def of(name: str) -> frozenset[str]:
        if name not in memo:
            memo[name] = frozenset()
            metric = by_name.get(name)
            if metric is None:
                return frozenset()
            params = metric.type_params
            texts = [str(params.expr or "")]
            texts += [str(getattr(measures.get(m.name), "expr", "") or "") for m in (params.input_measures or [])]
            for flt in [metric.filter, *(getattr(m, "filter", None) for m in (params.input_measures or []))]:
                texts += [w.where_sql_template for w in getattr(flt, "where_filters", None) or []]
            inputs = [m.name for m in (params.metrics or [])]
            inputs += [m.name for m in (params.numerator, params.denominator) if m is not None]
            found = {value for text in texts for kept in _KEPT.findall(text.lower()) for value in _LITERAL.findall(kept)}
            memo[name] = frozenset(found.union(*(of(i) for i in inputs)))
        return memo[name]

    return {name: of(name) for name in by_name}


_FILE_LINE = re.compile(r"in file `([^`]+)`(?: on line #(\d+))?")


def _first_issue(text: str) -> str:
    """One readable line out of MetricFlow's multi-line validation report."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.strip().startswith("File ")]
    interesting = [ln for ln in lines if ln.startswith(("ERROR", "FUTURE_ERROR"))] or lines[1:] or lines
    first = interesting[0] if interesting else text.strip()
    detail = next((ln for ln in lines[lines.index(first) + 1:] if not ln.startswith(("ERROR", "WARNING"))), "") \
        if first in lines else ""
    first = _FILE_LINE.sub(lambda m: f"in {Path(m.group(1)).name}" + (f" line {m.group(2)}" if m.group(2) else ""),
                           first)
    return f"{first} {detail}".strip()[:600]


def _metric_inputs(doc: dict[str, Any]) -> list[str]:
    params = doc.get("type_params") or {}
    inputs = [m.get("name") if isinstance(m, dict) else m for m in params.get("metrics") or []]
    for key in ("numerator", "denominator"):
        part = params.get(key)
        inputs.append(part.get("name") if isinstance(part, dict) else part)
    return [str(i) for i in inputs if i]


def metric_cycle(directory: Path) -> list[str]:
    """A chain of metrics that is built from itself, read from the files (empty when there is none)."""
    import yaml

    graph: dict[str, list[str]] = {}
    for path in sorted(directory.glob("*.y*ml")):
        try:
            docs = list(yaml.safe_load_all(path.read_text(encoding="utf-8")))
        except (OSError, UnicodeError, yaml.YAMLError):
            continue  # MetricFlow's parser reports it with the file and line
        for doc in docs:
            metric = doc.get("metric") if isinstance(doc, dict) else None
            if isinstance(metric, dict) and metric.get("name"):
                graph[str(metric["name"])] = _metric_inputs(metric)

    def walk(name: str, path: list[str]) -> list[str]:
        if name in path:
            return [*path[path.index(name):], name]
        for child in graph.get(name, []):
            found = walk(child, [*path, name])
            if found:
                return found
        return []

    for name in graph:
        found = walk(name, [])
        if found:
            return found
    return []


def dangling_entities(manifest: Any) -> list[str]:
    """Foreign entities no semantic model owns (as primary, unique or natural): they join to nothing.
    MetricFlow's validators accept them; Aria refuses them."""
    def kind(entity: Any) -> str:
        return str(getattr(entity.type, "value", entity.type)).lower()

    owned = {e.name for m in manifest.semantic_models for e in m.entities if kind(e) != "foreign"}
    owned |= {m.primary_entity for m in manifest.semantic_models if getattr(m, "primary_entity", None)}
    return sorted(f"{m.name}.{e.name}" for m in manifest.semantic_models for e in m.entities
                  if kind(e) == "foreign" and e.name not in owned)


def load_manifest(directory: Path, *, business_schema: str, semantic_schema: str) -> Any:
    """Parse and validate the semantic model files; raise :class:`SemanticModelError` on any issue."""
    from metricflow_semantic_interfaces.parsing.dir_to_model import (
        parse_directory_of_yaml_files_to_semantic_manifest,
    )
    from metricflow_semantic_interfaces.validations.semantic_manifest_validator import (
        SemanticManifestValidator,
    )

    if not directory.is_dir() or not any(directory.glob("*.y*ml")):
        raise SemanticModelError(f"No semantic model files in {directory}.",
                                 hint="Restore seed_db/semantic/ from the repository.")
    mapping = {"business_schema": business_schema, "semantic_schema": semantic_schema}
    cycle = metric_cycle(directory)  # MetricFlow itself only says "maximum recursion depth exceeded"
    if cycle:
        raise SemanticModelError(f"The semantic model is invalid: metrics {' → '.join(cycle)} form a cycle.",
                                 hint="A derived or ratio metric cannot be built from itself; fix one of them.")
    try:
        built = parse_directory_of_yaml_files_to_semantic_manifest(str(directory), template_mapping=mapping)
        _strip_parsing_context(built.semantic_manifest)
        results = SemanticManifestValidator().validate_semantic_manifest(built.semantic_manifest)
    except Exception as err:  # MetricFlow raises plain Exceptions, pydantic and YAML errors alike
        raise SemanticModelError(f"The semantic model is invalid: {_first_issue(str(err))}",
                                 hint="Fix the named object in seed_db/semantic/ (or remove the file).") from err
    dangling = dangling_entities(built.semantic_manifest)
    if dangling:
        raise SemanticModelError(f"The semantic model is invalid: entity {dangling[0]} joins no semantic model.",
                                 hint="Give the entity the name of another model's primary entity, or remove it.")
    if results.has_blocking_issues:
        issue = next(iter(results.errors), None)
        text = issue.as_readable_str(verbose=True) if issue is not None else str(results)
        raise SemanticModelError(f"The semantic model is invalid: {_first_issue('ERROR: ' + text)}",
                                 hint="Fix the named object in seed_db/semantic/.")
    return built.semantic_manifest
