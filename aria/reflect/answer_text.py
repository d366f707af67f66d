"""The one-sentence answer, written deterministically from the result in the question's language.

>>> summarize_result("vi", ["revenue_vnd"], [[1250000]])
'Kết quả: revenue = 1.250.000 ₫.'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from aria.reflect.language import Language

_MONEY_HINTS = ("vnd", "revenue", "doanh_thu")
_MINUTE_HINTS = ("minutes", "_min", "mins", "phut", "wait_m", "prep_m", "_m")
_PCT_HINTS = ("pct", "percent", "rate", "ty_le", "share")


def format_value(column: str, value: Any, language: Language) -> str:
    """A value as a manager reads it: VND with dot thousands, minutes, percentages."""
    if value is None:
        return "—"
    name = column.lower()
    if isinstance(value, bool) or not isinstance(value, int | float):
        return str(value)
    if "pct" in name or "percent" in name:  # a percent already (a change of -6.3 %, never -630 %)
        return f"{value:.1f}%"
    if any(h in name for h in _PCT_HINTS):  # a rate or share may be a fraction: 0.25 is 25 %
        return f"{value:.1f}%" if abs(value) > 1 else f"{value * 100:.1f}%"
    if any(h in name for h in _MONEY_HINTS):
        return f"{round(value):,} ₫".replace(",", ".")
    if any(name.endswith(h) for h in _MINUTE_HINTS):
        unit = "phút" if language == "vi" else "min"
        return f"{value:.0f} {unit}" if float(value).is_integer() else f"{value:.1f} {unit}"
    if isinstance(value, float) and not value.is_integer():
        return f"{value:,.2f}".replace(",", " ")
    return f"{int(value):,}".replace(",", ".") if abs(value) >= 10000 else str(int(value))


def label(column: str) -> str:
    """A column name as words: 'doanh_thu_vnd' -> 'doanh thu' (the value carries the ₫)."""
    return column.removesuffix("_vnd").removesuffix("_VND").replace("_", " ").strip() or column


def _describe_row(columns: Sequence[str], row: Sequence[Any], language: Language) -> str:
    return ", ".join(f"{label(c)} = {format_value(c, v, language)}" for c, v in zip(columns, row, strict=False))


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def summarize_result(language: Language, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """One plain sentence: the single value, or the row count and the top of the list, or 'no rows'.

    >>> summarize_result("vi", ["mon", "so_luong"], [["Trà sữa nướng", 872], ["Trà chanh", 464]])
    'Có 2 dòng kết quả; đứng đầu danh sách: Trà sữa nướng (so luong: 872).'
    """
    vi = language == "vi"
    if not rows:
        return "Không có dữ liệu nào khớp với câu hỏi." if vi else "No rows match the question."
    first = _describe_row(columns, rows[0], language)
    if len(rows) == 1:
        return f"Kết quả: {first}." if vi else f"Result: {first}."
    top = rows[0]
    if len(columns) >= 2 and not _is_number(top[0]) and all(_is_number(v) or v is None for v in top[1:]):
        first = f"{top[0]} ({', '.join(f'{label(c)}: {format_value(c, v, language)}' for c, v in zip(columns[1:], top[1:], strict=False))})"
        return f"Có {len(rows)} dòng kết quả; đứng đầu danh sách: {first}." if vi else \
            f"{len(rows)} rows; at the top of the list: {first}."
    return f"Có {len(rows)} dòng kết quả; dòng đầu tiên: {first}." if vi else f"{len(rows)} rows; the first: {first}."
