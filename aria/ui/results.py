"""A query result on screen: the formatted table, the chart its shape calls for, a CSV download.

:func:`build_view` does the work once (DataFrame, formatted table, chart, CSV); the chat keeps the
:class:`ResultView` with its message, so a rerun of the page only draws it again (:func:`draw_view`).
:func:`preload_components` draws a tiny chart and table off-screen while the chat is empty, so the
browser has loaded and compiled their code before the first answer arrives (``aria bench ui``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from aria.ui.charts import ChartSpec, choose_chart, render_chart
from aria.ui.formatting import Language, display_frame, format_value, t
from aria.ui.frames import result_frame

PLOTLY_CONFIG = {"displaylogo": False, "displayModeBar": False}
PRELOAD_KEY = "aria_preload"
_PRELOAD_CSS = (
    f"<style>.st-key-{PRELOAD_KEY}{{position:absolute;left:-10000px;top:0;width:360px;height:160px;"
    "overflow:hidden;visibility:hidden;pointer-events:none}</style>"
)


@dataclass(frozen=True)
class ResultView:
    """Everything needed to draw one result, built once."""

    table: pd.DataFrame  # formatted for display
    spec: ChartSpec
    figure: go.Figure | None
    metric: tuple[str, str] | None  # (label, formatted value) for a single-value answer
    csv: bytes
    truncated: bool

    @property
    def empty(self) -> bool:
        return self.table.empty


def build_view(columns: list[str], rows: list[list[Any]], *, question: str, truncated: bool) -> ResultView:
    """The table, chart and CSV of a result (the slow part: ~10 ms, done once per result)."""
    df = result_frame(columns, rows)
    spec = choose_chart(df, question)
    metric = None
    if spec.kind == "metric" and not df.empty:
        name = spec.y[0]
        labels = [c for c in df.columns if c != name]
        metric = (f"{name} · {df[labels[0]].iloc[0]}" if labels else name, format_value(name, df[name].iloc[0]))
    figure = None if df.empty else render_chart(spec, df)
    csv = df.to_csv(index=False).encode("utf-8-sig")
    return ResultView(display_frame(df), spec, figure, metric, csv, truncated)


def draw_view(view: ResultView, *, language: Language, key: str) -> None:
    """Draw a built result: metric, table, chart (or why there is none), CSV download."""
    if view.empty:
        st.caption(t("no_rows", language))
        return
    if view.metric is not None:
        st.metric(*view.metric)
    st.dataframe(view.table, hide_index=True, key=f"{key}_table")
    if view.truncated:
        st.caption(t("truncated", language, n=len(view.table)))
    if view.figure is not None:
        st.plotly_chart(view.figure, key=f"{key}_chart", config=PLOTLY_CONFIG)
    elif view.spec.kind == "none" and len(view.table) > 1:
        st.caption(f"No chart: {view.spec.reason}.")
    st.download_button(
        t("download_csv", language), data=view.csv, file_name="aria_result.csv", mime="text/csv",
        key=f"{key}_csv", icon=":material/download:",
    )


def render_result(columns: list[str], rows: list[list[Any]], *, question: str, truncated: bool,
                  language: Language, key: str) -> None:
    """Build and draw a result in one go (pages that show one result at a time)."""
    draw_view(build_view(columns, rows, question=question, truncated=truncated), language=language, key=key)


@lru_cache(maxsize=1)
def _tiny_figure() -> go.Figure:
    fig = go.Figure(go.Bar(x=["a", "b"], y=[1, 2]))
    fig.update_layout(height=140, margin={"l": 0, "r": 0, "t": 0, "b": 0})
    return fig


def preload_components() -> None:
    """A tiny chart and table drawn off-screen and hidden, so their browser code is loaded and compiled
    before the first answer arrives (the chat draws this until its first answer)."""
    st.html(_PRELOAD_CSS)
    with st.container(key=PRELOAD_KEY):
        st.plotly_chart(_tiny_figure(), key=f"{PRELOAD_KEY}_chart", config=PLOTLY_CONFIG)
        st.dataframe(pd.DataFrame({"a": [1]}), hide_index=True, key=f"{PRELOAD_KEY}_table", height=80)
