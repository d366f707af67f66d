"""The Evaluation page: the latest evaluation and retrieval reports under ``settings.reports_dir``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd
import plotly.express as px
import streamlit as st

from aria.ui.formatting import t
from aria.ui.resources import current_settings

SUMMARY_FILE = "summary.json"


def find_runs(folder: Path) -> list[Path]:
    """Folders holding a summary.json, newest first."""
    if not folder.is_dir():
        return []
    found = [p.parent for p in folder.rglob(SUMMARY_FILE)]
    return sorted(found, key=lambda p: (p / SUMMARY_FILE).stat().st_mtime, reverse=True)


def find_retrieval_reports(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted(folder.rglob("*retrieval*.json"), key=lambda p: p.stat().st_mtime, reverse=True)


def tally_frame(tallies: dict[str, dict[str, Any]], label: str) -> pd.DataFrame:
    return pd.DataFrame([{label: k, "EX %": v.get("ex", 0.0), "correct": v.get("correct", 0), "n": v.get("n", 0)}
                         for k, v in tallies.items()])


def difficulty_frame(summary: dict[str, Any]) -> pd.DataFrame:
    """EX per (ablation, difficulty), long form for a grouped bar chart."""
    rows = [{"setting": name, "difficulty": diff, "EX %": tally.get("ex", 0.0), "n": tally.get("n", 0)}
            for name, per in summary.get("by_ablation_difficulty", {}).items() for diff, tally in per.items()]
    if not rows:
        rows = [{"setting": "all", "difficulty": d, "EX %": t.get("ex", 0.0), "n": t.get("n", 0)}
                for d, t in summary.get("by_difficulty", {}).items()]
    return pd.DataFrame(rows)


def recall_frame(report: Any) -> pd.DataFrame:
    """Numeric recall-like figures of a retrieval report, flattened to (metric, value)."""
    flat: list[dict[str, Any]] = []

    def walk(prefix: str, value: Any) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                walk(f"{prefix}.{k}" if prefix else str(k), v)
        elif isinstance(value, int | float) and not isinstance(value, bool):
            flat.append({"metric": prefix, "value": float(value)})

    walk("", report)
    return pd.DataFrame(flat, columns=["metric", "value"])


def render() -> None:
    settings = current_settings()
    st.title(t("nav_eval", settings.ui_language))
    folder = settings.reports_dir
    runs = find_runs(folder)
    if not runs:
        st.info(t("eval_empty", settings.ui_language, folder=folder.resolve()))
    else:
        _render_run(st.selectbox("Run", runs, format_func=str, key="eval_run"))
    reports = find_retrieval_reports(folder)
    if reports:
        st.header("Retrieval")
        chosen = st.selectbox("Retrieval report", reports, format_func=str, key="eval_retrieval")
        frame = recall_frame(json.loads(chosen.read_text(encoding="utf-8")))
        recall = frame[frame["metric"].str.contains("recall", case=False)]
        if not recall.empty:
            st.plotly_chart(px.bar(recall, x="metric", y="value", title="Recall"), key="eval_recall")
        st.dataframe(frame, hide_index=True)


def _render_run(run: Path) -> None:
    summary = json.loads((run / SUMMARY_FILE).read_text(encoding="utf-8"))
    overall = summary.get("overall", {})
    left, mid, right = st.columns(3)
    left.metric("EX (execution accuracy)", f"{overall.get('ex', 0.0):.1f}%")
    mid.metric("Questions scored", overall.get("n", 0))
    right.metric("Mean model calls", summary.get("mean_llm_calls", 0))
    by_difficulty = difficulty_frame(summary)
    if not by_difficulty.empty:
        fig = px.bar(by_difficulty, x="difficulty", y="EX %", color="setting", barmode="group",
                     title="EX by difficulty", range_y=[0, 100])
        st.plotly_chart(fig, key="eval_difficulty")
    ablations = tally_frame(summary.get("by_ablation", {}), "setting")
    if len(ablations) > 1:
        st.subheader("Ablations")
        st.dataframe(ablations, hide_index=True)
    errors = summary.get("errors", {})
    if errors:
        st.subheader("Failures by class")
        st.plotly_chart(px.bar(x=list(errors), y=list(errors.values()), labels={"x": "class", "y": "count"}),
                        key="eval_errors")
