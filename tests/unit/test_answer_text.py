from __future__ import annotations

from aria.reflect.answer_text import format_value, summarize_result


def test_money_minutes_and_percentages_are_formatted() -> None:
    assert format_value("revenue_vnd", 1250000, "vi") == "1.250.000 ₫"
    assert format_value("wait_minutes", 32, "vi") == "32 phút"
    assert format_value("wait_minutes", 32.5, "en") == "32.5 min"
    assert format_value("reorder_rate", 0.25, "en") == "25.0%"
    assert format_value("change_pct", -6.3, "en") == "-6.3%"  # a percent already, falling
    assert format_value("share_pct", 0.4, "en") == "0.4%"  # a small share, never 40 %
    assert format_value("name_vi", "Lẩu Thái", "vi") == "Lẩu Thái"
    assert format_value("qty", None, "vi") == "—"


def test_summary_speaks_the_question_language() -> None:
    assert summarize_result("vi", ["n"], []) == "Không có dữ liệu nào khớp với câu hỏi."
    assert summarize_result("en", ["table_no", "wait_minutes"], [[4, 32]]) == "Result: table no = 4, wait minutes = 32 min."
    text = summarize_result("vi", ["name_vi", "qty"], [["Phở bò", 120], ["Lẩu Thái", 80]])
    assert text == "Có 2 dòng kết quả; đứng đầu danh sách: Phở bò (qty: 120)."
    assert summarize_result("en", ["day", "revenue_vnd"], [["2026-11-01", 1500000], ["2026-11-02", 900000]]) == \
        "2 rows; at the top of the list: 2026-11-01 (revenue: 1.500.000 ₫)."
    mixed = summarize_result("en", ["table_no", "waiter"], [[4, "An"], [7, "Bình"]])
    assert mixed == "2 rows; the first: table no = 4, waiter = An."
