"""Semantic query -> PostgreSQL, compiled by MetricFlow (never by hand), then presented.

MetricFlow writes the query (joins, filters, aggregation, ratio and derived metrics). Aria only
wraps the result for presentation: the columns in the order asked, each named as the golden SQL
names it (``category``, ``revenue_vnd``), each metric rounded to its declared decimals, and the
order and limit applied outside with a stable tie-break (the entity's id), so "top 5" is
deterministic.

Time: MetricFlow truncates timestamptz with ``DATE_TRUNC``, which follows the session's time
zone; the read-only role's time zone is the restaurant's (``aria.db.connect``) and every time
filter is a local date.
"""

from __future__ import annotations

import datetime as dt
import logging
import threading
from dataclasses import dataclass
from typing import Any

from aria.errors import AriaError
from aria.semantic.catalog import SemanticCatalog, SemanticModelError
from aria.semantic.periods import period_range
from aria.semantic.query import SemanticQuery, TimeRange, ValueFilter

log = logging.getLogger(__name__)

TIME_COLUMNS = {
    "metric_time__day": "day", "metric_time__week": "week_start", "metric_time__month": "month",
    "metric_time__quarter": "quarter", "metric_time__year": "year",
}
_DATE_GRAINS = {"metric_time__day", "metric_time__week", "metric_time__month", "metric_time__quarter",
                "metric_time__year"}


class SemanticQueryError(AriaError):
    """A semantic query names something the model does not have, or MetricFlow cannot compile it."""


@dataclass(frozen=True)
class CompiledQuery:
    query: SemanticQuery
    metricflow_sql: str  # what MetricFlow wrote
    sql: str  # the presented query that runs
    columns: tuple[str, ...]


class ReadOnlySqlClient:
    """MetricFlow's ``SqlClient`` protocol over Aria's read-only executor: MetricFlow compiles, and any
    query it runs (``MetricFlowEngine.query``) goes through the guard, the cost guard, a READ ONLY
    transaction and the deadlines like every other query. Statements (``execute``) are refused."""

    def __init__(self, executor: Any | None = None) -> None:
        from metricflow.protocols.sql_client import SqlEngine
        from metricflow.sql.render.postgres import PostgresSQLSqlPlanRenderer

        self.sql_engine_type = SqlEngine.POSTGRES
        self.sql_plan_renderer = PostgresSQLSqlPlanRenderer()
        self._executor = executor

    def query(self, stmt: str, sql_bind_parameter_set: Any = None) -> Any:
        from metricflow.data_table.mf_table import MetricFlowDataTable

        if self._executor is None:
            raise SemanticQueryError("This semantic layer compiles only; it has no database to run queries on.")
        if sql_bind_parameter_set is not None and tuple(getattr(sql_bind_parameter_set, "param_items", None) or ()):
            raise SemanticQueryError("Bind parameters are not supported; Aria's filters are literals.")
        result = self._executor.run(stmt)
        return MetricFlowDataTable.create_from_rows(result.columns, [tuple(r) for r in result.rows])

    def execute(self, stmt: str, sql_bind_parameter_set: Any = None) -> None:
        raise SemanticQueryError("The semantic layer only reads: statements are refused.")

    def dry_run(self, stmt: str, sql_bind_parameter_set: Any = None) -> None:
        if self._executor is not None:
            self._executor.check_cost(stmt)

    def close(self) -> None:
        return None

    def render_bind_parameter_key(self, bind_parameter_key: str) -> str:
        return f"%({bind_parameter_key})s"


def _quote(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def where_filter(flt: ValueFilter) -> str:
    """A MetricFlow where filter for one value filter.

    >>> where_filter(ValueFilter(dimension="menu_item__name_vi", values=("Phở bò", "Bún chả")))
    "{{ Dimension('menu_item__name_vi') }} IN ('Phở bò', 'Bún chả')"
    >>> where_filter(ValueFilter(dimension="reservation__booked_party_size", values=("6",), op=">="))
    "{{ Dimension('reservation__booked_party_size') }} >= 6"
    """
    if flt.op is not None:  # a number the query model has checked is one
        return f"{{{{ {dimension_call(flt.dimension)} }}}} {flt.op} {flt.values[0]}"
    values = ", ".join(_quote(v) for v in flt.values)
    return f"{{{{ {dimension_call(flt.dimension)} }}}} {'NOT IN' if flt.exclude else 'IN'} ({values})"


def dimension_call(group_by: str) -> str:
    """MetricFlow's Jinja call for a group-by name; a multi-hop name carries its entity path.

    >>> dimension_call("order__shift__shift_code")
    "Dimension('shift__shift_code', entity_path=['order'])"
    """
    parts = group_by.split("__")
    if len(parts) <= 2:
        return f"Dimension('{group_by}')"
    path = ", ".join(f"'{p}'" for p in parts[:-2])
    return f"Dimension('{parts[-2]}__{parts[-1]}', entity_path=[{path}])"


def time_filters(period: TimeRange | None, dimension: str = "metric_time") -> list[str]:
    """Whole local days, or to the second for a rolling window (the session's time zone is the
    restaurant's, so a local time literal means what the manager means), on the metrics' time or the
    time dimension they are dated by (dish sales: the order's opened_at).

    >>> import datetime as dt
    >>> time_filters(TimeRange(start=dt.date(2026, 11, 9), end=dt.date(2026, 11, 15),
    ...                        start_at=dt.datetime(2026, 11, 8, 19, 40)))[0]
    "{{ TimeDimension('metric_time', 'second') }} >= '2026-11-08 19:40:00'"
    >>> time_filters(TimeRange(start=dt.date(2026, 11, 9), end=dt.date(2026, 11, 15)), "order__opened_at")[1]
    "{{ TimeDimension('order__opened_at', 'day') }} <= '2026-11-15'"
    """
    if period is None:
        return []
    day, second = (f"{{{{ TimeDimension('{dimension}', '{grain}') }}}}" for grain in ("day", "second"))
    since = f"{second} >= '{_local(period.start_at)}'" if period.start_at else f"{day} >= '{period.start.isoformat()}'"
    until = f"{second} < '{_local(period.end_before)}'" if period.end_before else f"{day} <= '{period.end.isoformat()}'"
    return [since, until]


def period_label(period: TimeRange) -> str:
    """A period as a column names it, the same in both languages.

    >>> period_label(TimeRange(start=dt.date(2026, 10, 1), end=dt.date(2026, 10, 31)))
    '2026-10'
    >>> period_label(TimeRange(start=dt.date(2026, 11, 2), end=dt.date(2026, 11, 8),
    ...                        end_before=dt.datetime(2026, 11, 8, 19, 40)))
    '2026-11-02 → 2026-11-08 19:40'
    """
    if period.start_at is None and period.end_before is None:
        if period.start == period.end:
            return period.start.isoformat()
        next_day = period.end + dt.timedelta(days=1)
        if period.start.day == 1 and next_day.day == 1 and period.start.month == period.end.month:
            return f"{period.start:%Y-%m}"
    start = f"{period.start_at:%Y-%m-%d %H:%M}" if period.start_at else period.start.isoformat()
    end = f"{period.end_before:%Y-%m-%d %H:%M}" if period.end_before else period.end.isoformat()
    return f"{start} → {end}"


def _local(moment: dt.datetime) -> str:
    return moment.replace(tzinfo=None, microsecond=0).isoformat(sep=" ")


def something_to_show(metrics: list[str]) -> str:
    """A row of a split with nothing to measure is left out, as the golden SQL's joins and filters leave it
    out: a measure is ``case when <its rows> then ... end``, empty (not 0) for a group without such rows.

    >>> something_to_show(["voided_lines", "voided_value"])
    '(voided_lines IS NOT NULL OR voided_value IS NOT NULL)'
    """
    return "(" + " OR ".join(f"{m} IS NOT NULL" for m in metrics) + ")"


SHARE_COLUMN = "share_pct"
CHANGE_COLUMN = "change_pct"
CHANGE_AMOUNT_COLUMN = "change"


def percent_of(part: str, whole: str) -> str:
    """``part`` in percent of ``whole``, to one decimal; empty when the whole is 0.

    >>> percent_of("a.revenue", "b.revenue")
    'round((100.0 * a.revenue / nullif(b.revenue, 0))::numeric, 1)'
    """
    return f"round((100.0 * {part} / nullif({whole}, 0))::numeric, 1)"


# The splits by one unit of time whose rows can each be shown beside their change on the row before.
CHANGE_GRAINS = ("metric_time__day", "metric_time__week", "metric_time__month")


def _one_date_grain(query: SemanticQuery) -> bool:
    """Split by one unit of time (day, week, month) and nothing else: each row has a row before it."""
    return len(query.group_by) == 1 and query.group_by[0] in CHANGE_GRAINS


def change_in_percent(current: str, before: str) -> str:
    """The change from ``before`` to ``current`` in percent of ``before``, to one decimal.

    >>> change_in_percent("a.revenue", "b.revenue")
    'round((100.0 * (coalesce(a.revenue, 0) - b.revenue) / nullif(b.revenue, 0))::numeric, 1)'
    """
    return percent_of(f"(coalesce({current}, 0) - {before})", before)


def share_of_total(metric: str) -> str:
    """A row's share of the column's total, in percent to one decimal (window over the rows shown).

    >>> share_of_total("payment_amount")
    'round((100.0 * payment_amount / nullif(sum(payment_amount) OVER (), 0))::numeric, 1)'
    """
    return percent_of(metric, f"sum({metric}) OVER ()")


def narrowed_through_another_table(entity: str, filters: list[ValueFilter]) -> bool:
    """A filter on the entity's rows through more than one other table: MetricFlow lists a dimension's rows
    from its own semantic model only, and one link further (a dish's category) is joined by
    :func:`linked_filter`; a dish's category's something is not.

    >>> narrowed_through_another_table("menu_item", [ValueFilter(dimension="menu_item__category__cat_code",
    ...                                                          values=("DES",))])
    False
    >>> narrowed_through_another_table("order", [ValueFilter(dimension="order__table__area__name",
    ...                                                      values=("X",))])
    True
    """
    return any(f.dimension.startswith(f"{entity}__") and entity_of(f.dimension) != entity
               and linked_filter(entity, f) is None for f in filters)


def linked_filter(entity: str, flt: ValueFilter) -> tuple[str, ValueFilter] | None:
    """A filter on the entity's rows through one linked table, as the link and the filter on that table's
    own rows ("món tráng miệng": a dish's category is dessert), or None.

    >>> linked_filter("menu_item", ValueFilter(dimension="menu_item__category__cat_code", values=("DES",)))
    ('menu_item__category', ValueFilter(dimension='category__cat_code', values=('DES',), exclude=False, op=None))
    """
    parts = flt.dimension.split("__")
    if len(parts) != 3 or parts[0] != entity:
        return None
    return f"{parts[0]}__{parts[1]}", flt.model_copy(update={"dimension": f"{parts[1]}__{parts[2]}"})


def _first_line(err: Exception) -> str:
    return (str(err).strip().splitlines() or [type(err).__name__])[0][:300]


def entity_of(group_by: str) -> str | None:
    """The entity path of a joined dimension: ``menu_item__category__name_vi`` -> ``menu_item__category``."""
    if group_by.startswith("metric_time") or "__" not in group_by:
        return None
    return group_by.rsplit("__", 1)[0]


class SemanticCompiler:
    """One MetricFlow engine per semantic model; thread-safe (compilation is serialized: MetricFlow's
    id generator is process-global)."""

    def __init__(self, manifest: Any, catalog: SemanticCatalog, executor: Any | None = None, *,
                 deferred: bool = False) -> None:
        """``deferred``: build MetricFlow's engine (about 1 s) at the first compilation, for a manifest
        that already built one (:mod:`aria.semantic.manifest_cache`)."""
        self.catalog = catalog
        self._manifest, self._executor = manifest, executor
        self._mf_engine: Any | None = None
        self._build_lock = threading.Lock()
        self._lock = threading.RLock()  # _explain retries inside it
        self._group_bys: dict[tuple[str, ...], tuple[str, ...]] = {}
        if not deferred:
            _ = self._engine

    @property
    def _engine(self) -> Any:
        with self._build_lock:
            if self._mf_engine is None:
                from metricflow.engine.metricflow_engine import MetricFlowEngine
                from metricflow_semantics.model.semantic_manifest_lookup import SemanticManifestLookup

                self._mf_engine = MetricFlowEngine(SemanticManifestLookup(self._manifest),
                                                   ReadOnlySqlClient(self._executor))
            return self._mf_engine

    def group_bys(self, metrics: list[str]) -> tuple[str, ...]:
        """The group-by names MetricFlow can join to all of ``metrics`` (cached)."""
        key = tuple(sorted(metrics))
        if key not in self._group_bys:
            with self._lock:
                try:
                    dims = self._engine.simple_dimensions_for_metrics(list(key))
                except Exception as err:
                    raise SemanticQueryError(f"Unknown metric in {list(key)}: {str(err).splitlines()[0][:200]}") \
                        from err
            self._group_bys[key] = tuple(d.dunder_name for d in dims)
        return self._group_bys[key]

    def compile(self, query: SemanticQuery) -> CompiledQuery:
        unknown = [m for m in query.metrics if m not in self.catalog.metrics]
        if unknown:
            raise SemanticQueryError(f"Unknown metric {unknown[0]!r}.",
                                     hint="`aria semantic list` shows the metrics.")
        # a dimension that names its rows (a dish's name) also groups by the entity's id, as the golden SQL does,
        # so two dishes of one name stay apart
        tie_breaks = [e for e in (entity_of(g) for g in query.group_by if self.catalog.names_rows(g)) if e]
        group_by = list(dict.fromkeys([*query.group_by, *tie_breaks]))
        if (query.change or query.change_amount) and query.compare is None and not _one_date_grain(query):
            raise SemanticQueryError("A change needs two periods to compare, or a split by one unit of time.")
        if query.share and ((not query.group_by and not query.filters) or query.compare is not None):
            raise SemanticQueryError("A share of the total needs a split (by category, by payment method ...) or "
                                     "a value (delivery orders), and one period.")
        if query.below is not None and (query.below not in query.group_by or query.compare or query.share):
            raise SemanticQueryError("'Below the level' needs the level in the split (e.g. the reorder level), one "
                                     "period and no share.")
        if query.threshold is not None and (not query.group_by or query.compare or query.share):
            raise SemanticQueryError("A condition on a figure (fewer than 100 portions) keeps rows of a split, in one "
                                     "period and without shares.")
        if query.rows_only and (not query.group_by or query.compare or query.share or query.with_empty
                                or query.change or query.change_amount or query.returning or query.limit_per):
            raise SemanticQueryError("A list of rows needs a split to list, in one period, with no figure beside it.")
        if query.returning is not None:
            return self._compile_returning(query)
        if query.share and not query.group_by:
            return self._compile_share_of_value(query)
        if query.compare is not None:
            return self._compile_comparison(query, group_by, tie_breaks)
        if query.change or query.change_amount:
            return self._compile_change_on_the_one_before(query)
        if query.with_empty:
            return self._compile_with_empty(query, group_by, tie_breaks)
        mf_sql = self._explain(query, group_by)
        whole, total = self._share_whole(query)
        columns, select = self._presentation(query, total)
        order = self._order(query, tie_breaks)
        if query.limit_per is not None:
            select.append(f"{self._rank_in_group(query, order)} AS rank_in_group")
        sql = f"SELECT {', '.join(select)}\nFROM (\n{mf_sql}\n) AS semantic_result{whole}"
        keys = [g for g in query.group_by if not g.startswith("metric_time")]
        where = [f"{g} IS NOT NULL" for g in keys]  # "by shift" lists shifts: takeaway orders are in no shift
        if query.group_by:  # a dish with no voided line is not in "voided lines by dish"
            where.append(something_to_show(list(query.metrics)))
            # a count of the moment of nothing is 0, not empty: "mỗi bạn phục vụ đang giữ mấy bàn" leaves out a
            # server with no table right now, as a filter on the open orders does (an area with no table free but
            # some taken shows its 0 free tables: a row with any count of the moment)
            now = [f"{m} <> 0" for m in query.metrics if self.catalog.metrics[m].counts_now]
            if now:
                where.append(now[0] if len(now) == 1 else f"({' OR '.join(now)})")
            if query.rows_only:  # the rows the metrics count: "which tables are free"
                where.extend(f"coalesce({m}, 0) <> 0" for m in query.metrics if not self.catalog.metrics[m].counts_now)
        if query.below is not None:  # "running low": below the level it is kept above
            where.append(self._below(query.metrics[0], query.below))
        if query.threshold is not None:  # "sold fewer than 100 portions": its exact value, not the rounded one
            where.append(self._beyond(query, f"semantic_result.{query.metrics[0]}"))
        if where:
            sql += "\nWHERE " + " AND ".join(where)
        if query.limit_per is not None:  # the first ``limit`` of each group, each group's in rank order
            shown = ", ".join(f'"{c}"' for c in columns)
            sql = (f"SELECT {shown}\nFROM (\n{sql}\n) AS ranked\nWHERE rank_in_group <= {int(query.limit or 0)}\n"
                   f'ORDER BY "{self.column_name(query.limit_per)}", rank_in_group')
        else:
            if order:
                sql += f"\nORDER BY {', '.join(order)}"
            if query.limit is not None:
                sql += f"\nLIMIT {int(query.limit)}"
        return CompiledQuery(query=query, metricflow_sql=mf_sql, sql=sql, columns=tuple(columns))

    def _rank_in_group(self, query: SemanticQuery, order: list[str]) -> str:
        """"The 3 best-selling dishes of each category": the ranking numbered within each value of the split
        said with "each" (its entity too, so two categories of one name stay apart)."""
        each = query.limit_per
        if each is None or each not in query.group_by or query.limit is None or not order:
            raise SemanticQueryError("A ranking within each group needs the split, how many, and an order.")
        partition = [each, *([e] if (e := entity_of(each)) and self.catalog.names_rows(each) else [])]
        return f"row_number() OVER (PARTITION BY {', '.join(partition)} ORDER BY {', '.join(order)})"

    def _compile_comparison(self, query: SemanticQuery, group_by: list[str], tie_breaks: list[str]) -> CompiledQuery:
        """Each metric for two periods side by side: two MetricFlow queries joined on the split."""
        assert query.compare is not None and query.time is not None
        if any(g in _DATE_GRAINS for g in query.group_by):
            raise SemanticQueryError("A comparison of two periods cannot also be split by date.")
        first = self._explain(query, group_by)
        second = self._explain(query.model_copy(update={"time": query.compare}), group_by)
        columns: list[str] = []
        select: list[str] = []
        for name in query.group_by:
            columns.append(self.column_name(name))
            select.append(f'{self._shown(name, f"coalesce(a.{name}, b.{name})", query.language)} AS "{columns[-1]}"')
        for name in query.metrics:
            info = self.catalog.metrics[name]
            for alias, period in (("a", query.time), ("b", query.compare)):
                columns.append(f"{info.column} ({period_label(period)})")
                select.append(f'{self._metric_value(name, f"{alias}.{name}")} AS "{columns[-1]}"')
        first_metric = query.metrics[0]
        if query.change_amount:
            columns.append(CHANGE_AMOUNT_COLUMN)
            difference = f"coalesce(a.{first_metric}, 0) - coalesce(b.{first_metric}, 0)"
            select.append(f'{self._metric_value(first_metric, difference)} AS "{CHANGE_AMOUNT_COLUMN}"')
        if query.change:
            columns.append(CHANGE_COLUMN)
            select.append(f'{change_in_percent(f"a.{first_metric}", f"b.{first_metric}")} AS "{CHANGE_COLUMN}"')
        if len(set(columns)) != len(columns):
            raise SemanticQueryError("The two periods would give columns of the same name.")
        join = " AND ".join(f"a.{g} = b.{g}" for g in group_by)  # a split's keys: an empty one is left out below
        sql = (f"SELECT {', '.join(select)}\nFROM (\n{first}\n) AS a\n"
               + (f"FULL JOIN (\n{second}\n) AS b ON {join}" if join else f"CROSS JOIN (\n{second}\n) AS b"))
        keys = [g for g in query.group_by if not g.startswith("metric_time")]
        where = [f"coalesce(a.{g}, b.{g}) IS NOT NULL" for g in keys]
        if query.group_by:
            where.append(something_to_show([f"{side}.{m}" for m in query.metrics for side in "ab"]))
        if where:
            sql += "\nWHERE " + " AND ".join(where)
        order = [f"{self._compared(o.by, query)} {'DESC' if o.descending else 'ASC'} NULLS LAST" for o in query.order_by]
        order += [f"coalesce(a.{t}, b.{t}) ASC" for t in tie_breaks]
        if order:
            sql += f"\nORDER BY {', '.join(order)}"
        if query.limit is not None:
            sql += f"\nLIMIT {int(query.limit)}"
        return CompiledQuery(query=query, metricflow_sql=f"{first};\n{second}", sql=sql, columns=tuple(columns))

    def _compile_change_on_the_one_before(self, query: SemanticQuery) -> CompiledQuery:
        """"Weekly revenue for the last 6 weeks, with the % change from the week before": each row of a split by one
        unit of time beside its change on the row before; the period is read one unit earlier, so its first row has
        one too, and that earlier row is then left out."""
        grain = query.group_by[0]
        unit = grain.rsplit("__", 1)[1]
        if query.share or query.limit is not None or (query.time is not None and query.time.start_at is not None):
            raise SemanticQueryError("A change on the period before is shown for whole periods, without a share or a "
                                     "ranking.")
        read = query if query.time is None else query.model_copy(update={"time": query.time.model_copy(update={
            "start": period_range(unit, 1, query.time.start)[0]})})  # the unit before the one it starts in
        mf_sql = self._explain(read, [grain])
        columns, select = self._presentation(query)
        first = query.metrics[0]
        before = f"lag({first}) OVER (ORDER BY {grain})"
        if query.change_amount:
            columns.append(CHANGE_AMOUNT_COLUMN)
            select.append(f'{self._metric_value(first, f"coalesce({first}, 0) - {before}")} AS "{CHANGE_AMOUNT_COLUMN}"')
        if query.change:
            columns.append(CHANGE_COLUMN)
            select.append(f'{change_in_percent(first, before)} AS "{CHANGE_COLUMN}"')
        shown = ", ".join(f'"{c}"' for c in columns)
        since = "" if query.time is None else \
            f"\nWHERE {grain} >= DATE '{period_range(unit, 0, query.time.start)[0].isoformat()}'"  # its first, whole
        sql = (f"SELECT {shown}\nFROM (\nSELECT {', '.join(select)}, {grain}\nFROM (\n{mf_sql}\n) AS semantic_result\n"
               f") AS changes{since}\nORDER BY {grain}")
        return CompiledQuery(query=query, metricflow_sql=mf_sql, sql=sql, columns=tuple(columns))

    @staticmethod
    def _compared(by: str, query: SemanticQuery) -> str:
        """What a comparison is ordered by: the first period's figure, a split's value, or the change of its first
        metric ("grew the most"), as an amount (``change``) or in percent (``change_pct``)."""
        first = query.metrics[0]
        if by == CHANGE_AMOUNT_COLUMN:
            return f"coalesce(a.{first}, 0) - coalesce(b.{first}, 0)"
        if by == CHANGE_COLUMN:
            return change_in_percent(f"a.{first}", f"b.{first}")
        return f"a.{by}" if by in query.metrics else f"coalesce(a.{by}, b.{by})"

    def _compile_returning(self, query: SemanticQuery) -> CompiledQuery:
        """"Of the customers who came in October, how many came back in November": the rows the metric counts in the
        first period, how many of them the visits metric counts again in the second (or not), and that in percent;
        two MetricFlow queries joined on the row (a customer)."""
        visits = next((m for m, info in self.catalog.metrics.items() if info.visits), None)
        key = self.catalog.metrics[visits].counts if visits is not None else None
        if query.compare is None or visits is None or key is None or self.catalog.metrics[query.metrics[0]].counts != key:
            raise SemanticQueryError("Who came back needs the customers of one period and a second period.")
        if any(g.startswith("metric_time") for g in query.group_by) or query.limit is not None or query.share:
            raise SemanticQueryError("Who came back is counted for one period, split only by what the customers are "
                                     "(e.g. their tier).")
        cohort = self._explain(query.model_copy(update={"compare": None, "metrics": query.metrics[:1]}),
                               [key, *query.group_by])
        again = self._explain(SemanticQuery(metrics=[visits], time=query.compare), [key])
        label = "came_back" if query.returning == "back" else "not_back"
        counted = f"count(b.{key})" if query.returning == "back" else f"count(*) - count(b.{key})"
        columns = [self.column_name(name) for name in query.group_by]
        select = [f'{self._shown(name, f"a.{name}", query.language)} AS "{column}"'
                  for name, column in zip(query.group_by, columns, strict=True)]
        columns += [self.catalog.metrics[query.metrics[0]].column, label, f"{label}_pct"]
        select += [f'count(*) AS "{columns[-3]}"', f'{counted} AS "{label}"',
                   f'{percent_of(f"({counted})", "count(*)")} AS "{label}_pct"']
        # a customer whose orders of the period were all cancelled is a row with nothing counted: not one of them
        sql = (f"SELECT {', '.join(select)}\nFROM (\n{cohort}\n) AS a\nLEFT JOIN (\n{again}\n) AS b "
               f"ON b.{key} = a.{key} AND b.{visits} > 0\nWHERE a.{query.metrics[0]} > 0")
        if query.group_by:
            keys = ", ".join(f"a.{name}" for name in query.group_by)
            sql += f"\nGROUP BY {keys}\nORDER BY {keys}"
        return CompiledQuery(query=query, metricflow_sql=f"{cohort};\n{again}", sql=sql, columns=tuple(columns))

    def _compile_share_of_value(self, query: SemanticQuery) -> CompiledQuery:
        """"What share of last week's revenue came from delivery orders": the metric for the values asked, for
        all of them, and the first as a percent of the second (two MetricFlow queries side by side)."""
        name = self.catalog.share_metric(query.metrics)
        info = self.catalog.metrics[name]
        part = self._explain(query.model_copy(update={"metrics": [name]}), [])
        kept = [f for f in query.filters if self._when_of_the_part(f, query.filters)]
        whole = self._explain(query.model_copy(update={"metrics": [name], "filters": kept}), [])
        columns = [info.column, f"total_{info.column}", SHARE_COLUMN]
        select = [f'{self._metric_value(name, f"a.{name}")} AS "{columns[0]}"',
                  f'{self._metric_value(name, f"b.{name}")} AS "{columns[1]}"',
                  f'{percent_of(f"coalesce(a.{name}, 0)", f"b.{name}")} AS "{SHARE_COLUMN}"']
        sql = f"SELECT {', '.join(select)}\nFROM (\n{part}\n) AS a\nCROSS JOIN (\n{whole}\n) AS b"
        return CompiledQuery(query=query, metricflow_sql=f"{part};\n{whole}", sql=sql, columns=tuple(columns))

    def _explain(self, query: SemanticQuery, group_by: list[str]) -> str:
        from metricflow.engine.metricflow_engine import MetricFlowQueryRequest

        request = MetricFlowQueryRequest.create(
            metric_names=list(query.metrics), group_by_names=group_by or None,
            where_constraints=[*time_filters(query.time, self._dated_by(query.metrics)),
                               *(where_filter(f) for f in query.filters)] or None,
        )
        with self._lock:
            try:
                explained = self._engine.explain(request)
            except Exception as err:
                if query.time is not None and (query.time.start_at or query.time.end_before):
                    # a metric kept per day (shifts) has no time of day: its whole days are the window
                    return self._explain(query.model_copy(update={"time": query.time.whole_days()}), group_by)
                raise SemanticQueryError(f"MetricFlow cannot compile this query: {_first_line(err)}") from err
        return explained.sql_statement.sql.strip().rstrip(";")

    def _dated_by(self, metrics: list[str]) -> str:
        """The time dimension a period filters: the metrics' own when they all have one, else metric_time."""
        dated_by = {self.catalog.metrics[m].time_dimension for m in metrics if m in self.catalog.metrics}
        return dated_by.pop() if len(dated_by) == 1 else "metric_time"

    def _share_whole(self, query: SemanticQuery) -> tuple[str, str | None]:
        """The total a share is of when the rows shown are not all of it: "what share of sales is takeaway and
        delivery" (the order types asked, each of all types' total), "what has delivery brought in each month, and
        what share of revenue is that" (delivery's share of each month's revenue); split by a period too, each
        period's own total ("mang về với giao hàng mỗi tuần chiếm bao nhiêu phần trăm doanh thu"). The join (or
        nothing) to add after ``semantic_result``, and the total's expression (None: the window over the rows)."""
        if not query.share or not query.group_by:
            return "", None
        name = self.catalog.share_metric(query.metrics)
        periods = [g for g in query.group_by if g.startswith("metric_time")]
        others = [g for g in query.group_by if not g.startswith("metric_time")]
        # what is left out is out of the whole too; a value asked narrows the part only
        kept = [f for f in query.filters if f.exclude or self._when_of_the_part(f, query.filters) or (others and (
            f.dimension not in others or self._every_value(f)))]
        if kept == query.filters:
            return "", (f"sum({name}) OVER (PARTITION BY {', '.join(periods)})" if periods and others else None)
        whole_sql = self._explain(query.model_copy(update={"metrics": [name], "filters": kept}), periods)
        if not periods:
            return "", f"(SELECT {name} FROM (\n{whole_sql}\n) AS whole_rows)"
        keys = ", ".join(f"{g} AS whole_{g}" for g in periods)
        on = " AND ".join(f"whole.whole_{g} = semantic_result.{g}" for g in periods)
        return (f"\nLEFT JOIN (SELECT {keys}, {name} AS whole_total FROM (\n{whole_sql}\n) AS whole_rows) AS whole "
                f"ON {on}", "whole.whole_total")

    def _when_of_the_part(self, value_filter: ValueFilter, filters: list[ValueFilter]) -> bool:
        return self.catalog.frames_a_part(value_filter.dimension, [f.dimension for f in filters])

    def _every_value(self, value_filter: ValueFilter) -> bool:
        """The filter keeps every value its dimension lists (walk-ins and bookings): the rows shown are the whole."""
        dim = self.catalog.dimension_of(value_filter.dimension)
        codes = {v.code for v in dim.values} if dim is not None else set()
        return bool(codes) and codes <= set(value_filter.values)

    def _presentation(self, query: SemanticQuery, total: str | None = None) -> tuple[list[str], list[str]]:
        columns: list[str] = []
        select: list[str] = []
        for name in query.group_by:
            column = self.column_name(name)
            columns.append(column)
            select.append(f'{self._shown(name, name, query.language)} AS "{column}"')
        for name in [] if query.rows_only else query.metrics:
            columns.append(self.catalog.metrics[name].column)
            select.append(f'{self._metric_value(name, name)} AS "{columns[-1]}"')
        if query.share:
            columns.append(SHARE_COLUMN)
            name = self.catalog.share_metric(query.metrics)
            share = share_of_total(name) if total is None else percent_of(f"coalesce({name}, 0)", total)
            select.append(f'{share} AS "{SHARE_COLUMN}"')
        if len(set(columns)) != len(columns):
            raise SemanticQueryError("Two output columns would have the same name.")
        return columns, select

    def _compile_with_empty(self, query: SemanticQuery, group_by: list[str], tie_breaks: list[str]) -> CompiledQuery:
        """The split's rows with nothing to count listed too, with 0 ("the 5 dishes that sold least, counting
        those that sold nothing"): MetricFlow lists the rows (the active ones, where the model says which are),
        MetricFlow computes the metrics, and the rows are joined to them."""
        entities = set(tie_breaks)
        if len(entities) != 1 or any(entity_of(g) not in entities for g in query.group_by):
            raise SemanticQueryError("Listing the rows with nothing to count needs a split by one kind of row "
                                     "(dishes, staff, tables).")
        entity = tie_breaks[0]
        if narrowed_through_another_table(entity, query.filters):
            raise SemanticQueryError("The rows with nothing to count cannot be narrowed through more than one "
                                     "other table.")
        own = [f for f in query.filters if entity_of(f.dimension) == entity]
        links = [found for found in (linked_filter(entity, f) for f in query.filters) if found is not None]
        active = f"{entity}__is_active"
        rows_where = [where_filter(f) for f in own]
        if active in self.group_bys(list(query.metrics)):
            rows_where.append(f"{{{{ Dimension('{active}') }}}} = true")
        rows_sql = self._explain_rows([*group_by, *dict.fromkeys(link for link, _ in links)], rows_where)
        narrowing = ""
        for i, (link, flt) in enumerate(links):  # a dessert: a dish whose category is one of the dessert ones
            linked = link.rsplit("__", 1)[1]
            narrowing += (f"\nJOIN (\n{self._explain_rows([linked], [where_filter(flt)])}\n) AS n{i} "
                          f"ON n{i}.{linked} = v.{link}")
        metrics_sql = self._explain(query, group_by)
        columns, select = [], []
        for name in query.group_by:
            columns.append(self.column_name(name))
            select.append(f'{self._shown(name, f"v.{name}", query.language)} AS "{columns[-1]}"')
        for name in query.metrics:
            columns.append(self.catalog.metrics[name].column)
            select.append(f'{self._metric_value(name, f"r.{name}")} AS "{columns[-1]}"')  # sold nothing: sold 0
        sql = (f"SELECT {', '.join(select)}\nFROM (\n{rows_sql}\n) AS v{narrowing}\n"
               f"LEFT JOIN (\n{metrics_sql}\n) AS r ON r.{entity} = v.{entity}")
        kept = []
        if query.below is not None:  # an ingredient never logged has nothing in stock
            kept.append(self._below(f"r.{query.metrics[0]}", f"v.{query.below}"))
        if query.threshold is not None:  # "the active dishes that sold fewer than 100": those that sold none too
            kept.append(self._beyond(query, f"r.{query.metrics[0]}"))
        if kept:
            sql += f"\nWHERE {' AND '.join(kept)}"
        order = [f"{self._metric_value(o.by, f'r.{o.by}') if o.by in query.metrics else f'v.{o.by}'} "
                 f"{'DESC' if o.descending else 'ASC'} NULLS LAST" for o in query.order_by]
        sql += "\nORDER BY " + ", ".join([*order, f"v.{entity} ASC"])
        if query.limit is not None:
            sql += f"\nLIMIT {int(query.limit)}"
        return CompiledQuery(query=query, metricflow_sql=f"{rows_sql};\n{metrics_sql}", sql=sql, columns=tuple(columns))

    def _beyond(self, query: SemanticQuery, source: str) -> str:
        """The first metric against the question's figure: a sum or count with nothing to add up is 0."""
        assert query.threshold is not None
        value = f"coalesce({source}, 0)" if self.catalog.metrics[query.metrics[0]].additive else source
        return f"{value} {query.threshold.op} {float(query.threshold.value)!r}"

    @staticmethod
    def _below(metric: str, level: str) -> str:
        """The metric below the level: an ingredient with nothing logged has 0 in stock."""
        return f"coalesce({metric}, 0) < {level}"

    def _explain_rows(self, group_by: list[str], where: list[str]) -> str:
        """MetricFlow's query of a dimension's rows alone (no metric)."""
        from metricflow.engine.metricflow_engine import MetricFlowQueryRequest

        request = MetricFlowQueryRequest.create(metric_names=None, group_by_names=group_by,
                                                where_constraints=where or None)
        with self._lock:
            try:
                explained = self._engine.explain(request)
            except Exception as err:
                raise SemanticQueryError(f"MetricFlow cannot list these rows: {_first_line(err)}") from err
        return explained.sql_statement.sql.strip().rstrip(";")

    def _metric_value(self, name: str, source: str) -> str:
        """A metric rounded to its decimals; a sum or count with nothing to add up is 0, in a total or in a row
        of a split shown for its other figures (an area with bookings and no no-show: 0 no-shows).

        Rounded to 9 places first: a sum of per-row quotients (hours = seconds / 3600 on each shift)
        carries the division's last-digit error, so a total of exactly 67.35 h arrives as 67.3499…
        and would round down where the total divided once rounds up (the data's true values are
        minutes or cents, nowhere near 1e-9 from a tie).
        """
        info = self.catalog.metrics[name]
        if info.unit == "time":  # a moment (when a shift starts), shown as it is
            return source
        value = f"coalesce({source}, 0)" if info.additive else source
        return f"round(round(({value})::numeric, 9), {int(info.decimals)})"

    def _shown(self, name: str, source: str, language: str) -> str:
        """A split's value as the answer shows it: a date grain as a date, a dimension that ``shows_labels`` as
        its value's label in the question's language, lower case ("weekend", not true)."""
        if name in _DATE_GRAINS:
            return f"{source}::date"
        dim = self.catalog.dimension_of(name)
        if dim is None or not dim.shows_labels:
            return source
        dim = self.catalog.valued(dim)  # a booking's weekend: the weekend's labels
        if not dim.values:
            return source
        cases = " ".join(f"WHEN {_quote(v.code)} THEN {_quote(v.labels.label(language).lower())}" for v in dim.values)
        return f"CASE {source}::text {cases} END"

    def column_name(self, group_by: str) -> str:
        if group_by in TIME_COLUMNS:
            return TIME_COLUMNS[group_by]
        dim = self.catalog.dimension_of(group_by)
        return dim.concept if dim is not None else group_by.rsplit("__", 1)[-1]

    def _order(self, query: SemanticQuery, tie_breaks: list[str]) -> list[str]:
        """Metrics ranked by their values as shown (rounded to their decimals, as a golden query ranks by its
        rounded column): two ingredients both wasting 0.9 % of what they used tie, and the tie goes to the bigger
        companion, then to the first row's id."""
        known = set(query.metrics) | set(query.group_by)
        order = []
        for item in query.order_by:
            if item.by not in known:
                raise SemanticQueryError(f"Cannot order by {item.by!r}: it is not in the query.")
            value = f"semantic_result.{item.by}"  # never a shown column of the same name ("server": a name)
            if item.by in query.metrics and self.catalog.metrics[item.by].additive:
                value = f"coalesce({value}, 0)"  # shown as 0, ranked as 0
            if item.by in query.metrics and self.catalog.metrics[item.by].unit != "time":  # a moment: as it is
                value = f"round(round(({value})::numeric, 9), {int(self.catalog.metrics[item.by].decimals)})"
            order.append(f"{value} {'DESC' if item.descending else 'ASC'} NULLS LAST")  # an average of nothing: last
        if query.order_by and query.limit is not None:  # a tie at the cut goes to the bigger companion (ex-021)
            first = query.order_by[0]
            order += [f"coalesce(semantic_result.{m}, 0) {'DESC' if first.descending else 'ASC'}" for m in query.metrics
                      if m != first.by and self.catalog.metrics[m].additive]
        order += [f"semantic_result.{t} ASC" for t in tie_breaks] + [  # the id, not a shown name called alike
            f"semantic_result.{g}" for g in query.group_by if g in TIME_COLUMNS]
        return order


def load_compiler(manifest: Any, catalog: SemanticCatalog, executor: Any | None = None, *,
                  deferred: bool = False) -> SemanticCompiler:
    try:
        return SemanticCompiler(manifest, catalog, executor, deferred=deferred)
    except Exception as err:  # MetricFlow's own model checks at engine build time
        raise SemanticModelError(f"MetricFlow could not load the semantic model: {str(err).splitlines()[0][:300]}") \
            from err
