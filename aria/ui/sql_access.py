"""The one place the UI runs SQL: through the guard, the cost guard and the read-only executor.

The Re-run button and the SQL Workbench both call :func:`run_sql`; nothing in the UI opens its
own connection to the business data.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

import streamlit as st

from aria.config import Settings
from aria.db.executor import ReadOnlyExecutor
from aria.sql.findings import Finding
from aria.sql.schema import Schema
from aria.ui.resources import current_targets, settings_key

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SqlRun:
    """What running one SQL text gave: the rows and the deterministic findings about it."""

    sql: str
    columns: list[str]
    rows: list[list[Any]]
    truncated: bool
    duration_ms: float
    findings: list[Finding] = field(default_factory=list)


@st.cache_resource(show_spinner=False)
def _executor(key: str, _settings: Settings) -> ReadOnlyExecutor:
    return ReadOnlyExecutor(current_targets(_settings).reader, _settings)


@st.cache_resource(show_spinner=False)
def _schema(key: str, _settings: Settings) -> Schema:
    from aria.db.introspect import introspect_postgres

    return introspect_postgres(current_targets(_settings).admin, _settings.business_schema)


def business_schema(settings: Settings) -> Schema:
    """The business tables (introspected once per settings)."""
    return _schema(settings_key(settings), settings)


def run_sql(sql: str, settings: Settings) -> SqlRun:
    """Guard, cost-guard and run ``sql`` read-only; raises GuardRejection, CostRejection, QueryFailed,
    QueryTimeout or DatabaseUnavailable with a message fit to show."""
    result = _executor(settings_key(settings), settings).run(sql)
    rows = [list(r) for r in result.rows]
    return SqlRun(sql, list(result.columns), rows, bool(result.truncated), float(result.duration_ms),
                  findings=findings_for(sql, list(result.columns), rows, settings))


def findings_for(sql: str, columns: list[str], rows: list[list[Any]], settings: Settings) -> list[Finding]:
    """The deterministic checks on the SQL and on its result (none when the checks are not installed)."""
    found: list[Finding] = []
    try:
        from aria.sql.checks import check_sql

        found += list(check_sql(sql, business_schema(settings)))
    except ImportError:
        log.info("aria.sql.checks not available; skipping SQL findings")
    try:
        from aria.sql.result_checks import check_result

        found += list(check_result(columns, rows))
    except ImportError:
        log.info("aria.sql.result_checks not available; skipping result findings")
    return found
