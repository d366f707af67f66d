"""Deterministic SQL checks (no model): the evidence that grounds the SQL judge.

A pipeline of small rules, each ``Context -> list[Finding]`` (one dimension per module:
:mod:`check_columns` C, :mod:`check_joins` J, :mod:`check_grouping` G, :mod:`check_logic` Q).
A *hard* finding is a certain error; it caps the judge's score for its dimension
(:func:`cap_scores`) whatever the model says.

>>> from aria.sql.schema import Column, Schema, Table
>>> schema = Schema("s", (Table("t", (Column("a", "integer"), Column("b", "integer"))),))
>>> [f.check for f in check_sql("SELECT count(a) / count(b) FROM t", schema)]
['integer_division']
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from sqlglot.errors import SqlglotError

from aria.sql import check_columns, check_grouping, check_joins, check_logic
from aria.sql.check_scope import Context, analyze
from aria.sql.findings import Finding
from aria.sql.schema import Schema

log = logging.getLogger(__name__)

Rule = Callable[[Context], list[Finding]]

RULES: tuple[Rule, ...] = (
    check_columns.unknown_tables,
    check_columns.unknown_columns,
    check_columns.type_mismatches,
    check_joins.cartesian_products,
    check_joins.join_keys,
    check_joins.fan_out,
    check_grouping.ungrouped_columns,
    check_grouping.aggregate_in_where,
    check_grouping.having_without_aggregate,
    check_logic.integer_division,
    check_logic.division_by_zero,
    check_logic.not_in_nullable,
    check_logic.equals_null,
    check_logic.limit_without_order,
)

SCORED_DIMENSIONS = ("column", "granularity", "join", "logic")
HARD_CAP = 2.0


def check_sql(sql: str, schema: Schema, *, dialect: str = "postgres", rules: tuple[Rule, ...] = RULES) -> list[Finding]:
    """All findings for one SQL statement. Never raises: unparsable SQL is one ``parse_error``."""
    try:
        ctx = analyze(sql, schema, dialect=dialect)
    except SqlglotError as err:
        first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        return [Finding(check="parse_error", dimension="logic", severity="hard", message=f"The SQL does not parse: {first}")]
    except Exception as err:  # sqlglot's scope builder can fail on exotic SQL; the checks must not
        log.warning("could not analyse SQL (%s: %s)", type(err).__name__, err)
        return [Finding(check="check_error", dimension="logic", severity="info",
                        message=f"The checks could not analyse this SQL ({type(err).__name__}).")]
    findings: list[Finding] = []
    for rule in rules:
        try:
            findings.extend(rule(ctx))
        except Exception as err:  # one broken rule must not hide the others' evidence
            log.warning("check %s failed (%s: %s)", rule.__name__, type(err).__name__, err)
    return _dedupe(findings)


def _dedupe(findings: list[Finding]) -> list[Finding]:
    seen: set[tuple[str, str]] = set()
    unique = []
    for f in findings:
        if (f.check, f.message) not in seen:
            seen.add((f.check, f.message))
            unique.append(f)
    return unique


def cap_scores(findings: list[Finding], *, hard_cap: float = HARD_CAP) -> dict[str, float]:
    """The most each scored dimension (column, granularity, join, logic; 1-10) may get.

    A hard finding caps its dimension at ``hard_cap``; warnings and infos cap nothing.
    """
    caps = dict.fromkeys(SCORED_DIMENSIONS, 10.0)
    for f in findings:
        if f.severity == "hard" and f.dimension in caps:
            caps[f.dimension] = min(caps[f.dimension], hard_cap)
    return caps


def hard_findings(findings: list[Finding]) -> list[Finding]:
    return [f for f in findings if f.severity == "hard"]
