from __future__ import annotations

import pytest

from aria.reflect.language import MAX_QUESTION_CHARS, QuestionRejected, detect_language, validate_question


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Doanh thu ca tối hôm qua theo từng danh mục?", "vi"),
        ("Bàn số 5 đã đợi món khai vị bao lâu?", "vi"),
        ("mon ban chay nhat thang nay", "vi"),  # typed without diacritics
        ("hao hut tuan truoc top 5 nguyen lieu ton tien nhat", "vi"),  # "top" is said in Vietnamese too
        ("top 5 dishes by revenue this week", "en"),
        ("Which table has waited longest for food this lunch?", "en"),
        ("Top 5 dishes by revenue last week", "en"),
        ("What do we charge for Bò lúc lắc, and what does a portion cost us?", "en"),  # a dish named in Vietnamese
        ("Top 5 món bán chạy nhất tuần này", "vi"),
        ("doanh thu hôm qua by payment method", "vi"),
        ("Còn bia Sài Gòn thì sao?", "vi"),  # only marks French shares, on words only Vietnamese uses
        ("Còn khu VIP thì sao?", "vi"),
        ("booking ngày mai", "vi"),  # "ngày": a mark French shares, on a word only Vietnamese uses
        ("dt ship wk này vs wk trc", "vi"),  # shorthand, and "này" (a mark French shares too)
        ("hnay bn bill r", "vi"),
        ("昨天晚上的营业额是多少？", None),
        ("Какая выручка за вчера?", None),
        ("รายได้เมื่อวานเท่าไหร่", None),
        ("Quel est le chiffre d'affaires d'hier soir à la carte?", None),
    ],
)
def test_detect_language(text: str, expected: str | None) -> None:
    assert detect_language(text) == expected


def test_empty_question_is_rejected_in_the_ui_language() -> None:
    with pytest.raises(QuestionRejected, match="trống"):
        validate_question("   \n ", ui_language="vi")
    with pytest.raises(QuestionRejected, match="empty"):
        validate_question("", ui_language="en")


def test_overlong_question_is_rejected_with_its_length() -> None:
    with pytest.raises(QuestionRejected, match=str(MAX_QUESTION_CHARS)):
        validate_question("doanh thu " * 1000, ui_language="vi")


def test_third_language_is_rejected() -> None:
    with pytest.raises(QuestionRejected, match="English"):
        validate_question("昨天晚上的营业额是多少？", ui_language="en")


def test_question_is_cleaned_and_language_returned() -> None:
    assert validate_question("  Món bán chạy   nhất? ") == ("Món bán chạy nhất?", "vi")
