"""Query results as pandas DataFrames with honest dtypes, and what each column is (time, measure, ...).

psycopg returns ``Decimal`` for numeric columns and ``date``/``datetime`` objects for dates; the
charts and the table formatting need real numeric and datetime dtypes, so :func:`result_frame`
converts them once.

>>> df = result_frame(["ngay", "doanh_thu_vnd"], [[date(2026, 11, 1), Decimal("1250000")]])
>>> str(df["doanh_thu_vnd"].dtype), str(df["ngay"].dtype)
('float64', 'datetime64[us]')
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date, datetime
from decimal import Decimal
from typing import Any, Literal

import pandas as pd

Unit = Literal["vnd", "percent", "minutes", "count", "number"]

_ID_NAME = re.compile(r"(^id$|_id$|_no$|_code$|^code$|phone|email)", re.IGNORECASE)
_TIME_NAME = re.compile(
    r"(date|ngay|day|month|thang|week|tuan|year|nam_|hour|gio|time|_at$|period|ky$)", re.IGNORECASE
)
_ORDINAL_TIME_NAME = re.compile(r"^(hour|gio|month|thang|year|nam|week|tuan|weekday|dow|thu)$", re.IGNORECASE)


def _plain(value: Any) -> Any:
    if isinstance(value, Decimal):
        return float(value)
    return value


def result_frame(columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> pd.DataFrame:
    """A DataFrame of a query result: Decimals as floats, dates and timestamps as datetime64."""
    df = pd.DataFrame([[_plain(v) for v in row] for row in rows], columns=list(columns))
    for name in df.columns:
        series = df[name]
        if series.dtype != object or series.isna().all():
            continue
        values = series.dropna()
        if values.map(lambda v: isinstance(v, int | float) and not isinstance(v, bool)).all():
            df[name] = pd.to_numeric(series)
        elif values.map(lambda v: isinstance(v, datetime | date)).all():
            df[name] = _to_datetime(series)
    return df


def _to_datetime(series: pd.Series) -> pd.Series:
    """Timestamps with a zone are shown in local wall time (the zone dropped) so axes read naturally."""
    converted = pd.to_datetime(series, utc=False)
    if getattr(converted.dt, "tz", None) is not None:
        converted = converted.dt.tz_localize(None)
    return converted


def is_identifier(name: str) -> bool:
    """Columns that name things rather than measure them (ids, codes, numbers printed on tables)."""
    return bool(_ID_NAME.search(name))


def is_time(df: pd.DataFrame, name: str) -> bool:
    """A date/timestamp column, or a small integer named like an hour/month/year (an ordinal time axis)."""
    series = df[name]
    if pd.api.types.is_datetime64_any_dtype(series):
        return True
    if pd.api.types.is_integer_dtype(series) and _ORDINAL_TIME_NAME.match(name):
        return True
    if (series.dtype == object or pd.api.types.is_string_dtype(series)) and _TIME_NAME.search(name):
        parsed = pd.to_datetime(series.dropna().astype(str), errors="coerce", format="mixed")
        return bool(len(parsed)) and bool(parsed.notna().all())
    return False


def is_measure(df: pd.DataFrame, name: str) -> bool:
    """A numeric column that measures something (not an id, not a boolean, not a time axis)."""
    series = df[name]
    if pd.api.types.is_bool_dtype(series) or not pd.api.types.is_numeric_dtype(series):
        return False
    return not is_identifier(name) and not is_time(df, name)


def is_category(df: pd.DataFrame, name: str) -> bool:
    """A label column: text, booleans, or an identifier (a table number, a code)."""
    if is_time(df, name):
        return False
    return not is_measure(df, name)


def unit_of(name: str) -> Unit:
    """The unit a column's name implies (Aria's schema names money ``*_vnd`` and minutes ``*_m``)."""
    lowered = name.lower()
    if lowered.endswith("_vnd") or any(k in lowered for k in ("doanh_thu", "revenue", "vnd", "tien", "price")):
        return "vnd"
    if any(k in lowered for k in ("pct", "percent", "phan_tram", "ty_le", "ti_le", "share", "ty_trong", "ratio")):
        return "percent"
    if lowered.endswith(("_m", "_min", "_mins", "_minutes")) or any(k in lowered for k in ("minute", "phut")):
        return "minutes"
    if any(k in lowered for k in ("count", "so_luong", "qty", "quantity", "num_", "so_don", "orders", "guests")):
        return "count"
    return "number"
