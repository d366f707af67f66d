"""A query result on screen: the formatted table, the chart its shape calls for, a CSV download."""

from __future__ import annotations

from typing import Any

import streamlit as st

from aria.ui.charts import choose_chart, render_chart
from aria.ui.formatting import Language, display_frame, format_value, t
from aria.ui.frames import result_frame


def render_result(columns: list[str], rows: list[list[Any]], *, question: str, truncated: bool,
                  language: Language, key: str) -> None:
    df = result_frame(columns, rows)
    if df.empty:
        st.caption(t("no_rows", language))
        return
    spec = choose_chart(df, question)
    if spec.kind == "metric":
        name = spec.y[0]
        label_columns = [c for c in df.columns if c != name]
        label = f"{name} · {df[label_columns[0]].iloc[0]}" if label_columns else name
        st.metric(label, format_value(name, df[name].iloc[0]))
    st.dataframe(display_frame(df), hide_index=True, key=f"{key}_table")
    if truncated:
        st.caption(t("truncated", language, n=len(df)))
    figure = render_chart(spec, df)
    if figure is not None:
        st.plotly_chart(figure, key=f"{key}_chart", config={"displaylogo": False})
    elif spec.kind == "none" and len(df) > 1:
        st.caption(f"No chart: {spec.reason}.")
    st.download_button(
        t("download_csv", language), data=df.to_csv(index=False).encode("utf-8-sig"),
        file_name="aria_result.csv", mime="text/csv", key=f"{key}_csv", icon=":material/download:",
    )
