"""How results read: VND as "1.250.000 ₫", percentages, minutes; and the UI's words in vi and en.

>>> format_vnd(1250000)
'1.250.000 ₫'
>>> format_percent(12.5)
'12,5%'
>>> t("confirm", "vi")
'Xác nhận'
"""

from __future__ import annotations

import math
import numbers
from typing import Any, Literal

import pandas as pd

from aria.ui.frames import unit_of

Language = Literal["vi", "en"]


def _is_missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def _group_thousands(number: float, decimals: int = 0) -> str:
    """Vietnamese number style: '.' between thousands, ',' before decimals."""
    text = f"{number:,.{decimals}f}"
    return text.replace(",", "\x00").replace(".", ",").replace("\x00", ".")


def format_vnd(value: Any) -> str:
    if _is_missing(value):
        return ""
    return f"{_group_thousands(round(float(value)))} ₫"


def format_percent(value: Any) -> str:
    """Percent values as stored: 12.5 -> '12,5%'; a ratio below 1 (0.125) is shown as 12,5% too."""
    if _is_missing(value):
        return ""
    number = float(value)
    if -1.0 <= number <= 1.0 and number != 0:
        number *= 100
    text = _group_thousands(number, 1)
    return f"{text.removesuffix(',0')}%"


def format_minutes(value: Any) -> str:
    if _is_missing(value):
        return ""
    number = float(value)
    return f"{_group_thousands(number, 0 if number.is_integer() else 1)} min"


def format_number(value: Any) -> str:
    if _is_missing(value):
        return ""
    number = float(value)
    return _group_thousands(number, 0 if number.is_integer() else 2)


_FORMATTERS = {"vnd": format_vnd, "percent": format_percent, "minutes": format_minutes}


def display_frame(df: pd.DataFrame) -> pd.DataFrame:
    """A copy of a result for display: money, percentages and minutes as readable text."""
    shown = df.copy()
    for name in shown.columns:
        if not pd.api.types.is_numeric_dtype(shown[name]) or pd.api.types.is_bool_dtype(shown[name]):
            continue
        formatter = _FORMATTERS.get(unit_of(name))
        if formatter is not None:
            shown[name] = shown[name].map(formatter)
    return shown


def format_value(name: str, value: Any) -> str:
    """One value formatted by its column's unit (used for metric answers)."""
    formatter = _FORMATTERS.get(unit_of(name), format_number)
    return formatter(value) if isinstance(value, numbers.Real) and not isinstance(value, bool) else str(value)


STRINGS: dict[str, dict[Language, str]] = {
    "chat_title": {"vi": "Hỏi Aria", "en": "Ask Aria"},
    "chat_placeholder": {"vi": "Hỏi về doanh thu, món bán chạy, bàn, nhân viên…", "en": "Ask about sales, dishes, tables, staff…"},
    "confirm": {"vi": "Xác nhận", "en": "Confirm"},
    "confirm_apply": {"vi": "Lưu vào cơ sở tri thức", "en": "Apply to the knowledge base"},
    "reject": {"vi": "Từ chối", "en": "Reject"},
    "reject_reason": {"vi": "Vì sao câu trả lời sai? (không bắt buộc)", "en": "Why is it wrong? (optional)"},
    "reject_send": {"vi": "Gửi", "en": "Send"},
    "rejected": {"vi": "Đã ghi nhận: câu trả lời bị từ chối. Aria không học gì từ nó.", "en": "Recorded as rejected. Nothing was learned from it."},
    "confirmed": {"vi": "Đã lưu vào cơ sở tri thức.", "en": "Saved to the knowledge base."},
    "kb_would_gain": {"vi": "Cơ sở tri thức sẽ thêm:", "en": "The knowledge base would gain:"},
    "download_csv": {"vi": "Tải CSV", "en": "Download CSV"},
    "sql_label": {"vi": "SQL (có thể sửa rồi chạy lại)", "en": "SQL (edit and re-run)"},
    "rerun": {"vi": "Chạy lại", "en": "Re-run"},
    "trace": {"vi": "Aria đã làm gì", "en": "How Aria got here"},
    "thinking": {"vi": "Aria đang tìm câu trả lời…", "en": "Aria is working on it…"},
    "done": {"vi": "Xong", "en": "Done"},
    "no_rows": {"vi": "Không có dòng nào.", "en": "No rows."},
    "truncated": {"vi": "Chỉ hiện {n} dòng đầu.", "en": "Only the first {n} rows are shown."},
}


def t(key: str, language: Language = "vi", **values: Any) -> str:
    """A UI string in the language, with ``{placeholders}`` filled."""
    text = STRINGS[key][language]
    return text.format(**values) if values else text

