"""The paper's three scores (eqs. 2-4), as pure functions over judge verdicts and check caps.

>>> score_r(relevance=8, completeness=5, alpha=0.6)
6.8
"""

from __future__ import annotations

from collections.abc import Mapping

SQL_DIMENSIONS = ("column", "granularity", "join", "logic")


def score_r(*, relevance: float, completeness: float, alpha: float) -> float:
    """Score_r = αR + (1−α)C on the 1-10 scale."""
    return round(alpha * relevance + (1 - alpha) * completeness, 4)


def capped(scores: Mapping[str, float], caps: Mapping[str, float]) -> dict[str, float]:
    """Each dimension's score, lowered to its cap where a deterministic check failed hard."""
    return {dim: min(value, caps.get(dim, value)) for dim, value in scores.items()}


def score_s(scores: Mapping[str, float], weights: Mapping[str, float]) -> float:
    """S = w_c·C + w_g·G + w_j·J + w_q·Q on the 1-10 scale."""
    return round(sum(weights[dim] * scores[dim] for dim in SQL_DIMENSIONS), 4)


def score_e(*, schema: float, data: float, beta: float) -> float:
    """E = β·E_schema + (1−β)·E_data on the 1-5 scale."""
    return round(beta * schema + (1 - beta) * data, 4)
