"""The semantic layer agrees with the golden conventions: for every case of
seed_db/questions/semantic_agreement.yaml, MetricFlow's SQL (compiled from seed_db/semantic/)
returns the same row set as the example's gold SQL on the seeded SmartRestaurant database.

Both run as the read-only role, in READ ONLY transactions, with TimeZone = Asia/Ho_Chi_Minh
(DATE_TRUNC on timestamptz follows the session time zone).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import date, timedelta
from typing import Any

import psycopg
import pytest
import yaml
from psycopg import sql

from aria.config import Settings
from aria.db.connect import Targets
from aria.db.golden import load_golden
from aria.eval.metric import row_set
from aria.paths import seed_dir

pytest.importorskip("metricflow")

from metricflow.engine.metricflow_engine import MetricFlowEngine, MetricFlowQueryRequest  # noqa: E402
from metricflow_semantic_interfaces.parsing.dir_to_model import (  # noqa: E402
    parse_directory_of_yaml_files_to_semantic_manifest,
)
from metricflow_semantics.model.semantic_manifest_lookup import SemanticManifestLookup  # noqa: E402

from aria.semantic.compile import ReadOnlySqlClient

CASES: list[dict[str, Any]] = yaml.safe_load(
    (seed_dir() / "questions" / "semantic_agreement.yaml").read_text(encoding="utf-8"))["cases"]
GOLD = {q.id: q for q in load_golden("examples")}
DAY = "{{ TimeDimension('metric_time', 'day') }}"
DATE_COLUMNS = ("metric_time__day", "metric_time__week", "metric_time__month")
COMPILE_SECONDS: dict[str, float] = {}





def _month_start(day: date, back: int = 0) -> date:
    month = day.year * 12 + day.month - 1 - back
    return date(month // 12, month % 12 + 1, 1)


def period_range(period: str, today: date) -> tuple[date, date]:
    """[start, end) local days of a named period on the business clock.

    >>> period_range("last_week", date(2026, 11, 15))
    (datetime.date(2026, 11, 2), datetime.date(2026, 11, 9))
    >>> period_range("month:10", date(2026, 11, 15))
    (datetime.date(2026, 10, 1), datetime.date(2026, 11, 1))
    """
    tomorrow, monday = today + timedelta(days=1), today - timedelta(days=today.weekday())
    kind, _, arg = period.partition(":")
    fixed = {
        "today": (today, tomorrow), "yesterday": (today - timedelta(days=1), today),
        "this_week": (monday, tomorrow), "last_week": (monday - timedelta(days=7), monday),
        "this_month": (_month_start(today), tomorrow), "last_month": (_month_start(today, 1), _month_start(today)),
        "last_7_days": (today - timedelta(days=6), tomorrow), "last_30_days": (today - timedelta(days=29), tomorrow),
    }
    if kind in fixed:
        return fixed[kind]
    if kind == "weeks":
        return monday - timedelta(days=7 * (int(arg) - 1)), tomorrow
    if kind == "month":
        year = today.year if int(arg) <= today.month else today.year - 1
        start = date(year, int(arg), 1)
        return start, _month_start(date(year + (start.month == 12), start.month % 12 + 1, 1))
    if kind == "day":
        start = date.fromisoformat(arg)
        return start, start + timedelta(days=1)
    raise ValueError(f"unknown period {period!r}")


def time_constraints(case: dict[str, Any], today: date) -> list[str]:
    spec = case.get("time")
    if not spec:
        return []
    if "period" in spec:
        start, end = period_range(spec["period"], today)
    else:
        start, end = date.fromisoformat(spec["start"]), date.fromisoformat(spec["end"])
    return [f"{DAY} >= '{start.isoformat()}'", f"{DAY} < '{end.isoformat()}'"]


def present(mf_sql: str, columns: list[str], decimals: dict[str, int]) -> sql.Composed:
    """SELECT the case's columns from MetricFlow's query: metrics rounded, day columns as dates."""
    parts: list[sql.Composable] = []
    for name in columns:
        ident = sql.Identifier("mf", name)
        if name in decimals:
            parts.append(sql.SQL("round(({})::numeric, {})").format(ident, sql.Literal(decimals[name])))
        elif name in DATE_COLUMNS or name.endswith("_date__day"):
            parts.append(sql.SQL("({})::date").format(ident))
        else:
            parts.append(ident)
    return sql.SQL("SELECT {} FROM ({}) mf").format(sql.SQL(", ").join(parts), sql.SQL(mf_sql))  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def manifest(settings: Settings) -> Any:
    mapping = {"business_schema": settings.business_schema, "semantic_schema": settings.semantic_schema}
    return parse_directory_of_yaml_files_to_semantic_manifest(
        str(seed_dir() / "semantic"), template_mapping=mapping).semantic_manifest


@pytest.fixture(scope="module")
def engine(manifest: Any) -> MetricFlowEngine:
    return MetricFlowEngine(SemanticManifestLookup(manifest), ReadOnlySqlClient())  # no executor: compiles only


@pytest.fixture(scope="module")
def decimals(manifest: Any) -> dict[str, int]:
    return {m.name: int(m.config.meta["decimals"]) for m in manifest.metrics}


@pytest.fixture(scope="module")
def reader(seeded: Targets) -> Iterator[psycopg.Connection]:
    with psycopg.connect(seeded.reader, autocommit=True) as conn:
        conn.execute("SET TimeZone = 'Asia/Ho_Chi_Minh'")
        conn.read_only = True
        yield conn


@pytest.fixture(scope="module")
def business_today(reader: psycopg.Connection) -> date:
    row = reader.execute("SELECT business_now()::date").fetchone()
    assert row is not None
    return row[0]


def _rows(conn: psycopg.Connection, query: str | sql.Composed) -> list[tuple[Any, ...]]:
    with conn.transaction(force_rollback=True):
        return conn.execute(query).fetchall()  # type: ignore[arg-type]


def test_every_case_names_an_example_and_presents_its_columns() -> None:
    assert len(CASES) >= 25
    assert len({c["example"] for c in CASES}) == len(CASES)
    for case in CASES:
        assert case["example"] in GOLD, case["example"]
        assert set(case["columns"]) <= set(case["metrics"]) | set(case.get("group_by", [])), case["example"]


@pytest.mark.parametrize("case", CASES, ids=[c["example"] for c in CASES])
def test_metricflow_agrees_with_gold_sql(
    case: dict[str, Any], engine: MetricFlowEngine, decimals: dict[str, int],
    reader: psycopg.Connection, business_today: date,
) -> None:
    request = MetricFlowQueryRequest.create(
        metric_names=case["metrics"], group_by_names=case.get("group_by") or None,
        where_constraints=[*case.get("where", []), *time_constraints(case, business_today)] or None,
        order_by_names=case.get("order_by") or None, limit=case.get("limit"),
    )
    started = time.perf_counter()
    mf_sql = engine.explain(request).sql_statement.sql
    COMPILE_SECONDS[case["example"]] = time.perf_counter() - started
    got = _rows(reader, present(mf_sql, case["columns"], decimals))
    gold = _rows(reader, GOLD[case["example"]].sql)
    assert got, f"{case['example']}: MetricFlow returned no rows"
    assert row_set(got) == row_set(gold), (
        f"{case['example']}: MetricFlow rows differ from gold\n"
        f"only MetricFlow: {sorted(row_set(got) - row_set(gold), key=str)[:5]}\n"
        f"only gold: {sorted(row_set(gold) - row_set(got), key=str)[:5]}\n{mf_sql}"
    )


def test_period_ranges_follow_the_business_clock() -> None:
    sunday = date(2026, 11, 15)
    assert period_range("today", sunday) == (sunday, date(2026, 11, 16))
    assert period_range("this_week", sunday) == (date(2026, 11, 9), date(2026, 11, 16))
    assert period_range("last_month", sunday) == (date(2026, 10, 1), date(2026, 11, 1))
    assert period_range("month:12", sunday) == (date(2025, 12, 1), date(2026, 1, 1))
    assert period_range("weeks:8", sunday) == (date(2026, 9, 21), date(2026, 11, 16))


def test_time_spine_is_readable_by_the_reader(reader: psycopg.Connection, settings: Settings) -> None:
    query = sql.SQL("SELECT count(*), min(date_day), max(date_day) FROM {}").format(
        sql.Identifier(settings.semantic_schema, "time_spine"))
    count, first, last = _rows(reader, query)[0]
    assert first <= date(2025, 1, 1) and last >= date(2030, 12, 31)
    assert count == (last - first).days + 1
