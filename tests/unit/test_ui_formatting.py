"""Result formatting (VND, percentages, minutes) and the UI's strings."""

from __future__ import annotations

import pandas as pd
import pytest

from aria.ui.formatting import (
    STRINGS,
    display_frame,
    format_minutes,
    format_percent,
    format_value,
    format_vnd,
    t,
)


@pytest.mark.parametrize(
    ("value", "shown"), [(1250000, "1.250.000 ₫"), (0, "0 ₫"), (999.6, "1.000 ₫"), (-50000, "-50.000 ₫"), (None, "")]
)
def test_vnd(value: object, shown: str) -> None:
    assert format_vnd(value) == shown


@pytest.mark.parametrize(("value", "shown"), [(12.5, "12,5%"), (0.125, "12,5%"), (40, "40%"), (float("nan"), "")])
def test_percent(value: float, shown: str) -> None:
    assert format_percent(value) == shown


def test_minutes_and_plain_numbers() -> None:
    assert format_minutes(12) == "12 min"
    assert format_minutes(7.25) == "7,2 min"
    assert format_value("so_luong", 1234) == "1.234"
    assert format_value("doanh_thu", 5e6) == "5.000.000 ₫"
    assert format_value("change_pct", -0.4) == "-0,4%"  # a percent already: never -40%
    assert format_value("share_ratio", 0.4) == "40%"  # a ratio may be a fraction


def test_display_frame_formats_by_column_name_only() -> None:
    df = pd.DataFrame({"item": ["Phở"], "revenue_vnd": [1250000], "doanh_thu": [2e6], "share_pct": [12.5],
                       "wait_m": [14], "table_no": [5]})
    shown = display_frame(df).iloc[0].to_dict()
    assert shown == {"item": "Phở", "revenue_vnd": "1.250.000 ₫", "doanh_thu": "2.000.000 ₫",
                     "share_pct": "12,5%", "wait_m": "14 min", "table_no": 5}
    assert df["revenue_vnd"].iloc[0] == 1250000  # the original is untouched


def test_confirm_and_reject_in_vietnamese() -> None:
    assert (t("confirm", "vi"), t("reject", "vi")) == ("Xác nhận", "Từ chối")
    assert (t("confirm", "en"), t("reject", "en")) == ("Confirm", "Reject")


def test_every_string_exists_in_both_languages() -> None:
    for key, texts in STRINGS.items():
        assert set(texts) == {"vi", "en"}, key
        assert all(text.strip() for text in texts.values()), key
