"""The evaluation report: ``summary.json``, ``report.md`` (the paper's tables) and a self-contained
``report.html`` (Plotly inlined: it opens without a network). :func:`load_report` is what the UI's
Evaluation page reads.
"""

from __future__ import annotations

import html
import json
import math
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, Field

from aria.errors import ConfigError
from aria.eval.metric import ERROR_CLASSES
from aria.eval.results import ResultRow, read_results

SUMMARY_FILE = "summary.json"
MARKDOWN_FILE = "report.md"
HTML_FILE = "report.html"
_DIFFICULTY_ORDER = ("easy", "medium", "hard", "extra", "simple", "moderate", "challenging", "all")


class Tally(BaseModel):
    n: int = 0
    correct: int = 0
    ex: float = 0.0  # percent, two decimals


class Summary(BaseModel):
    dataset: str = ""
    overall: Tally
    by_difficulty: dict[str, Tally] = Field(default_factory=dict)
    by_ablation: dict[str, Tally] = Field(default_factory=dict)
    by_ablation_difficulty: dict[str, dict[str, Tally]] = Field(default_factory=dict)
    errors: dict[str, int] = Field(default_factory=dict)  # error class -> count
    mean_llm_calls: float = 0.0
    mean_tokens: float = 0.0
    latency_ms: dict[str, float] = Field(default_factory=lambda: {"p50": 0.0, "p95": 0.0})
    skipped: dict[str, int] = Field(default_factory=dict)  # reason -> count


def _tally(rows: list[ResultRow]) -> Tally:
    correct = sum(row.correct for row in rows)
    return Tally(n=len(rows), correct=correct, ex=round(100 * correct / len(rows), 2) if rows else 0.0)


def _percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (``q`` in 0-100)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return round(ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)], 3)


def _difficulty_key(name: str) -> tuple[int, str]:
    return (_DIFFICULTY_ORDER.index(name) if name in _DIFFICULTY_ORDER else len(_DIFFICULTY_ORDER), name)


def _grouped(rows: list[ResultRow], attr: str) -> dict[str, list[ResultRow]]:
    groups: dict[str, list[ResultRow]] = {}
    for row in rows:
        groups.setdefault(getattr(row, attr), []).append(row)
    return groups


def summarize(rows: list[ResultRow], dataset: str = "") -> Summary:
    """EX overall, per difficulty and per ablation over the scored rows; skipped rows counted apart."""
    scored = [row for row in rows if row.skipped is None]
    by_difficulty = _grouped(scored, "difficulty")
    by_ablation = _grouped(scored, "ablation")
    latencies = [row.latency_ms for row in scored]
    return Summary(
        dataset=dataset,
        overall=_tally(scored),
        by_difficulty={k: _tally(by_difficulty[k]) for k in sorted(by_difficulty, key=_difficulty_key)},
        by_ablation={k: _tally(v) for k, v in by_ablation.items()},
        by_ablation_difficulty={
            name: {
                k: _tally(v)
                for k, v in sorted(
                    _grouped(group, "difficulty").items(), key=lambda kv: _difficulty_key(kv[0])
                )
            }
            for name, group in by_ablation.items()
        },
        errors={cls: n for cls, n in Counter(row.error_class for row in scored if row.error_class).items()},
        mean_llm_calls=round(sum(r.llm_calls for r in scored) / len(scored), 3) if scored else 0.0,
        mean_tokens=round(sum(r.tokens for r in scored) / len(scored), 1) if scored else 0.0,
        latency_ms={"p50": _percentile(latencies, 50), "p95": _percentile(latencies, 95)},
        skipped=dict(Counter(row.skipped for row in rows if row.skipped)),
    )


def markdown_report(summary: Summary, skipped_detail: dict[str, str] | None = None) -> str:
    """The paper-style tables: EX by difficulty (one row per ablation), the ablation table, errors."""
    difficulties = list(summary.by_difficulty)
    lines = [f"# Evaluation: {summary.dataset or 'dataset'}", ""]
    lines += [f"Execution accuracy (EX, %) over {summary.overall.n} scored questions.", ""]
    lines += ["| Setting | " + " | ".join(difficulties) + " | All |", "|---" * (len(difficulties) + 2) + "|"]
    for name, per in summary.by_ablation_difficulty.items():
        cells = [f"{per[d].ex:.1f}" if d in per else "-" for d in difficulties]
        lines.append(f"| {name} | " + " | ".join(cells) + f" | {summary.by_ablation[name].ex:.1f} |")
    lines.append("| count | " + " | ".join(str(summary.by_difficulty[d].n) for d in difficulties)
                 + f" | {summary.overall.n} |")  # fmt: skip
    if len(summary.by_ablation) > 1:
        full = summary.by_ablation.get("full")
        lines += ["", "## Ablations", "", "| Setting | EX | Δ vs full |", "|---|---|---|"]
        for name, tally in summary.by_ablation.items():
            delta = f"{tally.ex - full.ex:+.1f}" if full and name != "full" else "-"
            lines.append(f"| {name} | {tally.ex:.1f} | {delta} |")
    lines += ["", "## Failures", "", "| Class | Count |", "|---|---|"]
    lines += [f"| {cls} | {summary.errors.get(cls, 0)} |" for cls in ERROR_CLASSES]
    lines += ["", f"Mean LLM calls: {summary.mean_llm_calls}; mean tokens: {summary.mean_tokens}; "
              f"latency p50 {summary.latency_ms['p50']} ms, p95 {summary.latency_ms['p95']} ms."]  # fmt: skip
    if summary.skipped:
        lines += ["", "## Skipped (not counted)", ""]
        lines += [f"- {reason}: {count}" for reason, count in summary.skipped.items()]
        lines += [f"  - {db}: {why}" for db, why in (skipped_detail or {}).items()]
    return "\n".join(lines) + "\n"


def _skipped_detail(rows: list[ResultRow]) -> dict[str, str]:
    """One reason per database whose questions were skipped for a missing/unreadable file."""
    return {row.db_id: row.error for row in rows if row.skipped == "missing_database"}


def html_report(summary: Summary, markdown: str) -> str:
    """A self-contained page: the charts (Plotly inlined) and the markdown tables as text."""
    import plotly.graph_objects as go

    by_difficulty = go.Figure(
        layout={"title": "EX by difficulty (%)", "barmode": "group", "yaxis": {"range": [0, 100]}}
    )
    for name, per in summary.by_ablation_difficulty.items():
        by_difficulty.add_bar(name=name, x=list(per), y=[t.ex for t in per.values()])
    errors = go.Figure(layout={"title": "Failures by class"})
    errors.add_bar(x=list(ERROR_CLASSES), y=[summary.errors.get(cls, 0) for cls in ERROR_CLASSES])
    charts = by_difficulty.to_html(full_html=False, include_plotlyjs=True) + errors.to_html(
        full_html=False, include_plotlyjs=False
    )
    title = html.escape(f"Aria evaluation: {summary.dataset}")
    return (
        f"<!doctype html><html><head><meta charset='utf-8'><title>{title}</title></head><body>"
        f"<h1>{title}</h1>{charts}<pre>{html.escape(markdown)}</pre></body></html>"
    )


def write_report(out_dir: Path, rows: list[ResultRow], dataset: str = "") -> Summary:
    """Write summary.json, report.md and report.html from the rows; return the summary."""
    summary = summarize(rows, dataset)
    markdown = markdown_report(summary, _skipped_detail(rows))
    (out_dir / SUMMARY_FILE).write_text(
        json.dumps(summary.model_dump(mode="json"), indent=2), encoding="utf-8"
    )
    (out_dir / MARKDOWN_FILE).write_text(markdown, encoding="utf-8")
    (out_dir / HTML_FILE).write_text(html_report(summary, markdown), encoding="utf-8")
    return summary


@dataclass(frozen=True)
class EvalReport:
    """A finished (or partial) evaluation as the UI shows it."""

    out_dir: Path
    summary: Summary
    rows: tuple[ResultRow, ...]
    markdown: str
    html_path: Path | None


def load_report(out_dir: Path) -> EvalReport:
    """Read an evaluation folder; the summary is recomputed from results.jsonl when missing."""
    rows = read_results(out_dir)
    summary_path = out_dir / SUMMARY_FILE
    if not rows and not summary_path.exists():
        raise ConfigError(f"No evaluation results in {out_dir}.", hint="Run `aria eval ... --out DIR` first.")
    if summary_path.exists():
        summary = Summary.model_validate_json(summary_path.read_text(encoding="utf-8"))
    else:
        summary = summarize(rows)
    md_path = out_dir / MARKDOWN_FILE
    markdown = md_path.read_text(encoding="utf-8") if md_path.exists() else markdown_report(summary)
    html_path = out_dir / HTML_FILE
    return EvalReport(out_dir, summary, tuple(rows), markdown, html_path if html_path.exists() else None)
