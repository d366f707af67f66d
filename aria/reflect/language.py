"""The question's language (Vietnamese, English, or something Aria does not answer in) and the
checks every question passes before any work is done."""

from __future__ import annotations

import re
import unicodedata
from typing import Literal

from aria.errors import AriaError

Language = Literal["vi", "en"]
MAX_QUESTION_CHARS = 2000

# Letters that, among Latin-script languages, only Vietnamese uses (à, é, ã ... are shared with
# French, Spanish or Portuguese and so prove nothing on their own).
_VI_LETTERS = set("ăđơưĂĐƠƯ")
_VI_TONED = re.compile(r"[ạảặẳẵắằậẩẫấầẹẻẽệểễếềịỉĩọỏộổỗốồợởỡớờụủũựửữứừỵỷỹỳ]", re.IGNORECASE)
_VI_WORDS = {
    "doanh", "thu", "món", "mon", "bàn", "ban", "khách", "khach", "hôm", "qua", "nay", "tháng", "thang",
    "nào", "nao", "bao", "nhiêu", "nhieu", "ca", "tối", "trưa", "của", "cua", "và", "va", "theo", "từng",
    "nhất", "nhat", "đợi", "doi", "gọi", "lại", "bán", "chạy", "những", "các", "cac", "có", "co", "không",
    # syllables of Vietnamese typed without its marks that no English question uses
    "tuan", "truoc", "nguyen", "lieu", "tien", "ngay", "gio", "kho", "hao", "hut", "bep", "nhan", "vien", "trung",
    "binh", "duoc", "roi", "moi", "tung", "voi", "sanh", "dat", "phieu", "thanh", "toan", "tong", "hien", "dang",
    "mua", "nhap", "luong", "phan", "giam", "gia", "nuoc", "uong", "quan", "khong", "nhung",
    # words whose marks French or Portuguese share ("Còn bia Sài Gòn thì sao?" has no letter only Vietnamese uses)
    "còn", "thì", "sao", "là", "gì", "khu", "bia", "vào", "tôi", "mình", "thế", "nhé", "ngày", "hàng", "giá",
    "sáng",  # ("booking ngày mai")
    "này",  # its mark French shares too ("dt ship wk này vs wk trc")
    # shorthand typed on a phone, no English word ("dt", "hnay", "hqua", "bn", "trc")
    "dt", "hnay", "hqua", "bn", "trc",
}
_EN_WORDS = {
    "the", "what", "which", "how", "many", "much", "of", "by", "in", "for", "and", "is", "are", "was",
    "table", "revenue", "orders", "order", "best", "top", "last", "this", "month", "week", "today",
    "yesterday", "show", "list", "average", "per", "each", "who", "when", "did", "does", "sales", "dish",
}
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)


class QuestionRejected(AriaError):
    """The question cannot be worked on as typed (empty, too long, another language)."""


def _non_latin_share(text: str) -> float:
    letters = [ch for ch in text if ch.isalpha()]
    if not letters:
        return 0.0
    other = sum(1 for ch in letters if not unicodedata.name(ch, "").startswith("LATIN"))
    return other / len(letters)


def detect_language(text: str) -> Language | None:
    """``vi``, ``en``, or None for a language Aria does not answer in.

    >>> detect_language("Doanh thu ca tối hôm qua theo từng danh mục?")
    'vi'
    >>> detect_language("Which table has waited longest?")
    'en'
    >>> detect_language("How many portions of bún chả did we sell yesterday?")
    'en'
    >>> detect_language("Còn bia Sài Gòn thì sao?")
    'vi'
    """
    if _non_latin_share(text) > 0.3:
        return None
    words = [w.lower() for w in _WORD.findall(text)]
    vi_hits = sum(w in _VI_WORDS for w in words)
    en_hits = sum(w in _EN_WORDS for w in words)
    marked = sum(1 for w in words if any(ch in _VI_LETTERS for ch in w) or _VI_TONED.search(w))
    if marked:  # Vietnamese, unless English carries it and the marked words are a name quoted in it
        return "en" if en_hits >= 3 and en_hits > 2 * (vi_hits + marked) else "vi"  # ("what do we charge for Bò lúc lắc")
    if en_hits == 0 and vi_hits == 0:
        accented = any(ord(ch) > 127 for ch in text if ch.isalpha())
        return None if accented else "en"  # e.g. French/German with their own accents
    return "vi" if vi_hits > en_hits else "en"


def validate_question(question: str, *, ui_language: Language = "vi") -> tuple[str, Language]:
    """The cleaned question and its language, or a :class:`QuestionRejected` fit for the chat."""
    cleaned = " ".join(question.split())
    vi = ui_language == "vi"
    if not cleaned:
        raise QuestionRejected(
            "Câu hỏi đang trống." if vi else "The question is empty.",
            hint="Hãy nhập một câu hỏi về nhà hàng." if vi else "Type a question about the restaurant.",
        )
    if len(cleaned) > MAX_QUESTION_CHARS:
        raise QuestionRejected(
            f"Câu hỏi dài {len(cleaned)} ký tự, quá giới hạn {MAX_QUESTION_CHARS}."
            if vi
            else f"The question is {len(cleaned)} characters long, over the {MAX_QUESTION_CHARS} limit.",
            hint="Hãy rút gọn câu hỏi." if vi else "Please shorten it to one question.",
        )
    language = detect_language(cleaned)
    if language is None:
        raise QuestionRejected(
            "Aria chỉ trả lời câu hỏi bằng tiếng Việt hoặc tiếng Anh."
            if vi
            else "Aria answers questions in Vietnamese or English only.",
            hint="Hãy đặt lại câu hỏi bằng tiếng Việt hoặc tiếng Anh."
            if vi
            else "Please ask again in Vietnamese or English.",
        )
    return cleaned, language
