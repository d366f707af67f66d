"""Charts as data: a declarative :class:`ChartSpec` chosen by rules from the result's shape.

The spec is picked from pandas dtypes and column names only (no model, no code from a model);
:func:`render_chart` turns a spec into a Plotly figure. Measures in different units never share an
axis (the chart shows the first one; the table has all). When a chart would mislead (too many categories
or series, one row of many columns) the spec is ``kind="none"`` with the reason.

>>> import pandas as pd
>>> choose_chart(pd.DataFrame({"mon": ["Phở", "Bún chả"], "so_luong": [120, 80]})).kind
'bar'
"""

from __future__ import annotations

import re
from typing import Literal

import pandas as pd
import plotly.graph_objects as go
from pydantic import BaseModel, ConfigDict

from aria.reflect.answer_text import label
from aria.reflect.language import detect_language
from aria.ui.frames import is_category, is_measure, is_time, unit_of

ChartKind = Literal["line", "bar", "pie", "treemap", "metric", "scatter", "none"]

MAX_BAR_CATEGORIES = 25  # more bars than this cannot be read at a glance
MAX_PIE_SLICES = 6  # more slices than this: a treemap
MAX_TREEMAP_TILES = 30
MAX_SERIES = 8  # colours on one line chart
PALETTE = ["#B45309", "#0F766E", "#7C3AED", "#BE123C", "#1D4ED8", "#4D7C0F", "#A16207", "#475569"]
_VI_TITLE_WORDS = ((" by ", " theo "), ("Share of ", "Tỷ trọng "), (" vs ", " so với "))
_SHARE_WORDS = re.compile(
    r"(tỷ trọng|tỉ trọng|tỷ lệ|tỉ lệ|cơ cấu|phần trăm|chiếm|share|proportion|breakdown|percentage|mix)",
    re.IGNORECASE,
)


class ChartSpec(BaseModel):
    """What to draw. Built by rules; rendered by :func:`render_chart`; never executed."""

    model_config = ConfigDict(frozen=True)

    kind: ChartKind
    x: str | None = None
    y: tuple[str, ...] = ()
    color: str | None = None
    title: str = ""
    reason: str = ""


def _none(reason: str) -> ChartSpec:
    return ChartSpec(kind="none", reason=reason)


def _sums_to_whole(series: pd.Series) -> bool:
    total = float(series.sum())
    return bool((series >= 0).all()) and (abs(total - 100.0) <= 1.5 or abs(total - 1.0) <= 0.015)


def humanize(name: str) -> str:
    """A column name as a label: 'doanh_thu_vnd' -> 'doanh thu (VND)'."""
    words = label(name)
    return f"{words} (VND)" if name.lower().endswith("_vnd") else words


def _title(measures: list[str], by: str | None) -> str:
    shown = ", ".join(humanize(m) for m in measures)
    return f"{shown} by {humanize(by)}" if by else shown


def choose_chart(df: pd.DataFrame, question: str = "") -> ChartSpec:
    """The chart that fits the result's shape, or ``none`` with the reason a chart would mislead;
    its title in the question's language."""
    spec = _chart_for_shape(df, question)
    if spec.title and detect_language(question) == "vi":
        title = spec.title
        for english, vietnamese in _VI_TITLE_WORDS:
            title = title.replace(english, vietnamese)
        spec = spec.model_copy(update={"title": title})
    return spec


def _chart_for_shape(df: pd.DataFrame, question: str) -> ChartSpec:
    if df.empty or len(df.columns) == 0:
        return _none("no rows to chart")
    times = [c for c in df.columns if is_time(df, c)]
    measures = [c for c in df.columns if is_measure(df, c)]
    categories = [c for c in df.columns if is_category(df, c)]
    if not measures:
        return _none("no numeric column to chart")
    if len(df) == 1:
        return _single_row(df, measures, categories + times)
    if times:
        return _time_series(df, times[0], measures, categories)
    if categories:
        return _by_category(df, categories, measures, question)
    if len(measures) == 2:
        return ChartSpec(
            kind="scatter", x=measures[0], y=(measures[1],), title=f"{humanize(measures[1])} vs {humanize(measures[0])}",
            reason="two measures: a scatter shows how they relate",
        )
    return _none("numbers without a label or time column to plot them against")


def _single_row(df: pd.DataFrame, measures: list[str], labels: list[str]) -> ChartSpec:
    if len(measures) == 1 and len(labels) <= 1:
        return ChartSpec(kind="metric", y=(measures[0],), title=measures[0], reason="a single value")
    return _none(f"one row of {len(df.columns)} columns reads better as a table")


def _mixed_units(measures: list[str]) -> bool:
    return len({unit_of(m) for m in measures}) > 1


def _time_series(df: pd.DataFrame, time: str, measures: list[str], categories: list[str]) -> ChartSpec:
    if _mixed_units(measures):
        measures = measures[:1]  # one unit per axis: plot the first measure only
    color = None
    if categories and len(measures) == 1:
        series_count = df[categories[0]].nunique()
        if series_count > MAX_SERIES:
            return _none(f"{series_count} series over time would be unreadable")
        color = categories[0]
    return ChartSpec(
        kind="line", x=time, y=tuple(measures), color=color, title=_title(measures, time),
        reason=f"a time column ({time}) and a measure: a line shows the trend",
    )


def _by_category(df: pd.DataFrame, categories: list[str], measures: list[str], question: str) -> ChartSpec:
    label = categories[0]
    count = df[label].nunique()
    if len(measures) == 1 and (share := _share_chart(df, label, measures[0], question)) is not None:
        return share
    if count > MAX_BAR_CATEGORIES:
        return _none(f"{count} categories are too many for a chart; see the table")
    if _mixed_units(measures):  # one unit per axis: bars of the first measure (the table has the rest)
        return ChartSpec(kind="bar", x=label, y=(measures[0],), title=_title(measures[:1], label),
                         reason=f"measures in different units ({', '.join(measures)}): bars of {measures[0]}")
    return ChartSpec(
        kind="bar", x=label, y=tuple(measures), title=_title(measures, label),
        reason=f"categories ({label}) and a measure: bars compare them",
    )


def _share_chart(df: pd.DataFrame, label: str, measure: str, question: str) -> ChartSpec | None:
    """Pie (few parts) or treemap (more parts) when the measure is explicitly a share of a whole."""
    values = df[measure]
    is_share = (unit_of(measure) == "percent" and _sums_to_whole(values)) or (
        bool(_SHARE_WORDS.search(question)) and bool((values >= 0).all())
    )
    count = df[label].nunique()
    if not is_share or count < 2 or count > MAX_TREEMAP_TILES or count != len(df):
        return None
    kind: ChartKind = "pie" if count <= MAX_PIE_SLICES else "treemap"
    return ChartSpec(
        kind=kind, x=label, y=(measure,), title=f"Share of {humanize(measure)} by {humanize(label)}",
        reason=f"parts of a whole ({count} parts): a {kind}",
    )


def render_chart(spec: ChartSpec, df: pd.DataFrame) -> go.Figure | None:
    """A Plotly figure built only from the spec's fields; None for ``none`` and ``metric``.

    Built with ``graph_objects`` directly: ``plotly.express`` took ~65 ms per chart, this ~7 ms.
    """
    if spec.kind in ("none", "metric"):
        return None
    missing = [c for c in (spec.x, spec.color, *spec.y) if c is not None and c not in df.columns]
    if missing:
        raise ValueError(f"chart spec names columns the result does not have: {missing}")
    traces = _traces(spec, df)
    fig = go.Figure(data=traces)
    fig.update_layout(
        title=spec.title, margin={"l": 10, "r": 10, "t": 40, "b": 10}, height=360, colorway=PALETTE,
        barmode="group", showlegend=len(traces) > 1 or spec.kind == "pie",
        legend_title_text=humanize(spec.color) if spec.color else None,
    )
    if spec.kind in ("line", "bar", "scatter"):
        y_title = humanize(spec.y[0]) if len(spec.y) == 1 else "value"
        fig.update_layout(xaxis_title=humanize(spec.x) if spec.x else None, yaxis_title=y_title)
    return fig


def _traces(spec: ChartSpec, df: pd.DataFrame) -> list[go.BaseTraceType]:
    """One trace per measure (or per colour group on a one-measure chart)."""
    y = spec.y[0]
    if spec.kind == "pie":
        return [go.Pie(labels=df[spec.x], values=df[y], hole=0.35, marker={"colors": PALETTE}, sort=False)]
    if spec.kind == "treemap":
        return [go.Treemap(labels=df[spec.x].astype(str), parents=[""] * len(df), values=df[y],
                           marker={"colors": PALETTE * (len(df) // len(PALETTE) + 1)})]
    data = df.sort_values(spec.x) if spec.kind == "line" and spec.x else df
    if spec.color:
        groups = [(str(name), part) for name, part in data.groupby(spec.color, sort=False)]
        return [_xy_trace(spec.kind, part[spec.x], part[y], name, len(df)) for name, part in groups]
    return [_xy_trace(spec.kind, data[spec.x], data[col], humanize(col), len(df)) for col in spec.y]


def _xy_trace(kind: ChartKind, x: pd.Series, y: pd.Series, name: str, rows: int) -> go.BaseTraceType:
    if kind == "bar":
        return go.Bar(x=x, y=y, name=name)
    if kind == "line":
        return go.Scatter(x=x, y=y, name=name, mode="lines+markers" if rows <= 60 else "lines")
    return go.Scatter(x=x, y=y, name=name, mode="markers")
