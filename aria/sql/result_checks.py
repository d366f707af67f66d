"""Deterministic checks of a query's *result* (no model): evidence for the entailment judge's
E_data (is the data plausible?) and E_schema (is the result shaped as asked?).

>>> [f.check for f in check_result(["revenue_vnd"], [[-5000]])]
['negative_money']
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

import sqlglot
from sqlglot import exp
from sqlglot.errors import SqlglotError

from aria.sql.findings import Finding

_MONEY = re.compile(r"(vnd|revenue|amount|price|cost|total|sales|doanh_thu|tien|tip|spend)", re.IGNORECASE)
_PERCENT = re.compile(r"(pct|percent|rate|ty_le|tyle|share|ratio)", re.IGNORECASE)
_MINUTES = re.compile(r"(_min$|_mins$|minutes|_m$|phut)", re.IGNORECASE)
_KEYISH = re.compile(r"(^id$|_id$|_no$|_code$|^code$)", re.IGNORECASE)
_UNNAMED = {"?column?", "count", "sum", "avg", "min", "max", "round", "coalesce", "case", "date_trunc"}


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float, Decimal)) and not isinstance(value, bool)


def _column(rows: Sequence[Sequence[Any]], index: int) -> list[Any]:
    return [row[index] for row in rows if index < len(row)]


def _measure_columns(columns: list[str], rows: Sequence[Sequence[Any]]) -> list[int]:
    """Columns whose values are numbers (or NULL) and which are not keys."""
    measures = []
    for i, name in enumerate(columns):
        values = _column(rows, i)
        if _KEYISH.search(name) or not all(v is None or _is_number(v) for v in values):
            continue
        measures.append(i)
    return measures


def _ratio_outputs(sql: str | None) -> set[str]:
    """Output names of select items that divide (from the SQL, when given)."""
    if not sql:
        return set()
    try:
        tree = sqlglot.parse_one(sql, read="postgres")
    except SqlglotError:
        return set()
    if not isinstance(tree, exp.Query):
        return set()
    return {s.alias_or_name.lower() for s in tree.selects if s.find(exp.Div) is not None}


def check_result(columns: list[str], rows: list[list[Any]], *, sql: str | None = None) -> list[Finding]:
    """Findings about a result: emptiness, degenerate measures, impossible values, duplicates."""
    if not rows:
        return [Finding(check="empty_result", dimension="data", severity="warning",
                        message="The query returned no rows; check the filters (dates, names, codes).")]
    findings = _shape(columns)
    ratios = _ratio_outputs(sql)
    for i in _measure_columns(columns, rows):
        findings.extend(_measure(columns[i], _column(rows, i), is_ratio=columns[i].lower() in ratios))
    findings.extend(_duplicates(rows))
    return findings


def _shape(columns: list[str]) -> list[Finding]:
    findings = []
    counts = Counter(c.lower() for c in columns)
    for name, n in counts.items():
        if n > 1:
            findings.append(Finding(check="duplicate_column", dimension="schema", severity="warning",
                                    message=f"The column name {name} appears {n} times; give each output its own alias."))
    unnamed = [c for c in columns if c.lower() in _UNNAMED]
    if unnamed:
        findings.append(Finding(check="unnamed_column", dimension="schema", severity="info",
                                message=f"The column(s) {', '.join(unnamed)} have no descriptive alias."))
    return findings


def _measure(name: str, values: list[Any], *, is_ratio: bool) -> list[Finding]:
    numbers = [v for v in values if v is not None]
    findings: list[Finding] = []
    if not numbers:
        return [Finding(check="all_null_measure", dimension="data", severity="warning",
                        message=f"Every value of {name} is NULL.")]
    if len(values) > 1 and all(v == 0 for v in numbers):
        findings.append(Finding(check="all_zero_measure", dimension="data", severity="warning",
                                message=f"Every value of {name} is 0; a filter or an integer division may be wrong."))
    if (is_ratio or _PERCENT.search(name)) and len(numbers) < len(values):
        findings.append(Finding(check="null_ratio", dimension="data", severity="warning",
                                message=f"{name} is NULL in {len(values) - len(numbers)} row(s): a division by NULL or 0."))
    findings.extend(_scale(name, numbers))
    return findings


def _scale(name: str, numbers: list[Any]) -> list[Finding]:
    findings = []
    floats = [float(v) for v in numbers]
    if _MONEY.search(name) and min(floats) < 0:
        findings.append(Finding(check="negative_money", dimension="data", severity="warning",
                                message=f"{name} has negative amounts (lowest {min(floats):,.0f}); money should not be below 0."))
    if "vnd" in name.lower() and any(not math.isclose(f, round(f), abs_tol=1e-9) for f in floats):
        findings.append(Finding(check="fractional_vnd", dimension="data", severity="warning",
                                message=f"{name} has fractional đồng; VND amounts are whole numbers (round them)."))
    if _PERCENT.search(name) and (max(floats) > 100 or min(floats) < 0):
        findings.append(Finding(check="implausible_percentage", dimension="data", severity="warning",
                                message=f"{name} ranges {min(floats):g} to {max(floats):g}, outside 0-100 for a percentage."))
    if _MINUTES.search(name) and max(floats) > 1440:
        findings.append(Finding(check="implausible_minutes", dimension="data", severity="warning",
                                message=f"{name} reaches {max(floats):g} minutes, more than a day; seconds or a unit mix-up?"))
    return findings


def _duplicates(rows: list[list[Any]]) -> list[Finding]:
    counts = Counter(tuple(map(repr, row)) for row in rows)
    dupes = sum(n - 1 for n in counts.values() if n > 1)
    if not dupes:
        return []
    return [Finding(check="duplicate_rows", dimension="data", severity="warning",
                    message=f"{dupes} row(s) repeat exactly; a join may be multiplying rows (or DISTINCT is missing).")]
